//! Best play to the end of the game, for positions with few vacant points:
//! the exact final margin of every turn, read by a plain negamax over whole
//! turns (the oracle's list of legal turns, positions remembered by hash).
//! It uses nothing of the library's or the AI's search.
//!
//! Near the end of a game a one-turn goal (capture these stones, keep those)
//! can be beside the point: a group taken now may be taken back, or the game
//! may be won or lost whatever is played. Where the game can be read to its
//! end, the correct turns of a position are the ones that end it with the
//! best margin for the side to move.

use std::collections::HashMap;

use sygo_rules::{Color, Position, Turn};

use super::oracle::{self, HashSet};

/// Positions with at most this many vacant points are read to the end (a
/// few seconds at most on the set's boards).
pub const MAX_VACANT: usize = 16;

/// The most states within one turn read (as the oracle's other readings).
const MAX_STATES: usize = 1_000_000;

/// The reader: the side to move's final margin (its points less the
/// opponent's) with best play by both sides, by negamax with alpha-beta over
/// whole turns (best-looking first: the mover's lead on the board after the
/// turn), and a table of positions read with the bound each value is.
pub struct Exact {
    memo: HashMap<u64, (i32, Bound)>,
}

/// What a value in the table is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    /// At least the value (the search was cut off above).
    Lower,
    /// At most the value (nothing reached the window).
    Upper,
}

/// One turn of a position with its exact margin.
pub struct Scored {
    /// The turn (one of the orders of its stones).
    pub turn: Turn,
    /// The position after it.
    pub after: Position,
    /// The mover's final margin after it, with best play.
    pub margin: i32,
}

impl Exact {
    pub fn new() -> Exact {
        Exact {
            memo: HashMap::new(),
        }
    }

    /// The final margin for the side to move in `pos` with best play.
    pub fn value(&mut self, pos: &Position) -> i32 {
        self.search(pos, -INFINITE, INFINITE)
    }

    /// `me`'s final margin with best play from `after`, a position reached
    /// by a turn of `me`.
    pub fn margin_after(&mut self, after: &Position, me: Color) -> i32 {
        self.window_after(after, me, -INFINITE, INFINITE)
    }

    /// [`Exact::margin_after`] within the window (`alpha`, `beta`) for `me`:
    /// exact inside it, else a bound on the side of the window it falls.
    fn window_after(&mut self, after: &Position, me: Color, alpha: i32, beta: i32) -> i32 {
        if after.is_over() {
            margin_for(after, me)
        } else if after.side_to_move() == me {
            self.search(after, alpha, beta)
        } else {
            -self.search(after, -beta, -alpha)
        }
    }

    /// Negamax with alpha-beta: the value of `pos` for its side to move if
    /// it lies in (`alpha`, `beta`), else a bound beyond the window.
    fn search(&mut self, pos: &Position, mut alpha: i32, mut beta: i32) -> i32 {
        if pos.is_over() {
            return margin_for(pos, pos.side_to_move());
        }
        if let Some(&(v, bound)) = self.memo.get(&pos.hash()) {
            match bound {
                Bound::Exact => return v,
                Bound::Lower if v >= beta => return v,
                Bound::Upper if v <= alpha => return v,
                Bound::Lower => alpha = alpha.max(v),
                Bound::Upper => beta = beta.min(v),
            }
        }
        let me = pos.side_to_move();
        let mut after = Vec::new();
        oracle::for_each_legal_turn(pos, MAX_STATES, |_, p| {
            after.push((margin_for(p, me), p.clone()));
        })
        .expect("a position read to the end has few states in a turn");
        after.sort_by_key(|(lead, _)| std::cmp::Reverse(*lead));
        let start = alpha;
        let mut best = -INFINITE;
        for (_, p) in &after {
            let v = self.window_after(p, me, alpha, beta);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= start {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.memo.insert(pos.hash(), (best, bound));
        best
    }

    /// Every turn of `start` with its exact margin, best first.
    pub fn turns(&mut self, start: &Position) -> Vec<Scored> {
        let me = start.side_to_move();
        let mut scored: Vec<Scored> = Vec::new();
        for (turn, after) in turns_of(start) {
            let margin = self.margin_after(&after, me);
            scored.push(Scored {
                turn,
                after,
                margin,
            });
        }
        scored.sort_by_key(|s| std::cmp::Reverse(s.margin));
        scored
    }

    /// The positions reached by the best turns of `start` (by hash), and
    /// the best margin: the best by a full search, then each turn tested
    /// against it with a null window.
    pub fn best(&mut self, start: &Position) -> (HashSet, i32) {
        let me = start.side_to_move();
        let best = self.value(start);
        let mut hashes = HashSet::default();
        for (_, after) in turns_of(start) {
            if self.window_after(&after, me, best - 1, best) >= best {
                hashes.insert(after.hash());
            }
        }
        (hashes, best)
    }
}

/// More than any margin.
const INFINITE: i32 = 1 << 20;

/// Every legal turn of `start` with the position after it.
pub fn turns_of(start: &Position) -> Vec<(Turn, Position)> {
    let mut found = Vec::new();
    oracle::for_each_legal_turn(start, MAX_STATES, |turn, after| {
        found.push((turn.clone(), after.clone()));
    })
    .expect("a position read to the end has few states in a turn");
    found
}

/// `me`'s points less the opponent's (in a finished game, its final
/// margin; before, the lead on the board that orders the turns).
fn margin_for(pos: &Position, me: Color) -> i32 {
    let score = pos.score();
    score.of(me) as i32 - score.of(!me) as i32
}

/// The plain negamax the reader's alpha-beta must agree with: every turn
/// read to the end, no pruning (for tests on small positions).
pub fn plain_value(pos: &Position, memo: &mut HashMap<u64, i32>) -> i32 {
    if pos.is_over() {
        return margin_for(pos, pos.side_to_move());
    }
    if let Some(&v) = memo.get(&pos.hash()) {
        return v;
    }
    let me = pos.side_to_move();
    let best = turns_of(pos)
        .iter()
        .map(|(_, after)| {
            if after.is_over() {
                margin_for(after, me)
            } else if after.side_to_move() == me {
                plain_value(after, memo)
            } else {
                -plain_value(after, memo)
            }
        })
        .max()
        .expect("a pass is always legal");
    memo.insert(pos.hash(), best);
    best
}
