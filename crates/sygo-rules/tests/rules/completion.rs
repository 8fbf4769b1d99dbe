//! Whether the turn in progress can still be completed
//! (`Position::turn_can_be_completed`, `Position::turn_completion`) against
//! brute force: every continuation of the turn, enumerated step by step
//! with the checked API, on states of small boards of both kinds reached by
//! random walks through the allowed steps (transient suicides included)
//! from tight random positions and from random games.
//!
//! Then one named position for each way a turn is rescued, drawn as a
//! board.

use crate::diagram;
use crate::tight;

use std::collections::HashSet;

use diagram::{Growth, position};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use sygo_rules::{Color, Geometry, Point, Position, StepKind};
use tight::{random_game_position, tight_position};

// ------------------------------------------------------------ brute force

/// Whether some sequence of allowed steps from `pos` (a turn in progress)
/// ends where the turn may end: every continuation, each state of the turn
/// (its stones, which fix what may follow) visited once.
fn completable_by_brute_force(pos: &Position) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![pos.clone()];
    while let Some(state) = stack.pop() {
        if !seen.insert(state.hash()) {
            continue;
        }
        if state.check_finish().is_ok() {
            return true;
        }
        for p in state.allowed_steps() {
            let mut next = state.clone();
            next.play_step(p).expect("an allowed step");
            stack.push(next);
        }
    }
    false
}

/// What the comparison saw, to check that the states covered every case.
#[derive(Default, Debug)]
struct Counts {
    /// States of a turn in progress compared.
    states: u64,
    /// States with a group without liberties that can be completed.
    rescued: u64,
    /// States with a group without liberties that cannot.
    lost: u64,
    /// Completions of two steps or more.
    long: u64,
    /// Completions ended by the placement of a balance turn.
    by_placement: u64,
    /// States with two groups without liberties or more.
    several: u64,
}

/// Compares the library with brute force on a state of a turn in
/// progress; panics on a difference.
fn compare(pos: &Position, counts: &mut Counts) {
    counts.states += 1;
    let context = || format!("{}\n{pos:?}", pos.diagram());
    let can = pos.turn_can_be_completed();
    assert_eq!(can, completable_by_brute_force(pos), "{}", context());
    let completion = pos.turn_completion();
    assert_eq!(completion.is_some(), can, "{}", context());
    let may_end = pos.check_finish().is_ok();
    assert_eq!(pos.group_without_liberty().is_none(), may_end);
    if may_end {
        assert_eq!(completion, Some(Vec::new()));
        return;
    }
    let dead = pos
        .turn_stones()
        .iter()
        .filter(|&&s| pos.liberties(s).is_empty())
        .map(|&s| pos.group(s)[0])
        .collect::<HashSet<_>>()
        .len();
    if dead >= 2 {
        counts.several += 1;
    }
    let Some(steps) = completion else {
        counts.lost += 1;
        return;
    };
    counts.rescued += 1;
    // The completion is played with the checked API, and ends the turn.
    let mut after = pos.clone();
    for &p in &steps {
        let kind = after
            .play_step(p)
            .unwrap_or_else(|e| panic!("{e} in the completion {steps:?}: {}", context()));
        if kind == StepKind::Placement {
            counts.by_placement += 1;
        }
    }
    assert_eq!(after.check_finish(), Ok(()), "{}", context());
    if steps.len() >= 2 {
        counts.long += 1;
    }
}

/// Random walks through the allowed steps of a turn from `start` (between
/// turns), each state compared, until the turn ends or nothing is allowed.
fn walk(start: &Position, rng: &mut Xoshiro256PlusPlus, walks: usize, counts: &mut Counts) {
    for _ in 0..walks {
        let mut pos = start.clone();
        loop {
            let steps = pos.allowed_steps();
            if steps.is_empty() {
                break;
            }
            // Growths first, now and then only those that leave a group
            // without liberties: where the question is asked.
            let suicidal: Vec<Point> = steps
                .iter()
                .copied()
                .filter(|&p| {
                    let mut next = pos.clone();
                    next.play_step(p).unwrap() == StepKind::Growth
                        && next.group_without_liberty().is_some()
                })
                .collect();
            let from = if !suicidal.is_empty() && rng.random_bool(0.7) {
                &suicidal
            } else {
                &steps
            };
            let p = from[rng.random_range(0..from.len())];
            if pos.play_step(p).unwrap() == StepKind::Placement {
                break;
            }
            compare(&pos, counts);
            if pos.group_without_liberty().is_none() && rng.random_bool(0.2) {
                break;
            }
        }
    }
}

/// Tight random positions and positions of random games on `g`, each walked
/// a few times.
fn run_board(g: Geometry, seed: u64, positions: usize, counts: &mut Counts) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for i in 0..positions {
        let pos = if i % 4 == 3 {
            // A random game, stopped at a random turn.
            match random_game_position(&mut rng, g) {
                Some(pos) => pos,
                None => continue,
            }
        } else {
            tight_position(&mut rng, g, i % 4 == 2, 0.35..0.9)
        };
        walk(&pos, &mut rng, 4, counts);
    }
}

/// Least counts a run must reach, so that every case was compared.
#[track_caller]
fn assert_coverage(counts: &Counts, rescued: u64, lost: u64, long: u64, by_placement: u64) {
    let at_least = |what: &str, n: u64, min: u64| {
        assert!(n >= min, "{what}: {n} < {min} in {counts:?}");
    };
    at_least("rescued", counts.rescued, rescued);
    at_least("lost", counts.lost, lost);
    at_least("completions of two steps or more", counts.long, long);
    at_least(
        "completions by a placement",
        counts.by_placement,
        by_placement,
    );
}

#[test]
fn the_answer_agrees_with_brute_force_on_square_boards() {
    let mut counts = Counts::default();
    for (n, positions) in [(3, 300), (4, 2000), (5, 2000), (6, 1000), (7, 300)] {
        run_board(
            Geometry::sygo(n).unwrap(),
            u64::from(n),
            positions,
            &mut counts,
        );
    }
    println!("{counts:?}");
    assert_coverage(&counts, 1000, 5000, 150, 120);
}

#[test]
fn the_answer_agrees_with_brute_force_on_hex_boards() {
    let mut counts = Counts::default();
    for (n, positions) in [(2, 300), (3, 3000), (4, 2000), (5, 300)] {
        run_board(
            Geometry::hexsygo(n).unwrap(),
            100 + u64::from(n),
            positions,
            &mut counts,
        );
    }
    println!("{counts:?}");
    assert_coverage(&counts, 180, 4000, 40, 15);
}

// ------------------------------------------------------ named positions

/// Plays the stones of `steps` (comma-separated) as steps of the turn.
#[track_caller]
fn steps(pos: &mut Position, steps: &str) {
    let g = pos.geometry();
    for s in steps.split(',') {
        pos.play_step(g.parse_point(s).unwrap()).unwrap();
    }
}

/// The completion as text.
fn completion(pos: &Position) -> Option<String> {
    let g = pos.geometry();
    pos.turn_completion()
        .map(|steps| sygo_rules::format_points(&steps, &g))
}

/// Two groups fill White C1's two liberties, each stone alone leaving its
/// own group without a liberty; the capture unites them with C2 and its
/// liberty C3. Either order; after either stone the other completes the
/// turn.
#[test]
fn two_groups_fill_the_last_two_liberties() {
    let g = Geometry::sygo(5).unwrap();
    let drawing = "
           A B C D E
         5 . . . . O
         4 . . . . .
         3 . . . . .
         2 O O X O O
         1 X . O . X
        ";
    let (start, _) = position(g, Color::Black, Growth::NotYet, drawing);
    for (first, second) in [("B1", "D1"), ("D1", "B1")] {
        let mut pos = start.clone();
        steps(&mut pos, first);
        assert!(pos.group_without_liberty().is_some());
        assert!(pos.turn_can_be_completed());
        assert_eq!(completion(&pos).as_deref(), Some(second));
        compare(&pos, &mut Counts::default());
    }
    // With White on C2 as well, C1 has the liberty C3 too: nothing saves
    // the turn after B1 (no placement either, once growth has started).
    let (start, _) = position(
        g,
        Color::Black,
        Growth::Started,
        &drawing.replace("2 O O X O O", "2 O O O O O"),
    );
    let mut pos = start.clone();
    steps(&mut pos, "B1");
    assert!(!pos.turn_can_be_completed());
    assert_eq!(completion(&pos), None);
    compare(&pos, &mut Counts::default());
}

/// Checks a growth turn (`turn`, comma-separated, played from `start`)
/// whose every stone alone leaves a group of the mover without liberties,
/// as does every proper prefix: each prefix can still be completed, by the
/// rest of the turn when one stone is left, and the whole turn is legal.
#[track_caller]
fn assert_rescue_turn(start: &Position, turn: &str) {
    let g = start.geometry();
    let stones = sygo_rules::parse_points(turn, &g).unwrap();
    for &p in &stones {
        let mut alone = start.clone();
        alone.play_step(p).unwrap();
        assert!(
            alone.group_without_liberty().is_some(),
            "{} alone",
            g.vertex(p)
        );
        assert!(alone.turn_can_be_completed(), "{} alone", g.vertex(p));
        compare(&alone, &mut Counts::default());
    }
    let mut pos = start.clone();
    for (i, &p) in stones.iter().enumerate() {
        assert!(pos.check_finish().is_err() || i == 0);
        pos.play_step(p).unwrap();
        compare(&pos, &mut Counts::default());
        if i + 1 < stones.len() {
            assert!(pos.group_without_liberty().is_some());
            assert!(pos.turn_can_be_completed());
            let rest = pos.turn_completion().unwrap();
            assert_eq!(rest.len(), stones.len() - i - 1, "{rest:?}");
        }
    }
    assert_eq!(pos.check_finish(), Ok(()));
}

/// Three Black groups fill the last liberties of the White group in the
/// middle (A5, D1, B1), each stone alone leaving its own group without a
/// liberty.
#[test]
fn three_groups_fill_the_last_three_liberties() {
    let g = Geometry::sygo(5).unwrap();
    let (start, _) = position(
        g,
        Color::Black,
        Growth::Started,
        "
           A B C D E
         5 . X O . X
         4 X O X X O
         3 O O X X O
         2 X O O O O
         1 X . O . X
        ",
    );
    assert_rescue_turn(&start, "A5,D1,B1");
}

/// The same on the hex board: two groups (base 3), three groups (base 4).
///
/// ```text
///       C D E                      D E F G
///   5   . X X 5                7    X X X O 7
///   4  O O X O 4               6   O X O O X 6
///   3 O O O O X 3              5  O X . O . O 5
///   2  X X O . 2               4 O O O O O O O 4
///   1   . X O 1                3  X X X O X O 3
///       A B C                  2   X . X O . 2
///                              1    O X X O 1
///                                   A B C D
/// ```
#[test]
fn groups_fill_the_last_liberties_on_the_hex_board() {
    let two: Position = "hexsygo 3 1BB/WWBW/WWWWB/BBW1/1BW b g 0".parse().unwrap();
    assert_rescue_turn(&two, "D2,C5");
    let three: Position = "hexsygo 4 BBBW/WBWWB/WB1W1W/WWWWWWW/BBBWBW/B1BW1/WBBW b g 0"
        .parse()
        .unwrap();
    assert_rescue_turn(&three, "E2,D5,F5");
}

/// Black's balance turn: the growth at B1 leaves A1–B1 without a liberty;
/// only the placement at D1, which touches no black stone and fills White
/// C1's last liberty, rescues it. Once a growth turn has been played it
/// cannot.
#[test]
fn the_balance_placement_rescues() {
    let g = Geometry::sygo(5).unwrap();
    let drawing = "
           A B C D E
         5 . . . . .
         4 . . . . .
         3 . . . . .
         2 O O X O .
         1 X . O . O
        ";
    let (start, _) = position(g, Color::Black, Growth::NotYet, drawing);
    let mut pos = start.clone();
    steps(&mut pos, "B1");
    assert!(pos.group_without_liberty().is_some());
    assert_eq!(completion(&pos).as_deref(), Some("D1"));
    assert_eq!(
        pos.check_step(g.parse_point("D1").unwrap()),
        Ok(StepKind::Placement)
    );
    compare(&pos, &mut Counts::default());
    let (start, _) = position(g, Color::Black, Growth::Started, drawing);
    let mut pos = start.clone();
    steps(&mut pos, "B1");
    assert!(!pos.turn_can_be_completed());
    compare(&pos, &mut Counts::default());
}

/// Between turns, and after steps that leave every group a liberty, the
/// turn can be completed (it may end now), and nothing is needed.
#[test]
fn a_turn_that_may_end_needs_nothing() {
    let g = Geometry::sygo(9).unwrap();
    let mut pos = Position::new(g);
    assert!(pos.turn_can_be_completed());
    assert_eq!(pos.turn_completion(), Some(Vec::new()));
    assert_eq!(pos.group_without_liberty(), None);
    steps(&mut pos, "E5");
    assert!(pos.turn_can_be_completed());
    assert_eq!(pos.turn_completion(), Some(Vec::new()));
}
