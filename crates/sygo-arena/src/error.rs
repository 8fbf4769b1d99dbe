//! The arena's errors, one type per operation, with messages for the person
//! who wrote the command line.

use std::fmt;
use std::io;
use std::path::PathBuf;

use sygo_ai::SpecError;
use sygo_records::RecordError;

/// Why a command line names no program ([`crate::split_command`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandLineError {
    /// No word at all.
    Empty,
    /// A quote (`'` or `"`) opened and never closed, or a backslash at the
    /// end.
    Unclosed {
        /// The whole command line.
        text: String,
    },
}

impl fmt::Display for CommandLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandLineError::Empty => f.write_str("the command is empty"),
            CommandLineError::Unclosed { text } => {
                write!(f, "unclosed quote (or a backslash at the end) in {text:?}")
            }
        }
    }
}

impl std::error::Error for CommandLineError {}

/// Why an external engine could not be started.
#[derive(Debug)]
pub struct StartError {
    /// The command line.
    pub command: String,
    /// What the system said.
    pub source: io::Error,
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot start `{}`: {}", self.command, self.source)
    }
}

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Why a match did not start: a side's player could not be made.
#[derive(Debug)]
pub struct MatchError {
    /// `A` or `B`.
    pub side: char,
    /// The player's name (its specification).
    pub name: String,
    /// Why.
    pub error: StartError,
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {} ({}): {}", self.side, self.name, self.error)
    }
}

impl std::error::Error for MatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Why a specification names no entrant ([`crate::EntrantSpec`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntrantSpecError {
    /// A built-in player's specification was refused.
    Player(SpecError),
    /// `cmd:` followed by no usable command line.
    Command(CommandLineError),
}

impl fmt::Display for EntrantSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntrantSpecError::Player(SpecError::NotAPlayer(name)) => write!(
                f,
                "{name:?} is not a player: write random, uct, mcts, or cmd:COMMAND for an engine"
            ),
            EntrantSpecError::Player(error) => error.fmt(f),
            EntrantSpecError::Command(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for EntrantSpecError {}

/// Why a game's record could not be written
/// ([`GameRecords::write`](crate::GameRecords::write)).
#[derive(Debug)]
pub enum WriteRecordError {
    /// The record made of the game was refused (not expected: the arena's
    /// games are legal).
    Record(RecordError),
    /// The file could not be written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
}

impl fmt::Display for WriteRecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteRecordError::Record(_) => f.write_str("the record of an arena game"),
            WriteRecordError::Io { path, .. } => write!(f, "cannot write {}", path.display()),
        }
    }
}

impl std::error::Error for WriteRecordError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteRecordError::Record(e) => Some(e),
            WriteRecordError::Io { source, .. } => Some(source),
        }
    }
}
