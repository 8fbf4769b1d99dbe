//! The oracle: exhaustive reading with the rules library, independent of the
//! AI and of any capture reading of the library.
//!
//! It uses only the library's checked operations on one step at a time
//! (`check_step`, `play_step`, `check_finish`, `finish_turn`), so that what
//! it finds is what the rules allow. To keep it fast, it asks `check_step`
//! only about points that the rules do not plainly forbid
//! ([`BaseGroups::candidates`]; `the_oracle_skips_only_forbidden_points`
//! checks that every point skipped is refused):
//!
//! - [`for_each_legal_turn`]: every legal turn of the side to move, one per
//!   resulting position;
//! - [`can_reverse`]: whether the side to move has a turn that reverses any
//!   of some stones.

use std::hash::{BuildHasherDefault, Hasher};

use sygo_rules::{Point, Position, Turn};

/// How many states within one turn [`can_reverse`] may visit before the
/// test gives up (a position too open for exhaustive reading).
const MAX_STATES: usize = 2_000_000;

/// Calls `visit` with every legal turn of the side to move in `start` (which
/// has no turn in progress) and the position it leads to, once per resulting
/// position: the pass, and every sequence of steps that the rules allow and
/// that may end where it stops (two orders or two sets of stones that lead
/// to the same position count once; the first order found is given).
///
/// A state within a turn is searched once however it was reached: a state is
/// the stones, their colours and which of them the turn added (the
/// position's hash says all three), and that decides what may follow (see
/// [`BaseGroups`]: which base groups are fresh follows from the stones).
///
/// Returns the number of states searched, or `None`, having stopped, when
/// the turn has more than `max_states` states (the position is too open to
/// read this way).
pub fn for_each_legal_turn(
    start: &Position,
    max_states: usize,
    mut visit: impl FnMut(&Turn, &Position),
) -> Option<usize> {
    let mut after_pass = start.clone();
    after_pass.pass().expect("a pass is always legal");
    visit(&Turn::Pass, &after_pass);
    let mut read = Reading {
        base: BaseGroups::new(start),
        seen: HashSet::default(),
        reached: HashSet::from_iter([after_pass.hash()]),
        max_states,
        visit: &mut visit,
    };
    read.extend(start, &mut Vec::new())
        .then_some(read.seen.len())
}

/// The reading of [`for_each_legal_turn`] so far.
struct Reading<'a> {
    base: BaseGroups,
    /// The states within the turn searched.
    seen: HashSet,
    /// The resulting positions found, by their hashes.
    reached: HashSet,
    max_states: usize,
    visit: &'a mut dyn FnMut(&Turn, &Position),
}

impl Reading<'_> {
    /// Every continuation of the turn in progress in `pos` (its stones so
    /// far in `stones`): each allowed next step, the turn ended there if it
    /// may end, and searched on. `false` when the states ran out.
    fn extend(&mut self, pos: &Position, stones: &mut Vec<Point>) -> bool {
        for p in self.base.candidates(pos) {
            if pos.check_step(p).is_err() {
                continue;
            }
            let mut next = pos.clone();
            next.play_step(p).expect("a checked step");
            if !self.seen.insert(next.hash()) {
                continue;
            }
            if self.seen.len() > self.max_states {
                return false;
            }
            stones.push(p);
            if next.check_finish().is_ok() {
                let mut after = next.clone();
                after.finish_turn().expect("a checked finish");
                if self.reached.insert(after.hash()) {
                    (self.visit)(&Turn::Stones(stones.clone()), &after);
                }
            }
            if !self.extend(&next, stones) {
                return false;
            }
            stones.pop();
        }
        true
    }
}

/// The base groups of a turn (the mover's groups when it began), to tell
/// which points the rules plainly forbid in a state of the turn.
pub struct BaseGroups {
    /// Every point of the board.
    points: Vec<Point>,
    /// The neighbours of each point, by point index.
    neighbours: Vec<Vec<Point>>,
    /// For each point index, the number of the base group on it.
    group: Vec<Option<usize>>,
    count: usize,
    /// The vacant points next to a base stone when the turn began.
    growth_points: Vec<Point>,
    /// The opponent's stones when the turn began (the only ones that can be
    /// reversed).
    opponent_stones: Vec<Point>,
}

impl BaseGroups {
    /// The base groups of the turn that begins in `start`.
    pub fn new(start: &Position) -> BaseGroups {
        assert!(!start.turn_in_progress(), "a turn is in progress");
        let g = start.geometry();
        let mover = start.side_to_move();
        let points: Vec<Point> = g.points().collect();
        let mut neighbours = vec![Vec::new(); g.index_len()];
        let mut group = vec![None; g.index_len()];
        let mut count = 0;
        for &p in &points {
            neighbours[p.index()] = g.neighbours(p).collect();
            if start.stone_at(p) == Some(mover) && group[p.index()].is_none() {
                for q in start.group(p) {
                    group[q.index()] = Some(count);
                }
                count += 1;
            }
        }
        let growth_points = points
            .iter()
            .copied()
            .filter(|&p| {
                start.stone_at(p).is_none()
                    && neighbours[p.index()]
                        .iter()
                        .any(|&q| start.stone_at(q) == Some(mover))
            })
            .collect();
        let opponent_stones = points
            .iter()
            .copied()
            .filter(|&p| start.stone_at(p) == Some(mover.opponent()))
            .collect();
        BaseGroups {
            points,
            neighbours,
            group,
            count,
            growth_points,
            opponent_stones,
        }
    }

    /// The points worth asking `check_step` about in `pos`, a state of the
    /// turn: every point at the start of the turn; then the vacant points
    /// that touch a base stone and only base groups that are still fresh
    /// (docs/rules.md §5, g2 and g3), and, while the balance turn is open, the
    /// vacant points that touch no stone of the mover (a placement may end
    /// it; outside it no placement may follow a growth, §4).
    ///
    /// A base group is fresh iff no new stone touches it and no stone
    /// reversed this turn touches it: a growth stone makes the groups it
    /// touches grown (§5 step 1), and a capture freezes the base groups of
    /// the group that contains the reversed stones (step 3); a base group
    /// in that group touches a reversed stone or a new stone (two base
    /// groups never touch each other), and a base group that touches a
    /// reversed stone joins its group when it is reversed.
    pub fn candidates(&self, pos: &Position) -> Vec<Point> {
        if !pos.turn_in_progress() {
            return self.points.clone();
        }
        let mover = pos.side_to_move();
        let mut used = vec![false; self.count];
        let reversed = self
            .opponent_stones
            .iter()
            .filter(|&&q| pos.stone_at(q) == Some(mover));
        for &q in pos.turn_stones().iter().chain(reversed) {
            for &r in &self.neighbours[q.index()] {
                if let Some(k) = self.group[r.index()] {
                    used[k] = true;
                }
            }
        }
        let grows = |p: Point| {
            let mut base = self.neighbours[p.index()]
                .iter()
                .filter_map(|q| self.group[q.index()]);
            // g2: next to a base stone; g3: every such group fresh.
            pos.stone_at(p).is_none() && base.clone().next().is_some() && base.all(|k| !used[k])
        };
        let mut out: Vec<Point> = self
            .growth_points
            .iter()
            .copied()
            .filter(|&p| grows(p))
            .collect();
        if pos.balance_available() {
            out.extend(self.points.iter().copied().filter(|&p| {
                pos.stone_at(p).is_none()
                    && self.neighbours[p.index()]
                        .iter()
                        .all(|&q| pos.stone_at(q) != Some(mover))
            }));
        }
        out
    }
}

/// A hasher for keys that are already Zobrist hashes: the key itself.
#[derive(Default)]
pub struct ZobristKey(u64);

impl Hasher for ZobristKey {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys")
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// A set of Zobrist hashes.
pub type HashSet = std::collections::HashSet<u64, BuildHasherDefault<ZobristKey>>;

/// Whether the side to move in `pos` (no turn in progress) has a legal turn
/// that reverses any of `targets`, stones of the other colour.
///
/// Exact, and searched over fewer steps than [`for_each_legal_turn`]: only
/// steps on a point next to a stone of the targets' colour. Why that loses
/// nothing: take a legal turn that reverses a target and drop from it a step
/// s next to no such stone. s filled no liberty of the targets' colour, so
/// every capture of the turn still happens at the same step, and no stone of
/// that colour ever comes next to s (none is added in the mover's turn). s
/// made base groups grown, and perhaps joined groups to a capture (freezing
/// them): without it those groups are only freer, so every later step is
/// still allowed (a later stone that touched s also touches a base group, or
/// it would not have been allowed). Every group of the mover that touched s
/// now has s's point as a liberty, and the others keep theirs, so the turn
/// may still end. A placement next to no such stone captures nothing and
/// touches no stone of the mover: dropping it (the last step) changes no
/// other group either. So the shorter turn is legal and reverses the same
/// stones; dropping steps one by one leaves a turn made only of steps that
/// this search tries.
pub fn can_reverse(pos: &Position, targets: &[Point]) -> bool {
    let mover = pos.side_to_move();
    assert!(
        targets
            .iter()
            .all(|&p| pos.stone_at(p) == Some(mover.opponent())),
        "the targets are the opponent's stones"
    );
    let base = BaseGroups::new(pos);
    search_reversal(&base, pos, targets, &mut HashSet::default())
}

fn search_reversal(
    base: &BaseGroups,
    pos: &Position,
    targets: &[Point],
    seen: &mut HashSet,
) -> bool {
    let g = pos.geometry();
    let mover = pos.side_to_move();
    for p in base.candidates(pos) {
        let near_target_colour = g
            .neighbours(p)
            .any(|q| pos.stone_at(q) == Some(mover.opponent()));
        if !near_target_colour || pos.check_step(p).is_err() {
            continue;
        }
        let mut next = pos.clone();
        next.play_step(p).expect("a checked step");
        if !seen.insert(next.hash()) {
            continue;
        }
        assert!(seen.len() < MAX_STATES, "too many states to read");
        if targets.iter().any(|&t| next.stone_at(t) == Some(mover)) && next.check_finish().is_ok() {
            return true;
        }
        if search_reversal(base, &next, targets, seen) {
            return true;
        }
    }
    false
}
