//! The players of sygo: whatever chooses turns.
//!
//! # Brief overview
//!
//! - [`Player`]: the one interface every player implements: given a game and
//!   a [`Budget`] (time, visits), choose a whole turn ([`Decision`]), with an
//!   [`Analysis`] when the player searched.
//! - [`RandomPlayer`]: uniformly random legal turns (the rules library's
//!   random player), the weakest baseline.
//! - [`PlayerSpec`]: the one text that names a built-in player
//!   (`mcts:level=3`), read, checked and built in one place; the options a
//!   user can set are range-checked ([`options`]).
//!
//! - [`solver`]: the exact value of a whole game on the smallest boards
//!   (Sygo 3×3 and 4×4, Hexsygo 2): White's score margin with best play,
//!   and a line of play that keeps it (`sygo solve`).
//!
//! The search and the `uct` baseline build on these types; the arena that
//! measures players against each other is the `sygo-arena` crate.
//!
//! # Examples
//!
//! ```
//! use sygo_ai::{Budget, Player, RandomPlayer};
//! use sygo_rules::{Game, Geometry, Position};
//!
//! let mut game = Game::new(Position::new(Geometry::hexsygo(4).unwrap()));
//! let mut player = RandomPlayer::new(7);
//! while !game.position().is_over() {
//!     let decision = player.choose(&game, &Budget::default());
//!     game.play(decision.turn).unwrap();
//! }
//! assert!(game.position().outcome().is_some());
//! ```

mod analysis;
mod budget;
mod clock;
pub mod endgame;
pub mod knowledge;
mod mcts;
pub mod options;
mod player;
mod random;
pub mod search;
pub mod solver;
mod spec;
mod steps;
mod turns;
mod uct;
pub mod view;

pub use analysis::{Analysis, Candidate};
pub use budget::{Budget, overrun_limit};
pub use clock::{Clock, DEFAULT_LAG, TimeControl};
pub use mcts::{MAX_LEVEL, MctsPlayer, MctsSettings};
pub use options::OptionError;
pub use player::{Decision, Player};
pub use random::RandomPlayer;
pub use spec::{PlayerKind, PlayerSpec, SpecError};
pub use steps::{Step, StepGame};
pub use uct::{UctPlayer, UctPolicy, UctSettings};
