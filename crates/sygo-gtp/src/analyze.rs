//! `analyze [COLOR] [INTERVAL] [KEY VALUE ...]` (alias `kata-analyze`),
//! modelled on KataGo's `kata-analyze`: its arguments, and the report written
//! every interval.
//!
//! A report is one line: an `info` group per candidate turn, best first,
//!
//! ```text
//! info move D5,F7 visits 123 winrate 0.5432 scoreLead 3.1 order 0 pv D5,F7 E4 pass
//! ```
//!
//! then, when asked, `rootInfo visits N winrate W scoreLead S` (the whole
//! search: its visits, which never decrease while the analysis runs), a
//! `danger` group per group its opponent can reverse with one turn (read
//! exactly by the rules library, `Position::dangers`),
//!
//! ```text
//! danger color w stones C3 liberties C2,B3,C4 turn B3,C4,C2 kind growth nextTurn true
//! ```
//!
//! and `ownership` with one value per point. Every figure is
//! from the view of the side to move: the win rate in [0, 1], the lead in
//! points, the ownership from +1 (the side to move's) to −1 (the
//! opponent's). The points run as `showboard` draws them: the top row
//! first, each row from left to right (on the hexagonal board, the cells of
//! each row from its leftmost).

use std::fmt::Write;
use std::time::Duration;

use sygo_ai::Analysis;
use sygo_ai::view::AnalysisView;
use sygo_rules::{Color, Position};

use crate::args::parse_bool;
use crate::error::CommandError;
use crate::framing::quote;

/// The interval when none is given: one second.
const DEFAULT_INTERVAL: Duration = Duration::from_secs(1);

/// What an analysis reports, and how often.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AnalyzeRequest {
    /// The time between reports.
    pub(crate) interval: Duration,
    /// Whether each report ends with the ownership of every point.
    pub(crate) ownership: bool,
    /// Whether each report gives the root's figures (`rootInfo`).
    pub(crate) root_info: bool,
    /// The most candidates a report gives.
    pub(crate) max_moves: usize,
    /// Whether each report lists the groups in danger.
    pub(crate) danger: bool,
}

/// Reads the arguments: the colour if the first is one, the interval in
/// centiseconds if the next is a whole number, then pairs of key and value
/// (`interval N`, `ownership true|false`, `rootInfo true|false`,
/// `danger true|false`, `maxmoves N`).
pub(crate) fn parse(args: &[&str]) -> Result<(Option<Color>, AnalyzeRequest), CommandError> {
    let mut request = AnalyzeRequest {
        interval: DEFAULT_INTERVAL,
        ownership: false,
        root_info: false,
        max_moves: usize::MAX,
        danger: false,
    };
    let mut rest = args;
    let color = match rest.first().and_then(|w| Color::from_name(w)) {
        Some(color) => {
            rest = &rest[1..];
            Some(color)
        }
        None => None,
    };
    if let Some(first) = rest.first() {
        if first.bytes().all(|b| b.is_ascii_digit()) {
            request.interval = parse_interval(first)?;
            rest = &rest[1..];
        }
    }
    let mut pairs = rest.chunks(2);
    for pair in &mut pairs {
        let [key, value] = pair else {
            return Err(CommandError::Syntax(format!(
                "{} has no value: write analyze [COLOR] [INTERVAL] [KEY VALUE ...]",
                quote(pair[0], 16)
            )));
        };
        match key.to_ascii_lowercase().as_str() {
            "interval" => request.interval = parse_interval(value)?,
            "ownership" => request.ownership = parse_bool(value)?,
            "rootinfo" => request.root_info = parse_bool(value)?,
            "danger" => request.danger = parse_bool(value)?,
            "maxmoves" => request.max_moves = parse_count(value)?,
            _ => {
                return Err(CommandError::Syntax(format!(
                    "{} is not an analysis option: write interval N, maxmoves N, \
                     ownership true|false, rootInfo true|false or danger true|false",
                    quote(key, 16)
                )));
            }
        }
    }
    Ok((color, request))
}

/// An interval in centiseconds: a whole number from 1.
fn parse_interval(text: &str) -> Result<Duration, CommandError> {
    match text.parse::<u32>() {
        Ok(n) if n >= 1 => Ok(Duration::from_millis(u64::from(n) * 10)),
        _ => Err(CommandError::Syntax(format!(
            "{} is not an interval: write a whole number of centiseconds from 1, like 50",
            quote(text, 16)
        ))),
    }
}

/// A number of candidates: a whole number from 1.
fn parse_count(text: &str) -> Result<usize, CommandError> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(CommandError::Syntax(format!(
            "{} is not a number of moves: write a whole number from 1",
            quote(text, 16)
        ))),
    }
}

/// A figure for the report: 0 for what is not a number, and never `-0`.
fn figure(x: f64, decimals: usize) -> String {
    let x = if x.is_finite() { x } else { 0.0 };
    let text = format!("{x:.decimals$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_string(),
        _ => text,
    }
}

/// The report of an analysis of `position` (module doc): one line, without
/// its newline; empty when there is nothing to say.
pub(crate) fn report(analysis: &Analysis, position: &Position, request: &AnalyzeRequest) -> String {
    let g = position.geometry();
    let view = AnalysisView::new(position, analysis);
    let mut out = String::new();
    for (order, candidate) in view.candidates.iter().take(request.max_moves).enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        let _ = write!(
            out,
            "info move {} visits {} winrate {} scoreLead {} order {order} pv {}",
            candidate.turn,
            candidate.visits,
            figure(candidate.win_rate, 4),
            figure(candidate.score_lead, 1),
            candidate.pv.join(" ")
        );
    }
    if request.root_info {
        if !out.is_empty() {
            out.push(' ');
        }
        let _ = write!(
            out,
            "rootInfo visits {} winrate {} scoreLead {}",
            view.visits,
            figure(view.win_rate, 4),
            figure(view.score_lead, 1)
        );
    }
    if request.danger {
        for danger in &view.dangers {
            if !out.is_empty() {
                out.push(' ');
            }
            let _ = write!(
                out,
                "danger color {} stones {} liberties {} turn {} kind {} nextTurn {}",
                &danger.color[..1],
                danger.stones.join(","),
                danger.liberties.join(","),
                danger.turn,
                danger.kind,
                danger.next_turn
            );
        }
    }
    if request.ownership && analysis.ownership.len() == g.num_points() {
        let sign = if position.side_to_move() == Color::White {
            -1.0
        } else {
            1.0
        };
        let mut cells: Vec<(u8, u8, f32)> = g
            .points()
            .zip(&analysis.ownership)
            .map(|(p, &owner)| {
                let (col, row) = g.col_row(p);
                (row, col, owner)
            })
            .collect();
        cells.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str("ownership");
        for (_, _, owner) in cells {
            out.push(' ');
            out.push_str(&figure(f64::from(owner * sign), 3));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use sygo_ai::Candidate;
    use sygo_rules::{Geometry, Turn};

    fn args(text: &str) -> Vec<&str> {
        text.split_whitespace().collect()
    }

    #[test]
    fn arguments_are_a_colour_an_interval_and_pairs() {
        let (color, request) = parse(&args("b 50 ownership true maxmoves 3")).unwrap();
        assert_eq!(color, Some(Color::Black));
        assert_eq!(request.interval, Duration::from_millis(500));
        assert!(request.ownership);
        assert_eq!(request.max_moves, 3);
        let (color, request) = parse(&args("interval 7")).unwrap();
        assert_eq!(color, None);
        assert_eq!(request.interval, Duration::from_millis(70));
        assert!(!request.ownership);
        let (_, request) = parse(&[]).unwrap();
        assert_eq!(request.interval, DEFAULT_INTERVAL);
        assert!(!request.root_info);
        let (_, request) = parse(&args("rootInfo TRUE")).unwrap();
        assert!(request.root_info);
        assert!(!request.danger);
        let (_, request) = parse(&args("danger true")).unwrap();
        assert!(request.danger);
        for (bad, message) in [
            ("b 0", "\"0\" is not an interval"),
            ("w 10 ownership", "\"ownership\" has no value"),
            ("ownership maybe", "\"maybe\" is not true or false"),
            ("maxmoves 0", "\"0\" is not a number of moves"),
            ("b 10 depth 3", "\"depth\" is not an analysis option"),
            ("x", "\"x\" has no value"),
            ("99999999999", "\"99999999999\" is not an interval"),
        ] {
            let error = parse(&args(bad)).unwrap_err().to_string();
            assert!(error.starts_with("syntax error: "), "{bad}: {error}");
            assert!(error.contains(message), "{bad}: {error}");
        }
    }

    #[test]
    fn a_report_is_one_line_of_info_groups_then_the_ownership() {
        let g = Geometry::hexsygo(2).unwrap();
        let mut position = Position::new(g);
        let a1 = g.parse_point("A1").unwrap();
        let b2 = g.parse_point("B2").unwrap();
        position.play_turn(&Turn::Stones(vec![a1])).unwrap();
        // Black to move: Black's view is the board's.
        let candidate = Candidate {
            turn: Turn::Stones(vec![b2]),
            visits: 12,
            win_rate: 0.25,
            score_lead: -0.04,
            pv: vec![Turn::Stones(vec![b2]), Turn::Pass],
        };
        let ownership: Vec<f32> = g
            .points()
            .map(|p| f32::from(g.col_row(p).1) - 1.0)
            .collect();
        let analysis = Analysis {
            visits: 20,
            win_rate: 0.3,
            score_lead: -1.0,
            candidates: vec![candidate.clone(), candidate],
            ownership,
        };
        let mut request = AnalyzeRequest {
            interval: DEFAULT_INTERVAL,
            ownership: true,
            root_info: false,
            max_moves: 1,
            danger: false,
        };
        assert_eq!(
            report(&analysis, &position, &request),
            "info move B2 visits 12 winrate 0.2500 scoreLead 0.0 order 0 pv B2 pass \
             ownership 1.000 1.000 0.000 0.000 0.000 -1.000 -1.000"
        );
        request.ownership = false;
        request.root_info = true;
        request.max_moves = 5;
        assert_eq!(
            report(&analysis, &position, &request),
            "info move B2 visits 12 winrate 0.2500 scoreLead 0.0 order 0 pv B2 pass \
             info move B2 visits 12 winrate 0.2500 scoreLead 0.0 order 1 pv B2 pass \
             rootInfo visits 20 winrate 0.3000 scoreLead -1.0"
        );
    }

    /// The groups in danger come after `rootInfo`, before the ownership,
    /// one `danger` group each.
    #[test]
    fn a_report_lists_the_groups_in_danger_when_asked() {
        let g = Geometry::sygo(5).unwrap();
        // White A1 (liberties A2, B1) next to Black A3 and C1, which grow
        // together; Black to move.
        let position: Position = "sygo 5 5/5/B4/5/W1B2 b g 0".parse().unwrap();
        let analysis = Analysis {
            visits: 3,
            win_rate: 0.5,
            score_lead: 0.0,
            candidates: Vec::new(),
            ownership: vec![0.0; g.num_points()],
        };
        let request = AnalyzeRequest {
            interval: DEFAULT_INTERVAL,
            ownership: false,
            root_info: true,
            max_moves: 1,
            danger: true,
        };
        let line = report(&analysis, &position, &request);
        let (root, danger) = line.split_once(" danger ").unwrap();
        assert_eq!(root, "rootInfo visits 3 winrate 0.5000 scoreLead 0.0");
        assert!(
            danger.starts_with("color w stones A1 liberties B1,A2 turn "),
            "{line}"
        );
        assert!(danger.ends_with(" kind growth nextTurn true"), "{line}");
        let turn = danger.split(" turn ").nth(1).unwrap();
        let turn = turn.split(' ').next().unwrap();
        assert!(turn == "A2,B1" || turn == "B1,A2", "{line}");
    }
}
