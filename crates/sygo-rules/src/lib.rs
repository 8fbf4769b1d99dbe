//! The rules of Sygo and Hexsygo, exact and fast.
//!
//! Sygo and Hexsygo are Go variants by Christian Freeling: captured groups are
//! reversed, not removed, and a turn either places one unconnected stone or
//! grows any or all of the mover's groups by one stone each. This crate
//! implements `docs/rules.md` to the letter for the square board (N×N, 3 ≤ N ≤ 25)
//! and the hexagonal board (base n, 2 ≤ n ≤ 13) behind one API.
//!
//! # Brief overview
//!
//! - [`Geometry`]: a board (variant and size), its [`Point`]s and neighbours;
//!   [`Vertex`] is a point as players write it (`D4`, no letter I).
//! - [`Position`]: stones, side to move, balance state, passes, result, and
//!   the turn in progress, built **step by step** ([`Position::play_step`],
//!   [`Position::finish_turn`], [`Position::allowed_steps`]) or played whole
//!   ([`Position::play_turn`] with a [`Turn`] read from `D5,F7,K10`);
//!   whether a turn that a growth left with a group without liberties can
//!   still be completed ([`Position::turn_can_be_completed`]).
//! - [`Game`]: a position with the turns that led to it, and undo.
//! - [`TurnSummary`]: the facts of a turn as the rules played it (its kind,
//!   the stones grown and the groups they grew, the stone placed, the
//!   stones reversed) and the turn in words: `"White grew D5 and F7,
//!   reversing E6."`; [`Game::summaries`] for every turn of a game.
//! - [`Score`] and [`Territory`]: docs/rules.md §8.
//! - the position string: [`Position::to_position_string`] and `parse`.
//! - errors: [`StepError`], [`FinishError`], [`TurnError`] say in a player's
//!   words why something is refused; the position is then unchanged.
//! - [`Position::play_random_turn`]: the uniformly random player.
//! - fast facts for players that search: [`Position::eligible_step`],
//!   [`Position::atari_liberty`], [`Position::for_each_atari`],
//!   [`Position::self_atari`], [`Position::neighbour_counts`].
//! - groups in danger: [`Position::dangers`] and [`CaptureReader`], the exact
//!   reading of which groups the opponent can reverse with one turn, and how.
//!
//! # Examples
//!
//! A turn built step by step, with the refusal of a second growth of one group:
//!
//! ```
//! use sygo_rules::{Color, Geometry, Position, StepError, StepKind, Turn};
//!
//! let g = Geometry::sygo(9).unwrap();
//! let at = |s: &str| g.parse_point(s).unwrap();
//! // White D4, Black F6, then White grows D4 to D5.
//! let mut pos: Position = "sygo 9 9/9/9/5B3/9/3W5/9/9/9 w - 0".parse().unwrap();
//! assert_eq!(pos.play_step(at("D5")), Ok(StepKind::Growth));
//! // C4 would grow the same group again.
//! assert_eq!(
//!     pos.play_step(at("C4")).unwrap_err().to_string(),
//!     "C4 would grow the group at D4 a second time this turn"
//! );
//! pos.finish_turn().unwrap();
//! assert_eq!(pos.side_to_move(), Color::Black);
//! assert!(pos.growth_started()); // Black's balance turn is gone
//!
//! // Black may not end a growth turn with a placement once growth has started.
//! pos.play_step(at("F7")).unwrap();
//! let err = pos.play_step(at("A1")).unwrap_err();
//! assert!(matches!(err, StepError::PlacementAfterGrowth { .. }));
//! // A whole turn from its notation.
//! let mut pos = pos.turn_start();
//! pos.play_turn(&Turn::parse("F7,A1", &g).unwrap()).unwrap_err();
//! pos.play_turn(&Turn::parse("F7", &g).unwrap()).unwrap();
//! assert_eq!(pos.side_to_move(), Color::White);
//! ```
//!
//! The allowed steps after any prefix of a turn:
//!
//! ```
//! use sygo_rules::{Geometry, Position};
//! let g = Geometry::hexsygo(2).unwrap();
//! let pos = Position::new(g);
//! // On an empty board every cell is a legal first placement for White.
//! assert_eq!(pos.allowed_steps().len(), 7);
//! ```

mod base_groups;
mod board;
mod color;
mod completion;
mod coord;
mod danger;
mod diagram;
mod error;
mod facts;
mod game;
mod geometry;
mod point_array;
mod position;
mod position_string;
mod random;
mod score;
mod summary;
mod turn;
mod vacant;
mod zobrist;

pub use base_groups::{BaseGroup, GroupStatus};
pub use color::Color;
pub use coord::Vertex;
pub use danger::{CaptureKind, CaptureReader, Danger};
pub use error::{
    FinishError, GeometryError, ParsePointError, ParsePositionError, ParseTurnError, SetupError,
    StepError, TurnError,
};
pub use facts::NeighbourCounts;
pub use game::Game;
pub use geometry::{Geometry, Point, Variant};
pub use position::{Outcome, Position};
pub use random::{GameStats, RandomTurn};
pub use score::{Region, Score, Territory};
pub use summary::{GrownStone, TurnKind, TurnSummary, list_points};
pub use turn::{StepKind, Turn, format_points, parse_points};

/// The random number generator trait that the random player takes
/// (re-exported from `rand`).
pub use rand::Rng;
