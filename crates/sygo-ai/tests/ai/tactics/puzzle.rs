//! A tactics position, its goal, and the judge that says whether a turn
//! meets the goal (with the exhaustive reading of [`super::oracle`]); near
//! the end of a game, whether it keeps the best final margin
//! ([`super::exact`]).

use sygo_rules::{Color, Geometry, Point, Position, Turn};

use super::exact;
use super::oracle::{self, HashSet};
use crate::diagram::{self, Growth};

/// What the side to move must achieve in its turn. Points name groups: each
/// point (comma-separated) stands for the whole group on it in the start
/// position.
#[derive(Clone, Copy, Debug)]
pub enum Goal {
    /// Reverse every stone of the opponent's groups named.
    Capture(&'static str),
    /// Reverse them, so that the opponent's next turn cannot reverse any of
    /// those stones back: a capture that holds.
    CaptureForGood(&'static str),
    /// Keep the mover's groups named: every stone is still the mover's after
    /// the turn, and no turn of the opponent can reverse any of them.
    Save(&'static str),
    /// Win the race: reverse the opponent's groups named first, and keep the
    /// mover's groups named second, so that no turn of the opponent can
    /// reverse any stone of either.
    CaptureAndSave(&'static str, &'static str),
    /// A position read to the end of the game (`exact.rs`): end it with
    /// the best final margin, whatever that takes.
    BestPlay,
}

impl Goal {
    /// A short word for the report.
    pub fn kind(&self) -> &'static str {
        match self {
            Goal::Capture(_) => "capture",
            Goal::CaptureForGood(_) => "capture for good",
            Goal::Save(_) => "save",
            Goal::CaptureAndSave(..) => "capture and save",
            Goal::BestPlay => "best play",
        }
    }

    /// The opponent's groups to reverse and the mover's groups to keep.
    fn named(&self) -> (&'static str, &'static str) {
        match *self {
            Goal::Capture(c) | Goal::CaptureForGood(c) => (c, ""),
            Goal::Save(s) => ("", s),
            Goal::CaptureAndSave(c, s) => (c, s),
            Goal::BestPlay => ("", ""),
        }
    }
}

/// A tactics position.
pub struct Puzzle {
    /// What it shows.
    pub name: &'static str,
    pub geometry: Geometry,
    pub to_move: Color,
    /// Whether a growth turn has been played (Black's balance turn is gone).
    pub growth: Growth,
    /// The board, drawn as `Position::diagram` draws it (see
    /// `sygo-rules/tests/rules/diagram.rs`).
    pub board: &'static str,
    pub goal: Goal,
    /// A turn that meets the goal (checked).
    pub solution: &'static str,
    /// Legal, natural-looking turns that do not (checked).
    pub wrong: &'static [&'static str],
}

impl Puzzle {
    /// The position, the side to move to play.
    pub fn start(&self) -> Position {
        diagram::position(self.geometry, self.to_move, self.growth, self.board).0
    }

    /// A turn written in the position's notation.
    pub fn turn(&self, text: &str) -> Turn {
        Turn::parse(text, &self.geometry).unwrap_or_else(|e| panic!("{}: {text}: {e}", self.name))
    }

    /// The judge of this position's goal.
    pub fn judge(&self) -> Judge {
        let start = self.start();
        let (capture, save) = self.goal.named();
        let best_play =
            (start.vacant_count() <= exact::MAX_VACANT).then(|| exact::Exact::new().best(&start).0);
        Judge {
            mover: self.to_move,
            capture: self.stones(&start, capture, self.to_move.opponent()),
            save: self.stones(&start, save, self.to_move),
            safe: !matches!(self.goal, Goal::Capture(_) | Goal::BestPlay),
            best_play,
            start,
        }
    }

    /// Every stone of the groups on `points` (comma-separated), which must
    /// be `owner`'s.
    fn stones(&self, start: &Position, points: &str, owner: Color) -> Vec<Point> {
        let mut stones = Vec::new();
        for v in points.split(',').filter(|v| !v.is_empty()) {
            let p = self.geometry.parse_point(v).unwrap();
            assert_eq!(
                start.stone_at(p),
                Some(owner),
                "{}: the goal names {v}, which is not {}'s stone",
                self.name,
                owner.name()
            );
            stones.extend(start.group(p));
        }
        stones
    }
}

/// Says whether a turn meets a position's goal.
pub struct Judge {
    /// The position, the side to move to play.
    pub start: Position,
    mover: Color,
    /// Opponent's stones the turn must reverse.
    capture: Vec<Point>,
    /// Mover's stones the turn must keep.
    save: Vec<Point>,
    /// Whether the opponent must be unable to reverse any of them next turn.
    safe: bool,
    /// For a position read to the end of the game (`exact.rs`): the
    /// positions after the turns with the best final margin, which are then
    /// the correct ones, whatever the goal says.
    best_play: Option<HashSet>,
}

impl Judge {
    /// Whether the position after a turn of the mover meets the goal.
    pub fn meets(&self, after: &Position) -> bool {
        match &self.best_play {
            Some(best) => best.contains(&after.hash()),
            None => self.meets_goal(after),
        }
    }

    /// Whether the position was read to the end of the game (then the
    /// correct turns are those of the best final margin).
    pub fn read_to_the_end(&self) -> bool {
        self.best_play.is_some()
    }

    /// Whether the position after a turn meets the goal's words (named
    /// groups reversed or kept), read one turn ahead.
    pub fn meets_goal(&self, after: &Position) -> bool {
        let named: Vec<Point> = self.capture.iter().chain(&self.save).copied().collect();
        !after.is_over()
            && named.iter().all(|&p| after.stone_at(p) == Some(self.mover))
            && !(self.safe && oracle::can_reverse(after, &named))
    }

    /// Whether `turn` meets the goal (`Err`: the turn is illegal).
    pub fn solved_by(&self, turn: &Turn) -> Result<bool, String> {
        let mut after = self.start.clone();
        after.play_turn(turn).map_err(|e| format!("illegal: {e}"))?;
        Ok(self.meets(&after))
    }
}
