//! A position and the rules of a turn (docs/rules.md §3–§8), step by step.
//!
//! A [`Position`] is the board plus the side to move, whether a growth turn has
//! been played (Black's balance turn, §6), the consecutive passes, a
//! resignation, and the turn in progress: the stones it has added so far.
//!
//! The play API comes in tiers:
//!
//! - queries: [`Position::check_step`], [`Position::allowed_steps`],
//!   [`Position::check_finish`], and whether a turn that cannot end now can
//!   still be completed, [`Position::turn_can_be_completed`];
//! - checked play: [`Position::play_step`], [`Position::finish_turn`],
//!   [`Position::play_turn`], which refuse with a typed error and leave the
//!   position untouched;
//! - the fast path for playouts: [`Position::play_step_unchecked`] and
//!   [`Position::finish_turn_unchecked`], whose contract is that the step or
//!   finish is allowed (checked only in debug builds).
//!
//! # How freshness is kept
//!
//! A base group is fresh until it grows or takes part in a capture. At any
//! moment each group of the mover on the board is either one untouched base
//! group or a union in which every base group has grown or is frozen: a fresh
//! base group can only join others through a growth stone next to it (which
//! grows it) or a reversal next to it (which freezes it). So a `touched` flag
//! per group, plus a `NEW` mark per stone added this turn, decide §5 (g2, g3)
//! by looking at a point's neighbours only.

use std::fmt;

use crate::board::{Board, COLOR, EMPTY, NEW, touches};
use crate::color::Color;
use crate::coord::Vertex;
use crate::error::{FinishError, SetupError, StepError, TurnError};
use crate::geometry::{Geometry, Point};
use crate::score::{Score, Territory};
use crate::turn::{StepKind, Turn};
use crate::zobrist;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A player resigned; the other wins.
    Resignation {
        /// The player who did not resign.
        winner: Color,
    },
    /// Two successive passes; the score decides (docs/rules.md §8).
    Score(Score),
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Resignation { winner } => Some(*winner),
            Outcome::Score(score) => score.winner(),
        }
    }
}

impl fmt::Display for Outcome {
    /// `B+R`, `W+R`, `B+3`, `W+12` or `0` (the SGF and GTP form).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Resignation { winner } => write!(f, "{}+R", winner.letter()),
            Outcome::Score(score) => score.fmt(f),
        }
    }
}

/// What the turn in progress has done, beyond its stones (which the board
/// keeps).
#[derive(Clone, Copy, Default)]
struct TurnState {
    /// A placement was played: it ended the turn.
    placed: bool,
    /// At least one growth step was played.
    grew: bool,
}

/// A position of Sygo or Hexsygo, with the turn in progress.
///
/// A `Position` is one fixed-size value: cloning it is a copy that allocates
/// nothing, whatever the board.
///
/// # Examples
///
/// ```
/// use sygo_rules::{Color, Geometry, Position, StepKind};
/// let g = Geometry::sygo(9).unwrap();
/// let mut pos = Position::new(g);
/// let e5 = g.parse_point("E5").unwrap();
/// assert_eq!(pos.play_step(e5), Ok(StepKind::Placement));
/// pos.finish_turn().unwrap();
/// assert_eq!(pos.side_to_move(), Color::Black);
/// assert_eq!(pos.stone_at(e5), Some(Color::White));
/// ```
pub struct Position {
    pub(crate) board: Board,
    side: Color,
    growth_started: bool,
    passes: u8,
    resigned: Option<Color>,
    turn: TurnState,
}

impl Position {
    /// The empty board, White to move, no growth played, no passes.
    pub fn new(geometry: Geometry) -> Position {
        Position {
            board: Board::new(geometry),
            side: Color::White,
            growth_started: false,
            passes: 0,
            resigned: None,
            turn: TurnState::default(),
        }
    }

    /// A position from its parts, with no turn in progress.
    ///
    /// # Errors
    ///
    /// [`SetupError`] when a point is off the board or given twice, a group
    /// has no liberty, or there are more than two passes.
    pub fn from_parts(
        geometry: Geometry,
        stones: &[(Point, Color)],
        side_to_move: Color,
        growth_started: bool,
        passes: u8,
        resigned: Option<Color>,
    ) -> Result<Position, SetupError> {
        if passes > 2 {
            return Err(SetupError::Passes(passes));
        }
        let mut seen = vec![false; geometry.index_len()];
        let mut cells = Vec::with_capacity(stones.len());
        for &(p, color) in stones {
            let i = p.index();
            if geometry.point_at_index(i).is_none() {
                return Err(SetupError::NotOnBoard);
            }
            if std::mem::replace(&mut seen[i], true) {
                return Err(SetupError::Occupied(geometry.vertex(p)));
            }
            cells.push((i, color));
        }
        let board = Board::from_stones(geometry, &cells);
        // Report the dead group with the lowest point, so the message is stable.
        if let Some(dead) = geometry
            .points()
            .find(|p| board.stone(p.index()).is_some() && board.libs(board.root(p.index())) == 0)
        {
            return Err(SetupError::NoLiberty {
                group: geometry.vertex(dead),
            });
        }
        Ok(Position {
            board,
            side: side_to_move,
            growth_started,
            passes,
            resigned,
            turn: TurnState::default(),
        })
    }

    // ---------------------------------------------------------------- queries

    /// The board.
    pub fn geometry(&self) -> Geometry {
        self.board.geometry
    }

    /// The player to move (during a turn: the player making it).
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Whether a growth turn (or balance turn) has been played in this game.
    pub fn growth_started(&self) -> bool {
        self.growth_started
    }

    /// Whether the mover may end this turn's growth with a placement: Black,
    /// before any growth turn (docs/rules.md §6).
    pub fn balance_available(&self) -> bool {
        self.side == Color::Black && !self.growth_started
    }

    /// Consecutive passes just played (0, 1, or 2 when the game ended so).
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The player who resigned, if one did.
    pub fn resigned(&self) -> Option<Color> {
        self.resigned
    }

    /// Whether the game is over (a resignation, or two successive passes).
    pub fn is_over(&self) -> bool {
        self.resigned.is_some() || self.passes >= 2
    }

    /// How the game ended, once it is over.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(loser) = self.resigned {
            Some(Outcome::Resignation {
                winner: loser.opponent(),
            })
        } else if self.passes >= 2 {
            Some(Outcome::Score(self.score()))
        } else {
            None
        }
    }

    /// The stone on a point, if any.
    pub fn stone_at(&self, p: Point) -> Option<Color> {
        self.on_board(p).and_then(|i| self.board.stone(i))
    }

    /// All stones, in increasing point order.
    pub fn stones(&self) -> impl Iterator<Item = (Point, Color)> + '_ {
        self.geometry()
            .points()
            .filter_map(|p| self.board.stone(p.index()).map(|c| (p, c)))
    }

    /// Number of stones of a colour.
    pub fn stone_count(&self, color: Color) -> u32 {
        self.board.stone_count(color)
    }

    /// Number of vacant points.
    pub fn vacant_count(&self) -> usize {
        self.board.vacant.len()
    }

    /// The stones of the group containing the stone on p, in increasing order
    /// (empty if p holds no stone).
    pub fn group(&self, p: Point) -> Vec<Point> {
        let Some(i) = self.on_board(p).filter(|&i| self.board.stone(i).is_some()) else {
            return Vec::new();
        };
        let mut stones: Vec<Point> = self
            .board
            .group_stones(self.board.root(i))
            .map(|s| Point(s as u16))
            .collect();
        stones.sort_unstable();
        stones
    }

    /// The liberties of the group containing the stone on p, in increasing
    /// order (empty if p holds no stone).
    pub fn liberties(&self, p: Point) -> Vec<Point> {
        match self.on_board(p).filter(|&i| self.board.stone(i).is_some()) {
            Some(i) => self
                .board
                .liberties(i)
                .into_iter()
                .map(|q| Point(q as u16))
                .collect(),
            None => Vec::new(),
        }
    }

    /// The score now (docs/rules.md §8): stones plus territory.
    pub fn score(&self) -> Score {
        self.board.score()
    }

    /// The score with every vacant region and its owner.
    pub fn territory(&self) -> Territory {
        self.board.territory()
    }

    /// The Zobrist hash of the whole state: the board and its size, the stones,
    /// the side to move, whether growth has started, the passes, and, during a
    /// turn, which stones the turn has added. Within one turn, two orders of
    /// steps that reach the same state hash alike.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.board.hash() ^ self.flags_hash()
    }

    /// [`Position::hash`] recomputed from scratch (for tests).
    pub fn hash_from_scratch(&self) -> u64 {
        self.board.hash_from_scratch() ^ self.flags_hash()
    }

    fn flags_hash(&self) -> u64 {
        let mut h = zobrist::passes(self.passes);
        if self.side == Color::Black {
            h ^= zobrist::black_to_move();
        }
        if self.growth_started {
            h ^= zobrist::growth_started();
        }
        h
    }

    // ------------------------------------------------------ the turn so far

    /// The stones the turn in progress has added, in order.
    pub fn turn_stones(&self) -> Vec<Point> {
        self.board.added().iter().map(|&s| Point(s)).collect()
    }

    /// Number of stones the turn in progress has added.
    #[inline]
    fn turn_len(&self) -> usize {
        self.board.added().len()
    }

    /// Whether the turn in progress has at least one stone.
    pub fn turn_in_progress(&self) -> bool {
        self.turn_len() > 0
    }

    /// Whether a placement has ended the turn in progress (only finishing it
    /// remains).
    pub fn turn_ended_by_placement(&self) -> bool {
        self.turn.placed
    }

    /// Whether the stone on p was added by the turn in progress.
    pub fn is_new_stone(&self, p: Point) -> bool {
        self.on_board(p)
            .is_some_and(|i| self.board.cell(i) & NEW != 0)
    }

    /// The padded index of p if p is a point of this board.
    #[inline]
    fn on_board(&self, p: Point) -> Option<usize> {
        let i = p.index();
        (i < self.geometry().index_len() && self.board.color(i) != crate::board::EDGE).then_some(i)
    }

    fn vertex(&self, p: usize) -> Vertex {
        self.geometry().vertex(Point(p as u16))
    }

    // ---------------------------------------------------------- step rules

    /// What a stone on vacant p would be for the mover: a growth if it touches
    /// a stone of the mover, else a placement (docs/rules.md §3).
    #[inline]
    pub(crate) fn kind_at(&self, p: usize) -> StepKind {
        if self.board.cell(p) & touches(self.side) != 0 {
            StepKind::Growth
        } else {
            StepKind::Placement
        }
    }

    /// §5 (g2, g3) for vacant p, which touches a stone of the mover: `Ok`, or
    /// the neighbour that forbids it, with whether it is a base stone of a
    /// group that is no longer fresh (else: p touches only new stones).
    fn growth_check(&self, p: usize) -> Result<(), (usize, bool)> {
        match self.geometry().degree() {
            4 => self.growth_check_d::<4>(p),
            _ => self.growth_check_d::<6>(p),
        }
    }

    /// [`Position::growth_check`] on a board of degree `D`.
    #[inline(always)]
    pub(crate) fn growth_check_d<const D: usize>(&self, p: usize) -> Result<(), (usize, bool)> {
        let me = self.side as u8;
        let mut fresh = false;
        let mut new_neighbour = 0;
        for q in self.board.geometry.around::<D>(p) {
            let cell = self.board.cell(q);
            if cell & COLOR != me {
                continue;
            }
            if !self.board.touched(self.board.root(q)) {
                // An untouched group is one fresh base group.
                fresh = true;
            } else if cell & NEW == 0 {
                // A base stone of a group that has grown or captured. (A
                // reversed stone never neighbours a vacant point.)
                return Err((q, true));
            } else {
                new_neighbour = q;
            }
        }
        if fresh {
            Ok(())
        } else {
            Err((new_neighbour, false))
        }
    }

    /// Whether a growth step at vacant p is allowed (§5); p must touch a stone
    /// of the mover.
    #[inline]
    pub(crate) fn growth_allowed(&self, p: usize) -> bool {
        self.turn_len() == 0 || self.growth_check(p).is_ok()
    }

    /// Whether some group of the turn in progress has no liberty (a transient
    /// suicide that a later capture may still rescue).
    fn has_dead_group(&self) -> bool {
        self.first_dead_stone().is_some()
    }

    /// A new stone whose group has no liberty, if any. Only groups that hold a
    /// new stone can have lost their last liberty this turn.
    pub(crate) fn first_dead_stone(&self) -> Option<usize> {
        self.board
            .added()
            .iter()
            .map(|&s| usize::from(s))
            .find(|&s| self.board.libs(self.board.root(s)) == 0)
    }

    /// Whether a placement at vacant p, which touches no stone of the mover,
    /// completes a legal turn (§4, §7); if not, a stone of a group left
    /// without liberties.
    pub(crate) fn placement_outcome(&self, p: usize) -> Result<(), usize> {
        if !self.has_dead_group() {
            // Every other group of the mover keeps its liberties: only the
            // placed stone's group can die.
            return if self.board.stone_would_live(p, self.side) {
                Ok(())
            } else {
                Err(p)
            };
        }
        // Rare: a transient suicide earlier in a balance turn. Play it out.
        let mut next = self.clone();
        next.apply_step(p, StepKind::Placement);
        match next.first_dead_stone() {
            None => Ok(()),
            Some(s) => Err(s),
        }
    }

    /// Whether vacant p is on this board and may be played now, as what kind
    /// of step; the position is not changed.
    ///
    /// A placement is allowed only if the turn it completes is legal (§7); a
    /// growth step is allowed by §5 alone, even if the turn could not end
    /// right after it ([`Position::check_finish`] says), or could not be
    /// completed at all ([`Position::turn_can_be_completed`] says).
    ///
    /// # Errors
    ///
    /// [`StepError`] with the reason, in a player's words.
    pub fn check_step(&self, p: Point) -> Result<StepKind, StepError> {
        if self.is_over() {
            return Err(StepError::GameOver);
        }
        let Some(i) = self.on_board(p) else {
            return Err(StepError::NotOnBoard);
        };
        if self.turn.placed {
            let last = self.board.added()[self.turn_len() - 1];
            return Err(StepError::TurnOver {
                placement: self.vertex(usize::from(last)),
            });
        }
        if self.board.color(i) != EMPTY {
            return Err(StepError::Occupied(self.vertex(i)));
        }
        match self.kind_at(i) {
            StepKind::Growth => match self.growth_check(i) {
                Ok(()) => Ok(StepKind::Growth),
                Err((q, true)) => Err(self.not_fresh_error(i, q)),
                // Touching only this turn's stones: neither a growth nor, since
                // it touches the mover's stones, a placement.
                Err((q, false)) if self.balance_available() => {
                    Err(StepError::PlacementTouchesOwn {
                        at: self.vertex(i),
                        own: self.vertex(q),
                    })
                }
                Err((q, false)) => Err(StepError::OnlyNewStones {
                    at: self.vertex(i),
                    new: self.vertex(q),
                }),
            },
            StepKind::Placement => {
                if self.turn_len() > 0 && !self.balance_available() {
                    return Err(StepError::PlacementAfterGrowth {
                        at: self.vertex(i),
                        color: self.side,
                    });
                }
                match self.placement_outcome(i) {
                    Ok(()) => Ok(StepKind::Placement),
                    Err(s) => Err(StepError::Suicide {
                        at: self.vertex(i),
                        group: self.vertex(s),
                    }),
                }
            }
        }
    }

    /// The refusal of a growth at `at` next to base stone `stone` of a group
    /// that is no longer fresh: grown, or frozen by a capture.
    fn not_fresh_error(&self, at: usize, stone: usize) -> StepError {
        let (at, group) = (self.vertex(at), self.vertex(stone));
        let frozen = self
            .base_groups()
            .iter()
            .find(|g| g.stones.contains(&Point(stone as u16)))
            .is_some_and(|g| g.status == crate::GroupStatus::Frozen);
        if frozen {
            StepError::Frozen { at, group }
        } else {
            StepError::AlreadyGrown { at, group }
        }
    }

    /// Plays one step of the turn in progress at p.
    ///
    /// See [`Position::check_step`] for what is allowed,
    /// [`Position::play_step_unchecked`] for the fast path.
    ///
    /// # Errors
    ///
    /// [`StepError`] with the reason; the position is then unchanged.
    pub fn play_step(&mut self, p: Point) -> Result<StepKind, StepError> {
        let kind = self.check_step(p)?;
        self.apply_step(p.index(), kind);
        Ok(kind)
    }

    /// Plays a step known to be allowed, with no check: the fast path for
    /// playouts. Checked only in debug builds; on a disallowed step the
    /// position's state is unspecified. See [`Position::play_step`].
    #[inline]
    ///
    /// # Panics
    ///
    /// If p is not a vacant point of this board (checked in every build: the
    /// board's arrays rely on it).
    pub fn play_step_unchecked(&mut self, p: Point) -> StepKind {
        debug_assert!(self.check_step(p).is_ok(), "{:?}", self.check_step(p));
        assert!(
            self.on_board(p)
                .is_some_and(|i| self.board.color(i) == EMPTY),
            "play_step_unchecked on a point that is not vacant on this board"
        );
        let kind = self.kind_at(p.index());
        self.apply_step(p.index(), kind);
        kind
    }

    /// Puts the mover's stone on p: the stone, its group's freshness, the
    /// captures, and the turn's record of it.
    pub(crate) fn apply_step(&mut self, p: usize, kind: StepKind) {
        match self.geometry().degree() {
            4 => self.apply_step_d::<4>(p, kind),
            _ => self.apply_step_d::<6>(p, kind),
        }
    }

    /// [`Position::apply_step`] on a board of degree `D`.
    #[inline(always)]
    pub(crate) fn apply_step_d<const D: usize>(&mut self, p: usize, kind: StepKind) {
        self.board.put_stone::<D>(p, self.side);
        // The grown base groups, and after a capture every base group of the
        // united group, are no longer fresh (§5 steps 1 and 3). (A
        // placement's group is marked too; it ends the turn anyway.)
        self.board.touch(p);
        match kind {
            StepKind::Growth => self.turn.grew = true,
            StepKind::Placement => self.turn.placed = true,
        }
    }

    /// Whether the turn in progress may end now: it has a stone, and no group
    /// of the mover is left without liberties (§7).
    ///
    /// # Errors
    ///
    /// [`FinishError`] with the reason.
    pub fn check_finish(&self) -> Result<(), FinishError> {
        if self.is_over() {
            return Err(FinishError::GameOver);
        }
        if self.turn_len() == 0 {
            return Err(FinishError::NoStep);
        }
        match self.first_dead_stone() {
            Some(s) => Err(FinishError::Suicide {
                group: self.vertex(s),
            }),
            None => Ok(()),
        }
    }

    /// Ends the turn in progress: the other player moves next.
    ///
    /// # Errors
    ///
    /// [`FinishError`] when it may not end (see [`Position::check_finish`]);
    /// the position is then unchanged.
    pub fn finish_turn(&mut self) -> Result<(), FinishError> {
        self.check_finish()?;
        self.finish_turn_unchecked();
        Ok(())
    }

    /// Ends the turn in progress with no check: the fast path. The contract:
    /// [`Position::check_finish`] would succeed.
    #[inline]
    pub fn finish_turn_unchecked(&mut self) {
        debug_assert_eq!(self.check_finish(), Ok(()));
        self.board.end_turn();
        self.growth_started |= self.turn.grew;
        self.turn = TurnState::default();
        self.passes = 0;
        self.side = self.side.opponent();
    }

    /// Calls `f` for every point that may be played next, with its kind: the
    /// points for which [`Position::check_step`] succeeds. Costs one look at
    /// each vacant point's neighbours.
    pub fn for_each_allowed_step(&self, mut f: impl FnMut(Point, StepKind)) {
        if self.is_over() || self.turn.placed {
            return;
        }
        let touch = touches(self.side);
        let placements = self.turn_len() == 0 || self.balance_available();
        let dead = placements && self.has_dead_group();
        for &p in self.board.vacant.points() {
            let p = usize::from(p);
            if self.board.cell(p) & touch != 0 {
                if self.growth_allowed(p) {
                    f(Point(p as u16), StepKind::Growth);
                }
            } else if placements {
                let ok = if dead {
                    self.placement_outcome(p).is_ok()
                } else {
                    self.board.stone_would_live(p, self.side)
                };
                if ok {
                    f(Point(p as u16), StepKind::Placement);
                }
            }
        }
    }

    /// The points that may be played next, in increasing order.
    pub fn allowed_steps(&self) -> Vec<Point> {
        let mut steps = Vec::new();
        self.for_each_allowed_step(|p, _| steps.push(p));
        steps.sort_unstable();
        steps
    }

    // ------------------------------------------------------------ turns

    /// Plays a whole turn: its stones step by step and the finish, a pass, or a
    /// resignation.
    ///
    /// # Errors
    ///
    /// [`TurnError`] saying which step is refused and why, or why the turn
    /// cannot end; the position is then unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use sygo_rules::{Geometry, Position, Turn};
    /// let g = Geometry::sygo(9).unwrap();
    /// let mut pos = Position::new(g);
    /// pos.play_turn(&Turn::parse("E5", &g).unwrap()).unwrap(); // White places
    /// pos.play_turn(&Turn::parse("C3", &g).unwrap()).unwrap(); // Black places
    /// pos.play_turn(&Turn::parse("E6", &g).unwrap()).unwrap(); // White grows
    /// let err = pos.play_turn(&Turn::parse("C4,C5", &g).unwrap()).unwrap_err();
    /// assert_eq!(err.to_string(), "C5 touches only stones played this turn (such as C4): \
    ///     a growth stone must touch a group you had when the turn began");
    /// ```
    pub fn play_turn(&mut self, turn: &Turn) -> Result<(), TurnError> {
        match turn {
            Turn::Pass => self.pass(),
            Turn::Resign => self.resign(),
            Turn::Stones(points) => self.play_stones(points, |_, _, _| {}),
        }
    }

    /// Plays the stones of a whole turn step by step on a copy, calls
    /// `observe` after each step (the position with the step played, before
    /// the turn ends; the stone; its kind), then ends the turn. The one
    /// loop of [`Position::play_turn`] and of
    /// [`Position::play_turn_summary`](crate::TurnSummary).
    ///
    /// # Errors
    ///
    /// As [`Position::play_turn`]; the position is then unchanged.
    pub(crate) fn play_stones(
        &mut self,
        points: &[Point],
        mut observe: impl FnMut(&Position, Point, StepKind),
    ) -> Result<(), TurnError> {
        self.check_turn_start()?;
        if points.is_empty() {
            return Err(TurnError::NoStones);
        }
        let mut next = self.clone();
        for (index, &p) in points.iter().enumerate() {
            let kind = next
                .play_step(p)
                .map_err(|error| TurnError::Step { index, error })?;
            observe(&next, p, kind);
        }
        next.finish_turn().map_err(TurnError::Finish)?;
        *self = next;
        Ok(())
    }

    pub(crate) fn check_turn_start(&self) -> Result<(), TurnError> {
        if self.is_over() {
            Err(TurnError::GameOver)
        } else if self.turn_len() > 0 {
            Err(TurnError::TurnInProgress)
        } else {
            Ok(())
        }
    }

    /// Passes (docs/rules.md §3): the other player moves next; two passes in a row
    /// end the game.
    ///
    /// # Errors
    ///
    /// [`TurnError::GameOver`], or [`TurnError::TurnInProgress`] when stones
    /// of the turn are pending.
    pub fn pass(&mut self) -> Result<(), TurnError> {
        self.check_turn_start()?;
        self.passes += 1;
        self.side = self.side.opponent();
        self.board.vacant.revive();
        Ok(())
    }

    /// Resigns: the game ends and the opponent wins.
    ///
    /// # Errors
    ///
    /// [`TurnError::GameOver`], or [`TurnError::TurnInProgress`] when stones
    /// of the turn are pending.
    pub fn resign(&mut self) -> Result<(), TurnError> {
        self.check_turn_start()?;
        self.resigned = Some(self.side);
        Ok(())
    }

    /// Resigns for `color`, whether or not it is to move: a player may
    /// resign at any time (docs/rules.md §3: always legal), and the opponent
    /// wins. For the side to move it is [`Position::resign`].
    ///
    /// # Errors
    ///
    /// [`TurnError::GameOver`], or [`TurnError::TurnInProgress`] when stones
    /// of the turn are pending.
    pub fn resign_as(&mut self, color: Color) -> Result<(), TurnError> {
        self.check_turn_start()?;
        self.resigned = Some(color);
        Ok(())
    }

    /// Sets the side to move, outside the rules (for set-up positions). Only
    /// between turns.
    ///
    /// # Errors
    ///
    /// [`TurnError::TurnInProgress`] when stones of a turn are pending.
    pub fn set_side_to_move(&mut self, side: Color) -> Result<(), TurnError> {
        if self.turn_len() > 0 {
            return Err(TurnError::TurnInProgress);
        }
        self.side = side;
        Ok(())
    }

    /// Sets whether a growth turn has been played, outside the rules (for
    /// set-up positions). Only between turns.
    ///
    /// # Errors
    ///
    /// [`TurnError::TurnInProgress`] when stones of a turn are pending.
    pub fn set_growth_started(&mut self, started: bool) -> Result<(), TurnError> {
        if self.turn_len() > 0 {
            return Err(TurnError::TurnInProgress);
        }
        self.growth_started = started;
        Ok(())
    }

    /// Makes `self` a copy of `source` between turns with `mover` to move:
    /// the turn in progress, if any, ended where it is (no check), the
    /// passes and resignation forgotten. The scratch of the capture reading
    /// (`danger.rs`), which plays a turn of either player on it.
    pub(crate) fn copy_for_reading(&mut self, source: &Position, mover: Color) {
        self.clone_from(source);
        if self.turn_len() > 0 {
            self.board.end_turn();
        }
        self.turn = TurnState::default();
        self.side = mover;
        self.passes = 0;
        self.resigned = None;
    }

    /// The position as it was when the turn in progress began: the turn's new
    /// stones lifted, the stones it reversed turned back.
    pub fn turn_start(&self) -> Position {
        if self.turn_len() == 0 {
            return self.clone();
        }
        let g = self.geometry();
        let mut reversed = vec![false; g.index_len()];
        for &s in self.board.reversed() {
            reversed[usize::from(s)] = true;
        }
        let stones: Vec<(Point, Color)> = g
            .points()
            .filter_map(|p| {
                let color = self.board.stone(p.index())?;
                if self.board.cell(p.index()) & NEW != 0 {
                    None
                } else if reversed[p.index()] {
                    Some((p, color.opponent()))
                } else {
                    Some((p, color))
                }
            })
            .collect();
        Position::from_parts(
            g,
            &stones,
            self.side,
            self.growth_started,
            self.passes,
            self.resigned,
        )
        .expect("the start of a turn is a position")
    }

    /// Checks every incremental structure against a recomputation from scratch
    /// and the turn's flags against the rules; panics on the first difference.
    /// For tests: it costs a full rebuild.
    pub fn check_invariants(&self) {
        self.board.check_invariants();
        assert_eq!(self.hash(), self.hash_from_scratch(), "hash");
        let g = self.geometry();
        let new: Vec<usize> = self.board.added().iter().map(|&s| usize::from(s)).collect();
        for p in g.points().map(|p| p.index()) {
            let cell = self.board.cell(p);
            assert_eq!(cell & NEW != 0, new.contains(&p), "NEW mark of {p}");
            if cell & COLOR != EMPTY && self.turn_len() == 0 {
                assert!(
                    !self.board.touched(self.board.root(p)),
                    "touched flag between turns"
                );
            }
        }
        if self.turn_len() == 0 {
            // Between turns no group of either colour is without liberties.
            for p in g.points().map(|p| p.index()) {
                if self.board.stone(p).is_some() {
                    assert!(
                        self.board.libs(self.board.root(p)) > 0,
                        "group of {p} without liberty"
                    );
                }
            }
        }
    }
}

impl Clone for Position {
    /// A plain copy of the fixed-size arrays: nothing is allocated.
    #[inline]
    fn clone(&self) -> Position {
        Position {
            board: self.board,
            side: self.side,
            growth_started: self.growth_started,
            passes: self.passes,
            resigned: self.resigned,
            turn: self.turn,
        }
    }

    /// Copies `source` into `self`, copying only the part of each array that
    /// `source`'s board uses (a 19×19 board uses about half of the room kept
    /// for 25×25): the cheap way to restart a playout from a position.
    fn clone_from(&mut self, source: &Position) {
        self.board.copy_from(&source.board);
        self.side = source.side;
        self.growth_started = source.growth_started;
        self.passes = source.passes;
        self.resigned = source.resigned;
        self.turn = source.turn;
    }
}

impl PartialEq for Position {
    /// Two positions are equal when their logical state is: board, stones,
    /// side to move, growth, passes, resignation, and the turn in progress.
    fn eq(&self, other: &Position) -> bool {
        self.geometry() == other.geometry()
            && self.side == other.side
            && self.growth_started == other.growth_started
            && self.passes == other.passes
            && self.resigned == other.resigned
            && self.board.added() == other.board.added()
            && {
                let sorted = |p: &Position| {
                    let mut v = p.board.reversed().to_vec();
                    v.sort_unstable();
                    v
                };
                sorted(self) == sorted(other)
            }
            && self.geometry().points().all(|p| {
                // Which stone carries a group's TOUCHED flag depends on the
                // order of merges, not on the state.
                let cell = |pos: &Position| pos.board.cell(p.index()) & !crate::board::TOUCHED;
                cell(self) == cell(other)
            })
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("position", &self.to_string())
            .field(
                "turn",
                &crate::turn::format_points(&self.turn_stones(), &self.geometry()),
            )
            .finish()
    }
}
