//! Exact play of small endgames.
//!
//! When few vacant points are left, every line of play to the end of the
//! game can be searched: [`solve`] finds, for the side to move, whether the
//! game is won, drawn or lost with best play on both sides, and a turn that
//! keeps that result; [`Solver::best_margin`] finds by how much, and the
//! turn that ends the game with the best margin. The searching player asks
//! it before its search: on a small board the playouts misjudge the last few
//! points (they put big groups in atari at random), and a game won on the
//! board can be lost by one point there; and once the result is decided,
//! every turn that keeps it looks alike to a search of wins and losses,
//! where a player who counts plays the one that keeps the most.
//!
//! The search is a negamax with alpha-beta over the final margin, over
//! whole turns, with a table of positions already read (keyed by the rules
//! library's hash, which holds the side to move and the passes), each value
//! kept with what it bounds. The result alone is the margin read within the
//! window (−1, 1), where only its sign is exact: far fewer positions. The
//! turns of a position are listed step by step as the rules allow them,
//! each distinct resulting position once (two orders of the same growth
//! stones are one turn); a pass is always one of them. Every turn but a pass
//! fills a vacant point and two passes end the game, so every line ends.
//!
//! Turns are tried best-looking first: by the mover's lead on the board
//! after them, then by the history heuristic (points whose turns cut the
//! search off before, weighted by how near the root). Before any turn is
//! searched, one that reaches a position the table already bounds well
//! enough for the mover cuts the search off at once (enhanced transposition
//! cutoff). Together these cut the positions searched on Hexsygo 5 endgames
//! to about a third.
//!
//! A [`Solver`] keeps its table between calls: the player keeps one for the
//! whole game, so each turn's search starts from what the searches of the
//! turns before proved, even those that ran out of time.

use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use sygo_rules::{Color, Outcome, Point, Position, StepKind, Turn};

use crate::search::KeyHasher;

/// Maps and sets keyed by the rules library's hashes, used as they are.
type Keyed = BuildHasherDefault<KeyHasher>;

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
    /// The side to move's result: 1 a win, ½ a draw, 0 a loss.
    pub fn result(self) -> f32 {
        match self {
            Verdict::Win => 1.0,
            Verdict::Draw => 0.5,
            Verdict::Loss => 0.0,
        }
    }

    fn from_value(v: Value) -> Verdict {
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
    /// The side to move's final margin (its points less the opponent's)
    /// with best play, when the solver read for it ([`Solver::best_margin`]);
    /// `turn` then reaches it.
    pub margin: Option<i32>,
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
/// (or the game is over, or a turn is in progress). A shorthand for
/// [`Solver::solve`] with a new solver.
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
    Solver::new().solve(position, limits)
}

/// What the table knows of a position: its value, exactly or as a bound,
/// and the hash of the position after the best turn found there.
#[derive(Clone, Copy)]
struct Known {
    bound: Bound,
    /// A final margin for the side to move, exact or a bound.
    value: Value,
    best: u64,
}

/// A position's value in the solver: the side to move's final margin. A
/// search for the result alone reads it within the window (−1, 1), where
/// only its sign is exact; the table keeps every value with what it bounds,
/// so one search's findings serve the other.
type Value = i16;

/// More than any margin: the value of a game won by resignation.
const DECISIVE: Value = 10_000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    AtLeast,
    AtMost,
}

/// A turn of a position being searched: where its stones lie in the
/// node's list of stones, the hash of the position after it, and the
/// mover's lead on the board after it (to try the best-looking first).
#[derive(Clone, Copy)]
struct Child {
    stones: (u32, u32),
    hash: u64,
    lead: i32,
    /// The largest history credit among the turn's stones.
    history: u64,
}

/// The endgame solver, with its table of positions solved so far. Keeping
/// one solver for a whole game lets each turn's search start from what the
/// searches of the turns before proved (every entry stays true: it is a
/// fact about a position, whatever window found it).
#[derive(Default)]
pub struct Solver {
    table: HashMap<u64, Known, Keyed>,
    nodes: u64,
    /// Positions, lists and sets to reuse: nothing is allocated per node
    /// once the solver has warmed up. The positions are boxed so that taking
    /// one and giving it back moves a pointer, not the whole position
    /// (several kilobytes, sized for the largest board).
    positions: Vec<Box<Position>>,
    lists: Vec<(Vec<Child>, Vec<Point>)>,
    sets: Vec<HashSet<u64, Keyed>>,
    /// Per point index: the history heuristic's credit (see
    /// [`Solver::reward`]), kept with the table.
    history: Vec<u64>,
}

impl Child {
    /// The turn's stones, out of its node's list of stones.
    fn stones_in<'a>(&self, stones: &'a [Point]) -> &'a [Point] {
        &stones[self.stones.0 as usize..self.stones.1 as usize]
    }
}

/// Entries of the table beyond which it is emptied (about 40 MB).
const TABLE_CAP: usize = 1 << 21;

impl Solver {
    /// A solver with an empty table.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Forgets every position solved (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.clear();
    }

    /// The exact result of `position` for the side to move and a turn that
    /// keeps it (see [`solve`]).
    pub fn solve(&mut self, position: &Position, limits: &SolveLimits) -> Option<Solution> {
        self.read_root(position, limits, 1)
    }

    /// The side to move's best final margin in `position` with best play on
    /// both sides, and a turn that reaches it: the result and by how much
    /// (a longer search than [`Solver::solve`], which reads the result
    /// alone). `None` when the limits are reached first (or the game is
    /// over, or a turn is in progress).
    pub fn best_margin(&mut self, position: &Position, limits: &SolveLimits) -> Option<Solution> {
        self.read_root(position, limits, DECISIVE + 1)
    }

    /// Reads `position` within the window (−`beta`, `beta`): with `beta` 1,
    /// the result alone (the first turn found to reach the best of win, draw
    /// and loss); beyond every margin, the best margin exactly, and the
    /// solution says it.
    fn read_root(
        &mut self,
        position: &Position,
        limits: &SolveLimits,
        beta: Value,
    ) -> Option<Solution> {
        if position.is_over() || position.turn_in_progress() {
            return None;
        }
        if self.table.len() > TABLE_CAP {
            self.table.clear();
        }
        self.nodes = 0;
        let (mut children, mut stones) = self.lists.pop().unwrap_or_default();
        self.turns(position, &mut children, &mut stones);
        self.order(&mut children, &stones);
        // The best turn found before (by an earlier search) first.
        if let Some(known) = self.table.get(&position.hash())
            && let Some(i) = children.iter().position(|c| c.hash == known.best)
        {
            children[..=i].rotate_right(1);
        }
        let exact = beta > DECISIVE;
        let mut child = self.take_position(position);
        let mut best: Option<(Value, usize)> = None;
        let mut alpha = -beta;
        let mut result = Some(());
        for (i, c) in children.iter().enumerate() {
            play(&mut child, position, c.stones_in(&stones));
            // Within (alpha, beta): exact where it beats the best so far.
            let Some(v) = self.negamax(&child, -beta, -alpha, limits).map(|v| -v) else {
                result = None;
                break;
            };
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, i));
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.positions.push(child);
        let solution = result.and(best).map(|(value, index)| {
            let c = children[index];
            let turn_stones = c.stones_in(&stones).to_vec();
            if exact {
                let known = Known {
                    bound: Bound::Exact,
                    value,
                    best: c.hash,
                };
                self.table.insert(position.hash(), known);
            }
            Solution {
                verdict: Verdict::from_value(value),
                turn: if turn_stones.is_empty() {
                    Turn::Pass
                } else {
                    Turn::Stones(turn_stones)
                },
                margin: exact.then_some(i32::from(value)),
                nodes: self.nodes,
            }
        });
        self.lists.push((children, stones));
        solution
    }

    /// The value of `pos` for its side to move within (alpha, beta), or
    /// `None` when the limits are reached.
    fn negamax(
        &mut self,
        pos: &Position,
        mut alpha: Value,
        mut beta: Value,
        limits: &SolveLimits,
    ) -> Option<Value> {
        if pos.is_over() {
            return Some(final_value(pos));
        }
        self.nodes += 1;
        if self.nodes > limits.nodes || (self.nodes % 64 == 0 && out_of_time(limits)) {
            return None;
        }
        let key = pos.hash();
        let mut best_hash = 0;
        if let Some(known) = self.table.get(&key) {
            match known.bound {
                Bound::Exact => return Some(known.value),
                Bound::AtLeast => alpha = alpha.max(known.value),
                Bound::AtMost => beta = beta.min(known.value),
            }
            if alpha >= beta {
                return Some(known.value);
            }
            best_hash = known.best;
        }
        let (alpha0, beta0) = (alpha, beta);
        let (mut children, mut stones) = self.lists.pop().unwrap_or_default();
        self.turns(pos, &mut children, &mut stones);
        // Enhanced transposition cutoff: a turn to a position the table
        // already knows is worth at least beta to the mover cuts the search
        // off at once, before any turn is searched.
        if let Some((best, value)) = self.known_cutoff(&children, beta) {
            self.lists.push((children, stones));
            let known = Known {
                bound: Bound::AtLeast,
                value,
                best,
            };
            self.table.insert(key, known);
            return Some(value);
        }
        self.order(&mut children, &stones);
        // The best turn found before (by an earlier search) first.
        if let Some(i) = children.iter().position(|c| c.hash == best_hash) {
            children[..=i].rotate_right(1);
        }
        let mut child = self.take_position(pos);
        let mut best = -DECISIVE - 1;
        let mut best_child = 0;
        let mut result = Some(());
        let vacant = pos.vacant_count();
        for c in &children {
            play(&mut child, pos, c.stones_in(&stones));
            let Some(v) = self.negamax(&child, -beta, -alpha, limits).map(|v| -v) else {
                result = None;
                break;
            };
            if v > best || best_child == 0 {
                best = best.max(v);
                best_child = c.hash;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                self.reward(c.stones_in(&stones), vacant);
                break;
            }
        }
        self.positions.push(child);
        self.lists.push((children, stones));
        result?;
        let bound = if best <= alpha0 {
            Bound::AtMost
        } else if best >= beta0 {
            Bound::AtLeast
        } else {
            Bound::Exact
        };
        self.table.insert(
            key,
            Known {
                bound,
                value: best,
                best: best_child,
            },
        );
        Some(best)
    }

    /// A turn to a position whose value for the opponent (to move there)
    /// the table bounds from above so that it is worth at least `beta` to
    /// the mover: its hash and that value.
    fn known_cutoff(&self, children: &[Child], beta: Value) -> Option<(u64, Value)> {
        children.iter().find_map(|c| {
            let k = self.table.get(&c.hash)?;
            (k.bound != Bound::AtLeast && -k.value >= beta).then_some((c.hash, -k.value))
        })
    }

    /// Puts the turns most likely to be best first: by the mover's lead on
    /// the board after them (captures and territory), then by the history of
    /// their stones (how much searching their points has cut off before),
    /// passes last among equals.
    fn order(&self, children: &mut [Child], stones: &[Point]) {
        for c in children.iter_mut() {
            c.history = c
                .stones_in(stones)
                .iter()
                .map(|p| self.history.get(p.index()).copied().unwrap_or(0))
                .max()
                .unwrap_or(0);
        }
        children.sort_by_key(|c| (-c.lead, Reverse(c.history), c.stones.0 == c.stones.1));
    }

    /// Credits the points of a turn that cut the search off at a position
    /// with `vacant` vacant points (the history heuristic): a cutoff near
    /// the root, which saves the most, counts the most.
    fn reward(&mut self, stones: &[Point], vacant: usize) {
        let weight = 1u64 << vacant.min(40);
        for p in stones {
            if self.history.len() <= p.index() {
                self.history.resize(p.index() + 1, 0);
            }
            self.history[p.index()] = self.history[p.index()].saturating_add(weight);
        }
    }

    /// A position to play on (any content), from the pool.
    fn take_position(&mut self, like: &Position) -> Box<Position> {
        self.positions
            .pop()
            .unwrap_or_else(|| Box::new(like.clone()))
    }

    /// Lists every distinct position a whole turn of the side to move can
    /// reach: a pass first, then the turns found step by step.
    fn turns(&mut self, pos: &Position, children: &mut Vec<Child>, stones: &mut Vec<Point>) {
        children.clear();
        stones.clear();
        let mut passed = self.take_position(pos);
        passed.as_mut().clone_from(pos);
        passed.pass().expect("a pass at the start of a turn");
        children.push(Child {
            stones: (0, 0),
            hash: passed.hash(),
            lead: lead(&passed, pos.side_to_move()),
            history: 0,
        });
        self.positions.push(passed);
        let mut seen = self.sets.pop().unwrap_or_default();
        seen.clear();
        let mut steps = Vec::new();
        self.walk(pos, pos, &mut steps, &mut seen, children, stones);
        self.sets.push(seen);
    }

    /// Plays on every allowed step from `state` (a turn of `start`'s mover
    /// in progress or about to start), keeping each new position where the
    /// turn can end. `seen` holds the states reached so far (in progress or
    /// ended).
    fn walk(
        &mut self,
        start: &Position,
        state: &Position,
        steps: &mut Vec<Point>,
        seen: &mut HashSet<u64, Keyed>,
        children: &mut Vec<Child>,
        stones: &mut Vec<Point>,
    ) {
        let mut allowed = Vec::new();
        state.for_each_allowed_step(|p, kind| allowed.push((p, kind)));
        let mut next = self.take_position(state);
        for (p, kind) in allowed {
            next.as_mut().clone_from(state);
            if next.play_step(p).is_err() || !seen.insert(next.hash()) {
                continue;
            }
            steps.push(p);
            if next.check_finish().is_ok() {
                let mut done = self.take_position(&next);
                done.clone_from(&next);
                done.finish_turn().expect("checked");
                if seen.insert(done.hash()) {
                    let from = stones.len() as u32;
                    stones.extend_from_slice(steps);
                    children.push(Child {
                        stones: (from, stones.len() as u32),
                        hash: done.hash(),
                        lead: lead(&done, start.side_to_move()),
                        history: 0,
                    });
                }
                self.positions.push(done);
            }
            if kind == StepKind::Growth {
                self.walk(start, &next, steps, seen, children, stones);
            }
            steps.pop();
        }
        self.positions.push(next);
    }
}

/// Plays the turn made of `stones` (none: a pass) from `from` into `into`.
fn play(into: &mut Position, from: &Position, stones: &[Point]) {
    into.clone_from(from);
    if stones.is_empty() {
        into.pass().expect("a pass at the start of a turn");
        return;
    }
    for &p in stones {
        into.play_step(p).expect("a step found legal");
    }
    into.finish_turn().expect("a turn found complete");
}

/// The lead of `me` on the board of `pos` (stones and territory).
fn lead(pos: &Position, me: Color) -> i32 {
    let score = pos.score();
    score.of(me) as i32 - score.of(me.opponent()) as i32
}

fn out_of_time(limits: &SolveLimits) -> bool {
    limits.deadline.is_some_and(|d| Instant::now() >= d)
        || limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
}

/// The final margin of a finished game for its side to move (its points
/// less the opponent's; ±[`DECISIVE`] after a resignation).
fn final_value(pos: &Position) -> Value {
    let me = pos.side_to_move();
    match pos.outcome() {
        Some(Outcome::Score(score)) => {
            (score.of(me) as i32 - score.of(me.opponent()) as i32) as Value
        }
        Some(outcome) => match outcome.winner() {
            Some(winner) if winner == me => DECISIVE,
            Some(_) => -DECISIVE,
            None => 0,
        },
        None => 0,
    }
}

/// Every distinct position a whole turn of the side to move can reach, with
/// the turn's stones (none: a pass).
#[cfg(test)]
fn turns(pos: &Position) -> Vec<(Vec<Point>, Position)> {
    let mut solver = Solver::new();
    let (mut children, mut stones) = (Vec::new(), Vec::new());
    solver.turns(pos, &mut children, &mut stones);
    children
        .iter()
        .map(|c| {
            let s = c.stones_in(&stones).to_vec();
            let mut after = pos.clone();
            play(&mut after, pos, &s);
            assert_eq!(after.hash(), c.hash);
            (s, after)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deliberately plain solver: minimax over the same turns, no table, no
    /// pruning.
    fn plain(pos: &Position) -> Value {
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
                let value_after = |turn: &Turn| {
                    let mut after = pos.clone();
                    after.play_turn(turn).unwrap();
                    if after.is_over() {
                        final_value(&after)
                    } else {
                        -plain(&after)
                    }
                };
                // The result alone.
                let solution = solve(&pos, &limits()).unwrap();
                assert_eq!(solution.verdict as i8, expected.signum() as i8, "{pos}");
                assert_eq!(solution.margin, None);
                let kept = value_after(&solution.turn);
                assert_eq!(
                    kept.signum(),
                    expected.signum(),
                    "{pos}: {:?}",
                    solution.turn
                );
                // The margin, by a solver that has read the result (its
                // table holds bounds from the narrow window) and by a new one.
                let mut solver = Solver::new();
                solver.solve(&pos, &limits()).unwrap();
                for margin in [
                    solver.best_margin(&pos, &limits()).unwrap(),
                    Solver::new().best_margin(&pos, &limits()).unwrap(),
                ] {
                    assert_eq!(margin.margin, Some(i32::from(expected)), "{pos}");
                    assert_eq!(margin.verdict as i8, expected.signum() as i8, "{pos}");
                    assert_eq!(
                        value_after(&margin.turn),
                        expected,
                        "{pos}: {:?}",
                        margin.turn
                    );
                }
                checked[(expected.signum() + 1) as usize] += 1;
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

    /// A solver kept between calls answers the same from its table, with
    /// fewer positions searched.
    #[test]
    fn the_table_is_kept_between_calls() {
        use rand::SeedableRng;
        let g = sygo_rules::Geometry::hexsygo(3).unwrap();
        let mut rng = rand_pcg::Pcg32::seed_from_u64(11);
        let mut pos = Position::new(g);
        while pos.vacant_count() > 7 {
            pos.play_random_turn(&mut rng);
        }
        let mut solver = Solver::new();
        let first = solver.solve(&pos, &limits()).unwrap();
        let again = solver.solve(&pos, &limits()).unwrap();
        assert_eq!(first.verdict, again.verdict);
        assert!(first.nodes > 10, "{} positions", first.nodes);
        assert!(
            again.nodes < first.nodes / 2,
            "{} then {}",
            first.nodes,
            again.nodes
        );
        solver.clear();
        assert_eq!(solver.solve(&pos, &limits()).unwrap().nodes, first.nodes);
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
