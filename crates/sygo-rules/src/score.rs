//! Scoring (docs/rules.md §8): each player's stones plus the vacant regions that
//! only their stones border. There is no komi in the rules.

use std::fmt;

use crate::board::{Board, EMPTY};
use crate::color::Color;
use crate::geometry::{MAX_INDEX, MAX_POINTS, Point};

/// Each player's score: stones plus territory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Score {
    /// Black's stones plus Black's territory.
    pub black: u32,
    /// White's stones plus White's territory.
    pub white: u32,
}

impl Score {
    /// The score of a colour.
    pub fn of(&self, color: Color) -> u32 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The player with the higher score; `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self.black.cmp(&self.white) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The result as GTP writes it, with `komi` added to White: `B+3`,
    /// `W+0.5`, or `0` for a draw; the margin has at most nine decimals.
    pub fn result_with_komi(&self, komi: f64) -> String {
        // Round away binary noise (3 − 2.2 is 0.7999…): komi is written in
        // decimal, and below a million nine decimals are exact in an f64.
        let margin = f64::from(self.black) - f64::from(self.white) - komi;
        let margin = if margin.abs() < 1e6 {
            (margin * 1e9).round() / 1e9
        } else {
            margin
        };
        if margin > 0.0 {
            format!("B+{margin}")
        } else if margin < 0.0 {
            format!("W+{}", -margin)
        } else {
            "0".to_string()
        }
    }
}

impl fmt::Display for Score {
    /// `B+3`, `W+12` or `0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.result_with_komi(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_with_komi_have_no_binary_noise() {
        let s = Score { black: 3, white: 0 };
        assert_eq!(s.result_with_komi(2.2), "B+0.8");
        assert_eq!(s.result_with_komi(3.0), "0");
        assert_eq!(s.result_with_komi(3.5), "W+0.5");
        assert_eq!(s.result_with_komi(0.123456789), "B+2.876543211");
        assert_eq!(
            Score {
                black: 10,
                white: 12
            }
            .to_string(),
            "W+2"
        );
    }
}

/// One maximal connected set of vacant points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// Its points, in increasing order.
    pub points: Vec<Point>,
    /// The player whose stones alone border it; `None` when it borders both
    /// colours or none.
    pub owner: Option<Color>,
}

/// The score with the territory of each vacant region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Territory {
    /// Stones of each colour, Black first.
    pub stones: [u32; 2],
    /// Every vacant region of the board.
    pub regions: Vec<Region>,
}

impl Territory {
    /// The vacant points counted for a colour.
    pub fn area(&self, color: Color) -> u32 {
        self.regions
            .iter()
            .filter(|r| r.owner == Some(color))
            .map(|r| r.points.len() as u32)
            .sum()
    }

    /// Stones plus territory of each player.
    pub fn score(&self) -> Score {
        Score {
            black: self.stones[0] + self.area(Color::Black),
            white: self.stones[1] + self.area(Color::White),
        }
    }

    /// The owner of a vacant point's region (`None` for a stone or a neutral
    /// point).
    pub fn owner_of(&self, p: Point) -> Option<Color> {
        self.regions
            .iter()
            .find(|r| r.points.binary_search(&p).is_ok())
            .and_then(|r| r.owner)
    }
}

impl Board {
    /// Calls `region` for every vacant region with its points (in no order)
    /// and the colour bits that border it (bit 1 Black, bit 2 White), the
    /// regions in the order of their first point.
    ///
    /// Allocates nothing: the search's move ordering scores positions by the
    /// thousand. Cells off the board are edge cells, never `EMPTY`, so a scan
    /// of the padded array in index order meets the points in board order.
    fn for_each_region(&self, mut region: impl FnMut(&[u16], u8)) {
        if self.vacant.len() == 0 {
            return;
        }
        let mut seen = [false; MAX_INDEX];
        // The points of the region being walked: at most every vacant point.
        let mut points = [0u16; MAX_POINTS];
        for start in 0..self.geometry.index_len() {
            if self.color(start) != EMPTY || seen[start] {
                continue;
            }
            points[0] = start as u16;
            seen[start] = true;
            let (mut len, mut i) = (1, 0);
            let mut borders = 0u8;
            while i < len {
                let p = usize::from(points[i]);
                i += 1;
                for q in self.geometry.adjacent(p) {
                    match self.color(q) {
                        EMPTY if !seen[q] => {
                            seen[q] = true;
                            points[len] = q as u16;
                            len += 1;
                        }
                        c @ (1 | 2) => borders |= c,
                        _ => {}
                    }
                }
            }
            region(&points[..len], borders);
        }
    }

    /// The score of the board (docs/rules.md §8).
    pub(crate) fn score(&self) -> Score {
        let mut area = [
            self.stone_count(Color::Black),
            self.stone_count(Color::White),
        ];
        self.for_each_region(|points, borders| match borders {
            1 => area[0] += points.len() as u32,
            2 => area[1] += points.len() as u32,
            _ => {}
        });
        Score {
            black: area[0],
            white: area[1],
        }
    }

    /// The score region by region.
    pub(crate) fn territory(&self) -> Territory {
        let mut regions = Vec::new();
        self.for_each_region(|points, borders| {
            let mut points: Vec<Point> = points.iter().map(|&p| Point(p)).collect();
            points.sort_unstable();
            let owner = match borders {
                1 => Some(Color::Black),
                2 => Some(Color::White),
                _ => None,
            };
            regions.push(Region { points, owner });
        });
        Territory {
            stones: [
                self.stone_count(Color::Black),
                self.stone_count(Color::White),
            ],
            regions,
        }
    }
}
