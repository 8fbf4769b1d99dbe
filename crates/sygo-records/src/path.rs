//! Where a node is in a record's tree, and the walks to it.
//!
//! A [`NodePath`] names a node by the child taken at every node from the
//! root: `""` is the root, `"0.0.1"` the root's first child, its first
//! child, then that node's second child. Inside a sequence a node has one
//! child (the next node); the last node of a sequence has one child per
//! variation, the main line first. So the main line's nodes are the paths
//! of zeros, and an alternative to the main line's turn begins with a 1 or
//! more.
//!
//! [`Tree::walk`] follows a path; [`Record::game_at`] replays the turns on
//! the way; [`Record::visit`] visits every node in the order written, with
//! the position before its turn. None of them recurses: a long game is one
//! sequence, and a deep tree of variations needs no deep stack.

use std::fmt;
use std::str::FromStr;

use sygo_rules::{Game, Position};

use crate::record::Record;
use crate::tree::{Node, Tree};

/// A node's place in a tree: the child taken at each node from the root.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NodePath(Vec<usize>);

impl NodePath {
    /// The root's path (empty).
    pub fn root() -> NodePath {
        NodePath(Vec::new())
    }

    /// A path from the child taken at each node.
    pub fn new(children: Vec<usize>) -> NodePath {
        NodePath(children)
    }

    /// The child taken at each node from the root.
    pub fn children(&self) -> &[usize] {
        &self.0
    }

    /// The path of this node's `child`-th child.
    pub fn child(&self, child: usize) -> NodePath {
        let mut path = self.0.clone();
        path.push(child);
        NodePath(path)
    }

    /// The parent's path, or `None` for the root.
    pub fn parent(&self) -> Option<NodePath> {
        let (_, parent) = self.0.split_last()?;
        Some(NodePath(parent.to_vec()))
    }

    /// Whether this node is on the main line (every child taken the first).
    pub fn is_main_line(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }
}

impl fmt::Display for NodePath {
    /// `0.0.1`; the root is the empty string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, child) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{child}")?;
        }
        Ok(())
    }
}

impl FromStr for NodePath {
    type Err = PathError;

    /// Reads `0.0.1` (the empty string is the root).
    ///
    /// # Errors
    ///
    /// [`PathError::Syntax`] for anything but numbers separated by dots.
    fn from_str(text: &str) -> Result<NodePath, PathError> {
        if text.is_empty() {
            return Ok(NodePath::root());
        }
        text.split('.')
            .map(|part| {
                if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(PathError::Syntax {
                        part: part.to_string(),
                    });
                }
                part.parse::<usize>().map_err(|_| PathError::Syntax {
                    part: part.to_string(),
                })
            })
            .collect::<Result<Vec<usize>, PathError>>()
            .map(NodePath)
    }
}

/// Why a path names no node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathError {
    /// A part of the path is not a child's number.
    Syntax {
        /// The part, as written.
        part: String,
    },
    /// A node has fewer children than the path says.
    NoChild {
        /// How many steps of the path lead to that node.
        depth: usize,
        /// The child asked for.
        child: usize,
        /// How many children the node has.
        children: usize,
    },
    /// The tree has no node at all.
    EmptyTree,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::Syntax { part } => write!(
                f,
                "{part:?} is not a child's number: a path is numbers separated by dots, \
                 such as 0.0.1 (the empty path is the root)"
            ),
            PathError::NoChild {
                depth,
                child,
                children,
            } => {
                let has = match children {
                    0 => "has no child".to_string(),
                    1 => "has 1 child (number 0)".to_string(),
                    n => format!("has {n} children (numbers 0 to {})", n - 1),
                };
                write!(
                    f,
                    "the node after {depth} step{} {has}, so there is no child {child}",
                    if *depth == 1 { "" } else { "s" }
                )
            }
            PathError::EmptyTree => f.write_str("the tree has no node"),
        }
    }
}

impl std::error::Error for PathError {}

/// A node of a tree as a place: its sequence and its index in it.
#[derive(Clone, Copy)]
struct Cursor<'a> {
    tree: &'a Tree,
    index: usize,
}

impl<'a> Cursor<'a> {
    /// The first node of a sequence, if it has one.
    fn first(tree: &'a Tree) -> Option<Cursor<'a>> {
        (!tree.nodes.is_empty()).then_some(Cursor { tree, index: 0 })
    }

    fn node(self) -> &'a Node {
        &self.tree.nodes[self.index]
    }

    /// The children: the next node of the sequence, or the first node of
    /// each variation.
    fn children(self) -> Vec<Cursor<'a>> {
        if self.index + 1 < self.tree.nodes.len() {
            vec![Cursor {
                tree: self.tree,
                index: self.index + 1,
            }]
        } else {
            self.tree
                .variations
                .iter()
                .filter_map(Cursor::first)
                .collect()
        }
    }
}

impl Tree {
    /// The nodes from the root to the node at `path`, the root first and
    /// that node last.
    ///
    /// # Errors
    ///
    /// [`PathError::NoChild`] when a node on the way has no such child,
    /// [`PathError::EmptyTree`] for a tree without a node.
    ///
    /// # Examples
    ///
    /// ```
    /// use sygo_records::{NodePath, Record};
    /// let record = Record::parse(
    ///     "(;FF[4]GM[400]VR[sygo]SZ[5];W[cc]C[main](;B[aa])(;B[ee]C[alternative]))",
    /// )
    /// .unwrap();
    /// let path: NodePath = "0.1".parse().unwrap();
    /// let nodes = record.tree().walk(&path).unwrap();
    /// assert_eq!(nodes.len(), 3);
    /// assert_eq!(nodes[2].comment.as_deref(), Some("alternative"));
    /// assert!(record.tree().walk(&"0.2".parse().unwrap()).is_err());
    /// ```
    pub fn walk(&self, path: &NodePath) -> Result<Vec<&Node>, PathError> {
        self.follow(path).map(|(_, nodes)| nodes)
    }

    /// The node at `path` as a place, and the nodes from the root to it.
    fn follow(&self, path: &NodePath) -> Result<(Cursor<'_>, Vec<&Node>), PathError> {
        let mut cursor = Cursor::first(self).ok_or(PathError::EmptyTree)?;
        let mut nodes = vec![cursor.node()];
        for (depth, &child) in path.children().iter().enumerate() {
            let children = cursor.children();
            cursor = *children.get(child).ok_or(PathError::NoChild {
                depth,
                child,
                children: children.len(),
            })?;
            nodes.push(cursor.node());
        }
        Ok((cursor, nodes))
    }

    /// The children of the node at `path`, in order (the main line first).
    ///
    /// # Errors
    ///
    /// As [`Tree::walk`].
    pub fn children_at(&self, path: &NodePath) -> Result<Vec<&Node>, PathError> {
        let (cursor, _) = self.follow(path)?;
        Ok(cursor.children().into_iter().map(Cursor::node).collect())
    }
}

/// A node as [`Record::visit`] shows it.
pub struct Visit<'a> {
    /// Its number in the order written (the root is 0), as error messages
    /// count nodes.
    pub number: usize,
    /// The number of its parent, `None` for the root.
    pub parent: Option<usize>,
    /// Which of its parent's children it is (0 for the root, and for a
    /// node that follows another in a sequence): the last part of its path.
    pub child: usize,
    /// Whether it is on the main line (every child on the way the first).
    pub main_line: bool,
    /// The node.
    pub node: &'a Node,
    /// The turns played on the way to it, its own included.
    pub turns: usize,
    /// The position before its turn (after it, for a node without a turn).
    pub before: &'a Position,
}

impl Record {
    /// The game along the path: the start, then the turn of every node on
    /// the way (a resignation, which no node holds, is not part of it); and
    /// the nodes from the root to the one at `path`.
    ///
    /// # Errors
    ///
    /// As [`Tree::walk`].
    pub fn game_at(&self, path: &NodePath) -> Result<(Game, Vec<&Node>), PathError> {
        let nodes = self.tree().walk(path)?;
        let mut game = Game::new(self.start().clone());
        for node in &nodes {
            if let Some(play) = &node.play {
                game.play(play.turn())
                    .expect("every turn of a record is legal");
            }
        }
        Ok((game, nodes))
    }

    /// Calls `f` for every node of the tree in the order written (the root
    /// first, then each sequence and its variations, the main line first),
    /// with its number, parent, place among its parent's children and the
    /// position before its turn.
    ///
    /// Its work is linear in the nodes: no path is built (a node's path is
    /// its parents' `child` from the root), and one position is kept a
    /// level of nesting, not one a variation waiting.
    pub fn visit(&self, mut f: impl FnMut(Visit<'_>)) {
        /// Where a sequence hangs: its parent's number and the place among
        /// the parent's children, whether it starts on the main line, the
        /// position and the turns before it.
        struct Start {
            parent: Option<usize>,
            child: usize,
            main_line: bool,
            turns: usize,
        }
        let mut number = 0;
        // Visits one sequence; gives the position and the turns at its end.
        let mut sequence = |tree: &Tree, start: Start, mut position: Position| {
            let Start {
                mut parent,
                mut child,
                main_line,
                mut turns,
            } = start;
            for node in &tree.nodes {
                let mut after = position.clone();
                if let Some(play) = &node.play {
                    turns += 1;
                    after
                        .play_turn(&play.turn())
                        .expect("every turn of a record is legal");
                }
                f(Visit {
                    number,
                    parent,
                    child,
                    main_line,
                    node,
                    turns,
                    before: if node.play.is_some() {
                        &position
                    } else {
                        &after
                    },
                });
                parent = Some(number);
                child = 0;
                number += 1;
                position = after;
            }
            (parent, position, turns)
        };
        let tree = self.tree();
        if tree.nodes.is_empty() {
            return;
        }
        let root = Start {
            parent: None,
            child: 0,
            main_line: true,
            turns: 0,
        };
        let (last, position, turns) = sequence(tree, root, self.start().clone());
        // The forks on the way: the variations (those without a node are
        // no children, as `Cursor::children` has it), the next one and its
        // place among the children, the fork's node, whether it is on the
        // main line, the position and turns there.
        let mut forks = vec![(tree.variations.iter(), 0, last, true, position, turns)];
        while let Some((variations, child, parent, main_line, position, turns)) = forks.last_mut() {
            let Some(variation) = variations.find(|v| !v.nodes.is_empty()) else {
                forks.pop();
                continue;
            };
            let start = Start {
                parent: *parent,
                child: *child,
                main_line: *main_line && *child == 0,
                turns: *turns,
            };
            *child += 1;
            let on_main_line = start.main_line;
            let (last, after, turns) = sequence(variation, start, position.clone());
            if !variation.variations.is_empty() {
                forks.push((
                    variation.variations.iter(),
                    0,
                    last,
                    on_main_line,
                    after,
                    turns,
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sygo_rules::Turn;

    const RECORD: &str = "(;FF[4]GM[400]VR[sygo]SZ[5]C[root];W[cc]C[one]\
        (;B[aa]C[main];W[dc](;B[ee])(;B[ea]C[late alternative]))\
        (;B[ee]C[alternative];W[]))";

    fn record() -> Record {
        Record::parse(RECORD).unwrap()
    }

    fn path(text: &str) -> NodePath {
        text.parse().unwrap()
    }

    #[test]
    fn paths_are_read_and_written() {
        assert_eq!(path(""), NodePath::root());
        assert_eq!(path("0.10.2").children(), [0, 10, 2]);
        assert_eq!(path("0.10.2").to_string(), "0.10.2");
        assert_eq!(path("0.1").parent(), Some(path("0")));
        assert_eq!(NodePath::root().parent(), None);
        assert!(path("0.0").is_main_line() && !path("0.1").is_main_line());
        for bad in [
            ".",
            "0.",
            ".0",
            "a",
            "0..1",
            "-1",
            "0 1",
            "1e3",
            "99999999999999999999999",
        ] {
            assert!(
                matches!(bad.parse::<NodePath>(), Err(PathError::Syntax { .. })),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn walks_follow_the_children() {
        let record = record();
        let tree = record.tree();
        let comments = |p: &str| -> Vec<Option<String>> {
            tree.walk(&path(p))
                .unwrap()
                .iter()
                .map(|n| n.comment.clone())
                .collect()
        };
        assert_eq!(comments(""), [Some("root".to_string())]);
        assert_eq!(comments("0.0").last().unwrap().as_deref(), Some("main"));
        assert_eq!(
            comments("0.1").last().unwrap().as_deref(),
            Some("alternative")
        );
        assert_eq!(
            comments("0.0.0.1").last().unwrap().as_deref(),
            Some("late alternative")
        );
        assert_eq!(tree.children_at(&path("0")).unwrap().len(), 2);
        assert_eq!(tree.children_at(&path("0.0")).unwrap().len(), 1);
        assert_eq!(tree.children_at(&path("0.1.0")).unwrap().len(), 0);
        assert_eq!(
            tree.walk(&path("0.2")).unwrap_err(),
            PathError::NoChild {
                depth: 1,
                child: 2,
                children: 2
            }
        );
        assert_eq!(
            tree.walk(&path("0.1.0.0")).unwrap_err().to_string(),
            "the node after 3 steps has no child, so there is no child 0"
        );
        assert_eq!(
            Tree::default().walk(&NodePath::root()),
            Err(PathError::EmptyTree)
        );
    }

    #[test]
    fn games_along_paths() {
        let record = record();
        let (game, nodes) = record.game_at(&path("0.1.0")).unwrap();
        let g = game.position().geometry();
        let turns: Vec<String> = game.turns().iter().map(|t| t.to_notation(&g)).collect();
        assert_eq!(turns, ["C3", "E1", "pass"]);
        assert_eq!(game.turns()[2], Turn::Pass);
        assert_eq!(nodes.len(), 4);
        let (main, _) = record.game_at(&path("0.0.0.0")).unwrap();
        assert_eq!(main.position(), record.main_line().position());
    }

    #[test]
    fn visits_go_in_the_order_written_with_positions() {
        let record = record();
        let mut seen = Vec::new();
        // A node's path: its parents' places among their children.
        let mut paths: Vec<NodePath> = Vec::new();
        record.visit(|v| {
            let path = match v.parent {
                None => NodePath::root(),
                Some(parent) => paths[parent].child(v.child),
            };
            assert_eq!(v.main_line, path.is_main_line(), "{path}");
            // The position before the node's turn is the game along its
            // path without that turn.
            let (game, _) = record.game_at(&path).unwrap();
            let mut expected = game.clone();
            if v.node.play.is_some() {
                expected.undo();
            }
            assert_eq!(v.before, expected.position(), "{path}");
            assert_eq!(v.turns, game.turns().len());
            seen.push((v.number, path.to_string(), v.parent));
            paths.push(path);
        });
        assert_eq!(
            seen,
            [
                (0, "".to_string(), None),
                (1, "0".to_string(), Some(0)),
                (2, "0.0".to_string(), Some(1)),
                (3, "0.0.0".to_string(), Some(2)),
                (4, "0.0.0.0".to_string(), Some(3)),
                (5, "0.0.0.1".to_string(), Some(3)),
                (6, "0.1".to_string(), Some(1)),
                (7, "0.1.0".to_string(), Some(6)),
            ]
        );
        assert_eq!(seen.len(), record.tree().node_count());
    }
}
