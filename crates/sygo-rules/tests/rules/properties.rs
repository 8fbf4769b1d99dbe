//! Properties of the rules library on random games, checked with proptest.
//!
//! Each case is a board (both kinds, many sizes), a seed and a number of
//! turns; the games are played by the library's random player
//! (`play_random_turn`) or by a random walk through `allowed_steps` that can
//! also make transient suicides. The properties:
//!
//! - stones are never removed: a point once occupied stays occupied;
//! - a finished turn leaves no group of either colour without liberties;
//! - `hash()` always equals `hash_from_scratch()`;
//! - `Game::undo` restores exactly the previous position and its hash;
//! - the position string round-trips, with passes, growth started and
//!   resignation;
//! - a refused `play_turn`, `play_step` or `finish_turn` changes nothing;
//! - a turn's summary (`TurnSummary`) holds the turn's stones (grown, then
//!   placed), exactly the stones whose colour changed as reversed, a kind
//!   that agrees with the rules' step kinds, and a text naming every stone.

use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestCaseResult, TestRunner};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use sygo_rules::{
    Color, Game, Geometry, Point, Position, RandomTurn, StepKind, Turn, TurnError, TurnKind,
};

/// Cases per property.
const CASES: u32 = 2000;

/// Boards of both kinds, small ones more often (they fill up and reach the
/// interesting endgames in fewer turns).
fn geometry() -> impl Strategy<Value = Geometry> {
    prop_oneof![
        3 => (3u8..=9).prop_map(|n| Geometry::sygo(n).unwrap()),
        2 => (10u8..=19).prop_map(|n| Geometry::sygo(n).unwrap()),
        3 => (2u8..=5).prop_map(|n| Geometry::hexsygo(n).unwrap()),
        2 => (6u8..=10).prop_map(|n| Geometry::hexsygo(n).unwrap()),
    ]
}

/// A board, a seed, and a number of turns.
fn game(max_turns: usize) -> impl Strategy<Value = (Geometry, u64, usize)> {
    (geometry(), any::<u64>(), 1..=max_turns)
}

/// Every group on the board, found by flood fill over the board's
/// neighbours: its stones (the first one found first) and its liberties.
fn flood_groups(pos: &Position) -> Vec<(Vec<Point>, Vec<Point>)> {
    let g = pos.geometry();
    let mut seen = vec![false; g.index_len()];
    let mut groups = Vec::new();
    for p in g.points() {
        let Some(color) = pos.stone_at(p) else {
            continue;
        };
        if seen[p.index()] {
            continue;
        }
        seen[p.index()] = true;
        let mut group = vec![p];
        let mut liberties = Vec::new();
        let mut i = 0;
        while i < group.len() {
            let q = group[i];
            i += 1;
            for n in g.neighbours(q) {
                match pos.stone_at(n) {
                    None if !liberties.contains(&n) => liberties.push(n),
                    Some(c) if c == color && !seen[n.index()] => {
                        seen[n.index()] = true;
                        group.push(n);
                    }
                    _ => {}
                }
            }
        }
        groups.push((group, liberties));
    }
    groups
}

/// Every group of both colours has a liberty.
fn every_group_has_a_liberty(pos: &Position) -> Result<(), TestCaseError> {
    for (group, liberties) in flood_groups(pos) {
        let p = group[0];
        prop_assert!(
            !liberties.is_empty(),
            "the {} group at {} has no liberty after a finished turn: {pos}",
            pos.stone_at(p).unwrap(),
            pos.geometry().vertex(p)
        );
    }
    Ok(())
}

/// `atari_liberty` of every stone and `for_each_atari` agree with a flood
/// fill: the groups with exactly one liberty, each named once.
fn ataris_are_exact(pos: &Position) -> Result<(), TestCaseError> {
    let g = pos.geometry();
    let groups = flood_groups(pos);
    let mut group_of = vec![usize::MAX; g.index_len()];
    let mut expected = Vec::new();
    for (id, (group, liberties)) in groups.iter().enumerate() {
        let atari = (liberties.len() == 1).then(|| liberties[0]);
        for &q in group {
            group_of[q.index()] = id;
            prop_assert_eq!(
                pos.atari_liberty(q),
                atari,
                "atari_liberty({}) in {}",
                g.vertex(q),
                pos
            );
        }
        expected.push(atari);
    }
    let mut named = vec![false; expected.len()];
    let mut failure = None;
    pos.for_each_atari(|stone, liberty| {
        let id = group_of[stone.index()];
        if id == usize::MAX || named[id] || expected[id] != Some(liberty) {
            failure.get_or_insert((stone, liberty));
        } else {
            named[id] = true;
        }
    });
    if let Some((stone, liberty)) = failure {
        return Err(TestCaseError::fail(format!(
            "for_each_atari named {} with liberty {} wrongly in {pos}",
            g.vertex(stone),
            g.vertex(liberty)
        )));
    }
    for (id, atari) in expected.iter().enumerate() {
        prop_assert_eq!(named[id], atari.is_some(), "group {} of {}", id, pos);
    }
    Ok(())
}

/// `self_atari` of every vacant point agrees with playing the step on a
/// copy: for an eligible step that leaves its group one liberty, that
/// group's size (captured stones included); otherwise `None`.
fn self_ataris_are_exact(pos: &Position) -> Result<(), TestCaseError> {
    let g = pos.geometry();
    for p in g.points() {
        if pos.stone_at(p).is_some() {
            prop_assert_eq!(pos.self_atari(p), None);
            continue;
        }
        if pos.eligible_step(p).is_none() {
            continue;
        }
        let mut after = pos.clone();
        after.play_step(p).expect("an eligible step is allowed");
        let expected = (after.liberties(p).len() == 1).then(|| after.group(p).len() as u32);
        prop_assert_eq!(
            pos.self_atari(p),
            expected,
            "self_atari({}) in {}",
            g.vertex(p),
            pos
        );
    }
    Ok(())
}

/// The points occupied now.
fn occupied(pos: &Position) -> Vec<Point> {
    pos.stones().map(|(p, _)| p).collect()
}

/// Every point of `before` is still occupied.
fn still_occupied(pos: &Position, before: &[Point]) -> Result<(), TestCaseError> {
    for &p in before {
        prop_assert!(
            pos.stone_at(p).is_some(),
            "the stone on {} was removed: {pos}",
            pos.geometry().vertex(p)
        );
    }
    Ok(())
}

fn hash_is_exact(pos: &Position) -> Result<(), TestCaseError> {
    prop_assert_eq!(pos.hash(), pos.hash_from_scratch(), "hash of {}", pos);
    Ok(())
}

/// Plays one turn by a random walk through the allowed steps and ending the
/// turn, chosen uniformly; a dead end (a transient suicide that nothing
/// rescues) is abandoned for a pass. Checks after every step that no stone
/// was removed and the hash is exact.
fn walk_turn(
    pos: &mut Position,
    rng: &mut Xoshiro256PlusPlus,
    tally: &Tally,
) -> Result<(), TestCaseError> {
    let start = pos.clone();
    loop {
        tally.position();
        let steps = pos.allowed_steps();
        let can_end = pos.check_finish().is_ok();
        let options = steps.len() + usize::from(can_end);
        if options == 0 {
            // Nothing to play at the start, or a dead end: pass.
            *pos = start;
            pos.pass().unwrap();
            return Ok(());
        }
        if options % 13 == 0 {
            // Now and then (mid-turn positions included).
            self_ataris_are_exact(pos)?;
        }
        let choice = rng.random_range(0..options);
        if choice == steps.len() {
            pos.finish_turn().unwrap();
            return Ok(());
        }
        let before = occupied(pos);
        pos.play_step(steps[choice]).unwrap();
        still_occupied(pos, &before)?;
        hash_is_exact(pos)?;
    }
}

/// What a property covered.
#[derive(Default)]
struct Tally {
    cases: AtomicU64,
    positions: AtomicU64,
}

impl Tally {
    fn position(&self) {
        self.positions.fetch_add(1, Ordering::Relaxed);
    }
}

/// Runs a property on `cases` random cases (a failure is shrunk and
/// reported), and prints what it covered.
fn check<S>(name: &str, cases: u32, strategy: S, test: impl Fn(S::Value, &Tally) -> TestCaseResult)
where
    S: Strategy,
    S::Value: Debug,
{
    let config = ProptestConfig {
        cases,
        // A failure reports the shrunk case (board, seed, turns), which
        // replays it exactly: nothing needs saving.
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let tally = Tally::default();
    let started = Instant::now();
    let mut runner = TestRunner::new(config);
    let result = runner.run(&strategy, |value| {
        tally.cases.fetch_add(1, Ordering::Relaxed);
        test(value, &tally)
    });
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
    eprintln!(
        "{name}: {} cases, {} positions, {:.2} s",
        tally.cases.load(Ordering::Relaxed),
        tally.positions.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
}

/// Random player's games: stones stay, every group keeps a liberty between
/// turns, groups in atari are found exactly, the hash is exact, the
/// invariants hold.
#[test]
fn random_player_games_keep_stones_liberties_and_hashes() {
    check(
        "random player",
        CASES,
        game(400),
        |(g, seed, turns), tally| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut pos = Position::new(g);
            for _ in 0..turns {
                if pos.is_over() {
                    break;
                }
                tally.position();
                let before = occupied(&pos);
                let mover = pos.side_to_move();
                let played = pos.play_random_turn(&mut rng);
                still_occupied(&pos, &before)?;
                every_group_has_a_liberty(&pos)?;
                ataris_are_exact(&pos)?;
                if seed % 8 == 0 {
                    self_ataris_are_exact(&pos)?;
                }
                hash_is_exact(&pos)?;
                prop_assert!(!pos.turn_in_progress());
                prop_assert_eq!(pos.side_to_move(), mover.opponent());
                if let RandomTurn::Stones(n) = played {
                    prop_assert!(occupied(&pos).len() >= before.len() + n as usize);
                }
            }
            pos.check_invariants();
            Ok(())
        },
    );
}

/// Step-by-step walks, transient suicides included: stones stay after every
/// step, every group keeps a liberty after every finished turn.
#[test]
fn step_walks_keep_stones_liberties_and_hashes() {
    check("step walks", CASES, game(300), |(g, seed, turns), tally| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut pos = Position::new(g);
        for _ in 0..turns {
            if pos.is_over() {
                break;
            }
            let before = occupied(&pos);
            walk_turn(&mut pos, &mut rng, tally)?;
            still_occupied(&pos, &before)?;
            every_group_has_a_liberty(&pos)?;
            hash_is_exact(&pos)?;
        }
        pos.check_invariants();
        Ok(())
    });
}

/// Undo takes back exactly one turn: the position and its hash are those
/// before it, all the way back to the start.
#[test]
fn undo_restores_the_previous_position() {
    check("undo", CASES, game(80), |(g, seed, turns), tally| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut game = Game::new(Position::new(g));
        let mut history = vec![game.position().clone()];
        for _ in 0..turns {
            if game.position().is_over() {
                break;
            }
            let stones = game.position().random_turn_stones(&mut rng);
            let turn = if stones.is_empty() || rng.random_bool(0.05) {
                Turn::Pass
            } else if rng.random_bool(0.01) {
                Turn::Resign
            } else {
                Turn::Stones(stones)
            };
            game.play(turn.clone()).unwrap();
            prop_assert_eq!(game.turns().last(), Some(&turn));
            history.push(game.position().clone());
        }
        while history.len() > 1 {
            tally.position();
            let played = game.turns().last().cloned();
            prop_assert_eq!(game.undo(), played);
            history.pop();
            let want = history.last().unwrap();
            prop_assert_eq!(game.position(), want);
            prop_assert_eq!(game.position().hash(), want.hash());
        }
        prop_assert_eq!(game.undo(), None);
        prop_assert_eq!(game.position(), &Position::new(g));
        Ok(())
    });
}

/// The position string names the position exactly, at every turn of a game
/// with passes, growth and (sometimes) a resignation.
#[test]
fn position_strings_round_trip() {
    check(
        "position strings",
        CASES,
        game(300),
        |(g, seed, turns), tally| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut pos = Position::new(g);
            for turn in 0..=turns {
                tally.position();
                let s = pos.to_position_string();
                let back: Position = s
                    .parse()
                    .map_err(|e| TestCaseError::fail(format!("{s:?} does not parse: {e}")))?;
                prop_assert_eq!(&back, &pos, "{}", s);
                prop_assert_eq!(back.hash(), pos.hash());
                prop_assert_eq!(back.to_position_string(), s);
                prop_assert_eq!(back.outcome(), pos.outcome());
                if pos.is_over() {
                    break;
                }
                if turn == turns && rng.random_bool(0.3) {
                    pos.resign().unwrap();
                } else if rng.random_bool(0.1) {
                    pos.pass().unwrap();
                } else {
                    pos.play_random_turn(&mut rng);
                }
            }
            Ok(())
        },
    );
}

/// A refused whole turn, step or finish changes nothing: the position is
/// equal to what it was and hashes alike.
#[test]
fn refusals_change_nothing() {
    check("refusals", CASES, game(150), |(g, seed, turns), tally| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut pos = Position::new(g);
        let points: Vec<Point> = g.points().collect();
        for _ in 0..turns {
            if pos.is_over() {
                break;
            }
            tally.position();
            // A turn of allowed steps followed by one random point: refused
            // at its last step or at its finish, or legal.
            let mut walk = pos.clone();
            let mut stones = Vec::new();
            for _ in 0..rng.random_range(0..4) {
                let steps = walk.allowed_steps();
                if steps.is_empty() {
                    break;
                }
                let p = steps[rng.random_range(0..steps.len())];
                walk.play_step(p).unwrap();
                stones.push(p);
            }
            stones.push(points[rng.random_range(0..points.len())]);
            let before = pos.clone();
            let hash = pos.hash();
            if pos.play_turn(&Turn::Stones(stones)).is_err() {
                prop_assert_eq!(&pos, &before);
                prop_assert_eq!(pos.hash(), hash);
            } else {
                prop_assert!(!pos.turn_in_progress());
                prop_assert_eq!(pos.side_to_move(), before.side_to_move().opponent());
            }

            // Refused steps and finishes in the middle of a turn.
            let mut mid = pos.clone();
            if let Some(&p) = mid.allowed_steps().first() {
                mid.play_step(p).unwrap();
                let before = mid.clone();
                let q = points[rng.random_range(0..points.len())];
                if mid.play_step(q).is_err() {
                    prop_assert_eq!(&mid, &before);
                    prop_assert_eq!(mid.hash(), before.hash());
                }
                let before = mid.clone();
                if mid.finish_turn().is_err() {
                    prop_assert_eq!(&mid, &before);
                    prop_assert_eq!(mid.hash(), before.hash());
                }
                let before = mid.clone();
                if mid.turn_in_progress() {
                    prop_assert_eq!(mid.pass(), Err(TurnError::TurnInProgress));
                    prop_assert_eq!(mid.play_turn(&Turn::Resign), Err(TurnError::TurnInProgress));
                    prop_assert_eq!(&mid, &before);
                }
            }

            if !pos.is_over() && rng.random_bool(0.5) {
                pos.play_random_turn(&mut rng);
            }
        }
        // Nothing is accepted once the game is over.
        if rng.random_bool(0.5) && !pos.is_over() {
            pos.resign().unwrap();
        }
        if pos.is_over() {
            let before = pos.clone();
            prop_assert_eq!(pos.play_turn(&Turn::Pass), Err(TurnError::GameOver));
            prop_assert_eq!(pos.play_turn(&Turn::Resign), Err(TurnError::GameOver));
            let p = points[rng.random_range(0..points.len())];
            prop_assert_eq!(
                pos.play_turn(&Turn::Stones(vec![p])),
                Err(TurnError::GameOver)
            );
            prop_assert_eq!(&pos, &before);
        }
        Ok(())
    });
}

/// A turn for the wrong player through `Game::play_as` is refused and changes
/// nothing; so is an empty list of stones.
#[test]
fn wrong_player_and_empty_turns_are_refused() {
    let g = Geometry::sygo(9).unwrap();
    let mut game = Game::new(Position::new(g));
    let before = game.position().clone();
    let e5 = Turn::Stones(vec![g.parse_point("E5").unwrap()]);
    assert_eq!(
        game.play_as(Color::Black, e5.clone()),
        Err(TurnError::WrongColor {
            to_move: Color::White
        })
    );
    assert_eq!(
        game.play(Turn::Stones(Vec::new())),
        Err(TurnError::NoStones)
    );
    assert_eq!(game.position(), &before);
    assert!(game.turns().is_empty());
    game.play_as(Color::White, e5).unwrap();
    assert_eq!(game.position().side_to_move(), Color::Black);
}

/// The checks above catch what they look for: a group without liberties (in
/// the middle of a turn, after a growth that fills its last liberty) and a
/// removed stone.
#[test]
fn the_checks_can_fail() {
    let g = Geometry::sygo(5).unwrap();
    let mut pos: Position = "sygo 5 5/5/5/WW3/B1WB1 b g 0".parse().unwrap();
    let before = occupied(&pos);
    assert!(every_group_has_a_liberty(&pos).is_ok());
    pos.play_step(g.parse_point("B1").unwrap()).unwrap();
    assert!(every_group_has_a_liberty(&pos).is_err());
    assert!(still_occupied(&pos, &before).is_ok());
    assert!(still_occupied(&Position::new(g), &before).is_err());
}

/// Random games, each turn summarised before it is played: the summary's
/// stones are the turn's, its reversed stones exactly those whose colour
/// changed, its kind the one the step kinds make, its text names them all;
/// and `Game::summaries` gives the same summaries.
#[test]
fn turn_summaries_are_the_turns_facts() {
    check(
        "turn summaries",
        CASES / 4,
        game(200),
        |(g, seed, turns), tally| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut game = Game::new(Position::new(g));
            let mut expected = Vec::new();
            for _ in 0..turns {
                let before = game.position().clone();
                if before.is_over() {
                    break;
                }
                tally.position();
                let stones = before.random_turn_stones(&mut rng);
                let turn = if stones.is_empty() {
                    Turn::Pass
                } else {
                    Turn::Stones(stones.clone())
                };
                let summary = before
                    .summarize_turn(&turn)
                    .expect("a random turn is legal");
                game.play(turn.clone()).expect("a random turn is legal");
                let after = game.position();
                prop_assert_eq!(summary.color, before.side_to_move());
                prop_assert_eq!(&summary.stones(), &stones);
                let changed: Vec<Point> = before
                    .stones()
                    .filter(|&(p, c)| after.stone_at(p) != Some(c))
                    .map(|(p, _)| p)
                    .collect();
                prop_assert_eq!(&summary.reversed, &changed, "reversed in {}", before);
                // The kinds of the steps, played one by one.
                let mut steps = before.clone();
                let kinds: Vec<StepKind> = stones
                    .iter()
                    .map(|&p| steps.play_step(p).expect("a random turn's step is allowed"))
                    .collect();
                let growths = kinds.iter().filter(|&&k| k == StepKind::Growth).count();
                let placements = kinds.len() - growths;
                let kind = match (growths, placements) {
                    (0, 0) => TurnKind::Pass,
                    (0, _) => TurnKind::Placement,
                    (_, 0) => TurnKind::Growth,
                    _ => TurnKind::Balance,
                };
                prop_assert_eq!(summary.kind, kind, "{}", before);
                prop_assert!(placements <= 1);
                prop_assert_eq!(summary.grown.len(), growths);
                // Each grown stone names at least one group, a stone of the
                // mover that touched it before the turn.
                for grown in &summary.grown {
                    prop_assert!(!grown.groups.is_empty());
                    for &q in &grown.groups {
                        prop_assert_eq!(before.stone_at(q), Some(before.side_to_move()));
                    }
                }
                let text = summary.to_string();
                for p in stones.iter().chain(&summary.reversed) {
                    let name = g.vertex(*p).to_string();
                    prop_assert!(
                        text.split(|c: char| !c.is_ascii_alphanumeric())
                            .any(|w| w == name),
                        "{} does not name {}",
                        text,
                        name
                    );
                }
                expected.push(summary);
            }
            prop_assert_eq!(game.summaries(), expected);
            Ok(())
        },
    );
}
