//! `sygo convert`: a record's position as a position string
//! (`docs/position-string.md`), and a position string as a record whose
//! start is that position (`docs/records.md`).

use std::fmt;

use sygo_records::{GameInfo, Record};
use sygo_rules::{ParsePositionError, Position};

/// The position string of the position after `n` turns of the record's main
/// line, with a newline.
pub fn to_position_string(record: &Record, n: usize) -> String {
    format!("{}\n", record.game_after(n).position().to_position_string())
}

/// A record (SGF text) that starts from the position a position string
/// gives, with no turn.
///
/// # Errors
///
/// [`NotAPositionString`] when the text is not a position string.
pub fn to_record(text: &str) -> Result<String, NotAPositionString> {
    let position =
        Position::from_position_string(text.trim()).map_err(|source| NotAPositionString {
            text: text.to_string(),
            source,
        })?;
    Ok(Record::from_position(&position, GameInfo::default()).to_sgf())
}

/// Text given as a position string that is not one.
#[derive(Debug)]
pub struct NotAPositionString {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub source: ParsePositionError,
}

impl fmt::Display for NotAPositionString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a position string", self.text)
    }
}

impl std::error::Error for NotAPositionString {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_string_becomes_a_record_and_back() {
        let text = "sygo 5 5/5/2W2/5/1B3 b - 0";
        let sgf = to_record(&format!(" {text}\n")).unwrap();
        let record = Record::parse(&sgf).unwrap();
        assert_eq!(to_position_string(&record, 0), format!("{text}\n"));
    }

    #[test]
    fn other_text_is_refused_with_its_reason() {
        let error = to_record("go 19").unwrap_err();
        assert_eq!(error.to_string(), "\"go 19\" is not a position string");
        assert!(std::error::Error::source(&error).is_some());
    }
}
