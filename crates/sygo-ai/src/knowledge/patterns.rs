//! Learned step weights: a Bradley–Terry model of the steps the search
//! chooses, fitted by minorization–maximization (MM, Coulom 2007, "Computing
//! Elo ratings of move patterns in the game of Go").
//!
//! Every step of a position is described by one value in each of
//! [`GROUPS`] feature groups: its kind and line, the stones it captures
//! (alone, and through a turn of several groups), rescues and saves, the
//! liberties its group keeps, a few flags, its distance to the nearest
//! stone, the size of the groups it grows, and the **ring pattern** of its
//! neighbourhood (the 6 cells around a hex cell, the 8 around a square
//! point, each off-board, vacant, the mover's or the opponent's, up to the
//! board's symmetries). Each value has a strength γ; a step's strength is
//! the product of its values' γ, and the model says the mover picks step
//! i with probability γᵢ / Σ γ. The γ are fitted to the steps a search
//! chose in self-play records (`sygo learn`, docs/ai.md), one table per
//! board family, shipped in `crates/sygo-ai/data/`.
//!
//! The priors use them as a belief: a step as strong as the average step of
//! its node is believed even, a stronger one better
//! ([`super::PriorSettings::learned`]).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use sygo_rules::{Color, Geometry, Point, Position, StepKind, Turn, Variant};

use super::features::{Features, StepFacts, step_facts};
use crate::search::GameState;
use crate::steps::{Step, StepGame};

/// Number of feature groups.
pub const GROUPS: usize = 12;

/// The groups' names, as written in a weights file.
const NAMES: [&str; GROUPS] = [
    "kind",
    "captures",
    "captures_with",
    "rescues",
    "saves",
    "threatens",
    "closes_in",
    "libs_after",
    "flags",
    "distance",
    "grows",
    "pattern",
];

/// Values of each group but the pattern's (whose values are the ring
/// patterns up to symmetry, plus 0 for "no point").
const SIZES: [usize; GROUPS - 1] = [15, 5, 5, 4, 4, 3, 3, 4, 16, 5, 6];

/// The group of the ring pattern.
const PATTERN: usize = GROUPS - 1;

/// One step's features: a value per group (the pattern's is the ring's raw
/// code plus one, 0 for `Finish` and `Pass`).
pub(crate) type Values = [u32; GROUPS];

/// How many of `bounds` n reaches: the bucket of n.
fn bucket(n: u32, bounds: &[u32]) -> u32 {
    bounds.iter().filter(|&&b| n >= b).count() as u32
}

/// The ring around a point, in turning order: (column, row) offsets.
fn ring(variant: Variant) -> &'static [(i8, i8)] {
    match variant {
        Variant::Hexsygo => &[(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)],
        Variant::Sygo => &[
            (0, 1),
            (1, 1),
            (1, 0),
            (1, -1),
            (0, -1),
            (-1, -1),
            (-1, 0),
            (-1, 1),
        ],
    }
}

/// The ring's turn of one symmetry step: a sixth of a turn on the hex
/// board, a quarter (two cells) on the square board.
fn ring_turn(variant: Variant) -> usize {
    match variant {
        Variant::Hexsygo => 1,
        Variant::Sygo => 2,
    }
}

/// The raw code of the ring around p for `me`: two bits a cell, 0 off the
/// board, 1 vacant, 2 the mover's stone, 3 the opponent's.
fn ring_code(pos: &Position, p: Point, me: Color) -> u32 {
    let g = pos.geometry();
    let (c, r) = g.col_row(p);
    let mut code = 0;
    for (k, &(dc, dr)) in ring(g.variant()).iter().enumerate() {
        let cell = match neighbour(&g, c, r, dc, dr) {
            None => 0,
            Some(q) => match pos.stone_at(q) {
                None => 1,
                Some(color) if color == me => 2,
                Some(_) => 3,
            },
        };
        code |= cell << (2 * k);
    }
    code
}

fn neighbour(g: &Geometry, c: u8, r: u8, dc: i8, dr: i8) -> Option<Point> {
    let c = c.checked_add_signed(dc)?;
    let r = r.checked_add_signed(dr)?;
    g.point(c, r)
}

/// The smallest code of a ring's symmetric images (rotations and
/// reflections): one name for a pattern and its images.
fn canonical(code: u32, variant: Variant) -> u32 {
    let cells = ring(variant).len();
    let turn = ring_turn(variant);
    let cell = |code: u32, k: usize| (code >> (2 * (k % cells))) & 3;
    let mut best = u32::MAX;
    for shift in (0..cells).step_by(turn) {
        for mirror in [false, true] {
            let mut image = 0;
            for k in 0..cells {
                let from = if mirror {
                    (cells - k + shift) % cells
                } else {
                    k + shift
                };
                image |= cell(code, from) << (2 * k);
            }
            best = best.min(image);
        }
    }
    best
}

/// Per raw ring code, its canonical code (one table per board family).
fn canonical_table(variant: Variant) -> &'static [u32] {
    static TABLES: [OnceLock<Vec<u32>>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[variant as usize].get_or_init(|| {
        let cells = ring(variant).len();
        (0..1u32 << (2 * cells))
            .map(|code| canonical(code, variant))
            .collect()
    })
}

/// What a step is, for the priors and the learned weights: a stone's kind
/// and facts; nothing for `Finish` and `Pass`.
pub(crate) type StoneFacts = Option<(StepKind, StepFacts)>;

/// Calls `visit` with every step of `game` in the order of
/// [`StepGame::for_each_step`]: the step, a stone's kind and facts, and its
/// features for the learned weights when `with_values` (else zeros). `f`
/// must hold the analysis of `game`'s position ([`Features::compute`]).
/// The one walk over a node's steps that the priors and the training set
/// share, so that both see the same features.
pub(crate) fn for_each_step_facts(
    game: &StepGame,
    f: &Features,
    with_values: bool,
    mut visit: impl FnMut(Step, StoneFacts, &Values),
) {
    let pos = game.position();
    let me = pos.side_to_move();
    let (mut growths, mut stones) = (0, 0);
    let none = [0; GROUPS];
    game.for_each_step(|step, kind| match (step, kind) {
        (Step::Stone(p), Some(kind)) => {
            stones += 1;
            growths += u32::from(kind == StepKind::Growth);
            let facts = step_facts(pos, f, p, me);
            let values = if with_values {
                stone_values(pos, f, &facts, p, kind, me)
            } else {
                none
            };
            visit(step, Some((kind, facts)), &values);
        }
        (Step::Finish | Step::Pass, _) => {
            let values = if with_values {
                other_values(step == Step::Pass, growths, stones)
            } else {
                none
            };
            visit(step, None, &values);
        }
        _ => {}
    });
}

/// The features of every step of a position, computed as the priors do.
#[derive(Clone, Debug, Default)]
pub(crate) struct StepValues {
    pub(crate) steps: Vec<(Step, Values)>,
}

impl StepValues {
    /// The steps of `game` and their features; `f` must hold the analysis
    /// of `game`'s position ([`Features::compute`]).
    pub(crate) fn compute(&mut self, game: &StepGame, f: &Features) {
        self.steps.clear();
        for_each_step_facts(game, f, true, |step, _, values| {
            self.steps.push((step, *values));
        });
    }
}

/// The features of `Finish` (after `growths` growth steps were offered) or
/// `Pass` (after `stones` stones).
pub(crate) fn other_values(pass: bool, growths: u32, stones: u32) -> Values {
    let mut values = [0; GROUPS];
    values[0] = if pass {
        12 + bucket(stones, &[3, 6])
    } else {
        8 + bucket(growths, &[2, 4, 8])
    };
    values
}

/// The features of a stone of `me` on p.
pub(crate) fn stone_values(
    pos: &Position,
    f: &Features,
    facts: &StepFacts,
    p: Point,
    kind: StepKind,
    me: Color,
) -> Values {
    let line = u32::from(f.line(p).clamp(1, 4)) - 1;
    let growth = kind == StepKind::Growth;
    let g = pos.geometry();
    let mut grown = 0;
    if growth {
        let mut seen = [u32::MAX; 6];
        let mut n = 0;
        for q in g.neighbours(p) {
            if let Some(id) = f.group_at(q)
                && f.groups[id as usize].color == me
                && !seen[..n].contains(&id)
            {
                seen[n] = id;
                n += 1;
                grown += f.groups[id as usize].size;
            }
        }
    }
    let flags = u32::from(facts.own_eye)
        | u32::from(facts.contact) << 1
        | u32::from(facts.spends_capturer) << 2
        | u32::from(facts.spoils > 0) << 3;
    [
        if growth { 4 + line } else { line },
        bucket(facts.captures, &[1, 2, 4, 8]),
        bucket(facts.captures_with, &[1, 2, 4, 8]),
        bucket(facts.rescues, &[1, 3, 7]),
        bucket(facts.saves, &[1, 3, 7]),
        bucket(facts.threatens, &[1, 3]),
        bucket(facts.closes_in, &[1, 4]),
        bucket(facts.libs_after, &[2, 3, 4]),
        flags,
        if growth {
            0
        } else {
            u32::from(f.distance(p).clamp(1, 4))
        },
        bucket(grown, &[1, 2, 4, 8, 16]),
        canonical_table(g.variant())[ring_code(pos, p, me) as usize] + 1,
    ]
}

/// The fitted strengths of one board family (module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    variant: Variant,
    /// γ per group and value, groups but the pattern's.
    gamma: [Vec<f32>; GROUPS - 1],
    /// γ per raw ring code (every image of a pattern alike), and `other`
    /// for `Finish` and `Pass`.
    pattern: Vec<f32>,
    other: f32,
}

impl Weights {
    /// Every γ 1: every step alike.
    pub fn even(variant: Variant) -> Weights {
        Weights {
            variant,
            gamma: SIZES.map(|n| vec![1.0; n]),
            pattern: vec![1.0; canonical_table(variant).len()],
            other: 1.0,
        }
    }

    /// The weights shipped for a board family (`crates/sygo-ai/data/`).
    pub fn builtin(variant: Variant) -> &'static Weights {
        static BUILTIN: [OnceLock<Weights>; 2] = [OnceLock::new(), OnceLock::new()];
        BUILTIN[variant as usize].get_or_init(|| {
            let text = match variant {
                Variant::Sygo => include_str!("../../data/weights-sygo.txt"),
                Variant::Hexsygo => include_str!("../../data/weights-hexsygo.txt"),
            };
            Weights::parse(text).unwrap_or_else(|e| panic!("the shipped weights: {e}"))
        })
    }

    /// Sets the γ of patterns (by canonical code) on every image of each,
    /// in one pass over the table of images: a pass per pattern cost a
    /// hundred milliseconds for the thousand patterns shipped, paid by the
    /// first turn a player searched.
    fn set_patterns(&mut self, gammas: &HashMap<u32, f32>) {
        let table = canonical_table(self.variant);
        for (raw, c) in table.iter().enumerate() {
            if let Some(&gamma) = gammas.get(c) {
                self.pattern[raw] = gamma;
            }
        }
    }

    /// The board family.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The strength of a step with these features.
    pub(crate) fn strength(&self, values: &Values) -> f32 {
        let mut s = if values[PATTERN] == 0 {
            self.other
        } else {
            self.pattern[values[PATTERN] as usize - 1]
        };
        for (group, &v) in values[..PATTERN].iter().enumerate() {
            s *= self.gamma[group][v as usize];
        }
        s
    }

    /// The weights as text: a line per value, `group value γ` (a pattern's
    /// value its canonical ring code in hexadecimal, `-` for no point).
    pub fn to_text(&self) -> String {
        let mut out = format!("# sygo step weights ({})\n", self.variant);
        for (group, gammas) in self.gamma.iter().enumerate() {
            for (v, gamma) in gammas.iter().enumerate() {
                let _ = writeln!(out, "{} {v} {gamma:.5}", NAMES[group]);
            }
        }
        let _ = writeln!(out, "pattern - {:.5}", self.other);
        let table = canonical_table(self.variant);
        for (code, &gamma) in self.pattern.iter().enumerate() {
            if table[code] == code as u32 && gamma != 1.0 {
                let _ = writeln!(out, "pattern {code:x} {gamma:.5}");
            }
        }
        out
    }

    /// Reads weights written by [`Weights::to_text`]. Values not listed
    /// keep γ 1.
    ///
    /// # Errors
    ///
    /// A line that is not `group value γ` of a known group and value, or a
    /// first line that names no board family, with its line number.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let mut lines = text.lines().enumerate();
        let variant = lines
            .next()
            .and_then(|(_, head)| head.strip_prefix("# sygo step weights ("))
            .and_then(|rest| rest.strip_suffix(')'))
            .and_then(Variant::from_name)
            .ok_or("line 1: not `# sygo step weights (VARIANT)`")?;
        let mut weights = Weights::even(variant);
        let table = canonical_table(variant);
        let mut patterns = HashMap::new();
        for (i, line) in lines {
            let bad = || format!("line {}: `{line}` is not `group value gamma`", i + 1);
            let mut words = line.split_whitespace();
            let (Some(name), Some(value), Some(gamma), None) =
                (words.next(), words.next(), words.next(), words.next())
            else {
                return Err(bad());
            };
            let gamma: f32 = gamma.parse().map_err(|_| bad())?;
            if !(gamma.is_finite() && gamma > 0.0) {
                return Err(bad());
            }
            let group = NAMES.iter().position(|&n| n == name).ok_or_else(bad)?;
            if group == PATTERN {
                if value == "-" {
                    weights.other = gamma;
                    continue;
                }
                let code = u32::from_str_radix(value, 16).map_err(|_| bad())?;
                if code as usize >= table.len() || table[code as usize] != code {
                    return Err(bad());
                }
                patterns.insert(code, gamma);
            } else {
                let v: usize = value.parse().map_err(|_| bad())?;
                *weights.gamma[group].get_mut(v).ok_or_else(bad)? = gamma;
            }
        }
        weights.set_patterns(&patterns);
        Ok(weights)
    }
}

/// Choices of steps to fit [`Weights`] to: each a set of candidate steps and
/// the one chosen.
#[derive(Clone, Debug)]
pub struct TrainingSet {
    variant: Variant,
    candidates: Vec<Values>,
    /// Per choice: its candidates' range in `candidates`, and the chosen
    /// one's index in that range.
    choices: Vec<(u32, u32, u32)>,
    features: Features,
    values: StepValues,
}

/// How well weights predict a set's choices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Choices (steps with at least two candidates).
    pub choices: usize,
    /// Mean log-likelihood of the chosen step, in nats.
    pub log_likelihood: f64,
    /// Share of choices whose chosen step is the strongest.
    pub top1: f64,
}

impl TrainingSet {
    /// An empty set for a board family.
    pub fn new(variant: Variant) -> TrainingSet {
        let mut features = Features::default();
        features.read_dangers = true;
        features.read_balance = true;
        TrainingSet {
            variant,
            candidates: Vec::new(),
            choices: Vec::new(),
            features,
            values: StepValues::default(),
        }
    }

    /// Number of choices held.
    pub fn len(&self) -> usize {
        self.choices.len()
    }

    /// Whether it holds no choice.
    pub fn is_empty(&self) -> bool {
        self.choices.is_empty()
    }

    /// Adds the steps of `turn`, played from `position` (at the start of a
    /// turn), as choices: each stone in the order written, then `Finish` if
    /// the turn ended before it had to. A step with one candidate teaches
    /// nothing and is left out; a turn the search could not have played
    /// step by step (a stone that is not one of its steps) is left out from
    /// that stone on. Returns the choices added.
    pub fn add_turn(&mut self, position: &Position, turn: &Turn) -> usize {
        if position.geometry().variant() != self.variant || position.turn_in_progress() {
            return 0;
        }
        let mut chosen: Vec<Step> = match turn {
            Turn::Pass => vec![Step::Pass],
            Turn::Resign => return 0,
            Turn::Stones(stones) => stones.iter().map(|&p| Step::Stone(p)).collect(),
        };
        let mut game = StepGame::new(position.clone());
        let mut added = 0;
        let mut i = 0;
        while i < chosen.len() {
            let step = chosen[i];
            self.features.compute(game.position());
            self.values.compute(&game, &self.features);
            let Some(winner) = self.values.steps.iter().position(|&(s, _)| s == step) else {
                break;
            };
            if self.values.steps.len() >= 2 {
                let start = self.candidates.len() as u32;
                self.candidates
                    .extend(self.values.steps.iter().map(|&(_, v)| v));
                self.choices
                    .push((start, self.values.steps.len() as u32, winner as u32));
                added += 1;
            }
            let mover = game.position().side_to_move();
            game.apply(step);
            i += 1;
            let pos = game.position();
            if i == chosen.len() && pos.turn_in_progress() && pos.side_to_move() == mover {
                chosen.push(Step::Finish);
            }
        }
        added
    }

    /// Fits weights by `iterations` rounds of MM over every group, with a
    /// prior of one win and one loss against a step of strength 1 for every
    /// value (so that rare values stay near 1). Calls `progress` after each
    /// round with its fit.
    pub fn fit(&self, iterations: usize, mut progress: impl FnMut(usize, Fit)) -> Weights {
        let table = canonical_table(self.variant);
        // Dense indices: per group its values; the pattern's by canonical code.
        let mut pattern_ids: HashMap<u32, usize> = HashMap::new();
        let values: Vec<[usize; GROUPS]> = self
            .candidates
            .iter()
            .map(|v| {
                let mut ids = [0; GROUPS];
                for group in 0..PATTERN {
                    ids[group] = v[group] as usize;
                }
                let key = if v[PATTERN] == 0 {
                    u32::MAX
                } else {
                    table[v[PATTERN] as usize - 1]
                };
                let n = pattern_ids.len();
                ids[PATTERN] = *pattern_ids.entry(key).or_insert(n);
                ids
            })
            .collect();
        let mut sizes: Vec<usize> = SIZES.to_vec();
        sizes.push(pattern_ids.len());
        let mut gamma: Vec<Vec<f64>> = sizes.iter().map(|&n| vec![1.0; n]).collect();
        let mut wins: Vec<Vec<f64>> = sizes.iter().map(|&n| vec![0.0; n]).collect();
        for &(start, _, winner) in &self.choices {
            let ids = &values[(start + winner) as usize];
            for group in 0..GROUPS {
                wins[group][ids[group]] += 1.0;
            }
        }
        let mut strength = vec![1.0f64; values.len()];
        let mut denominator: Vec<f64> = Vec::new();
        for round in 1..=iterations {
            for group in 0..GROUPS {
                denominator.clear();
                denominator.resize(sizes[group], 0.0);
                for &(start, len, _) in &self.choices {
                    let range = start as usize..(start + len) as usize;
                    let total: f64 = strength[range.clone()].iter().sum();
                    for i in range {
                        let v = values[i][group];
                        denominator[v] += strength[i] / gamma[group][v] / total;
                    }
                }
                let old = gamma[group].clone();
                for v in 0..sizes[group] {
                    gamma[group][v] =
                        (wins[group][v] + 1.0) / (denominator[v] + 2.0 / (old[v] + 1.0));
                }
                for (s, ids) in strength.iter_mut().zip(&values) {
                    let v = ids[group];
                    *s *= gamma[group][v] / old[v];
                }
            }
            progress(round, self.measure(&strength));
        }
        let mut weights = Weights::even(self.variant);
        for (fitted, shipped) in gamma.iter().zip(weights.gamma.iter_mut()) {
            for (v, &g) in fitted.iter().enumerate() {
                shipped[v] = g as f32;
            }
        }
        let mut patterns = HashMap::new();
        for (&key, &id) in &pattern_ids {
            let g = gamma[PATTERN][id] as f32;
            if key == u32::MAX {
                weights.other = g;
            } else {
                patterns.insert(key, g);
            }
        }
        weights.set_patterns(&patterns);
        weights
    }

    /// How well `weights` predict this set's choices.
    pub fn evaluate(&self, weights: &Weights) -> Fit {
        let strength: Vec<f64> = self
            .candidates
            .iter()
            .map(|v| f64::from(weights.strength(v)))
            .collect();
        self.measure(&strength)
    }

    fn measure(&self, strength: &[f64]) -> Fit {
        let (mut ll, mut top) = (0.0, 0.0);
        for &(start, len, winner) in &self.choices {
            let range = start as usize..(start + len) as usize;
            let s = &strength[range];
            let total: f64 = s.iter().sum();
            let w = s[winner as usize];
            ll += (w / total).ln();
            // The chosen step is the strongest: a share of one when tied.
            if s.iter().all(|&x| x <= w) {
                top += 1.0 / s.iter().filter(|&&x| x == w).count() as f64;
            }
        }
        let n = self.choices.len().max(1) as f64;
        Fit {
            choices: self.choices.len(),
            log_likelihood: ll / n,
            top1: top / n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sygo_rules::{Game, Geometry};

    use crate::{Budget, Player, RandomPlayer};

    /// A ring and its images under the board's symmetries share one
    /// canonical code; the classes are as many as Burnside's lemma counts.
    #[test]
    fn images_of_a_ring_share_a_code() {
        for variant in [Variant::Hexsygo, Variant::Sygo] {
            let cells = ring(variant).len();
            let table = canonical_table(variant);
            // Every cell vacant but one of the mover's: one class for every
            // cell a symmetry reaches (all six on the hex board, the four
            // orthogonal ones on the square board).
            let vacant: u32 = (0..cells).map(|k| 1 << (2 * k)).sum();
            let with = |k: usize| vacant & !(3 << (2 * k)) | (2 << (2 * k));
            for k in (0..cells).step_by(ring_turn(variant)) {
                assert_eq!(table[with(k) as usize], table[with(0) as usize]);
            }
            if variant == Variant::Sygo {
                assert_ne!(table[with(1) as usize], table[with(0) as usize]);
            }
            let classes = (0..table.len()).filter(|&c| table[c] == c as u32).count();
            let expected = match variant {
                Variant::Hexsygo => 430,
                Variant::Sygo => 8740,
            };
            assert_eq!(classes, expected, "{variant}");
        }
    }

    /// The weights the AI ships with read, name their board family, and
    /// were fitted (not every γ 1): the captures worth more than a quiet
    /// stone.
    #[test]
    fn the_shipped_weights_are_fitted() {
        for variant in [Variant::Hexsygo, Variant::Sygo] {
            let w = Weights::builtin(variant);
            assert_eq!(w.variant(), variant);
            assert_ne!(w, &Weights::even(variant));
            assert!(w.gamma[1][4] > 2.0 * w.gamma[1][0], "{variant}");
            // Every image of a pattern has its γ: written and read, the
            // same weights come back.
            assert_eq!(&Weights::parse(&w.to_text()).unwrap(), w, "{variant}");
        }
    }

    /// Weights survive their text; bad text is refused.
    #[test]
    fn weights_read_back_what_they_wrote() {
        let mut w = Weights::even(Variant::Hexsygo);
        w.gamma[1][2] = 3.5;
        w.other = 0.25;
        let table = canonical_table(Variant::Hexsygo);
        let code = table[0b11_01_01_10_01_00];
        for (raw, &c) in table.iter().enumerate() {
            if c == code {
                w.pattern[raw] = 2.0;
            }
        }
        let back = Weights::parse(&w.to_text()).unwrap();
        assert_eq!(back, w);
        assert!(Weights::parse("nonsense").is_err());
        assert!(Weights::parse("# sygo step weights (hexsygo)\nkind 99 1.0").is_err());
        assert!(Weights::parse("# sygo step weights (hexsygo)\nkind 1 -2").is_err());
        assert!(Weights::parse("# sygo step weights (hexsygo)\npattern 4 2.0").is_err());
    }

    /// Choices that always pass, in random positions: the fit makes the
    /// pass far stronger than any stone and predicts every choice; the
    /// even weights predict them at chance.
    #[test]
    fn fitting_finds_the_feature_that_decides() {
        let mut set = TrainingSet::new(Variant::Hexsygo);
        let mut game = Game::new(Position::new(Geometry::hexsygo(3).unwrap()));
        let mut player = RandomPlayer::new(3);
        while !game.position().is_over() && set.len() < 12 {
            set.add_turn(game.position(), &Turn::Pass);
            let turn = player.choose(&game, &Budget::default()).turn;
            game.play(turn).unwrap();
        }
        assert!(set.len() >= 10);
        let even = set.evaluate(&Weights::even(Variant::Hexsygo));
        assert!(even.log_likelihood < -1.5, "{even:?}");
        let weights = set.fit(20, |_, _| {});
        let fit = set.evaluate(&weights);
        assert_eq!(fit.top1, 1.0, "{fit:?}");
        assert!(fit.log_likelihood > -0.7, "{fit:?}");
        assert!(weights.gamma[0][12..].iter().any(|&g| g > 5.0));
    }
}
