//! Game records of Sygo and Hexsygo: an SGF FF\[4\] format, read strictly
//! and written back losslessly (`docs/records.md` gives the format).
//!
//! # Brief overview
//!
//! - [`Record`]: the game information ([`GameInfo`]), the starting position
//!   (the empty board or a setup) and the [`Tree`] of [`Node`]s with turns
//!   ([`Play`]), comments, variations and the properties this format does not
//!   interpret ([`Property`]), kept and written back. A record is always
//!   legal: every turn of every variation has been replayed.
//! - [`Record::parse`] reads SGF text (the syntax through the `sgf-parse`
//!   crate); [`Record::to_sgf`] writes it; [`Record::from_game`] and
//!   [`Record::main_line`] go to and from a [`Game`](sygo_rules::Game).
//! - [`NodePath`]: a node of the tree by the child taken at each node
//!   (`0.0.1`); [`Tree::walk`] to it, [`Record::game_at`] the game along it,
//!   [`Record::visit`] every node with the position before its turn.
//! - [`RecordError`]: why a record is refused, by stage (the text, the
//!   format, the rules), with the node and the rules library's reason;
//!   [`Record::read_file`] and [`LoadError`] for records in files.
//! - [`point_to_sgf`] and [`point_from_sgf`]: points as two letters, the
//!   column from the left and the row from the top, on both boards.
//!
//! # Examples
//!
//! A record read, its main line replayed, and a refusal with its node:
//!
//! ```
//! use sygo_records::Record;
//! use sygo_rules::{Color, Turn};
//!
//! let text = "(;FF[4]GM[400]VR[sygo]SZ[9]PB[Ann]PW[Bob]
//! ;W[ee];B[cg];W[gc]C[White places again];B[cf][eg])";
//! let record = Record::parse(text).unwrap();
//! assert_eq!(record.info().black.as_deref(), Some("Ann"));
//! let game = record.main_line();
//! let g = game.position().geometry();
//! // Black's balance turn: C3 grows to C4, then a placement at E3.
//! assert_eq!(game.turns()[3], Turn::parse("C4,E3", &g).unwrap());
//! assert_eq!(game.position().side_to_move(), Color::White);
//!
//! // The same record with White growing D5 twice in one turn.
//! let bad = "(;FF[4]GM[400]VR[sygo]SZ[9];W[ee];B[cg];W[ed][ec])";
//! assert_eq!(
//!     Record::parse(bad).unwrap_err().to_string(),
//!     "node 3: White's turn E6,E7 is illegal: \
//!      E7 touches only stones played this turn (such as E6): \
//!      a growth stone must touch a group you had when the turn began"
//! );
//! ```

mod error;
mod file;
mod path;
mod point;
mod read;
mod record;
mod tree;
mod write;

pub use error::{FormatError, IllegalError, RecordError, SyntaxError};
pub use file::{LoadError, MAX_RECORD_BYTES};
pub use path::{NodePath, PathError, Visit};
pub use point::{PointError, point_from_sgf, point_to_sgf, points_from_sgf};
pub use read::{MAX_NESTING, MAX_NODES};
pub use record::{GAME_NUMBER, GameInfo, INTERPRETED, LineTurn, MAX_KOMI, Record};
pub use tree::{Node, Play, Property, Tree};
