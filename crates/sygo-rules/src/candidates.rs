//! The vacant points seen by one player, kept in four contiguous segments so
//! that a uniformly random candidate can be drawn in O(1).
//!
//! For a colour c every vacant point is either *open* (it neighbours a stone of
//! c: a possible growth) or *free* (it does not: a possible placement). Each of
//! the two kinds is split again into *live* and *rejected*: a random player
//! that finds a point ineligible during its turn moves it to the rejected
//! segment so that it is not drawn again in that turn; the next turn makes
//! every point live again in O(1).
//!
//! ```text
//!  order: | open live | open rejected | free live | free rejected |
//!         0        ends[0]         ends[1]     ends[2]         ends[3]
//! ```
//!
//! `slot[p]` is the position of vacant point p in `order`, so membership and
//! moves between segments are O(1): a point crosses a segment boundary by
//! swapping with the boundary element and moving the boundary by one.

use crate::geometry::{MAX_INDEX, MAX_POINTS};

/// Segment numbers, in array order.
pub(crate) const OPEN_LIVE: usize = 0;
pub(crate) const OPEN_REJECTED: usize = 1;
pub(crate) const FREE_LIVE: usize = 2;
pub(crate) const FREE_REJECTED: usize = 3;
/// Past the last segment: where a point goes when it stops being vacant.
const GONE: usize = 4;

/// The vacant points of the board as seen by one colour (see the module doc).
#[derive(Clone)]
pub(crate) struct Candidates {
    /// The vacant points, grouped by segment.
    order: [u16; MAX_POINTS],
    /// For each vacant point, its position in `order`; meaningless otherwise.
    slot: [u16; MAX_INDEX],
    /// `ends[s]` is one past the last position of segment s.
    ends: [u16; 4],
}

impl Candidates {
    /// No candidates at all.
    pub(crate) fn empty() -> Candidates {
        Candidates {
            order: [0; MAX_POINTS],
            slot: [0; MAX_INDEX],
            ends: [0; 4],
        }
    }

    /// Appends a vacant point to the last segment, then moves it to `segment`.
    /// Used when a board is built from scratch.
    pub(crate) fn insert(&mut self, p: usize, segment: usize) {
        let at = self.ends[FREE_REJECTED];
        self.order[usize::from(at)] = p as u16;
        self.slot[p] = at;
        self.ends[FREE_REJECTED] += 1;
        self.move_to(p, FREE_REJECTED, segment);
    }

    /// The segment that vacant point p is in.
    #[inline]
    pub(crate) fn segment_of(&self, p: usize) -> usize {
        let at = self.slot[p];
        self.ends.iter().position(|&end| at < end).unwrap_or(GONE)
    }

    /// Whether vacant point p is open (neighbours a stone of this colour).
    #[inline]
    pub(crate) fn is_open(&self, p: usize) -> bool {
        self.slot[p] < self.ends[OPEN_REJECTED]
    }

    /// Moves p from segment `from` (which it must be in) to segment `to`, one
    /// boundary at a time.
    #[inline]
    fn move_to(&mut self, p: usize, mut from: usize, to: usize) {
        while from < to {
            // Swap p to the last position of its segment, then shrink the
            // segment: p is now the first element of the next one.
            let last = self.ends[from] - 1;
            self.swap_into(p, last);
            self.ends[from] = last;
            from += 1;
        }
        while from > to {
            // Swap p to the first position of its segment, then grow the
            // previous segment over it.
            let first = self.ends[from - 1];
            self.swap_into(p, first);
            self.ends[from - 1] = first + 1;
            from -= 1;
        }
    }

    /// Puts p at position `at`, moving the point that was there to p's old
    /// position.
    #[inline]
    fn swap_into(&mut self, p: usize, at: u16) {
        let old = self.slot[p];
        let other = self.order[usize::from(at)];
        self.order[usize::from(old)] = other;
        self.slot[usize::from(other)] = old;
        self.order[usize::from(at)] = p as u16;
        self.slot[p] = at;
    }

    /// p has been filled: it leaves the candidates.
    #[inline]
    pub(crate) fn remove(&mut self, p: usize) {
        let from = self.segment_of(p);
        // Moving past the last segment drops p off the end of `order`.
        self.move_to(p, from, GONE);
    }

    /// Free point p gained a neighbour of this colour. It becomes open, and
    /// rejected: a point that had no stone of the mover around it at the start
    /// of the turn cannot be a growth step in that turn.
    #[inline]
    pub(crate) fn open(&mut self, p: usize) {
        let from = self.segment_of(p);
        debug_assert!(from >= FREE_LIVE, "only a free point can become open");
        self.move_to(p, from, OPEN_REJECTED);
    }

    /// The random player found live point p ineligible for this turn.
    #[inline]
    pub(crate) fn reject(&mut self, p: usize) {
        let from = self.segment_of(p);
        debug_assert!(from == OPEN_LIVE || from == FREE_LIVE);
        self.move_to(p, from, from + 1);
    }

    /// Makes every point live again (a new turn starts).
    #[inline]
    pub(crate) fn revive(&mut self) {
        self.ends[OPEN_LIVE] = self.ends[OPEN_REJECTED];
        self.ends[FREE_LIVE] = self.ends[FREE_REJECTED];
    }

    /// Number of live open points.
    #[inline]
    pub(crate) fn open_live_len(&self) -> usize {
        usize::from(self.ends[OPEN_LIVE])
    }

    /// Number of live free points.
    #[inline]
    pub(crate) fn free_live_len(&self) -> usize {
        usize::from(self.ends[FREE_LIVE] - self.ends[OPEN_REJECTED])
    }

    /// The i-th live open point (i < `open_live_len`).
    #[inline]
    pub(crate) fn open_live(&self, i: usize) -> usize {
        usize::from(self.order[i])
    }

    /// The i-th live free point (i < `free_live_len`).
    #[inline]
    pub(crate) fn free_live(&self, i: usize) -> usize {
        usize::from(self.order[usize::from(self.ends[OPEN_REJECTED]) + i])
    }

    /// All open points, live or rejected.
    pub(crate) fn open_points(&self) -> &[u16] {
        &self.order[..usize::from(self.ends[OPEN_REJECTED])]
    }

    /// All free points, live or rejected.
    pub(crate) fn free_points(&self) -> &[u16] {
        &self.order[usize::from(self.ends[OPEN_REJECTED])..usize::from(self.ends[FREE_REJECTED])]
    }

    /// Number of vacant points.
    pub(crate) fn len(&self) -> usize {
        usize::from(self.ends[FREE_REJECTED])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(c: &Candidates) {
        for (i, &p) in c.order[..c.len()].iter().enumerate() {
            assert_eq!(usize::from(c.slot[usize::from(p)]), i);
        }
        assert!(c.ends.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn points_move_between_segments_and_leave() {
        let mut c = Candidates::empty();
        for p in 10..20 {
            c.insert(p, FREE_LIVE);
        }
        check(&c);
        assert_eq!(c.free_live_len(), 10);
        c.open(12);
        c.open(15);
        check(&c);
        assert_eq!(c.segment_of(12), OPEN_REJECTED);
        assert_eq!(c.free_live_len(), 8);
        c.revive();
        assert_eq!(c.open_live_len(), 2);
        c.reject(15);
        assert_eq!(c.segment_of(15), OPEN_REJECTED);
        assert_eq!(c.open_live_len(), 1);
        c.reject(11);
        assert_eq!(c.segment_of(11), FREE_REJECTED);
        c.remove(15);
        c.remove(11);
        c.remove(19);
        check(&c);
        assert_eq!(c.len(), 7);
        c.revive();
        assert_eq!(c.open_live_len() + c.free_live_len(), 7);
        let mut all: Vec<u16> = c
            .open_points()
            .iter()
            .chain(c.free_points())
            .copied()
            .collect();
        all.sort();
        assert_eq!(all, vec![10, 12, 13, 14, 16, 17, 18]);
    }
}
