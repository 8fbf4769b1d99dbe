//! The search's steps (`StepGame::for_each_step`) reach exactly the legal
//! turns: on small random positions of both boards, every turn the rules
//! library allows is enumerated by brute force (every sequence of allowed
//! steps, ended where `check_finish` allows), and every turn a depth-first
//! walk through the offered steps reaches is collected; the two sets of
//! turns (each as its set of stones) must be equal, and no line of steps
//! may dead-end in a turn that cannot be completed.
//!
//! The positions are tight (many small groups with few liberties, where
//! one growth turn of several groups captures and a stone alone may leave
//! its group without a liberty) and from random games. Enough of them must
//! hold a legal turn that the steps offered before the fix, the eligible
//! stones only, could not reach: Sygo's multi-group liberty race, each
//! stone alone without a liberty.

use crate::tight;

use std::collections::{BTreeSet, HashSet};

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use sygo_ai::search::GameState;
use sygo_ai::{Step, StepGame};
use sygo_rules::{Color, Geometry, Point, Position, StepKind};
use tight::{random_game_position, tight_position};

/// A turn, as its stones in increasing order.
type TurnSet = Vec<Point>;

fn sorted(mut stones: Vec<Point>) -> TurnSet {
    stones.sort_unstable();
    stones
}

/// Every legal turn of the side to move in `start` that puts stones down:
/// every sequence of allowed steps, each state of the turn once, ended
/// where the rules allow it. `None` when the turn has more than
/// `max_states` states (too open to read).
fn legal_turns(start: &Position, max_states: usize) -> Option<BTreeSet<TurnSet>> {
    let mut seen = HashSet::new();
    let mut turns = BTreeSet::new();
    let mut stack = vec![start.clone()];
    while let Some(state) = stack.pop() {
        for p in state.allowed_steps() {
            let mut next = state.clone();
            let kind = next.play_step(p).expect("an allowed step");
            if !seen.insert(next.hash()) {
                continue;
            }
            if seen.len() > max_states {
                return None;
            }
            if next.check_finish().is_ok() {
                turns.insert(sorted(next.turn_stones()));
            }
            if kind == StepKind::Growth {
                stack.push(next);
            }
        }
    }
    Some(turns)
}

/// Every turn that a depth-first walk through the offered steps reaches
/// from `start` (the search's own `apply`), checking on the way that every
/// state with a turn in progress offers a step, that `Finish` is offered
/// only where the turn may end, and that every stone offered is allowed.
fn reached_turns(start: &Position) -> BTreeSet<TurnSet> {
    let mut seen = HashSet::new();
    let mut turns = BTreeSet::new();
    let mut stack = vec![StepGame::new(start.clone())];
    let mover = start.side_to_move();
    while let Some(state) = stack.pop() {
        let pos = state.position();
        let mut steps = Vec::new();
        state.for_each_step(|step, _| steps.push(step));
        if pos.turn_in_progress() {
            assert!(
                !steps.is_empty(),
                "a dead end: no step offered in\n{}\n{pos:?}",
                pos.diagram()
            );
        }
        for step in steps {
            match step {
                Step::Pass => assert!(!pos.turn_in_progress()),
                Step::Finish => {
                    assert_eq!(pos.check_finish(), Ok(()), "{pos:?}");
                    turns.insert(sorted(pos.turn_stones()));
                }
                Step::Stone(p) => {
                    assert!(pos.check_step(p).is_ok(), "{p:?} offered in {pos:?}");
                    let mut stones = pos.turn_stones();
                    stones.push(p);
                    let mut next = state.clone();
                    next.apply(step);
                    if next.position().side_to_move() != mover {
                        // A placement: it ended the turn.
                        turns.insert(sorted(stones));
                    } else if seen.insert(next.state_hash()) {
                        stack.push(next);
                    }
                }
            }
        }
    }
    turns
}

/// The turns reached by the steps offered before the fix: the eligible
/// stones only (`Position::eligible_step`), `Finish` after any of them.
fn eligible_only_turns(start: &Position) -> BTreeSet<TurnSet> {
    let mut seen = HashSet::new();
    let mut turns = BTreeSet::new();
    let mut stack = vec![start.clone()];
    while let Some(pos) = stack.pop() {
        for p in pos.allowed_steps() {
            let Some(kind) = pos.eligible_step(p) else {
                continue;
            };
            let mut next = pos.clone();
            next.play_step(p).unwrap();
            if !seen.insert(next.hash()) {
                continue;
            }
            turns.insert(sorted(next.turn_stones()));
            if kind == StepKind::Growth {
                stack.push(next);
            }
        }
    }
    turns
}

/// What the comparison saw.
#[derive(Default, Debug)]
struct Counts {
    positions: u64,
    turns: u64,
    /// Positions too open to read, skipped.
    skipped: u64,
    /// Positions with a legal turn the eligible stones alone cannot reach.
    beyond_eligible: u64,
}

/// Compares the turns reached with the legal ones in `pos`.
fn compare(pos: &Position, counts: &mut Counts) {
    let Some(legal) = legal_turns(pos, 20_000) else {
        counts.skipped += 1;
        return;
    };
    let reached = reached_turns(pos);
    let show = |set: &BTreeSet<TurnSet>| {
        let g = pos.geometry();
        set.iter()
            .map(|t| sygo_rules::format_points(t, &g))
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(
        legal == reached,
        "in\n{}\n{pos:?}\nlegal, not reached: {}\nreached, not legal: {}",
        pos.diagram(),
        show(&legal.difference(&reached).cloned().collect()),
        show(&reached.difference(&legal).cloned().collect()),
    );
    counts.positions += 1;
    counts.turns += legal.len() as u64;
    if !legal.is_subset(&eligible_only_turns(pos)) {
        counts.beyond_eligible += 1;
    }
}

/// Tight random positions and positions of random games on `g`.
fn run_board(g: Geometry, seed: u64, positions: usize, counts: &mut Counts) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for i in 0..positions {
        let pos = if i % 5 == 4 {
            match random_game_position(&mut rng, g) {
                Some(pos) => pos,
                None => continue,
            }
        } else {
            tight_position(&mut rng, g, i % 5 == 3, 0.45..0.9)
        };
        compare(&pos, counts);
    }
}

#[test]
fn the_steps_reach_exactly_the_legal_turns_on_square_boards() {
    let mut counts = Counts::default();
    for (n, positions) in [(4, 400), (5, 400)] {
        run_board(
            Geometry::sygo(n).unwrap(),
            u64::from(n),
            positions,
            &mut counts,
        );
    }
    println!("{counts:?}");
    assert!(counts.positions >= 600, "{counts:?}");
    assert!(counts.beyond_eligible >= 20, "{counts:?}");
}

#[test]
fn the_steps_reach_exactly_the_legal_turns_on_hex_boards() {
    let mut counts = Counts::default();
    for (n, positions) in [(2, 200), (3, 2000), (4, 3000)] {
        run_board(
            Geometry::hexsygo(n).unwrap(),
            10 + u64::from(n),
            positions,
            &mut counts,
        );
    }
    println!("{counts:?}");
    assert!(counts.positions >= 4000, "{counts:?}");
    assert!(counts.beyond_eligible >= 5, "{counts:?}");
}

/// Black's growth B1,D1 reverses White C1: each stone alone leaves its
/// own group without a liberty. The steps reach it in either order; after
/// B1 the turn may not end, and the only way on is D1 or another growth
/// that leaves D1 open.
#[test]
fn two_groups_filling_the_last_two_liberties_are_reached() {
    let pos: Position = "sygo 5 4W/5/5/WWBWW/B1W1B b - 0".parse().unwrap();
    let g = pos.geometry();
    let at = |s: &str| g.parse_point(s).unwrap();
    let turn = sorted(vec![at("B1"), at("D1")]);
    assert!(legal_turns(&pos, 100_000).unwrap().contains(&turn));
    assert!(!eligible_only_turns(&pos).contains(&turn));
    assert!(reached_turns(&pos).contains(&turn));
    compare(&pos, &mut Counts::default());
    let mut game = StepGame::new(pos);
    game.apply(Step::Stone(at("B1")));
    let mut offered = Vec::new();
    game.for_each_step(|step, _| offered.push(step));
    assert!(offered.contains(&Step::Stone(at("D1"))));
    assert!(!offered.contains(&Step::Finish));
    game.apply(Step::Stone(at("D1")));
    assert_eq!(game.position().stone_at(at("C1")), Some(Color::Black));
    game.apply(Step::Finish);
    assert_eq!(game.position().side_to_move(), Color::White);
}

/// A turn left where a group lacks a liberty is completed by the steps
/// that rescue it, then ended (`StepGame::complete_turn`).
#[test]
fn a_turn_left_without_a_liberty_is_completed_by_its_rescue() {
    let pos: Position = "sygo 5 4W/5/5/WWBWW/B1W1B b - 0".parse().unwrap();
    let g = pos.geometry();
    let at = |s: &str| g.parse_point(s).unwrap();
    let mut game = StepGame::new(pos);
    game.apply(Step::Stone(at("D1")));
    let mut steps = Vec::new();
    game.complete_turn(&mut steps);
    assert_eq!(steps, vec![Step::Stone(at("B1")), Step::Finish]);
    assert_eq!(game.position().side_to_move(), Color::White);
    assert_eq!(game.position().stone_at(at("C1")), Some(Color::Black));
}
