//! An uploaded record's tree as the API writes it: the whole tree
//! ([`tree_view`], `GET /api/games/{id}/record/tree`) and the position at
//! any node ([`node_view`], `GET /api/games/{id}/record/node`), built on the
//! game's JSON of `view.rs`.
//!
//! Every text of a record (names, comments, …) goes out as a JSON string
//! and nothing else: the page shows it as text.

use serde::Serialize;
use sygo_records::{NodePath, Play, Record};
use sygo_rules::{Position, TurnSummary};

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

/// A node of the tree as `GET /api/games/{id}/record/tree` writes it.
#[derive(Serialize)]
struct TreeNode {
    /// Its number in the order written (the root is 0).
    id: usize,
    /// Its path (`docs/records.md`): `""` for the root, `"0.0.1"`.
    path: String,
    parent: Option<usize>,
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

/// The whole tree.
#[derive(Serialize)]
pub(crate) struct TreeView {
    nodes: Vec<TreeNode>,
}

/// The tree of a record, every node with its turn in words.
pub(crate) fn tree_view(record: &Record) -> TreeView {
    let mut nodes: Vec<TreeNode> = Vec::new();
    record.visit(|v| {
        if let Some(parent) = v.parent {
            nodes[parent].children.push(v.number);
        }
        nodes.push(TreeNode {
            id: v.number,
            path: v.path.to_string(),
            parent: v.parent,
            turn_number: v.turns,
            main_line: v.path.is_main_line(),
            turn: v
                .node
                .play
                .as_ref()
                .and_then(|play| summary(v.before, play))
                .as_ref()
                .map(last_turn),
            comment: v.node.comment.clone(),
            name: node_name(v.node),
            children: Vec::new(),
        });
    });
    TreeView { nodes }
}

/// A child of a node, as the node's answer lists it.
#[derive(Serialize)]
struct ChildView {
    path: String,
    main_line: bool,
    turn: Option<LastTurn>,
    name: Option<String>,
}

/// The position at a node, as `GET /api/games/{id}/record/node` writes it.
#[derive(Serialize)]
pub(crate) struct NodeView {
    path: String,
    /// The parent's path, `null` for the root.
    parent: Option<String>,
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

/// The position at the node at `path`, with its comment, its last turn and
/// its children.
///
/// # Errors
///
/// The path names no node of the record.
pub(crate) fn node_view(
    record: &Record,
    path: &NodePath,
) -> Result<NodeView, sygo_records::PathError> {
    let (game, nodes) = record.game_at(path)?;
    let node = nodes
        .last()
        .copied()
        .ok_or(sygo_records::PathError::EmptyTree)?;
    let summaries = game.summaries();
    let position = game.position();
    let children = record
        .tree()
        .children_at(path)?
        .into_iter()
        .enumerate()
        .map(|(i, child)| ChildView {
            path: path.child(i).to_string(),
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
    Ok(NodeView {
        path: path.to_string(),
        parent: path.parent().map(|p| p.to_string()),
        turn_number: summaries.len(),
        main_line: path.is_main_line(),
        comment: node.comment.clone(),
        name: node_name(node),
        last_turn: summaries.last().map(last_turn),
        children,
        position: position_view_with_komi(position, record.info().komi),
    })
}
