//! The defence reading (`sygo_ai::knowledge::DefenceReader`) on constructed
//! positions, and against brute force on small random ones: every turn of
//! the side to move is played, and the rules library's capture reading says
//! after which the group can no longer be reversed with one turn. The safe
//! turns the reading finds must be exactly those of the turns on its
//! involved points; how often a group could be saved only by a turn
//! elsewhere is counted and must stay rare.

use std::collections::HashSet;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use sygo_ai::knowledge::{DefenceReader, involved_points};
use sygo_rules::{CaptureReader, Color, Geometry, Point, Position, Turn};

/// A budget no small position reaches.
const PLENTY: u64 = 1_000_000;

/// The position after `turn` from `pos`.
#[track_caller]
fn after(pos: &Position, turn: &Turn) -> Position {
    let mut next = pos.clone();
    next.play_turn(turn)
        .unwrap_or_else(|e| panic!("{}: {e}", turn.to_notation(&pos.geometry())));
    next
}

/// Whether the opponent can reverse the group of `stone` after `turn`.
fn still_in_danger(pos: &Position, turn: &Turn, stone: Point) -> bool {
    CaptureReader::new().can_reverse(&after(pos, turn), stone)
}

fn turn(pos: &Position, text: &str) -> Turn {
    Turn::parse(text, &pos.geometry()).unwrap()
}

/// Black A1 has two liberties, each next to a White group: White grows
/// both and reverses it. Growing at A2 or B1 leaves two liberties of which
/// White can fill only one (B2 touches no White stone): both are safe. A
/// placement elsewhere saves nothing.
#[test]
fn extending_saves_a_group_with_two_liberties() {
    let pos: Position = "sygo 5 5/5/W4/5/B1W2 b g 0".parse().unwrap();
    let g = pos.geometry();
    let a1 = g.parse_point("A1").unwrap();
    let defences = DefenceReader::new().read(&pos, a1, PLENTY);
    assert!(defences.in_danger && defences.complete);
    for t in ["A2", "B1"] {
        assert!(defences.safe.contains(&turn(&pos, t)), "{t}: {defences:?}");
    }
    assert!(!defences.safe.contains(&turn(&pos, "B2")));
    for t in &defences.safe {
        assert!(!still_in_danger(&pos, t, a1));
    }
    assert!(still_in_danger(&pos, &turn(&pos, "B2"), a1));
}

/// Black A1's liberties A2 and B1 touch White A3 and White C1: in danger.
/// White C1 has two liberties, B1 and D1, and Black's two groups can fill
/// both at once: capturing the attacker first (B1,D1) is one of the safe
/// turns, and it reverses C1.
///
/// ```text
///   A B C D E
/// 3 O . . . .
/// 2 . . X X .
/// 1 X . O . .
/// ```
#[test]
fn capturing_an_attacker_first_saves_the_group() {
    let pos: Position = "sygo 5 5/5/W4/2BB1/B1W2 b g 0".parse().unwrap();
    let g = pos.geometry();
    let a1 = g.parse_point("A1").unwrap();
    let defences = DefenceReader::new().read(&pos, a1, PLENTY);
    assert!(defences.in_danger && defences.complete);
    let capture = turn(&pos, "B1,D1");
    let same = |t: &Turn| after(&pos, t) == after(&pos, &capture);
    assert!(defences.safe.iter().any(same), "{defences:?}");
    let next = after(&pos, &capture);
    assert_eq!(
        next.stone_at(g.parse_point("C1").unwrap()),
        Some(Color::Black)
    );
    for t in &defences.safe {
        assert!(!still_in_danger(&pos, t, a1), "{t:?}");
    }
}

/// A group that is not in danger has nothing to defend.
#[test]
fn a_group_not_in_danger_has_no_defences() {
    let pos: Position = "sygo 5 5/5/2B2/5/5 b g 0".parse().unwrap();
    let c3 = pos.geometry().parse_point("C3").unwrap();
    let defences = DefenceReader::new().read(&pos, c3, PLENTY);
    assert!(!defences.in_danger);
    assert!(defences.safe.is_empty() && defences.trades.is_empty());
}

/// With a budget too small to read every turn, the reading says so.
#[test]
fn a_small_budget_is_reported() {
    let pos: Position = "sygo 5 5/5/W4/5/B1W2 b g 0".parse().unwrap();
    let a1 = pos.geometry().parse_point("A1").unwrap();
    let defences = DefenceReader::new().read(&pos, a1, 2);
    assert!(defences.in_danger);
    assert!(!defences.complete);
    assert_eq!(defences.nodes, 2, "{defences:?}");
}

// ------------------------------------------------------------ brute force

/// Every turn of the side to move (step by step through `allowed_steps`,
/// each distinct position once), with the position after it.
fn all_turns(pos: &Position) -> Vec<(Turn, Position)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![pos.clone()];
    while let Some(state) = stack.pop() {
        for p in state.allowed_steps() {
            let mut next = state.clone();
            next.play_step(p).unwrap();
            if !seen.insert(next.hash()) {
                continue;
            }
            if next.check_finish().is_ok() {
                let mut done = next.clone();
                done.finish_turn().unwrap();
                out.push((Turn::Stones(next.turn_stones()), done));
            }
            if !next.turn_ended_by_placement() {
                stack.push(next);
            }
        }
    }
    out
}

/// A random tight position: stones on a share of the points, colours at
/// random, groups without liberties thinned out.
fn random_position(rng: &mut Xoshiro256PlusPlus, g: Geometry) -> Position {
    let density = rng.random_range(0.4..0.8);
    let mut stones: Vec<(Point, Color)> = Vec::new();
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
    let side = if rng.random_bool(0.5) {
        Color::Black
    } else {
        Color::White
    };
    let growth = !rng.random_bool(0.25);
    loop {
        if let Ok(pos) = Position::from_parts(g, &stones, side, growth, 0, None) {
            return pos;
        }
        let i = rng.random_range(0..stones.len());
        stones.swap_remove(i);
    }
}

#[test]
fn the_safe_turns_agree_with_brute_force_on_small_boards() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    let (mut in_danger, mut defended, mut lost, mut trades, mut missed) = (0, 0, 0, 0, 0);
    let mut capture = CaptureReader::new();
    let mut reader = DefenceReader::new();
    for (g, positions) in [
        (Geometry::sygo(4).unwrap(), 300),
        (Geometry::sygo(5).unwrap(), 300),
        (Geometry::hexsygo(3).unwrap(), 300),
    ] {
        for _ in 0..positions {
            let pos = random_position(&mut rng, g);
            let me = pos.side_to_move();
            let mut done: Vec<Point> = Vec::new();
            let turns = all_turns(&pos);
            for (stone, c) in pos.stones().collect::<Vec<_>>() {
                if c != me || done.contains(&stone) {
                    continue;
                }
                done.extend(pos.group(stone));
                let defences = reader.read(&pos, stone, PLENTY);
                assert_eq!(defences.in_danger, capture.can_reverse(&pos, stone));
                if !defences.in_danger {
                    continue;
                }
                in_danger += 1;
                assert!(defences.complete);
                // The turns on the involved points, as the reading restricts
                // itself, and every turn.
                let involved = involved_points(&pos, stone);
                let safe_turns: Vec<&(Turn, Position)> = turns
                    .iter()
                    .filter(|(t, _)| t.stones().iter().all(|p| involved.contains(p)))
                    .filter(|(_, t)| !capture.can_reverse(t, stone))
                    .collect();
                let safe_by_brute_force: HashSet<u64> =
                    safe_turns.iter().map(|(_, t)| t.hash()).collect();
                let context = || format!("{} group {}", pos.to_position_string(), g.vertex(stone));
                let found: HashSet<u64> = defences
                    .safe
                    .iter()
                    .map(|t| after(&pos, t).hash())
                    .collect();
                assert_eq!(
                    found,
                    safe_by_brute_force,
                    "{}: {:?}; safe by brute force: {:?}",
                    context(),
                    defences,
                    safe_turns
                        .iter()
                        .map(|(t, _)| t.to_notation(&g))
                        .collect::<Vec<_>>()
                );
                // Defences away from the involved points are rare.
                if defences.safe.is_empty()
                    && turns.iter().any(|(_, t)| !capture.can_reverse(t, stone))
                {
                    missed += 1;
                }
                if defences.safe.is_empty() {
                    lost += 1;
                } else {
                    defended += 1;
                }
                for t in &defences.trades {
                    // Not safe: the opponent can reverse the group.
                    let next = after(&pos, t);
                    assert!(capture.can_reverse(&next, stone), "{}", context());
                    trades += 1;
                }
            }
        }
    }
    println!(
        "in danger {in_danger}, defended {defended}, lost {lost}, trades {trades}, \
         defended only away from the involved points {missed}"
    );
    assert!(defended >= 50 && lost >= 20, "{defended} {lost}");
    assert!(missed * 20 <= in_danger, "{missed} of {in_danger}");
}
