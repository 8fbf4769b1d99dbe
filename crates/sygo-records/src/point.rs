//! Points as records write them: two lower-case letters, the column from the
//! left and then the row from the top, as in SGF for Go (`docs/records.md`).
//!
//! Both boards use the same rule over their square of columns and rows: the
//! letter `a` is column 1 (vertex column A) or the top row; `b` the next, and
//! so on without skipping any letter (the vertex letter I is skipped, the SGF
//! letter `i` is not). On the hex board of base n the square is
//! (2n − 1) × (2n − 1) and only the cells of the hexagon are points.

use std::fmt;

use sygo_rules::{Geometry, Point};

/// Why a point value of a record is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PointError {
    /// Not two lower-case letters `a`–`y`.
    Malformed(String),
    /// Two letters that name no point of this board.
    OffBoard {
        /// The value as written.
        value: String,
        /// The board.
        geometry: Geometry,
    },
    /// A rectangle (`aa:cc`) whose corners are not in order, or which holds a
    /// position off the board.
    Rectangle(String),
}

impl fmt::Display for PointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PointError::Malformed(value) => write!(
                f,
                "{value:?} is not a point: write two lower-case letters, the column from the left \
                 and the row from the top (aa is the top left corner)"
            ),
            PointError::OffBoard { value, geometry } => {
                write!(f, "{value} is not a point of the {geometry} board")
            }
            PointError::Rectangle(value) => write!(
                f,
                "{value:?} is not a rectangle of points of the board: write its top left and \
                 bottom right corners, like aa:cc"
            ),
        }
    }
}

impl std::error::Error for PointError {}

/// The two letters of a point.
///
/// # Examples
///
/// ```
/// use sygo_records::{point_from_sgf, point_to_sgf};
/// use sygo_rules::Geometry;
/// let g = Geometry::sygo(9).unwrap();
/// let d4 = g.parse_point("D4").unwrap();
/// assert_eq!(point_to_sgf(&g, d4), "df"); // column 4, the 6th row from the top
/// assert_eq!(point_from_sgf(&g, "df"), Ok(d4));
/// ```
pub fn point_to_sgf(geometry: &Geometry, p: Point) -> String {
    let (col, row) = geometry.col_row(p);
    let top_row = geometry.side() - 1 - row;
    [letter(col), letter(top_row)].iter().collect()
}

/// The point named by two letters, on this board (whitespace around them
/// is ignored).
///
/// # Errors
///
/// [`PointError::Malformed`] unless the text is two letters `a`–`y`;
/// [`PointError::OffBoard`] if they name no point of the board.
pub fn point_from_sgf(geometry: &Geometry, text: &str) -> Result<Point, PointError> {
    let text = text.trim();
    let (col, top_row) = letters(text).ok_or_else(|| PointError::Malformed(text.to_string()))?;
    let off_board = || PointError::OffBoard {
        value: text.to_string(),
        geometry: *geometry,
    };
    let row = (geometry.side() - 1)
        .checked_sub(top_row)
        .ok_or_else(off_board)?;
    geometry.point(col, row).ok_or_else(off_board)
}

/// The points of a list value: one point (`dd`), or a rectangle written as
/// its top left and bottom right corners (`aa:cc`, SGF's compressed lists).
///
/// # Errors
///
/// As [`point_from_sgf`] for a point; [`PointError::Rectangle`] for a
/// rectangle whose corners are out of order or which holds a position that is
/// not a point of the board (on the hex board, a rectangle must lie inside
/// the hexagon).
pub fn points_from_sgf(geometry: &Geometry, text: &str) -> Result<Vec<Point>, PointError> {
    let text = text.trim();
    let Some((first, last)) = text.split_once(':') else {
        return Ok(vec![point_from_sgf(geometry, text)?]);
    };
    let rectangle = || PointError::Rectangle(text.to_string());
    let (c0, r0) = letters(first).ok_or_else(rectangle)?;
    let (c1, r1) = letters(last).ok_or_else(rectangle)?;
    if c0 > c1 || r0 > r1 {
        return Err(rectangle());
    }
    let mut points = Vec::new();
    for top_row in r0..=r1 {
        for col in c0..=c1 {
            let row = (geometry.side() - 1)
                .checked_sub(top_row)
                .ok_or_else(rectangle)?;
            points.push(geometry.point(col, row).ok_or_else(rectangle)?);
        }
    }
    Ok(points)
}

fn letter(index: u8) -> char {
    char::from(b'a' + index)
}

/// The 0-based column and row from the top of two letters `a`–`y`.
fn letters(text: &str) -> Option<(u8, u8)> {
    match text.as_bytes() {
        &[c, r] if (b'a'..=b'y').contains(&c) && (b'a'..=b'y').contains(&r) => {
            Some((c - b'a', r - b'a'))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_of_both_boards_round_trips() {
        for g in [
            Geometry::sygo(3).unwrap(),
            Geometry::sygo(25).unwrap(),
            Geometry::hexsygo(2).unwrap(),
            Geometry::hexsygo(13).unwrap(),
        ] {
            for p in g.points() {
                assert_eq!(point_from_sgf(&g, &point_to_sgf(&g, p)), Ok(p));
            }
        }
    }

    #[test]
    fn the_hex_board_maps_columns_from_the_left_and_rows_from_the_top() {
        let g = Geometry::hexsygo(4).unwrap();
        let at = |s: &str| g.parse_point(s).unwrap();
        // A1 is the left end of the bottom row (row 1 of 7: the 7th from the top).
        assert_eq!(point_to_sgf(&g, at("A1")), "ag");
        assert_eq!(point_to_sgf(&g, at("D4")), "dd");
        assert_eq!(point_to_sgf(&g, at("G7")), "ga");
        // G1 is not a cell of base 4, nor is A7.
        assert!(matches!(
            point_from_sgf(&g, "gg"),
            Err(PointError::OffBoard { .. })
        ));
        assert!(matches!(
            point_from_sgf(&g, "aa"),
            Err(PointError::OffBoard { .. })
        ));
        assert!(matches!(
            point_from_sgf(&g, "hd"),
            Err(PointError::OffBoard { .. })
        ));
    }

    #[test]
    fn malformed_points_and_rectangles_are_refused() {
        let g = Geometry::sygo(9).unwrap();
        assert_eq!(point_from_sgf(&g, " ai\n"), point_from_sgf(&g, "ai"));
        for bad in ["", "a", "abc", "A1", "DD", "d4", "zz", "a i"] {
            assert_eq!(
                point_from_sgf(&g, bad),
                Err(PointError::Malformed(bad.to_string())),
                "{bad}"
            );
        }
        assert_eq!(
            point_from_sgf(&g, "jj"),
            Err(PointError::OffBoard {
                value: "jj".to_string(),
                geometry: g
            })
        );
        assert_eq!(points_from_sgf(&g, "aa:bb").unwrap().len(), 4);
        for bad in ["bb:aa", "aa:", "aa:jj", "a:bb"] {
            assert_eq!(
                points_from_sgf(&g, bad),
                Err(PointError::Rectangle(bad.to_string()))
            );
        }
    }
}
