//! Fixed-size arrays indexed by point, for the board's hot path.

use std::ops::{Index, IndexMut};

/// An array of `N` values indexed by a point's padded index (or, for the
/// array of vacant points, by a position in it), without a bounds check in
/// release builds.
///
/// Bounds checks cost about a sixth of the instructions of a random game, and
/// every index used here is in bounds by construction:
///
/// - a [`Point`](crate::Point) is made only by a [`Geometry`](crate::Geometry),
///   and is below its [`index_len`](crate::Geometry::index_len), which is at
///   most `MAX_INDEX`, the `N` of every point-indexed array;
/// - the board only takes the neighbours of its own points (stones and vacant
///   points), which the padded layout keeps below `index_len`;
/// - every public entry point that takes a `Point` checks first that it is a
///   point of this board (see `Position::on_board`);
/// - positions in the array of vacant points are below their number, and
///   positions in the turn's log below the number of stones on the board:
///   both at most `MAX_POINTS`.
///
/// Debug builds, and so the test suite, check every index.
#[derive(Clone, Copy)]
pub(crate) struct PointArray<T, const N: usize>(pub(crate) [T; N]);

impl<T: Copy, const N: usize> PointArray<T, N> {
    pub(crate) const fn filled(value: T) -> Self {
        PointArray([value; N])
    }
}

impl<T, const N: usize> Index<usize> for PointArray<T, N> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        debug_assert!(i < N, "index {i} out of {N}");
        #[allow(unsafe_code)]
        // SAFETY: i < N, as the type's documentation shows for every caller.
        unsafe {
            self.0.get_unchecked(i)
        }
    }
}

impl<T, const N: usize> IndexMut<usize> for PointArray<T, N> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < N, "index {i} out of {N}");
        #[allow(unsafe_code)]
        // SAFETY: i < N, as the type's documentation shows for every caller.
        unsafe {
            self.0.get_unchecked_mut(i)
        }
    }
}
