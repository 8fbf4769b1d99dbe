//! The board as `sygo play` draws it: coordinates on all sides, the hex board
//! as a hexagon, marks for the last turn, the stones it reversed, the turn in
//! progress and its groups, and territory; ANSI colours when asked for.
//!
//! Every cell is two characters: the point's symbol and a mark after it.
//! Everything is told by characters, so a board reads the same in plain text;
//! colour only adds emphasis ([`Paint`]).
//!
//! | symbol | meaning |
//! | --- | --- |
//! | `X` `O` | a Black or White stone |
//! | `x` `o` | on the play board: a stone of the turn in progress; on the score board: territory |
//! | `.` | a vacant point |
//!
//! On an ownership map (`sygo analyze`) the symbol says who is expected to
//! own the point at the end, stone or vacant alike: `X` `O` surely (at least
//! [`SURE`]), `x` `o` likely (at least [`LIKELY`]), `.` unclear; the mark `!`
//! is a stone expected to be reversed (likely owned by the other side).
//!
//! | mark | meaning |
//! | --- | --- |
//! | `*` | a stone of the last turn |
//! | `~` | a stone reversed by the last turn, or by the turn in progress |
//! | `?` | a stone of a group in danger: its opponent can reverse it with one turn (`sygo analyze`) |
//! | `+` `-` `#` | during a turn: a base group of the mover that may still grow, has grown, is frozen by a capture |

use sygo_rules::{Color, Geometry, GroupStatus, Point, Position, Variant, Vertex};

use crate::marks::Marks;
use crate::paint::{Ink, Paint};

/// The ownership from which a point counts as surely a side's: +0.6 or more
/// for Black, −0.6 or less for White (owned in at least 80% of the playouts).
pub const SURE: f32 = 0.6;

/// The ownership from which a point counts as likely a side's: ±0.2 (owned in
/// at least 60% of the playouts).
pub const LIKELY: f32 = 0.2;

/// Who is expected to own a point, and how surely: `X` `x` `.` `o` `O`.
fn owner_symbol(ownership: f32) -> (char, Ink) {
    let color = if ownership > 0.0 {
        Color::Black
    } else {
        Color::White
    };
    let strength = ownership.abs();
    if strength >= SURE {
        (upper(color), Ink::Stone(color))
    } else if strength >= LIKELY {
        (lower(color), Ink::Territory(color))
    } else {
        ('.', Ink::Faint)
    }
}

/// A cell: its symbol, its mark, and how each looks.
struct Cell {
    symbol: char,
    symbol_ink: Ink,
    mark: char,
    mark_ink: Ink,
}

/// Draws boards.
pub struct Renderer<'a> {
    pos: &'a Position,
    marks: &'a Marks,
    paint: Paint,
    /// For each point index: its base group's status, during a turn.
    status: Vec<Option<GroupStatus>>,
}

impl<'a> Renderer<'a> {
    /// A renderer for one drawing of `pos` with `marks`.
    pub fn new(pos: &'a Position, marks: &'a Marks, paint: Paint) -> Renderer<'a> {
        let mut status = vec![None; pos.geometry().index_len()];
        for group in &marks.groups {
            for s in &group.stones {
                status[s.index()] = Some(group.status);
            }
        }
        Renderer {
            pos,
            marks,
            paint,
            status,
        }
    }

    /// The board, several lines each ending in `\n`.
    pub fn board(&self) -> String {
        match self.pos.geometry().variant() {
            Variant::Sygo => self.square(),
            Variant::Hexsygo => self.hexagon(),
        }
    }

    fn cell(&self, p: Point) -> Cell {
        let pos = self.pos;
        if let Some(ownership) = &self.marks.ownership {
            let owned = ownership.get(p.index()).copied().unwrap_or(0.0);
            let (symbol, symbol_ink) = owner_symbol(owned);
            // A stone likely to end as the other side's: it will be reversed.
            let doomed = match pos.stone_at(p) {
                Some(Color::Black) => owned <= -LIKELY,
                Some(Color::White) => owned >= LIKELY,
                None => false,
            };
            let (mark, mark_ink) = if doomed {
                ('!', Ink::Alert)
            } else {
                (' ', Ink::Plain)
            };
            return Cell {
                symbol,
                symbol_ink,
                mark,
                mark_ink,
            };
        }
        let (symbol, symbol_ink) = match pos.stone_at(p) {
            Some(color) if pos.is_new_stone(p) => (lower(color), Ink::Pending(color)),
            Some(color) => (upper(color), Ink::Stone(color)),
            None => match self.marks.territory.as_ref().and_then(|t| t.owner_of(p)) {
                Some(owner) => (lower(owner), Ink::Territory(owner)),
                None => ('.', Ink::Faint),
            },
        };
        let (mark, mark_ink) = if self.marks.reversed.contains(&p) {
            ('~', Ink::Alert)
        } else if self.marks.danger.contains(&p) {
            ('?', Ink::Alert)
        } else if self.marks.last_turn.contains(&p) {
            ('*', Ink::Alert)
        } else {
            match self.status[p.index()] {
                Some(GroupStatus::Fresh) => ('+', Ink::Go),
                Some(GroupStatus::Grown) => ('-', Ink::Faint),
                Some(GroupStatus::Frozen) => ('#', Ink::Faint),
                None => (' ', Ink::Plain),
            }
        };
        Cell {
            symbol,
            symbol_ink,
            mark,
            mark_ink,
        }
    }

    /// Appends a cell: its symbol and its mark.
    fn put_cell(&self, out: &mut String, p: Point) {
        let cell = self.cell(p);
        self.paint
            .put(out, cell.symbol.encode_utf8(&mut [0; 4]), cell.symbol_ink);
        self.paint
            .put(out, cell.mark.encode_utf8(&mut [0; 4]), cell.mark_ink);
    }

    fn label(&self, out: &mut String, text: &str) {
        self.paint.put(out, text, Ink::Faint);
    }

    /// The square board: letters above and below, numbers left and right.
    fn square(&self) -> String {
        let g = self.pos.geometry();
        let n = g.side();
        let mut letters = String::from("    ");
        for col in 0..n {
            letters.push(Vertex::column_letter(col).unwrap_or('?'));
            letters.push(' ');
        }
        let letters = letters.trim_end().to_string();
        let mut out = String::new();
        self.label(&mut out, &letters);
        out.push('\n');
        for row in (0..n).rev() {
            let number = u32::from(row) + 1;
            self.label(&mut out, &format!("{number:>3}"));
            out.push(' ');
            for col in 0..n {
                self.put_cell(&mut out, g.point(col, row).expect("square boards are full"));
            }
            out.push(' ');
            self.label(&mut out, &number.to_string());
            out.push('\n');
        }
        self.label(&mut out, &letters);
        out.push('\n');
        out
    }

    /// The hexagon, rows horizontal, cell (c, r) at x = c − r/2 (docs/rules.md §1):
    /// row numbers at both ends of each row, the letters of the columns that
    /// reach the bottom row below it and of those that reach the top row above
    /// it. A column runs up and to the left.
    fn hexagon(&self) -> String {
        let g = self.pos.geometry();
        let s = g.side();
        let n = usize::from(g.size());
        // Text column of cell (c, r) after the 4-character row label.
        let x = |c: u8, r: u8| 2 * usize::from(c) + n - 1 - usize::from(r);
        let letters = |r: u8| {
            let mut line = vec![' '; 4 + x(s - 1, 0) + 1];
            for c in (0..s).filter(|&c| g.contains(c, r)) {
                line[4 + x(c, r)] = Vertex::column_letter(c).unwrap_or('?');
            }
            line.into_iter().collect::<String>().trim_end().to_string()
        };
        let mut out = String::new();
        self.label(&mut out, &letters(s - 1));
        out.push('\n');
        for r in (0..s).rev() {
            let number = u32::from(r) + 1;
            self.label(&mut out, &format!("{number:>3}"));
            out.push(' ');
            let mut cells = (0..s).filter(|&c| g.contains(c, r)).peekable();
            let first = *cells.peek().expect("every row has a cell");
            out.push_str(&" ".repeat(x(first, r)));
            for c in cells {
                self.put_cell(&mut out, g.point(c, r).expect("the cell exists"));
            }
            out.push(' ');
            self.label(&mut out, &number.to_string());
            out.push('\n');
        }
        self.label(&mut out, &letters(0));
        out.push('\n');
        out
    }
}

/// The upper-case symbol of a colour's stones.
fn upper(color: Color) -> char {
    match color {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

/// The lower-case symbol: a stone of the turn in progress, or territory.
fn lower(color: Color) -> char {
    upper(color).to_ascii_lowercase()
}

/// The symbol of a colour, for text around the board: `X` or `O`.
pub fn symbol(color: Color) -> char {
    upper(color)
}

/// The name of the board for headings: `Sygo 9×9` or `Hexsygo base 5`.
pub fn board_name(g: Geometry) -> String {
    match g.variant() {
        Variant::Sygo => format!("Sygo {0}x{0}", g.size()),
        Variant::Hexsygo => format!("Hexsygo, base {}", g.size()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain() -> Paint {
        Paint { color: false }
    }

    #[test]
    fn the_square_board_has_coordinates_on_all_sides() {
        let pos: Position = "sygo 5 5/5/2W2/5/1B3 b - 0".parse().unwrap();
        let g = pos.geometry();
        let marks = Marks {
            last_turn: vec![g.parse_point("C3").unwrap()],
            ..Marks::default()
        };
        let board = Renderer::new(&pos, &marks, plain()).board();
        assert_eq!(
            board,
            "    A B C D E\n  \
               5 . . . . .  5\n  \
               4 . . . . .  4\n  \
               3 . . O*. .  3\n  \
               2 . . . . .  2\n  \
               1 . X . . .  1\n    \
                 A B C D E\n"
        );
    }

    #[test]
    fn the_hex_board_is_a_hexagon() {
        let pos = Position::new(Geometry::hexsygo(3).unwrap());
        let board = Renderer::new(&pos, &Marks::default(), plain()).board();
        assert_eq!(
            board,
            "      C D E\n  \
               5   . . .  5\n  \
               4  . . . .  4\n  \
               3 . . . . .  3\n  \
               2  . . . .  2\n  \
               1   . . .  1\n      \
                 A B C\n"
        );
    }

    #[test]
    fn colour_is_only_emphasis() {
        let pos: Position = "sygo 3 3/1W1/3 b - 0".parse().unwrap();
        let marks = Marks::default();
        let coloured = Renderer::new(&pos, &marks, Paint { color: true }).board();
        assert!(coloured.contains("\x1b[1;31mO\x1b[0m"));
        let stripped: String = strip_ansi(&coloured);
        assert_eq!(stripped, Renderer::new(&pos, &marks, plain()).board());
    }

    #[test]
    fn an_ownership_map_shows_owners_and_doomed_stones() {
        // Black A1, White B1 and C1 on a 3x3 board.
        let pos: Position = "sygo 3 3/3/BWW b - 0".parse().unwrap();
        let g = pos.geometry();
        let mut ownership = vec![0.0; g.index_len()];
        for (name, owned) in [
            ("A1", -0.9), // Black's stone, surely White's at the end
            ("B1", -0.7),
            ("C1", 0.3), // White's stone, likely Black's
            ("A3", 0.65),
            ("B3", 0.1),
            ("C3", -0.25),
        ] {
            ownership[g.parse_point(name).unwrap().index()] = owned;
        }
        let marks = Marks {
            ownership: Some(ownership),
            ..Marks::default()
        };
        let board = Renderer::new(&pos, &marks, plain()).board();
        assert_eq!(
            board,
            "    A B C\n  \
               3 X . o  3\n  \
               2 . . .  2\n  \
               1 O!O x! 1\n    \
                 A B C\n"
        );
    }

    /// The text without its escape sequences.
    fn strip_ansi(text: &str) -> String {
        let mut out = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for d in chars.by_ref() {
                    if d == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }
}
