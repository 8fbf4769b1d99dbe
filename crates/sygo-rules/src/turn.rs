//! Turns and their notation (docs/rules.md §3): `D4`, `D5,F7,K10`, `pass`, `resign`.

use crate::error::ParseTurnError;
use crate::geometry::{Geometry, Point};

/// What kind of step a stone is, which follows from the position: a growth
/// stone touches a stone of the mover, a placement touches none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepKind {
    /// A new group (docs/rules.md §4): ends the turn.
    Placement,
    /// One stone grown onto one or more of the mover's groups (§5).
    Growth,
}

/// A whole turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// A placement turn, a growth turn or a balance turn: its stones in the
    /// order played.
    Stones(Vec<Point>),
    /// A pass (always legal).
    Pass,
    /// A resignation (always legal; the opponent wins).
    Resign,
}

impl Turn {
    /// Reads a turn written as in docs/rules.md §3 for the given board: `pass`,
    /// `resign` (case-insensitive), or comma-separated vertices with no
    /// spaces and no empty element.
    ///
    /// # Errors
    ///
    /// [`ParseTurnError`] when the text is empty, has an empty element, or
    /// names a point that is malformed or off the board. Whether the turn is
    /// legal is a separate question ([`Position::play_turn`](crate::Position::play_turn)).
    ///
    /// # Examples
    ///
    /// ```
    /// use sygo_rules::{Geometry, Turn};
    /// let g = Geometry::sygo(19).unwrap();
    /// let turn = Turn::parse("d5,F7", &g).unwrap();
    /// assert_eq!(turn.to_notation(&g), "D5,F7");
    /// assert_eq!(Turn::parse("PASS", &g).unwrap(), Turn::Pass);
    /// assert!(Turn::parse("D5,,F7", &g).is_err());
    /// ```
    pub fn parse(text: &str, geometry: &Geometry) -> Result<Turn, ParseTurnError> {
        if text.is_empty() {
            return Err(ParseTurnError::Empty);
        }
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Turn::Pass);
        }
        if text.eq_ignore_ascii_case("resign") {
            return Ok(Turn::Resign);
        }
        Ok(Turn::Stones(parse_points(text, geometry)?))
    }

    /// Writes the turn as in docs/rules.md §3: `D5,F7`, `pass` or `resign`.
    pub fn to_notation(&self, geometry: &Geometry) -> String {
        match self {
            Turn::Pass => "pass".to_string(),
            Turn::Resign => "resign".to_string(),
            Turn::Stones(points) => format_points(points, geometry),
        }
    }

    /// The stones of the turn (none for a pass or resignation).
    pub fn stones(&self) -> &[Point] {
        match self {
            Turn::Stones(points) => points,
            _ => &[],
        }
    }
}

/// Reads a comma-separated list of vertices (`D4,E5`): the form turns,
/// prefixes and vertex lists share. The empty string is an empty list.
///
/// # Errors
///
/// [`ParseTurnError::EmptyElement`] for a stray comma,
/// [`ParseTurnError::Point`] for an element that is not a point of the board.
pub fn parse_points(text: &str, geometry: &Geometry) -> Result<Vec<Point>, ParseTurnError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|part| {
            if part.is_empty() {
                Err(ParseTurnError::EmptyElement)
            } else {
                geometry.parse_point(part).map_err(ParseTurnError::Point)
            }
        })
        .collect()
}

/// Writes points as a comma-separated list of vertices: `D4,E5`.
pub fn format_points(points: &[Point], geometry: &Geometry) -> String {
    points
        .iter()
        .map(|&p| geometry.vertex(p).to_string())
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_and_refuses_stray_commas() {
        let g = Geometry::hexsygo(10).unwrap();
        let t = Turn::parse("A1,t19,K10", &g).unwrap();
        assert_eq!(t.to_notation(&g), "A1,T19,K10");
        for bad in ["", "A1,", ",A1", "A1,,B2", "A1 B2", "A11", "T1"] {
            assert!(Turn::parse(bad, &g).is_err(), "{bad:?}");
        }
        assert_eq!(Turn::parse("Resign", &g).unwrap(), Turn::Resign);
    }
}
