//! `sygo play`: a game at the terminal between any two of a person at the
//! keyboard and the computer, on either board.
//!
//! Input is read a line at a time, so the program works as well with a pipe
//! as with a terminal; when the input is not a terminal, each line read is
//! written after its prompt, and the output reads as a transcript.
//!
//! - [`input`]: what a player may type.
//! - [`render`]: the board as drawn, with its marks and colours.
//! - [`players`]: who plays each colour, and the computer.
//! - [`record`]: saving and loading games as records.
//! - [`session`]: the game under way, and the answers.

mod input;
mod players;
mod record;
mod render;
mod session;

use std::io::{self, IsTerminal};
use std::path::PathBuf;

use sygo_rules::{Game, Position};

use crate::BoardArgs;
use players::Player;
use render::{ColorChoice, Paint};
use session::{Session, Setup};

/// Options of `sygo play`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Who plays Black.
    #[arg(long, value_enum, default_value_t = Player::Human)]
    black: Player,
    /// Who plays White (White moves first).
    #[arg(long, value_enum, default_value_t = Player::Human)]
    white: Player,
    /// Seed of the computer's choices and of hints: one seed, one game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Colours: auto (when the output is a terminal and NO_COLOR is not
    /// set), always, or never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Play on from the end of a saved game (a record: `docs/records.md`);
    /// the record gives the board.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["variant", "size"])]
    load: Option<PathBuf>,
}

/// Plays a game on standard input and output.
pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    let (game, loaded) = match &args.load {
        Some(path) => {
            // The message says it all: not the system's words again after it.
            let (game, info) = record::load(path).map_err(|e| anyhow::anyhow!("{e}"))?;
            (game, Some((info, path.clone())))
        }
        None => (Game::new(Position::new(args.board.geometry()?)), None),
    };
    let setup = Setup {
        game,
        loaded,
        black: args.black,
        white: args.white,
        seed: args.seed,
        paint: Paint {
            color: args.color.resolve(),
        },
        echo: !io::stdin().is_terminal(),
    };
    Session::new(setup, io::stdout().lock()).run(io::stdin().lock())
}
