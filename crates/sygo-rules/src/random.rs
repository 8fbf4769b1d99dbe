//! The uniformly random player: the benchmark's games, `genmove` until the AI
//! arrives, and the base of light playouts.
//!
//! # The policy
//!
//! Each decision draws uniformly among the *eligible* choices:
//!
//! - at the start of a turn: every allowed first step (placements and growth
//!   steps alike);
//! - after a growth step: every allowed growth step, every allowed placement
//!   if it is Black's balance turn, and finishing the turn;
//! - a placement ends the turn.
//!
//! A step is eligible if it is allowed (RULES.md §4–§6) and leaves the group
//! of the new stone with a liberty (the random player makes no transient
//! suicide, so it can always finish a turn it has started). A point found
//! ineligible is not drawn again in the same turn. When nothing at all is
//! eligible at the start of a turn, the player passes: games end when
//! neither side can play.
//!
//! # Cost
//!
//! Candidates are drawn from per-colour arrays of the vacant points split into
//! open (next to the mover: growths) and free (placements); see
//! [`candidates`](crate::candidates). A draw costs one random number and a look
//! at the point's neighbours; a point found ineligible is moved aside in O(1)
//! and not drawn again this turn, so no draw ever scans the board.

use rand::Rng;

use crate::board::{COLOR, EMPTY, NEW, Survival};
use crate::geometry::Point;
use crate::position::Position;
use crate::turn::StepKind;

/// A uniform random integer below `n` (n > 0), by multiply-shift (Lemire):
/// one 32-bit draw, bias below n / 2³², which is below 10⁻⁶ for any board.
#[inline]
fn below<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    ((u64::from(rng.next_u32()) * n as u64) >> 32) as usize
}

/// What a random turn did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RandomTurn {
    /// Nothing was eligible: the player passed.
    Pass,
    /// A turn of this many stones was played and finished.
    Stones(u32),
}

impl Position {
    /// Whether a stone of the mover on p would have a liberty, for a point
    /// with no vacant neighbour.
    #[inline(never)]
    fn lives_without_vacant_neighbour<const D: usize>(&self, p: usize) -> bool {
        self.board
            .survival_without_vacant_neighbour::<D>(p, self.side_to_move())
            == Survival::Lives
    }

    /// Whether a growth at open point p is eligible: allowed (§5) and
    /// leaving the new stone's group a liberty. One look at the neighbours
    /// decides both in the common case.
    #[inline(always)]
    fn growth_eligible<const D: usize>(&mut self, p: usize) -> bool {
        let me = self.side_to_move() as u8;
        let (mut fresh, mut vacant) = (false, false);
        for q in self.board.geometry.around::<D>(p) {
            let cell = self.board.cell(q);
            if cell == EMPTY {
                vacant = true;
            } else if cell & COLOR == me {
                if !self.board.touched(self.board.root(q)) {
                    fresh = true; // a fresh base group
                } else if cell & NEW == 0 {
                    return false; // a base stone of a group that grew or captured
                }
            }
        }
        fresh && (vacant || self.lives_without_vacant_neighbour::<D>(p))
    }

    /// Whether a placement at free point p is eligible. The random player
    /// never leaves a group without liberties, so the placement's own group
    /// is the only one that could die: this is also its legality.
    #[inline(always)]
    fn placement_eligible<const D: usize>(&mut self, p: usize) -> bool {
        let vacant = self
            .board
            .geometry
            .around::<D>(p)
            .iter()
            .any(|&q| self.board.cell(q) == EMPTY);
        vacant || self.lives_without_vacant_neighbour::<D>(p)
    }

    /// Draws and plays one random step, or decides to finish (`None`), under
    /// the policy of the module doc. `first` is whether this is the turn's
    /// first step; `placements` whether placements may be drawn.
    #[inline(always)]
    fn random_step<const D: usize, R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        first: bool,
        placements: bool,
    ) -> Option<StepKind> {
        let c = self.side_to_move().index();
        loop {
            let cands = &self.board.candidates[c];
            let open = cands.open_live_len();
            let free = if placements { cands.free_live_len() } else { 0 };
            let total = open + free + usize::from(!first);
            if total == 0 {
                return None;
            }
            let r = below(rng, total);
            if r < open {
                let p = cands.open_live(r);
                if self.growth_eligible::<D>(p) {
                    self.apply_step_d::<D>(p, StepKind::Growth);
                    return Some(StepKind::Growth);
                }
                self.board.candidates[c].reject_open_live(r);
            } else if r < open + free {
                let p = cands.free_live(r - open);
                if self.placement_eligible::<D>(p) {
                    self.apply_step_d::<D>(p, StepKind::Placement);
                    return Some(StepKind::Placement);
                }
                self.board.candidates[c].reject_free_live(r - open);
            } else {
                return None; // finish the turn
            }
        }
    }

    /// Plays the steps of one random turn without finishing it; returns how
    /// many stones it played (0: nothing was eligible).
    fn random_steps<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u32 {
        match self.geometry().degree() {
            4 => self.random_steps_d::<4, R>(rng),
            _ => self.random_steps_d::<6, R>(rng),
        }
    }

    /// [`Position::random_steps`] on a board of degree `D`.
    fn random_steps_d<const D: usize, R: Rng + ?Sized>(&mut self, rng: &mut R) -> u32 {
        match self.random_step::<D, R>(rng, true, true) {
            None => return 0,
            Some(StepKind::Placement) => return 1,
            Some(StepKind::Growth) => {}
        }
        let balance = self.balance_available();
        let mut stones = 1;
        while let Some(kind) = self.random_step::<D, R>(rng, false, balance) {
            stones += 1;
            if kind == StepKind::Placement {
                break;
            }
        }
        stones
    }

    /// Plays one whole random turn for the side to move (see the module doc
    /// for the policy) and returns what it did. The game must not be over and
    /// no turn may be in progress.
    pub fn play_random_turn<R: Rng + ?Sized>(&mut self, rng: &mut R) -> RandomTurn {
        debug_assert!(!self.is_over() && !self.turn_in_progress());
        match self.random_steps(rng) {
            0 => {
                // Nothing eligible. A pass cannot fail between turns.
                let _ = self.pass();
                RandomTurn::Pass
            }
            n => {
                self.finish_turn_unchecked();
                RandomTurn::Stones(n)
            }
        }
    }

    /// Plays random turns until the game is over; returns the number of stones
    /// played (steps) and of turns (passes included).
    pub fn play_random_game<R: Rng + ?Sized>(&mut self, rng: &mut R) -> GameStats {
        let mut stats = GameStats::default();
        while !self.is_over() {
            stats.turns += 1;
            if let RandomTurn::Stones(n) = self.play_random_turn(rng) {
                stats.steps += u64::from(n);
            }
        }
        stats
    }

    /// The stones of a random turn for the side to move, chosen on a copy:
    /// what `genmove` answers until the AI arrives. Empty means pass.
    pub fn random_turn_stones<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<Point> {
        if self.is_over() || self.turn_in_progress() {
            return Vec::new();
        }
        let mut copy = self.clone();
        copy.random_steps(rng);
        copy.turn_stones()
    }
}

/// Counts from random games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameStats {
    /// Stones put on the board.
    pub steps: u64,
    /// Turns, passes included.
    pub turns: u64,
}
