//! Whole turns out of a search over steps: the decision, the candidates and
//! their principal variations, for both search players.
//!
//! The tree holds steps; a player answers with a whole turn. A turn is read
//! out of the trees the way the search chose it, **step by step**: the most
//! visited first step, then, while the turn goes on, the most visited next
//! step (another growth stone, or `Finish`), to where it ends. Each
//! candidate of an analysis starts with a different first step (most
//! visited first) and goes on the same way; it counts the simulations of its
//! first step, so a growth turn is weighed by everything the search spent on
//! it, not split among the many sets of stones it tried next. Two candidates
//! that end in the same state (the same growth stones in another order) are
//! one.
//!
//! Where the tree stops in the middle of a turn (a leaf, or a full tree), the
//! turn is completed by the player's completion rule: the highest prior step
//! until `Finish` is preferred, or simply `Finish` for a player without
//! knowledge.

use std::collections::HashSet;

use sygo_rules::Turn;

use crate::analysis::Candidate;
use crate::search::{ChildStats, GameState, Policy, Search, best, decided_visits, merged_children};
use crate::steps::{Step, StepGame, turn_of};

/// A whole turn found in the trees, with what the simulations say of it for
/// the player who makes it.
#[derive(Clone, Debug)]
pub(crate) struct TurnLine {
    /// Its steps, from the start of the turn.
    pub(crate) steps: Vec<Step>,
    /// Simulations that took its first step.
    pub(crate) visits: u64,
    /// The mover's win rate and mean margin after it (as far as the trees
    /// follow it).
    pub(crate) win_rate: f64,
    pub(crate) score_lead: f64,
}

/// Completes a turn in progress: plays steps on the state (pushing them)
/// until the turn ends.
pub(crate) type Complete<'a> = dyn FnMut(&mut StepGame, &mut Vec<Step>) + 'a;

/// Up to `limit` whole turns from the state reached by `path` (which is
/// `start`), one per first step, most visited first (module doc).
///
/// A turn the trees do not follow to its end is completed by `complete`;
/// without it, the reading stops at the first such turn (a principal
/// variation ends where the trees thin out).
pub(crate) fn whole_turns<P: Policy<StepGame>>(
    searches: &[Search<StepGame, P>],
    path: &[Step],
    start: &StepGame,
    limit: usize,
    mut complete: Option<&mut Complete<'_>>,
) -> Vec<TurnLine> {
    let me = start.to_act();
    let mut firsts = merged_children(searches, path);
    firsts.retain(|c| c.visits > 0);
    let decided = searches
        .first()
        .is_some_and(|s| s.config().decided && s.config().decided_read);
    let measured = |children: &[ChildStats<Step>]| {
        if decided {
            decided_visits(children)
        } else {
            u64::MAX
        }
    };
    let first_measured = measured(&firsts);
    firsts.sort_by(|a, b| b.order(a, first_measured));
    let mut lines = Vec::new();
    let mut ends = HashSet::new();
    let mut full: Vec<Step> = path.to_vec();
    for first in &firsts {
        if lines.len() >= limit {
            break;
        }
        let mut state = start.clone();
        state.apply(first.action);
        let mut steps = vec![first.action];
        let mut stats = first.child;
        full.truncate(path.len());
        full.push(first.action);
        while !state.is_over() && state.position().turn_in_progress() {
            let children = merged_children(searches, &full);
            match best(&children, measured(&children)).filter(|c| c.visits > 0) {
                Some(next) => {
                    state.apply(next.action);
                    steps.push(next.action);
                    full.push(next.action);
                    stats = next.child.or(stats);
                }
                None => match complete.as_mut() {
                    Some(complete) => complete(&mut state, &mut steps),
                    None => return lines,
                },
            }
        }
        if ends.insert(state.state_hash()) {
            lines.push(TurnLine {
                steps,
                visits: first.visits,
                win_rate: stats.map_or(0.5, |s| s.result_or_win_rate(me)),
                score_lead: stats.map_or(0.0, |s| s.score_lead(me)),
            });
        }
    }
    lines
}

/// The most visited whole turn from `start` (reached by `path`), if its
/// first step has at least `min_visits` and the trees follow it to its end.
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
