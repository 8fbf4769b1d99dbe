//! Fixed-size arrays indexed by point, for the board's hot path.

use std::ops::{Index, IndexMut};

/// An array of `N` values indexed by point index.
///
/// Every index used on the hot path is a point of the board or a neighbour
/// of one, and the padded layout keeps those below the board's
/// [`index_len`](crate::Geometry::index_len), itself at most `N`.
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
        debug_assert!(i < N);
        #[allow(unsafe_code)]
        // SAFETY: experiment
        unsafe {
            self.0.get_unchecked(i)
        }
    }
}

impl<T, const N: usize> IndexMut<usize> for PointArray<T, N> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < N);
        #[allow(unsafe_code)]
        // SAFETY: experiment
        unsafe {
            self.0.get_unchecked_mut(i)
        }
    }
}
