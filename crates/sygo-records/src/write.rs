//! Writing a record as SGF text: the root on the first line, then one line
//! per node, a variation opening a line with `(`; no empty line anywhere
//! (a comment's own empty lines aside), so that the protocol can send it as a
//! multi-line answer.

use sygo_rules::{Color, Position};

use crate::point::point_to_sgf;
use crate::record::{GAME_NUMBER, Record};
use crate::tree::{Node, Tree};

impl Record {
    /// Writes the record as SGF text (`docs/records.md`), ending with a
    /// newline. [`Record::parse`] reads it back equal.
    pub fn to_sgf(&self) -> String {
        write(self)
    }
}

/// The SGF text of a record (see [`Record::to_sgf`]).
fn write(record: &Record) -> String {
    let start = record.start();
    let g = start.geometry();
    let info = record.info();
    let mut root = format!(
        "FF[4]GM[{GAME_NUMBER}]CA[UTF-8]VR[{}]SZ[{}]KM[{}]",
        g.variant(),
        g.size(),
        info.komi
    );
    for (identifier, value) in [
        ("PB", &info.black),
        ("PW", &info.white),
        ("DT", &info.date),
        ("RE", &info.result),
    ] {
        if let Some(value) = value {
            property(&mut root, identifier, [value.as_str()]);
        }
    }
    root.push_str(&setup(start));

    let mut out = String::from("(");
    write_tree(&mut out, record.tree(), start, Some(&root));
    out.pop(); // the last node's newline: the tree closes on its line
    out.push_str(")\n");
    out
}

/// The setup of the start: `AB`, `AW`, `PL` when there are stones or Black
/// is to move, `GS[1]` once a growth turn has been played.
fn setup(start: &Position) -> String {
    let g = start.geometry();
    let mut out = String::new();
    let mut any = false;
    for (identifier, color) in [("AB", Color::Black), ("AW", Color::White)] {
        let mut points: Vec<String> = start
            .stones()
            .filter(|&(_, c)| c == color)
            .map(|(p, _)| point_to_sgf(&g, p))
            .collect();
        if !points.is_empty() {
            points.sort();
            property(&mut out, identifier, points.iter().map(String::as_str));
            any = true;
        }
    }
    if any || start.side_to_move() == Color::Black {
        property(
            &mut out,
            "PL",
            [&start.side_to_move().letter().to_string()[..]],
        );
    }
    if start.growth_started() {
        out.push_str("GS[1]");
    }
    out
}

/// Writes a sequence and its variations; `root` holds the root's own
/// properties when the sequence starts with the root node.
fn write_tree(out: &mut String, tree: &Tree, start: &Position, mut root: Option<&str>) {
    for node in &tree.nodes {
        out.push(';');
        if let Some(root) = root.take() {
            out.push_str(root);
        }
        write_node(out, node, start);
        out.push('\n');
    }
    for variation in &tree.variations {
        out.push('(');
        write_tree(out, variation, start, None);
        out.pop();
        out.push_str(")\n");
    }
}

/// A node's turn, its kept properties, then its comment.
fn write_node(out: &mut String, node: &Node, start: &Position) {
    let g = start.geometry();
    if let Some(play) = &node.play {
        let identifier = play.color.letter().to_string();
        if play.stones.is_empty() {
            property(out, &identifier, [""]);
        } else {
            let points: Vec<String> = play.stones.iter().map(|&p| point_to_sgf(&g, p)).collect();
            property(out, &identifier, points.iter().map(String::as_str));
        }
    }
    for kept in &node.properties {
        property(
            out,
            &kept.identifier,
            kept.values.iter().map(String::as_str),
        );
    }
    if let Some(comment) = &node.comment {
        property(out, "C", [comment.as_str()]);
    }
}

/// Writes `ID[v1][v2]`, each value escaped (`\` and `]`); `ID[]` if there
/// is no value.
fn property<'a>(out: &mut String, identifier: &str, values: impl IntoIterator<Item = &'a str>) {
    out.push_str(identifier);
    let mut values = values.into_iter().peekable();
    if values.peek().is_none() {
        out.push_str("[]");
    }
    for value in values {
        out.push('[');
        for c in value.chars() {
            if c == '\\' || c == ']' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push(']');
    }
}
