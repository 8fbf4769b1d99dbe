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

use crate::{diagram, reference, tight};

use std::collections::{BTreeSet, HashSet};

use diagram::{Growth, position};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use reference::{Cell, RefPosition, Status, to_cell, to_point};
use sygo_rules::{CaptureKind, CaptureReader, Color, Geometry, Point, Position, Turn};
use tight::tight_position;

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
            tight_position(&mut rng, g, i % 4 == 2, 0.35..0.9)
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

// ------------------------------------------------------ named positions

/// Reads the group of `stone` in `pos`, checks the whole position against
/// brute force, and returns the witness (`None`: not reversible).
#[track_caller]
fn read(pos: &Position, stone: &str) -> Option<Vec<Point>> {
    let g = pos.geometry();
    compare(pos, &mut CaptureReader::new(), &mut Counts::default());
    let mut reader = CaptureReader::new();
    let p = g.parse_point(stone).unwrap();
    reader.can_reverse(pos, p).then(|| reader.turn().to_vec())
}

/// The points, sorted, for comparing sets.
fn sorted(g: Geometry, points: &[&str]) -> Vec<Point> {
    let mut v: Vec<Point> = points.iter().map(|s| g.parse_point(s).unwrap()).collect();
    v.sort_unstable();
    v
}

/// The danger of the group of `stone`.
#[track_caller]
fn danger_of(pos: &Position, stone: &str) -> sygo_rules::Danger {
    let p = pos.geometry().parse_point(stone).unwrap();
    pos.dangers()
        .into_iter()
        .find(|d| d.stones.contains(&p))
        .unwrap_or_else(|| panic!("{stone} is not in danger"))
}

/// White A1 has two liberties, each next to a Black group of its own: the
/// two groups grow together and reverse it. One group alone could not.
#[test]
fn two_groups_grow_at_once() {
    let g = Geometry::sygo(5).unwrap();
    let drawing = "
           A B C D E
         3 X . . . .
         2 a . . . .
         1 O b X . .
        ";
    let (pos, _) = position(g, Color::Black, Growth::Started, drawing);
    let mut turn = read(&pos, "A1").expect("reversible");
    turn.sort_unstable();
    assert_eq!(turn, sorted(g, &["A2", "B1"]));
    let danger = danger_of(&pos, "A1");
    assert_eq!((danger.kind, danger.growers), (CaptureKind::Growth, 2));
    assert!(danger.next_turn);
    // Without C1, B1 touches no Black stone: only a placement fills it,
    // which cannot follow a growth once the balance turn is gone.
    let (pos, _) = position(
        g,
        Color::Black,
        Growth::Started,
        "
           A B C D E
         3 X . . . .
         2 . . . . .
         1 O . . . .
        ",
    );
    assert_eq!(read(&pos, "A1"), None);
    // White to move: the danger is Black's, after a pass.
    let (pos, _) = position(g, Color::White, Growth::Started, drawing);
    assert!(!danger_of(&pos, "A1").next_turn);
}

/// White C3 has three liberties and Black three groups, each next to one
/// of them: one growth turn of all three reverses it. With one group fewer,
/// Black's balance turn still does it (two growths and a placement), but
/// only while no growth turn has been played.
#[test]
fn three_groups_grow_at_once_and_the_balance_turn_replaces_one() {
    let g = Geometry::sygo(5).unwrap();
    let (pos, _) = position(
        g,
        Color::Black,
        Growth::Started,
        "
           A B C D E
         5 . . X . .
         4 . . a . .
         3 X b O X .
         2 . . c . .
         1 . . X . .
        ",
    );
    let mut turn = read(&pos, "C3").expect("reversible");
    turn.sort_unstable();
    assert_eq!(turn, sorted(g, &["C4", "B3", "C2"]));
    assert_eq!(danger_of(&pos, "C3").growers, 3);
    let drawing = "
           A B C D E
         5 . . X . .
         4 . . . . .
         3 . . O X .
         2 . . . . .
         1 . . X . .
        ";
    let (pos, _) = position(g, Color::Black, Growth::NotYet, drawing);
    let turn = read(&pos, "C3").expect("reversible by the balance turn");
    assert_eq!(turn.last(), Some(&g.parse_point("B3").unwrap()));
    let danger = danger_of(&pos, "C3");
    assert_eq!((danger.kind, danger.growers), (CaptureKind::Balance, 2));
    let (pos, _) = position(g, Color::Black, Growth::Started, drawing);
    assert_eq!(read(&pos, "C3"), None);
}

/// A growth stone grows every group it touches. Here each of White's two
/// liberties touches two Black groups: two stones grow four groups and
/// reverse the three stones. When one Black group touches both liberties,
/// the first stone grows it and the second may not (g3): no turn reverses
/// White, though each liberty has two Black groups next to it.
#[test]
fn a_stone_next_to_two_attacking_groups_grows_both() {
    let g = Geometry::sygo(7).unwrap();
    let (pos, _) = position(
        g,
        Color::Black,
        Growth::Started,
        "
           A B C D E F G
         5 . . X a X . .
         4 . X O O O X .
         3 . . X b X . .
        ",
    );
    let mut turn = read(&pos, "D4").expect("reversible");
    turn.sort_unstable();
    assert_eq!(turn, sorted(g, &["D5", "D3"]));
    assert_eq!(danger_of(&pos, "D4").growers, 4);
    let (pos, _) = position(
        g,
        Color::Black,
        Growth::Started,
        "
           A B C D E F G
         5 . . X . X X .
         4 . X O O O X .
         3 . . X . X X .
        ",
    );
    assert_eq!(read(&pos, "D4"), None);
    // The same in the corner: B2 touches both liberties of White A1.
    let g = Geometry::sygo(5).unwrap();
    let (pos, _) = position(
        g,
        Color::Black,
        Growth::Started,
        "
           A B C D E
         3 X . . . .
         2 . X . . .
         1 O . X . .
        ",
    );
    assert_eq!(read(&pos, "A1"), None);
}

/// White C3–D3–D4 has two liberties, C4 and C2. C2 is also the last
/// liberty of White B2, whose capture unites it with Black's big group and
/// freezes that group (§5 step 3), which must still grow at C4. So C4 must
/// come first: the other order is refused.
#[test]
fn a_side_capture_that_freezes_a_needed_group_fixes_the_order() {
    let g = Geometry::sygo(4).unwrap();
    let (pos, _) = position(
        g,
        Color::Black,
        Growth::Started,
        "
           A B C D
         4 . X . O
         3 X X O O
         2 X O . X
         1 X X O .
        ",
    );
    let turn = read(&pos, "C3").expect("reversible");
    let at = |s: &str| g.parse_point(s).unwrap();
    assert_eq!(turn, vec![at("C4"), at("C2")]);
    let mut other = pos.clone();
    other.play_step(g.parse_point("C2").unwrap()).unwrap();
    assert!(matches!(
        other.play_step(g.parse_point("C4").unwrap()),
        Err(sygo_rules::StepError::Frozen { .. })
    ));
}

/// White D2–D4 has one liberty, C2, and Black's two groups next to it may
/// grow there (the step is allowed), but the group that would reverse
/// White then has no liberty at all (§7): no turn may end so, and the
/// White group is not in danger.
#[test]
fn a_capture_that_leaves_the_captor_without_liberties_is_no_danger() {
    let g = Geometry::sygo(4).unwrap();
    let (pos, _) = position(
        g,
        Color::Black,
        Growth::Started,
        "
           A B C D
         4 . O X O
         3 O O X O
         2 . O . O
         1 O O X X
        ",
    );
    let c2 = g.parse_point("C2").unwrap();
    let mut step = pos.clone();
    step.play_step(c2).unwrap();
    assert_eq!(
        step.stone_at(g.parse_point("D3").unwrap()),
        Some(Color::Black)
    );
    assert!(step.check_finish().is_err());
    assert_eq!(read(&pos, "D3"), None);
}

/// A group whose last liberty touches no enemy stone is reversed by a
/// placement there, even when the placed stone has no liberty of its own:
/// the capture unites it with Black's groups next to White.
#[test]
fn a_placement_on_the_last_liberty() {
    let g = Geometry::sygo(5).unwrap();
    let (pos, _) = position(
        g,
        Color::Black,
        Growth::Started,
        "
           A B C D E
         3 X X . . .
         2 O O X . .
         1 a O X . .
        ",
    );
    assert_eq!(read(&pos, "B2"), Some(vec![g.parse_point("A1").unwrap()]));
    assert_eq!(danger_of(&pos, "B2").kind, CaptureKind::Placement);
}

/// Black's balance turn: White D2's liberty D1 touches Black's group, D3
/// touches no Black stone. Growing at D1 then placing at D3 reverses it,
/// while no growth turn has been played; after one, nothing does.
#[test]
fn a_balance_turn_capture() {
    let g = Geometry::sygo(4).unwrap();
    let drawing = "
           A B C D
         4 . . . .
         3 X . . .
         2 . . X O
         1 . . X .
        ";
    let (pos, _) = position(g, Color::Black, Growth::NotYet, drawing);
    let turn = read(&pos, "D2").expect("reversible");
    assert_eq!(
        turn,
        vec![g.parse_point("D1").unwrap(), g.parse_point("D3").unwrap()]
    );
    assert_eq!(danger_of(&pos, "D2").kind, CaptureKind::Balance);
    let (pos, _) = position(g, Color::Black, Growth::Started, drawing);
    assert_eq!(read(&pos, "D2"), None);
    // White's groups are never reversed by a balance turn of White's.
    let (pos, _) = position(g, Color::White, Growth::NotYet, drawing);
    assert!(!danger_of(&pos, "D2").next_turn);
}

/// Growing at A2 reverses White A1 but leaves the united group without a
/// liberty. Growing at C4 too reverses White's groups A3–B4 and D3–D4,
/// which joins Black D2 and its liberty D1: the turn A2, C4 is legal.
#[test]
fn another_capture_keeps_the_captors_alive() {
    let g = Geometry::sygo(4).unwrap();
    let (pos, _) = position(
        g,
        Color::Black,
        Growth::Started,
        "
           A B C D
         4 O O . O
         3 O O X O
         2 . X O X
         1 O X O .
        ",
    );
    let mut turn = read(&pos, "A1").expect("reversible");
    turn.sort_unstable();
    assert_eq!(turn, sorted(g, &["A2", "C4"]));
    let mut alone = pos.clone();
    alone.play_step(g.parse_point("A2").unwrap()).unwrap();
    assert!(alone.check_finish().is_err());
}

/// The same on the hex board: two Black groups reverse White's three
/// stones with a growth and a placement in the balance turn, and a capture
/// that would be suicide is rescued by a placement that reverses more.
///
/// ```text
///       C D E                       C D E
///   5   . . O 5                 5   O O O 5
///   4  O X O O 4                4  X X O X 4
///   3 O X O O . 3               3 . X O . X 3
///   2  X X O O 2                2  X O X O 2
///   1   . X O 1                 1   . O X 1
///       A B C                       A B C
/// ```
#[test]
fn the_hex_board() {
    let g = Geometry::hexsygo(3).unwrap();
    let pos: Position = "hexsygo 3 2W/WBWW/WBWW1/BBWW/1BW b - 0".parse().unwrap();
    let turn = read(&pos, "C1").expect("reversible");
    assert_eq!(
        turn,
        vec![g.parse_point("D5").unwrap(), g.parse_point("E3").unwrap()]
    );
    assert_eq!(danger_of(&pos, "C1").kind, CaptureKind::Balance);
    let pos: Position = "hexsygo 3 WWW/BBWB/1BW1B/BWBW/1WB b - 0".parse().unwrap();
    let turn = read(&pos, "D2").expect("reversible");
    assert_eq!(turn.len(), 2);
    assert!(turn.contains(&g.parse_point("D3").unwrap()));
}
