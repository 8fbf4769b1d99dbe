//! Positions from board drawings, so that a test shows its position as a board.
//!
//! A drawing is a window of the board in the layout of [`Position::diagram`]:
//! a header line of column letters, then one line per row, top row first,
//! each starting with its row number (a trailing row number and a footer line
//! of letters are allowed and ignored). Cells are `X` (Black), `O` (White),
//! `.` (vacant), or a mark on a vacant point: `*` or a lower-case letter other
//! than `x` and `o`. In a drawing of an expected board, `x` and `o` are stones
//! added by the turn in progress, as [`Position::diagram`] draws them.
//!
//! On the square board each cell sits under its column letter. On the hex
//! board the header letters sit over the cells of the first row drawn, and
//! each row down is shifted one character to the right (cell (c, r) is at
//! text column 2c − r plus a constant), as in [`Position::diagram`]. Points
//! outside the window are vacant.

use std::collections::BTreeMap;

use sygo_rules::{Color, Geometry, Point, Position, Variant};

/// Whether a growth turn has been played in the game (docs/rules.md §6): decides
/// whether Black's balance turn is still available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Growth {
    /// No growth turn yet: Black may still make the balance turn.
    NotYet,
    /// A growth turn has been played: the balance turn is gone.
    Started,
}

/// What a cell of a drawing shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Vacant,
    Stone { color: Color, new: bool },
    Mark(char),
}

/// A parsed drawing: every drawn cell with what it shows.
#[derive(Debug)]
pub struct Drawing {
    geometry: Geometry,
    cells: Vec<(Point, Cell)>,
}

impl Drawing {
    /// Reads a drawing of a window of the board `g`; panics with the offending
    /// line when the drawing does not fit the board.
    pub fn parse(g: Geometry, text: &str) -> Drawing {
        let mut header: Vec<(usize, u8)> = Vec::new();
        // The hex constant k in x = k + 2c − r, fixed by the header and the
        // first row.
        let mut hex_offset: Option<i64> = None;
        let mut cells = Vec::new();
        let mut rows_seen = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let first = line.split_whitespace().next().unwrap_or_default();
            if first.parse::<u8>().is_err() {
                assert!(
                    line.chars().all(|c| c == ' ' || c.is_ascii_uppercase()),
                    "not a header of column letters: {line:?}"
                );
                if rows_seen == 0 {
                    assert!(header.is_empty(), "two headers: {line:?}");
                    header = line
                        .char_indices()
                        .filter(|(_, c)| *c != ' ')
                        .map(|(x, c)| {
                            let col = column_of_letter(c)
                                .unwrap_or_else(|| panic!("{c:?} is not a column letter"));
                            (x, col)
                        })
                        .collect();
                }
                continue;
            }
            assert!(!header.is_empty(), "a row before the header: {line:?}");
            rows_seen += 1;
            let row_number: u8 = first.parse().expect("row number");
            assert!(row_number >= 1, "row 0 in {line:?}");
            let row = row_number - 1;
            // Skip the leading row number; stop at a trailing one.
            let start = line.find(first).expect("label") + first.len();
            for (x, c) in line.char_indices().skip_while(|(x, _)| *x < start) {
                if c == ' ' {
                    continue;
                }
                if c.is_ascii_digit() {
                    assert_eq!(
                        line[x..].trim(),
                        first,
                        "row {row_number}: the trailing label must repeat the row number"
                    );
                    break;
                }
                let cell = match c {
                    '.' => Cell::Vacant,
                    'X' => Cell::Stone {
                        color: Color::Black,
                        new: false,
                    },
                    'O' => Cell::Stone {
                        color: Color::White,
                        new: false,
                    },
                    'x' => Cell::Stone {
                        color: Color::Black,
                        new: true,
                    },
                    'o' => Cell::Stone {
                        color: Color::White,
                        new: true,
                    },
                    '*' | 'a'..='z' => Cell::Mark(c),
                    _ => panic!("row {row_number}: {c:?} is not X, O, . or a mark"),
                };
                let col = match g.variant() {
                    Variant::Sygo => header
                        .iter()
                        .find(|(hx, _)| *hx == x)
                        .map(|&(_, col)| col)
                        .unwrap_or_else(|| {
                            panic!("row {row_number}: {c:?} at text column {x} is under no letter")
                        }),
                    Variant::Hexsygo => {
                        let k = *hex_offset.get_or_insert_with(|| {
                            // The header labels the cells of this first row.
                            let ks: Vec<i64> = header
                                .iter()
                                .map(|&(hx, col)| hx as i64 - 2 * i64::from(col) + i64::from(row))
                                .collect();
                            assert!(
                                ks.windows(2).all(|w| w[0] == w[1]),
                                "the header letters must stand two characters apart"
                            );
                            ks[0]
                        });
                        let twice = x as i64 - k + i64::from(row);
                        assert!(
                            twice >= 0 && twice % 2 == 0,
                            "row {row_number}: {c:?} at text column {x} is between two cells"
                        );
                        u8::try_from(twice / 2).expect("column")
                    }
                };
                let p = g.point(col, row).unwrap_or_else(|| {
                    panic!("row {row_number}: column {col} (0-based) is not on the {g} board")
                });
                assert!(
                    cells.iter().all(|&(q, _)| q != p),
                    "row {row_number}: {p:?} drawn twice"
                );
                cells.push((p, cell));
            }
        }
        assert!(rows_seen > 0, "a drawing needs at least one row");
        Drawing { geometry: g, cells }
    }

    /// The stones drawn, with their colours.
    fn stones(&self) -> Vec<(Point, Color)> {
        self.cells
            .iter()
            .filter_map(|&(p, cell)| match cell {
                Cell::Stone { color, new } => {
                    assert!(
                        !new,
                        "a position to start from has no stones of a turn in progress"
                    );
                    Some((p, color))
                }
                _ => None,
            })
            .collect()
    }

    /// The marks, each with its points in increasing order.
    fn marks(&self) -> BTreeMap<char, Vec<Point>> {
        let mut marks: BTreeMap<char, Vec<Point>> = BTreeMap::new();
        for &(p, cell) in &self.cells {
            if let Cell::Mark(m) = cell {
                marks.entry(m).or_default().push(p);
            }
        }
        for points in marks.values_mut() {
            points.sort_unstable();
        }
        marks
    }
}

/// The marked points of a drawing.
#[derive(Debug)]
pub struct Marks(BTreeMap<char, Vec<Point>>);

impl Marks {
    /// The single point marked `m`.
    pub fn one(&self, m: char) -> Point {
        match self.all(m) {
            [p] => *p,
            points => panic!("{} points are marked {m:?}, not one", points.len()),
        }
    }

    /// All points marked `m`, in increasing order.
    pub fn all(&self, m: char) -> &[Point] {
        self.0.get(&m).map_or(&[], Vec::as_slice)
    }
}

/// The position drawn (the window on an otherwise empty board), with `to_move`
/// to move, no passes and no turn in progress, and its marked points.
pub fn position(g: Geometry, to_move: Color, growth: Growth, text: &str) -> (Position, Marks) {
    let drawing = Drawing::parse(g, text);
    let pos = Position::from_parts(
        g,
        &drawing.stones(),
        to_move,
        growth == Growth::Started,
        0,
        None,
    )
    .unwrap_or_else(|e| panic!("the drawing is not a position: {e}"));
    (pos, Marks(drawing.marks()))
}

/// Asserts that every cell of the drawn window is as drawn: `X`/`O` stones
/// from before the turn (or reversed by it), `x`/`o` stones added by the turn
/// in progress, `.` and marks vacant. Points outside the window are not
/// checked.
#[track_caller]
pub fn assert_board(pos: &Position, text: &str) {
    let drawing = Drawing::parse(pos.geometry(), text);
    let g = drawing.geometry;
    for &(p, cell) in &drawing.cells {
        let actual = match pos.stone_at(p) {
            None => Cell::Vacant,
            Some(color) => Cell::Stone {
                color,
                new: pos.is_new_stone(p),
            },
        };
        let expected = match cell {
            Cell::Mark(_) => Cell::Vacant,
            other => other,
        };
        assert_eq!(
            actual,
            expected,
            "at {}; the board is\n{}",
            g.vertex(p),
            pos.diagram()
        );
    }
}

/// The 0-based column of a column letter (A–Z without I).
fn column_of_letter(c: char) -> Option<u8> {
    "ABCDEFGHJKLMNOPQRSTUVWXYZ"
        .chars()
        .position(|l| l == c)
        .map(|i| i as u8)
}
