//! A record's positions in words, for `sygo show`, `sygo replay`,
//! `sygo score` and `sygo analyze`: a turn of its main line chosen, the
//! position after it drawn and described, the final score.

use std::fmt::{self, Write as _};

use sygo_records::{GameInfo, Record};
use sygo_rules::{Color, Game, Position};

/// The number of turns asked for, checked against the main line: `None`
/// means the end.
///
/// # Errors
///
/// [`TurnNumberError`] when the main line has fewer turns.
pub fn turn_number(record: &Record, asked: Option<usize>) -> Result<usize, TurnNumberError> {
    let len = record.main_line_len();
    match asked {
        None => Ok(len),
        Some(n) if n <= len => Ok(n),
        Some(n) => Err(TurnNumberError { asked: n, len }),
    }
}

/// "the main line has 19 turns (0 is the start)".
pub fn turns_in_main_line(len: usize) -> String {
    let turns = if len == 1 { "turn" } else { "turns" };
    format!("the main line has {len} {turns} (0 is the start)")
}

/// The last turn of a game in words, as the rules library says it
/// (`TurnSummary`): `White grew E6 and G6, reversing F6.`, `Black passed.`;
/// `None` at the start.
pub fn last_turn_text(game: &Game) -> Option<String> {
    game.summaries().last().map(ToString::to_string)
}

/// A record's text as the terminal may print it: a control character (an
/// escape sequence's start, a carriage return, a bell; a line break too
/// where `lines` is false) and a bidirectional override are written as
/// `\u{1b}`, never sent raw: a record cannot move the cursor, retitle the
/// window or hide what follows.
pub fn printable(text: &str, lines: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let keep = (lines && c == '\n') || c == '\t';
        let reorders = matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
        if (c.is_control() && !keep) || reorders {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// The players, date and result of a record, on one line, or `None` if it
/// says none of them (each [`printable`]).
pub fn info_line(info: &GameInfo) -> Option<String> {
    let mut parts = Vec::new();
    let text = |t: &Option<String>| printable(t.as_deref().unwrap_or("?"), false);
    match (&info.black, &info.white) {
        (None, None) => {}
        (black, white) => parts.push(format!(
            "{} (Black) against {} (White)",
            text(black),
            text(white)
        )),
    }
    if info.date.is_some() {
        parts.push(text(&info.date));
    }
    if info.result.is_some() {
        parts.push(format!("result {}", text(&info.result)));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// What `sygo show` prints: the record's players, date and result (if it
/// names any), then the [`report`] of the position after `n` turns.
pub fn show(record: &Record, n: usize) -> String {
    let mut out = String::new();
    if let Some(line) = info_line(record.info()) {
        let _ = writeln!(out, "{line}");
    }
    out.push_str(&report(record, n));
    out
}

/// The position after `n` turns of the main line, drawn and described: the
/// turn that led to it and its comment, whose turn it is, and the score.
pub fn report(record: &Record, n: usize) -> String {
    let game = record.game_after(n);
    let position = game.position();
    let g = position.geometry();
    let len = record.main_line_len();
    let mut out = String::new();
    if let Some(text) = last_turn_text(&game).filter(|_| n > 0) {
        let _ = writeln!(out, "{g}, turn {n} of {len}: {text}");
    } else {
        let setup = if position.stones().next().is_some() {
            "the set-up position"
        } else {
            "the empty board"
        };
        let _ = writeln!(out, "{g}, the start: {setup}; {}", turns_in_main_line(len));
    }
    out.push_str(&position.diagram());
    let _ = writeln!(out, "{}", status(position, record.info().komi));
    let _ = writeln!(out, "score: {}", score_line(position, record.info().komi));
    if n > 0
        && let Some(comment) = record.main_line_turns()[n - 1]
            .node
            .and_then(|node| node.comment.as_deref())
    {
        let _ = writeln!(out, "comment: {}", printable(comment.trim_end(), true));
    }
    out
}

/// Whose turn it is, or how the game ended; and the balance state.
pub fn status(position: &Position, komi: f64) -> String {
    let state = if let Some(loser) = position.resigned() {
        format!(
            "game over: {}+R ({loser} resigned)",
            loser.opponent().letter()
        )
    } else if position.is_over() {
        match position.score().result_with_komi(komi).as_str() {
            "0" => "game over after two passes: a draw".to_string(),
            result => format!("game over after two passes: {result}"),
        }
    } else {
        format!("{} to move", position.side_to_move())
    };
    let balance = if position.growth_started() {
        "growth started"
    } else {
        "no growth turn yet (Black's balance turn is available)"
    };
    format!("{state}; {balance}")
}

/// `Black 12 (12 stones, 0 territory), White 9 (9 stones, 0 territory): B+3`,
/// the komi added to White when there is one.
pub fn score_line(position: &Position, komi: f64) -> String {
    let territory = position.territory();
    let side = |color: Color| {
        let stones = territory.stones[color.index()];
        let area = territory.area(color);
        format!(
            "{color} {} ({stones} stones, {area} territory)",
            stones + area
        )
    };
    let score = territory.score();
    let result = if komi == 0.0 {
        score.result_with_komi(0.0)
    } else {
        format!("komi {komi}, {}", score.result_with_komi(komi))
    };
    format!("{}, {}: {result}", side(Color::Black), side(Color::White))
}

/// What `sygo score` prints: the score at the end of the main line (docs/rules.md
/// §8), each side's stones and territory, the komi, and the result.
pub fn final_score(record: &Record) -> String {
    let game = record.main_line();
    let position = game.position();
    let komi = record.info().komi;
    let territory = position.territory();
    let ending = if let Some(loser) = position.resigned() {
        format!("ended when {loser} resigned")
    } else if position.is_over() {
        "ended by two passes".to_string()
    } else {
        "not finished: the score of its last position".to_string()
    };
    let turns = game.turns().len();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}, {turns} {}, {ending}",
        position.geometry(),
        if turns == 1 { "turn" } else { "turns" }
    );
    for color in [Color::Black, Color::White] {
        let stones = territory.stones[color.index()];
        let area = territory.area(color);
        let _ = writeln!(
            out,
            "{color}: {stones} stones + {area} territory = {}",
            stones + area
        );
    }
    if komi != 0.0 {
        let _ = writeln!(out, "komi: {komi} for White");
    }
    let score = territory.score().result_with_komi(komi);
    let _ = match position.resigned() {
        Some(loser) => writeln!(
            out,
            "result: {}+R ({loser} resigned; on the board, {score})",
            loser.opponent().letter()
        ),
        None if score == "0" => writeln!(out, "result: 0, a draw"),
        None => writeln!(out, "result: {score}"),
    };
    out
}

/// A turn number past the end of a record's main line (`--turn N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnNumberError {
    /// The number asked for.
    pub asked: usize,
    /// The turns in the main line.
    pub len: usize,
}

impl fmt::Display for TurnNumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "there is no turn {}: {}",
            self.asked,
            turns_in_main_line(self.len)
        )
    }
}

impl std::error::Error for TurnNumberError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> Record {
        Record::parse("(;GM[400]VR[sygo]SZ[5]PB[Ann]KM[0.5];W[cc]C[centre];B[aa];W[];B[])").unwrap()
    }

    #[test]
    fn a_turn_past_the_end_is_refused_with_the_length() {
        let record = record();
        assert_eq!(turn_number(&record, None), Ok(4));
        assert_eq!(turn_number(&record, Some(0)), Ok(0));
        let error = turn_number(&record, Some(5)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "there is no turn 5: the main line has 4 turns (0 is the start)"
        );
    }

    #[test]
    fn a_records_escape_sequences_are_never_printed_raw() {
        let record = Record::parse(
            "(;FF[4]GM[400]VR[sygo]SZ[5]PB[\u{1b}\\]0;owned\u{7}]PW[a\u{202E}b]DT[x\ry]\
             ;W[cc]C[line one\nline \u{1b}[2Jtwo])",
        )
        .unwrap();
        let text = show(&record, 1);
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}'),
            "{text:?}"
        );
        assert!(
            !text.contains('\u{202E}') && !text.contains('\r'),
            "{text:?}"
        );
        assert!(
            text.starts_with(
                "\\u{1b}]0;owned\\u{7} (Black) against a\\u{202e}b (White), x\\u{d}y\n"
            ),
            "{text:?}"
        );
        assert!(
            text.ends_with("comment: line one\nline \\u{1b}[2Jtwo\n"),
            "{text:?}"
        );
    }

    #[test]
    fn a_position_is_described_with_its_turn_and_comment() {
        let text = show(&record(), 1);
        assert!(
            text.starts_with("Ann (Black) against ? (White)\n"),
            "{text}"
        );
        assert!(text.contains("turn 1 of 4: White placed C3.\n"), "{text}");
        assert!(text.ends_with("comment: centre\n"), "{text}");
    }

    #[test]
    fn the_final_score_counts_stones_territory_and_komi() {
        let text = final_score(&record());
        assert!(
            text.starts_with("sygo 5, 4 turns, ended by two passes\n"),
            "{text}"
        );
        assert!(text.contains("komi: 0.5 for White\n"), "{text}");
    }
}
