//! An analysis as programs read it: the plain data that `sygo analyze
//! --json` and the web app's analysis both write, built in one place so that
//! the two never disagree (with the `serde` feature, it serializes).
//!
//! Numbers are made safe to print here: a win rate is clamped to 0–1 (½ if
//! the search gave none), a margin is finite (0 if it gave none), an owner is
//! clamped to −1…+1.

use sygo_rules::{CaptureKind, Danger, Geometry, Point, Position, format_points};

use crate::Analysis;

/// A candidate turn: its notation, simulations, win rate, margin and line.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CandidateView {
    /// The turn as written: `D5,F7`, `pass`.
    pub turn: String,
    /// Simulations that went through it.
    pub visits: u64,
    /// The side to move's chance to win after it, 0 to 1.
    pub win_rate: f64,
    /// The side to move's expected final margin after it, in points.
    pub score_lead: f64,
    /// The principal variation, this turn first.
    pub pv: Vec<String>,
}

/// A group in danger: one its opponent can reverse with one turn
/// (`sygo_rules::Danger`), with its points named.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DangerView {
    /// `black` or `white`: the group's colour.
    pub color: &'static str,
    /// Its stones.
    pub stones: Vec<String>,
    /// Its liberties.
    pub liberties: Vec<String>,
    /// A turn of the opponent that reverses it, as written: `D5,F7`.
    pub turn: String,
    /// `placement`, `growth` or `balance`.
    pub kind: &'static str,
    /// How many of the opponent's groups the turn grows.
    pub growers: u32,
    /// Whether the opponent moves next (else: if the owner passed).
    pub next_turn: bool,
}

/// A search's view of a position with its points named: what both the
/// terminal's `--json` and the web app write (each adds the ownership in
/// its own shape, from [`AnalysisView::ownership`]).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AnalysisView {
    /// Simulations run.
    pub visits: u64,
    /// The side to move's chance to win, 0 to 1.
    pub win_rate: f64,
    /// The side to move's expected final margin, in points.
    pub score_lead: f64,
    /// The best turns, most visited first.
    pub candidates: Vec<CandidateView>,
    /// The groups in danger: those the opponent can reverse with one turn.
    pub dangers: Vec<DangerView>,
}

impl AnalysisView {
    /// The view of `analysis`, a search of `position`.
    pub fn new(position: &Position, analysis: &Analysis) -> AnalysisView {
        let g = position.geometry();
        AnalysisView {
            visits: analysis.visits,
            win_rate: rate(analysis.win_rate),
            score_lead: finite(analysis.score_lead),
            candidates: analysis
                .candidates
                .iter()
                .map(|c| CandidateView {
                    turn: c.turn.to_notation(&g),
                    visits: c.visits,
                    win_rate: rate(c.win_rate),
                    score_lead: finite(c.score_lead),
                    pv: c.pv.iter().map(|t| t.to_notation(&g)).collect(),
                })
                .collect(),
            dangers: dangers(position),
        }
    }

    /// The owner of each point of `analysis` (in the order of
    /// `Geometry::points`), clamped to −1 (White) … +1 (Black), 0 where the
    /// search gave none.
    pub fn ownership(analysis: &Analysis) -> Vec<f32> {
        analysis
            .ownership
            .iter()
            .map(|&o| {
                if o.is_finite() {
                    o.clamp(-1.0, 1.0)
                } else {
                    0.0
                }
            })
            .collect()
    }
}

/// The groups in danger in `position`, with their points named.
pub fn dangers(position: &Position) -> Vec<DangerView> {
    let g = position.geometry();
    position
        .dangers()
        .iter()
        .map(|d| DangerView::new(d, &g))
        .collect()
}

impl DangerView {
    /// The view of `danger` on a board of geometry `g`.
    pub fn new(danger: &Danger, g: &Geometry) -> DangerView {
        let names = |points: &[Point]| points.iter().map(|&p| g.vertex(p).to_string()).collect();
        DangerView {
            color: danger.color.lowercase(),
            stones: names(&danger.stones),
            liberties: names(&danger.liberties),
            turn: format_points(&danger.turn, g),
            kind: match danger.kind {
                CaptureKind::Placement => "placement",
                CaptureKind::Growth => "growth",
                CaptureKind::Balance => "balance",
            },
            growers: danger.growers,
            next_turn: danger.next_turn,
        }
    }
}

/// A probability made safe to show: clamped to 0–1, ½ if it is not a number.
pub fn rate(x: f64) -> f64 {
    if x.is_finite() {
        x.clamp(0.0, 1.0)
    } else {
        0.5
    }
}

/// A number made safe to show: 0 if it is not one.
pub fn finite(x: f64) -> f64 {
    if x.is_finite() { x } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Candidate;
    use sygo_rules::Turn;

    #[test]
    fn numbers_a_search_did_not_give_are_shown_as_neutral() {
        assert_eq!(rate(f64::NAN), 0.5);
        assert_eq!(rate(1.7), 1.0);
        assert_eq!(rate(-0.2), 0.0);
        assert_eq!(rate(0.25), 0.25);
        assert_eq!(finite(f64::INFINITY), 0.0);
        assert_eq!(finite(-3.5), -3.5);
    }

    #[test]
    fn a_view_names_turns_and_dangers_on_the_board() {
        // White A1 has one liberty, A2: Black places there.
        let position: Position = "sygo 5 5/5/5/5/WBB2 b g 0".parse().expect("a position");
        let g = position.geometry();
        let turn = Turn::parse("A2", &g).expect("a turn");
        let analysis = Analysis {
            visits: 12,
            win_rate: f64::NAN,
            score_lead: 2.5,
            candidates: vec![Candidate {
                turn: turn.clone(),
                visits: 12,
                win_rate: 0.75,
                score_lead: f64::NEG_INFINITY,
                pv: vec![turn],
            }],
            ownership: vec![f32::NAN; g.points().count()],
        };
        let view = AnalysisView::new(&position, &analysis);
        assert_eq!(view.win_rate, 0.5);
        assert_eq!(view.score_lead, 2.5);
        assert_eq!(view.candidates[0].turn, "A2");
        assert_eq!(view.candidates[0].pv, vec!["A2".to_string()]);
        assert_eq!(view.candidates[0].win_rate, 0.75);
        assert_eq!(view.candidates[0].score_lead, 0.0);
        assert_eq!(view.dangers.len(), 1);
        let danger = &view.dangers[0];
        assert_eq!(danger.color, "white");
        assert_eq!(danger.stones, vec!["A1".to_string()]);
        assert_eq!(danger.turn, "A2");
        assert_eq!(danger.kind, "placement");
        assert!(danger.next_turn);
        assert!(AnalysisView::ownership(&analysis).iter().all(|&o| o == 0.0));
    }
}
