//! `sygo gtp`: the engine protocol on standard input and output.

use std::io::{self, BufReader};
use std::time::Duration;

use clap::CommandFactory;
use clap::error::ErrorKind;
use sygo_ai::{MAX_LEVEL, PlayerKind, PlayerSpec, SpecError};
use sygo_gtp::{Engine, EngineOptions};

use crate::BoardArgs;

/// Options of `sygo gtp`.
#[derive(Debug, clap::Args)]
pub struct GtpArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// The player behind `genmove` and `analyze`: random, uct, mcts, or one
    /// with options, like mcts:level=3 or mcts:threads=1,rave=off.
    #[arg(
        long,
        value_name = "SPEC",
        default_value = "mcts",
        conflicts_with = "level"
    )]
    player: PlayerSpec,
    /// The strength of the mcts player, 1 to 6 (6, the strongest, is the
    /// default): shorthand for --player mcts:level=N.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=i64::from(MAX_LEVEL)))]
    level: Option<u8>,
    /// Time per turn in milliseconds when the controller sets no time
    /// control (time_settings).
    #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    time: u64,
    /// Search threads of the player (mcts, uct).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(sygo_ai::options::THREADS))]
    threads: Option<u64>,
    /// The most visits (simulations) of a genmove; the turn ends at this many
    /// or at its time, whichever comes first.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    visits: Option<u64>,
    /// Seed of the player's random choices: with the random player, or a
    /// search limited by --visits on one thread, one seed gives one sequence
    /// of answers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

impl GtpArgs {
    /// The player asked for: `--player`, or `--level`, with `--threads`.
    fn player(&self) -> Result<PlayerSpec, String> {
        let spec = match self.level {
            Some(level) => PlayerSpec::mcts_level(level).expect("a level checked by clap"),
            None => self.player.clone(),
        };
        match self.threads {
            Some(threads) if spec.kind() != PlayerKind::Random => spec
                .with("threads", &threads.to_string())
                .map_err(|e: SpecError| format!("--threads: {e}")),
            Some(_) => Err(format!("--threads: the player {spec} has no threads")),
            None => Ok(spec),
        }
    }
}

/// Stops with a usage error (exit code 2), as for any bad option.
fn usage_error(message: &str) -> ! {
    crate::Cli::command()
        .error(ErrorKind::ValueValidation, message)
        .exit()
}

/// Runs the protocol until `quit` or the end of the input.
pub fn run(args: &GtpArgs) -> anyhow::Result<()> {
    let geometry = args.board.geometry()?;
    let player = args.player().unwrap_or_else(|e| usage_error(&e));
    let options = EngineOptions {
        variant: geometry.variant(),
        size: geometry.size(),
        seed: args.seed,
        player,
        time_per_turn: Duration::from_millis(args.time),
        visits: args.visits,
    };
    let mut engine = Engine::new(options)?;
    sygo_gtp::run(
        &mut engine,
        BufReader::new(io::stdin()),
        io::stdout().lock(),
    )?;
    Ok(())
}
