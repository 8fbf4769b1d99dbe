//! The defence reading: for a group of the side to move that its opponent
//! can reverse with one turn (a group in danger, `sygo_rules::Danger`), the
//! turns that keep it.
//!
//! Two turns are read, restricted to the groups involved, within a budget of
//! positions:
//!
//! 1. **my turn**: every turn whose stones lie on the *involved points*
//!    ([`involved_points`]: the group's liberties and the points next to
//!    them, the liberties of our groups it can connect to, of the opponent's
//!    groups next to these (capture an attacker first, or take liberties
//!    from the groups that would fill ours, so that their capture would be
//!    suicide), of our groups next to those attackers, and of the opponent's
//!    groups bigger than ours (a counter-threat)): single stones, growth
//!    turns of any of our groups on those points, and Black's balance turn;
//! 2. **their reply**: after each, whether the opponent can still reverse
//!    the group with one turn, read exactly by the rules library
//!    (`CaptureReader`, every turn of the opponent). A turn after which no
//!    reply reverses the group is *safe*.
//! 3. **my next turn**, for the turns that are not safe but threaten more:
//!    every reply that reverses the group with stones on the involved points
//!    (the group's liberties and those of the groups we threaten) is played,
//!    and then our best capture (the largest opponent group we can reverse
//!    with one turn, exactly) is weighed against what the reply took. A turn
//!    whose every such reply leaves us a bigger capture is a *trade*.
//!
//! `complete` says whether every candidate was read within the budget: the
//! lists are then exact over the turns on the involved points (and, for the
//! trades, over the replies on them); otherwise they hold what was read.

use std::collections::HashSet;

use sygo_rules::{CaptureReader, Color, Point, Position, StepKind, Turn};

/// What the defence reading found for one group (module doc).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Defences {
    /// Whether the opponent can reverse the group with one turn now (if not,
    /// there is nothing to defend and the lists are empty).
    pub in_danger: bool,
    /// Turns after which no turn of the opponent reverses the group.
    pub safe: Vec<Turn>,
    /// Turns after which the opponent can reverse the group, but every reply
    /// on the involved points that does leaves us a bigger capture.
    pub trades: Vec<Turn>,
    /// Whether every candidate was read within the budget.
    pub complete: bool,
    /// Positions read.
    pub nodes: u64,
}

/// The reader, with its scratch space.
#[derive(Clone, Debug, Default)]
pub struct DefenceReader {
    capture: CaptureReader,
    seen: HashSet<u64>,
    nodes: u64,
    budget: u64,
}

impl DefenceReader {
    /// A reader.
    pub fn new() -> DefenceReader {
        DefenceReader::default()
    }

    /// The defences of the group of the stone on `stone`, a group of the side
    /// to move of `pos` (between turns), reading at most `budget` positions.
    pub fn read(&mut self, pos: &Position, stone: Point, budget: u64) -> Defences {
        self.nodes = 0;
        self.budget = budget;
        let me = pos.side_to_move();
        let mut out = Defences {
            complete: true,
            ..Defences::default()
        };
        if pos.is_over() || pos.turn_in_progress() || pos.stone_at(stone) != Some(me) {
            return out;
        }
        out.in_danger = self.capture.can_reverse(pos, stone);
        if !out.in_danger {
            return out;
        }
        let size = pos.group(stone).len();
        let points = involved_points(pos, stone);
        let bigger = pos
            .stones()
            .any(|(p, c)| c == me.opponent() && pos.group(p).len() > size);
        let mut turns = Vec::new();
        out.complete = self.turns_on(pos, &points, &mut turns);
        for (turn, after) in turns {
            if !self.spend() {
                out.complete = false;
                break;
            }
            if !self.capture.can_reverse(&after, stone) {
                out.safe.push(turn);
            } else if bigger {
                match self.trade(&after, stone, me) {
                    Some(true) => out.trades.push(turn),
                    Some(false) => {}
                    None => {
                        out.complete = false;
                        break;
                    }
                }
            }
        }
        out.nodes = self.nodes;
        out
    }

    /// Counts a position read; `false` once the budget is spent.
    fn spend(&mut self) -> bool {
        if self.nodes >= self.budget {
            return false;
        }
        self.nodes += 1;
        true
    }

    /// Every turn of the side to move (us, or the opponent for a reply)
    /// with its stones on `points`, each
    /// distinct position once, with the position after it; `false` when the
    /// budget ran out first.
    fn turns_on(
        &mut self,
        pos: &Position,
        points: &[Point],
        out: &mut Vec<(Turn, Position)>,
    ) -> bool {
        self.seen.clear();
        let mut stack = vec![pos.clone()];
        while let Some(state) = stack.pop() {
            for &p in points {
                let Ok(kind) = state.check_step(p) else {
                    continue;
                };
                let mut next = state.clone();
                next.play_step_unchecked(p);
                if !self.seen.insert(next.hash()) {
                    continue;
                }
                if !self.spend() {
                    return false;
                }
                // A growth may leave a group without liberties for a moment,
                // to be rescued by a capture later in the turn (a balance
                // turn's placement, say): the turn goes on, but may not end
                // here.
                if next.check_finish().is_ok() {
                    let turn = Turn::Stones(next.turn_stones());
                    let mut done = next.clone();
                    done.finish_turn_unchecked();
                    out.push((turn, done));
                }
                if kind == StepKind::Growth {
                    stack.push(next);
                }
            }
        }
        true
    }

    /// Whether every reply of the opponent on the involved points that
    /// reverses our group leaves us a capture bigger than what it took;
    /// `None` when the budget ran out.
    fn trade(&mut self, after: &Position, stone: Point, me: Color) -> Option<bool> {
        // The replies: the opponent's turns on the group's liberties and on
        // the liberties of the groups we can reverse now.
        let mut points = after.liberties(stone);
        let mut threats = Vec::new();
        self.capture
            .for_each_reversible(after, me.opponent(), |s, _| threats.push(s));
        if threats.is_empty() {
            return Some(false);
        }
        for &t in &threats {
            add_all(&mut points, &after.liberties(t));
        }
        let mut replies = Vec::new();
        if !self.turns_on(after, &points, &mut replies) {
            return None;
        }
        let mine = after.stone_count(me);
        for (_, reply) in replies {
            if reply.stone_at(stone) == Some(me) {
                continue; // this reply leaves the group
            }
            if !self.spend() {
                return None;
            }
            let lost = mine.saturating_sub(reply.stone_count(me));
            let mut best = 0;
            for (p, c) in reply.stones() {
                if c == me.opponent() && self.capture.can_reverse(&reply, p) {
                    best = best.max(reply.group(p).len() as u32);
                }
            }
            if best <= lost {
                return Some(false);
            }
        }
        Some(true)
    }
}

/// The involved points of the group of the stone on `stone`, for its
/// owner's turn (the candidates of the defence reading, module doc):
///
/// - its liberties, and the vacant points next to them (a second stone that
///   extends it further, or another of our groups growing to meet it);
/// - the liberties of our groups next to those points (the groups it can
///   connect to);
/// - the liberties of the opponent's groups next to any of these groups or
///   to the group's liberties (the attackers: capture one first, or take its
///   liberties);
/// - the liberties of our groups next to an attacker (a capture of the
///   attacker joins them to ours);
/// - the liberties of the opponent's groups bigger than ours that have four
///   liberties or fewer (a counter-threat).
///
/// In increasing order; empty if p holds no stone.
pub fn involved_points(pos: &Position, stone: Point) -> Vec<Point> {
    let g = pos.geometry();
    let Some(me) = pos.stone_at(stone) else {
        return Vec::new();
    };
    let liberties = pos.liberties(stone);
    let mut points = liberties.clone();
    for &l in &liberties {
        for q in g.neighbours(l) {
            if pos.stone_at(q).is_none() {
                add_all(&mut points, &[q]);
            }
        }
    }
    // Each group once, by its stones.
    let mut seen: Vec<Point> = pos.group(stone);
    let mut friends: Vec<Point> = vec![stone];
    let near = points.clone();
    for &p in &near {
        for q in g.neighbours(p) {
            if pos.stone_at(q) == Some(me) && !seen.contains(&q) {
                seen.extend(pos.group(q));
                friends.push(q);
                add_all(&mut points, &pos.liberties(q));
            }
        }
    }
    let mut attackers: Vec<Point> = Vec::new();
    let mut around: Vec<Point> = liberties.clone();
    for &f in &friends {
        around.extend(pos.group(f));
    }
    for &p in &around {
        for q in g.neighbours(p) {
            if pos.stone_at(q) == Some(me.opponent()) && !seen.contains(&q) {
                seen.extend(pos.group(q));
                attackers.push(q);
                add_all(&mut points, &pos.liberties(q));
            }
        }
    }
    for &a in &attackers {
        for s in pos.group(a) {
            for q in g.neighbours(s) {
                if pos.stone_at(q) == Some(me) && !seen.contains(&q) {
                    seen.extend(pos.group(q));
                    add_all(&mut points, &pos.liberties(q));
                }
            }
        }
    }
    // Counter-threats: the liberties of the opponent's groups bigger than
    // ours with four liberties or fewer.
    let size = pos.group(stone).len();
    let mut looked: Vec<Point> = Vec::new();
    for (p, c) in pos.stones() {
        if c != me.opponent() || looked.contains(&p) {
            continue;
        }
        let group = pos.group(p);
        looked.extend(&group);
        let libs = pos.liberties(p);
        if group.len() > size && libs.len() <= 4 {
            add_all(&mut points, &libs);
        }
    }
    points.sort_unstable();
    points
}

/// Adds the points not yet in `to`.
fn add_all(to: &mut Vec<Point>, points: &[Point]) {
    for &p in points {
        if !to.contains(&p) {
            to.push(p);
        }
    }
}
