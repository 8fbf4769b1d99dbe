//! The engine protocol of sygo: GTP 2 framing, extended for Sygo's
//! multi-stone turns, as `docs/protocol.md` describes it.
//!
//! # Brief overview
//!
//! - [`Engine`]: the state the protocol works on (the game, komi, clocks, the
//!   player behind `genmove` and `analyze`, from `sygo-ai`), driven one line
//!   at a time by [`Engine::handle_line`], with no process or pipe needed.
//! - [`run`]: the loop over an input and an output, as `sygo gtp` runs it on
//!   standard input and output; it reads the input on a thread of its own,
//!   so that `analyze` streams its reports until the next line arrives.
//! - [`commands::COMMANDS`]: the table of every command, its arguments and its
//!   handler; `list_commands` and `known_command` are derived from it.
//! - [`framing`]: reading a line into id, name and arguments; writing
//!   `=id result` and `?id message`.
//! - [`CommandError`]: why a command failed, the text after `?`. A failed
//!   command changes nothing.
//!
//! # A short session
//!
//! Each side places a stone, White grows, and Black's attempts are refused:
//! a placement after a growth (the balance turn is gone once a growth turn
//! has been played), then a second growth of one group. `legal_steps` lists
//! what may follow a prefix of a turn, and whether the turn may end there:
//!
//! ```
//! use sygo_gtp::{Engine, EngineOptions};
//! use sygo_rules::Variant;
//!
//! let options = EngineOptions::random(Variant::Sygo, 9, 1);
//! let mut engine = Engine::new(options).unwrap();
//! let mut say = |line: &str| engine.handle_line(line).unwrap();
//!
//! assert_eq!(say("1 play white D4"), "=1\n\n");
//! assert_eq!(say("2 play black F6"), "=2\n\n");
//! assert_eq!(say("3 play white E4"), "=3\n\n"); // White grows: no balance turn any more
//! assert_eq!(say("4 play black F5,C7"),
//!            "?4 illegal move: C7 touches none of your stones, so it would be a placement, \
//!             and the balance turn is gone: a growth turn has already been played\n\n");
//! assert_eq!(say("5 play black F5,E6"),
//!            "?5 illegal move: E6 would grow the group at F6 a second time this turn\n\n");
//! assert_eq!(say("6 legal_steps b F5"), "=6 end\n\n");
//! assert_eq!(say("7 play b F5"), "=7\n\n");
//! assert_eq!(say("8 final_score"), "=8 0\n\n");
//! assert!(say("9 showboard").starts_with("=9\n    A B C D E F G H J\n"));
//! ```

mod analyze;
mod args;
pub mod commands;
mod engine;
mod error;
pub mod framing;
mod session;

pub use engine::{DEFAULT_TIME_PER_TURN, Engine, EngineOptions, TimeLeft, TimeSettings};
pub use error::{CommandError, EngineError};
pub use framing::MAX_LINE_BYTES;
pub use session::run;
