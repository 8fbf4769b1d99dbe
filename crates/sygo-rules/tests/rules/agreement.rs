//! The rules library against the simple reference implementation in
//! `reference/`, step by step, on random games of many boards of both kinds.
//!
//! At every prefix of every turn the two must agree on the set of allowed next
//! steps and the kind of each, on whether the turn may end (and why not), and
//! after each step on the whole board, the side to move and the growth flag.
//! Refused steps are tried on both (occupied points, growths next to grown or
//! frozen groups, placements after growth, suicides, steps after a placement):
//! both must refuse with the same `StepError` variant, and the library's
//! position must be left exactly as it was. Scores and territories are compared
//! at the end of every game and at random moments; the library's own
//! consistency checks run all along.
//!
//! The random walk chooses uniformly among the allowed steps and ending the
//! turn (and passes now and then), so it makes transient suicides (a growth
//! leaving a group of the mover without liberties, which a later capture of
//! the same turn may rescue); a turn that reaches a dead end (nothing allowed,
//! cannot end) is abandoned and the player passes. Rare cases get help: in
//! some turns the walk prefers capturing steps and first looks (with the
//! reference) for a transient suicide that the next step rescues; in some
//! games both players only place stones for a while, which crowds the board
//! before Black's balance turn. Each test counts the events it covered and
//! asserts that each was seen often enough; `hand_made_turns_agree_with_the_reference`
//! sets up the rarest ones by hand.
//!
//! A failure message gives the position string at the start of the turn and
//! the steps played so far: enough to replay it.

use crate::reference;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Instant;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use reference::{
    Board, Cell, FinishRefusal, RefPosition, Refusal, Status, Verdict, to_cell, to_point,
};
use sygo_rules::{
    Color, FinishError, Geometry, GroupStatus, Outcome, Point, Position, StepError, StepKind, Turn,
    TurnError, Vertex,
};

/// What the walks covered.
#[derive(Default, Debug)]
struct Counts {
    games: u64,
    /// Prefixes of turns (turn starts included) at which everything was
    /// compared.
    positions: u64,
    steps: u64,
    turns_finished: u64,
    passes: u64,
    resignations: u64,
    balance_turns: u64,
    captures_by_growth: u64,
    captures_by_placement: u64,
    /// Steps after which a group of the mover had no liberty.
    transient_suicides: u64,
    /// Turns finished legally after a transient suicide.
    transient_rescued: u64,
    /// Growth steps that captured and gave every group of the mover a
    /// liberty again.
    rescues_by_growth: u64,
    /// Placements (ending a balance turn) that did so.
    rescues_by_placement: u64,
    /// Turn starts searched for a transient suicide and its rescue.
    rescue_searches: u64,
    /// Turn starts where one was found (and played).
    rescues_found: u64,
    /// Turns abandoned: nothing allowed and the turn cannot end.
    dead_ends: u64,
    /// Prefixes at which both said the turn may not end for suicide.
    finish_suicide: u64,
    /// Prefixes at which `check_step` was compared on every point.
    sweeps: u64,
    /// Steps compared with `check_step`, sweeps included.
    verdicts_compared: u64,
    illegal_attempts: u64,
    score_checks: u64,
    invariant_checks: u64,
    base_group_checks: u64,
    /// Library refusals seen, by `StepError` variant.
    errors: BTreeMap<&'static str, u64>,
}

impl Counts {
    fn report(&self, name: &str, secs: f64) {
        eprintln!(
            "{name}: {} positions in {} games, {secs:.1} s\n  {self:?}",
            self.positions, self.games
        );
    }

    fn error(&self, variant: &str) -> u64 {
        self.errors.get(variant).copied().unwrap_or(0)
    }

    /// Asserts that every kind of event was seen at least as often as `min`
    /// says.
    fn assert_at_least(&self, min: &Minimums) {
        let checks = [
            ("positions", self.positions, min.positions),
            ("balance turns", self.balance_turns, min.balance_turns),
            (
                "captures by growth",
                self.captures_by_growth,
                min.captures_by_growth,
            ),
            (
                "captures by placement",
                self.captures_by_placement,
                min.captures_by_placement,
            ),
            (
                "transient suicides rescued",
                self.transient_rescued,
                min.transient_rescued,
            ),
            (
                "rescues by a placement",
                self.rescues_by_placement,
                min.rescues_by_placement,
            ),
            ("transient dead ends", self.dead_ends, min.dead_ends),
            (
                "finish refused for suicide",
                self.finish_suicide,
                min.dead_ends,
            ),
            ("resignations", self.resignations, min.resignations),
            ("score checks", self.score_checks, min.games),
            ("games", self.games, min.games),
            ("Occupied", self.error("Occupied"), min.errors),
            ("TurnOver", self.error("TurnOver"), min.errors),
            (
                "PlacementAfterGrowth",
                self.error("PlacementAfterGrowth"),
                min.errors,
            ),
            ("OnlyNewStones", self.error("OnlyNewStones"), min.errors),
            (
                "PlacementTouchesOwn",
                self.error("PlacementTouchesOwn"),
                min.touches_own,
            ),
            ("AlreadyGrown", self.error("AlreadyGrown"), min.errors),
            ("Frozen", self.error("Frozen"), min.frozen),
            ("Suicide", self.error("Suicide"), min.errors),
            ("GameOver", self.error("GameOver"), min.games),
        ];
        for (what, seen, want) in checks {
            assert!(seen >= want, "{what}: seen {seen}, want at least {want}");
        }
    }
}

/// Minimum counts a test must reach.
struct Minimums {
    positions: u64,
    games: u64,
    balance_turns: u64,
    captures_by_growth: u64,
    captures_by_placement: u64,
    transient_rescued: u64,
    rescues_by_placement: u64,
    dead_ends: u64,
    resignations: u64,
    errors: u64,
    frozen: u64,
    touches_own: u64,
}

/// How many games of which board, and how much checking per position.
#[derive(Clone, Copy)]
struct Plan {
    board: Board,
    games: u32,
    /// Chance per prefix of comparing `check_step` on every point.
    sweep: f64,
    /// Chance per prefix of running the library's `check_invariants`.
    invariants: f64,
}

fn variant_name(e: &StepError) -> &'static str {
    match e {
        StepError::GameOver => "GameOver",
        StepError::NotOnBoard => "NotOnBoard",
        StepError::Occupied(_) => "Occupied",
        StepError::TurnOver { .. } => "TurnOver",
        StepError::PlacementTouchesOwn { .. } => "PlacementTouchesOwn",
        StepError::PlacementAfterGrowth { .. } => "PlacementAfterGrowth",
        StepError::OnlyNewStones { .. } => "OnlyNewStones",
        StepError::AlreadyGrown { .. } => "AlreadyGrown",
        StepError::Frozen { .. } => "Frozen",
        StepError::Suicide { .. } => "Suicide",
    }
}

fn geometry_of(board: Board) -> Geometry {
    match board {
        Board::Square(n) => Geometry::sygo(n as u8).unwrap(),
        Board::Hex(n) => Geometry::hexsygo(n as u8).unwrap(),
    }
}

fn cell_of(g: &Geometry, v: Vertex) -> Cell {
    to_cell(g, g.point_of(v).expect("a vertex of the board"))
}

/// Whether the library's refusal of a step at `at` is one the reference gives,
/// with the same details (the point, and an example stone the reference
/// agrees justifies it).
fn error_matches(
    g: &Geometry,
    err: &StepError,
    at: Cell,
    mover: Color,
    refusals: &[Refusal],
) -> bool {
    let here = |v: &Vertex| cell_of(g, *v) == at;
    let among = |v: &Vertex, cells: &[Cell]| cells.contains(&cell_of(g, *v));
    refusals.iter().any(|r| match (err, r) {
        (StepError::GameOver, Refusal::GameOver) => true,
        (StepError::Occupied(v), Refusal::Occupied) => here(v),
        (StepError::TurnOver { placement }, Refusal::TurnOver { placement: p }) => {
            cell_of(g, *placement) == *p
        }
        (
            StepError::PlacementTouchesOwn { at: v, own },
            Refusal::PlacementTouchesOwn { own: o },
        ) => here(v) && among(own, o),
        (StepError::PlacementAfterGrowth { at: v, color }, Refusal::PlacementAfterGrowth) => {
            here(v) && *color == mover
        }
        (StepError::OnlyNewStones { at: v, new }, Refusal::OnlyNewStones { new: n }) => {
            here(v) && among(new, n)
        }
        (StepError::AlreadyGrown { at: v, group }, Refusal::AlreadyGrown { stones }) => {
            here(v) && among(group, stones)
        }
        (StepError::Frozen { at: v, group }, Refusal::Frozen { stones }) => {
            here(v) && among(group, stones)
        }
        (StepError::Suicide { at: v, group }, Refusal::Suicide { dead }) => {
            here(v) && among(group, dead)
        }
        _ => false,
    })
}

/// One board's random games, and the counts.
struct Walker<'a> {
    plan: Plan,
    g: Geometry,
    rng: Xoshiro256PlusPlus,
    counts: &'a mut Counts,
}

/// A failing comparison's context: the turn's start and its steps so far,
/// enough to replay it.
fn describe(g: &Geometry, start: &Position, lib: &Position) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "\n  turn start: {}\n  steps so far: {:?}\n  now: {}",
        start.to_position_string(),
        sygo_rules::format_points(&lib.turn_stones(), g),
        lib.to_position_string(),
    );
    s
}

impl Walker<'_> {
    /// Board, side to move, growth, passes, end, the turn's stones, the hash.
    fn compare_state(&self, lib: &Position, rf: &RefPosition, start: &Position) {
        let g = &self.g;
        for p in rf.board().cells() {
            let pt = to_point(g, p);
            assert_eq!(
                lib.stone_at(pt),
                rf.stones.get(p),
                "stone at {}{}",
                g.vertex(pt),
                describe(g, start, lib)
            );
        }
        let counts = rf.stones.counts();
        assert_eq!(lib.stone_count(Color::Black), counts[0]);
        assert_eq!(lib.stone_count(Color::White), counts[1]);
        assert_eq!(
            lib.side_to_move(),
            rf.to_move,
            "{}",
            describe(g, start, lib)
        );
        assert_eq!(
            lib.growth_started(),
            rf.growth_started,
            "{}",
            describe(g, start, lib)
        );
        assert_eq!(lib.balance_available(), rf.balance_available());
        assert_eq!(lib.passes(), rf.passes);
        assert_eq!(lib.resigned(), rf.resigned);
        assert_eq!(lib.is_over(), rf.is_over());
        let new: Vec<Point> = rf.new_stones.iter().map(|&(p, _)| to_point(g, p)).collect();
        assert_eq!(lib.turn_stones(), new, "{}", describe(g, start, lib));
        assert_eq!(lib.turn_in_progress(), !new.is_empty());
        assert_eq!(
            lib.turn_ended_by_placement(),
            rf.new_stones
                .last()
                .is_some_and(|&(_, k)| k == StepKind::Placement)
        );
        assert_eq!(
            lib.hash(),
            lib.hash_from_scratch(),
            "{}",
            describe(g, start, lib)
        );
    }

    fn compare_score(&mut self, lib: &Position, rf: &RefPosition) {
        let g = &self.g;
        let score = lib.score();
        assert_eq!(
            [score.black, score.white],
            rf.stones.score(),
            "score of {lib}"
        );
        let territory = lib.territory();
        assert_eq!(territory.stones, rf.stones.counts());
        assert_eq!(territory.score(), score);
        let mut lib_regions: Vec<(Vec<Point>, Option<Color>)> = territory
            .regions
            .iter()
            .map(|r| {
                let mut pts = r.points.clone();
                pts.sort();
                (pts, r.owner)
            })
            .collect();
        lib_regions.sort_by_key(|r| r.0[0]);
        let mut ref_regions: Vec<(Vec<Point>, Option<Color>)> = rf
            .stones
            .regions()
            .into_iter()
            .map(|(cells, owner)| {
                let mut pts: Vec<Point> = cells.iter().map(|&c| to_point(g, c)).collect();
                pts.sort();
                (pts, owner)
            })
            .collect();
        ref_regions.sort_by_key(|r| r.0[0]);
        assert_eq!(lib_regions, ref_regions, "territory of {lib}");
        for (pts, owner) in &ref_regions {
            assert_eq!(territory.owner_of(pts[0]), *owner);
        }
        self.counts.score_checks += 1;
    }

    fn compare_finish(&mut self, lib: &Position, rf: &RefPosition, start: &Position) -> bool {
        let g = &self.g;
        match (lib.check_finish(), rf.check_finish()) {
            (Ok(()), Ok(())) => true,
            (Err(FinishError::NoStep), Err(FinishRefusal::NoStep))
            | (Err(FinishError::GameOver), Err(FinishRefusal::GameOver)) => false,
            (Err(FinishError::Suicide { group }), Err(FinishRefusal::Suicide { dead })) => {
                assert!(
                    dead.contains(&cell_of(g, group)),
                    "finish refused for {group}, not a dead stone{}",
                    describe(g, start, lib)
                );
                self.counts.finish_suicide += 1;
                false
            }
            (l, r) => panic!(
                "check_finish: library {l:?}, reference {r:?}{}",
                describe(g, start, lib)
            ),
        }
    }

    fn compare_verdict(&mut self, lib: &Position, p: Cell, verdict: &Verdict, start: &Position) {
        let g = &self.g;
        let pt = to_point(g, p);
        let got = lib.check_step(pt);
        match (&got, verdict) {
            (Ok(k), Ok(want)) if k == want => {}
            (Err(e), Err(refusals)) if error_matches(g, e, p, lib.side_to_move(), refusals) => {
                *self.counts.errors.entry(variant_name(e)).or_default() += 1;
            }
            _ => panic!(
                "check_step({}): library {got:?}, reference {verdict:?}{}",
                g.vertex(pt),
                describe(g, start, lib)
            ),
        }
        self.counts.verdicts_compared += 1;
    }

    /// Plays a refused step on the library: it must refuse as the reference
    /// does and change nothing.
    fn illegal_attempt(
        &mut self,
        lib: &mut Position,
        p: Cell,
        refusals: &[Refusal],
        start: &Position,
    ) {
        let g = self.g;
        let before = lib.clone();
        let hash = lib.hash();
        let pt = to_point(&g, p);
        match lib.play_step(pt) {
            Ok(k) => panic!(
                "library played {} as {k:?}, reference refuses: {refusals:?}{}",
                g.vertex(pt),
                describe(&g, start, &before)
            ),
            Err(e) => {
                assert!(
                    error_matches(&g, &e, p, before.side_to_move(), refusals),
                    "play_step({}): library {e:?}, reference {refusals:?}{}",
                    g.vertex(pt),
                    describe(&g, start, &before)
                );
                *self.counts.errors.entry(variant_name(&e)).or_default() += 1;
            }
        }
        assert!(*lib == before, "a refused step changed the position");
        assert_eq!(lib.hash(), hash);
        self.counts.illegal_attempts += 1;
    }

    fn compare_base_groups(&mut self, lib: &Position, rf: &RefPosition, start: &Position) {
        let g = &self.g;
        let status = |s: Status| match s {
            Status::Fresh => GroupStatus::Fresh,
            Status::Grown => GroupStatus::Grown,
            Status::Frozen => GroupStatus::Frozen,
        };
        let mut want: Vec<(Vec<Point>, GroupStatus)> = rf
            .base_groups
            .iter()
            .map(|bg| {
                let mut pts: Vec<Point> = bg.stones.iter().map(|&c| to_point(g, c)).collect();
                pts.sort();
                (pts, status(bg.status))
            })
            .collect();
        want.sort_by_key(|b| b.0[0]);
        let got: Vec<(Vec<Point>, GroupStatus)> = lib
            .base_groups()
            .into_iter()
            .map(|b| (b.stones, b.status))
            .collect();
        assert_eq!(got, want, "base groups{}", describe(g, start, lib));
        let back = lib.turn_start();
        assert!(back == *start, "turn_start{}", describe(g, start, lib));
        self.counts.base_group_checks += 1;
    }

    /// Checks that a finished game refuses everything, alike on both sides.
    fn check_game_over(&mut self, lib: &mut Position, rf: &RefPosition) {
        assert!(lib.is_over() && rf.is_over());
        let cells = rf.board().cells();
        let p = cells[self.rng.random_range(0..cells.len())];
        let start = lib.clone();
        self.compare_verdict(lib, p, &rf.check_step(p), &start);
        let refusals = rf
            .check_step(p)
            .expect_err("nothing is allowed after the end");
        self.illegal_attempt(lib, p, &refusals, &start);
        self.compare_finish(lib, rf, &start);
        let before = lib.clone();
        assert_eq!(lib.pass(), Err(TurnError::GameOver));
        assert_eq!(lib.resign(), Err(TurnError::GameOver));
        assert!(*lib == before);
        lib.check_invariants();
        self.counts.invariant_checks += 1;
        self.compare_score(lib, rf);
        match lib.outcome().expect("the game is over") {
            Outcome::Resignation { winner } => {
                assert_eq!(Some(winner.opponent()), rf.resigned);
            }
            Outcome::Score(score) => {
                assert_eq!(rf.passes, 2);
                assert_eq!([score.black, score.white], rf.stones.score());
            }
        }
    }

    fn play_game(&mut self) {
        let g = self.g;
        let board = self.plan.board;
        let mut lib = Position::new(g);
        let mut rf = RefPosition::new(board);
        // A resignation in about one game in twenty, at a random turn.
        let resign_at = if self.rng.random_range(0..20) == 0 {
            Some(self.rng.random_range(0..(2 * g.num_points())))
        } else {
            None
        };
        // In some games both players only place stones for a while (as long
        // as they can): crowded boards of single stones, where Black's
        // balance turn has the most to do.
        let placing_until = if self.rng.random_bool(0.3) {
            self.rng.random_range(0..g.num_points())
        } else {
            0
        };
        let mut turn_number = 0;
        while !lib.is_over() {
            assert!(!rf.is_over());
            let start_lib = lib.clone();
            let start_ref = rf.clone();
            self.compare_state(&lib, &rf, &start_lib);
            if resign_at == Some(turn_number) {
                lib.resign().unwrap();
                rf.resign();
                self.counts.resignations += 1;
                self.compare_state(&lib, &rf, &start_lib);
                break;
            }
            let placing = turn_number < placing_until;
            turn_number += 1;
            self.play_turn(&mut lib, &mut rf, start_lib, start_ref, placing);
        }
        self.check_game_over(&mut lib, &rf);
        self.counts.games += 1;
    }

    fn pass(&mut self, lib: &mut Position, rf: &mut RefPosition) {
        lib.pass().unwrap();
        rf.pass();
        self.counts.passes += 1;
    }

    /// Compares everything at a prefix of a turn: the allowed steps and their
    /// kinds, whether the turn may end, every point's verdict (if `sweep`),
    /// the base groups, one refused step of each kind. Returns the allowed
    /// steps and whether the turn may end.
    fn compare_prefix(
        &mut self,
        lib: &mut Position,
        rf: &RefPosition,
        start_lib: &Position,
        sweep: bool,
    ) -> (Vec<(Cell, StepKind)>, bool) {
        let g = self.g;
        self.counts.positions += 1;
        let verdicts = rf.verdicts();
        let allowed: Vec<(Cell, StepKind)> = verdicts
            .iter()
            .filter_map(|(p, v)| v.as_ref().ok().map(|&k| (*p, k)))
            .collect();

        // The allowed steps, with their kinds.
        let mut want: Vec<(Point, StepKind)> =
            allowed.iter().map(|&(p, k)| (to_point(&g, p), k)).collect();
        want.sort_by_key(|s| s.0);
        let mut got = Vec::new();
        lib.for_each_allowed_step(|p, k| got.push((p, k)));
        got.sort_by_key(|s: &(Point, StepKind)| s.0);
        assert_eq!(got, want, "allowed steps{}", describe(&g, start_lib, lib));
        let points: Vec<Point> = want.iter().map(|s| s.0).collect();
        assert_eq!(lib.allowed_steps(), points);
        let can_end = self.compare_finish(lib, rf, start_lib);

        // Every point's verdict, now and then; refused steps, always.
        if sweep {
            for (p, v) in &verdicts {
                self.compare_verdict(lib, *p, v, start_lib);
            }
            self.counts.sweeps += 1;
            self.compare_base_groups(lib, rf, start_lib);
            if lib.turn_in_progress() {
                let before = lib.clone();
                assert_eq!(lib.pass(), Err(TurnError::TurnInProgress));
                assert_eq!(lib.resign(), Err(TurnError::TurnInProgress));
                assert!(*lib == before);
            }
        }
        self.illegal_attempts(lib, &verdicts, start_lib);
        if self.rng.random_bool(self.plan.invariants) {
            lib.check_invariants();
            self.counts.invariant_checks += 1;
        }
        if self.rng.random_bool(0.05) {
            self.compare_score(lib, rf);
        }
        (allowed, can_end)
    }

    /// Plays an allowed step on both sides and compares the result; counts
    /// captures, transient suicides and rescues. Returns whether a group of
    /// the mover is left without liberties.
    fn play_step(
        &mut self,
        lib: &mut Position,
        rf: &mut RefPosition,
        (p, kind): (Cell, StepKind),
        start_lib: &Position,
    ) -> bool {
        let g = self.g;
        let was_dead = rf.mover_has_dead_group();
        let pt = to_point(&g, p);
        let got = lib.play_step(pt);
        assert_eq!(
            got,
            Ok(kind),
            "play_step({}){}",
            g.vertex(pt),
            describe(&g, start_lib, lib)
        );
        let outcome = rf.play_step(p).expect("an allowed step");
        self.counts.steps += 1;
        if outcome.reversed > 0 {
            match kind {
                StepKind::Growth => self.counts.captures_by_growth += 1,
                StepKind::Placement => self.counts.captures_by_placement += 1,
            }
        }
        let dead = rf.mover_has_dead_group();
        if dead {
            self.counts.transient_suicides += 1;
        } else if was_dead {
            match kind {
                StepKind::Growth => self.counts.rescues_by_growth += 1,
                StepKind::Placement => self.counts.rescues_by_placement += 1,
            }
        }
        self.compare_state(lib, rf, start_lib);
        dead
    }

    /// One turn: a random walk through the allowed steps, compared at every
    /// prefix; or a pass.
    fn play_turn(
        &mut self,
        lib: &mut Position,
        rf: &mut RefPosition,
        start_lib: Position,
        start_ref: RefPosition,
        placing: bool,
    ) {
        let g = self.g;
        let mut had_transient = false;
        // In some turns the walk prefers capturing steps: captures by
        // placement and rescues of transient suicides are rare otherwise.
        let seek_captures = self.rng.random_bool(0.3);
        // And then it looks for a transient suicide that the next step can
        // rescue, and plays those two steps first if it finds one.
        let hunt = seek_captures || (placing && rf.balance_available());
        let mut forced = if hunt && lib.vacant_count() > 0 {
            self.find_rescue(rf)
        } else {
            Vec::new()
        };
        loop {
            let sweep = self.rng.random_bool(self.plan.sweep);
            let (allowed, can_end) = self.compare_prefix(lib, rf, &start_lib, sweep);

            let options = allowed.len() + usize::from(can_end);
            if !lib.turn_in_progress() {
                if options == 0 || self.rng.random_bool(0.03) {
                    self.pass(lib, rf);
                    self.compare_state(lib, rf, &start_lib);
                    return;
                }
            } else if options == 0 {
                // A dead end: a growth left a group without liberties and
                // nothing can rescue it. The whole turn is refused as such;
                // abandon it.
                self.counts.dead_ends += 1;
                let turn = Turn::Stones(lib.turn_stones());
                let mut whole = start_lib.clone();
                assert!(matches!(
                    whole.play_turn(&turn),
                    Err(TurnError::Finish(FinishError::Suicide { .. }))
                ));
                assert!(whole == start_lib && whole.hash() == start_lib.hash());
                *lib = start_lib.clone();
                *rf = start_ref;
                self.pass(lib, rf);
                self.compare_state(lib, rf, &start_lib);
                return;
            }
            let mut choice = self.rng.random_range(0..options);
            if seek_captures && self.rng.random_bool(0.8) {
                // Prefer a step that rescues a group without liberties, else
                // one that captures, if there is one.
                let me = rf.to_move;
                let capturing: Vec<usize> = (0..allowed.len())
                    .filter(|&i| rf.stones.clone().put_and_capture(allowed[i].0, me) > 0)
                    .collect();
                let rescuing: Vec<usize> = if rf.mover_has_dead_group() {
                    capturing
                        .iter()
                        .copied()
                        .filter(|&i| {
                            let mut after = rf.stones.clone();
                            after.put_and_capture(allowed[i].0, me);
                            after.dead_stones(me).is_empty()
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                let preferred = if rescuing.is_empty() {
                    capturing
                } else {
                    rescuing
                };
                if !preferred.is_empty() {
                    choice = preferred[self.rng.random_range(0..preferred.len())];
                }
            }
            if placing && forced.is_empty() && !lib.turn_in_progress() {
                let placements: Vec<usize> = (0..allowed.len())
                    .filter(|&i| allowed[i].1 == StepKind::Placement)
                    .collect();
                if !placements.is_empty() {
                    choice = placements[self.rng.random_range(0..placements.len())];
                }
            }
            if !forced.is_empty() {
                let p = forced.remove(0);
                choice = allowed
                    .iter()
                    .position(|&(q, _)| q == p)
                    .expect("the rescue found is allowed");
            }
            if choice < allowed.len() {
                had_transient |= self.play_step(lib, rf, allowed[choice], &start_lib);
            } else {
                let stones = lib.turn_stones();
                lib.finish_turn().expect("the turn may end");
                let kinds: Vec<StepKind> = rf.new_stones.iter().map(|s| s.1).collect();
                rf.finish_turn().expect("the turn may end");
                self.counts.turns_finished += 1;
                if had_transient {
                    self.counts.transient_rescued += 1;
                }
                if start_lib.balance_available()
                    && kinds.len() > 1
                    && kinds.last() == Some(&StepKind::Placement)
                {
                    self.counts.balance_turns += 1;
                }
                // The whole turn, played at once from its notation, does the same.
                let turn = Turn::Stones(stones);
                assert_eq!(Turn::parse(&turn.to_notation(&g), &g), Ok(turn.clone()));
                let mut whole = start_lib.clone();
                whole.play_turn(&turn).expect("the turn just played");
                assert!(whole == *lib, "play_turn {}", turn.to_notation(&g));
                assert_eq!(whole.hash(), lib.hash());
                self.compare_state(lib, rf, &start_lib);
                return;
            }
        }
    }

    /// A growth step leaving a group of the mover without liberties and a
    /// step after it that rescues it, if there are any (by the reference).
    fn find_rescue(&mut self, rf: &RefPosition) -> Vec<Cell> {
        let me = rf.to_move;
        let mut found = Vec::new();
        for (s1, kind) in rf.allowed_steps() {
            if kind != StepKind::Growth {
                continue;
            }
            let mut after = rf.stones.clone();
            after.put_and_capture(s1, me);
            if after.dead_stones(me).is_empty() {
                continue;
            }
            let mut next = rf.clone();
            next.play_step(s1).expect("an allowed step");
            for (s2, _) in next.allowed_steps() {
                let mut rescued = next.stones.clone();
                if rescued.put_and_capture(s2, me) > 0 && rescued.dead_stones(me).is_empty() {
                    found.push(vec![s1, s2]);
                }
            }
        }
        self.counts.rescue_searches += 1;
        if found.is_empty() {
            return Vec::new();
        }
        self.counts.rescues_found += 1;
        found.swap_remove(self.rng.random_range(0..found.len()))
    }

    /// Tries one refused point of each kind of refusal on the library.
    fn illegal_attempts(
        &mut self,
        lib: &mut Position,
        verdicts: &[(Cell, Verdict)],
        start: &Position,
    ) {
        let mut by_kind: BTreeMap<&'static str, Vec<(Cell, &[Refusal])>> = BTreeMap::new();
        for (p, v) in verdicts {
            if let Err(refusals) = v {
                let kind = match refusals[0] {
                    Refusal::GameOver => "GameOver",
                    Refusal::TurnOver { .. } => "TurnOver",
                    Refusal::Occupied => "Occupied",
                    Refusal::PlacementTouchesOwn { .. } => "PlacementTouchesOwn",
                    Refusal::PlacementAfterGrowth => "PlacementAfterGrowth",
                    Refusal::OnlyNewStones { .. } => "OnlyNewStones",
                    Refusal::AlreadyGrown { .. } => "AlreadyGrown",
                    Refusal::Frozen { .. } => "Frozen",
                    Refusal::Suicide { .. } => "Suicide",
                };
                by_kind.entry(kind).or_default().push((*p, refusals));
            }
        }
        for candidates in by_kind.values() {
            let (p, refusals) = candidates[self.rng.random_range(0..candidates.len())];
            self.illegal_attempt(lib, p, refusals, start);
        }
    }
}

/// The reference's board and neighbours against the library's geometry.
fn check_geometry(board: Board) {
    let g = geometry_of(board);
    let mut lib_cells: Vec<Cell> = g.points().map(|p| to_cell(&g, p)).collect();
    let mut ref_cells = board.cells();
    lib_cells.sort();
    ref_cells.sort();
    assert_eq!(lib_cells, ref_cells, "points of {g}");
    for p in g.points() {
        let mut lib_n: Vec<Cell> = g.neighbours(p).map(|q| to_cell(&g, q)).collect();
        let mut ref_n: Vec<Cell> = board.neighbours(to_cell(&g, p)).collect();
        lib_n.sort();
        ref_n.sort();
        assert_eq!(lib_n, ref_n, "neighbours of {} on {g}", g.vertex(p));
    }
}

fn run(name: &str, seed: u64, plans: &[Plan]) -> Counts {
    let started = Instant::now();
    let mut counts = Counts::default();
    for (i, plan) in plans.iter().enumerate() {
        check_geometry(plan.board);
        let t = Instant::now();
        let before = counts.positions;
        let mut walker = Walker {
            plan: *plan,
            g: geometry_of(plan.board),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed ^ ((i as u64 + 1) << 32)),
            counts: &mut counts,
        };
        for _ in 0..plan.games {
            walker.play_game();
        }
        eprintln!(
            "  {}: {} games, {} positions, {:.2} s",
            walker.g,
            plan.games,
            counts.positions - before,
            t.elapsed().as_secs_f64()
        );
    }
    counts.report(name, started.elapsed().as_secs_f64());
    counts
}

fn plan(board: Board, games: u32, sweep: f64, invariants: f64) -> Plan {
    Plan {
        board,
        games,
        sweep,
        invariants,
    }
}

#[test]
fn square_boards_3_to_7_agree_with_the_reference() {
    use Board::Square;
    let counts = run(
        "sygo 3-7",
        1,
        &[
            plan(Square(3), 2500, 1.0, 1.0),
            plan(Square(4), 1500, 1.0, 1.0),
            plan(Square(5), 1000, 1.0, 0.5),
            plan(Square(6), 600, 0.5, 0.3),
            plan(Square(7), 450, 0.3, 0.2),
        ],
    );
    counts.assert_at_least(&Minimums {
        positions: 200_000,
        games: 6050,
        balance_turns: 1000,
        captures_by_growth: 10_000,
        captures_by_placement: 3000,
        transient_rescued: 300,
        rescues_by_placement: 6,
        dead_ends: 8000,
        resignations: 100,
        errors: 20_000,
        frozen: 20_000,
        touches_own: 2000,
    });
}

#[test]
fn square_boards_9_and_13_agree_with_the_reference() {
    use Board::Square;
    let counts = run(
        "sygo 9, 13",
        2,
        &[
            plan(Square(9), 300, 0.2, 0.1),
            plan(Square(13), 50, 0.05, 0.05),
        ],
    );
    counts.assert_at_least(&Minimums {
        positions: 45_000,
        games: 350,
        balance_turns: 80,
        captures_by_growth: 1500,
        captures_by_placement: 400,
        transient_rescued: 80,
        rescues_by_placement: 1,
        dead_ends: 800,
        resignations: 1,
        errors: 5000,
        frozen: 5000,
        touches_own: 100,
    });
}

#[test]
fn square_board_19_agrees_with_the_reference() {
    let counts = run("sygo 19", 3, &[plan(Board::Square(19), 10, 0.02, 0.02)]);
    counts.assert_at_least(&Minimums {
        positions: 4000,
        games: 10,
        balance_turns: 3,
        captures_by_growth: 80,
        captures_by_placement: 20,
        transient_rescued: 0,
        rescues_by_placement: 0,
        dead_ends: 40,
        resignations: 0,
        errors: 300,
        frozen: 400,
        touches_own: 2,
    });
}

#[test]
fn hex_boards_2_to_5_agree_with_the_reference() {
    use Board::Hex;
    let counts = run(
        "hexsygo 2-5",
        4,
        &[
            plan(Hex(2), 4000, 1.0, 1.0),
            plan(Hex(3), 1500, 1.0, 0.5),
            plan(Hex(4), 450, 0.5, 0.3),
            plan(Hex(5), 220, 0.3, 0.2),
        ],
    );
    // On the hex board the neighbours of a point neighbour each other, so
    // placements (which may not touch their own colour) rarely capture, and
    // the balance turn's placement never rescued a group in these games.
    counts.assert_at_least(&Minimums {
        positions: 150_000,
        games: 6170,
        balance_turns: 600,
        captures_by_growth: 10_000,
        captures_by_placement: 40,
        transient_rescued: 30,
        rescues_by_placement: 0,
        dead_ends: 8000,
        resignations: 100,
        errors: 4000,
        frozen: 10_000,
        touches_own: 1500,
    });
}

#[test]
fn hex_boards_7_and_10_agree_with_the_reference() {
    use Board::Hex;
    let counts = run(
        "hexsygo 7, 10",
        5,
        &[plan(Hex(7), 60, 0.1, 0.05), plan(Hex(10), 10, 0.02, 0.02)],
    );
    counts.assert_at_least(&Minimums {
        positions: 12_000,
        games: 70,
        balance_turns: 15,
        captures_by_growth: 400,
        captures_by_placement: 5,
        transient_rescued: 2,
        rescues_by_placement: 0,
        dead_ends: 150,
        resignations: 0,
        errors: 400,
        frozen: 1000,
        touches_own: 15,
    });
}

/// A hand-made position played step by step on both sides, with everything
/// compared at every prefix.
struct Scene<'a> {
    walker: Walker<'a>,
    lib: Position,
    rf: RefPosition,
    start: Position,
}

impl<'a> Scene<'a> {
    fn new(
        counts: &'a mut Counts,
        board: Board,
        black: &[&str],
        white: &[&str],
        side: Color,
        growth_started: bool,
    ) -> Scene<'a> {
        let g = geometry_of(board);
        let stones: Vec<(Point, Color)> = black
            .iter()
            .map(|v| (g.parse_point(v).unwrap(), Color::Black))
            .chain(
                white
                    .iter()
                    .map(|v| (g.parse_point(v).unwrap(), Color::White)),
            )
            .collect();
        let lib = Position::from_parts(g, &stones, side, growth_started, 0, None).unwrap();
        let cells: Vec<(Cell, Color)> = stones.iter().map(|&(p, c)| (to_cell(&g, p), c)).collect();
        let rf = RefPosition::from_stones(board, &cells, side, growth_started);
        let walker = Walker {
            plan: plan(board, 0, 1.0, 1.0),
            g,
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
            counts,
        };
        walker.compare_state(&lib, &rf, &lib);
        Scene {
            walker,
            start: lib.clone(),
            lib,
            rf,
        }
    }

    fn at(&self, v: &str) -> Point {
        self.walker.g.parse_point(v).unwrap()
    }

    /// Compares everything at this prefix.
    fn compare(&mut self) -> (Vec<(Cell, StepKind)>, bool) {
        self.walker
            .compare_prefix(&mut self.lib, &self.rf, &self.start, true)
    }

    /// Plays a step that must be allowed as `kind`.
    fn step(&mut self, v: &str, kind: StepKind) {
        let (allowed, _) = self.compare();
        let p = to_cell(&self.walker.g, self.at(v));
        assert!(
            allowed.contains(&(p, kind)),
            "{v} should be allowed as {kind:?}"
        );
        self.walker
            .play_step(&mut self.lib, &mut self.rf, (p, kind), &self.start);
    }

    /// Ends the turn, which must be allowed.
    fn finish(&mut self) {
        let (_, can_end) = self.compare();
        assert!(can_end);
        self.lib.finish_turn().unwrap();
        self.rf.finish_turn().unwrap();
        self.walker.compare_state(&self.lib, &self.rf, &self.start);
        self.start = self.lib.clone();
        self.compare();
    }

    fn refused(&self, v: &str) -> StepError {
        self.lib.check_step(self.at(v)).unwrap_err()
    }
}

/// The rare cases of docs/rules.md §5–§7, set up by hand, compared on both sides,
/// with what the rules say of each.
#[test]
fn hand_made_turns_agree_with_the_reference() {
    let mut counts = Counts::default();
    use Board::Square;
    use StepKind::{Growth, Placement};

    // §6, §7: in Black's balance turn, a growth leaves A1-B1 without
    // liberties; a placement that captures C1 unites it with liberties.
    let mut s = Scene::new(
        &mut counts,
        Square(5),
        &["A1", "D1"],
        &["A2", "B2", "C1"],
        Color::Black,
        false,
    );
    s.step("B1", Growth);
    assert!(matches!(
        s.lib.check_finish(),
        Err(FinishError::Suicide { .. })
    ));
    // A placement that captures nothing completes an illegal turn.
    assert!(matches!(s.refused("E5"), StepError::Suicide { .. }));
    s.step("C2", Placement);
    assert_eq!(s.lib.stone_at(s.at("C1")), Some(Color::Black));
    assert!(matches!(s.refused("E5"), StepError::TurnOver { .. }));
    s.finish();
    assert!(s.lib.growth_started());

    // The same after a growth turn: no placement may follow growth, and
    // growing D1 rescues nothing: a dead end.
    let mut s = Scene::new(
        &mut counts,
        Square(5),
        &["A1", "D1"],
        &["A2", "B2", "C1"],
        Color::Black,
        true,
    );
    s.step("B1", Growth);
    assert!(matches!(
        s.refused("C2"),
        StepError::PlacementAfterGrowth { .. }
    ));
    s.step("D2", Growth);
    assert!(matches!(s.refused("E1"), StepError::AlreadyGrown { .. }));
    let (allowed, can_end) = s.compare();
    assert!(allowed.is_empty() && !can_end);

    // §5 step 3: C2 grows C3 and captures C1, rescuing A1-B1; D1, a captor
    // that did not grow, is frozen with the rest of the united group.
    let mut s = Scene::new(
        &mut counts,
        Square(5),
        &["A1", "D1", "C3"],
        &["A2", "B2", "C1"],
        Color::Black,
        true,
    );
    s.step("B1", Growth);
    s.step("C2", Growth);
    assert_eq!(s.lib.stone_at(s.at("C1")), Some(Color::Black));
    assert!(matches!(s.refused("E1"), StepError::Frozen { .. }));
    assert!(matches!(s.refused("C4"), StepError::Frozen { .. }));
    s.finish();

    // Seed 000, top left: D18-E18 has grown at E19, so C18 (next to D18) may
    // not grow it again. Middle left: a stone touching another group's new
    // stone of this turn is legal.
    let mut s = Scene::new(
        &mut counts,
        Square(19),
        &["D18", "E18", "C3", "D5"],
        &["Q16"],
        Color::Black,
        true,
    );
    s.step("E19", Growth);
    assert!(matches!(s.refused("C18"), StepError::AlreadyGrown { .. }));
    s.step("C4", Growth);
    s.step("D4", Growth);
    assert!(matches!(s.refused("D3"), StepError::AlreadyGrown { .. }));
    assert!(matches!(s.refused("E4"), StepError::OnlyNewStones { .. }));
    assert!(matches!(
        s.refused("Q17"),
        StepError::PlacementAfterGrowth { .. }
    ));
    s.finish();

    // A placement that captures ends even a balance turn (§9).
    let mut s = Scene::new(
        &mut counts,
        Square(5),
        &["B1", "D3"],
        &["A1"],
        Color::Black,
        false,
    );
    s.step("D4", Growth);
    s.step("A2", Placement);
    assert_eq!(s.lib.stone_at(s.at("A1")), Some(Color::Black));
    assert!(matches!(s.refused("E3"), StepError::TurnOver { .. }));
    s.finish();

    // A point of another board: off this one (beyond its edge, or in a
    // missing corner of the hexagon). Refused, and nothing changes.
    for (here, there, col, row) in [
        (geometry_of(Square(5)), geometry_of(Square(19)), 18, 18),
        (geometry_of(Board::Hex(3)), geometry_of(Square(5)), 0, 4),
    ] {
        let p = there.point(col, row).unwrap();
        assert!(here.point(col, row).is_none());
        let mut pos = Position::new(here);
        let before = pos.clone();
        assert_eq!(pos.check_step(p), Err(StepError::NotOnBoard));
        assert_eq!(pos.play_step(p), Err(StepError::NotOnBoard));
        assert_eq!(pos.stone_at(p), None);
        assert!(pos.play_turn(&Turn::Stones(vec![p])).is_err());
        assert!(pos == before && pos.hash() == before.hash());
    }

    assert!(counts.rescues_by_placement >= 1 && counts.rescues_by_growth >= 1);
    assert!(counts.sweeps > 0 && counts.error("Frozen") > 0);
}
