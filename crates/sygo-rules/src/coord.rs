//! Coordinates as players write them: a column letter and a row number, `D4`.
//!
//! Columns run A, B, …, H, J, K, …, Z: the letter I is skipped on both boards,
//! as on a Go board (docs/rules.md §1). Input is case-insensitive; output is upper
//! case.

use std::fmt;

/// The column letters in order, I skipped.
const LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A column and a row, 0-based, as players name them (`D4` is column 3, row 3).
///
/// A vertex is independent of any board; [`Geometry::point_of`](crate::Geometry::point_of)
/// says whether it is on a given board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vertex {
    col: u8,
    row: u8,
}

impl Vertex {
    /// The vertex at 0-based column and row.
    pub fn new(col: u8, row: u8) -> Vertex {
        Vertex { col, row }
    }

    /// 0-based column (A is 0, J is 8).
    pub fn col(self) -> u8 {
        self.col
    }

    /// 0-based row (row 1 is 0).
    pub fn row(self) -> u8 {
        self.row
    }

    /// The letter of a 0-based column, if there is one (columns 0…24).
    pub fn column_letter(col: u8) -> Option<char> {
        LETTERS.get(usize::from(col)).map(|&b| char::from(b))
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Vertex::column_letter(self.col) {
            Some(letter) => write!(f, "{letter}{}", u32::from(self.row) + 1),
            None => write!(f, "({},{})", self.col, self.row),
        }
    }
}

impl Vertex {
    /// Reads `D4`, `d4`, `T19`; `None` for the letter I, a missing or zero
    /// row, and rows beyond 25. `"D4".parse::<Vertex>()` calls it, with the
    /// error [`ParsePointError`](crate::ParsePointError) (in `geometry.rs`,
    /// beside the board a point is parsed for).
    pub(crate) fn read(text: &str) -> Option<Vertex> {
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_uppercase();
        let col = LETTERS.iter().position(|&b| char::from(b) == letter)?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: u8 = digits.parse().ok()?;
        if row == 0 || row > 25 || digits.starts_with('0') {
            return None;
        }
        Some(Vertex {
            col: col as u8,
            row: row - 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letter_i_is_skipped() {
        assert_eq!("H1".parse::<Vertex>().unwrap().col(), 7);
        assert_eq!("J1".parse::<Vertex>().unwrap().col(), 8);
        assert!("I5".parse::<Vertex>().is_err());
        assert_eq!(Vertex::new(8, 0).to_string(), "J1");
        assert_eq!(Vertex::new(24, 24).to_string(), "Z25");
    }

    #[test]
    fn input_is_case_insensitive_and_output_upper_case() {
        let v: Vertex = "k10".parse().unwrap();
        assert_eq!(v.to_string(), "K10");
    }

    #[test]
    fn malformed_vertices_are_refused() {
        for bad in [
            "", "D", "4", "D0", "D04", "D26", "DD4", "D4x", "Ä4", "D-1", "D 4", "D100",
        ] {
            assert!(bad.parse::<Vertex>().is_err(), "{bad:?} should be refused");
        }
    }
}
