//! A plain-text drawing of a position, for the protocol's `showboard` and for
//! debugging: `X` Black, `O` White, `.` vacant; stones added by the turn in
//! progress in lower case.
//!
//! The square board has coordinates on all four sides. The hex board is drawn
//! as a hexagon with rows horizontal, each cell at x = c − r/2 (docs/rules.md §1):
//! row numbers on both sides, the column letters of the bottom row below it
//! and of the top row above it (every column reaches one of the two).

use crate::color::Color;
use crate::coord::Vertex;
use crate::geometry::{Point, Variant};
use crate::position::Position;

impl Position {
    /// The board drawn in plain text, several lines, each ending in `\n`.
    pub fn diagram(&self) -> String {
        match self.geometry().variant() {
            Variant::Sygo => self.square_diagram(),
            Variant::Hexsygo => self.hex_diagram(),
        }
    }

    fn symbol(&self, p: Point) -> char {
        let new = self.is_new_stone(p);
        match (self.stone_at(p), new) {
            (Some(Color::Black), false) => 'X',
            (Some(Color::Black), true) => 'x',
            (Some(Color::White), false) => 'O',
            (Some(Color::White), true) => 'o',
            (None, _) => '.',
        }
    }

    fn square_diagram(&self) -> String {
        let g = self.geometry();
        let n = g.side();
        let letters: String = (0..n)
            .map(|c| format!(" {}", Vertex::column_letter(c).unwrap_or('?')))
            .collect();
        let mut out = format!("   {letters}\n");
        for row in (0..n).rev() {
            out.push_str(&format!("{:>3}", u32::from(row) + 1));
            for col in 0..n {
                let p = g.point(col, row).expect("square boards are full");
                out.push(' ');
                out.push(self.symbol(p));
            }
            out.push_str(&format!(" {}\n", u32::from(row) + 1));
        }
        out.push_str(&format!("   {letters}\n"));
        out
    }

    fn hex_diagram(&self) -> String {
        let g = self.geometry();
        let s = i32::from(g.side());
        let n = i32::from(g.size());
        // Cell (c, r) is drawn at text column 2c − r + (n − 1) (two characters
        // per cell), after a 4-character row label.
        let x = |c: i32, r: i32| (2 * c - r + (n - 1)) as usize;
        let label_line = |r: i32| {
            let mut line = vec![b' '; 4 + x(s - 1, 0) + 2];
            for c in 0..s {
                if g.contains(c as u8, r as u8) {
                    line[4 + x(c, r)] = Vertex::column_letter(c as u8).unwrap_or('?') as u8;
                }
            }
            String::from_utf8(line)
                .expect("ASCII")
                .trim_end()
                .to_string()
                + "\n"
        };
        let mut out = label_line(s - 1);
        for r in (0..s).rev() {
            let mut line = format!("{:>3} ", r + 1);
            let cells: Vec<i32> = (0..s).filter(|&c| g.contains(c as u8, r as u8)).collect();
            let first = cells[0];
            line.push_str(&" ".repeat(x(first, r)));
            let row: Vec<String> = cells
                .iter()
                .map(|&c| {
                    let p = g.point(c as u8, r as u8).expect("cell exists");
                    self.symbol(p).to_string()
                })
                .collect();
            line.push_str(&row.join(" "));
            line.push_str(&format!(" {}\n", r + 1));
            out.push_str(&line);
        }
        out.push_str(&label_line(0));
        out
    }
}
