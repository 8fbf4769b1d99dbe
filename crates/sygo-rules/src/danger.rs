//! Groups in danger: which groups the opponent can reverse with one turn,
//! and with which turn, read exactly (docs/rules.md §4–§7).
//!
//! In Sygo a player with k groups next to an enemy group can fill k of its
//! liberties in one growth turn, so a group with two or three liberties can
//! be lost at once. [`CaptureReader`] answers, for a group T and its
//! opponent (the *attacker*) to move: is there a legal turn of the attacker
//! after which T is reversed? It gives one such turn (the *witness*). The
//! answer is exact: it is tested against the enumeration of every turn.
//!
//! # How the question is read
//!
//! The attacker's groups when the turn begins are its *base groups*. Write
//! L(Y) for the liberties of a defender group Y, and B(s) for the base groups
//! next to a vacant point s. A turn reverses Y iff its stones fill all of
//! L(Y) (the defender does not move, so Y's stones and liberties stay as
//! they are until then).
//!
//! 1. **Only liberties of reversed groups are needed.** A stone of a turn
//!    that fills no liberty of a group the turn reverses can be taken out:
//!    the other steps stay allowed (its base groups stay fresh, a capture it
//!    helped connect freezes less), the same groups are reversed, and at the
//!    end every group it was part of touches its point, now vacant, so §7
//!    still holds. So a turn that reverses T can be taken to fill exactly
//!    S = the union of L(Y) over a set C of defender groups, T among them.
//! 2. **Each stone's kind is fixed by its point.** A stone on s with B(s)
//!    empty can only be a placement (a growth must touch a base stone, g2):
//!    the single stone of a placement turn, or the last stone of Black's
//!    balance turn, touching no other stone of S (§4, §6). A stone with B(s)
//!    not empty is a growth that grows every group of B(s), which must all be
//!    fresh (g3): so the sets B(s) of the growth stones are pairwise
//!    disjoint, and at most one stone of S is a placement.
//! 3. **Freezing is a question of order.** A base group that has not grown
//!    is a group of its own unless a reversed group touches it (a new stone
//!    next to it would have grown it). So a capture of Y newly freezes
//!    exactly the base groups next to Y that have not grown yet, and the only
//!    harm is to one that S still needs: if base group b next to Y grows at
//!    s_b, then s_b must come no later than the step that fills the last of
//!    L(Y). The order is built from the end: a stone may come last when each
//!    base group it grows is next to no reversed group whose liberties it
//!    does not fill; taking any such stone is never wrong (what the others
//!    need of each other does not change), so the greedy order finds one iff
//!    one exists.
//! 4. **Suicide (§7) is judged on the final position,** which depends only
//!    on S. With S = L(T) every new stone touches T, so all of them end in
//!    the one group that reverses T; it has a liberty iff a stone of S has a
//!    vacant neighbour outside S, or a base group it unites has a
//!    (stone, liberty) contact outside S: pseudo-liberties say that at once.
//! 5. **A turn that would be suicide may be rescued by more captures.** A
//!    group left without liberties at the end has no vacant neighbour to
//!    fill: it can only be joined to a living group through a defender group
//!    next to it that the turn also reverses. So the reading adds such
//!    groups to C one at a time and reads again (steps 2–4 only get harder
//!    as S grows, which prunes the search). This is the rare case; the common
//!    one is answered in one walk of T and a look at its liberties'
//!    neighbours.
//!
//! [`CaptureReader`] keeps its scratch space between questions, so asking it
//! allocates nothing once it has seen a board. [`Position::dangers`] lists
//! every group in danger for interfaces, with its stones, liberties and
//! witness turn.

use crate::board::{COLOR, EMPTY};
use crate::color::Color;
use crate::geometry::Point;
use crate::position::Position;
use crate::turn::StepKind;

/// No slot.
const NONE: u16 = u16::MAX;

/// How a witness turn is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureKind {
    /// One placement on the group's last liberty (docs/rules.md §4).
    Placement,
    /// One or more growth steps (§5): one attacking group or several growing
    /// together.
    Growth,
    /// Black's balance turn (§6): growth steps, then a placement.
    Balance,
}

/// A group that its opponent can reverse with one turn (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Danger {
    /// The group's stones, in increasing order.
    pub stones: Vec<Point>,
    /// The group's colour.
    pub color: Color,
    /// The group's liberties, in increasing order.
    pub liberties: Vec<Point>,
    /// Whether the opponent moves next (otherwise the group's owner is to
    /// move, and the danger is what the opponent could do if the owner
    /// passed or played elsewhere).
    pub next_turn: bool,
    /// A turn of the opponent that reverses the group: its stones in an
    /// order in which every step is allowed.
    pub turn: Vec<Point>,
    /// What kind of turn that is.
    pub kind: CaptureKind,
    /// How many of the opponent's groups the turn grows.
    pub growers: u32,
}

/// The exact one-turn capture reading, with its scratch space (module doc).
///
/// # Examples
///
/// ```
/// use sygo_rules::{CaptureReader, Geometry, Position};
/// let g = Geometry::sygo(5).unwrap();
/// let at = |s: &str| g.parse_point(s).unwrap();
/// // White C3 has four liberties, and each touches a Black stone of its
/// // own (C5, A3, E3, C1): Black grows all four at once and reverses it.
/// let pos: Position = "sygo 5 2B2/5/B1W1B/5/2B2 b g 0".parse().unwrap();
/// let mut reader = CaptureReader::new();
/// assert!(reader.can_reverse(&pos, at("C3")));
/// assert_eq!(reader.turn().len(), 4);
/// let mut after = pos.clone();
/// for &p in reader.turn() {
///     after.play_step(p).unwrap();
/// }
/// after.finish_turn().unwrap();
/// assert_eq!(after.stone_at(at("C3")), Some(sygo_rules::Color::Black));
/// // Black A3 has three liberties and White one group: White has no turn
/// // that reverses it.
/// assert!(!reader.can_reverse(&pos, at("A3")));
/// ```
#[derive(Clone, Debug, Default)]
pub struct CaptureReader {
    /// The stamp of the current question; the per-point marks below hold it
    /// when they are set for this question.
    stamp: u32,
    /// Per point: `stamp` when the point is in S.
    in_set: Vec<u32>,
    /// Per point in S: its slot in `set`.
    slot: Vec<u16>,
    /// Per attacker root: `stamp` when a growth stone of S grows it.
    used: Vec<u32>,
    /// Per attacker root used: the slot of the stone that grows it.
    grower: Vec<u16>,
    /// Per root: `stamp` when looked at already (for listing roots once).
    seen: Vec<u32>,
    /// S, in the order its points were found.
    set: Vec<u16>,
    /// The slot of the placement in S, or `NONE`.
    placement: u16,
    /// The defender groups (roots) S reverses.
    captured: Vec<u16>,
    /// Pairs (slot of a growth stone, index in `captured`): the stone must
    /// come no later than the last liberty of that group.
    constraints: Vec<(u16, u16)>,
    /// Per slot: scheduled already (the order is built from the end).
    placed: Vec<bool>,
    /// Per index of `captured`: one of its liberties is scheduled after.
    satisfied: Vec<bool>,
    /// The order of S, from the last stone back.
    backwards: Vec<u16>,
    /// The witness of the last positive answer.
    witness: Vec<Point>,
    /// The rescue search (module doc, 5): the sets C tried, as a pool of
    /// roots with (start, length) per set, and a hash of each set seen.
    pool: Vec<u16>,
    todo: Vec<(u32, u32)>,
    tried: Vec<u64>,
    /// A copy of the position to play a turn on.
    scratch: Option<Box<Position>>,
}

impl CaptureReader {
    /// A reader with no scratch space yet (it is sized on the first board
    /// it reads).
    pub fn new() -> CaptureReader {
        CaptureReader::default()
    }

    /// Whether the group of the stone on p can be reversed by its opponent
    /// with one turn, the opponent to move now (on a position between turns;
    /// during a turn, the board is read as if the turn had ended there).
    /// Black's balance turn counts when the opponent is Black and no growth
    /// turn has been played. When it can, [`CaptureReader::turn`] gives a
    /// turn that does it.
    ///
    /// `false` for a point with no stone, and for a group without liberties
    /// (a transient suicide of a turn in progress).
    pub fn can_reverse(&mut self, pos: &Position, p: Point) -> bool {
        let i = p.index();
        let Some(color) = (i < pos.geometry().index_len())
            .then(|| pos.board.stone(i))
            .flatten()
        else {
            return false;
        };
        self.prepare(pos);
        let attacker = color.opponent();
        let balance = attacker == Color::Black && !pos.growth_started();
        let root = pos.board.root(i);
        match pos.geometry().degree() {
            4 => self.read::<4>(pos, root, attacker, balance),
            _ => self.read::<6>(pos, root, attacker, balance),
        }
    }

    /// The witness of the last question answered `true`: the stones of a
    /// turn that reverses the group, in an order in which each step is
    /// allowed.
    pub fn turn(&self) -> &[Point] {
        &self.witness
    }

    /// Calls `f(stone, turn)` for every group of `color` that its opponent
    /// can reverse with one turn: a stone of the group, and the witness
    /// turn. Each group once.
    pub fn for_each_reversible(
        &mut self,
        pos: &Position,
        color: Color,
        mut f: impl FnMut(Point, &[Point]),
    ) {
        self.prepare(pos);
        let attacker = color.opponent();
        let balance = attacker == Color::Black && !pos.growth_started();
        let g = pos.geometry();
        for i in 0..g.index_len() {
            if pos.board.color(i) != color as u8 || pos.board.root(i) != i {
                continue;
            }
            let found = match g.degree() {
                4 => self.read::<4>(pos, i, attacker, balance),
                _ => self.read::<6>(pos, i, attacker, balance),
            };
            if found {
                f(Point(i as u16), &self.witness);
            }
        }
    }

    /// Sizes the per-point tables for `pos`'s board.
    fn prepare(&mut self, pos: &Position) {
        let n = pos.geometry().index_len();
        if self.in_set.len() < n {
            self.in_set.resize(n, 0);
            self.slot.resize(n, 0);
            self.used.resize(n, 0);
            self.grower.resize(n, 0);
            self.seen.resize(n, 0);
        }
    }

    /// A fresh stamp: every mark of earlier questions is forgotten.
    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.in_set.fill(0);
            self.used.fill(0);
            self.seen.fill(0);
            self.stamp = 1;
        }
    }

    /// The question of [`CaptureReader::can_reverse`] for the group with root
    /// `target`, on a board of degree `D`.
    fn read<const D: usize>(
        &mut self,
        pos: &Position,
        target: usize,
        attacker: Color,
        balance: bool,
    ) -> bool {
        if pos.board.libs(target) == 0 {
            return false;
        }
        self.start_set();
        // Steps 1–2 with C = {T}: a failure here holds for every larger C.
        if !self.add_liberties::<D>(pos, target, attacker)
            || !self.placement_fits::<D>(pos, balance)
        {
            return false;
        }
        // Step 3.
        if !self.schedule::<D>(pos, attacker) {
            return false;
        }
        // Step 4: the common case decides here.
        if self.alive_at_end::<D>(pos, attacker) {
            self.write_witness();
            return true;
        }
        // Step 5.
        self.rescue::<D>(pos, target, attacker, balance)
    }

    /// Starts an empty S under a new stamp.
    fn start_set(&mut self) {
        self.next_stamp();
        self.set.clear();
        self.placement = NONE;
    }

    /// Adds the liberties of the defender group with root `r` to S, with
    /// their base groups (step 2). `false` when two growth stones would
    /// share a base group or two stones would need a placement.
    fn add_liberties<const D: usize>(&mut self, pos: &Position, r: usize, attacker: Color) -> bool {
        let geometry = pos.geometry();
        for s in pos.board.group_stones(r) {
            for l in geometry.around::<D>(s) {
                if pos.board.cell(l) & COLOR == EMPTY
                    && self.in_set[l] != self.stamp
                    && !self.add_point::<D>(pos, l, attacker)
                {
                    return false;
                }
            }
        }
        true
    }

    /// Adds vacant point l to S (not in it yet).
    fn add_point<const D: usize>(&mut self, pos: &Position, l: usize, attacker: Color) -> bool {
        let slot = self.set.len() as u16;
        self.in_set[l] = self.stamp;
        self.slot[l] = slot;
        self.set.push(l as u16);
        let mut grows = false;
        for q in pos.geometry().around::<D>(l) {
            if pos.board.color(q) != attacker as u8 {
                continue;
            }
            let b = pos.board.root(q);
            if self.used[b] == self.stamp {
                if self.grower[b] != slot {
                    // Another stone of S grows b already (g3).
                    return false;
                }
                continue;
            }
            self.used[b] = self.stamp;
            self.grower[b] = slot;
            grows = true;
        }
        if !grows {
            if self.placement != NONE {
                return false;
            }
            self.placement = slot;
        }
        true
    }

    /// The placement of S, if any, can be played: S is that one stone (a
    /// placement turn), or it is the last stone of a balance turn and touches
    /// no other stone of S.
    fn placement_fits<const D: usize>(&self, pos: &Position, balance: bool) -> bool {
        if self.placement == NONE || self.set.len() == 1 {
            return true;
        }
        let p = usize::from(self.set[usize::from(self.placement)]);
        balance
            && pos
                .geometry()
                .around::<D>(p)
                .iter()
                .all(|&q| self.in_set[q] != self.stamp)
    }

    /// Number of (stone of the group with root r, point of S) neighbour
    /// pairs, and of points of S next to the group.
    fn contacts<const D: usize>(&self, pos: &Position, r: usize) -> (u32, usize) {
        let geometry = pos.geometry();
        let (mut pairs, mut points) = (0, 0);
        for &s in &self.set {
            let n = geometry
                .around::<D>(usize::from(s))
                .iter()
                .filter(|&&q| pos.board.cell(q) & COLOR != EMPTY && pos.board.root(q) == r)
                .count() as u32;
            pairs += n;
            points += usize::from(n > 0);
        }
        (pairs, points)
    }

    /// Whether point s (in S) is a liberty of the group with root r.
    fn touches_group<const D: usize>(pos: &Position, s: usize, r: usize) -> bool {
        pos.geometry()
            .around::<D>(s)
            .iter()
            .any(|&q| pos.board.cell(q) & COLOR != EMPTY && pos.board.root(q) == r)
    }

    /// Step 3: the groups S reverses, what their captures freeze, and an
    /// order of S that keeps every needed base group fresh until it grows
    /// (into `backwards`); `false` when there is none.
    fn schedule<const D: usize>(&mut self, pos: &Position, attacker: Color) -> bool {
        let geometry = pos.geometry();
        let defender = attacker.opponent() as u8;
        // The reversed groups: every liberty in S (pseudo-liberties: all of a
        // group's (stone, vacant) contacts are with points of S).
        self.captured.clear();
        self.constraints.clear();
        for k in 0..self.set.len() {
            let s = usize::from(self.set[k]);
            for q in geometry.around::<D>(s) {
                if pos.board.color(q) != defender {
                    continue;
                }
                let y = pos.board.root(q);
                if self.seen[y] == self.stamp {
                    continue;
                }
                self.seen[y] = self.stamp;
                let (pairs, points) = self.contacts::<D>(pos, y);
                if u32::from(pos.board.libs(y)) != pairs {
                    continue;
                }
                let index = self.captured.len() as u16;
                self.captured.push(y as u16);
                if points == self.set.len() {
                    // Every stone of S fills a liberty of y: y is reversed by
                    // the last stone, after everything it could freeze grew.
                    continue;
                }
                // The base groups next to y that S grows elsewhere.
                for t in pos.board.group_stones(y) {
                    for b in geometry.around::<D>(t) {
                        if pos.board.color(b) != attacker as u8 {
                            continue;
                        }
                        let b = pos.board.root(b);
                        if self.used[b] != self.stamp {
                            continue;
                        }
                        let g = self.grower[b];
                        let stone = usize::from(self.set[usize::from(g)]);
                        if !Self::touches_group::<D>(pos, stone, y)
                            && !self.constraints.contains(&(g, index))
                        {
                            self.constraints.push((g, index));
                        }
                    }
                }
            }
        }
        // The order, from the end.
        let n = self.set.len();
        self.backwards.clear();
        self.placed.clear();
        self.placed.resize(n, false);
        self.satisfied.clear();
        self.satisfied.resize(self.captured.len(), false);
        if self.constraints.is_empty() {
            // Any order; the placement last.
            if self.placement != NONE {
                self.backwards.push(self.placement);
            }
            self.backwards
                .extend((0..n as u16).rev().filter(|&k| k != self.placement));
            return true;
        }
        if self.placement != NONE {
            self.take_last::<D>(pos, self.placement);
        }
        while self.backwards.len() < n {
            let Some(k) = (0..n as u16).find(|&k| {
                !self.placed[usize::from(k)]
                    && self
                        .constraints
                        .iter()
                        .all(|&(g, y)| g != k || self.satisfied[usize::from(y)])
            }) else {
                return false;
            };
            self.take_last::<D>(pos, k);
        }
        true
    }

    /// Schedules slot k before the stones scheduled so far: every reversed
    /// group it is a liberty of is captured no earlier than k.
    fn take_last<const D: usize>(&mut self, pos: &Position, k: u16) {
        self.placed[usize::from(k)] = true;
        self.backwards.push(k);
        let s = usize::from(self.set[usize::from(k)]);
        for (i, &y) in self.captured.iter().enumerate() {
            if !self.satisfied[i] && Self::touches_group::<D>(pos, s, usize::from(y)) {
                self.satisfied[i] = true;
            }
        }
    }

    /// Step 4 for S = L(T): whether the one group that reverses T has a
    /// liberty at the end of the turn.
    fn alive_at_end<const D: usize>(&mut self, pos: &Position, attacker: Color) -> bool {
        let geometry = pos.geometry();
        // A stone of S with a vacant neighbour outside S.
        for &s in &self.set {
            if geometry
                .around::<D>(usize::from(s))
                .iter()
                .any(|&q| pos.board.cell(q) & COLOR == EMPTY && self.in_set[q] != self.stamp)
            {
                return true;
            }
        }
        // A base group it unites with a liberty outside S: the groups next to
        // S (grown) and next to the reversed groups. `seen` marks defender
        // roots this question, so attacker roots can share it.
        let me = attacker as u8;
        for k in 0..self.set.len() {
            for q in geometry.around::<D>(usize::from(self.set[k])) {
                if pos.board.color(q) == me && self.base_has_outside_liberty::<D>(pos, q) {
                    return true;
                }
            }
        }
        for i in 0..self.captured.len() {
            let y = usize::from(self.captured[i]);
            for t in pos.board.group_stones(y) {
                for q in geometry.around::<D>(t) {
                    if pos.board.color(q) == me && self.base_has_outside_liberty::<D>(pos, q) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether the attacker group of stone q, looked at once per question,
    /// has a (stone, vacant) contact with a point outside S.
    fn base_has_outside_liberty<const D: usize>(&mut self, pos: &Position, q: usize) -> bool {
        let b = pos.board.root(q);
        if self.seen[b] == self.stamp {
            return false;
        }
        self.seen[b] = self.stamp;
        u32::from(pos.board.libs(b)) > self.contacts::<D>(pos, b).0
    }

    /// The witness: `backwards` reversed, as points.
    fn write_witness(&mut self) {
        self.witness.clear();
        for &k in self.backwards.iter().rev() {
            self.witness.push(Point(self.set[usize::from(k)]));
        }
    }

    /// Step 5: S = L(T) fills T's liberties legally but leaves a group of
    /// the attacker without liberties. Adds defender groups next to a dead
    /// group to C, depth first, each set C once.
    fn rescue<const D: usize>(
        &mut self,
        pos: &Position,
        target: usize,
        attacker: Color,
        balance: bool,
    ) -> bool {
        self.pool.clear();
        self.todo.clear();
        self.tried.clear();
        self.pool.push(target as u16);
        self.todo.push((0, 1));
        while let Some((start, len)) = self.todo.pop() {
            let (start, len) = (start as usize, len as usize);
            self.start_set();
            let mut fits = true;
            for i in start..start + len {
                let r = usize::from(self.pool[i]);
                if !self.add_liberties::<D>(pos, r, attacker) {
                    fits = false;
                    break;
                }
            }
            if !fits
                || !self.placement_fits::<D>(pos, balance)
                || !self.schedule::<D>(pos, attacker)
            {
                continue;
            }
            // Play the turn on a copy, and look for a group without liberty.
            self.write_witness();
            let dead = self.play_witness::<D>(pos, attacker);
            let Some(dead) = dead else {
                return true;
            };
            // The defender groups next to it, each a new set C.
            let scratch = self.scratch.as_deref().expect("played");
            let defender = attacker.opponent() as u8;
            let geometry = pos.geometry();
            let mut candidates = [0u16; 64];
            let mut n = 0;
            for t in scratch.board.group_stones(dead) {
                for q in geometry.around::<D>(t) {
                    if scratch.board.color(q) == defender {
                        let y = scratch.board.root(q) as u16;
                        if !candidates[..n].contains(&y)
                            && !self.pool[start..start + len].contains(&y)
                            && n < candidates.len()
                        {
                            candidates[n] = y;
                            n += 1;
                        }
                    }
                }
            }
            for &y in &candidates[..n] {
                let hash = self.pool[start..start + len]
                    .iter()
                    .chain([&y])
                    .fold(0u64, |h, &r| h.wrapping_add(mix(u64::from(r))));
                if self.tried.contains(&hash) {
                    continue;
                }
                self.tried.push(hash);
                let new_start = self.pool.len();
                self.pool.extend_from_within(start..start + len);
                self.pool.push(y);
                self.todo.push((new_start as u32, len as u32 + 1));
            }
        }
        false
    }

    /// Plays the witness on the scratch copy of `pos`, `attacker` to move;
    /// returns the root of a group of the attacker left without liberties.
    fn play_witness<const D: usize>(&mut self, pos: &Position, attacker: Color) -> Option<usize> {
        let scratch = self
            .scratch
            .get_or_insert_with(|| Box::new(Position::new(pos.geometry())));
        scratch.copy_for_reading(pos, attacker);
        let placement =
            (self.placement != NONE).then(|| usize::from(self.set[usize::from(self.placement)]));
        for &p in &self.witness {
            let kind = if Some(p.index()) == placement {
                StepKind::Placement
            } else {
                StepKind::Growth
            };
            scratch.apply_step_d::<D>(p.index(), kind);
        }
        self.witness
            .iter()
            .map(|p| scratch.board.root(p.index()))
            .find(|&r| scratch.board.libs(r) == 0)
    }
}

/// A 64-bit mix of a root, for hashing sets of roots by their sum.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Position {
    /// Every group that its opponent can reverse with one turn starting now
    /// (the groups of the player not to move: by the next turn; those of the
    /// player to move: if that player passed), in order of their lowest
    /// stone, each with a witness turn. Empty once the game is over. See
    /// [`CaptureReader`] for the fast path and the method.
    ///
    /// # Examples
    ///
    /// ```
    /// use sygo_rules::{CaptureKind, Color, Geometry, Position};
    /// let g = Geometry::sygo(5).unwrap();
    /// let at = |s: &str| g.parse_point(s).unwrap();
    /// // White A1 has one liberty, A2, next to no Black stone: Black places
    /// // there. Black B1, C1 has two liberties and White only one group.
    /// let pos: Position = "sygo 5 5/5/5/5/WBB2 b g 0".parse().unwrap();
    /// let dangers = pos.dangers();
    /// assert_eq!(dangers.len(), 1);
    /// assert_eq!(dangers[0].stones, vec![at("A1")]);
    /// assert_eq!(dangers[0].color, Color::White);
    /// assert!(dangers[0].next_turn);
    /// assert_eq!(dangers[0].turn, vec![at("A2")]);
    /// assert_eq!(dangers[0].kind, CaptureKind::Placement);
    /// ```
    pub fn dangers(&self) -> Vec<Danger> {
        if self.is_over() {
            return Vec::new();
        }
        let mut reader = CaptureReader::new();
        let mut found: Vec<(Point, Vec<Point>)> = Vec::new();
        for color in Color::BOTH {
            reader.for_each_reversible(self, color, |stone, turn| {
                found.push((stone, turn.to_vec()));
            });
        }
        let mut dangers: Vec<Danger> = found
            .into_iter()
            .map(|(stone, turn)| self.danger_of(stone, turn))
            .collect();
        dangers.sort_by_key(|d| d.stones[0]);
        dangers
    }

    /// The [`Danger`] of the group of `stone`, reversed by `turn`.
    fn danger_of(&self, stone: Point, turn: Vec<Point>) -> Danger {
        let color = self.stone_at(stone).expect("a stone");
        let attacker = color.opponent();
        let geometry = self.geometry();
        let mut growers: Vec<usize> = Vec::new();
        let mut placed = false;
        for &p in &turn {
            let mut grows = false;
            for q in geometry.adjacent(p.index()) {
                if self.board.color(q) == attacker as u8 {
                    grows = true;
                    let r = self.board.root(q);
                    if !growers.contains(&r) {
                        growers.push(r);
                    }
                }
            }
            placed |= !grows;
        }
        let kind = match (placed, turn.len()) {
            (false, _) => CaptureKind::Growth,
            (true, 1) => CaptureKind::Placement,
            (true, _) => CaptureKind::Balance,
        };
        Danger {
            stones: self.group(stone),
            color,
            liberties: self.liberties(stone),
            next_turn: attacker == self.side_to_move(),
            turn,
            kind,
            growers: growers.len() as u32,
        }
    }
}
