//! The playout policy: better than uniform, still fast.
//!
//! A playout plays whole turns until two passes, like the rules library's
//! random player (`sygo_rules::Position::play_random_turn`), with three
//! changes, each a parameter of [`PlayoutSettings`]:
//!
//! 1. **Tactics first.** At the start of a turn, with probability
//!    `tactics`, the stones of the opponent's last turn are looked at: an
//!    opponent group among them left in atari is captured (its last liberty
//!    played), else a group of ours next to them that is in atari is saved by
//!    growing into its liberty, if that point has two vacant neighbours. The
//!    groups in atari when the playout began (a capture or a save the tree
//!    left standing) are looked at the same way, every turn.
//! 2. **Eyes are kept.** A vacant point all of whose neighbours are our
//!    stones is never filled by us: filling it trades a point of territory
//!    for a stone and takes a liberty from our own group. Uniform playouts
//!    fill such eyes until a group has one liberty left, and then the
//!    opponent reverses it: two-eyed groups die at random. With eyes kept, a
//!    playout ends when every vacant point is an eye or a suicide for both
//!    players, so every vacant region is a single point and the score is read
//!    in one pass over the board.
//! 3. **Growth turns grow (nearly) every group.** After each growth step
//!    the turn goes on with probability `continue_growth`. By default that
//!    is 1 on boards of at most `SMALL_BOARD` (64) points, so a growth turn
//!    grows each of our groups that has a wanted growth point, as a player
//!    does, and `LARGE_BOARD_GROWTH` (0.9) on larger boards. The library's
//!    random player goes on with ½: about two stones a growth turn whatever
//!    the number of groups, which cannot show what several groups are
//!    worth. Measured (docs/ai.md, the playouts): against `uct` on Hexsygo
//!    5, 99% with 1 against about 91% with ½; in self-play at equal
//!    simulations 0.9 beats ½ by about +120 Elo on Sygo 9×9 and more on
//!    13×13; 1 on the larger boards is stronger still, but lost positions
//!    of the tactics set the tests hold (Sygo 9 to 13, Hexsygo 8).
//! 4. **Captures read exactly.** At a turn's start, with probability
//!    `reading`, the opponent's groups that hold the stones of their last
//!    turn are read with the rules library's one-turn capture reading
//!    (`CaptureReader`): the first that can be reversed is, by the whole
//!    turn the reading gives (several groups growing together, a balance
//!    turn), and the turn then goes on as a growth turn does. This comes
//!    before rule 1.
//! 5. **No self-atari of big groups.** A stone that would leave its own
//!    group of `self_atari` stones or more with one liberty
//!    ([`Position::self_atari`], captures included: the reversed stones
//!    bring no liberty) is not played. Uniform play fills the last
//!    liberties of its own big groups and hands them to the opponent, so
//!    the playouts judged groups that live in real play as dead: in a
//!    Hexsygo 5 endgame that Black won by a point, Black's groups went
//!    from two liberties to one by Black's own turn, then were reversed,
//!    in most playouts (84% of them were lost for Black; 21% with the rule).
//!    Smaller groups may still be sacrificed.
//!
//! Otherwise each stone is drawn uniformly among the *eligible* points
//! ([`Position::eligible_step`]): a vacant point is drawn at random, and one
//! found ineligible is set aside for the rest of the turn, so a turn costs at
//! most one look at each vacant point. An eligible stone leaves its group a
//! liberty, so a turn may always end after it; the stones that leave a group
//! without a liberty for a moment, rescued by a capture later in the turn,
//! are played only in the whole turns of rule 4, which the reading gives
//! legal. A playout that starts in the middle of a turn the tree left with
//! a group without a liberty first plays the steps that rescue it
//! ([`Position::turn_completion`]). The points are kept in an array of
//! our own, updated as stones are played (stones never leave the board, and
//! reversals change no vacant point).

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use sygo_rules::{CaptureReader, Color, Geometry, Point, Position, StepKind};

use crate::search::{Outcome, Trace};

/// The parameters of the playout policy (module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutSettings {
    /// Probability of looking for a capture or a save at a turn's start.
    pub tactics: f32,
    /// Never fill a point surrounded by our own stones.
    pub keep_eyes: bool,
    /// Probability of another growth step after each growth step; `None`:
    /// 1 on boards of at most `SMALL_BOARD` (64) points,
    /// `LARGE_BOARD_GROWTH` on larger ones.
    pub continue_growth: Option<f32>,
    /// A stone that would leave its own group of at least this many stones
    /// in atari (one liberty, captures included) is not played (0: no such
    /// rule).
    pub self_atari: u32,
    /// Probability that a playout is uniformly random instead (the rules
    /// library's random game, as the `uct` baseline plays them).
    pub uniform: f32,
    /// Probability of reading, at a turn's start, whether an opponent group
    /// the last turn played next to can be reversed with one turn (several
    /// of our groups growing together, a balance turn), and of playing that
    /// turn; else whether one of ours next to it can be, and of growing it.
    pub reading: f32,
}

impl Default for PlayoutSettings {
    fn default() -> PlayoutSettings {
        PlayoutSettings {
            tactics: 0.9,
            keep_eyes: true,
            continue_growth: None,
            self_atari: 3,
            uniform: 0.0,
            reading: 0.9,
        }
    }
}

/// Boards of at most this many points grow every group in a playout's
/// growth turn by default (rule 3 of the module doc): Hexsygo up to base 5,
/// Sygo up to 8×8.
pub const SMALL_BOARD: usize = 64;

/// The chance of another growth step in a playout on boards larger than
/// [`SMALL_BOARD`] by default (rule 3 of the module doc).
pub const LARGE_BOARD_GROWTH: f32 = 0.9;

/// The scratch space and random generator of one thread's playouts, and the
/// ownership they add up.
#[derive(Clone, Debug)]
pub struct Playouts {
    settings: PlayoutSettings,
    /// The chance of another growth step on the board of the last playout
    /// (rule 3).
    growth: f32,
    rng: Pcg64Mcg,
    /// The board's points, listed once for the board of the last playout.
    board: Option<Geometry>,
    points: Vec<Point>,
    /// The vacant points: the live ones (not yet found ineligible this turn)
    /// first.
    vacant: Vec<Point>,
    /// Each vacant point's index in `vacant` (by point index).
    slot: Vec<u32>,
    live: usize,
    /// The stones of the turn before, and of this turn.
    last_turn: Vec<Point>,
    /// A stone of each group in atari when the playout began: a capture or
    /// a save that the tree left standing is looked at as well.
    standing: Vec<Point>,
    this_turn: Vec<Point>,
    /// Per point index: the sum of final owners (+1 Black, −1 White).
    ownership: Vec<i32>,
    /// The exact one-turn capture reading, and the turn it found.
    reader: CaptureReader,
    capture: Vec<Point>,
    /// Playouts added up in `ownership`.
    counted: u64,
}

impl Playouts {
    /// Playouts with these settings; `seed` fixes their random choices.
    pub fn new(settings: PlayoutSettings, seed: u64) -> Playouts {
        Playouts {
            settings,
            growth: 0.5,
            rng: Pcg64Mcg::seed_from_u64(seed),
            board: None,
            points: Vec::new(),
            vacant: Vec::new(),
            slot: Vec::new(),
            live: 0,
            last_turn: Vec::new(),
            standing: Vec::new(),
            this_turn: Vec::new(),
            ownership: Vec::new(),
            counted: 0,
            reader: CaptureReader::new(),
            capture: Vec::new(),
        }
    }

    /// The settings.
    pub fn settings(&self) -> &PlayoutSettings {
        &self.settings
    }

    /// Plays `pos` to the end of the game (finishing a growth turn in
    /// progress first) and returns Black's outcome; each stone is recorded in
    /// `trace` under its point's index.
    pub fn play(&mut self, pos: &mut Position, trace: &mut Trace) -> Outcome {
        self.list_points(pos.geometry());
        if self.settings.uniform > 0.0 && self.chance(self.settings.uniform) {
            // A growth turn in progress ends where it is, once a group the
            // tree left without a liberty is rescued.
            if pos.turn_in_progress() {
                self.collect_vacant(pos);
                self.this_turn.clear();
                self.rescue(pos, trace);
                pos.finish_turn_unchecked();
            }
            pos.play_random_game(&mut self.rng);
            self.collect_vacant(pos);
            return self.score(pos);
        }
        self.collect_vacant(pos);
        self.collect_ataris(pos);
        self.last_turn.clear();
        if pos.turn_in_progress() {
            self.this_turn.clear();
            self.rescue(pos, trace);
            if !pos.turn_ended_by_placement() {
                self.grow_on(pos, trace);
            }
            pos.finish_turn_unchecked();
            self.revive();
        }
        while !pos.is_over() {
            self.play_turn(pos, trace);
        }
        self.score(pos)
    }

    /// The mean final owner of each point of `pos`'s board over the playouts
    /// since the last [`Playouts::reset_ownership`], in the order of
    /// `Geometry::points` (+1 Black, −1 White), with the number of playouts.
    pub fn ownership(&self, pos: &Position) -> (Vec<f32>, u64) {
        let n = self.counted.max(1) as f32;
        let owners = pos
            .geometry()
            .points()
            .map(|p| self.ownership.get(p.index()).map_or(0.0, |&s| s as f32 / n))
            .collect();
        (owners, self.counted)
    }

    /// Forgets the ownership added up so far.
    pub fn reset_ownership(&mut self) {
        self.ownership.iter_mut().for_each(|s| *s = 0);
        self.counted = 0;
    }

    /// A random number below n (n > 0).
    #[inline]
    fn below(&mut self, n: usize) -> usize {
        ((u64::from(self.rng.next_u32()) * n as u64) >> 32) as usize
    }

    /// True with probability p.
    #[inline]
    fn chance(&mut self, p: f32) -> bool {
        (self.rng.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0) < p
    }

    /// Lists the points of board `g` (and sizes the tables by point index),
    /// unless the last playout was on the same board.
    fn list_points(&mut self, g: Geometry) {
        if self.board == Some(g) {
            return;
        }
        self.board = Some(g);
        self.growth = self
            .settings
            .continue_growth
            .unwrap_or(if g.num_points() <= SMALL_BOARD {
                1.0
            } else {
                LARGE_BOARD_GROWTH
            });
        self.points = g.points().collect();
        self.slot.resize(g.index_len(), 0);
        self.ownership.clear();
        self.ownership.resize(g.index_len(), 0);
        self.counted = 0;
    }

    fn collect_vacant(&mut self, pos: &Position) {
        self.vacant.clear();
        for &p in &self.points {
            if pos.stone_at(p).is_none() {
                self.slot[p.index()] = self.vacant.len() as u32;
                self.vacant.push(p);
            }
        }
        self.live = self.vacant.len();
    }

    /// A stone of each group in atari.
    fn collect_ataris(&mut self, pos: &Position) {
        self.standing.clear();
        if self.settings.tactics <= 0.0 {
            return;
        }
        let standing = &mut self.standing;
        pos.for_each_atari(|stone, _| standing.push(stone));
    }

    /// Makes every vacant point live again (a new turn).
    #[inline]
    fn revive(&mut self) {
        self.live = self.vacant.len();
    }

    /// Moves the point at index i of `vacant` to index j.
    #[inline]
    fn put(&mut self, i: usize, j: usize) {
        let p = self.vacant[i];
        self.vacant[j] = p;
        self.slot[p.index()] = j as u32;
    }

    /// Sets the live point at index i aside for the rest of the turn.
    #[inline]
    fn reject(&mut self, i: usize) {
        self.live -= 1;
        self.vacant.swap(i, self.live);
        let (a, b) = (self.vacant[i], self.vacant[self.live]);
        self.slot[a.index()] = i as u32;
        self.slot[b.index()] = self.live as u32;
    }

    /// Removes vacant point p (a stone was played on it).
    #[inline]
    fn remove(&mut self, p: Point) {
        let mut i = self.slot[p.index()] as usize;
        if i < self.live {
            // Fill its place with the last live point; that one's place is
            // now the hole, at the end of the live part.
            self.live -= 1;
            self.put(self.live, i);
            i = self.live;
        }
        let last = self.vacant.len() - 1;
        if i != last {
            self.put(last, i);
        }
        self.vacant.pop();
    }

    /// Plays a step on p and records it.
    #[inline]
    fn play_at(&mut self, pos: &mut Position, p: Point, trace: &mut Trace) -> StepKind {
        trace.record(pos.side_to_move().index(), p.index() as u32);
        let kind = pos.play_step_unchecked(p);
        self.remove(p);
        self.this_turn.push(p);
        kind
    }

    /// Whether p is an eye of the mover: every neighbour a stone of theirs.
    #[inline]
    fn is_own_eye(&self, pos: &Position, p: Point, me: Color) -> bool {
        let n = pos.neighbour_counts(p);
        n.vacant == 0 && n.of(me.opponent()) == 0
    }

    /// Whether the mover may play p now, and not into their own eye.
    #[inline]
    fn wanted(&self, pos: &Position, p: Point, me: Color) -> Option<StepKind> {
        let kind = pos.eligible_step(p)?;
        if self.settings.keep_eyes && kind == StepKind::Growth && self.is_own_eye(pos, p, me) {
            return None;
        }
        if self.settings.self_atari > 0
            && pos
                .self_atari(p)
                .is_some_and(|size| size >= self.settings.self_atari)
        {
            return None;
        }
        Some(kind)
    }

    /// Plays one whole turn (or a pass) for the side to move.
    fn play_turn(&mut self, pos: &mut Position, trace: &mut Trace) {
        self.this_turn.clear();
        if self.read_capture(pos) {
            let mut placed = false;
            for i in 0..self.capture.len() {
                let p = self.capture[i];
                placed = self.play_at(pos, p, trace) == StepKind::Placement;
            }
            if !placed {
                self.grow_on(pos, trace);
            }
            pos.finish_turn_unchecked();
            std::mem::swap(&mut self.last_turn, &mut self.this_turn);
            self.revive();
            return;
        }
        let first = match self.tactical_step(pos) {
            Some(p) => Some(self.play_at(pos, p, trace)),
            None => self.random_step(pos, true, trace),
        };
        match first {
            None => {
                pos.pass().expect("a pass at the start of a turn");
            }
            Some(StepKind::Placement) => pos.finish_turn_unchecked(),
            Some(StepKind::Growth) => {
                self.grow_on(pos, trace);
                pos.finish_turn_unchecked();
            }
        }
        std::mem::swap(&mut self.last_turn, &mut self.this_turn);
        self.revive();
    }

    /// Plays the steps that complete a turn in progress that the tree left
    /// with a group without a liberty (a capture later in the turn must
    /// rescue it, docs/rules.md §7): the rules library's completion. Nothing
    /// otherwise.
    fn rescue(&mut self, pos: &mut Position, trace: &mut Trace) {
        if pos.group_without_liberty().is_none() {
            return;
        }
        let steps = pos
            .turn_completion()
            .expect("the tree offers only steps whose turn can be completed");
        for p in steps {
            self.play_at(pos, p, trace);
        }
    }

    /// Goes on with growth steps after a first one, while the coin says so.
    fn grow_on(&mut self, pos: &mut Position, trace: &mut Trace) {
        while self.chance(self.growth) {
            if self.random_step(pos, false, trace).is_none() {
                break;
            }
        }
    }

    /// Draws and plays a uniformly random wanted step (growth only unless
    /// `placements`); `None` when there is none.
    fn random_step(
        &mut self,
        pos: &mut Position,
        placements: bool,
        trace: &mut Trace,
    ) -> Option<StepKind> {
        let me = pos.side_to_move();
        while self.live > 0 {
            let i = self.below(self.live);
            let p = self.vacant[i];
            match self.wanted(pos, p, me) {
                Some(StepKind::Growth) => {
                    self.play_at(pos, p, trace);
                    return Some(StepKind::Growth);
                }
                Some(StepKind::Placement) if placements => {
                    self.play_at(pos, p, trace);
                    return Some(StepKind::Placement);
                }
                _ => self.reject(i),
            }
        }
        None
    }

    /// Whether an opponent group among the stones of their last turn can be
    /// reversed with one turn, if the coin says to
    /// look: the turn that does it is left in `capture` (module doc).
    fn read_capture(&mut self, pos: &Position) -> bool {
        if self.last_turn.is_empty() || !self.chance(self.settings.reading) {
            return false;
        }
        let them = pos.side_to_move().opponent();
        for i in 0..self.last_turn.len() {
            let s = self.last_turn[i];
            if pos.stone_at(s) == Some(them) && self.reader.can_reverse(pos, s) {
                self.capture.clear();
                self.capture.extend_from_slice(self.reader.turn());
                return true;
            }
        }
        false
    }

    /// A capture or a save next to the opponent's last turn, if the coin
    /// says to look and one is found (module doc).
    fn tactical_step(&mut self, pos: &Position) -> Option<Point> {
        if (self.last_turn.is_empty() && self.standing.is_empty())
            || !self.chance(self.settings.tactics)
        {
            return None;
        }
        let me = pos.side_to_move();
        let g = pos.geometry();
        let mut save = None;
        for &s in self.last_turn.iter().chain(&self.standing) {
            match pos.stone_at(s) {
                Some(c) if c == me.opponent() => {
                    if let Some(l) = pos.atari_liberty(s)
                        && self.wanted(pos, l, me).is_some()
                    {
                        return Some(l);
                    }
                }
                // One of ours left in atari before the playout began.
                Some(_) => {
                    if save.is_none()
                        && let Some(l) = pos.atari_liberty(s)
                        && pos.neighbour_counts(l).vacant >= 2
                        && self.wanted(pos, l, me) == Some(StepKind::Growth)
                    {
                        save = Some(l);
                    }
                    continue;
                }
                None => continue,
            }
            if save.is_some() {
                continue;
            }
            for q in g.neighbours(s) {
                if pos.stone_at(q) == Some(me)
                    && let Some(l) = pos.atari_liberty(q)
                    && pos.neighbour_counts(l).vacant >= 2
                    && self.wanted(pos, l, me) == Some(StepKind::Growth)
                {
                    save = Some(l);
                    break;
                }
            }
        }
        save
    }

    /// Black's outcome of a finished game, and its owners added up. When
    /// every vacant region is a single point (how these playouts end), one
    /// pass over the board reads it; otherwise the rules library scores it.
    fn score(&mut self, pos: &Position) -> Outcome {
        if pos.resigned().is_none()
            && self
                .vacant
                .iter()
                .all(|&p| pos.neighbour_counts(p).vacant == 0)
        {
            let mut margin = 0i32;
            for &p in &self.points {
                let owner = match pos.stone_at(p) {
                    Some(Color::Black) => 1,
                    Some(Color::White) => -1,
                    None => {
                        let n = pos.neighbour_counts(p);
                        i32::from(n.white == 0) - i32::from(n.black == 0)
                    }
                };
                margin += owner;
                self.ownership[p.index()] += owner;
            }
            self.counted += 1;
            return Outcome::from_margin(margin as f32);
        }
        let territory = pos.territory();
        for &p in &self.points {
            let owner = match pos.stone_at(p).or_else(|| territory.owner_of(p)) {
                Some(Color::Black) => 1,
                Some(Color::White) => -1,
                None => 0,
            };
            self.ownership[p.index()] += owner;
        }
        self.counted += 1;
        let score = territory.score();
        Outcome::from_margin(score.black as f32 - score.white as f32)
    }
}

#[cfg(test)]
mod tests {
    use sygo_rules::Geometry;

    use super::*;

    /// Playouts end the game; their quick score is the rules' score; the
    /// vacant array stays exact; the trace holds every stone once.
    #[test]
    fn playouts_end_games_and_score_them_as_the_rules_do() {
        for g in [
            Geometry::sygo(5).unwrap(),
            Geometry::sygo(9).unwrap(),
            Geometry::hexsygo(3).unwrap(),
            Geometry::hexsygo(5).unwrap(),
        ] {
            let mut playouts = Playouts::new(PlayoutSettings::default(), 3);
            for _ in 0..40 {
                let mut pos = Position::new(g);
                let mut trace = Trace::default();
                let outcome = playouts.play(&mut pos, &mut trace);
                assert!(pos.is_over());
                pos.check_invariants();
                let score = pos.score();
                assert_eq!(outcome.margin, score.black as f32 - score.white as f32);
                let vacant: Vec<Point> =
                    g.points().filter(|&p| pos.stone_at(p).is_none()).collect();
                let mut mine = playouts.vacant.clone();
                mine.sort_unstable();
                assert_eq!(mine, vacant);
                assert_eq!(trace.len() + vacant.len(), g.num_points());
            }
            let (owners, n) = playouts.ownership(&Position::new(g));
            assert_eq!(n, 40);
            assert!(owners.iter().all(|o| (-1.0..=1.0).contains(o)));
        }
    }

    /// The number of stones a playout's growth turn puts down from `pos`
    /// (three lone Black stones, Black to move) after a first growth stone
    /// on `first`.
    fn growth_turn(playouts: &mut Playouts, pos: &Position, first: &str) -> usize {
        let mut pos = pos.clone();
        let mut trace = Trace::default();
        playouts.list_points(pos.geometry());
        playouts.collect_vacant(&pos);
        playouts.this_turn.clear();
        let first = pos.geometry().parse_point(first).unwrap();
        assert_eq!(
            playouts.play_at(&mut pos, first, &mut trace),
            StepKind::Growth
        );
        playouts.grow_on(&mut pos, &mut trace);
        playouts.this_turn.len()
    }

    /// On a small board a growth turn grows every group (rule 3); on a
    /// larger one it may stop at random after each stone.
    #[test]
    fn growth_turns_grow_every_group_on_small_boards() {
        let small: Position = "sygo 7 7/1B3B1/7/7/7/1B5/7 b g 0".parse().unwrap();
        let large: Position = "sygo 9 9/1B5B1/9/9/9/9/9/1B7/9 b g 0".parse().unwrap();
        let mut playouts = Playouts::new(PlayoutSettings::default(), 5);
        let small_turns: Vec<usize> = (0..20)
            .map(|_| growth_turn(&mut playouts, &small, "C6"))
            .collect();
        assert!(small_turns.iter().all(|&n| n == 3), "{small_turns:?}");
        let large_turns: Vec<usize> = (0..20)
            .map(|_| growth_turn(&mut playouts, &large, "C8"))
            .collect();
        assert!(large_turns.iter().all(|&n| (1..=3).contains(&n)));
        assert!(large_turns.iter().any(|&n| n < 3), "{large_turns:?}");
        // The setting, when given, holds on every board.
        let settings = PlayoutSettings {
            continue_growth: Some(1.0),
            ..PlayoutSettings::default()
        };
        let mut every = Playouts::new(settings, 5);
        assert!((0..20).all(|_| growth_turn(&mut every, &large, "C8") == 3));
    }

    /// A playout from a turn the tree left with a group without a liberty
    /// (Black's B1 in `sygo 5 4W/5/5/WWBWW/B1W1B`, which D1 rescues by
    /// reversing White C1) plays the rescue before it ends the turn, the
    /// uniform playouts too: `finish_turn_unchecked` checks in debug builds
    /// that the turn may end.
    #[test]
    fn a_turn_left_without_a_liberty_is_rescued_first() {
        let g = Geometry::sygo(5).unwrap();
        let at = |s: &str| g.parse_point(s).unwrap();
        let mut start: Position = "sygo 5 4W/5/5/WWBWW/B1W1B b - 0".parse().unwrap();
        start.play_step(at("B1")).unwrap();
        assert!(start.group_without_liberty().is_some());
        for uniform in [0.0, 1.0] {
            let settings = PlayoutSettings {
                uniform,
                ..PlayoutSettings::default()
            };
            let mut playouts = Playouts::new(settings, 3);
            for _ in 0..20 {
                let mut pos = start.clone();
                playouts.play(&mut pos, &mut Trace::default());
                assert!(pos.is_over());
                pos.check_invariants();
            }
        }
        let mut playouts = Playouts::new(PlayoutSettings::default(), 3);
        let mut pos = start.clone();
        playouts.list_points(g);
        playouts.collect_vacant(&pos);
        playouts.rescue(&mut pos, &mut Trace::default());
        assert_eq!(pos.turn_stones(), vec![at("B1"), at("D1")]);
        assert_eq!(pos.check_finish(), Ok(()));
    }

    /// Rule 4 plays the race whose stones each leave their group without a
    /// liberty: White's C1, just played, is reversed by B1 and D1.
    #[test]
    fn the_reading_plays_a_race_of_stones_without_liberties() {
        let g = Geometry::sygo(5).unwrap();
        let at = |s: &str| g.parse_point(s).unwrap();
        let start: Position = "sygo 5 4W/5/5/WWBWW/B1W1B b - 0".parse().unwrap();
        let settings = PlayoutSettings {
            reading: 1.0,
            ..PlayoutSettings::default()
        };
        let mut playouts = Playouts::new(settings, 1);
        let mut pos = start.clone();
        playouts.list_points(g);
        playouts.collect_vacant(&pos);
        playouts.last_turn = vec![at("C1")];
        playouts.play_turn(&mut pos, &mut Trace::default());
        assert_eq!(pos.stone_at(at("C1")), Some(Color::Black));
        assert_eq!(pos.side_to_move(), Color::White);
        pos.check_invariants();
    }

    /// A playout from the middle of a growth turn finishes it first.
    #[test]
    fn a_turn_in_progress_is_finished_first() {
        let g = Geometry::sygo(7).unwrap();
        let mut pos: Position = "sygo 7 7/7/2W4/7/4B2/7/7 b g 0".parse().unwrap();
        pos.play_step(g.parse_point("E4").unwrap()).unwrap();
        let mut playouts = Playouts::new(PlayoutSettings::default(), 1);
        playouts.play(&mut pos, &mut Trace::default());
        assert!(pos.is_over());
        pos.check_invariants();
    }
}
