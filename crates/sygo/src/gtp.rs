//! `sygo gtp`: the engine protocol on standard input and output.

use std::io;

use sygo_gtp::{Engine, EngineOptions};

use crate::BoardArgs;

/// Options of `sygo gtp`.
#[derive(Debug, clap::Args)]
pub struct GtpArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Seed of the random choices of `genmove`: one seed, one sequence of
    /// answers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs the protocol until `quit` or the end of the input.
pub fn run(args: &GtpArgs) -> anyhow::Result<()> {
    let geometry = args.board.geometry()?;
    let mut engine = Engine::new(EngineOptions {
        variant: geometry.variant(),
        size: geometry.size(),
        seed: args.seed,
    })?;
    sygo_gtp::run(&mut engine, io::stdin().lock(), io::stdout().lock())?;
    Ok(())
}
