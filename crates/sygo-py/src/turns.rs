//! Every whole turn the step actions can make from a position: the legal
//! turns, each once. The actions follow the rule of
//! `Position::for_each_completable_step`, by which every legal turn can be
//! made step by step, so this is every legal turn.
//!
//! A growth turn is a set of stones, one per grown group, played in some
//! order; the number of such turns grows as the product of the groups'
//! liberties, so the walk stops at a limit. Each state within the turn is
//! expanded once (two orders of the same stones reach the same state, which
//! `Position::hash` tells), and each end position is reported once, with
//! the first order of its stones found (points in increasing order where
//! the rules allow it).

use std::collections::HashSet;

use sygo_rules::{Point, Position, StepKind, Turn};

/// The walk's limit was reached: more turns than this.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TooMany(pub(crate) usize);

/// The whole turns that complete the turn in progress of `pos` (every legal
/// turn, between turns: the pass first), at most `limit`. The steps taken
/// are the step actions' (`Position::for_each_completable_step`).
///
/// # Errors
///
/// [`TooMany`] when there are more than `limit`.
pub(crate) fn legal_turns(pos: &Position, limit: usize) -> Result<Vec<Turn>, TooMany> {
    let mut walk = Walk {
        turns: Vec::new(),
        expanded: HashSet::new(),
        ends: HashSet::new(),
        prefix: pos.turn_stones(),
        limit,
    };
    if pos.is_over() {
        return Ok(Vec::new());
    }
    if pos.turn_in_progress() {
        if pos.check_finish().is_ok() {
            let mut end = pos.clone();
            end.finish_turn_unchecked();
            walk.record(&end)?;
        }
    } else {
        walk.push(Turn::Pass)?;
    }
    walk.expand(pos)?;
    Ok(walk.turns)
}

struct Walk {
    turns: Vec<Turn>,
    /// The states within the turn already expanded, by hash.
    expanded: HashSet<u64>,
    /// The positions the turns found end in, by hash.
    ends: HashSet<u64>,
    /// The stones of the turn so far.
    prefix: Vec<Point>,
    limit: usize,
}

impl Walk {
    fn push(&mut self, turn: Turn) -> Result<(), TooMany> {
        if self.turns.len() >= self.limit {
            return Err(TooMany(self.limit));
        }
        self.turns.push(turn);
        Ok(())
    }

    /// Reports the turn of the prefix, which ends in `end`, unless a turn
    /// ending there was reported.
    fn record(&mut self, end: &Position) -> Result<(), TooMany> {
        if self.ends.insert(end.hash()) {
            self.push(Turn::Stones(self.prefix.clone()))?;
        }
        Ok(())
    }

    /// Every next step action of `pos`, and what follows it.
    fn expand(&mut self, pos: &Position) -> Result<(), TooMany> {
        let mut steps: Vec<(Point, StepKind)> = Vec::new();
        pos.for_each_completable_step(|p, kind| steps.push((p, kind)));
        steps.sort_unstable_by_key(|&(p, _)| p);
        for (p, kind) in steps {
            let mut next = pos.clone();
            next.play_step_unchecked(p);
            self.prefix.push(p);
            let done = match kind {
                StepKind::Placement => {
                    next.finish_turn_unchecked();
                    self.record(&next)
                }
                StepKind::Growth if self.expanded.insert(next.hash()) => {
                    // A group left without a liberty: the turn may not end
                    // here (the step was taken only because a later capture
                    // of this turn can still give it one).
                    let ended = if next.group_without_liberty().is_none() {
                        let mut end = next.clone();
                        end.finish_turn_unchecked();
                        self.record(&end)
                    } else {
                        Ok(())
                    };
                    ended.and_then(|()| self.expand(&next))
                }
                StepKind::Growth => Ok(()),
            };
            self.prefix.pop();
            done?;
        }
        Ok(())
    }
}
