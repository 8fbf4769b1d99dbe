//! The match runner: N games between two entrants, in pairs from the same
//! opening with colours swapped, on several threads.
//!
//! Game i belongs to pair i/2 and starts with that pair's opening; A plays
//! White (who moves first) in even games and Black in odd ones. Each
//! player's choices in game i follow from seeds derived from the match's
//! seed and i, so every game is the same whichever thread plays it and
//! whatever it played before: a match of built-in players with visit
//! budgets is reproducible game by game (with time budgets, a search's
//! choices depend on the machine's speed).
//!
//! Each thread has its own pair of contenders (for an external engine, its
//! own process) and takes the next game to play from a shared counter, so
//! games start in order. Results reach the caller as each game ends. A game
//! starts only when fewer than `jobs` games are played or waiting for the
//! caller, so when the caller stops the match after game n, at most
//! `jobs − 1` games beyond it have started (with one thread, none).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use sygo_rules::{Color, Geometry};

use sygo_ai::Budget;

use crate::contender::{Contender, Entrant};
use crate::error::MatchError;
use crate::game::{GameReport, GameSetup, play_game};
use crate::opening::{derive_seed, opening};
use crate::summary::Summary;

/// How a match is played.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSettings {
    /// The board.
    pub geometry: Geometry,
    /// How many games.
    pub games: usize,
    /// Each turn's budget, for both players.
    pub budget: Budget,
    /// The seed of the openings and of the players' choices.
    pub seed: u64,
    /// How many games are played at once (threads); at least 1.
    pub jobs: usize,
    /// How many random turns each opening has.
    pub opening_turns: usize,
}

impl MatchSettings {
    /// The setup of game `index`: its opening, A's colour, the seeds.
    pub fn game_setup(&self, index: usize) -> GameSetup {
        let pair = (index / 2) as u64;
        GameSetup {
            index,
            geometry: self.geometry,
            opening: opening(self.geometry, self.opening_turns, self.seed, pair),
            a_color: if index % 2 == 0 {
                Color::White
            } else {
                Color::Black
            },
            budget: self.budget,
            seeds: [
                derive_seed(self.seed, index as u64, 1),
                derive_seed(self.seed, index as u64, 2),
            ],
        }
    }
}

/// A finished match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Every game played, in the order of their numbers.
    pub games: Vec<GameReport>,
    /// The results.
    pub summary: Summary,
    /// Wall-clock time of the whole match.
    pub elapsed: Duration,
    /// Whether the caller stopped the match before all its games were
    /// played (the games under way then were finished and counted).
    pub stopped: bool,
}

/// Plays a match between `a` and `b`. After each game, `on_game` sees it
/// and the summary so far (on the calling thread), and may stop the match:
/// no game starts after that, and the games under way are finished.
///
/// # Errors
///
/// When an entrant cannot make its contenders (an engine that cannot be
/// started): no game is played.
pub fn run_match(
    settings: &MatchSettings,
    a: &Entrant,
    b: &Entrant,
    mut on_game: impl FnMut(&GameReport, &Summary) -> ControlFlow<()>,
) -> Result<MatchReport, MatchError> {
    let started = Instant::now();
    let jobs = settings.jobs.clamp(1, settings.games.max(1));
    let mut pairs: Vec<(Box<dyn Contender>, Box<dyn Contender>)> = Vec::with_capacity(jobs);
    for _ in 0..jobs {
        let first = a.contender().map_err(|error| MatchError {
            side: 'A',
            name: a.name().to_string(),
            error,
        })?;
        let second = b.contender().map_err(|error| MatchError {
            side: 'B',
            name: b.name().to_string(),
            error,
        })?;
        pairs.push((first, second));
    }
    let next = AtomicUsize::new(0);
    // The games that may start: those numbered below `allowed`, until the
    // caller stops the match.
    let gate = Gate {
        state: Mutex::new(GateState {
            allowed: jobs,
            stop: false,
        }),
        changed: Condvar::new(),
    };
    let mut summary = Summary::default();
    let mut games = Vec::with_capacity(settings.games);
    thread::scope(|scope| {
        let (sender, results) = mpsc::channel();
        for (mut first, mut second) in pairs {
            let sender = sender.clone();
            let (next, gate) = (&next, &gate);
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= settings.games || !gate.wait_for(index) {
                        break;
                    }
                    let setup = settings.game_setup(index);
                    let report = play_game(&setup, first.as_mut(), second.as_mut());
                    if sender.send(report).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for report in results {
            summary.add(&report);
            let stop = on_game(&report, &summary).is_break();
            gate.next(stop);
            games.push(report);
        }
    });
    games.sort_by_key(|g| g.index);
    Ok(MatchReport {
        stopped: games.len() < settings.games,
        games,
        summary,
        elapsed: started.elapsed(),
    })
}

/// Which games may start.
struct Gate {
    state: Mutex<GateState>,
    changed: Condvar,
}

struct GateState {
    /// Games numbered below this may start.
    allowed: usize,
    /// The caller stopped the match.
    stop: bool,
}

impl Gate {
    /// Waits until game `index` may start; `false` if the match stopped
    /// before it was allowed. A game allowed before the stop is played even
    /// when its thread wakes up after it, so the games played are always
    /// the first ones, with no gap.
    fn wait_for(&self, index: usize) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while index >= state.allowed && !state.stop {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        index < state.allowed
    }

    /// The caller has seen one more game, and may have stopped the match.
    fn next(&self, stop: bool) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.stop |= stop;
        if !state.stop {
            state.allowed += 1;
        }
        self.changed.notify_all();
    }
}
