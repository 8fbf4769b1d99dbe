//! Exact play of small endgames.
//!
//! When few vacant points are left, every line of play to the end of the
//! game can be searched: [`solve`] finds, for the side to move, whether the
//! game is won, drawn or lost with best play on both sides, and a turn that
//! keeps that result. The searching player asks it before its search and
//! plays its turn when the result is a win or a draw: on a small board the
//! playouts misjudge the last few points (they put big groups in atari at
//! random), and a game won on the board can be lost by one point there.
//!
//! The search is a negamax with alpha-beta over win, draw and loss, over
//! whole turns, with a table of positions already solved (keyed by the rules
//! library's hash, which holds the side to move and the passes). The turns of
//! a position are listed step by step as the rules allow them, each distinct
//! resulting position once (two orders of the same growth stones are one
//! turn); a pass is always one of them. Every turn but a pass fills a vacant
//! point and two passes end the game, so every line ends.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use sygo_rules::{Color, Point, Position, StepKind, Turn};

/// The result of a position with best play, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// The side to move loses whatever it plays.
    Loss = -1,
    /// Best play on both sides draws.
    Draw = 0,
    /// The side to move wins whatever the opponent plays.
    Win = 1,
}

impl Verdict {
    fn from_value(v: i8) -> Verdict {
        match v.signum() {
            1 => Verdict::Win,
            0 => Verdict::Draw,
            _ => Verdict::Loss,
        }
    }
}

/// What [`solve`] found: the result with best play and a turn that keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The result for the side to move.
    pub verdict: Verdict,
    /// A turn that reaches it (for a loss, any turn).
    pub turn: Turn,
    /// Positions searched.
    pub nodes: u64,
}

/// How far [`solve`] may go before it gives up.
#[derive(Clone, Debug, Default)]
pub struct SolveLimits {
    /// Most positions to search.
    pub nodes: u64,
    /// Give up at this time.
    pub deadline: Option<Instant>,
    /// Give up when this flag is raised.
    pub stop: Option<Arc<AtomicBool>>,
}

/// The exact result of `position` (at the start of a turn) for the side to
/// move, and a turn that keeps it; `None` when the limits are reached first
/// (or the game is over, or a turn is in progress).
///
/// # Examples
///
/// ```
/// use sygo_ai::endgame::{SolveLimits, Verdict, solve};
/// use sygo_rules::{Position, Turn};
///
/// // Sygo 3×3, C1 and C2 vacant; White's five stones have one liberty, C2.
/// // White must place C1: after anything else Black's C2 reverses them.
/// let pos: Position = "sygo 3 WWW/WB1/WB1 w g 0".parse().unwrap();
/// let limits = SolveLimits { nodes: 1000, ..SolveLimits::default() };
/// let solution = solve(&pos, &limits).unwrap();
/// assert_eq!(solution.verdict, Verdict::Win);
/// assert_eq!(solution.turn.to_notation(&pos.geometry()), "C1");
///
/// let mut passed = pos.clone();
/// passed.pass().unwrap();
/// let answer = solve(&passed, &limits).unwrap();
/// assert_eq!(answer.verdict, Verdict::Win); // for Black
/// assert_eq!(answer.turn.to_notation(&pos.geometry()), "C2");
/// ```
pub fn solve(position: &Position, limits: &SolveLimits) -> Option<Solution> {
    if position.is_over() || position.turn_in_progress() {
        return None;
    }
    let mut solver = Solver {
        table: HashMap::new(),
        nodes: 0,
        limits,
    };
    let mut children = turns(position);
    solver.nodes += 1;
    order(&mut children, position.side_to_move());
    let mut best: Option<(i8, usize)> = None;
    let mut alpha = -1;
    for (i, (_, child)) in children.iter().enumerate() {
        let v = -solver.negamax(child, -1, -alpha)?;
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, i));
        }
        alpha = alpha.max(v);
        if v == 1 {
            break;
        }
    }
    let (value, index) = best?;
    let stones = children.swap_remove(index).0;
    Some(Solution {
        verdict: Verdict::from_value(value),
        turn: if stones.is_empty() {
            Turn::Pass
        } else {
            Turn::Stones(stones)
        },
        nodes: solver.nodes,
    })
}

/// What the table knows of a position: its value, exactly or as a bound.
#[derive(Clone, Copy)]
enum Known {
    Exact(i8),
    AtLeast(i8),
    AtMost(i8),
}

struct Solver<'a> {
    table: HashMap<u64, Known>,
    nodes: u64,
    limits: &'a SolveLimits,
}

impl Solver<'_> {
    /// The value of `pos` for its side to move within (alpha, beta), or
    /// `None` when the limits are reached.
    fn negamax(&mut self, pos: &Position, mut alpha: i8, mut beta: i8) -> Option<i8> {
        if pos.is_over() {
            return Some(final_value(pos));
        }
        self.nodes += 1;
        if self.nodes > self.limits.nodes || (self.nodes % 64 == 0 && self.out_of_time()) {
            return None;
        }
        let key = pos.hash();
        match self.table.get(&key) {
            Some(Known::Exact(v)) => return Some(*v),
            Some(Known::AtLeast(v)) => alpha = alpha.max(*v),
            Some(Known::AtMost(v)) => beta = beta.min(*v),
            None => {}
        }
        if alpha >= beta {
            return Some(alpha);
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut children = turns(pos);
        order(&mut children, pos.side_to_move());
        let mut best = -1;
        for (_, child) in &children {
            let v = -self.negamax(child, -beta, -alpha)?;
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let known = if best <= alpha0 {
            Known::AtMost(best)
        } else if best >= beta0 {
            Known::AtLeast(best)
        } else {
            Known::Exact(best)
        };
        self.table.insert(key, known);
        Some(best)
    }

    fn out_of_time(&self) -> bool {
        self.limits.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .limits
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// Win (1), draw (0) or loss (−1) of a finished game for its side to move.
fn final_value(pos: &Position) -> i8 {
    let me = pos.side_to_move();
    match pos.outcome().and_then(|o| o.winner()) {
        Some(winner) if winner == me => 1,
        Some(_) => -1,
        None => 0,
    }
}

/// Every distinct position a whole turn of the side to move can reach, with
/// the turn's stones (none: a pass).
fn turns(pos: &Position) -> Vec<(Vec<Point>, Position)> {
    let mut out = Vec::new();
    let mut passed = pos.clone();
    passed.pass().expect("a pass at the start of a turn");
    out.push((Vec::new(), passed));
    let mut seen = HashSet::new();
    let mut ended = HashSet::new();
    let mut steps = Vec::new();
    walk(pos, &mut steps, &mut seen, &mut ended, &mut out);
    out
}

/// Plays on every allowed step from `state` (a turn in progress or about to
/// start), keeping each position where the turn can end.
fn walk(
    state: &Position,
    steps: &mut Vec<Point>,
    seen: &mut HashSet<u64>,
    ended: &mut HashSet<u64>,
    out: &mut Vec<(Vec<Point>, Position)>,
) {
    let mut allowed = Vec::new();
    state.for_each_allowed_step(|p, kind| allowed.push((p, kind)));
    for (p, kind) in allowed {
        let mut next = state.clone();
        if next.play_step(p).is_err() || !seen.insert(next.hash()) {
            continue;
        }
        steps.push(p);
        if next.check_finish().is_ok() {
            let mut done = next.clone();
            done.finish_turn().expect("checked");
            if ended.insert(done.hash()) {
                out.push((steps.clone(), done));
            }
        }
        if kind == StepKind::Growth {
            walk(&next, steps, seen, ended, out);
        }
        steps.pop();
    }
}

/// Puts the turns most likely to be best first: by the mover's lead on the
/// board after them (captures and territory), passes last among equals.
fn order(children: &mut [(Vec<Point>, Position)], me: Color) {
    children.sort_by_cached_key(|(stones, after)| {
        let score = after.score();
        let lead = i64::from(score.of(me)) - i64::from(score.of(me.opponent()));
        (-lead, stones.is_empty())
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deliberately plain solver: minimax over the same turns, no table, no
    /// pruning.
    fn plain(pos: &Position) -> i8 {
        if pos.is_over() {
            return final_value(pos);
        }
        turns(pos)
            .iter()
            .map(|(_, child)| -plain(child))
            .max()
            .expect("a pass at least")
    }

    fn limits() -> SolveLimits {
        SolveLimits {
            nodes: 10_000_000,
            ..SolveLimits::default()
        }
    }

    /// The solver agrees with plain minimax on random endgames of small
    /// boards, and its turn keeps the result it claims.
    #[test]
    fn agrees_with_plain_minimax_on_random_endgames() {
        use rand::SeedableRng;
        use sygo_rules::Geometry;
        let mut checked = [0u32; 3];
        for (geometry, vacant) in [
            (Geometry::sygo(3).unwrap(), 4),
            (Geometry::sygo(4).unwrap(), 5),
            (Geometry::hexsygo(2).unwrap(), 4),
            (Geometry::hexsygo(3).unwrap(), 5),
        ] {
            for seed in 0..40 {
                let mut rng = rand_pcg::Pcg32::seed_from_u64(seed);
                let mut pos = Position::new(geometry);
                while !pos.is_over() && pos.vacant_count() > vacant {
                    pos.play_random_turn(&mut rng);
                }
                if pos.is_over() {
                    continue;
                }
                let expected = plain(&pos);
                let solution = solve(&pos, &limits()).unwrap();
                assert_eq!(solution.verdict as i8, expected, "{pos}");
                let mut after = pos.clone();
                after.play_turn(&solution.turn).unwrap();
                let kept = if after.is_over() {
                    final_value(&after)
                } else {
                    -plain(&after)
                };
                assert_eq!(kept, expected, "{pos}: {:?}", solution.turn);
                checked[(expected + 1) as usize] += 1;
            }
        }
        // Wins, draws and losses all came up.
        assert!(checked.iter().all(|&n| n > 0), "{checked:?}");
    }

    /// Two orders of the same growth stones are one turn; a pass is one.
    #[test]
    fn turns_are_listed_once_each() {
        // White A3 and C1: each grows at one of two points, in either order.
        let pos: Position = "sygo 3 W2/3/2W w g 0".parse().unwrap();
        let all = turns(&pos);
        let mut hashes: Vec<u64> = all.iter().map(|(_, p)| p.hash()).collect();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), all.len());
        // A pass, 4 single growths, 4 pairs, and placements on A1, B2, C3.
        assert_eq!(all.len(), 1 + 4 + 4 + 3);
    }

    /// A limit reached gives no answer rather than a wrong one.
    #[test]
    fn limits_give_up() {
        let pos: Position = "sygo 5 5/1W3/5/3B1/5 w g 0".parse().unwrap();
        let tight = SolveLimits {
            nodes: 10,
            ..SolveLimits::default()
        };
        assert_eq!(solve(&pos, &tight), None);
    }
}
