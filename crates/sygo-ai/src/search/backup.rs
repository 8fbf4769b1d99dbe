//! Backup: a simulation's value goes up its path, into every node and edge it
//! went through and, with RAVE, into the AMAF statistics of the actions the
//! chooser at each node played later in the simulation.

use super::tree::Node;
use super::{GameState, Outcome, Policy, Search, Trace};

impl<G: GameState, P: Policy<G>> Search<G, P> {
    /// Backs up `outcome` along the path (and into the leaf, if it is in the
    /// tree); the value of an `exact` outcome (a proven result) is its
    /// result alone.
    pub(super) fn backup(&mut self, leaf: Option<u32>, outcome: Outcome, exact: bool) {
        let value = if exact {
            outcome.result
        } else {
            self.config.value(outcome)
        };
        let add = |n: &mut Node| {
            n.visits += 1;
            n.value += f64::from(value);
            n.wins += f64::from(outcome.result);
            n.margin += f64::from(outcome.margin);
        };
        for &(node, edge) in &self.path {
            let n = &mut self.tree.nodes[node as usize];
            add(n);
            let mine = if n.to_act == 0 { value } else { 1.0 - value };
            let e = &mut self.tree.edges[edge as usize];
            e.visits += 1;
            e.value += mine;
        }
        if let Some(leaf) = leaf {
            add(&mut self.tree.nodes[leaf as usize]);
        }
        if self.config.rave_equivalence.is_some() && self.policy.amaf_keys() > 0 {
            self.backup_amaf(value);
        }
    }

    /// All-moves-as-first: for each node of the path, each child whose action
    /// its chooser played later in the simulation (first play of the key
    /// only) gets the simulation's value as AMAF experience.
    fn backup_amaf(&mut self, value: f32) {
        let keys = self.policy.amaf_keys();
        if self.amaf_stamp.len() != keys {
            self.amaf_stamp = vec![0; keys];
            self.amaf_player = vec![0; keys];
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.amaf_stamp.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        // From the end of the simulation back: when entry j is reached, the
        // tables hold, for each key, the first player to play it at j or
        // later.
        for j in (0..self.trace.entries.len()).rev() {
            let (key, player) = self.trace.entries[j];
            if key != Trace::NO_KEY && (key as usize) < keys {
                self.amaf_stamp[key as usize] = stamp;
                self.amaf_player[key as usize] = player;
            }
            if j >= self.path.len() {
                continue;
            }
            let node = self.path[j].0;
            let to_act = self.tree.nodes[node as usize].to_act;
            let mine = if to_act == 0 { value } else { 1.0 - value };
            for i in self.tree.edge_range(node) {
                let e = &mut self.tree.edges[i];
                if let Some(k) = self.policy.amaf_key(e.action) {
                    let k = k as usize;
                    if k < keys && self.amaf_stamp[k] == stamp && self.amaf_player[k] == to_act {
                        e.rave_visits += 1;
                        e.rave_value += mine;
                    }
                }
            }
        }
    }
}
