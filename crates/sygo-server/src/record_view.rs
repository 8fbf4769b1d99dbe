//! An uploaded record's tree as the API writes it: the tree in parts of
//! [`TREE_PART`] nodes ([`tree_view`], `GET /api/games/{id}/record/tree`)
//! and the position at any node ([`node_view`],
//! `GET /api/games/{id}/record/node`), built on the game's JSON of
//! `view.rs`. Each answer's size and work are linear in the nodes it
//! holds (and a node's in its depth): no node carries its path.
//!
//! Every text of a record (names, comments, …) goes out as a JSON string
//! and nothing else: the page shows it as text.

use serde::Serialize;
use sygo_records::Play;
use sygo_rules::{Position, TurnSummary};

use crate::uploaded::Uploaded;
use crate::view::{LastTurn, PositionView, last_turn, position_view_with_komi};

/// The node's name (`N`), if it has one.
fn node_name(node: &sygo_records::Node) -> Option<String> {
    node.properties
        .iter()
        .find(|p| p.identifier == "N")
        .map(|p| p.values.join(", "))
}

/// The summary of a node's turn played from `before`.
fn summary(before: &Position, play: &Play) -> Option<TurnSummary> {
    TurnSummary::of(before, play.color, &play.turn()).ok()
}

/// The most nodes one part of the tree holds (`?from=`).
pub(crate) const TREE_PART: usize = 1_000;

/// A node of the tree as `GET /api/games/{id}/record/tree` writes it.
#[derive(Serialize)]
struct TreeNode {
    /// Its number in the order written (the root is 0).
    id: usize,
    parent: Option<usize>,
    /// Which of its parent's children it is (the last part of its path).
    child: usize,
    /// The turns played on the way to it, its own included.
    turn_number: usize,
    /// Whether it is on the main line.
    main_line: bool,
    /// Its turn, if it has one.
    turn: Option<LastTurn>,
    comment: Option<String>,
    /// Its name (`N`).
    name: Option<String>,
    children: Vec<usize>,
}

/// A part of the tree: the nodes numbered from `from`, at most
/// [`TREE_PART`].
#[derive(Serialize)]
pub(crate) struct TreeView {
    nodes: Vec<TreeNode>,
    /// The nodes of the whole tree.
    total: usize,
    /// The `from` of the next part, `null` after the last.
    next: Option<usize>,
}

/// The nodes of a record from number `from` (at most [`TREE_PART`]), each
/// with its turn in words: one visit of the record, the turns described
/// only in the part.
pub(crate) fn tree_view(uploaded: &Uploaded, from: usize) -> TreeView {
    let total = uploaded.places.len();
    let end = from.saturating_add(TREE_PART).min(total);
    let mut nodes: Vec<TreeNode> = Vec::with_capacity(end.saturating_sub(from));
    uploaded.record.visit(|v| {
        if !(from..end).contains(&v.number) {
            return;
        }
        nodes.push(TreeNode {
            id: v.number,
            parent: v.parent,
            child: v.child,
            turn_number: v.turns,
            main_line: v.main_line,
            turn: v
                .node
                .play
                .as_ref()
                .and_then(|play| summary(v.before, play))
                .as_ref()
                .map(last_turn),
            comment: v.node.comment.clone(),
            name: node_name(v.node),
            children: uploaded.places[v.number].children.clone(),
        });
    });
    TreeView {
        nodes,
        total,
        next: (end < total).then_some(end),
    }
}

/// A child of a node, as the node's answer lists it.
#[derive(Serialize)]
struct ChildView {
    /// Its number (`?node=`).
    node: usize,
    main_line: bool,
    turn: Option<LastTurn>,
    name: Option<String>,
}

/// The position at a node, as `GET /api/games/{id}/record/node` writes it.
#[derive(Serialize)]
pub(crate) struct NodeView {
    /// Its number in the order written (the root is 0).
    node: usize,
    path: String,
    /// The parent's path, `null` for the root.
    parent: Option<String>,
    /// The parent's number, `null` for the root.
    parent_node: Option<usize>,
    /// The turns played on the way to it.
    turn_number: usize,
    main_line: bool,
    comment: Option<String>,
    name: Option<String>,
    /// The last turn on the way to it (its own, if it holds one).
    last_turn: Option<LastTurn>,
    children: Vec<ChildView>,
    #[serde(flatten)]
    position: PositionView,
}

/// The position at node `number` (which the record has), with its comment,
/// its last turn and its children.
pub(crate) fn node_view(uploaded: &Uploaded, number: usize) -> Option<NodeView> {
    let path = uploaded.path_of(number)?;
    let record = &uploaded.record;
    let (game, nodes) = record.game_at(&path).ok()?;
    let node = nodes.last().copied()?;
    let summaries = game.summaries();
    let position = game.position();
    let place = &uploaded.places[number];
    let children = record
        .tree()
        .children_at(&path)
        .ok()?
        .into_iter()
        .zip(&place.children)
        .enumerate()
        .map(|(i, (child, &number))| ChildView {
            node: number,
            main_line: path.is_main_line() && i == 0,
            turn: child
                .play
                .as_ref()
                .and_then(|play| summary(position, play))
                .as_ref()
                .map(last_turn),
            name: node_name(child),
        })
        .collect();
    Some(NodeView {
        node: number,
        path: path.to_string(),
        parent: path.parent().map(|p| p.to_string()),
        parent_node: place.parent,
        turn_number: summaries.len(),
        main_line: path.is_main_line(),
        comment: node.comment.clone(),
        name: node_name(node),
        last_turn: summaries.last().map(last_turn),
        children,
        position: position_view_with_komi(position, record.info().komi),
    })
}
