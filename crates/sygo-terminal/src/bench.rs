//! `sygo bench`: uniformly random games with the rules library's random
//! player, timed ([`play_games`]), and the report ([`report`]).
//!
//! The last line of the output is for machines:
//! `steps=… turns=… games=… seconds=… steps_per_second=…`. With `--games`
//! the counts depend on the seed only.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_pcg::Pcg32;
use sygo_rules::{GameStats, Geometry, Position};

/// When the benchmark stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// After this many games.
    Games(u64),
    /// At the end of the game under way when this much time has passed.
    Time(Duration),
}

/// What the benchmark measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct Totals {
    /// Steps (stones) and turns played.
    pub stats: GameStats,
    /// Games played.
    pub games: u64,
    /// The time taken.
    pub elapsed: Duration,
}

/// Plays random games from the empty board until the budget is spent.
pub fn play_games(geometry: Geometry, limit: Limit, seed: u64) -> Totals {
    // PCG32: small and fast, and well mixed enough for random play.
    let mut rng = Pcg32::seed_from_u64(seed);
    // Each game starts from a copy of the empty position, as a playout starts
    // from a copy of the position it explores.
    let empty = Position::new(geometry);
    let mut position = empty.clone();
    let mut totals = Totals::default();
    let start = Instant::now();
    loop {
        let more = match limit {
            Limit::Games(games) => totals.games < games,
            Limit::Time(limit) => start.elapsed() < limit,
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
pub fn report(geometry: Geometry, seed: u64, totals: &Totals) -> String {
    let mut out = String::new();
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
    let _ = writeln!(
        out,
        "{geometry}: {games} random games (seed {seed}) in {seconds:.3} s"
    );
    let _ = writeln!(
        out,
        "  {:.1} turns and {:.1} stones per game",
        per_game(stats.turns),
        per_game(stats.steps)
    );
    let _ = writeln!(
        out,
        "  {:.3} million steps per second, {:.1} games per second",
        per_second(stats.steps) / 1e6,
        per_second(games)
    );
    let _ = writeln!(
        out,
        "steps={} turns={} games={games} seconds={seconds:.6} steps_per_second={:.0}",
        stats.steps,
        stats.turns,
        per_second(stats.steps)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counts_depend_on_the_seed_only() {
        let g = Geometry::sygo(5).unwrap();
        let a = play_games(g, Limit::Games(3), 7);
        let b = play_games(g, Limit::Games(3), 7);
        assert_eq!(a.games, 3);
        assert_eq!(
            (a.stats.steps, a.stats.turns),
            (b.stats.steps, b.stats.turns)
        );
        let text = report(g, 7, &a);
        let last = text.lines().last().unwrap();
        assert!(last.starts_with(&format!(
            "steps={} turns={} games=3 ",
            a.stats.steps, a.stats.turns
        )));
    }
}
