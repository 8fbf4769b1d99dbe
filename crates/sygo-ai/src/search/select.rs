//! Selection: the walk from the root to a leaf, taking at each node the child
//! of best score (the formula is in the module doc of [`super`]).

use rand::Rng;

use super::tree::{Edge, Kind, NONE};
use super::{GameState, Outcome, Policy, Search, Trace};

impl<G: GameState, P: Policy<G>> Search<G, P> {
    /// Walks from the root, playing the chosen actions on `state`, until a
    /// leaf; expands it if it has been visited enough, and evaluates the
    /// state reached. Returns the last node of the path (the leaf) if it is
    /// in the tree, and the outcome.
    pub(super) fn descend(&mut self, state: &mut G) -> (Option<u32>, Outcome) {
        let mut node = self.tree.root;
        loop {
            let n = &self.tree.nodes[node as usize];
            match n.kind {
                Kind::Terminal => return (Some(node), state.final_outcome()),
                Kind::Leaf => {
                    if n.visits < self.config.expand_after || !self.expand(node, state) {
                        return (Some(node), self.evaluate(state));
                    }
                }
                Kind::Expanded => {}
            }
            let edge = self.select(node);
            let (action, child) = {
                let e = &self.tree.edges[edge];
                (e.action, e.child)
            };
            let to_act = state.to_act();
            let key = self.policy.amaf_key(action).unwrap_or(Trace::NO_KEY);
            self.trace.record(to_act, key);
            self.path.push((node, edge as u32));
            state.apply(action);
            if child != NONE {
                node = child;
                continue;
            }
            match self
                .tree
                .node_for(state.state_hash(), state.to_act(), state.is_over())
            {
                Some(c) => {
                    self.tree.edges[edge].child = c;
                    node = c;
                }
                // The tree is full: evaluate from here, outside it.
                None => return (None, self.evaluate(state)),
            }
        }
    }

    /// The edge (an index in the edge pool) of best score at an expanded
    /// node; ties among untried actions are broken at random.
    fn select(&mut self, node: u32) -> usize {
        let range = self.tree.edge_range(node);
        let n = &self.tree.nodes[node as usize];
        let to_act = usize::from(n.to_act);
        let parent_visits = n.visits.max(1) as f32;
        let considered = match self.config.widening {
            Some(w) => {
                let k = w.base + parent_visits.powf(w.exponent);
                (k as usize).clamp(1, range.len())
            }
            None => range.len(),
        };
        let log_n = parent_visits.ln();
        let mut best = range.start;
        let mut best_score = f32::NEG_INFINITY;
        let mut untried = 0u32;
        for i in range.start..range.start + considered {
            let score = self.score(&self.tree.edges[i], to_act, log_n);
            if score == f32::INFINITY {
                // Reservoir sampling among the untried.
                untried += 1;
                if self.rng.next_u32() % untried == 0 {
                    best = i;
                    best_score = score;
                }
            } else if untried == 0 && score > best_score {
                best = i;
                best_score = score;
            }
        }
        best
    }

    /// The score of one edge for the player `to_act` at its parent.
    #[inline]
    fn score(&self, e: &Edge<G::Action>, to_act: usize, log_n: f32) -> f32 {
        let config = &self.config;
        // Real experience: the child node's, which gathers every path into it
        // (transpositions), else the edge's own.
        let (n, sum) = match (config.transpositions, e.child) {
            (true, c) if c != NONE => {
                let child = &self.tree.nodes[c as usize];
                let v = child.value as f32;
                let sum = if to_act == 0 {
                    v
                } else {
                    child.visits as f32 - v
                };
                (child.visits as f32, sum)
            }
            _ => (e.visits as f32, e.value),
        };
        let rave = config
            .rave_equivalence
            .filter(|_| e.rave_visits > 0)
            .map(|equiv| (e.rave_visits as f32, e.rave_value, equiv));
        let w = e.prior.weight;
        if n + w == 0.0 && rave.is_none() {
            return f32::INFINITY;
        }
        let q = if n + w > 0.0 {
            (sum + w * e.prior.value) / (n + w)
        } else {
            0.5
        };
        let mixed = match rave {
            Some((m, rsum, equiv)) => {
                let beta = m / (m + n + m * n / equiv);
                (1.0 - beta) * q + beta * (rsum / m)
            }
            None => q,
        };
        let explore = if config.exploration > 0.0 {
            config.exploration * (log_n / (e.visits as f32 + 1.0)).sqrt()
        } else {
            0.0
        };
        mixed + explore
    }
}
