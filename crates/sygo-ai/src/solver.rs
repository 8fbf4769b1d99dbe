//! The exact value of a whole game on a small board.
//!
//! [`solve`] reads every line of play from a position between turns to the
//! end of the game and returns the score margin (White's score less
//! Black's, docs/rules.md §8) that best play on both sides reaches, with a line
//! of whole turns that reaches it ([`Solution`]). It is meant for the
//! smallest boards, from the empty board: Sygo 3×3 and 4×4, Hexsygo of base
//! 2 and 3 (`docs/balance.md`, "Solved boards").
//!
//! # The game searched
//!
//! The search runs over the game's own steps, as the rules library plays
//! them: a node is a [`Position`], between turns or with a turn in
//! progress. Between turns the mover may pass or play any allowed step;
//! during a growth turn the *same* player chooses again: another allowed
//! step, or to end the turn where [`Position::check_finish`] allows it. A
//! placement (alone, or closing Black's balance turn) ends the turn at once.
//! So the side that chooses changes only when a turn ends, and the value of
//! a node in the middle of a turn is the best its mover can make of the
//! rest of the turn. A growth step can leave a group without liberties that
//! only a later capture could save (docs/rules.md §7): a line of steps that can
//! no longer end legally is worth nothing to its mover (below every score),
//! and a pass is always there between turns, so every turn has a value.
//! Resigning never gains anything and is not searched. Every turn but a
//! pass adds a stone and two passes end the game, so every line ends.
//!
//! # How
//!
//! A negamax alpha-beta search on the exact integer margin, driven by
//! MTD(f): a sequence of null-window searches that close in on the value,
//! each reusing what the ones before proved. A transposition table keeps,
//! for each position, an interval known to hold its value and the step
//! found best there. Its key is a Zobrist hash of the whole state,
//! the turn in progress included (the stones this turn added: with the
//! board they fix which of the mover's groups may still grow; the rules
//! library's [`Position::hash`] covers the same), taken over the board's
//! symmetries (8 on the square board, 12 on the hexagon): the smallest
//! hash over the images of the position, so that a position and its
//! reflections and rotations share one entry; the best step is kept in the
//! canonical frame and turned back into the position's own. The table's
//! step is tried first; then a pass that ends the game, or ending the turn
//! in progress; then the steps by the history heuristic (the nodes below
//! the positions where a step on that point, by that colour, cut the search
//! off); a pass that does not end the game last.
//!
//! The principal line is read after the value is known: from the start,
//! the first choice whose own value (a search in a window of width two
//! around the value, cheap with the table filled) equals the value is
//! followed, steps gathered into whole turns ([`Turn`]).

use std::time::{Duration, Instant};

use sygo_rules::{Color, Geometry, Point, Position, StepKind, Turn, Variant};

/// The worth of a line of steps that cannot end legally: below every score.
const DEAD: i32 = -10_000;
/// Above every value.
const INFINITY: i32 = 20_000;

/// A choice at a node, as kept in the table: a point's index, or these.
const PASS: u16 = u16::MAX;
/// End the growth turn in progress.
const FINISH: u16 = u16::MAX - 1;
/// No choice known.
const NONE: u16 = u16::MAX - 2;

/// How [`solve`] searches, and when it gives up.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// The transposition table holds 2^`table_bits` entries of 16 bytes
    /// (22: 64 MiB). Clamped to 10…30.
    pub table_bits: u32,
    /// Whether positions that are reflections or rotations of each other
    /// share their table entry (the board's 8 or 12 symmetries).
    pub symmetry: bool,
    /// Give up after searching this many nodes.
    pub max_nodes: Option<u64>,
    /// Give up after this long.
    pub max_time: Option<Duration>,
}

impl Default for SolveOptions {
    /// A 64 MiB table, symmetries on, no limits.
    fn default() -> SolveOptions {
        SolveOptions {
            table_bits: 22,
            symmetry: true,
            max_nodes: None,
            max_time: None,
        }
    }
}

/// The game solved: its value with best play on both sides, and a line
/// that reaches it.
#[derive(Clone, Debug)]
pub struct Solution {
    /// White's final score less Black's with best play on both sides (docs/rules.md
    /// §8, no komi): positive when White wins, 0 for a draw.
    pub margin: i32,
    /// Nodes searched: positions between turns and positions with a turn in
    /// progress, each visit counted (the principal line's reading included).
    pub nodes: u64,
    /// Whole turns from the start to the end of the game (ending with two
    /// passes), each choice keeping the value.
    pub principal_line: Vec<Turn>,
    /// The position at the end of the principal line: its score gives
    /// `margin`.
    pub final_position: Position,
    /// The null-window searches MTD(f) made to find the value.
    pub mtdf_rounds: u32,
    /// How long it took.
    pub elapsed: Duration,
}

impl Solution {
    /// The value in words, for White, who moves first from the empty board:
    /// `White wins by 3`, `Black wins by 1`, `draw`.
    pub fn verdict(&self) -> String {
        match self.margin {
            0 => "draw".to_string(),
            m if m > 0 => format!("White wins by {m}"),
            m => format!("Black wins by {}", -m),
        }
    }
}

/// Why [`solve`] has no solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The start has a turn in progress: the search starts between turns.
    TurnInProgress,
    /// The game at the start ended by a resignation: it has no score margin.
    Resigned,
    /// A limit of [`SolveOptions`] was reached first.
    GaveUp {
        /// Nodes searched until then.
        nodes: u64,
        /// Time spent until then.
        elapsed: Duration,
        /// What the searches finished before proved: the margin (for White)
        /// is at least `lower` and at most `upper`.
        lower: i32,
        /// See `lower`.
        upper: i32,
    },
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::TurnInProgress => f.write_str("the position has a turn in progress"),
            SolveError::Resigned => f.write_str("the game ended by a resignation"),
            SolveError::GaveUp {
                nodes,
                elapsed,
                lower,
                upper,
            } => write!(
                f,
                "gave up after {nodes} nodes in {:.1} s; the margin for White is between {lower} and {upper}",
                elapsed.as_secs_f64()
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// Solves the game from `start`, a position between turns: its exact value
/// (the score margin for White) and a principal line.
///
/// The search runs on a thread of its own with a large stack (it recurses
/// once per step).
///
/// # Errors
///
/// [`SolveError`]: a turn in progress or a resignation at the start, or a
/// limit reached.
///
/// # Examples
///
/// ```
/// use sygo_ai::solver::{SolveOptions, solve};
/// use sygo_rules::{Geometry, Position};
///
/// let start = Position::new(Geometry::hexsygo(2).unwrap());
/// let options = SolveOptions { table_bits: 16, ..SolveOptions::default() };
/// let solution = solve(&start, &options).unwrap();
/// let mut end = start.clone();
/// for turn in &solution.principal_line {
///     end.play_turn(turn).unwrap();
/// }
/// let score = end.score();
/// assert!(end.is_over());
/// assert_eq!(solution.margin, score.white as i32 - score.black as i32);
/// ```
pub fn solve(start: &Position, options: &SolveOptions) -> Result<Solution, SolveError> {
    if start.turn_in_progress() {
        return Err(SolveError::TurnInProgress);
    }
    if start.resigned().is_some() {
        return Err(SolveError::Resigned);
    }
    let start = start.clone();
    let options = options.clone();
    std::thread::Builder::new()
        .name("solver".to_string())
        .stack_size(256 << 20)
        .spawn(move || Solver::new(start.geometry(), &options).run(&start))
        .expect("a thread for the solver")
        .join()
        .expect("the solver does not panic")
}

/// A map of 0-based (column, row) pairs.
type CellMap = Box<dyn Fn(i32, i32) -> (i32, i32)>;

/// The board's symmetries as maps of padded point indices, each with its
/// inverse. The first is the identity.
#[derive(Clone, Debug)]
pub struct Symmetries {
    geometry: Geometry,
    /// The points of the board, in index order.
    points: Vec<Point>,
    /// `forward[s][i]`: the index of the image under symmetry `s` of the
    /// point with index `i` (0 for indices off the board).
    forward: Vec<Vec<u16>>,
    /// `backward[s]` is the inverse of `forward[s]`.
    backward: Vec<Vec<u16>>,
}

impl Symmetries {
    /// The symmetries of a board: 8 on the square board (rotations and
    /// reflections), 12 on the hexagon.
    pub fn of(geometry: Geometry) -> Symmetries {
        let points: Vec<Point> = geometry.points().collect();
        let maps: Vec<CellMap> = match geometry.variant() {
            Variant::Sygo => {
                let m = i32::from(geometry.size()) - 1;
                let mut maps: Vec<CellMap> = Vec::new();
                for swap in [false, true] {
                    for flip_c in [false, true] {
                        for flip_r in [false, true] {
                            maps.push(Box::new(move |c, r| {
                                let (c, r) = if swap { (r, c) } else { (c, r) };
                                (
                                    if flip_c { m - c } else { c },
                                    if flip_r { m - r } else { r },
                                )
                            }));
                        }
                    }
                }
                maps
            }
            Variant::Hexsygo => {
                // Cube coordinates about the centre: q = x, r = −y, s = y − x
                // (x, y the column and row less n − 1); a sixth of a turn is
                // (q, r, s) → (−r, −s, −q), a reflection swaps r and s.
                let m = i32::from(geometry.size()) - 1;
                let mut maps: Vec<CellMap> = Vec::new();
                for reflect in [false, true] {
                    for turns in 0..6 {
                        maps.push(Box::new(move |c, r| {
                            let (x, y) = (c - m, r - m);
                            let mut cube = [x, -y, y - x];
                            if reflect {
                                cube.swap(1, 2);
                            }
                            for _ in 0..turns {
                                cube = [-cube[1], -cube[2], -cube[0]];
                            }
                            (cube[0] + m, -cube[1] + m)
                        }));
                    }
                }
                maps
            }
        };
        let len = geometry.index_len();
        let mut forward = Vec::with_capacity(maps.len());
        let mut backward = Vec::with_capacity(maps.len());
        for map in &maps {
            let mut f = vec![0u16; len];
            let mut b = vec![0u16; len];
            for &p in &points {
                let (c, r) = geometry.col_row(p);
                let (c2, r2) = map(i32::from(c), i32::from(r));
                let image = u8::try_from(c2)
                    .ok()
                    .zip(u8::try_from(r2).ok())
                    .and_then(|(c2, r2)| geometry.point(c2, r2))
                    .expect("a symmetry maps the board onto itself");
                f[p.index()] = image.index() as u16;
                b[image.index()] = p.index() as u16;
            }
            forward.push(f);
            backward.push(b);
        }
        Symmetries {
            geometry,
            points,
            forward,
            backward,
        }
    }

    /// Only the identity: no two positions share a key.
    fn identity(geometry: Geometry) -> Symmetries {
        let mut all = Symmetries::of(geometry);
        all.forward.truncate(1);
        all.backward.truncate(1);
        all
    }

    /// How many symmetries there are (the identity included).
    pub fn len(&self) -> usize {
        self.forward.len()
    }

    /// Always false: the identity is one.
    pub fn is_empty(&self) -> bool {
        self.forward.is_empty()
    }

    /// The image of point `p` under symmetry `s` (`s < self.len()`).
    pub fn map(&self, s: usize, p: Point) -> Point {
        point(self.geometry, self.forward[s][p.index()])
    }
}

/// Zobrist keys of the solver's own, per point index: so that the images
/// of a position under the symmetries can be hashed.
struct Keys {
    black: Vec<u64>,
    white: Vec<u64>,
    new: Vec<u64>,
    black_to_move: u64,
    growth_started: u64,
    passes: [u64; 3],
}

impl Keys {
    fn new(len: usize) -> Keys {
        let mut state = 0x534F_4C56_4552_u64;
        let mut next = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut table = |n: usize| (0..n).map(|_| next()).collect::<Vec<u64>>();
        let (black, white, new) = (table(len), table(len), table(len));
        let misc = table(5);
        Keys {
            black,
            white,
            new,
            black_to_move: misc[0],
            growth_started: misc[1],
            passes: [0, misc[2], misc[3]],
        }
    }
}

/// The canonical key of a position with the symmetry that gives it: the
/// smallest hash over its images.
pub struct Canonical {
    symmetries: Symmetries,
    keys: Keys,
    /// Scratch: one running hash per symmetry.
    hashes: Vec<u64>,
}

impl Canonical {
    /// The canonicaliser of a board, over all its symmetries, or (when
    /// `symmetry` is false) the identity alone.
    pub fn new(geometry: Geometry, symmetry: bool) -> Canonical {
        let symmetries = if symmetry {
            Symmetries::of(geometry)
        } else {
            Symmetries::identity(geometry)
        };
        let n = symmetries.len();
        Canonical {
            symmetries,
            keys: Keys::new(geometry.index_len()),
            hashes: vec![0; n],
        }
    }

    /// The symmetries used.
    pub fn symmetries(&self) -> &Symmetries {
        &self.symmetries
    }

    /// The key of `pos` (the same for all its symmetric images, the turn in
    /// progress included) and the symmetry that takes `pos` to the
    /// canonical frame.
    pub fn key(&mut self, pos: &Position) -> (u64, usize) {
        self.hashes.iter_mut().for_each(|h| *h = 0);
        for &p in &self.symmetries.points {
            let Some(color) = pos.stone_at(p) else {
                continue;
            };
            let table = match color {
                Color::Black => &self.keys.black,
                Color::White => &self.keys.white,
            };
            let new = pos.is_new_stone(p);
            for (h, f) in self.hashes.iter_mut().zip(&self.symmetries.forward) {
                let q = usize::from(f[p.index()]);
                *h ^= table[q];
                if new {
                    *h ^= self.keys.new[q];
                }
            }
        }
        let mut flags = self.keys.passes[usize::from(pos.passes().min(2))];
        if pos.side_to_move() == Color::Black {
            flags ^= self.keys.black_to_move;
        }
        if pos.growth_started() {
            flags ^= self.keys.growth_started;
        }
        let (s, h) = self
            .hashes
            .iter()
            .enumerate()
            .min_by_key(|&(_, h)| *h)
            .expect("the identity at least");
        // Never 0: the table's mark of an empty slot.
        ((h ^ flags) | 1, s)
    }

    /// A choice in `pos`'s own frame into the canonical frame of symmetry `s`.
    fn canonical_choice(&self, s: usize, choice: u16) -> u16 {
        if choice >= NONE {
            choice
        } else {
            self.symmetries.forward[s][usize::from(choice)]
        }
    }

    /// A choice in the canonical frame of symmetry `s` back into the
    /// position's own.
    fn own_choice(&self, s: usize, choice: u16) -> u16 {
        if choice >= NONE {
            choice
        } else {
            self.symmetries.backward[s][usize::from(choice)]
        }
    }
}

/// One entry of the transposition table: the value of the position lies in
/// `lower..=upper`; `best` is the choice found best, in the canonical frame.
#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    lower: i16,
    upper: i16,
    best: u16,
    /// log2 of the nodes its last search took: deeper work is kept first.
    work: u16,
}

impl Entry {
    /// An entry from its two words in the table.
    fn unpack(words: [u64; 2]) -> Entry {
        let data = words[1];
        Entry {
            key: words[0],
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            best: (data >> 32) as u16,
            work: (data >> 48) as u16,
        }
    }

    /// The entry as two words: the key, then the rest.
    fn pack(self) -> [u64; 2] {
        let data = u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.best) << 32
            | u64::from(self.work) << 48;
        [self.key, data]
    }
}

/// Buckets of two entries: the first keeps the entry with the most work
/// behind it, the second takes the rest. An entry is two words, the key
/// first; a key is never 0, so the table starts as zeroed memory that the
/// system gives lazily.
struct Table {
    words: Vec<[u64; 2]>,
    mask: usize,
}

impl Table {
    fn new(bits: u32) -> Table {
        let bits = bits.clamp(10, 30);
        Table {
            words: vec![[0; 2]; 1 << bits],
            mask: (1 << bits) - 2,
        }
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let i = (key as usize) & self.mask;
        self.words[i..i + 2]
            .iter()
            .find(|w| w[0] == key)
            .map(|&w| Entry::unpack(w))
    }

    fn store(&mut self, key: u64, lower: i32, upper: i32, best: u16, work: u16) {
        let i = (key as usize) & self.mask;
        let (mut lower, mut upper) = (lower, upper);
        let slot = if self.words[i][0] == key {
            i
        } else if self.words[i + 1][0] == key {
            i + 1
        } else if work >= Entry::unpack(self.words[i]).work {
            // The deep entry moves down to the second slot.
            self.words[i + 1] = self.words[i];
            i
        } else {
            i + 1
        };
        let old = Entry::unpack(self.words[slot]);
        let same = old.key == key;
        if same {
            lower = lower.max(i32::from(old.lower));
            upper = upper.min(i32::from(old.upper));
        }
        let best = if best == NONE && same { old.best } else { best };
        self.words[slot] = Entry {
            key,
            lower: lower as i16,
            upper: upper as i16,
            best,
            work: work.max(if same { old.work } else { 0 }),
        }
        .pack();
    }
}

/// Limits reached: unwind.
struct Stop;

/// The search's state.
struct Solver {
    canonical: Canonical,
    table: Table,
    /// Per colour and point: the nodes below the positions where a step
    /// there cut the search off.
    history: [Vec<u64>; 2],
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    started: Instant,
}

impl Solver {
    fn new(geometry: Geometry, options: &SolveOptions) -> Solver {
        let started = Instant::now();
        Solver {
            canonical: Canonical::new(geometry, options.symmetry),
            table: Table::new(options.table_bits),
            history: [vec![0; geometry.index_len()], vec![0; geometry.index_len()]],
            nodes: 0,
            max_nodes: options.max_nodes.unwrap_or(u64::MAX),
            deadline: options.max_time.map(|t| started + t),
            started,
        }
    }

    /// MTD(f) to the value, then the principal line.
    fn run(&mut self, start: &Position) -> Result<Solution, SolveError> {
        let white = start.side_to_move() == Color::White;
        let for_white = |v: i32| if white { v } else { -v };
        let points = start.geometry().num_points() as i32;
        // A level per step, per finish and per pass, at most.
        let mut pool = vec![start.clone(); 4 * points as usize + 8];
        let (mut lower, mut upper) = (-points - 1, points + 1);
        let mut guess = 0;
        let mut rounds = 0;
        while lower < upper {
            let beta = if guess == lower { guess + 1 } else { guess };
            rounds += 1;
            match self.search(start, &mut pool, beta - 1, beta) {
                Ok(v) => {
                    guess = v;
                    if v < beta {
                        upper = v;
                    } else {
                        lower = v;
                    }
                }
                Err(Stop) => {
                    let (a, b) = (for_white(lower), for_white(upper));
                    return Err(SolveError::GaveUp {
                        nodes: self.nodes,
                        elapsed: self.started.elapsed(),
                        lower: a.min(b).max(-points),
                        upper: a.max(b).min(points),
                    });
                }
            }
        }
        let value = lower;
        let (principal_line, final_position) = match self.principal_line(start, &mut pool, value) {
            Ok(line) => line,
            Err(Stop) => {
                return Err(SolveError::GaveUp {
                    nodes: self.nodes,
                    elapsed: self.started.elapsed(),
                    lower: for_white(value),
                    upper: for_white(value),
                });
            }
        };
        Ok(Solution {
            margin: for_white(value),
            nodes: self.nodes,
            principal_line,
            final_position,
            mtdf_rounds: rounds,
            elapsed: self.started.elapsed(),
        })
    }

    /// The margin at the end of the game for the side to move.
    fn final_margin(pos: &Position) -> i32 {
        let score = pos.score();
        let margin = score.white as i32 - score.black as i32;
        if pos.side_to_move() == Color::White {
            margin
        } else {
            -margin
        }
    }

    /// The choices at a node in the order they are tried: the table's
    /// first; then, between turns, a pass if it ends the game (the other
    /// side just passed); during a turn, ending it; then the steps, those
    /// that cut the search off most before first (the history heuristic);
    /// a pass that does not end the game last.
    fn choices(&self, pos: &Position, first: u16) -> Vec<(u16, Option<StepKind>)> {
        let mut choices: Vec<(u16, Option<StepKind>)> = Vec::with_capacity(32);
        let between = !pos.turn_in_progress();
        if between && pos.passes() > 0 {
            choices.push((PASS, None));
        } else if !between && pos.check_finish().is_ok() {
            choices.push((FINISH, None));
        }
        let steps_from = choices.len();
        pos.for_each_allowed_step(|p, kind| choices.push((p.index() as u16, Some(kind))));
        let history = &self.history[pos.side_to_move().index()];
        choices[steps_from..].sort_by_key(|c| std::cmp::Reverse(history[usize::from(c.0)]));
        if between && pos.passes() == 0 {
            choices.push((PASS, None));
        }
        if let Some(i) = choices.iter().position(|c| c.0 == first) {
            choices[..=i].rotate_right(1);
        }
        choices
    }

    /// The value of a choice for the mover at `pos`, searched in the
    /// window (alpha, beta) of that mover. `pool` holds a scratch position
    /// per level below (copied into, not cloned: on a small board a copy
    /// moves only the part of the arrays the board uses).
    fn value_of(
        &mut self,
        pos: &Position,
        pool: &mut [Position],
        choice: (u16, Option<StepKind>),
        alpha: i32,
        beta: i32,
    ) -> Result<i32, Stop> {
        let (next, pool) = pool.split_first_mut().expect("the pool is deep enough");
        next.clone_from(pos);
        match choice {
            (PASS, _) => {
                next.pass().expect("a pass between turns");
                Ok(-self.search(next, pool, -beta, -alpha)?)
            }
            (FINISH, _) => {
                next.finish_turn_unchecked();
                Ok(-self.search(next, pool, -beta, -alpha)?)
            }
            (p, Some(StepKind::Placement)) => {
                next.play_step_unchecked(point(pos.geometry(), p));
                next.finish_turn_unchecked();
                Ok(-self.search(next, pool, -beta, -alpha)?)
            }
            (p, _) => {
                next.play_step_unchecked(point(pos.geometry(), p));
                self.search(next, pool, alpha, beta)
            }
        }
    }

    /// Fail-soft alpha-beta: the value of `pos` for its mover if it lies
    /// in (alpha, beta); else a bound on the right side of the window.
    fn search(
        &mut self,
        pos: &Position,
        pool: &mut [Position],
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<i32, Stop> {
        self.nodes += 1;
        if self.nodes & 0xFFF == 0 {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if late || self.nodes >= self.max_nodes {
                return Err(Stop);
            }
        }
        if pos.is_over() {
            return Ok(Solver::final_margin(pos));
        }
        let nodes_before = self.nodes;
        let (key, sym) = self.canonical.key(pos);
        let mut first = NONE;
        if let Some(entry) = self.table.probe(key) {
            let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
            if lower >= beta || lower == upper {
                return Ok(lower);
            }
            if upper <= alpha {
                return Ok(upper);
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            first = self.canonical.own_choice(sym, entry.best);
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut best_value = DEAD;
        let mut best = NONE;
        for choice in self.choices(pos, first) {
            let v = self.value_of(pos, pool, choice, alpha, beta)?;
            if v > best_value {
                best_value = v;
                best = choice.0;
                if v > alpha {
                    alpha = v;
                }
                if v >= beta {
                    if choice.0 < NONE {
                        let side = pos.side_to_move().index();
                        self.history[side][usize::from(choice.0)] += self.nodes - nodes_before;
                    }
                    break;
                }
            }
        }
        let (lower, upper) = if best_value <= alpha0 {
            (-INFINITY, best_value)
        } else if best_value >= beta0 {
            (best_value, INFINITY)
        } else {
            (best_value, best_value)
        };
        // An upper bound knows no best choice: keep the one tried first.
        let best = if best_value <= alpha0 { NONE } else { best };
        let work = (64 - (self.nodes - nodes_before).leading_zeros()) as u16;
        let best = self.canonical.canonical_choice(sym, best);
        self.table.store(key, lower, upper, best, work);
        Ok(best_value)
    }

    /// A line of whole turns from `start` to the end of the game keeping
    /// `value` (for `start`'s mover), and its last position.
    fn principal_line(
        &mut self,
        start: &Position,
        pool: &mut [Position],
        value: i32,
    ) -> Result<(Vec<Turn>, Position), Stop> {
        let mut pos = start.clone();
        let mut value = value;
        let mut line = Vec::new();
        let mut stones = Vec::new();
        while !pos.is_over() {
            let (key, sym) = self.canonical.key(&pos);
            let first = self
                .table
                .probe(key)
                .map_or(NONE, |e| self.canonical.own_choice(sym, e.best));
            let mut chosen = None;
            for choice in self.choices(&pos, first) {
                if self.value_of(&pos, pool, choice, value - 1, value + 1)? == value {
                    chosen = Some(choice);
                    break;
                }
            }
            let choice = chosen.expect("a choice keeps the value");
            match choice {
                (PASS, _) => {
                    pos.pass().expect("a pass between turns");
                    line.push(Turn::Pass);
                    value = -value;
                }
                (FINISH, _) => {
                    pos.finish_turn_unchecked();
                    line.push(Turn::Stones(std::mem::take(&mut stones)));
                    value = -value;
                }
                (p, kind) => {
                    let p = point(pos.geometry(), p);
                    pos.play_step_unchecked(p);
                    stones.push(p);
                    if kind == Some(StepKind::Placement) {
                        pos.finish_turn_unchecked();
                        line.push(Turn::Stones(std::mem::take(&mut stones)));
                        value = -value;
                    }
                }
            }
        }
        Ok((line, pos))
    }
}

/// The point with padded index `i` of a board.
fn point(geometry: Geometry, i: u16) -> Point {
    geometry
        .point_at_index(usize::from(i))
        .expect("a point of the board")
}
