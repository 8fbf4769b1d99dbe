//! `sygo play`: a game at the terminal between any two of a person at the
//! keyboard and the computer, on either board; the game itself is
//! `sygo_terminal::Session`.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::time::Duration;

use sygo_rules::{Game, Position};

use sygo_terminal::players::{DEFAULT_LEVEL, LEVELS, TIMES};
use sygo_terminal::{ColorChoice, Paint, Player, Session, SessionError, Setup, Strength, record};

use crate::BoardArgs;

/// Options of `sygo play`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Who plays Black: human, random (random legal turns), ai (the AI at
    /// --level), or another built-in player: uct, mcts:level=3.
    #[arg(long, default_value = "human", value_name = "PLAYER")]
    black: Player,
    /// Who plays White (White moves first): human, random, ai, uct,
    /// mcts:OPTIONS.
    #[arg(long, default_value = "human", value_name = "PLAYER")]
    white: Player,
    /// The AI's level, for `ai` and for hints: 1 (weakest, 50 simulations a
    /// turn) to 6 (strongest, every core); each level four times the
    /// simulations of the one below.
    #[arg(long, default_value_t = DEFAULT_LEVEL, value_parser = clap::value_parser!(u8).range(LEVELS))]
    level: u8,
    /// Time for each of the computer's turns and hints, in milliseconds;
    /// below level 6 the AI may stop sooner, at its level's simulations
    /// (default: the level's simulations, or a second at level 6).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(TIMES))]
    time: Option<u64>,
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
        black: args.black.clone(),
        white: args.white.clone(),
        seed: args.seed,
        strength: Strength {
            level: args.level,
            time: args.time.map(Duration::from_millis),
        },
        paint: Paint {
            color: args.color.resolve(),
        },
        echo: !io::stdin().is_terminal(),
    };
    match Session::new(setup, io::stdout().lock()).run(io::stdin().lock()) {
        // An input or output error as itself, so that a closed pipe is seen.
        Err(SessionError::Io(e)) => Err(e.into()),
        outcome => Ok(outcome?),
    }
}
