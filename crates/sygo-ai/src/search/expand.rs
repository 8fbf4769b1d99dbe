//! Expansion: a leaf gets its children, with the policy's priors, sorted by
//! prior so that progressive widening considers the most promising first.

use super::{GameState, Policy, Search};

impl<G: GameState, P: Policy<G>> Search<G, P> {
    /// Gives leaf `node` (whose state is `state`) its children; returns false
    /// if the tree has no room (the leaf stays a leaf).
    pub(super) fn expand(&mut self, node: u32, state: &G) -> bool {
        self.children.clear();
        self.policy.expand(state, &mut self.children);
        if !self.tree.has_room_for(self.children.len()) {
            return false;
        }
        if self.config.widening.is_some() {
            // Highest prior belief first (weight-adjusted: a strong opinion
            // of a good action before a weak one); the sort is stable, so
            // equal priors keep the policy's order.
            self.children.sort_by(|a, b| {
                let key = |p: &super::Prior| (p.value - 0.5) * p.weight;
                key(&b.1).total_cmp(&key(&a.1))
            });
        }
        self.tree.expand(node, &self.children);
        true
    }
}
