//! The arena: matches between two players that measure their strength.
//!
//! It builds on the players of `sygo_ai` and adds what only matches need:
//! running games in parallel, external engines as subprocesses, the
//! statistics, and the records; the AI crate knows nothing of it.
//!
//! # Brief overview
//!
//! - [`run_match`] plays a match ([`MatchSettings`]: board, games, budget
//!   per turn, seed, threads, opening length) between two [`Entrant`]s and
//!   returns every game ([`GameReport`]) and a [`Summary`]: wins, losses and
//!   draws of player A, by colour and by pair, score margins, game lengths,
//!   time and overruns, resignations and forfeits.
//! - Games come in pairs from the same random opening with colours swapped
//!   ([`opening`]), and each is reproducible from the match's seed alone.
//! - A player that plays an illegal turn, or an engine that crashes,
//!   answers garbage or too late, loses the game by [`Forfeit`], with the
//!   reason.
//! - [`stats`]: the Elo difference with its 95% interval, and the SPRT
//!   ([`Sprt`]); the formulas are in that module's doc.
//! - Players: built-in ones made for each game from a seed
//!   ([`Entrant::builtin`]), and external engines speaking the protocol
//!   ([`EnginePlayer`]); [`EntrantSpec`] reads the command line's `random`,
//!   `mcts:level=3`, `cmd:sygo gtp --seed 3`.
//!
//! # Examples
//!
//! ```
//! use std::ops::ControlFlow;
//! use sygo_arena::{run_match, EntrantSpec, MatchSettings};
//! use sygo_ai::Budget;
//! use sygo_rules::Geometry;
//!
//! let settings = MatchSettings {
//!     geometry: Geometry::sygo(5).unwrap(),
//!     games: 6,
//!     budget: Budget::visits(100),
//!     seed: 1,
//!     jobs: 2,
//!     opening_turns: 2,
//! };
//! let spec: EntrantSpec = "random".parse().unwrap();
//! let a = spec.entrant(std::time::Duration::from_secs(10));
//! let b = a.clone();
//! let report = run_match(&settings, &a, &b, |_, _| ControlFlow::Continue(())).unwrap();
//! assert_eq!(report.summary.games(), 6);
//! println!("A's Elo over B: {}", report.summary.elo().unwrap());
//! ```

mod contender;
mod engine;
mod error;
mod game;
mod opening;
mod records;
mod report;
mod runner;
mod spec;
pub mod stats;
mod summary;

pub use contender::{Contender, Entrant, Forfeit};
pub use engine::{EngineConfig, EnginePlayer, split_command};
pub use error::{CommandLineError, EntrantSpecError, MatchError, StartError, WriteRecordError};
pub use game::{
    GameEnd, GameReport, GameResult, GameSetup, Side, SideTime, play_game, play_game_from,
};
pub use opening::{derive_seed, opening, opening_from};
pub use records::GameRecords;
pub use report::{budget_text, report_text};
pub use runner::{MatchReport, MatchSettings, run_match};
pub use spec::EntrantSpec;
pub use stats::{EloEstimate, Pentanomial, Sprt, SprtStatus, SprtVerdict, Tally};
pub use summary::{Distribution, ForfeitNote, Summary};
pub use sygo_ai::overrun_limit;
