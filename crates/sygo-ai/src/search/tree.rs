//! The tree: two pools (nodes, edges) with a cap, a transposition table, and
//! re-rooting between turns.
//!
//! A node is a state; its children are a contiguous run of edges in the edge
//! pool, one per action, each pointing to the child node once it exists. With
//! transpositions, a state reached by two orders of actions is one node (the
//! table maps a state's hash to its node), so the tree is a directed acyclic
//! graph; the statistics of a child node then gather every path into it.
//!
//! Memory is bounded: once either pool is full, no node is added and no node
//! expanded; the search goes on with playouts from the leaves it has.
//! Re-rooting copies what lies below the new root into fresh pools, in
//! breadth-first order, and drops the rest: the old subtrees are freed.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::{Prior, TreeSize};

/// No node: an edge whose child does not exist yet.
pub(crate) const NONE: u32 = u32::MAX;

/// Bytes per node, for the memory cap (the node and its table entry).
pub(crate) const NODE_BYTES: usize = std::mem::size_of::<Node>() + 24;

/// Bytes per edge, for the memory cap (an action of up to 4 bytes).
pub(crate) const EDGE_BYTES: usize = std::mem::size_of::<Edge<u32>>();

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// No children yet: a playout evaluates it.
    Leaf,
    /// Its children are in the edge pool.
    Expanded,
    /// The game is over here: its outcome is exact.
    Terminal,
}

/// A result known exactly, for player 0: the game's end reached in the
/// tree, a policy's proof ([`super::Policy::prove`]), or the results of the
/// children backed up (MCTS-Solver: a child won for the chooser wins, and
/// when every child is known the chooser's best of them is the result).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Proven {
    Loss,
    Draw,
    Win,
}

impl Proven {
    /// The proof of a result of 1, ½ or 0 for player 0.
    pub(crate) fn from_result(result: f32) -> Proven {
        if result > 0.5 {
            Proven::Win
        } else if result < 0.5 {
            Proven::Loss
        } else {
            Proven::Draw
        }
    }

    /// Player 0's result: 1, ½ or 0.
    pub(crate) fn result(self) -> f32 {
        match self {
            Proven::Loss => 0.0,
            Proven::Draw => 0.5,
            Proven::Win => 1.0,
        }
    }

    /// The same result seen by `player` (0 or 1).
    pub(crate) fn for_player(self, player: usize) -> Proven {
        match (player, self) {
            (0, p) | (_, p @ Proven::Draw) => p,
            (_, Proven::Win) => Proven::Loss,
            (_, Proven::Loss) => Proven::Win,
        }
    }
}

/// A state in the tree, with the statistics of every simulation through it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub(crate) hash: u64,
    /// Sum of the values backed up (player 0's view).
    pub(crate) value: f64,
    /// Sum of the results (player 0's view: 1, ½, 0).
    pub(crate) wins: f64,
    /// Sum of the margins (player 0's view).
    pub(crate) margin: f64,
    pub(crate) visits: u32,
    /// The node's children: `edges[first_edge .. first_edge + edge_count]`.
    pub(crate) first_edge: u32,
    pub(crate) edge_count: u32,
    /// The player who chooses here: 0 or 1.
    pub(crate) to_act: u8,
    pub(crate) kind: Kind,
    /// The exact result, once proven.
    pub(crate) proven: Option<Proven>,
}

/// An action from a node, with its own statistics.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge<A> {
    pub(crate) action: A,
    /// The child node, or [`NONE`].
    pub(crate) child: u32,
    /// Simulations that took this edge.
    pub(crate) visits: u32,
    /// Sum of their values, for the player who chooses at the parent.
    pub(crate) value: f32,
    /// All-moves-as-first: simulations from the parent in which the chooser
    /// played this action later, and the sum of their values.
    pub(crate) rave_visits: u32,
    pub(crate) rave_value: f32,
    pub(crate) prior: Prior,
}

/// Hashes are Zobrist keys or the like: used as they are, after one multiply
/// to spread the low bits.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The pools, the table and the root.
pub(crate) struct Tree<A> {
    pub(crate) nodes: Vec<Node>,
    pub(crate) edges: Vec<Edge<A>>,
    table: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    pub(crate) root: u32,
    max_nodes: usize,
    max_edges: usize,
    transpositions: bool,
}

impl<A: Copy> Tree<A> {
    /// An empty tree with room for at most `max_nodes` and `max_edges`.
    pub(crate) fn new(max_nodes: usize, max_edges: usize, transpositions: bool) -> Tree<A> {
        Tree {
            nodes: Vec::new(),
            edges: Vec::new(),
            table: HashMap::default(),
            root: NONE,
            max_nodes: max_nodes.max(1),
            max_edges,
            transpositions,
        }
    }

    /// Empties the tree (keeping the pools' memory for reuse).
    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
        self.edges.clear();
        self.table.clear();
        self.root = NONE;
    }

    /// Adds the root of an empty tree.
    pub(crate) fn add_root(&mut self, hash: u64, to_act: usize, over: bool) -> Option<u32> {
        let root = self.add_node(hash, to_act, over)?;
        self.root = root;
        Some(root)
    }

    /// The node of a state: with transpositions, the existing node if the
    /// state is in the table, else a new one; `None` when the pool is full.
    pub(crate) fn node_for(&mut self, hash: u64, to_act: usize, over: bool) -> Option<u32> {
        if self.transpositions
            && let Some(&id) = self.table.get(&hash)
        {
            return Some(id);
        }
        self.add_node(hash, to_act, over)
    }

    fn add_node(&mut self, hash: u64, to_act: usize, over: bool) -> Option<u32> {
        if self.nodes.len() >= self.max_nodes {
            return None;
        }
        let id = self.nodes.len() as u32;
        grow_within(&mut self.nodes, 1, self.max_nodes);
        self.nodes.push(Node {
            hash,
            value: 0.0,
            wins: 0.0,
            margin: 0.0,
            visits: 0,
            first_edge: 0,
            edge_count: 0,
            to_act: to_act as u8,
            kind: if over { Kind::Terminal } else { Kind::Leaf },
            proven: None,
        });
        if self.transpositions {
            self.table.insert(hash, id);
        }
        Some(id)
    }

    /// Whether `count` more edges fit.
    pub(crate) fn has_room_for(&self, count: usize) -> bool {
        self.edges.len() + count <= self.max_edges && self.nodes.len() < self.max_nodes
    }

    /// Gives leaf `node` its children. The caller checked the room.
    pub(crate) fn expand(&mut self, node: u32, children: &[(A, Prior)]) {
        let first = self.edges.len() as u32;
        grow_within(&mut self.edges, children.len(), self.max_edges);
        self.edges
            .extend(children.iter().map(|&(action, prior)| Edge {
                action,
                child: NONE,
                visits: 0,
                value: 0.0,
                rave_visits: 0,
                rave_value: 0.0,
                prior,
            }));
        let n = &mut self.nodes[node as usize];
        n.first_edge = first;
        n.edge_count = children.len() as u32;
        n.kind = Kind::Expanded;
    }

    /// The indices of a node's edges in the edge pool.
    #[inline]
    pub(crate) fn edge_range(&self, node: u32) -> std::ops::Range<usize> {
        let n = &self.nodes[node as usize];
        let first = n.first_edge as usize;
        first..first + n.edge_count as usize
    }

    /// A node's edges.
    #[inline]
    pub(crate) fn edges_of(&self, node: u32) -> &[Edge<A>] {
        &self.edges[self.edge_range(node)]
    }

    /// The node of a state, if the tree holds it (with transpositions: any
    /// node; without: the root only).
    pub(crate) fn lookup(&self, hash: u64) -> Option<u32> {
        if self.transpositions {
            self.table.get(&hash).copied()
        } else {
            (self.root != NONE && self.nodes[self.root as usize].hash == hash).then_some(self.root)
        }
    }

    /// Makes the node of `hash` the root, keeping only what lies below it;
    /// returns false (and changes nothing) if the tree does not hold it.
    pub(crate) fn reroot(&mut self, hash: u64) -> bool {
        let Some(old_root) = self.lookup(hash) else {
            return false;
        };
        let old_nodes = std::mem::take(&mut self.nodes);
        let old_edges = std::mem::take(&mut self.edges);
        self.table.clear();
        // New index of each old node, assigned in breadth-first order.
        let mut new_id = vec![NONE; old_nodes.len()];
        let mut order = vec![old_root];
        new_id[old_root as usize] = 0;
        let mut nodes = Vec::new();
        let mut edges = Vec::new();
        let mut i = 0;
        while i < order.len() {
            let old = order[i];
            let mut node = old_nodes[old as usize];
            let first = node.first_edge as usize;
            node.first_edge = edges.len() as u32;
            for edge in &old_edges[first..first + node.edge_count as usize] {
                let mut edge = *edge;
                if edge.child != NONE {
                    let c = edge.child as usize;
                    if new_id[c] == NONE {
                        new_id[c] = order.len() as u32;
                        order.push(edge.child);
                    }
                    edge.child = new_id[c];
                }
                edges.push(edge);
            }
            if self.transpositions {
                self.table.insert(node.hash, i as u32);
            }
            nodes.push(node);
            i += 1;
        }
        self.nodes = nodes;
        self.edges = edges;
        self.root = 0;
        true
    }

    /// Nodes, edges and bytes.
    pub(crate) fn size(&self) -> TreeSize {
        TreeSize {
            nodes: self.nodes.len(),
            edges: self.edges.len(),
            bytes: self.nodes.capacity() * std::mem::size_of::<Node>()
                + self.edges.capacity() * std::mem::size_of::<Edge<A>>()
                + self.table.capacity() * 24,
        }
    }
}

/// Makes room for `more` elements without growing past `max` (a plain push
/// could double the capacity beyond the cap).
fn grow_within<T>(v: &mut Vec<T>, more: usize, max: usize) {
    let needed = v.len() + more;
    if needed > v.capacity() {
        let target = (v.capacity() * 2).max(needed).max(64).min(max.max(needed));
        v.reserve_exact(target - v.len());
    }
}
