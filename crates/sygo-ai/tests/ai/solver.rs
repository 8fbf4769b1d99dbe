//! The exact solver (`sygo_ai::solver`) against a second, deliberately
//! simple search written here: plain minimax over whole turns, each turn
//! enumerated by brute force (every sequence of allowed steps, finished
//! wherever the rules allow, the positions reached kept once by hash), no
//! pruning, no symmetry, a plain map of exact values by position hash. Both
//! must give the same value for Sygo 3×3 and Hexsygo 2, with and without the
//! balance turn; the solver's principal line must replay legally to a final
//! position whose score margin is that value. And the symmetry
//! canonicalisation gives a position and each of its images one key.

use std::collections::{BTreeSet, HashMap};

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use sygo_ai::solver::{Canonical, SolveOptions, Symmetries, solve};
use sygo_rules::{Color, Geometry, Point, Position, Turn};

/// The empty board, White to move; without the balance turn, as if a growth
/// turn had already been played (the position string's `g`).
fn start(geometry: Geometry, balance: bool) -> Position {
    Position::from_parts(geometry, &[], Color::White, !balance, 0, None).unwrap()
}

/// White's score less Black's.
fn white_margin(pos: &Position) -> i32 {
    let score = pos.score();
    score.white as i32 - score.black as i32
}

/// Every position one whole turn (a pass included) can lead to from `pos`,
/// between turns, each once.
fn successors(pos: &Position) -> Vec<Position> {
    let mut out: HashMap<u64, Position> = HashMap::new();
    let mut passed = pos.clone();
    passed.pass().unwrap();
    out.insert(passed.hash(), passed);
    every_sequence(pos, &mut out);
    out.into_values().collect()
}

/// Every sequence of allowed steps from `pos` (a turn in progress or none),
/// each finished where `check_finish` allows.
fn every_sequence(pos: &Position, out: &mut HashMap<u64, Position>) {
    for p in pos.allowed_steps() {
        let mut next = pos.clone();
        next.play_step(p).unwrap();
        if next.check_finish().is_ok() {
            let mut done = next.clone();
            done.finish_turn().unwrap();
            out.insert(done.hash(), done);
        }
        if !next.turn_ended_by_placement() {
            every_sequence(&next, out);
        }
    }
}

/// The margin for the side to move with best play: plain minimax.
fn minimax(pos: &Position, memo: &mut HashMap<u64, i32>) -> i32 {
    if pos.is_over() {
        let margin = white_margin(pos);
        return if pos.side_to_move() == Color::White {
            margin
        } else {
            -margin
        };
    }
    if let Some(&v) = memo.get(&pos.hash()) {
        return v;
    }
    let value = successors(pos)
        .iter()
        .map(|next| -minimax(next, memo))
        .max()
        .expect("a pass at least");
    memo.insert(pos.hash(), value);
    value
}

/// Solves the board both ways and checks the solver's answer.
fn check(geometry: Geometry, balance: bool) -> i32 {
    let start = start(geometry, balance);
    let brute = minimax(&start, &mut HashMap::new());
    let options = SolveOptions {
        table_bits: 18,
        ..SolveOptions::default()
    };
    let solution = solve(&start, &options).unwrap();
    assert_eq!(
        solution.margin,
        brute,
        "{} (balance {balance}): the solver and brute force disagree",
        geometry.name()
    );
    // The line replays legally to the end, where the score is the value.
    let mut pos = start.clone();
    for turn in &solution.principal_line {
        pos.play_turn(turn).unwrap_or_else(|e| {
            panic!(
                "{}: {} is illegal: {e}",
                geometry.name(),
                turn.to_notation(&geometry)
            )
        });
    }
    assert!(pos.is_over(), "the line ends the game");
    assert_eq!(
        solution.principal_line[solution.principal_line.len() - 2..],
        [Turn::Pass, Turn::Pass]
    );
    assert_eq!(white_margin(&pos), solution.margin);
    assert_eq!(pos, solution.final_position);
    // Without symmetries, the same value.
    let plain = solve(
        &start,
        &SolveOptions {
            symmetry: false,
            ..options
        },
    )
    .unwrap();
    assert_eq!(plain.margin, brute);
    eprintln!(
        "{} balance {balance}: {} ({} nodes, {} without symmetry; line {})",
        geometry.name(),
        solution.verdict(),
        solution.nodes,
        plain.nodes,
        solution
            .principal_line
            .iter()
            .map(|t| t.to_notation(&geometry))
            .collect::<Vec<_>>()
            .join(" ")
    );
    brute
}

#[test]
fn sygo_3_with_the_balance_turn() {
    check(Geometry::sygo(3).unwrap(), true);
}

#[test]
fn sygo_3_without_the_balance_turn() {
    check(Geometry::sygo(3).unwrap(), false);
}

#[test]
fn hexsygo_2_with_the_balance_turn() {
    check(Geometry::hexsygo(2).unwrap(), true);
}

#[test]
fn hexsygo_2_without_the_balance_turn() {
    check(Geometry::hexsygo(2).unwrap(), false);
}

#[test]
fn a_turn_in_progress_is_refused() {
    let g = Geometry::sygo(3).unwrap();
    let mut pos = Position::new(g);
    pos.play_step(g.parse_point("B2").unwrap()).unwrap();
    assert!(solve(&pos, &SolveOptions::default()).is_err());
}

#[test]
fn a_node_limit_gives_up_with_bounds() {
    let start = start(Geometry::sygo(4).unwrap(), true);
    let options = SolveOptions {
        table_bits: 16,
        max_nodes: Some(20_000),
        ..SolveOptions::default()
    };
    let error = solve(&start, &options).unwrap_err();
    assert!(error.to_string().starts_with("gave up after"), "{error}");
}

#[test]
fn the_symmetries_map_the_board_onto_itself_keeping_neighbours() {
    for (g, count) in [
        (Geometry::sygo(3).unwrap(), 8),
        (Geometry::sygo(4).unwrap(), 8),
        (Geometry::hexsygo(2).unwrap(), 12),
        (Geometry::hexsygo(3).unwrap(), 12),
    ] {
        let symmetries = Symmetries::of(g);
        assert_eq!(symmetries.len(), count, "{}", g.name());
        let mut images = BTreeSet::new();
        for s in 0..symmetries.len() {
            let image: Vec<Point> = g.points().map(|p| symmetries.map(s, p)).collect();
            let distinct: BTreeSet<Point> = image.iter().copied().collect();
            assert_eq!(distinct.len(), g.num_points(), "a bijection");
            for p in g.points() {
                let around: BTreeSet<Point> =
                    g.neighbours(p).map(|q| symmetries.map(s, q)).collect();
                let around_image: BTreeSet<Point> = g.neighbours(symmetries.map(s, p)).collect();
                assert_eq!(around, around_image, "{}: neighbours kept", g.name());
            }
            images.insert(image);
        }
        assert_eq!(images.len(), count, "{}: the symmetries differ", g.name());
    }
}

/// The image of `pos` under symmetry `s`, the turn in progress included.
fn image(pos: &Position, symmetries: &Symmetries, s: usize) -> Position {
    let g = pos.geometry();
    let begin = pos.turn_start();
    let stones: Vec<(Point, Color)> = begin
        .stones()
        .map(|(p, c)| (symmetries.map(s, p), c))
        .collect();
    let mut out = Position::from_parts(
        g,
        &stones,
        begin.side_to_move(),
        begin.growth_started(),
        begin.passes(),
        None,
    )
    .unwrap();
    for p in pos.turn_stones() {
        out.play_step(symmetries.map(s, p)).unwrap();
    }
    out
}

#[test]
fn a_position_and_its_symmetric_images_share_one_key() {
    for g in [
        Geometry::sygo(4).unwrap(),
        Geometry::sygo(5).unwrap(),
        Geometry::hexsygo(3).unwrap(),
    ] {
        let mut canonical = Canonical::new(g, true);
        let symmetries = Symmetries::of(g);
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        let mut positions = Vec::new();
        for _ in 0..20 {
            let mut pos = Position::new(g);
            while !pos.is_over() {
                positions.push(pos.clone());
                let stones = pos.random_turn_stones(&mut rng);
                if stones.len() > 1 {
                    let mut partial = pos.clone();
                    for &p in &stones[..stones.len() / 2 + 1] {
                        partial.play_step(p).unwrap();
                    }
                    if partial.turn_in_progress() {
                        positions.push(partial);
                    }
                }
                pos.play_random_turn(&mut rng);
            }
        }
        let mut distinct = 0;
        for pos in &positions {
            let (key, _) = canonical.key(pos);
            for s in 0..symmetries.len() {
                let other = image(pos, &symmetries, s);
                assert_eq!(canonical.key(&other).0, key, "{pos:?} under symmetry {s}");
                if other.hash() != pos.hash() {
                    distinct += 1;
                }
            }
        }
        assert!(
            distinct > positions.len(),
            "most images are other positions"
        );
    }
}
