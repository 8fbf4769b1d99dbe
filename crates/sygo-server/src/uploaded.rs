//! What an uploaded record holds beyond its main line: the game's
//! information, the comments of the main line by turn, the turns that have
//! variations ([`RecordInfo`], in the game's JSON). The whole tree and the
//! position at any node are written by `record_view.rs`.
//!
//! Every text of a record (names, comments, …) goes out as a JSON string
//! and nothing else: the page shows it as text.

use serde::Serialize;
use sygo_records::Record;

/// An uploaded record, read once (at its game's first look) and kept.
pub(crate) struct Uploaded {
    /// The record as uploaded.
    pub record: Record,
    /// What the game's JSON says of it.
    pub info: RecordInfo,
}

impl Uploaded {
    /// The record of an upload's text; `None` if it cannot be read (a
    /// stored upload was read when it came, so this is not expected).
    pub(crate) fn read(text: &str) -> Option<Uploaded> {
        let record = Record::parse(text).ok()?;
        let info = RecordInfo::of(&record);
        Some(Uploaded { record, info })
    }
}

/// A comment of the main line: the turn it follows (0 for the root).
#[derive(Serialize)]
pub(crate) struct TurnComment {
    turn: usize,
    comment: String,
}

/// What an uploaded record holds beyond its main line.
#[derive(Serialize)]
pub(crate) struct RecordInfo {
    /// `PB`, `PW`.
    black: Option<String>,
    white: Option<String>,
    /// `GN`, `EV`, `PC`, `DT`, `RE`.
    game_name: Option<String>,
    event: Option<String>,
    place: Option<String>,
    date: Option<String>,
    result: Option<String>,
    /// The comments of the root and of the main line's nodes, by the number
    /// of turns played there (several nodes of one turn joined by a blank
    /// line).
    comments: Vec<TurnComment>,
    /// The main line's turns that the record gives alternatives to.
    variations: Vec<usize>,
    /// Number of nodes in the tree.
    nodes: usize,
}

impl RecordInfo {
    fn of(record: &Record) -> RecordInfo {
        let info = record.info();
        let root = record.tree().nodes.first();
        let property = |id: &str| {
            root.and_then(|node| {
                node.properties
                    .iter()
                    .find(|p| p.identifier == id)
                    .map(|p| p.values.join(", "))
            })
        };
        let mut comments: Vec<TurnComment> = Vec::new();
        let mut variations = Vec::new();
        let mut main = Vec::new();
        let mut children = Vec::new();
        record.visit(|v| {
            if let Some(parent) = v.parent {
                children[parent] += 1;
            }
            children.push(0usize);
            if v.path.is_main_line() {
                main.push((v.number, v.turns));
                if let Some(comment) = v.node.comment.clone() {
                    match comments.last_mut() {
                        Some(last) if last.turn == v.turns => {
                            last.comment.push_str("\n\n");
                            last.comment.push_str(&comment);
                        }
                        _ => comments.push(TurnComment {
                            turn: v.turns,
                            comment,
                        }),
                    }
                }
            }
        });
        for &(number, turns) in &main {
            if children[number] > 1 {
                variations.push(turns + 1);
            }
        }
        RecordInfo {
            black: info.black.clone(),
            white: info.white.clone(),
            game_name: property("GN"),
            event: property("EV"),
            place: property("PC"),
            date: info.date.clone(),
            result: info.result.clone(),
            comments,
            variations,
            nodes: children.len(),
        }
    }
}
