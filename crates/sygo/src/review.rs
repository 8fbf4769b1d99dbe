//! What the record subcommands (`replay`, `show`, `score`, `convert`) share:
//! loading a record, choosing a turn of its main line, and describing a
//! position of it in words.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::bail;
use sygo_records::{GameInfo, Record};
use sygo_rules::{Color, Game, Position};

/// Reads a record file whole (`docs/records.md`).
///
/// # Errors
///
/// The file cannot be read or is not a legal record: one line saying which
/// file, and where and why.
pub fn load(path: &Path) -> anyhow::Result<Record> {
    Ok(Record::read_file(path)?)
}

/// The number of turns asked for, checked against the main line: `None`
/// means the end.
///
/// # Errors
///
/// When the main line has fewer turns.
pub fn turn_number(record: &Record, asked: Option<usize>) -> anyhow::Result<usize> {
    let len = record.main_line_len();
    match asked {
        None => Ok(len),
        Some(n) if n <= len => Ok(n),
        Some(n) => bail!("there is no turn {n}: {}", turns_in_main_line(len)),
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

/// The players, date and result of a record, on one line, or `None` if it
/// says none of them.
pub fn info_line(info: &GameInfo) -> Option<String> {
    let mut parts = Vec::new();
    match (&info.black, &info.white) {
        (None, None) => {}
        (black, white) => parts.push(format!(
            "{} (Black) against {} (White)",
            black.as_deref().unwrap_or("?"),
            white.as_deref().unwrap_or("?")
        )),
    }
    if let Some(date) = &info.date {
        parts.push(date.clone());
    }
    if let Some(result) = &info.result {
        parts.push(format!("result {result}"));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
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
        let _ = writeln!(out, "comment: {}", comment.trim_end());
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
