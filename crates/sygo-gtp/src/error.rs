//! Why a command fails: the message after `?` in a failure answer; why an
//! engine cannot start.

use std::fmt;

use sygo_rules::GeometryError;

/// A failed command. Its `Display` is the message of the failure answer; the
/// first words say the kind (`unknown command`, `syntax error`,
/// `illegal move`, …) as GTP 2 names them, the rest says why in a player's
/// words. A failed command changes nothing in the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CommandError {
    /// No command of that name (`known_command` answers `false`).
    UnknownCommand,
    /// The line holds an id and nothing else.
    NoCommand,
    /// The line is longer than [`MAX_LINE_BYTES`](crate::framing::MAX_LINE_BYTES).
    LineTooLong,
    /// A wrong number of arguments, or an argument that cannot be read.
    Syntax(String),
    /// Refused by the rules: an illegal step or turn, the wrong colour, the
    /// game being over. The text is the rules library's reason.
    IllegalMove(String),
    /// A board size outside docs/rules.md §1.
    UnacceptableSize(String),
    /// `undo` with no turn to take back since the start of the game.
    CannotUndo,
    /// `setup` refused: a point occupied or off the board, or a group
    /// without liberty.
    IllegalSetup(String),
    /// `loadsgf` could not load the file: it cannot be read, or is not a
    /// legal record (the text says where and why).
    CannotLoad(String),
    /// `analyze` with a player that gives no analysis (the text says which).
    CannotAnalyze(String),
    /// The engine failed itself (a bug): it says what happened.
    Internal(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::UnknownCommand => f.write_str("unknown command"),
            CommandError::NoCommand => f.write_str("syntax error: an id but no command"),
            CommandError::LineTooLong => write!(
                f,
                "syntax error: the line is longer than {} bytes",
                crate::framing::MAX_LINE_BYTES
            ),
            CommandError::Syntax(why) => write!(f, "syntax error: {why}"),
            CommandError::IllegalMove(why) => write!(f, "illegal move: {why}"),
            CommandError::UnacceptableSize(why) => write!(f, "unacceptable size: {why}"),
            CommandError::CannotUndo => {
                f.write_str("cannot undo: no turn has been played since the start of the game")
            }
            CommandError::IllegalSetup(why) => write!(f, "illegal setup: {why}"),
            CommandError::CannotLoad(why) => write!(f, "cannot load file: {why}"),
            CommandError::CannotAnalyze(why) => write!(f, "cannot analyze: {why}"),
            CommandError::Internal(why) => write!(f, "internal error: {why}"),
        }
    }
}

impl std::error::Error for CommandError {}

/// Why an engine cannot start: the board asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EngineError {
    /// A board size outside docs/rules.md §1.
    Geometry(GeometryError),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Geometry(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for EngineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EngineError::Geometry(e) => Some(e),
        }
    }
}

impl From<GeometryError> for EngineError {
    fn from(e: GeometryError) -> EngineError {
        EngineError::Geometry(e)
    }
}
