//! The uniformly random player: the benchmark's games, `genmove` until the AI
//! arrives, and the base of light playouts.
//!
//! # The policy
//!
//! - A turn starts with a step drawn uniformly among every eligible first
//!   step, placements and growth steps alike. When none is eligible, the
//!   player passes: a game ends when neither side can play.
//! - A placement ends the turn.
//! - After a growth step the turn ends with probability 1/2; otherwise it goes
//!   on with a step drawn uniformly among the eligible growth steps (and, in
//!   Black's balance turn, placements), and ends when there is none. So a
//!   growth turn has a random length: one step, plus a geometric number more.
//!
//! A step is *eligible* if it is allowed (docs/rules.md §4–§6) and leaves the group
//! of the new stone with a liberty: the random player makes no transient
//! suicide, so it can always finish a turn it has started. A point found
//! ineligible is not drawn again in the same turn.
//!
//! Why not draw "finish the turn" as one more option among the steps? Then a
//! growth turn goes on until almost every group has grown, and most of the
//! time goes to discovering, one draw at a time, the points that the grown
//! groups have ruled out; the engine would be measured on the policy rather
//! than on the rules.
//!
//! # Cost
//!
//! Points are drawn from the board's array of vacant points (see
//! [`vacant`](crate::vacant)), in which each vacant cell says whether it
//! touches each colour. A draw costs one random number and a look at the
//! point's neighbours; a point found ineligible is moved aside in O(1) and not
//! drawn again this turn, so no draw ever scans the board. The one costly
//! case is a step that captures while it fills the last liberty of its own
//! group: whether it lives depends on what the captured group touches, and
//! finding out walks the captured group (once; the walk stops at the first
//! group of ours with a liberty).

use rand::Rng;

use crate::board::{COLOR, EMPTY, NEW, Survival, touches};
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
    /// Plays a step at p, which has no vacant neighbour, if the new stone's
    /// group has a liberty; returns whether it did.
    #[inline(never)]
    fn play_if_lives<const D: usize>(&mut self, p: usize, kind: StepKind) -> bool {
        let color = self.side_to_move();
        let lives = match self.board.survival_without_vacant_neighbour::<D>(p, color) {
            Survival::Lives => true,
            Survival::Dies => false,
            Survival::Captures => self.board.captured_touch_a_living_group::<D>(p, color),
        };
        if lives {
            self.apply_step_d::<D>(p, kind);
        }
        lives
    }

    /// Plays a growth at open point p if it is eligible (allowed by §5, and
    /// leaving the new stone's group a liberty); returns whether it did. One
    /// look at the neighbours decides in the common case.
    #[inline(always)]
    fn grow_if_eligible<const D: usize>(&mut self, p: usize) -> bool {
        let me = self.side_to_move() as u8;
        // Our neighbours, gathered without branching (whether a neighbour is
        // ours or vacant is a coin toss), then each one's group looked at.
        let mut ours = [0usize; D];
        let (mut n_ours, mut vacant) = (0, false);
        for q in self.board.geometry.around::<D>(p) {
            let color = self.board.cell(q) & COLOR;
            ours[n_ours] = q;
            n_ours += usize::from(color == me);
            vacant |= color == EMPTY;
        }
        let mut fresh = false;
        for &q in &ours[..n_ours] {
            if self.board.touched(self.board.root(q)) {
                if self.board.cell(q) & NEW == 0 {
                    // A base stone of a group that grew or captured (§5, g3).
                    return false;
                }
            } else {
                fresh = true; // a fresh base group: p would grow it
            }
        }
        if !fresh {
            return false;
        }
        if vacant {
            self.apply_step_d::<D>(p, StepKind::Growth);
            return true;
        }
        self.play_if_lives::<D>(p, StepKind::Growth)
    }

    /// Plays a placement at free point p if it is eligible; returns whether it
    /// did. The random player never leaves a group without liberties, so the
    /// placement's own group is the only one that could die: eligible is
    /// legal here.
    #[inline(always)]
    fn place_if_eligible<const D: usize>(&mut self, p: usize) -> bool {
        let around = self.board.geometry.around::<D>(p);
        if around.iter().any(|&q| self.board.cell(q) & COLOR == EMPTY) {
            self.apply_step_d::<D>(p, StepKind::Placement);
            return true;
        }
        self.play_if_lives::<D>(p, StepKind::Placement)
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
        if !first && rng.next_u32() & 1 == 0 {
            return None; // finish the turn
        }
        let touch = touches(self.side_to_move());
        loop {
            let live = self.board.vacant.live_len();
            if live == 0 {
                return None;
            }
            let i = below(rng, live);
            let p = self.board.vacant.live(i);
            if self.board.cell(p) & touch != 0 {
                if self.grow_if_eligible::<D>(p) {
                    return Some(StepKind::Growth);
                }
            } else if placements && self.place_if_eligible::<D>(p) {
                return Some(StepKind::Placement);
            }
            self.board.vacant.reject(i);
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
        match self.geometry().degree() {
            4 => self.play_random_turn_d::<4, R>(rng),
            _ => self.play_random_turn_d::<6, R>(rng),
        }
    }

    /// [`Position::play_random_turn`] on a board of degree `D`.
    #[inline(always)]
    fn play_random_turn_d<const D: usize, R: Rng + ?Sized>(&mut self, rng: &mut R) -> RandomTurn {
        debug_assert!(!self.is_over() && !self.turn_in_progress());
        match self.random_steps_d::<D, R>(rng) {
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
        match self.geometry().degree() {
            4 => self.play_random_game_d::<4, R>(rng),
            _ => self.play_random_game_d::<6, R>(rng),
        }
    }

    /// [`Position::play_random_game`] on a board of degree `D`.
    fn play_random_game_d<const D: usize, R: Rng + ?Sized>(&mut self, rng: &mut R) -> GameStats {
        let mut stats = GameStats::default();
        while !self.is_over() {
            stats.turns += 1;
            if let RandomTurn::Stones(n) = self.play_random_turn_d::<D, R>(rng) {
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

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    use super::*;
    use crate::geometry::Geometry;

    /// Random games on both boards, checking every incremental structure
    /// against a rebuild after each turn, and every turn against the checked
    /// API (the random player's turns are legal).
    #[test]
    fn random_turns_are_legal_and_keep_the_board_consistent() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for g in [
            Geometry::sygo(3).unwrap(),
            Geometry::sygo(7).unwrap(),
            Geometry::sygo(13).unwrap(),
            Geometry::hexsygo(2).unwrap(),
            Geometry::hexsygo(4).unwrap(),
            Geometry::hexsygo(7).unwrap(),
        ] {
            for _ in 0..30 {
                let mut pos = Position::new(g);
                while !pos.is_over() {
                    let stones = pos.random_turn_stones(&mut rng);
                    let mut checked = pos.clone();
                    let turn = if stones.is_empty() {
                        crate::Turn::Pass
                    } else {
                        crate::Turn::Stones(stones)
                    };
                    checked
                        .play_turn(&turn)
                        .expect("the random player's turn is legal");
                    pos.play_random_turn(&mut rng);
                    pos.check_invariants();
                    checked.check_invariants();
                }
                assert!(pos.outcome().is_some());
            }
        }
    }
}
