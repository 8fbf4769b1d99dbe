//! A second, deliberately simple implementation of docs/rules.md, to check the
//! rules library against.
//!
//! Nothing here is clever: the board is a vector of optional colours indexed by
//! (column, row); groups, liberties, captures and territory are found by flood
//! fill every time they are needed; the turn in progress keeps its base groups
//! (flood-filled when the turn starts), the status of each, and the list of new
//! stones. Nothing is kept incrementally.
//!
//! It is independent of the library's internals: neighbours are computed from
//! (column, row) by the formulas of docs/rules.md §1, and the library's
//! [`Geometry`] is used only to turn a [`Point`] into (column, row) and back.
//!
//! Coordinates are 0-based here (docs/rules.md writes them 1-based; the formulas
//! are the same).

// Each test file that says `mod reference;` uses a different part of it.
#![allow(dead_code)]

use sygo_rules::{Color, Geometry, Point, StepKind};

/// A point as (column, row), 0-based.
pub type Cell = (i32, i32);

/// The board: docs/rules.md §1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Board {
    /// The square N×N board: neighbours are the orthogonal points.
    Square(i32),
    /// The hexagon of base n: columns and rows 0 … 2n−2, the cell (c, r)
    /// exists iff |c − r| ≤ n − 1; neighbours (c±1, r), (c, r±1),
    /// (c+1, r+1), (c−1, r−1).
    Hex(i32),
}

impl Board {
    /// Columns (= rows) of the board's bounding box.
    pub fn side(self) -> i32 {
        match self {
            Board::Square(n) => n,
            Board::Hex(n) => 2 * n - 1,
        }
    }

    /// Whether (c, r) is a point of the board.
    pub fn contains(self, (c, r): Cell) -> bool {
        let s = self.side();
        if c < 0 || r < 0 || c >= s || r >= s {
            return false;
        }
        match self {
            Board::Square(_) => true,
            // |c − r| ≤ n − 1
            Board::Hex(n) => (c - r).abs() < n,
        }
    }

    /// Every point, row by row from row 0, each row from column 0.
    pub fn cells(self) -> Vec<Cell> {
        let s = self.side();
        let mut cells = Vec::new();
        for r in 0..s {
            for c in 0..s {
                if self.contains((c, r)) {
                    cells.push((c, r));
                }
            }
        }
        cells
    }

    /// The neighbours of a point that exist (docs/rules.md §1).
    pub fn neighbours(self, (c, r): Cell) -> impl Iterator<Item = Cell> {
        let all = [
            (c + 1, r),
            (c - 1, r),
            (c, r + 1),
            (c, r - 1),
            (c + 1, r + 1),
            (c - 1, r - 1),
        ];
        let degree = match self {
            Board::Square(_) => 4,
            Board::Hex(_) => 6,
        };
        all.into_iter()
            .take(degree)
            .filter(move |&q| self.contains(q))
    }

    fn index(self, (c, r): Cell) -> usize {
        (r * self.side() + c) as usize
    }
}

/// The library's point at a cell (the one use of [`Geometry`]).
pub fn to_point(g: &Geometry, (c, r): Cell) -> Point {
    g.point(c as u8, r as u8).expect("a cell of the board")
}

/// The cell of a library point (the other use of [`Geometry`]).
pub fn to_cell(g: &Geometry, p: Point) -> Cell {
    let (c, r) = g.col_row(p);
    (i32::from(c), i32::from(r))
}

/// The stones on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stones {
    pub board: Board,
    grid: Vec<Option<Color>>,
}

impl Stones {
    /// An empty board.
    pub fn new(board: Board) -> Stones {
        let s = board.side() as usize;
        Stones {
            board,
            grid: vec![None; s * s],
        }
    }

    /// The stone on a point.
    pub fn get(&self, p: Cell) -> Option<Color> {
        self.grid[self.board.index(p)]
    }

    /// Puts (or removes) a stone.
    pub fn set(&mut self, p: Cell, stone: Option<Color>) {
        let i = self.board.index(p);
        self.grid[i] = stone;
    }

    /// The group of the stone on p: every stone of its colour reachable from
    /// p through neighbours (flood fill).
    pub fn group(&self, p: Cell) -> Vec<Cell> {
        let color = self.get(p).expect("a stone");
        let mut seen = vec![false; self.grid.len()];
        seen[self.board.index(p)] = true;
        let mut group = vec![p];
        let mut i = 0;
        while i < group.len() {
            let q = group[i];
            i += 1;
            for n in self.board.neighbours(q) {
                let k = self.board.index(n);
                if !seen[k] && self.get(n) == Some(color) {
                    seen[k] = true;
                    group.push(n);
                }
            }
        }
        group
    }

    /// Whether a set of stones has a vacant neighbour.
    pub fn has_liberty(&self, group: &[Cell]) -> bool {
        group
            .iter()
            .any(|&q| self.board.neighbours(q).any(|n| self.get(n).is_none()))
    }

    /// Every group of a colour.
    pub fn groups(&self, color: Color) -> Vec<Vec<Cell>> {
        let mut seen = vec![false; self.grid.len()];
        let mut groups = Vec::new();
        for p in self.board.cells() {
            if self.get(p) == Some(color) && !seen[self.board.index(p)] {
                let group = self.group(p);
                for &q in &group {
                    seen[self.board.index(q)] = true;
                }
                groups.push(group);
            }
        }
        groups
    }

    /// The stones of the groups of `color` that have no liberty.
    pub fn dead_stones(&self, color: Color) -> Vec<Cell> {
        self.groups(color)
            .into_iter()
            .filter(|g| !self.has_liberty(g))
            .flatten()
            .collect()
    }

    /// Puts a stone of `color` on p, then reverses every opponent group that
    /// neighbours p and has no liberty (docs/rules.md §4, §5 step 2). Returns the
    /// number of stones reversed.
    pub fn put_and_capture(&mut self, p: Cell, color: Color) -> usize {
        assert!(self.get(p).is_none(), "a stone on a vacant point");
        self.set(p, Some(color));
        let mut reversed = 0;
        for n in self.board.neighbours(p) {
            // A neighbour reversed a moment ago is the mover's now: skipped.
            if self.get(n) == Some(color.opponent()) {
                let group = self.group(n);
                if !self.has_liberty(&group) {
                    for &q in &group {
                        self.set(q, Some(color));
                    }
                    reversed += group.len();
                }
            }
        }
        reversed
    }

    /// Stones of each colour, Black first.
    pub fn counts(&self) -> [u32; 2] {
        let mut counts = [0, 0];
        for &s in &self.grid {
            match s {
                Some(Color::Black) => counts[0] += 1,
                Some(Color::White) => counts[1] += 1,
                None => {}
            }
        }
        counts
    }

    /// The vacant regions (flood fill), each with the colour that alone
    /// borders it, if one does (docs/rules.md §8).
    pub fn regions(&self) -> Vec<(Vec<Cell>, Option<Color>)> {
        let mut seen = vec![false; self.grid.len()];
        let mut regions = Vec::new();
        for p in self.board.cells() {
            if self.get(p).is_some() || seen[self.board.index(p)] {
                continue;
            }
            seen[self.board.index(p)] = true;
            let mut region = vec![p];
            let (mut black, mut white) = (false, false);
            let mut i = 0;
            while i < region.len() {
                let q = region[i];
                i += 1;
                for n in self.board.neighbours(q) {
                    match self.get(n) {
                        Some(Color::Black) => black = true,
                        Some(Color::White) => white = true,
                        None => {
                            let k = self.board.index(n);
                            if !seen[k] {
                                seen[k] = true;
                                region.push(n);
                            }
                        }
                    }
                }
            }
            let owner = match (black, white) {
                (true, false) => Some(Color::Black),
                (false, true) => Some(Color::White),
                _ => None,
            };
            regions.push((region, owner));
        }
        regions
    }

    /// Each player's score, Black first: stones plus the vacant points of the
    /// regions only they border (docs/rules.md §8).
    pub fn score(&self) -> [u32; 2] {
        let mut score = self.counts();
        for (region, owner) in self.regions() {
            match owner {
                Some(Color::Black) => score[0] += region.len() as u32,
                Some(Color::White) => score[1] += region.len() as u32,
                None => {}
            }
        }
        score
    }
}

/// What has become of a base group during the turn (docs/rules.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Fresh,
    Grown,
    Frozen,
}

/// One of the mover's groups as it was when the turn began.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseGroup {
    pub stones: Vec<Cell>,
    pub status: Status,
}

/// Why a step is refused, classified like the library's `StepError`, with
/// the stones that justify it (any one of them is a correct example).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over.
    GameOver,
    /// A placement ended the turn (§4): nothing more may be played.
    TurnOver { placement: Cell },
    /// The point holds a stone (§4, §5 g1).
    Occupied,
    /// In Black's balance turn, a stone next to stones of the mover that are
    /// all new this turn: not a growth (§5 g2), and not the placement either,
    /// which may touch no stone of the mover (§4). These are the stones.
    PlacementTouchesOwn { own: Vec<Cell> },
    /// A placement after growth outside Black's balance turn (§4, §6).
    PlacementAfterGrowth,
    /// A growth stone next to no stone of a base group (§5 g2), outside the
    /// balance turn: these are the mover's stones it does touch.
    OnlyNewStones { new: Vec<Cell> },
    /// A growth stone next to a base group that has grown (§5 g3): the base
    /// stones next to it of such groups.
    AlreadyGrown { stones: Vec<Cell> },
    /// A growth stone next to a base group frozen by a capture (§5 step 3,
    /// g3): the base stones next to it of such groups.
    Frozen { stones: Vec<Cell> },
    /// A placement completing a turn that leaves a group of the mover without
    /// liberties (§7): the stones of such groups.
    Suicide { dead: Vec<Cell> },
}

/// Why a turn cannot end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FinishRefusal {
    GameOver,
    NoStep,
    /// The stones of the mover's groups without liberties (§7).
    Suicide {
        dead: Vec<Cell>,
    },
}

/// A step's verdict: its kind, or every refusal that applies (two only when
/// a growth stone touches both a grown and a frozen base group, where either
/// name is right).
pub type Verdict = Result<StepKind, Vec<Refusal>>;

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepOutcome {
    pub kind: StepKind,
    /// Opponent stones reversed.
    pub reversed: usize,
}

/// A position with the turn in progress.
#[derive(Clone, Debug)]
pub struct RefPosition {
    pub stones: Stones,
    pub to_move: Color,
    pub growth_started: bool,
    pub passes: u8,
    pub resigned: Option<Color>,
    /// The mover's groups when the turn began, flood-filled then.
    pub base_groups: Vec<BaseGroup>,
    /// For each point, the base group its stone belonged to at turn start.
    base_of: Vec<Option<usize>>,
    /// The stones the turn has added, in order, with their kinds.
    pub new_stones: Vec<(Cell, StepKind)>,
}

impl RefPosition {
    /// The empty board, White to move (§3).
    pub fn new(board: Board) -> RefPosition {
        RefPosition::from_stones(board, &[], Color::White, false)
    }

    /// A set-up position between turns.
    pub fn from_stones(
        board: Board,
        stones: &[(Cell, Color)],
        to_move: Color,
        growth_started: bool,
    ) -> RefPosition {
        let mut grid = Stones::new(board);
        for &(p, c) in stones {
            grid.set(p, Some(c));
        }
        let mut pos = RefPosition {
            stones: grid,
            to_move,
            growth_started,
            passes: 0,
            resigned: None,
            base_groups: Vec::new(),
            base_of: Vec::new(),
            new_stones: Vec::new(),
        };
        pos.start_turn();
        pos
    }

    pub fn board(&self) -> Board {
        self.stones.board
    }

    /// Computes the base groups of the turn that starts now.
    fn start_turn(&mut self) {
        let board = self.board();
        self.base_groups = self
            .stones
            .groups(self.to_move)
            .into_iter()
            .map(|stones| BaseGroup {
                stones,
                status: Status::Fresh,
            })
            .collect();
        self.base_of = vec![None; (board.side() * board.side()) as usize];
        for (i, g) in self.base_groups.iter().enumerate() {
            for &p in &g.stones {
                self.base_of[board.index(p)] = Some(i);
            }
        }
        self.new_stones.clear();
    }

    fn base_group_at(&self, p: Cell) -> Option<usize> {
        self.base_of[self.board().index(p)]
    }

    pub fn is_over(&self) -> bool {
        self.resigned.is_some() || self.passes >= 2
    }

    /// Whether Black may end his growth with a placement (§6).
    pub fn balance_available(&self) -> bool {
        self.to_move == Color::Black && !self.growth_started
    }

    /// The placement that ended the turn, if one did.
    fn placement_played(&self) -> Option<Cell> {
        self.new_stones
            .last()
            .filter(|(_, k)| *k == StepKind::Placement)
            .map(|&(p, _)| p)
    }

    /// The verdict on a step at p (docs/rules.md §4–§7), without playing it.
    pub fn check_step(&self, p: Cell) -> Verdict {
        if self.is_over() {
            return Err(vec![Refusal::GameOver]);
        }
        if let Some(placement) = self.placement_played() {
            return Err(vec![Refusal::TurnOver { placement }]);
        }
        if self.stones.get(p).is_some() {
            return Err(vec![Refusal::Occupied]);
        }
        let me = self.to_move;
        let own: Vec<Cell> = self
            .board()
            .neighbours(p)
            .filter(|&n| self.stones.get(n) == Some(me))
            .collect();
        if own.is_empty() {
            // A placement (§4): only as the turn's single step, or as the last
            // step of Black's balance turn (§6).
            if !self.new_stones.is_empty() && !self.balance_available() {
                return Err(vec![Refusal::PlacementAfterGrowth]);
            }
            // Allowed only if the turn it completes is legal (§7).
            let mut after = self.stones.clone();
            after.put_and_capture(p, me);
            let dead = after.dead_stones(me);
            if !dead.is_empty() {
                return Err(vec![Refusal::Suicide { dead }]);
            }
            return Ok(StepKind::Placement);
        }
        // A growth (§5).
        let base: Vec<(Cell, usize)> = own
            .iter()
            .filter_map(|&n| self.base_group_at(n).map(|i| (n, i)))
            .collect();
        if base.is_empty() {
            // g2 fails. In Black's balance turn the stone might be meant as
            // the placement, which may not touch his stones either (§4).
            return Err(vec![if self.balance_available() {
                Refusal::PlacementTouchesOwn { own }
            } else {
                Refusal::OnlyNewStones { new: own }
            }]);
        }
        let with = |status| -> Vec<Cell> {
            base.iter()
                .filter(|&&(_, i)| self.base_groups[i].status == status)
                .map(|&(n, _)| n)
                .collect()
        };
        let (grown, frozen) = (with(Status::Grown), with(Status::Frozen));
        let mut refusals = Vec::new();
        if !grown.is_empty() {
            refusals.push(Refusal::AlreadyGrown { stones: grown });
        }
        if !frozen.is_empty() {
            refusals.push(Refusal::Frozen { stones: frozen });
        }
        if refusals.is_empty() {
            Ok(StepKind::Growth)
        } else {
            Err(refusals) // g3
        }
    }

    /// Plays a step at p: the stone, the grown base groups, the captures, the
    /// freezing after a capture by growth (§5 steps 1–3).
    ///
    /// # Errors
    ///
    /// The refusals when the step is not allowed; nothing changes then.
    pub fn play_step(&mut self, p: Cell) -> Result<StepOutcome, Vec<Refusal>> {
        let kind = self.check_step(p)?;
        let me = self.to_move;
        if kind == StepKind::Growth {
            let neighbours: Vec<Cell> = self.board().neighbours(p).collect();
            for n in neighbours {
                if let Some(i) = self.base_group_at(n) {
                    self.base_groups[i].status = Status::Grown;
                }
            }
        }
        let reversed = self.stones.put_and_capture(p, me);
        if reversed > 0 && kind == StepKind::Growth {
            for q in self.stones.group(p) {
                if let Some(i) = self.base_group_at(q) {
                    self.base_groups[i].status = Status::Frozen;
                }
            }
        }
        self.new_stones.push((p, kind));
        Ok(StepOutcome { kind, reversed })
    }

    /// Whether the turn may end now (§7).
    pub fn check_finish(&self) -> Result<(), FinishRefusal> {
        if self.is_over() {
            return Err(FinishRefusal::GameOver);
        }
        if self.new_stones.is_empty() {
            return Err(FinishRefusal::NoStep);
        }
        let dead = self.stones.dead_stones(self.to_move);
        if dead.is_empty() {
            Ok(())
        } else {
            Err(FinishRefusal::Suicide { dead })
        }
    }

    /// Ends the turn.
    ///
    /// # Errors
    ///
    /// The refusal when it may not end; nothing changes then.
    pub fn finish_turn(&mut self) -> Result<(), FinishRefusal> {
        self.check_finish()?;
        if self.new_stones.iter().any(|&(_, k)| k == StepKind::Growth) {
            self.growth_started = true;
        }
        self.passes = 0;
        self.to_move = self.to_move.opponent();
        self.start_turn();
        Ok(())
    }

    /// Whether the mover's groups have no liberty right now (a transient
    /// suicide, if a turn is in progress).
    pub fn mover_has_dead_group(&self) -> bool {
        !self.stones.dead_stones(self.to_move).is_empty()
    }

    /// Passes (§3). Only between turns, before the end.
    pub fn pass(&mut self) {
        assert!(!self.is_over() && self.new_stones.is_empty());
        self.passes += 1;
        self.to_move = self.to_move.opponent();
        self.start_turn();
    }

    /// Resigns (§3).
    pub fn resign(&mut self) {
        assert!(!self.is_over() && self.new_stones.is_empty());
        self.resigned = Some(self.to_move);
    }

    /// The verdict on every point of the board, in the order of
    /// [`Board::cells`].
    pub fn verdicts(&self) -> Vec<(Cell, Verdict)> {
        self.board()
            .cells()
            .into_iter()
            .map(|p| (p, self.check_step(p)))
            .collect()
    }

    /// The steps allowed next, found by trying every vacant point.
    pub fn allowed_steps(&self) -> Vec<(Cell, StepKind)> {
        self.board()
            .cells()
            .into_iter()
            .filter(|&p| self.stones.get(p).is_none())
            .filter_map(|p| self.check_step(p).ok().map(|k| (p, k)))
            .collect()
    }
}
