//! The tree of a record: nodes holding turns, comments and the properties this
//! format does not interpret, in sequences that branch into variations, as in
//! SGF (`GameTree = "(" Sequence { GameTree } ")"`).
//!
//! A long game is one sequence, not a chain of nested nodes: nothing walks a
//! record recursively except at its branches.

use sygo_rules::{Color, Point, Turn};

/// A turn as a node holds it: the mover and the stones in the order played;
/// no stone is a pass. (A resignation is not a node: the result `B+R` or
/// `W+R` says it, `docs/records.md`.)
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    /// Who moves.
    pub color: Color,
    /// The stones of the turn in order; empty for a pass.
    pub stones: Vec<Point>,
}

impl Play {
    /// A pass by `color`.
    pub fn pass(color: Color) -> Play {
        Play {
            color,
            stones: Vec::new(),
        }
    }

    /// The play of a turn: `None` for a resignation, which no node holds.
    pub fn from_turn(color: Color, turn: &Turn) -> Option<Play> {
        match turn {
            Turn::Resign => None,
            turn => Some(Play {
                color,
                stones: turn.stones().to_vec(),
            }),
        }
    }

    /// The turn: [`Turn::Pass`] or [`Turn::Stones`].
    pub fn turn(&self) -> Turn {
        if self.stones.is_empty() {
            Turn::Pass
        } else {
            Turn::Stones(self.stones.clone())
        }
    }
}

/// A property this format does not interpret (markup, names, timing, another
/// program's own): kept as read and written back.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Property {
    /// Its identifier, upper case (`TR`, `N`, `EV`).
    pub identifier: String,
    /// Its values, unescaped, in the order read (sorted for SGF's list
    /// properties, whose order carries no meaning).
    pub values: Vec<String>,
}

impl Property {
    /// A property with one value.
    pub fn new(identifier: &str, value: &str) -> Property {
        Property {
            identifier: identifier.to_string(),
            values: vec![value.to_string()],
        }
    }
}

/// One node: at most one turn, a comment, other properties. The root node's
/// game information and setup are kept in the
/// [`Record`](crate::Record) itself, not here.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Node {
    /// The turn played in this node, if any (`B[..]` or `W[..]`).
    pub play: Option<Play>,
    /// The comment (`C[..]`).
    pub comment: Option<String>,
    /// Every other property, in the order read.
    pub properties: Vec<Property>,
}

impl Node {
    /// A node holding a turn and nothing else.
    pub fn with_play(play: Play) -> Node {
        Node {
            play: Some(play),
            ..Node::default()
        }
    }
}

/// A sequence of nodes, then the variations that branch from its last node.
///
/// The first variation continues the main line. A sequence that goes on
/// without a branch is kept in `nodes`: a record read back has no tree with a
/// single variation (it is joined to the sequence before it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tree {
    /// The nodes in order; never empty in a record.
    pub nodes: Vec<Node>,
    /// The branches after the last node, the main line first.
    pub variations: Vec<Tree>,
}

impl Tree {
    /// The nodes of the main line: this sequence, then the first variation's
    /// main line.
    pub fn main_line(&self) -> impl Iterator<Item = &Node> + '_ {
        let mut tree = Some(self);
        std::iter::from_fn(move || {
            let current = tree?;
            tree = current.variations.first();
            Some(current.nodes.iter())
        })
        .flatten()
    }

    /// The nodes of the main line, to change them: the nodes of
    /// [`Tree::main_line`], in the same order.
    ///
    /// ```
    /// use sygo_records::{Node, Tree};
    ///
    /// let mut tree = Tree {
    ///     nodes: vec![Node::default()],
    ///     variations: vec![Tree { nodes: vec![Node::default()], variations: Vec::new() }],
    /// };
    /// for node in tree.main_line_mut() {
    ///     node.comment = Some("seen".to_string());
    /// }
    /// assert!(tree.main_line().all(|n| n.comment.as_deref() == Some("seen")));
    /// ```
    pub fn main_line_mut(&mut self) -> Vec<&mut Node> {
        let mut nodes = Vec::new();
        let mut tree = Some(self);
        while let Some(Tree {
            nodes: sequence,
            variations,
        }) = tree
        {
            nodes.extend(sequence.iter_mut());
            tree = variations.first_mut();
        }
        nodes
    }

    /// Number of nodes in the whole tree.
    pub fn node_count(&self) -> usize {
        let mut count = 0;
        let mut stack = vec![self];
        while let Some(tree) = stack.pop() {
            count += tree.nodes.len();
            stack.extend(&tree.variations);
        }
        count
    }
}
