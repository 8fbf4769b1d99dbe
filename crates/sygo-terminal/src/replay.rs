//! `sygo replay FILE`: steps through a record's main line, forwards and
//! backwards, and jumps to a turn, at a line-oriented prompt ([`replay`]).
//!
//! Commands are read a line at a time, so the program works through a pipe
//! as well as at a terminal; when the input is not a terminal, each line
//! read is written after its prompt, and the output reads as a transcript.
//! The end of the input quits.

use std::fmt;
use std::io::{self, BufRead, Write};

use sygo_records::Record;

use crate::review;

/// What the person at the prompt asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Request {
    Next,
    Prev,
    Jump(usize),
    First,
    Last,
    Show,
    Help,
    Quit,
}

const HELP: &str = "commands: next (or n, or an empty line), prev (or p), jump N (or j N, \
                    or just N), first, last, show, help, quit (or q)";

/// A line at the prompt that is no command.
#[derive(Clone, Debug, PartialEq, Eq)]
enum RequestError {
    /// A turn number that is not a whole number.
    NotANumber(String),
    /// `jump` without a number.
    JumpWhere,
    /// Not a command (the line, trimmed).
    Unknown(String),
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::NotANumber(text) => write!(
                f,
                "{text:?} is not a turn number: write a whole number, 0 for the start"
            ),
            RequestError::JumpWhere => f.write_str("jump to which turn? write jump N"),
            RequestError::Unknown(line) => write!(f, "unknown command {line:?}: {HELP}"),
        }
    }
}

/// Reads a command, or says why it cannot be read.
fn parse_request(line: &str) -> Result<Request, RequestError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
    let number = |text: &str| {
        text.parse::<usize>()
            .map_err(|_| RequestError::NotANumber(text.to_string()))
    };
    match lower.as_slice() {
        [] | ["next" | "n" | "forward" | "f"] => Ok(Request::Next),
        ["prev" | "p" | "previous" | "back" | "b"] => Ok(Request::Prev),
        ["first" | "start"] => Ok(Request::First),
        ["last" | "end"] => Ok(Request::Last),
        ["show" | "s" | "board"] => Ok(Request::Show),
        ["help" | "h" | "?"] => Ok(Request::Help),
        ["quit" | "q" | "exit"] => Ok(Request::Quit),
        ["jump" | "j" | "goto" | "turn", n] => number(n).map(Request::Jump),
        ["jump" | "j" | "goto" | "turn"] => Err(RequestError::JumpWhere),
        [n] if n.bytes().all(|b| b.is_ascii_digit()) => number(n).map(Request::Jump),
        _ => Err(RequestError::Unknown(line.trim().to_string())),
    }
}

/// The prompt loop, on any input and output, until `quit` or the end of
/// the input; `echo` writes each line read after its prompt.
///
/// # Errors
///
/// When the input cannot be read or the output written.
pub fn replay(
    record: &Record,
    mut input: impl BufRead,
    mut out: impl Write,
    echo: bool,
) -> io::Result<()> {
    let len = record.main_line_len();
    if let Some(line) = review::info_line(record.info()) {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{HELP}")?;
    let mut at = 0;
    out.write_all(review::report(record, at).as_bytes())?;
    let mut line = String::new();
    loop {
        write!(out, "replay {at}/{len}> ")?;
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(());
        }
        if echo {
            writeln!(out, "{}", line.trim_end())?;
        }
        let target = match parse_request(&line) {
            Err(message) => {
                writeln!(out, "{message}")?;
                continue;
            }
            Ok(Request::Quit) => return Ok(()),
            Ok(Request::Help) => {
                writeln!(out, "{HELP}")?;
                continue;
            }
            Ok(Request::Next) if at == len => {
                writeln!(
                    out,
                    "already at the last turn: {}",
                    review::turns_in_main_line(len)
                )?;
                continue;
            }
            Ok(Request::Prev) if at == 0 => {
                writeln!(out, "already at the start")?;
                continue;
            }
            Ok(Request::Jump(n)) if n > len => {
                writeln!(
                    out,
                    "there is no turn {n}: {}",
                    review::turns_in_main_line(len)
                )?;
                continue;
            }
            Ok(Request::Next) => at + 1,
            Ok(Request::Prev) => at - 1,
            Ok(Request::Jump(n)) => n,
            Ok(Request::First) => 0,
            Ok(Request::Last) => len,
            Ok(Request::Show) => at,
        };
        at = target;
        out.write_all(review::report(record, at).as_bytes())?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_read_with_their_short_forms() {
        assert_eq!(parse_request("\n"), Ok(Request::Next));
        assert_eq!(parse_request(" N "), Ok(Request::Next));
        assert_eq!(parse_request("prev"), Ok(Request::Prev));
        assert_eq!(parse_request("jump 12"), Ok(Request::Jump(12)));
        assert_eq!(parse_request("J 0"), Ok(Request::Jump(0)));
        assert_eq!(parse_request("7"), Ok(Request::Jump(7)));
        assert_eq!(parse_request("last"), Ok(Request::Last));
        assert_eq!(parse_request("q"), Ok(Request::Quit));
        assert!(
            parse_request("jump x")
                .unwrap_err()
                .to_string()
                .contains("not a turn number")
        );
        assert!(
            parse_request("dance")
                .unwrap_err()
                .to_string()
                .starts_with("unknown command \"dance\"")
        );
    }

    #[test]
    fn the_loop_steps_and_stops_at_the_ends() {
        let record = Record::parse("(;GM[400]VR[sygo]SZ[5];W[cc]C[centre];B[aa];W[];B[])").unwrap();
        let mut out = Vec::new();
        replay(
            &record,
            &b"prev\nnext\nlast\nnext\njump 9\n1\nquit\nnext\n"[..],
            &mut out,
            true,
        )
        .unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.contains("replay 0/4> prev\nalready at the start\n"),
            "{out}"
        );
        assert!(out.contains("turn 1 of 4: White placed C3.\n"), "{out}");
        assert!(out.contains("comment: centre\n"), "{out}");
        assert!(out.contains("turn 4 of 4: Black passed.\n"), "{out}");
        assert!(
            out.contains("replay 4/4> next\nalready at the last turn"),
            "{out}"
        );
        assert!(
            out.contains("there is no turn 9: the main line has 4 turns"),
            "{out}"
        );
        assert!(out.ends_with("replay 1/4> quit\n"), "{out}");
    }
}
