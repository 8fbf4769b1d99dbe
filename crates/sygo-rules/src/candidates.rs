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
//!  order: | free rejected | free live | open rejected | open live |
//!         0            ends[0]     ends[1]         ends[2]     ends[3]
//! ```
//!
//! `slot[p]` is the position of vacant point p in `order`, so membership and
//! moves between segments are O(1): a point crosses a segment boundary by
//! swapping with the boundary element and moving the boundary by one. The
//! order puts last the segment that most filled points leave (a growth is
//! drawn from the mover's open live points), since leaving costs one move per
//! segment that follows.

use crate::geometry::{MAX_INDEX, MAX_POINTS};
use crate::point_array::PointArray;

/// Segment numbers, in array order.
pub(crate) const FREE_REJECTED: usize = 0;
pub(crate) const FREE_LIVE: usize = 1;
pub(crate) const OPEN_REJECTED: usize = 2;
pub(crate) const OPEN_LIVE: usize = 3;
/// Past the last segment: where a point goes when it stops being vacant.
const GONE: usize = 4;

/// The vacant points of the board as seen by one colour (see the module doc).
#[derive(Clone, Copy)]
pub(crate) struct Candidates {
    /// The vacant points, grouped by segment.
    order: PointArray<u16, MAX_POINTS>,
    /// For each vacant point, its position in `order`; meaningless otherwise.
    slot: PointArray<u16, MAX_INDEX>,
    /// `ends[s]` is one past the last position of segment s.
    ends: [u16; 4],
}

impl Candidates {
    /// No candidates at all.
    pub(crate) fn empty() -> Candidates {
        Candidates {
            order: PointArray::filled(0),
            slot: PointArray::filled(0),
            ends: [0; 4],
        }
    }

    /// All `points` free and live: the candidates of an empty board.
    pub(crate) fn all_free(points: impl Iterator<Item = usize>) -> Candidates {
        let mut c = Candidates::empty();
        let mut n = 0u16;
        for p in points {
            c.order[usize::from(n)] = p as u16;
            c.slot[p] = n;
            n += 1;
        }
        c.ends = [0, n, n, n];
        c
    }

    /// Appends a vacant point to the last segment, then moves it to `segment`.
    /// Used when a board is built from scratch.
    pub(crate) fn insert(&mut self, p: usize, segment: usize) {
        let at = self.ends[OPEN_LIVE];
        self.order[usize::from(at)] = p as u16;
        self.slot[p] = at;
        self.ends[OPEN_LIVE] += 1;
        self.move_to(p, OPEN_LIVE, segment);
    }

    /// The segment that vacant point p is in.
    #[inline]
    fn segment_of(&self, p: usize) -> usize {
        let at = self.slot[p];
        self.ends.iter().position(|&end| at < end).unwrap_or(GONE)
    }

    /// Whether vacant point p is open (neighbours a stone of this colour).
    #[inline]
    pub(crate) fn is_open(&self, p: usize) -> bool {
        self.slot[p] >= self.ends[FREE_LIVE]
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
        // p leaves a hole; the last element of p's segment fills it, which
        // moves the hole to the first position of the next segment, and so on
        // until the hole drops off the end of `order`.
        let mut hole = self.slot[p];
        for s in self.segment_of(p)..GONE {
            let last = self.ends[s] - 1;
            if last != hole {
                let q = self.order[usize::from(last)];
                self.order[usize::from(hole)] = q;
                self.slot[usize::from(q)] = hole;
            }
            self.ends[s] = last;
            hole = last;
        }
    }

    /// Free point p gained a neighbour of this colour. It becomes open, and
    /// rejected: a point that had no stone of the mover around it at the start
    /// of the turn cannot be a growth step in that turn.
    #[inline]
    pub(crate) fn open(&mut self, p: usize) {
        let from = self.segment_of(p);
        debug_assert!(from <= FREE_LIVE, "only a free point can become open");
        self.move_to(p, from, OPEN_REJECTED);
    }

    /// The random player found the i-th live open point ineligible.
    #[inline]
    pub(crate) fn reject_open_live(&mut self, i: usize) {
        let first = self.ends[OPEN_REJECTED];
        let p = self.order[usize::from(first) + i];
        self.swap_into(usize::from(p), first);
        self.ends[OPEN_REJECTED] = first + 1;
    }

    /// The random player found the i-th live free point ineligible.
    #[inline]
    pub(crate) fn reject_free_live(&mut self, i: usize) {
        let first = self.ends[FREE_REJECTED];
        let p = self.order[usize::from(first) + i];
        self.swap_into(usize::from(p), first);
        self.ends[FREE_REJECTED] = first + 1;
    }

    /// Makes every point live again (a new turn starts).
    #[inline]
    pub(crate) fn revive(&mut self) {
        self.ends[FREE_REJECTED] = 0;
        self.ends[OPEN_REJECTED] = self.ends[FREE_LIVE];
    }

    /// Number of live open points.
    #[inline]
    pub(crate) fn open_live_len(&self) -> usize {
        usize::from(self.ends[OPEN_LIVE] - self.ends[OPEN_REJECTED])
    }

    /// Number of live free points.
    #[inline]
    pub(crate) fn free_live_len(&self) -> usize {
        usize::from(self.ends[FREE_LIVE] - self.ends[FREE_REJECTED])
    }

    /// The i-th live open point (i < `open_live_len`).
    #[inline]
    pub(crate) fn open_live(&self, i: usize) -> usize {
        usize::from(self.order[usize::from(self.ends[OPEN_REJECTED]) + i])
    }

    /// The i-th live free point (i < `free_live_len`).
    #[inline]
    pub(crate) fn free_live(&self, i: usize) -> usize {
        usize::from(self.order[usize::from(self.ends[FREE_REJECTED]) + i])
    }

    /// All open points, live or rejected.
    pub(crate) fn open_points(&self) -> &[u16] {
        &self.order.0[usize::from(self.ends[FREE_LIVE])..usize::from(self.ends[OPEN_LIVE])]
    }

    /// All free points, live or rejected.
    pub(crate) fn free_points(&self) -> &[u16] {
        &self.order.0[..usize::from(self.ends[FREE_LIVE])]
    }

    /// Number of vacant points.
    pub(crate) fn len(&self) -> usize {
        usize::from(self.ends[OPEN_LIVE])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(c: &Candidates) {
        for (i, &p) in c.order.0[..c.len()].iter().enumerate() {
            assert_eq!(usize::from(c.slot[usize::from(p)]), i);
        }
        assert!(c.ends.windows(2).all(|w| w[0] <= w[1]));
    }

    fn segment_of_point(c: &Candidates, p: usize) -> usize {
        c.segment_of(p)
    }

    #[test]
    fn points_move_between_segments_and_leave() {
        let mut c = Candidates::all_free(10..20);
        check(&c);
        assert_eq!(c.free_live_len(), 10);
        c.open(12);
        c.open(15);
        check(&c);
        assert_eq!(segment_of_point(&c, 12), OPEN_REJECTED);
        assert_eq!(c.free_live_len(), 8);
        c.revive();
        assert_eq!(c.open_live_len(), 2);
        let i = (0..2).find(|&i| c.open_live(i) == 15).unwrap();
        c.reject_open_live(i);
        assert_eq!(segment_of_point(&c, 15), OPEN_REJECTED);
        assert_eq!(c.open_live_len(), 1);
        let i = (0..c.free_live_len())
            .find(|&i| c.free_live(i) == 11)
            .unwrap();
        c.reject_free_live(i);
        assert_eq!(segment_of_point(&c, 11), FREE_REJECTED);
        check(&c);
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

    #[test]
    fn insert_places_points_in_their_segment() {
        let mut c = Candidates::empty();
        c.insert(5, OPEN_LIVE);
        c.insert(6, FREE_LIVE);
        c.insert(7, OPEN_LIVE);
        check(&c);
        assert!(c.is_open(5) && c.is_open(7) && !c.is_open(6));
        assert_eq!(c.open_live_len(), 2);
        assert_eq!(c.free_live_len(), 1);
    }
}
