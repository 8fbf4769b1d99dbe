//! Reading a search: the statistics of a state and of its children, from one
//! tree or merged from the trees of several threads. A state is named by the
//! actions that lead to it from the root (a *path*), which every tree can
//! follow whether or not it merges transpositions, so a reader can walk any
//! line of play (Sygo's whole turns, a principal variation) in all the trees
//! at once. With transpositions a state can also be named by its hash.

use std::cmp::Ordering;

use super::tree::{Kind, NONE, Proven};
use super::{GameState, Policy, Prior, Search};

/// What the simulations through one state say, summed over their paths.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NodeStats {
    /// Simulations through the state.
    pub visits: u64,
    /// The player who chooses in the state.
    pub to_act: usize,
    /// Sums for player 0: values, results, margins.
    value: f64,
    wins: f64,
    margin: f64,
    /// The exact result, if a tree proved it.
    proven: Option<Proven>,
}

impl NodeStats {
    fn mean(&self, sum: f64) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            sum / self.visits as f64
        }
    }

    /// The mean value (result mixed with margin) for `player`, 0 to 1.
    pub fn value(&self, player: usize) -> f64 {
        let v = self.mean(self.value);
        if player == 0 { v } else { 1.0 - v }
    }

    /// The share of simulations `player` won (draws count half), whether
    /// or not the state is proven (see [`NodeStats::proven_result`]).
    pub fn win_rate(&self, player: usize) -> f64 {
        let w = self.mean(self.wins);
        if player == 0 { w } else { 1.0 - w }
    }

    /// `player`'s mean final margin, in points.
    pub fn score_lead(&self, player: usize) -> f64 {
        let m = if self.visits == 0 {
            0.0
        } else {
            self.margin / self.visits as f64
        };
        if player == 0 { m } else { -m }
    }

    /// `player`'s exact result (1 a win, ½ a draw, 0 a loss), if a tree
    /// proved it (see "Proven results" in [`super`]).
    pub fn proven_result(&self, player: usize) -> Option<f64> {
        self.proven
            .map(|p| f64::from(p.for_player(player).result()))
    }

    /// `player`'s exact result if the state is proven, else the share of
    /// simulations won: what an analysis shows.
    pub fn result_or_win_rate(&self, player: usize) -> f64 {
        self.proven_result(player)
            .unwrap_or_else(|| self.win_rate(player))
    }

    /// Adds another tree's statistics of the same state.
    pub(crate) fn add(&mut self, other: &NodeStats) {
        self.proven = self.proven.or(other.proven);
        self.visits += other.visits;
        self.to_act = other.to_act;
        self.value += other.value;
        self.wins += other.wins;
        self.margin += other.margin;
    }
}

/// One action from a state, as the search saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildStats<A> {
    /// The action.
    pub action: A,
    /// Simulations that took it from this state.
    pub visits: u64,
    /// Their mean value for the player who chose it.
    pub value: f64,
    /// The policy's prior for it.
    pub prior: Prior,
    /// AMAF simulations and their mean value for the chooser.
    pub rave_visits: u64,
    /// See `rave_visits`; 0 when there are none.
    pub rave_value: f64,
    /// The state it leads to, if the tree holds it: every simulation through
    /// that state, by any path.
    pub child: Option<NodeStats>,
    /// The chooser's exact result after it (1, ½, 0), if a tree proved it.
    pub proven: Option<f64>,
    /// The chooser's mean final margin over the simulations through the
    /// state it leads to (0 when there are none).
    pub margin: f64,
}

impl<A> ChildStats<A> {
    /// How the readers rank it before its visits: 2 proven won for the
    /// chooser, 0 proven lost, 1 otherwise (a proven draw ranks by its
    /// visits, like any action whose result is not known).
    pub fn proven_rank(&self) -> u8 {
        match self.proven {
            Some(r) if r > 0.5 => 2,
            Some(r) if r < 0.5 => 0,
            _ => 1,
        }
    }

    /// How the readers order actions, greater first: by
    /// [`ChildStats::proven_rank`]; among actions proven won, those with
    /// `measured` visits or more ([`decided_visits`]) by their mean margin
    /// (the result is decided, and a value near 1 for every one of them no
    /// longer tells a win by fifty points from a win by two); otherwise by
    /// visits, then value.
    pub fn order(&self, other: &ChildStats<A>, measured: u64) -> Ordering {
        let key = |c: &ChildStats<A>| {
            let by_margin = c.proven_rank() == 2 && c.visits >= measured;
            (
                c.proven_rank(),
                by_margin,
                if by_margin { c.margin } else { 0.0 },
            )
        };
        let (a, b) = (key(self), key(other));
        (a.0, a.1)
            .cmp(&(b.0, b.1))
            .then(a.2.total_cmp(&b.2))
            .then(self.visits.cmp(&other.visits))
            .then(self.value.total_cmp(&other.value))
    }
}

/// The visits from which an action proven won is ranked by its margin
/// ([`ChildStats::order`]) among `children`: at least [`DECIDED_VISITS`],
/// and an eighth of the most visited proven win's (the margin of a proven
/// state stops changing once it is proven, so a few early simulations can
/// make it look better than it is).
pub fn decided_visits<A>(children: &[ChildStats<A>]) -> u64 {
    let most = children
        .iter()
        .filter(|c| c.proven_rank() == 2)
        .map(|c| c.visits)
        .max()
        .unwrap_or(0);
    (most / 8).max(DECIDED_VISITS)
}

/// The fewest visits with which an action proven won is ranked by its
/// margin ([`decided_visits`]).
pub const DECIDED_VISITS: u64 = 16;

impl<G: GameState, P: Policy<G>> Search<G, P> {
    /// The statistics of the state with this hash, if the tree holds it
    /// (without transpositions only the root can be looked up).
    pub fn node_stats(&self, hash: u64) -> Option<NodeStats> {
        self.tree.lookup(hash).map(|id| self.stats_of(id))
    }

    fn stats_of(&self, id: u32) -> NodeStats {
        let n = &self.tree.nodes[id as usize];
        NodeStats {
            visits: u64::from(n.visits),
            to_act: usize::from(n.to_act),
            value: n.value,
            wins: n.wins,
            margin: n.margin,
            proven: n.proven,
        }
    }

    /// The children of the state with this hash, in the tree's order (empty
    /// if the tree does not hold it or has not expanded it).
    pub fn children(&self, hash: u64) -> Vec<ChildStats<G::Action>> {
        match self.tree.lookup(hash) {
            Some(id) => self.children_of(id),
            None => Vec::new(),
        }
    }

    /// The node reached from the root by `path`, if the tree holds it.
    fn node_at(&self, path: &[G::Action]) -> Option<u32> {
        self.root.as_ref()?;
        let mut id = self.tree.root;
        for &action in path {
            let e = self.tree.edges_of(id).iter().find(|e| e.action == action)?;
            if e.child == NONE {
                return None;
            }
            id = e.child;
        }
        Some(id)
    }

    /// The statistics of the state reached from the root by `path`.
    pub fn node_stats_at(&self, path: &[G::Action]) -> Option<NodeStats> {
        self.node_at(path).map(|id| self.stats_of(id))
    }

    /// The children of the state reached from the root by `path` (empty if
    /// the tree does not hold it or has not expanded it).
    pub fn children_at(&self, path: &[G::Action]) -> Vec<ChildStats<G::Action>> {
        match self.node_at(path) {
            Some(id) => self.children_of(id),
            None => Vec::new(),
        }
    }

    fn children_of(&self, id: u32) -> Vec<ChildStats<G::Action>> {
        if self.tree.nodes[id as usize].kind != Kind::Expanded {
            return Vec::new();
        }
        let to_act = usize::from(self.tree.nodes[id as usize].to_act);
        self.tree
            .edges_of(id)
            .iter()
            .map(|e| ChildStats {
                action: e.action,
                visits: u64::from(e.visits),
                value: mean(e.value, e.visits, 0.5),
                prior: e.prior,
                rave_visits: u64::from(e.rave_visits),
                rave_value: mean(e.rave_value, e.rave_visits, 0.0),
                child: (e.child != NONE).then(|| self.stats_of(e.child)),
                proven: (e.child != NONE)
                    .then(|| self.tree.nodes[e.child as usize].proven)
                    .flatten()
                    .map(|p| f64::from(p.for_player(to_act).result())),
                margin: if e.child == NONE {
                    0.0
                } else {
                    self.stats_of(e.child).score_lead(to_act)
                },
            })
            .collect()
    }

    /// The statistics of the root.
    pub fn root_stats(&self) -> NodeStats {
        self.stats_of(self.tree.root)
    }

    /// The children of the root.
    pub fn root_children(&self) -> Vec<ChildStats<G::Action>> {
        self.children_of(self.tree.root)
    }

    /// The visits from which the readers rank a proven win among `children`
    /// by its margin: [`decided_visits`] with [`super::SearchConfig::decided`],
    /// else none (`u64::MAX`).
    pub fn measured(&self, children: &[ChildStats<G::Action>]) -> u64 {
        if self.config.decided && self.config.decided_read {
            decided_visits(children)
        } else {
            u64::MAX
        }
    }

    /// The most visited action at the root (the higher value breaks ties;
    /// a proven win comes first and a proven loss last).
    pub fn best_action(&self) -> Option<G::Action> {
        let children = self.root_children();
        let measured = self.measured(&children);
        best(&children, measured).map(|c| c.action)
    }

    /// The line of most visited actions from the root, while they have at
    /// least `min_visits` visits, at most `max_len` long.
    pub fn principal_variation(&self, max_len: usize, min_visits: u64) -> Vec<G::Action> {
        let mut line = Vec::new();
        let mut id = self.tree.root;
        while line.len() < max_len {
            let children = self.children_of(id);
            let measured = self.measured(&children);
            let Some(i) =
                best_index(&children, measured).filter(|&i| children[i].visits >= min_visits)
            else {
                break;
            };
            line.push(children[i].action);
            let e = &self.tree.edges_of(id)[i];
            if e.child == NONE {
                break;
            }
            id = e.child;
        }
        line
    }
}

/// The first of `children` in the readers' order ([`ChildStats::order`]
/// with `measured`, `u64::MAX` for none ranked by margin): the most
/// visited, after their proofs.
pub(crate) fn best<A>(children: &[ChildStats<A>], measured: u64) -> Option<&ChildStats<A>> {
    best_index(children, measured).map(|i| &children[i])
}

fn best_index<A>(children: &[ChildStats<A>], measured: u64) -> Option<usize> {
    (0..children.len()).max_by(|&a, &b| children[a].order(&children[b], measured))
}

/// The statistics of the state reached by `path` summed over several trees
/// (the threads of one search); `None` if none holds it.
pub fn merged_node_stats<G: GameState, P: Policy<G>>(
    searches: &[Search<G, P>],
    path: &[G::Action],
) -> Option<NodeStats> {
    let mut total: Option<NodeStats> = None;
    for stats in searches.iter().filter_map(|s| s.node_stats_at(path)) {
        total.get_or_insert_with(NodeStats::default).add(&stats);
    }
    total
}

/// The children of the state reached by `path` summed over several trees,
/// in the first tree's order (actions only some trees expanded come after).
pub fn merged_children<G: GameState, P: Policy<G>>(
    searches: &[Search<G, P>],
    path: &[G::Action],
) -> Vec<ChildStats<G::Action>> {
    let mut merged: Vec<ChildStats<G::Action>> = Vec::new();
    for search in searches {
        for (i, c) in search.children_at(path).into_iter().enumerate() {
            // The trees usually list the actions in the same order.
            let slot = if merged.get(i).is_some_and(|m| m.action == c.action) {
                Some(i)
            } else {
                merged.iter().position(|m| m.action == c.action)
            };
            match slot {
                None => merged.push(c),
                Some(j) => {
                    let m = &mut merged[j];
                    let visits = m.visits + c.visits;
                    if visits > 0 {
                        m.value =
                            (m.value * m.visits as f64 + c.value * c.visits as f64) / visits as f64;
                    }
                    m.visits = visits;
                    let rave = m.rave_visits + c.rave_visits;
                    if rave > 0 {
                        m.rave_value = (m.rave_value * m.rave_visits as f64
                            + c.rave_value * c.rave_visits as f64)
                            / rave as f64;
                    }
                    m.rave_visits = rave;
                    m.proven = m.proven.or(c.proven);
                    let (mine, theirs) = (
                        m.child.map_or(0, |s| s.visits),
                        c.child.map_or(0, |s| s.visits),
                    );
                    if mine + theirs > 0 {
                        m.margin = (m.margin * mine as f64 + c.margin * theirs as f64)
                            / (mine + theirs) as f64;
                    }
                    if let Some(child) = c.child {
                        m.child.get_or_insert_with(NodeStats::default).add(&child);
                    }
                }
            }
        }
    }
    merged
}

/// A sum of values over `n` visits as their mean; `empty` when there are
/// none.
fn mean(sum: f32, n: u32, empty: f64) -> f64 {
    if n == 0 {
        empty
    } else {
        f64::from(sum) / f64::from(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn child(action: u8, visits: u64, proven: Option<f64>, margin: f64) -> ChildStats<u8> {
        ChildStats {
            action,
            visits,
            value: 0.5,
            prior: Prior::NONE,
            rave_visits: 0,
            rave_value: 0.0,
            child: None,
            proven,
            margin,
        }
    }

    /// Among turns proven won, the wider win is read out first once each
    /// has enough visits to measure it; a proven win with few visits, or
    /// one with none proven, is ranked by visits as before.
    #[test]
    fn proven_wins_are_ranked_by_their_margin() {
        let children = vec![
            child(0, 7_642, Some(1.0), 51.7),
            child(1, 6_671, Some(1.0), 57.0),
            child(2, 36, Some(1.0), 60.0),
            child(3, 20_000, None, 70.0),
            child(4, 9_000, Some(0.0), 80.0),
        ];
        assert_eq!(decided_visits(&children), 7_642 / 8);
        let measured = decided_visits(&children);
        // Without the margin (`decided` off), the most visited proven win.
        assert_eq!(best(&children, u64::MAX).map(|c| c.action), Some(0));
        assert_eq!(best(&children, measured).map(|c| c.action), Some(1));
        let mut sorted = children.clone();
        sorted.sort_by(|a, b| b.order(a, measured));
        let order: Vec<u8> = sorted.iter().map(|c| c.action).collect();
        assert_eq!(order, vec![1, 0, 2, 3, 4]);
        // Without proofs, visits decide whatever the margins.
        let open = vec![child(0, 100, None, 5.0), child(1, 90, None, 50.0)];
        assert_eq!(
            best(&open, decided_visits(&open)).map(|c| c.action),
            Some(0)
        );
    }
}
