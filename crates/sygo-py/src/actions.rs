//! Actions as numbers: a stone on each point of the board, then the end of
//! a growth turn, then a pass.
//!
//! The points are numbered in the order of `Geometry::points`: row by row
//! from row 1, each row from its leftmost point. On the square board the
//! stone on 0-based column `c` and row `r` is action `r·N + c`; on the
//! hexagon the missing corners of the stored parallelogram get no number,
//! so the actions run 0 … 3n(n − 1). With `P` points:
//!
//! | action | what |
//! | --- | --- |
//! | `0 … P − 1` | a stone on that point (a placement or a growth step) |
//! | `P` | `end`: ends the growth turn in progress |
//! | `P + 1` | `pass` (only at the start of a turn) |
//!
//! Resigning is not an action (`State.resign()`).

use std::sync::OnceLock;

use sygo_rules::{Geometry, Point, Variant};

/// Both variants, in the order their numberings are kept.
const VARIANTS: [Variant; 2] = [Variant::Sygo, Variant::Hexsygo];

/// The numbering of one board's points, both ways.
#[derive(Debug)]
pub(crate) struct Numbering {
    /// The point of each stone action.
    points: Vec<Point>,
    /// The stone action of each padded index (`u16::MAX` off the board).
    actions: Vec<u16>,
}

/// What an action number stands for on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    /// A stone on this point.
    Stone(Point),
    /// Ends the growth turn in progress.
    End,
    /// Passes.
    Pass,
}

impl Numbering {
    fn new(g: Geometry) -> Numbering {
        let points: Vec<Point> = g.points().collect();
        let mut actions = vec![u16::MAX; g.index_len()];
        for (a, p) in points.iter().enumerate() {
            actions[p.index()] = a as u16;
        }
        Numbering { points, actions }
    }

    /// The numbering of a board, made once per board for the whole process.
    #[inline]
    pub(crate) fn of(g: Geometry) -> &'static Numbering {
        static ALL: OnceLock<Vec<Numbering>> = OnceLock::new();
        let all = ALL.get_or_init(|| {
            VARIANTS
                .into_iter()
                .flat_map(|v| v.sizes().map(move |n| (v, n)))
                .map(|(v, n)| Numbering::new(Geometry::new(v, n).expect("a size the variant has")))
                .collect()
        });
        &all[Numbering::slot(g)]
    }

    /// Where a board's numbering is kept: the boards of each variant in
    /// turn, by size.
    #[inline]
    fn slot(g: Geometry) -> usize {
        let before = match g.variant() {
            Variant::Sygo => 0,
            Variant::Hexsygo => Variant::Sygo.sizes().count(),
        };
        before + usize::from(g.size() - g.variant().sizes().start())
    }

    /// The number of points, `P`.
    pub(crate) fn len(&self) -> usize {
        self.points.len()
    }

    /// `P`: the action that ends a growth turn.
    pub(crate) fn end(&self) -> usize {
        self.points.len()
    }

    /// `P + 1`: the pass.
    pub(crate) fn pass(&self) -> usize {
        self.points.len() + 1
    }

    /// `P + 2`: how many actions there are.
    pub(crate) fn count(&self) -> usize {
        self.points.len() + 2
    }

    /// The stone action of a point of the board.
    #[inline]
    pub(crate) fn action_of(&self, p: Point) -> usize {
        usize::from(self.actions[p.index()])
    }

    /// The points in action order.
    pub(crate) fn points(&self) -> &[Point] {
        &self.points
    }

    /// What an action number stands for, or `None` out of range.
    #[inline]
    pub(crate) fn decode(&self, action: i64) -> Option<Action> {
        let a = usize::try_from(action).ok()?;
        match a.cmp(&self.points.len()) {
            std::cmp::Ordering::Less => Some(Action::Stone(self.points[a])),
            std::cmp::Ordering::Equal => Some(Action::End),
            std::cmp::Ordering::Greater if a == self.pass() => Some(Action::Pass),
            std::cmp::Ordering::Greater => None,
        }
    }

    /// An action as written: the point (`D4`), `end` or `pass`.
    pub(crate) fn name(&self, g: &Geometry, action: Action) -> String {
        match action {
            Action::Stone(p) => g.vertex(p).to_string(),
            Action::End => "end".to_string(),
            Action::Pass => "pass".to_string(),
        }
    }
}
