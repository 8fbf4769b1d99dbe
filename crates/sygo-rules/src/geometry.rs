//! Board geometry: the two boards, their sizes, points and neighbours.
//!
//! Both boards live in one padded, row-major array so that one code path serves
//! both: a point's neighbours are the point's index plus a fixed set of offsets,
//! and every off-board index holds an edge marker, so a neighbour is never out
//! of bounds.
//!
//! With `S` columns and rows (S = N on the square board, S = 2n − 1 on the hex
//! board of base n) and width `W = S + 1`, the point at 0-based column `c` and
//! row `r` has index `(r + 1)·W + (c + 1)`. Column 0 of each padded row is an
//! edge cell and doubles as the cell right of the previous row's last column,
//! so the offsets are:
//!
//! ```text
//! square:  +1, −1, +W, −W                    (right, left, up, down)
//! hex:     +1, +(W+1), +W, −1, −(W+1), −W      (turning: E, NE, NW, W, SW, SE)
//! ```
//!
//! The hex board is stored in axial coordinates: a (2n−1)×(2n−1) parallelogram
//! of which only the cells with |c − r| ≤ n − 1 exist (docs/rules.md §1); the two
//! missing corners are edge cells.
//!
//! ```text
//!      hex neighbours of X          stored as
//!         (c,r+1) (c+1,r+1)           W   W+1
//!      (c-1,r)  X  (c+1,r)         -1   X   +1
//!        (c-1,r-1) (c,r-1)          -W-1  -W
//! ```

use std::fmt;
use std::str::FromStr;

use crate::coord::Vertex;

/// The largest padded array any board needs: S = 25 gives (25 + 2)·26 + 1 = 703.
pub(crate) const MAX_INDEX: usize = 704;

/// The largest number of points on any board (25×25).
pub(crate) const MAX_POINTS: usize = 625;

/// Which of the two games is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Sygo on the square N×N board, 4 neighbours per point.
    Sygo,
    /// Hexsygo on the hexagonal board of base n, 6 neighbours per cell.
    Hexsygo,
}

impl Variant {
    /// The variant's name as written in position strings and the protocol:
    /// `sygo` or `hexsygo`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Sygo => "sygo",
            Variant::Hexsygo => "hexsygo",
        }
    }

    /// Parses `sygo` or `hexsygo`, case-insensitively.
    pub fn from_name(name: &str) -> Option<Variant> {
        if name.eq_ignore_ascii_case("sygo") {
            Some(Variant::Sygo)
        } else if name.eq_ignore_ascii_case("hexsygo") {
            Some(Variant::Hexsygo)
        } else {
            None
        }
    }

    /// The sizes docs/rules.md §1 allows: 3…25 for Sygo, 2…13 for Hexsygo.
    pub fn sizes(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Variant::Sygo => 3..=25,
            Variant::Hexsygo => 2..=13,
        }
    }

    /// The default size: 19 for Sygo, base 10 for Hexsygo.
    pub fn default_size(self) -> u8 {
        match self {
            Variant::Sygo => 19,
            Variant::Hexsygo => 10,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A point of the board: an index into the padded board array.
///
/// Points are only meaningful together with the [`Geometry`] that made them;
/// [`Geometry::vertex`] turns one into the coordinates players read (`D4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub(crate) u16);

impl Point {
    /// The index of the point in the padded board array (less than
    /// [`Geometry::index_len`]).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A board: its variant and size, and the arithmetic of its points.
///
/// `Geometry` is small and `Copy`; every position carries its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    variant: Variant,
    size: u8,
    /// Columns (= rows) of the stored parallelogram: N, or 2n − 1.
    side: u8,
    /// Neighbours per point: 4 or 6.
    degree: u8,
    /// Index offsets to the neighbours; only the first `degree` are used.
    offsets: [i16; 6],
}

impl Geometry {
    /// The board of `variant` at `size` (N for Sygo, the base n for Hexsygo).
    ///
    /// # Errors
    ///
    /// [`GeometryError`] when the size is outside docs/rules.md §1 (3…25, 2…13).
    ///
    /// # Examples
    ///
    /// ```
    /// use sygo_rules::{Geometry, Variant};
    /// let hex = Geometry::new(Variant::Hexsygo, 10).unwrap();
    /// assert_eq!(hex.num_points(), 271);
    /// assert!(Geometry::new(Variant::Sygo, 26).is_err());
    /// ```
    pub fn new(variant: Variant, size: u8) -> Result<Geometry, GeometryError> {
        if !variant.sizes().contains(&size) {
            return Err(GeometryError { variant, size });
        }
        let side = match variant {
            Variant::Sygo => size,
            Variant::Hexsygo => 2 * size - 1,
        };
        let w = i16::from(side) + 1;
        let (degree, offsets) = match variant {
            Variant::Sygo => (4, [1, -1, w, -w, 0, 0]),
            // In turning order: E, NE, NW, W, SW, SE as drawn.
            Variant::Hexsygo => (6, [1, w + 1, w, -1, -(w + 1), -w]),
        };
        Ok(Geometry {
            variant,
            size,
            side,
            degree,
            offsets,
        })
    }

    /// Square Sygo N×N (3 ≤ N ≤ 25).
    ///
    /// # Errors
    ///
    /// [`GeometryError`] when N is out of range.
    pub fn sygo(n: u8) -> Result<Geometry, GeometryError> {
        Geometry::new(Variant::Sygo, n)
    }

    /// Hexsygo of base n (2 ≤ n ≤ 13).
    ///
    /// # Errors
    ///
    /// [`GeometryError`] when n is out of range.
    pub fn hexsygo(n: u8) -> Result<Geometry, GeometryError> {
        Geometry::new(Variant::Hexsygo, n)
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The size: N for Sygo, the base n for Hexsygo.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Number of columns, which is also the number of rows: N, or 2n − 1.
    pub fn side(&self) -> u8 {
        self.side
    }

    /// Neighbours per interior point: 4 or 6.
    pub fn degree(&self) -> usize {
        usize::from(self.degree)
    }

    /// Number of points on the board: N², or 3n(n − 1) + 1.
    pub fn num_points(&self) -> usize {
        let n = usize::from(self.size);
        match self.variant {
            Variant::Sygo => n * n,
            Variant::Hexsygo => 3 * n * (n - 1) + 1,
        }
    }

    /// Width of a padded row.
    #[inline]
    pub(crate) fn width(&self) -> usize {
        usize::from(self.side) + 1
    }

    /// Length of the padded array (all point indices are below it).
    pub fn index_len(&self) -> usize {
        (usize::from(self.side) + 2) * self.width() + 1
    }

    /// The `D` neighbours of `p` in the padded array, edge cells included,
    /// for a board whose degree is `D` (known at compile time on the hot
    /// path, so that neighbour loops unroll).
    #[inline(always)]
    pub(crate) fn around<const D: usize>(&self, p: usize) -> [usize; D] {
        debug_assert_eq!(D, usize::from(self.degree));
        std::array::from_fn(|i| p.wrapping_add_signed(isize::from(self.offsets[i])))
    }

    /// The neighbours of `p` in the padded array, edge cells included.
    #[inline]
    pub(crate) fn adjacent(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        self.offsets[..usize::from(self.degree)]
            .iter()
            .map(move |&d| p.wrapping_add_signed(isize::from(d)))
    }

    /// Whether 0-based column `c` and row `r` is a point of this board.
    pub fn contains(&self, col: u8, row: u8) -> bool {
        if col >= self.side || row >= self.side {
            return false;
        }
        match self.variant {
            Variant::Sygo => true,
            Variant::Hexsygo => col.abs_diff(row) < self.size,
        }
    }

    /// The point at 0-based column and row, if it is on the board.
    pub fn point(&self, col: u8, row: u8) -> Option<Point> {
        self.contains(col, row)
            .then(|| Point(((usize::from(row) + 1) * self.width() + usize::from(col) + 1) as u16))
    }

    /// The point with the given padded index, if it is on the board.
    pub fn point_at_index(&self, index: usize) -> Option<Point> {
        let w = self.width();
        let (row, col) = (index / w, index % w);
        if row == 0 || col == 0 {
            return None;
        }
        let (row, col) = (u8::try_from(row - 1).ok()?, u8::try_from(col - 1).ok()?);
        self.point(col, row)
    }

    /// The 0-based column and row of a point.
    pub fn col_row(&self, p: Point) -> (u8, u8) {
        let w = self.width();
        let i = p.index();
        ((i % w - 1) as u8, (i / w - 1) as u8)
    }

    /// The coordinates players read and write for a point.
    pub fn vertex(&self, p: Point) -> Vertex {
        let (col, row) = self.col_row(p);
        Vertex::new(col, row)
    }

    /// The point at a vertex, if the vertex is on this board.
    pub fn point_of(&self, v: Vertex) -> Option<Point> {
        self.point(v.col(), v.row())
    }

    /// Parses a vertex (`D4`, case-insensitive, letter I skipped) into a point of
    /// this board.
    ///
    /// # Errors
    ///
    /// [`ParsePointError`](ParsePointError) when the text is not a vertex
    /// or the vertex is off this board.
    pub fn parse_point(&self, text: &str) -> Result<Point, ParsePointError> {
        let v: Vertex = text.parse()?;
        self.point_of(v).ok_or(ParsePointError::OffBoard {
            vertex: v,
            geometry: *self,
        })
    }

    /// All points of the board, in increasing index order (row by row from
    /// row 1, each row from column A).
    pub fn points(&self) -> impl Iterator<Item = Point> + use<> {
        let g = *self;
        (0..g.side).flat_map(move |row| (0..g.side).filter_map(move |col| g.point(col, row)))
    }

    /// The on-board neighbours of a point.
    pub fn neighbours(&self, p: Point) -> impl Iterator<Item = Point> + use<> {
        let g = *self;
        (0..usize::from(g.degree)).filter_map(move |i| {
            g.point_at_index(p.index().wrapping_add_signed(isize::from(g.offsets[i])))
        })
    }

    /// The name of the board as players say it: `sygo 19` or `hexsygo 10`.
    pub fn name(&self) -> String {
        format!("{} {}", self.variant, self.size)
    }
}

impl fmt::Display for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.variant, self.size)
    }
}

impl FromStr for Vertex {
    type Err = ParsePointError;

    /// Parses `D4`, `d4`, `T19`; refuses the letter I, a missing or zero row,
    /// and rows beyond 25.
    fn from_str(text: &str) -> Result<Vertex, ParsePointError> {
        Vertex::read(text)
            .ok_or_else(|| ParsePointError::Malformed(text.chars().take(16).collect()))
    }
}

/// A board size outside docs/rules.md §1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeometryError {
    /// The variant asked for.
    pub variant: Variant,
    /// The size asked for.
    pub size: u8,
}

impl fmt::Display for GeometryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sizes = self.variant.sizes();
        write!(
            f,
            "{} cannot be played at size {}: sizes run from {} to {}",
            self.variant,
            self.size,
            sizes.start(),
            sizes.end()
        )
    }
}

impl std::error::Error for GeometryError {}

/// A vertex that cannot be read, or is not on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePointError {
    /// Not a column letter (A–Z without I) followed by a row number 1–25.
    Malformed(String),
    /// A well-formed vertex outside this board.
    OffBoard {
        /// The vertex.
        vertex: Vertex,
        /// The board it is not on.
        geometry: Geometry,
    },
}

impl fmt::Display for ParsePointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePointError::Malformed(text) => write!(
                f,
                "{text:?} is not a point: write a column letter (A–Z, no I) and a row number, like D4"
            ),
            ParsePointError::OffBoard { vertex, geometry } => {
                write!(f, "{vertex} is not on the {geometry} board")
            }
        }
    }
}

impl std::error::Error for ParsePointError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_counts_follow_rules_section_1() {
        assert_eq!(Geometry::sygo(19).unwrap().num_points(), 361);
        assert_eq!(Geometry::hexsygo(10).unwrap().num_points(), 271);
        for n in 2..=13 {
            let g = Geometry::hexsygo(n).unwrap();
            assert_eq!(g.points().count(), g.num_points(), "hex base {n}");
        }
        for n in 3..=25 {
            let g = Geometry::sygo(n).unwrap();
            assert_eq!(g.points().count(), g.num_points(), "square {n}");
        }
    }

    #[test]
    fn sizes_outside_the_rules_are_refused() {
        for (v, bad) in [
            (Variant::Sygo, 2),
            (Variant::Sygo, 26),
            (Variant::Hexsygo, 1),
            (Variant::Hexsygo, 14),
        ] {
            assert!(Geometry::new(v, bad).is_err());
        }
    }

    #[test]
    fn padded_indices_fit_the_largest_array() {
        for g in [Geometry::sygo(25).unwrap(), Geometry::hexsygo(13).unwrap()] {
            assert!(g.index_len() <= MAX_INDEX);
            for p in g.points() {
                for q in g.adjacent(p.index()) {
                    assert!(q < g.index_len());
                }
            }
        }
    }

    #[test]
    fn hex_neighbours_match_rules_section_1() {
        let g = Geometry::hexsygo(3).unwrap();
        for p in g.points() {
            let (c, r) = g.col_row(p);
            let (c, r) = (i16::from(c), i16::from(r));
            let mut expected: Vec<Point> = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)]
                .iter()
                .filter_map(|&(dc, dr)| {
                    let (nc, nr) = (c + dc, r + dr);
                    if nc < 0 || nr < 0 {
                        return None;
                    }
                    g.point(nc as u8, nr as u8)
                })
                .collect();
            let mut got: Vec<Point> = g.neighbours(p).collect();
            expected.sort();
            got.sort();
            assert_eq!(got, expected);
        }
        // The centre of a base-3 board has six neighbours, a corner three.
        let centre = g.point(2, 2).unwrap();
        assert_eq!(g.neighbours(centre).count(), 6);
        assert_eq!(g.neighbours(g.point(0, 0).unwrap()).count(), 3);
    }

    #[test]
    fn square_corner_has_two_neighbours() {
        let g = Geometry::sygo(9).unwrap();
        assert_eq!(g.neighbours(g.point(0, 0).unwrap()).count(), 2);
        assert_eq!(g.neighbours(g.point(4, 4).unwrap()).count(), 4);
    }
}
