//! Proven results going up the tree (MCTS-Solver; the module doc of
//! [`super`], "Proven results"): after a simulation that ended in a proven
//! node, each node of its path, deepest first, is proven by its children if
//! they now prove it, and the walk stops at the first that is not.

use super::tree::{Kind, NONE, Proven};
use super::{GameState, Policy, Search};

impl<G: GameState, P: Policy<G>> Search<G, P> {
    /// Backs the proof of `leaf` (if it has one) up the simulation's path.
    pub(super) fn prove_path(&mut self, leaf: Option<u32>) {
        let Some(leaf) = leaf else {
            return;
        };
        // Where the proofs to back up start: the leaf; or, below a root
        // proven won (`won_root`), where simulations pass proven nodes, the
        // deepest proven node of the path.
        let from = if self.tree.nodes[leaf as usize].proven.is_some() {
            self.path.len()
        } else if self.won_root {
            match (0..self.path.len())
                .rev()
                .find(|&i| self.tree.nodes[self.path[i].0 as usize].proven.is_some())
            {
                Some(i) => i,
                None => return,
            }
        } else {
            return;
        };
        for i in (0..from).rev() {
            let node = self.path[i].0 as usize;
            if self.tree.nodes[node].proven.is_some() {
                // Proven before (through another path): its parent may be
                // provable now.
                continue;
            }
            match self.proof_from_children(node) {
                Some(proven) => self.tree.nodes[node].proven = Some(proven),
                None => return,
            }
        }
    }

    /// What the children of `node` prove of it: a win for the player who
    /// chooses if one child is one, else, if every child is proven, the
    /// chooser's best of them.
    fn proof_from_children(&self, node: usize) -> Option<Proven> {
        let n = &self.tree.nodes[node];
        if n.kind != Kind::Expanded {
            return None;
        }
        let to_act = usize::from(n.to_act);
        let mut best: Option<Proven> = None;
        let mut every = true;
        for e in self.tree.edges_of(node as u32) {
            let proven = if e.child == NONE {
                None
            } else {
                self.tree.nodes[e.child as usize].proven
            };
            match proven.map(|p| p.for_player(to_act)) {
                Some(Proven::Win) => return Some(Proven::Win.for_player(to_act)),
                Some(p) => best = best.max(Some(p)),
                None => every = false,
            }
        }
        if every {
            best.map(|b| b.for_player(to_act))
        } else {
            None
        }
    }
}
