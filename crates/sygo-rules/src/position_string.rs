//! The position string: one line that names a position exactly, as FEN does in
//! chess. Grammar and examples in `docs/position-string.md`:
//!
//! ```text
//! sygo 9 9/9/9/9/4W4/9/9/9/9 b - 0
//! variant size board side growth passes [result]
//! ```
//!
//! The board lists the rows from the top row down, separated by `/`; each row
//! lists its points from the left (column A, or the hex row's first cell) as
//! `B`, `W`, or a number counting consecutive vacant points. A turn in progress
//! is not part of a position string.

use std::fmt;
use std::str::FromStr;

use crate::color::Color;
use crate::error::ParsePositionError;
use crate::geometry::{Geometry, Point, Variant};
use crate::position::Position;

impl Position {
    /// The position string of this position (see the module doc). A turn in
    /// progress is not part of it: the stones are written as they stand.
    ///
    /// # Examples
    ///
    /// ```
    /// use sygo_rules::{Geometry, Position, Turn};
    /// let g = Geometry::sygo(5).unwrap();
    /// let mut pos = Position::new(g);
    /// pos.play_turn(&Turn::parse("C3", &g).unwrap()).unwrap();
    /// let s = pos.to_position_string();
    /// assert_eq!(s, "sygo 5 5/5/2W2/5/5 b - 0");
    /// assert_eq!(s.parse::<Position>().unwrap(), pos);
    /// ```
    pub fn to_position_string(&self) -> String {
        let g = self.geometry();
        let mut rows = Vec::new();
        for row in (0..g.side()).rev() {
            let mut text = String::new();
            let mut run = 0;
            for col in 0..g.side() {
                let Some(p) = g.point(col, row) else { continue };
                match self.stone_at(p) {
                    None => run += 1,
                    Some(color) => {
                        if run > 0 {
                            text.push_str(&run.to_string());
                            run = 0;
                        }
                        text.push(color.letter());
                    }
                }
            }
            if run > 0 {
                text.push_str(&run.to_string());
            }
            rows.push(text);
        }
        let side = match self.side_to_move() {
            Color::Black => 'b',
            Color::White => 'w',
        };
        let growth = if self.growth_started() { 'g' } else { '-' };
        let mut s = format!(
            "{} {} {} {side} {growth} {}",
            g.variant(),
            g.size(),
            rows.join("/"),
            self.passes()
        );
        if let Some(loser) = self.resigned() {
            s.push_str(&format!(" {}+R", loser.opponent().letter()));
        }
        s
    }

    /// Reads a position string (see the module doc).
    ///
    /// # Errors
    ///
    /// [`ParsePositionError`] naming the field that is wrong, or the
    /// [`SetupError`](crate::SetupError) when the stones are not a position
    /// (a group without liberties).
    pub fn from_position_string(text: &str) -> Result<Position, ParsePositionError> {
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        if fields.len() != 6 && fields.len() != 7 {
            return Err(ParsePositionError::Fields(fields.len()));
        }
        let variant = Variant::from_name(fields[0])
            .ok_or_else(|| ParsePositionError::Variant(fields[0].to_string()))?;
        let size_error = || ParsePositionError::Size(fields[1].to_string());
        let size: u8 = fields[1].parse().map_err(|_| size_error())?;
        let geometry = Geometry::new(variant, size).map_err(|_| size_error())?;
        let stones = parse_board(fields[2], &geometry)?;
        let side = match fields[3] {
            "b" | "B" => Color::Black,
            "w" | "W" => Color::White,
            other => return Err(ParsePositionError::Side(other.to_string())),
        };
        let growth_started = match fields[4] {
            "-" => false,
            "g" | "G" => true,
            other => return Err(ParsePositionError::Growth(other.to_string())),
        };
        let passes = match fields[5] {
            "0" => 0,
            "1" => 1,
            "2" => 2,
            other => return Err(ParsePositionError::Passes(other.to_string())),
        };
        let resigned = match fields.get(6).map(|s| s.to_ascii_uppercase()) {
            None => None,
            Some(r) if r == "B+R" => Some(Color::White),
            Some(r) if r == "W+R" => Some(Color::Black),
            Some(_) => return Err(ParsePositionError::Result(fields[6].to_string())),
        };
        Ok(Position::from_parts(
            geometry,
            &stones,
            side,
            growth_started,
            passes,
            resigned,
        )?)
    }
}

/// Reads the board field into stones.
fn parse_board(text: &str, g: &Geometry) -> Result<Vec<(Point, Color)>, ParsePositionError> {
    let rows: Vec<&str> = text.split('/').collect();
    let side = usize::from(g.side());
    if rows.len() != side {
        return Err(ParsePositionError::Board {
            row: rows.len().min(side) + 1,
            problem: format!("the board has {side} rows, not {}", rows.len()),
        });
    }
    let mut stones = Vec::new();
    for (i, row_text) in rows.iter().enumerate() {
        let row = (side - 1 - i) as u8;
        let points: Vec<Point> = (0..g.side()).filter_map(|col| g.point(col, row)).collect();
        let problem = |problem: String| ParsePositionError::Board {
            row: i + 1,
            problem,
        };
        let mut at = 0;
        let bytes = row_text.as_bytes();
        let mut k = 0;
        while k < bytes.len() {
            let b = bytes[k];
            if b.is_ascii_digit() {
                let start = k;
                while k < bytes.len() && bytes[k].is_ascii_digit() {
                    k += 1;
                }
                let digits = &row_text[start..k];
                let run: usize = digits
                    .parse()
                    .ok()
                    .filter(|&n| n > 0 && !digits.starts_with('0'))
                    .ok_or_else(|| {
                        problem(format!("{digits:?} is not a count of vacant points"))
                    })?;
                at += run;
            } else {
                let color = match b {
                    b'B' => Color::Black,
                    b'W' => Color::White,
                    _ => {
                        let c = row_text[k..].chars().next().unwrap_or('?');
                        return Err(problem(format!("{c:?} is not B, W or a number")));
                    }
                };
                if let Some(&p) = points.get(at) {
                    stones.push((p, color));
                }
                at += 1;
                k += 1;
            }
            if at > points.len() {
                break;
            }
        }
        if at != points.len() {
            return Err(problem(format!(
                "the row has {} points, not {at}",
                points.len()
            )));
        }
    }
    Ok(stones)
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// Same as [`Position::from_position_string`].
    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        Position::from_position_string(text)
    }
}

impl fmt::Display for Position {
    /// The position string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_position_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_rows_have_their_own_lengths() {
        let g = Geometry::hexsygo(2).unwrap();
        let pos = Position::new(g);
        assert_eq!(pos.to_position_string(), "hexsygo 2 2/3/2 w - 0");
        let p: Position = "hexsygo 2 B1/1W1/2 b g 1".parse().unwrap();
        assert_eq!(p.to_position_string(), "hexsygo 2 B1/1W1/2 b g 1");
        assert_eq!(p.stone_count(Color::Black), 1);
        assert!(p.growth_started());
    }

    #[test]
    fn malformed_strings_name_the_field() {
        for (text, want) in [
            ("sygo 9", "fields"),
            ("go 9 9/9/9/9/9/9/9/9/9 w - 0", "variant"),
            ("sygo 26 9/9/9/9/9/9/9/9/9 w - 0", "size"),
            ("sygo 9 9/9/9/9/9/9/9/9 w - 0", "rows"),
            ("sygo 9 9/9/9/9/8/9/9/9/9 w - 0", "points"),
            ("sygo 9 9/9/9/9/4X4/9/9/9/9 w - 0", "not B, W"),
            ("sygo 9 9/9/9/9/45/9/9/9/9 w - 0", "not 45"),
            ("sygo 9 9/9/9/9/09/9/9/9/9 w - 0", "count"),
            ("sygo 9 9/9/9/9/9/9/9/9/9 x - 0", "side"),
            ("sygo 9 9/9/9/9/9/9/9/9/9 w x 0", "growth"),
            ("sygo 9 9/9/9/9/9/9/9/9/9 w - 3", "passes"),
            ("sygo 9 9/9/9/9/9/9/9/9/9 w - 0 B+3", "result"),
            ("sygo 3 BW1/W2/3 w - 0", "no liberties"),
        ] {
            let err = text.parse::<Position>().unwrap_err().to_string();
            assert!(err.contains(want), "{text}: {err}");
        }
    }
}
