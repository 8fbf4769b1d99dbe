//! Whole turns out of a search over steps: the decision, the candidates and
//! their principal variations, for both search players.
//!
//! The tree holds steps; a player answers with a whole turn. The turns a
//! search considered are found by walking, from the root, every step the
//! simulations took while the turn goes on, to where it ends (`Finish`, a
//! placement, a pass). Each distinct turn is one candidate, counted by the
//! simulations that played exactly it: with transpositions the state after
//! the turn is one node, whatever the order of its growth steps, so its
//! visits count every order; without, the orders' visits are added up. So a
//! growth turn of five stones is not split five ways against a one-stone
//! placement. The decision is the candidate with the most visits.
//!
//! Where the tree stops in the middle of a turn (a leaf, or a full tree), the
//! turn is completed by the player's completion rule: the highest prior step
//! until `Finish` is preferred, or simply `Finish` for a player without
//! knowledge; the candidate then counts the simulations that reached that
//! leaf.

use sygo_rules::Turn;

use crate::analysis::Candidate;
use std::collections::HashMap;

use crate::search::{GameState, LineEnd, NodeStats, Policy, Search};
use crate::steps::{Step, StepGame, turn_of};

/// A whole turn found in the trees, with what the simulations say of it for
/// the player who makes it.
#[derive(Clone, Debug)]
pub(crate) struct TurnLine {
    /// Its steps, from the start of the turn.
    pub(crate) steps: Vec<Step>,
    /// Simulations that played it.
    pub(crate) visits: u64,
    /// The mover's win rate and mean margin after it.
    pub(crate) win_rate: f64,
    pub(crate) score_lead: f64,
}

/// Completes a turn in progress: plays steps on the state (pushing them)
/// until the turn ends.
pub(crate) type Complete<'a> = dyn FnMut(&mut StepGame, &mut Vec<Step>) + 'a;

/// The `limit` most visited whole turns the trees considered from the state
/// reached by `path` (which is `start`), most visited first.
///
/// The trees are read by node ids ([`Search::turn_lines`]); game states are
/// built only to complete the few lines, among those kept, that stop in the
/// middle of the turn.
pub(crate) fn whole_turns<P: Policy<StepGame>>(
    searches: &[Search<StepGame, P>],
    path: &[Step],
    start: &StepGame,
    limit: usize,
    mut complete: Option<&mut Complete<'_>>,
) -> Vec<TurnLine> {
    let me = start.to_act();
    let transpositions = searches.first().is_some_and(|s| s.config().transpositions);
    // Complete turns by the hash of the state after them; the others by
    // their steps.
    let mut done: HashMap<u64, Gathered> = HashMap::new();
    let mut open: HashMap<Vec<Step>, Gathered> = HashMap::new();
    let mut raw = Vec::new();
    for search in searches {
        raw.clear();
        search.turn_lines(path, &mut raw);
        let mut mine: HashMap<u64, Gathered> = HashMap::new();
        for line in raw.drain(..) {
            match line.end {
                LineEnd::Complete(hash, stats) => {
                    let g = mine.entry(hash).or_default();
                    // Another order of the same turn: the same node with
                    // transpositions, another one without (add them up).
                    if transpositions {
                        if g.visits == 0 {
                            *g = Gathered::new(line.actions, stats.visits, Some(stats));
                        }
                    } else {
                        g.add(line.actions, line.visits, Some(stats));
                    }
                }
                LineEnd::Leaf(stats) => {
                    open.entry(line.actions.clone()).or_default().add(
                        line.actions,
                        line.visits,
                        Some(stats),
                    );
                }
                LineEnd::Unkept => {
                    open.entry(line.actions.clone()).or_default().add(
                        line.actions,
                        line.visits,
                        None,
                    );
                }
            }
        }
        for (hash, g) in mine {
            done.entry(hash).or_default().merge(g);
        }
    }
    let mut lines: Vec<(Option<u64>, Gathered)> = done
        .into_iter()
        .map(|(h, g)| (Some(h), g))
        .chain(open.into_values().map(|g| (None, g)))
        .collect();
    sort(&mut lines);
    lines.truncate(limit);
    // Complete the lines that stop inside the turn; one that turns out to
    // be another order of a kept turn joins it.
    let mut i = 0;
    while i < lines.len() {
        if lines[i].0.is_none() {
            let Some(complete) = complete.as_mut() else {
                lines.remove(i);
                continue;
            };
            let mut state = start.clone();
            lines[i].1.steps.iter().for_each(|&s| state.apply(s));
            complete(&mut state, &mut lines[i].1.steps);
            let hash = state.state_hash();
            if let Some(j) = lines.iter().position(|l| l.0 == Some(hash)) {
                let g = lines.remove(i);
                lines[if j > i { j - 1 } else { j }].1.merge(g.1);
                continue;
            }
            lines[i].0 = Some(hash);
        }
        i += 1;
    }
    sort(&mut lines);
    lines
        .into_iter()
        .map(|(_, g)| TurnLine {
            win_rate: g.stats.map_or(0.5, |s| s.win_rate(me)),
            score_lead: g.stats.map_or(0.0, |s| s.score_lead(me)),
            steps: g.steps,
            visits: g.visits,
        })
        .collect()
}

/// Simulations gathered for one turn: its steps (those of its most visited
/// order), their number, and their statistics when the tree has them.
#[derive(Default)]
struct Gathered {
    steps: Vec<Step>,
    best: u64,
    visits: u64,
    stats: Option<NodeStats>,
}

impl Gathered {
    fn new(steps: Vec<Step>, visits: u64, stats: Option<NodeStats>) -> Gathered {
        Gathered {
            steps,
            best: visits,
            visits,
            stats,
        }
    }

    fn add(&mut self, steps: Vec<Step>, visits: u64, stats: Option<NodeStats>) {
        self.merge(Gathered::new(steps, visits, stats));
    }

    fn merge(&mut self, other: Gathered) {
        if other.best > self.best || self.steps.is_empty() {
            self.steps = other.steps;
            self.best = other.best;
        }
        self.visits += other.visits;
        match (&mut self.stats, other.stats) {
            (Some(s), Some(o)) => s.add(&o),
            (s @ None, Some(o)) => *s = Some(o),
            _ => {}
        }
    }
}

/// A step as a number, for ordering.
fn key(step: &Step) -> u32 {
    match step {
        Step::Stone(p) => p.index() as u32,
        Step::Finish => u32::MAX - 1,
        Step::Pass => u32::MAX,
    }
}

/// Most visited first; the better win rate, then the steps, break ties (so
/// the order does not depend on a hash map's).
fn sort(lines: &mut [(Option<u64>, Gathered)]) {
    let rate = |g: &Gathered| g.stats.map_or(0.5, |s| s.win_rate(0));
    lines.sort_by(|a, b| {
        b.1.visits
            .cmp(&a.1.visits)
            .then(rate(&b.1).total_cmp(&rate(&a.1)))
            .then_with(|| a.1.steps.iter().map(key).cmp(b.1.steps.iter().map(key)))
    });
}

/// The most visited whole turn from `start` (reached by `path`), if the trees
/// hold any with at least `min_visits` and it ends inside the trees.
pub(crate) fn best_turn<P: Policy<StepGame>>(
    searches: &[Search<StepGame, P>],
    path: &[Step],
    start: &StepGame,
    min_visits: u64,
) -> Option<TurnLine> {
    whole_turns(searches, path, start, 1, None)
        .into_iter()
        .next()
        .filter(|l| l.visits >= min_visits)
}

/// The candidates of an analysis: the `max` most visited turns, each with its
/// principal variation (the best turns after it while they have at least
/// `pv_visits` visits, up to `pv_turns` turns in all).
pub(crate) fn candidates<P: Policy<StepGame>>(
    searches: &[Search<StepGame, P>],
    root: &StepGame,
    lines: &[TurnLine],
    max: usize,
    pv_turns: usize,
    pv_visits: u64,
) -> Vec<Candidate> {
    lines
        .iter()
        .take(max)
        .map(|line| {
            let mut pv = vec![turn_of(&line.steps)];
            let mut path = line.steps.clone();
            let mut state = root.clone();
            line.steps.iter().for_each(|&s| state.apply(s));
            while pv.len() < pv_turns && !state.is_over() {
                let Some(next) = best_turn(searches, &path, &state, pv_visits) else {
                    break;
                };
                next.steps.iter().for_each(|&s| state.apply(s));
                path.extend_from_slice(&next.steps);
                pv.push(turn_of(&next.steps));
            }
            Candidate {
                turn: turn_of(&line.steps),
                visits: line.visits,
                win_rate: line.win_rate,
                score_lead: line.score_lead,
                pv,
            }
        })
        .collect()
}

/// The turn of a line.
pub(crate) fn turn(line: &TurnLine) -> Turn {
    turn_of(&line.steps)
}
