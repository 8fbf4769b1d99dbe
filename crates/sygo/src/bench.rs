//! `sygo bench`: uniformly random games, timed
//! (`sygo_terminal::bench`). The last line of the output is for machines.

use std::io::{self, Write};
use std::time::Duration;

use anyhow::Context as _;
use sygo_terminal::bench::{self, Limit};

use crate::BoardArgs;

/// Options of `sygo bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Number of games to play [default: 1000].
    #[arg(long, conflicts_with = "seconds")]
    games: Option<u64>,
    /// Play games until this many seconds have passed instead (the game under
    /// way is finished).
    #[arg(long, value_parser = parse_seconds)]
    seconds: Option<f64>,
    /// Seed of the random games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..=1e9).contains(&s) => Ok(s),
        _ => Err(format!("{text:?} is not a number of seconds")),
    }
}

/// Plays the games and prints the summary.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let geometry = args.board.geometry()?;
    let limit = match (args.games, args.seconds) {
        (_, Some(seconds)) => Limit::Time(Duration::from_secs_f64(seconds)),
        (games, None) => Limit::Games(games.unwrap_or(1000)),
    };
    let totals = bench::play_games(geometry, limit, args.seed);
    let text = bench::report(geometry, args.seed, &totals);
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("writing the report")
}
