//! What a player types at `sygo play`, read into a [`Command`].
//!
//! A line is either stones (`D5`, `D5,F7`, `d5 f7`: commas and spaces both
//! separate them) or a command word, case-insensitive. Anything else gets one
//! line saying what is wrong and what may be typed.

use std::fmt;
use std::path::PathBuf;

use sygo_rules::{Geometry, ParsePointError, Point};

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Stones: one is a step of the turn in progress; several are the rest
    /// of the turn, which then ends.
    Stones(Vec<Point>),
    /// End the turn in progress (`done` or `end`).
    Done,
    /// Take back the last stone of the turn in progress.
    Back,
    /// Take back whole turns.
    Undo,
    /// Pass.
    Pass,
    /// Resign.
    Resign,
    /// Show the score: stones and territory of each side.
    Score,
    /// Suggest a turn.
    Hint,
    /// Save the game as a record.
    Save(PathBuf),
    /// Draw the board again.
    Board,
    /// List the commands.
    Help,
    /// Leave the program.
    Quit,
}

/// The command words and what each does, for `help` and for the message on
/// an unknown command.
pub const COMMANDS: &[(&str, &str)] = &[
    (
        "D5",
        "play a stone; a growth turn goes on until you type done",
    ),
    ("D5,F7", "play the stones of a whole turn, in order"),
    ("done", "end the turn in progress (also: end)"),
    ("back", "take back the last stone of the turn in progress"),
    (
        "undo",
        "take back the last whole turn (and the computer's reply)",
    ),
    ("pass", "pass: two passes in a row end the game"),
    ("resign", "resign: the other player wins"),
    ("score", "show the stones and territory of each side"),
    ("hint", "ask the computer for a turn"),
    ("save FILE", "save the game as a record (SGF)"),
    ("board", "draw the board again"),
    ("help", "show this list"),
    ("quit", "leave (also: exit)"),
];

/// A line that is not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// Neither stones nor a command word.
    Unknown(String),
    /// A point that cannot be read or is off the board.
    Point(ParsePointError),
    /// `save` without a file name.
    MissingFile,
    /// A command that takes no argument was given one.
    Argument(&'static str),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Unknown(word) => write!(
                f,
                "{word:?} is not a command: type stones like D5 or D5,F7, or one of \
                 done, back, undo, pass, resign, score, hint, save FILE, board, help, quit"
            ),
            InputError::Point(e) => e.fmt(f),
            InputError::MissingFile => {
                f.write_str("save needs a file name: save FILE, like save game.sgf")
            }
            InputError::Argument(word) => write!(f, "{word} takes nothing after it: type {word}"),
        }
    }
}

impl std::error::Error for InputError {}

/// Reads a line; `Ok(None)` for a blank line.
///
/// # Errors
///
/// [`InputError`] when the line is neither stones nor a command.
pub fn parse(line: &str, geometry: &Geometry) -> Result<Option<Command>, InputError> {
    let line = line.trim();
    let Some(word) = line.split_whitespace().next() else {
        return Ok(None);
    };
    let rest = line[word.len()..].trim();
    let lower = word.to_ascii_lowercase();
    let simple = match lower.as_str() {
        "done" | "end" => Some((Command::Done, "done")),
        "back" => Some((Command::Back, "back")),
        "undo" => Some((Command::Undo, "undo")),
        "pass" => Some((Command::Pass, "pass")),
        "resign" => Some((Command::Resign, "resign")),
        "score" => Some((Command::Score, "score")),
        "hint" => Some((Command::Hint, "hint")),
        "board" => Some((Command::Board, "board")),
        "help" | "?" => Some((Command::Help, "help")),
        "quit" | "exit" => Some((Command::Quit, "quit")),
        _ => None,
    };
    if let Some((command, name)) = simple {
        return if rest.is_empty() {
            Ok(Some(command))
        } else {
            Err(InputError::Argument(name))
        };
    }
    if lower == "save" {
        return if rest.is_empty() {
            Err(InputError::MissingFile)
        } else {
            Ok(Some(Command::Save(PathBuf::from(rest))))
        };
    }
    let tokens: Vec<&str> = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    match tokens.first() {
        Some(first) if looks_like_a_point(first) => {}
        // A lone comma or a word that is no point: not stones at all.
        _ => return Err(InputError::Unknown(word.to_string())),
    }
    tokens
        .iter()
        .map(|t| geometry.parse_point(t).map_err(InputError::Point))
        .collect::<Result<Vec<_>, _>>()
        .map(|points| Some(Command::Stones(points)))
}

/// Letters then digits: what a player means as a point, even if it is not one
/// (`I5`, `Z30`), so that it gets the point's message, not the command's.
fn looks_like_a_point(token: &str) -> bool {
    let digits = token.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    digits.len() < token.len() && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g() -> Geometry {
        Geometry::sygo(9).unwrap()
    }

    fn points(text: &str) -> Vec<Point> {
        sygo_rules::parse_points(text, &g()).unwrap()
    }

    #[test]
    fn stones_are_separated_by_commas_or_spaces() {
        for text in ["D5,F7", "d5, f7", " D5 F7 ", "D5,,F7"] {
            assert_eq!(
                parse(text, &g()),
                Ok(Some(Command::Stones(points("D5,F7")))),
                "{text:?}"
            );
        }
        assert_eq!(parse("e5", &g()), Ok(Some(Command::Stones(points("E5")))));
    }

    #[test]
    fn command_words_are_case_insensitive() {
        assert_eq!(parse("  Done ", &g()), Ok(Some(Command::Done)));
        assert_eq!(parse("END", &g()), Ok(Some(Command::Done)));
        assert_eq!(parse("exit", &g()), Ok(Some(Command::Quit)));
        assert_eq!(
            parse("save my game.sgf", &g()),
            Ok(Some(Command::Save("my game.sgf".into())))
        );
        assert_eq!(parse("   ", &g()), Ok(None));
    }

    #[test]
    fn mistakes_get_one_line_each() {
        let message = |text: &str| parse(text, &g()).unwrap_err().to_string();
        assert!(message("hlep").starts_with("\"hlep\" is not a command: type stones like D5"));
        assert_eq!(
            message("J10"),
            "J10 is not on the sygo 9 board",
            "a point gets the point's message"
        );
        assert!(message("I5").contains("no I"));
        assert!(message("D5,xyz").contains("\"xyz\" is not a point"));
        assert_eq!(
            message("pass now"),
            "pass takes nothing after it: type pass"
        );
        assert_eq!(message("save"), InputError::MissingFile.to_string());
        for text in ["hlep", "J10", "I5", "D5,xyz", "pass now", "save"] {
            assert!(!message(text).contains('\n'));
        }
    }
}
