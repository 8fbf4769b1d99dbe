//! Sygo and Hexsygo at the terminal: the library behind `sygo play`,
//! `sygo replay`, `sygo show`, `sygo score`, `sygo convert` and
//! `sygo analyze`, so that what they write can be tested without a process.
//!
//! # A brief overview
//!
//! - [`Session`]: a game between people at the keyboard and the computer,
//!   played a line at a time on any input and output; it decides what
//!   happens, and [`screen`] writes what the players see.
//! - [`input`]: what a player types, read into a [`Command`], or refused in
//!   one line.
//! - [`Renderer`]: a board drawn in text with its [`Marks`] (the last turn,
//!   reversals, the turn in progress, territory, an ownership map), coloured
//!   by [`Paint`] only for emphasis.
//! - [`Player`], [`Computer`]: who plays each colour, and the computer's
//!   choices from one seed.
//! - [`record`]: games saved and loaded as records.
//! - [`review`], [`replay`](replay::replay), [`convert`]: a record's
//!   positions in words, stepped through, converted.
//! - [`analysis`]: the AI's view of a record's position, as text or JSON.
//! - [`mod@bench`]: uniformly random games timed, for `sygo bench`.
//! - [`rules_page`]: how to play, in a page, its example played by the
//!   rules library.
//!
//! # Example
//!
//! A whole game through [`Session`], on text in and text out:
//!
//! ```
//! use sygo_rules::{Game, Geometry, Position};
//! use sygo_terminal::{Paint, Player, Session, Setup, Strength};
//!
//! let setup = Setup {
//!     game: Game::new(Position::new(Geometry::sygo(5).unwrap())),
//!     black: Player::Human,
//!     white: Player::Human,
//!     seed: 1,
//!     strength: Strength { level: 1, time: None },
//!     paint: Paint { color: false },
//!     echo: true,
//!     loaded: None,
//! };
//! let mut out = Vec::new();
//! Session::new(setup, &mut out)
//!     .run(&b"C3\nD4\npass\npass\n"[..])
//!     .unwrap();
//! let out = String::from_utf8(out).unwrap();
//! assert!(out.starts_with("Sygo 5x5: White (O) human, Black (X) human."));
//! assert!(out.contains("White> C3\nWhite placed C3.\n"));
//! assert!(out.contains("Game over: both players passed."));
//! ```

pub mod analysis;
pub mod bench;
pub mod convert;
pub mod input;
pub mod marks;
pub mod paint;
pub mod players;
pub mod record;
pub mod render;
pub mod replay;
pub mod review;
pub mod rules_page;
pub mod screen;
pub mod session;

pub use input::{Command, InputError};
pub use marks::Marks;
pub use paint::{ColorChoice, Paint};
pub use players::{Computer, Player, PlayerError, Strength};
pub use render::Renderer;
pub use session::{Session, SessionError, Setup};
