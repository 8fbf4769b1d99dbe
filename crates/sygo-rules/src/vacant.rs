//! The vacant points, kept in an array so that a uniformly random one can be
//! drawn in O(1).
//!
//! The array is split in two for the turn in progress: *live* points and
//! *rejected* ones. A random player that finds a point ineligible during its
//! turn moves it to the rejected part so that it is not drawn again in that
//! turn; the next turn makes every point live again in O(1).
//!
//! ```text
//!  order: | live                   | rejected      |
//!         0                     live            len
//! ```
//!
//! `slot[p]` is the position of vacant point p in `order`, so removing a point
//! or moving it between the two parts is O(1): a swap with the element at the
//! boundary, and a move of the boundary by one.
//!
//! Whether a vacant point neighbours stones of each colour (a growth or a
//! placement for that colour) is kept on the board, as flags of the point's
//! cell.

use crate::geometry::{MAX_INDEX, MAX_POINTS};
use crate::point_array::PointArray;

/// The vacant points of a board (see the module doc).
#[derive(Clone, Copy)]
pub(crate) struct Vacant {
    /// The vacant points: live ones first.
    order: PointArray<u16, MAX_POINTS>,
    /// For each vacant point, its position in `order`; meaningless otherwise.
    slot: PointArray<u16, MAX_INDEX>,
    /// Number of live points: `order[..live]`.
    live: u16,
    /// Number of vacant points: `order[..len]`.
    len: u16,
}

impl Vacant {
    /// Exactly `points`, all live.
    pub(crate) fn new(points: impl Iterator<Item = usize>) -> Vacant {
        let mut v = Vacant {
            order: PointArray::filled(0),
            slot: PointArray::filled(0),
            live: 0,
            len: 0,
        };
        for p in points {
            v.order[usize::from(v.len)] = p as u16;
            v.slot[p] = v.len;
            v.len += 1;
        }
        v.live = v.len;
        v
    }

    /// Makes `self` a copy of `source`, for a board whose point indices are
    /// below `index_len`.
    pub(crate) fn copy_from(&mut self, source: &Vacant, index_len: usize) {
        let len = usize::from(source.len);
        self.order.0[..len].copy_from_slice(&source.order.0[..len]);
        self.slot.0[..index_len].copy_from_slice(&source.slot.0[..index_len]);
        self.live = source.live;
        self.len = source.len;
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

    /// p has been filled: it leaves the array.
    #[inline]
    pub(crate) fn remove(&mut self, p: usize) {
        // p leaves a hole. If p is live, the last live point fills it and p
        // takes that point's place, at the start of the rejected part; then
        // the last point of all fills p's place and the array shrinks. (When
        // a point would move onto itself it is p, whose slot no longer
        // matters: no test needed.)
        let mut hole = self.slot[p];
        if hole < self.live {
            self.live -= 1;
            let x = self.order[usize::from(self.live)];
            self.order[usize::from(hole)] = x;
            self.slot[usize::from(x)] = hole;
            self.order[usize::from(self.live)] = p as u16;
            hole = self.live;
        }
        self.len -= 1;
        let y = self.order[usize::from(self.len)];
        self.order[usize::from(hole)] = y;
        self.slot[usize::from(y)] = hole;
    }

    /// The random player found the i-th live point ineligible for this turn.
    #[inline]
    pub(crate) fn reject(&mut self, i: usize) {
        self.live -= 1;
        let p = self.order[i];
        self.swap_into(usize::from(p), self.live);
    }

    /// Makes every point live again (a new turn starts).
    #[inline]
    pub(crate) fn revive(&mut self) {
        self.live = self.len;
    }

    /// Number of live points.
    #[inline]
    pub(crate) fn live_len(&self) -> usize {
        usize::from(self.live)
    }

    /// The i-th live point (i < `live_len`).
    #[inline]
    pub(crate) fn live(&self, i: usize) -> usize {
        usize::from(self.order[i])
    }

    /// All vacant points, live or rejected, in no particular order.
    pub(crate) fn points(&self) -> &[u16] {
        &self.order.0[..usize::from(self.len)]
    }

    /// Number of vacant points.
    pub(crate) fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether p is in the array (for consistency checks).
    pub(crate) fn contains(&self, p: usize) -> bool {
        self.slot[p] < self.len && usize::from(self.order[usize::from(self.slot[p])]) == p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(v: &Vacant) {
        for (i, &p) in v.points().iter().enumerate() {
            assert_eq!(usize::from(v.slot[usize::from(p)]), i);
        }
        assert!(v.live <= v.len);
    }

    #[test]
    fn points_are_rejected_revived_and_removed() {
        let mut v = Vacant::new(10..20);
        check(&v);
        assert_eq!(v.live_len(), 10);
        let i = (0..10).find(|&i| v.live(i) == 15).unwrap();
        v.reject(i);
        check(&v);
        assert_eq!(v.live_len(), 9);
        assert!((0..9).all(|i| v.live(i) != 15));
        v.remove(15); // a rejected point
        v.remove(11); // a live point
        check(&v);
        assert_eq!((v.len(), v.live_len()), (8, 8));
        v.reject(0);
        v.revive();
        assert_eq!(v.live_len(), 8);
        let mut all: Vec<u16> = v.points().to_vec();
        all.sort();
        assert_eq!(all, vec![10, 12, 13, 14, 16, 17, 18, 19]);
        assert!(v.contains(12) && !v.contains(11));
    }
}
