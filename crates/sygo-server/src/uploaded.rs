//! What an uploaded record holds beyond its main line: the game's
//! information, the comments of the main line by turn, the turns that have
//! variations ([`RecordInfo`], in the game's JSON). The whole tree and the
//! position at any node are written by `record_view.rs`.
//!
//! Every text of a record (names, comments, …) goes out as a JSON string
//! and nothing else: the page shows it as text.

use serde::Serialize;
use sygo_records::{NodePath, PathError, Record};

/// The most nodes an upload may hold (`POST /api/records`): ten thousand,
/// dozens of times a long game with its variations. Every answer about a
/// record is linear in its nodes.
pub(crate) const MAX_UPLOAD_NODES: usize = 10_000;

/// How many uploaded games stay in memory (those looked at last): the
/// others are read from the database again when asked for. An upload is
/// at most [`MAX_UPLOAD_NODES`] nodes and `config::BODY_LIMIT` bytes, so
/// what uploads hold is bounded however many there are.
pub(crate) const KEPT_UPLOADS: usize = 32;

/// The uploaded games in memory, by id, the one looked at longest ago
/// first ([`crate::games::Games`] holds them).
#[derive(Default)]
pub(crate) struct KeptUploads {
    order: std::collections::VecDeque<String>,
}

impl KeptUploads {
    /// The game `id` was looked at (or added): it goes last.
    pub(crate) fn looked_at(&mut self, id: &str) {
        if self.order.back().is_some_and(|last| last == id) {
            return;
        }
        // At most `KEPT_UPLOADS` and a few watched ones: a short search.
        self.order.retain(|kept| kept != id);
        self.order.push_back(id.to_string());
    }

    /// The games to let go of, looked at longest ago first, so that at most
    /// [`KEPT_UPLOADS`] stay besides those `watched` (a live stream follows
    /// them: they stay, and do not count).
    pub(crate) fn let_go(&mut self, watched: impl Fn(&str) -> bool) -> Vec<String> {
        let watched: Vec<bool> = self.order.iter().map(|id| watched(id)).collect();
        let unwatched = watched.iter().filter(|&&w| !w).count();
        let mut over = unwatched.saturating_sub(KEPT_UPLOADS);
        let mut gone = Vec::new();
        let mut i = 0;
        self.order.retain(|id| {
            let keep = watched[i] || over == 0;
            i += 1;
            if !keep {
                over -= 1;
                gone.push(id.clone());
            }
            keep
        });
        gone
    }

    /// Number of uploaded games in memory.
    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }
}

/// How many uploads are read at once, each on a blocking thread: the
/// request threads never parse, and a flood of uploads waits on none.
pub(crate) const READERS: usize = 2;

/// A node's place in the tree: its parent, its place among the parent's
/// children, its own children (all by number, in the order written).
pub(crate) struct Place {
    pub parent: Option<usize>,
    pub child: usize,
    pub children: Vec<usize>,
}

/// An uploaded record, read once (when it came, or when its game is read
/// from the database again) and kept while its game is in memory.
pub(crate) struct Uploaded {
    /// The record as uploaded.
    pub record: Record,
    /// What the game's JSON says of it.
    pub info: RecordInfo,
    /// Every node's place, by number: a node is found by its number or its
    /// path without walking the record.
    pub places: Vec<Place>,
}

impl Uploaded {
    /// The record of an upload's text; `None` if it cannot be read (a
    /// stored upload was read when it came, so this is not expected).
    pub(crate) fn read(text: &str) -> Option<Uploaded> {
        Record::parse(text).ok().map(Uploaded::of)
    }

    /// What is kept of a record, from one visit of its nodes.
    pub(crate) fn of(record: Record) -> Uploaded {
        let mut places: Vec<Place> = Vec::new();
        // The main line's nodes (number, turns played there), and its
        // comments by turn (several nodes of one turn joined).
        let mut main = Vec::new();
        let mut comments: Vec<TurnComment> = Vec::new();
        record.visit(|v| {
            if let Some(parent) = v.parent {
                places[parent].children.push(v.number);
            }
            places.push(Place {
                parent: v.parent,
                child: v.child,
                children: Vec::new(),
            });
            if !v.main_line {
                return;
            }
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
        });
        // The main line's turns that the record gives alternatives to.
        let variations = main
            .iter()
            .filter(|&&(number, _)| places[number].children.len() > 1)
            .map(|&(_, turns)| turns + 1)
            .collect();
        let info = RecordInfo::of(&record, comments, variations, places.len());
        Uploaded {
            record,
            info,
            places,
        }
    }

    /// The path of node `number` (its parents' places from the root), if
    /// the record has that node.
    pub(crate) fn path_of(&self, number: usize) -> Option<NodePath> {
        let mut children = Vec::new();
        let mut at = self.places.get(number)?;
        while let Some(parent) = at.parent {
            children.push(at.child);
            at = &self.places[parent];
        }
        children.reverse();
        Some(NodePath::new(children))
    }

    /// The number of the node at `path`.
    ///
    /// # Errors
    ///
    /// As [`sygo_records::Tree::walk`]: a node on the way has no such child.
    pub(crate) fn number_at(&self, path: &NodePath) -> Result<usize, PathError> {
        if self.places.is_empty() {
            return Err(PathError::EmptyTree);
        }
        let mut number = 0;
        for (depth, &child) in path.children().iter().enumerate() {
            let children = &self.places[number].children;
            number = *children.get(child).ok_or(PathError::NoChild {
                depth,
                child,
                children: children.len(),
            })?;
        }
        Ok(number)
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
    fn of(
        record: &Record,
        comments: Vec<TurnComment>,
        variations: Vec<usize>,
        nodes: usize,
    ) -> RecordInfo {
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
            nodes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uploads_looked_at_longest_ago_and_unwatched_are_let_go() {
        let mut kept = KeptUploads::default();
        for i in 0..KEPT_UPLOADS + 3 {
            kept.looked_at(&format!("{i:08x}"));
        }
        // The first is looked at again: the next three go, but the second
        // is watched: it stays, beside as many others.
        kept.looked_at("00000000");
        let gone = kept.let_go(|id| id == "00000001");
        assert_eq!(gone, ["00000002", "00000003"]);
        assert_eq!(kept.len(), KEPT_UPLOADS + 1);
        // Watched no more, it counts: the one looked at longest ago goes.
        assert_eq!(kept.let_go(|_| false), ["00000001"]);
        assert_eq!(kept.len(), KEPT_UPLOADS);
    }
}
