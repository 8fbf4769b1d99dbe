//! `sygo bench`: uniformly random games with the rules library's random
//! player, timed.
//!
//! The last line of the output is for machines:
//! `steps=… turns=… games=… seconds=… steps_per_second=…`. With `--games`
//! the counts depend on the seed only.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use rand::SeedableRng;
use rand_pcg::Pcg32;
use sygo_rules::{GameStats, Geometry, Position};

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

/// When the benchmark stops.
#[derive(Clone, Copy, Debug)]
enum Budget {
    Games(u64),
    Time(Duration),
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..=1e9).contains(&s) => Ok(s),
        _ => Err(format!("{text:?} is not a number of seconds")),
    }
}

/// What the benchmark measured.
#[derive(Clone, Copy, Debug, Default)]
struct Totals {
    stats: GameStats,
    games: u64,
    elapsed: Duration,
}

/// Plays the games and prints the summary.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let geometry = args.board.geometry()?;
    let budget = match (args.games, args.seconds) {
        (_, Some(seconds)) => Budget::Time(Duration::from_secs_f64(seconds)),
        (games, None) => Budget::Games(games.unwrap_or(1000)),
    };
    let totals = play_games(geometry, budget, args.seed);
    report(&mut io::stdout().lock(), geometry, args.seed, &totals).context("writing the report")
}

/// Plays random games from the empty board until the budget is spent.
fn play_games(geometry: Geometry, budget: Budget, seed: u64) -> Totals {
    // PCG32: small and fast, and well mixed enough for random play.
    let mut rng = Pcg32::seed_from_u64(seed);
    // Each game starts from a copy of the empty position, as a playout starts
    // from a copy of the position it explores.
    let empty = Position::new(geometry);
    let mut position = empty.clone();
    let mut totals = Totals::default();
    let start = Instant::now();
    loop {
        let more = match budget {
            Budget::Games(games) => totals.games < games,
            Budget::Time(limit) => start.elapsed() < limit,
        };
        if !more {
            break;
        }
        position.clone_from(&empty);
        let stats = position.play_random_game(&mut rng);
        totals.stats.steps += stats.steps;
        totals.stats.turns += stats.turns;
        totals.games += 1;
    }
    totals.elapsed = start.elapsed();
    totals
}

/// A few lines for people, then the one line for machines.
fn report(out: &mut impl Write, geometry: Geometry, seed: u64, totals: &Totals) -> io::Result<()> {
    let Totals {
        stats,
        games,
        elapsed,
    } = *totals;
    let seconds = elapsed.as_secs_f64();
    let per_second = |n: u64| {
        if seconds > 0.0 {
            n as f64 / seconds
        } else {
            0.0
        }
    };
    let per_game = |n: u64| {
        if games > 0 {
            n as f64 / games as f64
        } else {
            0.0
        }
    };
    writeln!(
        out,
        "{geometry}: {games} random games (seed {seed}) in {seconds:.3} s"
    )?;
    writeln!(
        out,
        "  {:.1} turns and {:.1} stones per game",
        per_game(stats.turns),
        per_game(stats.steps)
    )?;
    writeln!(
        out,
        "  {:.3} million steps per second, {:.1} games per second",
        per_second(stats.steps) / 1e6,
        per_second(games)
    )?;
    writeln!(
        out,
        "steps={} turns={} games={games} seconds={seconds:.6} steps_per_second={:.0}",
        stats.steps,
        stats.turns,
        per_second(stats.steps)
    )?;
    out.flush()
}
