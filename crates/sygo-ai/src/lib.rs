//! The players of sygo: whatever chooses turns.
//!
//! # Brief overview
//!
//! - [`Player`]: the one interface every player implements: given a game and
//!   a [`Budget`] (time, visits), choose a whole turn ([`Decision`]), with an
//!   [`Analysis`] when the player searched.
//! - [`RandomPlayer`]: uniformly random legal turns (the rules library's
//!   random player), the weakest baseline.
//! - [`arena`]: matches between two players (built-in, or external engines
//!   speaking the protocol), with the Elo difference and the SPRT.
//!
//! The search, the `uct` baseline and the arena that measures players against
//! each other build on these types.
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
pub mod arena;
mod budget;
mod clock;
pub mod endgame;
pub mod knowledge;
mod mcts;
mod player;
mod random;
pub mod search;
mod steps;
mod turns;
mod uct;

pub use analysis::{Analysis, Candidate};
pub use budget::Budget;
pub use clock::{Clock, DEFAULT_LAG, TimeControl};
pub use mcts::{MAX_LEVEL, MctsPlayer, MctsSettings};
pub use player::{Decision, Player};
pub use random::RandomPlayer;
pub use steps::{Step, StepGame};
pub use uct::{UctPlayer, UctPolicy, UctSettings};
