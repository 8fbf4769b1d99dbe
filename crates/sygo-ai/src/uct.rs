//! The `uct` baseline: plain UCT, what generic game-playing systems do, and
//! the yardstick the strong player is measured against.
//!
//! Exactly: the same atomic steps as the strong player ([`StepGame`]: a
//! stone, `Finish`, `Pass`); UCB1 with exploration constant √2 on win/loss
//! values (1, ½, 0), every untried step tried once, in random order, before
//! any is compared; one node added per simulation; no transpositions, no
//! priors, no RAVE, no reuse of the tree; playouts uniformly random to the end
//! of the game by the rules library's random player
//! (`sygo_rules::Position::play_random_game`), after the growth turn in
//! progress at the leaf is completed the way that player would (after each
//! growth step, end the turn with probability ½, else another growth step
//! drawn uniformly among those the search offers); a turn that a group is
//! left without a liberty in is completed by the steps that rescue it
//! ([`StepGame::complete_turn`]). The decision is the most visited whole
//! turn (`turns`); where the tree stops in the middle of a turn, the turn
//! ends there, rescued the same way if need be.
//!
//! It searches on one thread unless told otherwise, so that in a match
//! played two games at a time on two cores each player has one core.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use sygo_rules::{Game, StepKind};

use crate::analysis::Analysis;
use crate::budget::Budget;
use crate::mcts::turn_limits;
use crate::options::{MEMORY_MIB, Opt, OptionError, THREADS, TIME_MS, VISITS};
use crate::player::{Decision, Player};
use crate::search::{
    GameState, Outcome, Policy, Search, SearchConfig, Trace, merged_node_stats, run_parallel,
};
use crate::steps::{Step, StepGame, turn_of};
use crate::turns;

/// Uniformly random playouts (module doc).
#[derive(Clone, Debug)]
pub struct UctPolicy {
    rng: Pcg64Mcg,
    steps: Vec<Step>,
}

impl UctPolicy {
    /// Playouts whose random choices follow from `seed`.
    pub fn new(seed: u64) -> UctPolicy {
        UctPolicy {
            rng: Pcg64Mcg::seed_from_u64(seed),
            steps: Vec::new(),
        }
    }
}

impl Policy<StepGame> for UctPolicy {
    fn playout(&mut self, state: &mut StepGame, _trace: &mut Trace) -> Outcome {
        // The growth turn in progress, as the library's random player would
        // go on with it.
        while state.position().turn_in_progress() {
            if self.rng.next_u32() & 1 == 0 {
                break;
            }
            self.steps.clear();
            state.for_each_step(|step, kind| {
                if kind == Some(StepKind::Growth) {
                    self.steps.push(step);
                }
            });
            if self.steps.is_empty() {
                break;
            }
            let i = ((u64::from(self.rng.next_u32()) * self.steps.len() as u64) >> 32) as usize;
            state.apply(self.steps[i]);
        }
        self.steps.clear();
        state.complete_turn(&mut self.steps);
        state.position_mut().play_random_game(&mut self.rng);
        state.final_outcome()
    }
}

/// The settings of [`UctPlayer`].
#[derive(Clone, Debug, PartialEq)]
pub struct UctSettings {
    /// Search threads (one tree each, merged at the end).
    pub threads: usize,
    /// Most simulations per turn (`None`: as many as the time allows).
    pub visits: Option<u64>,
    /// Time per turn when the budget gives neither time nor visits.
    pub default_time: Duration,
    /// Bytes for the trees.
    pub memory: usize,
}

impl Default for UctSettings {
    fn default() -> UctSettings {
        UctSettings {
            threads: 1,
            visits: None,
            default_time: Duration::from_secs(1),
            memory: 512 << 20,
        }
    }
}

/// The plain UCT player (module doc).
///
/// ```
/// use sygo_ai::{Budget, Player, UctPlayer};
/// use sygo_rules::{Game, Geometry, Position};
///
/// let game = Game::new(Position::new(Geometry::hexsygo(3).unwrap()));
/// let mut uct = UctPlayer::new(3);
/// let decision = uct.choose(&game, &Budget::visits(300));
/// assert!(game.position().clone().play_turn(&decision.turn).is_ok());
/// ```
pub struct UctPlayer {
    settings: UctSettings,
    searches: Vec<Search<StepGame, UctPolicy>>,
    stop: Arc<AtomicBool>,
}

impl UctPlayer {
    /// A UCT player with the default settings (one thread).
    pub fn new(seed: u64) -> UctPlayer {
        UctPlayer::with_settings(UctSettings::default(), seed)
    }

    /// A UCT player with these settings.
    pub fn with_settings(settings: UctSettings, seed: u64) -> UctPlayer {
        let threads = settings.threads.max(1);
        let config = SearchConfig::uct(settings.memory / threads);
        let searches = (0..threads)
            .map(|i| {
                let seed = seed.wrapping_add(0x51_7CC1 * (i as u64 + 1));
                Search::new(config.clone(), UctPolicy::new(seed), seed)
            })
            .collect();
        UctPlayer {
            settings,
            searches,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A UCT player from options written `key=value`: `threads=N`,
    /// `visits=N`, `time=MS` (the default time per turn), `memory=MIB`.
    ///
    /// # Errors
    ///
    /// An unknown option, or a bad value or one out of range (see
    /// [`crate::options`]).
    pub fn from_options(seed: u64, options: &[(String, String)]) -> Result<UctPlayer, OptionError> {
        let mut settings = UctSettings::default();
        for (key, value) in options {
            let o = Opt::new(key, value);
            match key.as_str() {
                "threads" => settings.threads = o.whole(THREADS)? as usize,
                "visits" => settings.visits = Some(o.whole(VISITS)?),
                "time" => settings.default_time = Duration::from_millis(o.whole(TIME_MS)?),
                "memory" => settings.memory = (o.whole(MEMORY_MIB)? as usize) << 20,
                _ => {
                    return Err(OptionError::Unknown {
                        player: "uct",
                        key: key.to_string(),
                    });
                }
            }
        }
        Ok(UctPlayer::with_settings(settings, seed))
    }

    /// A flag that stops the search in progress when set.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }
}

impl Player for UctPlayer {
    fn stop_handle(&self) -> Option<Arc<AtomicBool>> {
        Some(UctPlayer::stop_handle(self))
    }

    fn name(&self) -> String {
        "uct".to_string()
    }

    fn choose(&mut self, game: &Game, budget: &Budget) -> Decision {
        let start = Instant::now();
        self.stop.store(false, Ordering::Relaxed);
        let root = StepGame::new(game.position().clone());
        for search in &mut self.searches {
            search.set_root(&root);
        }
        let limits = turn_limits(
            budget,
            self.settings.visits,
            self.settings.default_time,
            &self.stop,
            start,
        );
        if !root.is_over() {
            run_parallel(&mut self.searches, &limits);
        }
        // Where the tree stops in the middle of a turn, the turn ends (once
        // a group left without a liberty is rescued).
        let mut complete = |s: &mut StepGame, steps: &mut Vec<Step>| {
            if s.position().turn_in_progress() {
                s.complete_turn(steps);
            } else if steps.is_empty() {
                s.apply(Step::Pass);
                steps.push(Step::Pass);
            }
        };
        let lines = turns::whole_turns(&self.searches, &[], &root, 5, Some(&mut complete));
        let turn = match lines.first() {
            Some(line) => turns::turn(line),
            None => {
                // Nothing searched: the first step offered, and the turn ends.
                let mut steps = Vec::new();
                let mut first = None;
                root.for_each_step(|s, _| {
                    first.get_or_insert(s);
                });
                let mut state = root.clone();
                if let Some(s) = first {
                    state.apply(s);
                    steps.push(s);
                }
                complete(&mut state, &mut steps);
                turn_of(&steps)
            }
        };
        let me = root.to_act();
        let stats = merged_node_stats(&self.searches, &[]).unwrap_or_default();
        let candidates = turns::candidates(&self.searches, &root, &lines, 5, 1, 1);
        Decision {
            turn,
            analysis: Some(Analysis {
                visits: stats.visits,
                win_rate: stats.win_rate(me),
                score_lead: stats.score_lead(me),
                candidates,
                ownership: Vec::new(),
            }),
        }
    }

    fn new_game(&mut self) {
        for search in &mut self.searches {
            search.clear();
        }
    }
}
