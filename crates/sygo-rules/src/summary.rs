//! The facts of a turn, as the rules played it (docs/rules.md §3–§6): who moved,
//! what kind of turn it was, the stones grown (with the groups each grew),
//! the stone placed, and the opponent stones reversed; and the turn in a
//! player's words, for pages, the terminal and screen readers.
//!
//! A [`TurnSummary`] is computed by playing the turn step by step with the
//! rules' own step kinds ([`Position::play_step`]) and the board's own record
//! of the stones each step reversed: nothing is guessed from the stones'
//! neighbours afterwards.

use std::fmt;

use crate::base_groups::label_groups;
use crate::color::Color;
use crate::error::TurnError;
use crate::game::Game;
use crate::geometry::{Geometry, Point};
use crate::position::Position;
use crate::turn::{StepKind, Turn};

/// What kind of turn was played (docs/rules.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnKind {
    /// A pass.
    Pass,
    /// A resignation.
    Resignation,
    /// One placement step.
    Placement,
    /// One or more growth steps.
    Growth,
    /// Black's balance turn (§6): growth steps, then one placement.
    Balance,
}

impl TurnKind {
    /// `pass`, `resignation`, `placement`, `growth` or `balance`: the name
    /// interfaces use.
    pub fn name(self) -> &'static str {
        match self {
            TurnKind::Pass => "pass",
            TurnKind::Resignation => "resignation",
            TurnKind::Placement => "placement",
            TurnKind::Growth => "growth",
            TurnKind::Balance => "balance",
        }
    }
}

/// A stone grown by a turn, with the groups it grew.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GrownStone {
    /// The new stone.
    pub stone: Point,
    /// Each base group it grew (one, or several when it touches several
    /// fresh groups, §5), named by the lowest stone of that group as it
    /// stood before the turn; in increasing order.
    pub groups: Vec<Point>,
}

/// The facts of one turn played from a position.
///
/// # Examples
///
/// ```
/// use sygo_rules::{Position, Turn, TurnKind};
/// // Black's balance turn: C3 grows to C4, then a placement at G7.
/// let before: Position = "sygo 9 9/9/9/9/4W4/9/2B6/9/9 b - 0".parse().unwrap();
/// let g = before.geometry();
/// let summary = before
///     .summarize_turn(&Turn::parse("C4,G7", &g).unwrap())
///     .unwrap();
/// assert_eq!(summary.kind, TurnKind::Balance);
/// assert_eq!(summary.to_string(), "Black's balance turn: grew C4 and placed G7.");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TurnSummary {
    /// The board, to name the points.
    pub geometry: Geometry,
    /// Who moved (for a resignation: who resigned).
    pub color: Color,
    /// What kind of turn it was.
    pub kind: TurnKind,
    /// The stones grown, in the order played.
    pub grown: Vec<GrownStone>,
    /// The stone placed (a placement turn, or the end of a balance turn).
    pub placed: Option<Point>,
    /// The opponent stones the turn reversed, in increasing order.
    pub reversed: Vec<Point>,
}

impl TurnSummary {
    /// The summary of a turn with no stone: a pass or a resignation by
    /// `color`.
    fn without_stones(geometry: Geometry, color: Color, kind: TurnKind) -> TurnSummary {
        TurnSummary {
            geometry,
            color,
            kind,
            grown: Vec::new(),
            placed: None,
            reversed: Vec::new(),
        }
    }

    /// The summary of `color`'s `turn` played from `before` (which is left
    /// as it was). A resignation may be by either player (a player may
    /// resign at any time); any other turn must be by the side to move.
    ///
    /// # Errors
    ///
    /// [`TurnError`] when the rules refuse the turn (as
    /// [`Position::play_turn`]), or [`TurnError::WrongColor`] when `color`
    /// is not to move.
    pub fn of(before: &Position, color: Color, turn: &Turn) -> Result<TurnSummary, TurnError> {
        if *turn == Turn::Resign {
            before.check_turn_start()?;
            return Ok(TurnSummary::without_stones(
                before.geometry(),
                color,
                TurnKind::Resignation,
            ));
        }
        if color != before.side_to_move() && !before.is_over() {
            return Err(TurnError::WrongColor {
                to_move: before.side_to_move(),
            });
        }
        before.summarize_turn(turn)
    }

    /// The stones the turn added, in the order played: the grown ones, then
    /// the placed one.
    pub fn stones(&self) -> Vec<Point> {
        self.grown
            .iter()
            .map(|g| g.stone)
            .chain(self.placed)
            .collect()
    }

    /// The turn in words with `who` as its subject: `"White (the AI) grew
    /// D5 and F7, reversing E6 and E7."`, `"Ann's balance turn: grew C3 and
    /// placed G7."`. [`TurnSummary`]'s `Display` has the colour as subject.
    pub fn sentence(&self, who: &str) -> String {
        let g = &self.geometry;
        let grown: Vec<Point> = self.grown.iter().map(|s| s.stone).collect();
        let mut text = match self.kind {
            TurnKind::Pass => format!("{who} passed"),
            TurnKind::Resignation => format!("{who} resigned"),
            TurnKind::Placement | TurnKind::Growth | TurnKind::Balance => {
                let mut parts = Vec::new();
                if !grown.is_empty() {
                    parts.push(format!("grew {}", list_points(&grown, g)));
                }
                if let Some(p) = self.placed {
                    parts.push(format!("placed {}", g.vertex(p)));
                }
                let what = parts.join(" and ");
                if self.kind == TurnKind::Balance {
                    format!("{who}'s balance turn: {what}")
                } else {
                    format!("{who} {what}")
                }
            }
        };
        if !self.reversed.is_empty() {
            text.push_str(", reversing ");
            text.push_str(&list_points(&self.reversed, g));
        }
        text.push('.');
        text
    }
}

impl fmt::Display for TurnSummary {
    /// The turn in a player's words: `"White grew D5 and F7, reversing E6
    /// and E7."`, `"Black's balance turn: grew C3 and placed G7."`, `"Black
    /// placed D4."`, `"White passed."`, `"Black resigned."`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sentence(self.color.name()))
    }
}

/// Points in words: `D5`, `D5 and F7`, `D5, F7 and K10`.
pub fn list_points(points: &[Point], g: &Geometry) -> String {
    let names: Vec<String> = points.iter().map(|&p| g.vertex(p).to_string()).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

impl Position {
    /// Plays a whole turn, as [`Position::play_turn`], and returns its
    /// summary: each stone's step kind as the rules played it, the groups
    /// each growth grew, the stones reversed.
    ///
    /// # Errors
    ///
    /// [`TurnError`] as [`Position::play_turn`]; the position is then
    /// unchanged.
    pub fn play_turn_summary(&mut self, turn: &Turn) -> Result<TurnSummary, TurnError> {
        let geometry = self.geometry();
        let color = self.side_to_move();
        let points = match turn {
            Turn::Pass | Turn::Resign => {
                self.play_turn(turn)?;
                let kind = if *turn == Turn::Pass {
                    TurnKind::Pass
                } else {
                    TurnKind::Resignation
                };
                return Ok(TurnSummary::without_stones(geometry, color, kind));
            }
            Turn::Stones(points) => points,
        };
        // The mover's groups as they stood before the turn (the base groups),
        // to name the groups each growth grows.
        let (label, groups) = label_groups(self, color);
        let mut grown = Vec::new();
        let mut placed = None;
        let mut reversed: Vec<u16> = Vec::new();
        self.play_stones(points, |after, p, kind| {
            match kind {
                StepKind::Growth => {
                    let mut named: Vec<Point> = geometry
                        .neighbours(p)
                        .filter_map(|q| label[q.index()])
                        .map(|i| groups[i][0])
                        .collect();
                    named.sort_unstable();
                    named.dedup();
                    grown.push(GrownStone {
                        stone: p,
                        groups: named,
                    });
                }
                StepKind::Placement => placed = Some(p),
            }
            // The board's record of the stones the turn has reversed so far.
            reversed.clear();
            reversed.extend_from_slice(after.board.reversed());
        })?;
        let mut reversed: Vec<Point> = reversed.into_iter().map(Point).collect();
        reversed.sort_unstable();
        let kind = match (grown.is_empty(), placed.is_some()) {
            (false, true) => TurnKind::Balance,
            (false, false) => TurnKind::Growth,
            _ => TurnKind::Placement,
        };
        Ok(TurnSummary {
            geometry,
            color,
            kind,
            grown,
            placed,
            reversed,
        })
    }

    /// The summary of a whole turn played from this position, on a copy
    /// (this position is unchanged).
    ///
    /// # Errors
    ///
    /// [`TurnError`] as [`Position::play_turn`].
    pub fn summarize_turn(&self, turn: &Turn) -> Result<TurnSummary, TurnError> {
        self.clone().play_turn_summary(turn)
    }
}

impl Game {
    /// The summary of every turn of the game, in order (replayed from the
    /// start: a few microseconds a turn).
    pub fn summaries(&self) -> Vec<TurnSummary> {
        let mut position = self.start().clone();
        let mut summaries = Vec::with_capacity(self.turns().len());
        for (color, turn) in self.turns_with_colors() {
            let summary = if *turn == Turn::Resign {
                TurnSummary::of(&position, color, turn)
            } else {
                position.play_turn_summary(turn)
            };
            match summary {
                Ok(summary) => summaries.push(summary),
                // Every turn of a game was played by the rules.
                Err(_) => break,
            }
        }
        summaries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The summary of `turn` from the position string `before`.
    fn summary(before: &str, turn: &str) -> TurnSummary {
        let position: Position = before.parse().unwrap();
        let g = position.geometry();
        position
            .summarize_turn(&Turn::parse(turn, &g).unwrap())
            .unwrap()
    }

    fn names(s: &TurnSummary, points: &[Point]) -> Vec<String> {
        points
            .iter()
            .map(|&p| s.geometry.vertex(p).to_string())
            .collect()
    }

    #[test]
    fn a_placement_on_both_boards() {
        let s = summary("sygo 9 9/9/9/9/4W4/9/9/9/9 b - 0", "D4");
        assert_eq!(s.kind, TurnKind::Placement);
        assert_eq!(s.color, Color::Black);
        assert_eq!(s.to_string(), "Black placed D4.");
        let s = summary("hexsygo 3 3/4/5/4/3 w - 0", "C3");
        assert_eq!(s.kind, TurnKind::Placement);
        assert_eq!(s.to_string(), "White placed C3.");
        assert!(s.grown.is_empty() && s.reversed.is_empty());
    }

    #[test]
    fn a_placement_that_captures() {
        // Black A1's last liberty is B1; White holds A2 and places B1.
        let s = summary("sygo 5 5/5/5/W4/B4 w g 0", "B1");
        assert_eq!(s.kind, TurnKind::Placement);
        assert_eq!(names(&s, &s.reversed), ["A1"]);
        assert_eq!(s.to_string(), "White placed B1, reversing A1.");
    }

    #[test]
    fn a_growth_of_two_groups_with_a_capture() {
        // Black E5 has two liberties, D5 and E6: White grows its group
        // F5-F6 to E6 and its group D4-E4 to D5, and reverses E5.
        let before = "sygo 9 9/9/9/5W3/4BW3/3WW4/9/9/9 w g 0";
        let s = summary(before, "E6,D5");
        assert_eq!(s.kind, TurnKind::Growth);
        assert_eq!(names(&s, &s.stones()), ["E6", "D5"]);
        assert_eq!(names(&s, &s.grown[0].groups), ["F5"]);
        assert_eq!(names(&s, &s.grown[1].groups), ["D4"]);
        assert_eq!(names(&s, &s.reversed), ["E5"]);
        assert_eq!(s.to_string(), "White grew E6 and D5, reversing E5.");
    }

    #[test]
    fn a_stone_that_grows_two_groups_names_both() {
        // White C3 and E3; D3 touches both.
        let s = summary("sygo 5 5/5/2W1W/5/B4 w g 0", "D3");
        assert_eq!(s.kind, TurnKind::Growth);
        assert_eq!(names(&s, &s.grown[0].groups), ["C3", "E3"]);
        assert_eq!(s.to_string(), "White grew D3.");
    }

    #[test]
    fn the_balance_turn_on_both_boards() {
        let s = summary("sygo 9 9/9/9/9/4W4/9/2B6/9/9 b - 0", "C4,G7");
        assert_eq!(s.kind, TurnKind::Balance);
        assert_eq!(names(&s, &s.grown[0].groups), ["C3"]);
        assert_eq!(
            s.placed.map(|p| s.geometry.vertex(p).to_string()),
            Some("G7".into())
        );
        assert_eq!(
            s.to_string(),
            "Black's balance turn: grew C4 and placed G7."
        );
        let s = summary("hexsygo 3 3/4/1W3/4/B2 b - 0", "A2,E5");
        assert_eq!(s.kind, TurnKind::Balance);
        assert_eq!(
            s.to_string(),
            "Black's balance turn: grew A2 and placed E5."
        );
        assert_eq!(
            s.sentence("Ann"),
            "Ann's balance turn: grew A2 and placed E5."
        );
    }

    #[test]
    fn growth_on_the_hex_board() {
        let s = summary("hexsygo 3 3/4/1W3/4/B2 w - 0", "C4");
        assert_eq!(s.kind, TurnKind::Growth);
        assert_eq!(names(&s, &s.grown[0].groups), ["B3"]);
        assert_eq!(s.to_string(), "White grew C4.");
    }

    #[test]
    fn passes_and_resignations() {
        let s = summary("hexsygo 3 3/4/5/4/3 w - 0", "pass");
        assert_eq!(
            (s.kind, s.to_string().as_str()),
            (TurnKind::Pass, "White passed.")
        );
        let s = summary("sygo 5 5/5/5/5/5 b - 0", "resign");
        assert_eq!(s.kind, TurnKind::Resignation);
        assert_eq!(s.to_string(), "Black resigned.");
        // Out of turn, through a game.
        let mut game = Game::new("sygo 5 5/5/5/5/5 w - 0".parse().unwrap());
        game.play(Turn::Pass).unwrap();
        game.resign_as(Color::White).unwrap();
        let all: Vec<String> = game.summaries().iter().map(|s| s.to_string()).collect();
        assert_eq!(all, ["White passed.", "White resigned."]);
    }

    #[test]
    fn refused_turns_are_errors() {
        let position: Position = "sygo 5 5/5/5/5/5 w - 0".parse().unwrap();
        let g = position.geometry();
        let turn = Turn::parse("C3,C4", &g).unwrap();
        assert!(position.summarize_turn(&turn).is_err());
        assert_eq!(
            TurnSummary::of(&position, Color::Black, &Turn::parse("C3", &g).unwrap()),
            Err(TurnError::WrongColor {
                to_move: Color::White
            })
        );
    }

    #[test]
    fn lists_of_points() {
        let g = Geometry::sygo(19).unwrap();
        let at = |s: &str| g.parse_point(s).unwrap();
        assert_eq!(list_points(&[], &g), "");
        assert_eq!(list_points(&[at("D5")], &g), "D5");
        assert_eq!(list_points(&[at("D5"), at("F7")], &g), "D5 and F7");
        assert_eq!(
            list_points(&[at("D5"), at("F7"), at("K10")], &g),
            "D5, F7 and K10"
        );
    }
}
