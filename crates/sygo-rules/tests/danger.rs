//! The capture reading (`CaptureReader`, `Position::dangers`) against brute
//! force: on thousands of random positions of both boards and several sizes,
//! every turn of the attacker is enumerated by the deliberately simple
//! reference implementation of the rules (`reference/mod.rs`), and the groups
//! some turn reverses must be exactly the ones the library reads as
//! reversible, each with a witness turn that the reference plays and that
//! reverses the group.
//!
//! Random games leave groups with many liberties, so most positions are
//! made to be tight instead: boards filled at random to 35–90% with stones
//! of both colours (groups without liberties thinned out), many small groups
//! with one to four liberties each, which is where one growth turn of
//! several groups captures. Positions from random games near their end are
//! added. Each position is read for both players, with and without Black's
//! balance turn.
//!
//! Then one named position for each peculiarity of the rules the reading
//! must get right, drawn as a board.

mod reference;

use std::collections::{BTreeSet, HashSet};

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use reference::{Cell, RefPosition, Status, to_cell, to_point};
use sygo_rules::{CaptureKind, CaptureReader, Color, Geometry, Point, Position, Turn};

// ------------------------------------------------------------ brute force

/// The reference position of `pos`'s stones with `mover` to move.
fn reference_of(pos: &Position, mover: Color) -> RefPosition {
    let g = pos.geometry();
    let board = match g.variant() {
        sygo_rules::Variant::Sygo => reference::Board::Square(i32::from(g.size())),
        sygo_rules::Variant::Hexsygo => reference::Board::Hex(i32::from(g.size())),
    };
    let stones: Vec<(Cell, Color)> = pos.stones().map(|(p, c)| (to_cell(&g, p), c)).collect();
    RefPosition::from_stones(board, &stones, mover, pos.growth_started())
}

/// The groups of the player not to move in `start` (each as its sorted
/// cells) that some legal turn of the player to move reverses: every turn
/// enumerated step by step, each state of a turn in progress (its stones
/// and the status of every base group) visited once.
fn reversible_by_brute_force(start: &RefPosition) -> BTreeSet<Vec<Cell>> {
    let attacker = start.to_move;
    let groups: Vec<Vec<Cell>> = start
        .stones
        .groups(attacker.opponent())
        .into_iter()
        .map(|mut g| {
            g.sort_unstable();
            g
        })
        .collect();
    let mut reversed = vec![false; groups.len()];
    let mut seen: HashSet<(Vec<Cell>, Vec<u8>)> = HashSet::new();
    let mut stack = vec![start.clone()];
    while let Some(pos) = stack.pop() {
        let mut stones: Vec<Cell> = pos.new_stones.iter().map(|&(c, _)| c).collect();
        stones.sort_unstable();
        let statuses = pos
            .base_groups
            .iter()
            .map(|g| match g.status {
                Status::Fresh => 0,
                Status::Grown => 1,
                Status::Frozen => 2,
            })
            .collect();
        if !seen.insert((stones, statuses)) {
            continue;
        }
        if !pos.new_stones.is_empty() && pos.check_finish().is_ok() {
            for (i, g) in groups.iter().enumerate() {
                if pos.stones.get(g[0]) == Some(attacker) {
                    reversed[i] = true;
                }
            }
        }
        for (p, _) in pos.allowed_steps() {
            let mut next = pos.clone();
            next.play_step(p).expect("an allowed step");
            stack.push(next);
        }
    }
    groups
        .into_iter()
        .zip(reversed)
        .filter_map(|(g, r)| r.then_some(g))
        .collect()
}

// -------------------------------------------------------------- positions

/// A board filled at random: each point a stone with probability
/// `density`, of a random colour; then stones of groups without liberties
/// are taken off one at a time until none is left.
fn random_fill(rng: &mut Xoshiro256PlusPlus, g: Geometry, density: f64) -> Vec<(Point, Color)> {
    let mut stones = Vec::new();
    for p in g.points() {
        if rng.random_bool(density) {
            let c = if rng.random_bool(0.5) {
                Color::Black
            } else {
                Color::White
            };
            stones.push((p, c));
        }
    }
    thin(rng, g, stones)
}

/// A board filled in patches: `seeds` random points each get a colour, and
/// every point takes the colour of its nearest seed (by board distance) with
/// probability 0.85, the other colour otherwise, and stays vacant with
/// probability `vacant`. Then groups without liberties are thinned as in
/// [`random_fill`]. Patches make large groups, eyes, and liberties that
/// touch no enemy stone (where a placement captures).
fn patch_fill(rng: &mut Xoshiro256PlusPlus, g: Geometry, vacant: f64) -> Vec<(Point, Color)> {
    let points: Vec<Point> = g.points().collect();
    let seeds: Vec<(Point, Color)> = (0..rng.random_range(2..6))
        .map(|i| {
            let p = points[rng.random_range(0..points.len())];
            (
                p,
                if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
            )
        })
        .collect();
    // Board distances from each seed, by breadth-first search.
    let distances: Vec<Vec<u32>> = seeds
        .iter()
        .map(|&(s, _)| {
            let mut d = vec![u32::MAX; g.index_len()];
            d[s.index()] = 0;
            let mut queue = vec![s];
            let mut i = 0;
            while i < queue.len() {
                let p = queue[i];
                i += 1;
                for q in g.neighbours(p) {
                    if d[q.index()] == u32::MAX {
                        d[q.index()] = d[p.index()] + 1;
                        queue.push(q);
                    }
                }
            }
            d
        })
        .collect();
    let mut stones = Vec::new();
    for &p in &points {
        if rng.random_bool(vacant) {
            continue;
        }
        let nearest = (0..seeds.len())
            .min_by_key(|&k| distances[k][p.index()])
            .unwrap();
        let c = seeds[nearest].1;
        stones.push((
            p,
            if rng.random_bool(0.85) {
                c
            } else {
                c.opponent()
            },
        ));
    }
    thin(rng, g, stones)
}

/// Takes random stones of groups without liberties off until none is left.
fn thin(
    rng: &mut Xoshiro256PlusPlus,
    g: Geometry,
    mut stones: Vec<(Point, Color)>,
) -> Vec<(Point, Color)> {
    loop {
        if Position::from_parts(g, &stones, Color::Black, true, 0, None).is_ok() {
            return stones;
        }
        let at = |p: Point| stones.iter().find(|s| s.0 == p).map(|s| s.1);
        let dead: Vec<usize> = (0..stones.len())
            .filter(|&i| {
                let (p, c) = stones[i];
                !group_has_liberty(g, &at, p, c)
            })
            .collect();
        let i = dead[rng.random_range(0..dead.len())];
        stones.swap_remove(i);
    }
}

/// Whether the group of the stone (p, c) has a vacant neighbour (flood fill
/// over `at`, which tells the stone on a point).
fn group_has_liberty(g: Geometry, at: &dyn Fn(Point) -> Option<Color>, p: Point, c: Color) -> bool {
    let mut seen = vec![p];
    let mut i = 0;
    while i < seen.len() {
        let q = seen[i];
        i += 1;
        for n in g.neighbours(q) {
            match at(n) {
                None => return true,
                Some(x) if x == c && !seen.contains(&n) => seen.push(n),
                _ => {}
            }
        }
    }
    false
}

/// What the comparison saw, to check that the positions covered every case.
#[derive(Default, Debug)]
struct Counts {
    positions: u64,
    groups: u64,
    reversible: u64,
    placements: u64,
    balance: u64,
    two_growers: u64,
    three_growers: u64,
    /// A stone of the witness grows two groups or more.
    double_growth: u64,
    /// Every liberty touches a group of the attacker, not reversible.
    touched_not_reversible: u64,
    /// The witness played in another order (growth stones reversed) is
    /// refused: a capture on the way freezes a group the turn needs.
    order_matters: u64,
    /// The witness fills points that are not liberties of the group: other
    /// captures that keep the captors alive (§7).
    rescued: u64,
}

/// Compares the library with brute force on `pos` for both players as the
/// attacker; panics on the first difference.
fn compare(pos: &Position, reader: &mut CaptureReader, counts: &mut Counts) {
    let g = pos.geometry();
    counts.positions += 1;
    let dangers = pos.dangers();
    for attacker in Color::BOTH {
        let start = reference_of(pos, attacker);
        let expected = reversible_by_brute_force(&start);
        let defender = attacker.opponent();
        for group in start.stones.groups(defender) {
            let mut group = group;
            group.sort_unstable();
            let stone = to_point(&g, group[0]);
            counts.groups += 1;
            let found = reader.can_reverse(pos, stone);
            let context = || {
                format!(
                    "{} attacker {attacker:?}, group at {}",
                    pos.to_position_string(),
                    g.vertex(stone)
                )
            };
            assert_eq!(found, expected.contains(&group), "{}", context());
            let danger = dangers.iter().find(|d| d.stones.contains(&stone));
            assert_eq!(danger.is_some(), found, "dangers(): {}", context());
            let libs = pos.liberties(stone);
            if !found {
                if libs
                    .iter()
                    .all(|&l| g.neighbours(l).any(|q| pos.stone_at(q) == Some(attacker)))
                {
                    counts.touched_not_reversible += 1;
                }
                continue;
            }
            counts.reversible += 1;
            let turn = reader.turn().to_vec();
            let danger = danger.unwrap();
            assert_eq!(danger.turn, turn, "{}", context());
            assert_eq!(danger.liberties, libs, "{}", context());
            assert_eq!(danger.next_turn, attacker == pos.side_to_move());
            // The witness, played by the reference and by the library.
            let mut rf = start.clone();
            for &p in &turn {
                rf.play_step(to_cell(&g, p))
                    .unwrap_or_else(|e| panic!("{e:?} at {}: {}", g.vertex(p), context()));
            }
            rf.finish_turn()
                .unwrap_or_else(|e| panic!("{e:?}: {}", context()));
            assert_eq!(rf.stones.get(group[0]), Some(attacker), "{}", context());
            let mut lib = pos.clone();
            lib.set_side_to_move(attacker).unwrap();
            lib.play_turn(&Turn::Stones(turn.clone()))
                .unwrap_or_else(|e| panic!("{e}: {}", context()));
            assert_eq!(lib.stone_at(stone), Some(attacker));
            match danger.kind {
                CaptureKind::Placement => counts.placements += 1,
                CaptureKind::Balance => counts.balance += 1,
                CaptureKind::Growth => {}
            }
            match danger.growers {
                2 => counts.two_growers += 1,
                3.. => counts.three_growers += 1,
                _ => {}
            }
            if turn.iter().any(|p| !libs.contains(p)) {
                counts.rescued += 1;
            }
            let mut other = turn.clone();
            let last = if danger.kind == CaptureKind::Balance {
                other.pop()
            } else {
                None
            };
            other.reverse();
            other.extend(last);
            let mut rf = start.clone();
            if other.iter().any(|&p| rf.play_step(to_cell(&g, p)).is_err()) {
                counts.order_matters += 1;
            }
            let start_pos = pos.clone();
            if turn.iter().any(|&p| {
                let mut roots = Vec::new();
                for q in g.neighbours(p) {
                    if start_pos.stone_at(q) == Some(attacker) {
                        let first = start_pos.group(q)[0];
                        if !roots.contains(&first) {
                            roots.push(first);
                        }
                    }
                }
                roots.len() >= 2
            }) {
                counts.double_growth += 1;
            }
        }
    }
}

/// Random tight positions and endgames of random games on `g`.
fn run_board(g: Geometry, seed: u64, positions: usize, counts: &mut Counts) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut reader = CaptureReader::new();
    for i in 0..positions {
        let pos = if i % 4 == 3 {
            // The end of a random game: few vacant points.
            let limit = g.num_points() / 3;
            let mut pos = Position::new(g);
            while !pos.is_over() && pos.vacant_count() > limit {
                pos.play_random_turn(&mut rng);
            }
            if pos.is_over() {
                continue;
            }
            pos
        } else {
            let stones = if i % 4 == 2 {
                let vacant = rng.random_range(0.1..0.4);
                patch_fill(&mut rng, g, vacant)
            } else {
                let density = rng.random_range(0.35..0.9);
                random_fill(&mut rng, g, density)
            };
            let side = if rng.random_bool(0.5) {
                Color::Black
            } else {
                Color::White
            };
            // Black's balance turn in a third of the positions.
            let growth_started = !rng.random_bool(1.0 / 3.0);
            Position::from_parts(g, &stones, side, growth_started, 0, None).unwrap()
        };
        compare(&pos, &mut reader, counts);
    }
}

/// Least counts each run must reach, so that every kind of capture was
/// compared. On the hex board a liberty next to no enemy stone is rare (six
/// neighbours), so placements and balance turns are few there; the named
/// positions below hold more.
struct Minimums {
    placements: u64,
    balance: u64,
    order_matters: u64,
    rescued: u64,
}

/// The random positions reached every kind of capture.
fn assert_coverage(counts: &Counts, min: &Minimums) {
    let at_least = |what: &str, n: u64, min: u64| {
        assert!(n >= min, "{what}: {n} < {min} in {counts:?}");
    };
    at_least("positions", counts.positions, 1000);
    at_least("reversible", counts.reversible, 800);
    at_least("two growers", counts.two_growers, 200);
    at_least("three growers or more", counts.three_growers, 50);
    at_least("a stone growing two groups", counts.double_growth, 200);
    at_least(
        "touched, not reversible",
        counts.touched_not_reversible,
        700,
    );
    at_least("placements", counts.placements, min.placements);
    at_least("balance turns", counts.balance, min.balance);
    at_least("order matters", counts.order_matters, min.order_matters);
    at_least("rescued by another capture", counts.rescued, min.rescued);
}

#[test]
fn the_reading_agrees_with_brute_force_on_square_boards() {
    let mut counts = Counts::default();
    for (n, positions) in [(3, 200), (4, 400), (5, 450), (6, 250), (7, 100)] {
        run_board(
            Geometry::sygo(n).unwrap(),
            u64::from(n),
            positions,
            &mut counts,
        );
    }
    println!("{counts:?}");
    assert_coverage(
        &counts,
        &Minimums {
            placements: 500,
            balance: 100,
            order_matters: 20,
            rescued: 2,
        },
    );
}

#[test]
fn the_reading_agrees_with_brute_force_on_hex_boards() {
    let mut counts = Counts::default();
    for (n, positions) in [(2, 200), (3, 600), (4, 350)] {
        run_board(
            Geometry::hexsygo(n).unwrap(),
            100 + u64::from(n),
            positions,
            &mut counts,
        );
    }
    println!("{counts:?}");
    assert_coverage(
        &counts,
        &Minimums {
            placements: 5,
            balance: 3,
            order_matters: 0,
            rescued: 0,
        },
    );
}
