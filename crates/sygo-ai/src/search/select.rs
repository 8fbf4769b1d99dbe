//! Selection: the walk from the root to a leaf, taking at each node the child
//! of best score (the formula is in the module doc of [`super`]).

use rand::Rng;

use super::tree::{Edge, Kind, NONE, Proven};
use super::{GameState, Outcome, Policy, Search, Trace};

impl<G: GameState, P: Policy<G>> Search<G, P> {
    /// Walks from the root, playing the chosen actions on `state`, until a
    /// leaf or a proven node; expands a leaf if it has been visited enough,
    /// and evaluates the state reached. Returns the last node of the path
    /// (the leaf) if it is in the tree, the outcome, and whether the outcome
    /// is a proven result (whose value is the result alone).
    pub(super) fn descend(&mut self, state: &mut G) -> (Option<u32>, Outcome, bool) {
        let mut node = self.tree.root;
        loop {
            let n = &self.tree.nodes[node as usize];
            if n.kind == Kind::Terminal {
                let outcome = state.final_outcome();
                if self.config.proofs {
                    self.tree.nodes[node as usize].proven =
                        Some(Proven::from_result(outcome.result));
                }
                return (Some(node), outcome, false);
            }
            // A proven node ends the simulation, except the root: below a
            // root proven won or drawn the search goes on until the child
            // that keeps the result is proven too, which tells the turn to
            // play; below a root proven lost it looks at no proof at all
            // (`lost_root`: every turn loses, the margins say which least).
            // Below a root proven won with `decided` (`won_root`), proofs
            // are kept but end no simulation: the playouts' margins go on
            // telling which of the winning turns wins by most.
            let root = node == self.tree.root;
            if let Some(proven) = n
                .proven
                .filter(|_| !root && !self.lost_root && !self.won_root)
            {
                return (Some(node), self.proven_outcome(node, proven), true);
            }
            if self.config.proofs
                && !self.lost_root
                && self.config.prove_effort > 0
                && !root
                && n.proven.is_none()
                && n.visits >= 2
                && n.visits.is_power_of_two()
            {
                self.effort.work = self.config.prove_effort.saturating_mul(n.visits.into());
                if let Some(result) = self.policy.prove(state, &self.effort) {
                    let proven = Proven::from_result(result);
                    self.tree.nodes[node as usize].proven = Some(proven);
                    if !self.won_root {
                        return (Some(node), self.proven_outcome(node, proven), true);
                    }
                }
            }
            let n = &self.tree.nodes[node as usize];
            if n.kind == Kind::Leaf
                && (n.visits < self.config.expand_after || !self.expand(node, state))
            {
                return (Some(node), self.evaluate(state), false);
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
                None => return (None, self.evaluate(state), false),
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
        let root = node == self.tree.root && self.config.decided && self.config.decided_root;
        let mut best = range.start;
        let mut best_score = f32::NEG_INFINITY;
        let mut untried = 0u32;
        for i in range.start..range.start + considered {
            let score = self.score(&self.tree.edges[i], to_act, log_n, root);
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

    /// The outcome a simulation backs up from a proven node: the proven
    /// result, with the margin the node's simulations saw so far (of the
    /// result's sign) for the readers of the expected score.
    fn proven_outcome(&self, node: u32, proven: Proven) -> Outcome {
        let n = &self.tree.nodes[node as usize];
        let mean = if n.visits == 0 {
            0.0
        } else {
            (n.margin / f64::from(n.visits)) as f32
        };
        let margin = match proven {
            Proven::Win => mean.max(1.0),
            Proven::Draw => 0.0,
            Proven::Loss => mean.min(-1.0),
        };
        Outcome {
            result: proven.result(),
            margin,
            static_eval: 0.0,
        }
    }

    /// The score of one edge for the player `to_act` at its parent (`root`:
    /// the parent is the root).
    #[inline]
    fn score(&self, e: &Edge<G::Action>, to_act: usize, log_n: f32, root: bool) -> f32 {
        let config = &self.config;
        if config.proofs && !self.lost_root && e.child != NONE {
            // Never a child proven lost while another is left; below the
            // root a child proven won at once. At the root the children
            // proven won compete by their values (the margin in them), with
            // the others, which may be won by more: the readers put proven
            // wins first, so the turn chosen keeps the win, and the visits
            // say which of them wins by most.
            match self.tree.nodes[e.child as usize].proven {
                Some(p) if p.for_player(to_act) == Proven::Win && !root && !self.won_root => {
                    return f32::MAX;
                }
                Some(p) if p.for_player(to_act) == Proven::Loss => return f32::MIN,
                _ => {}
            }
        }
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
