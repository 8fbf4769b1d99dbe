//! The search players on real boards: the steps the search may take are
//! exactly the allowed steps after which the turn can still be completed,
//! decisions and analyses are legal and
//! consistent, the tree is kept between turns, a tiny memory still answers,
//! options are read or refused with a reason, and a search stops on its
//! flag.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use sygo_ai::search::GameState;
use sygo_ai::{Budget, MctsPlayer, MctsSettings, Player, Step, StepGame, UctPlayer};
use sygo_rules::{Game, Geometry, Point, Position, StepKind, Turn};

fn boards() -> Vec<Geometry> {
    vec![
        Geometry::sygo(5).unwrap(),
        Geometry::sygo(9).unwrap(),
        Geometry::hexsygo(3).unwrap(),
        Geometry::hexsygo(5).unwrap(),
    ]
}

/// Positions along random games, some in the middle of a growth turn, and
/// some of those after a growth that left a group without a liberty that a
/// later capture can rescue (a state the search can reach).
fn positions(geometry: Geometry, seed: u64) -> Vec<Position> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut pos = Position::new(geometry);
    let mut out = Vec::new();
    while !pos.is_over() {
        out.push(pos.clone());
        // A turn in progress: the first stones of a random turn.
        let stones = pos.random_turn_stones(&mut rng);
        if stones.len() > 1 {
            let mut partial = pos.clone();
            for &p in &stones[..stones.len() / 2 + 1] {
                partial.play_step(p).unwrap();
            }
            if partial.turn_in_progress() {
                let stranded = partial.allowed_steps().into_iter().find_map(|p| {
                    let mut next = partial.clone();
                    next.play_step(p).unwrap();
                    (next.group_without_liberty().is_some() && next.turn_can_be_completed())
                        .then_some(next)
                });
                out.push(partial);
                out.extend(stranded);
            }
        }
        pos.play_random_turn(&mut rng);
    }
    out
}

/// The steps the search should be offered, computed from the rules' public
/// answers one point at a time.
fn expected_steps(pos: &Position) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if pos.is_over() {
        return out;
    }
    for p in pos.geometry().points() {
        let Ok(kind) = pos.check_step(p) else {
            continue;
        };
        // A growth stone must leave a turn that can still be completed; a
        // placement must complete a legal turn (check_step already says so).
        let completable = {
            let mut after = pos.clone();
            after.play_step(p).unwrap();
            kind == StepKind::Placement || after.turn_can_be_completed()
        };
        if completable {
            out.insert(format!("{p:?}"));
        }
    }
    if !pos.turn_in_progress() {
        out.insert("pass".to_string());
    } else if pos.check_finish().is_ok() {
        out.insert("finish".to_string());
    }
    out
}

fn offered_steps(pos: &Position) -> BTreeSet<String> {
    let mut actions = Vec::new();
    StepGame::new(pos.clone()).legal_actions(&mut actions);
    let set: BTreeSet<String> = actions
        .iter()
        .map(|a| match a {
            Step::Stone(p) => format!("{p:?}"),
            Step::Finish => "finish".to_string(),
            Step::Pass => "pass".to_string(),
        })
        .collect();
    assert_eq!(set.len(), actions.len(), "a step offered twice");
    set
}

#[test]
fn the_search_is_offered_exactly_the_steps_that_can_complete_a_turn() {
    let mut checked = 0;
    for (i, geometry) in boards().into_iter().enumerate() {
        for seed in 0..3 {
            for pos in positions(geometry, seed * 10 + i as u64) {
                assert_eq!(
                    offered_steps(&pos),
                    expected_steps(&pos),
                    "in\n{}",
                    pos.diagram()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 300, "only {checked} positions");
}

#[test]
fn any_line_of_steps_makes_legal_turns_to_the_end_of_the_game() {
    // Steps drawn at random from those offered, applied through the
    // search's own `apply`, must be the turns the rules accept.
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    for geometry in boards() {
        let mut state = StepGame::new(Position::new(geometry));
        let mut game = Game::new(Position::new(geometry));
        let mut stones: Vec<Point> = Vec::new();
        let mut actions = Vec::new();
        while !state.is_over() {
            actions.clear();
            state.legal_actions(&mut actions);
            let step = actions[rng.random_range(0..actions.len())];
            let mover = state.to_act();
            state.apply(step);
            match step {
                Step::Stone(p) => stones.push(p),
                Step::Pass => game.play(Turn::Pass).unwrap(),
                Step::Finish => {}
            }
            if state.to_act() != mover || state.is_over() {
                if !stones.is_empty() {
                    game.play(Turn::Stones(std::mem::take(&mut stones)))
                        .unwrap_or_else(|e| panic!("refused: {e}"));
                }
                assert_eq!(state.position(), game.position());
            } else {
                assert!(state.position().turn_in_progress());
            }
        }
        assert!(game.position().is_over());
    }
}

#[test]
fn the_static_evaluation_counts_the_stones_won_by_captures() {
    // Along random lines of steps from random roots, the policy's static
    // evaluation is tanh(2·(stones turned Black − stones turned White) /
    // scale), where a stone "turned" ends the line with the other colour
    // than the one it had at the root or was put down with.
    use sygo_ai::knowledge::{PlayoutSettings, SygoPolicy};
    use sygo_ai::search::Policy;
    use sygo_rules::Color;
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let mut policy = SygoPolicy::new(None, PlayoutSettings::default(), 1);
    let mut captures_seen = 0;
    for geometry in boards() {
        for root in positions(geometry, 3).into_iter().step_by(3) {
            let scale = 8.0;
            policy.set_root(&root, scale);
            let mut state = StepGame::new(root.clone());
            let mut origin: Vec<Option<Color>> =
                geometry.points().map(|p| root.stone_at(p)).collect();
            let index = |p: Point| geometry.points().position(|q| q == p).unwrap();
            let mut actions = Vec::new();
            for _ in 0..12 {
                if state.is_over() {
                    break;
                }
                actions.clear();
                state.legal_actions(&mut actions);
                let step = actions[rng.random_range(0..actions.len())];
                if let Step::Stone(p) = step {
                    origin[index(p)] = Some(state.position().side_to_move());
                }
                state.apply(step);
                let (mut to_black, mut to_white) = (0, 0);
                for p in geometry.points() {
                    match (origin[index(p)], state.position().stone_at(p)) {
                        (Some(Color::White), Some(Color::Black)) => to_black += 1,
                        (Some(Color::Black), Some(Color::White)) => to_white += 1,
                        _ => {}
                    }
                }
                captures_seen += usize::from(to_black + to_white > 0);
                let expected = (2.0 * (to_black - to_white) as f32 / scale).tanh();
                let got = policy.static_eval(&state);
                assert!(
                    (got - expected).abs() < 1e-5,
                    "{got} != {expected}\n{}",
                    state.position().diagram()
                );
            }
        }
    }
    assert!(
        captures_seen > 20,
        "too few lines with captures: {captures_seen}"
    );
}

/// Plays `turn` on a copy of `pos`, or says why not.
fn legal(pos: &Position, turn: &Turn) -> Result<Position, String> {
    let mut after = pos.clone();
    after.play_turn(turn).map_err(|e| e.to_string())?;
    Ok(after)
}

#[test]
fn decisions_and_analyses_are_legal_and_consistent() {
    for geometry in [Geometry::sygo(7).unwrap(), Geometry::hexsygo(4).unwrap()] {
        let mut game = Game::new(Position::new(geometry));
        let mut player = MctsPlayer::from_options(
            3,
            &[
                ("level".into(), "3".into()),
                ("resign".into(), "off".into()),
            ],
        )
        .unwrap();
        for _ in 0..8 {
            if game.position().is_over() {
                break;
            }
            let decision = player.choose(&game, &Budget::visits(400));
            let a = decision.analysis.expect("mcts always analyses");
            let pos = game.position();
            assert!(a.visits >= 400, "{} visits", a.visits);
            assert!((0.0..=1.0).contains(&a.win_rate));
            assert!(a.score_lead.abs() <= geometry.num_points() as f64);
            assert_eq!(a.ownership.len(), geometry.num_points());
            assert!(a.ownership.iter().all(|o| (-1.0..=1.0).contains(o)));
            assert!(!a.candidates.is_empty());
            assert_eq!(a.candidates[0].turn, decision.turn);
            for pair in a.candidates.windows(2) {
                assert!(pair[0].visits >= pair[1].visits);
            }
            let distinct: BTreeSet<String> = a
                .candidates
                .iter()
                .map(|c| format!("{:?}", c.turn))
                .collect();
            assert_eq!(distinct.len(), a.candidates.len(), "a turn listed twice");
            for c in &a.candidates {
                assert!((0.0..=1.0).contains(&c.win_rate));
                assert_eq!(c.pv.first(), Some(&c.turn));
                // The principal variation is a legal line of whole turns.
                let mut line = pos.clone();
                for turn in &c.pv {
                    line = legal(&line, turn)
                        .unwrap_or_else(|e| panic!("pv {:?}: {turn:?} refused: {e}", c.pv));
                }
            }
            game.play(decision.turn).unwrap();
        }
    }
}

#[test]
fn the_tree_is_kept_between_turns_unless_told_not_to() {
    let geometry = Geometry::sygo(7).unwrap();
    let root_visits = |reuse: &str| {
        let options = [
            ("threads".to_string(), "1".to_string()),
            ("reuse".to_string(), reuse.to_string()),
        ];
        let mut player = MctsPlayer::from_options(1, &options).unwrap();
        let mut game = Game::new(Position::new(geometry));
        let first = player
            .choose(&game, &Budget::visits(10_000))
            .analysis
            .unwrap();
        // The opponent answers with the reply the search expected most.
        game.play(first.candidates[0].turn.clone()).unwrap();
        let reply = first.candidates[0].pv.get(1).cloned().expect("a reply");
        game.play(reply).unwrap();
        player
            .choose(&game, &Budget::visits(100))
            .analysis
            .unwrap()
            .visits
    };
    let kept = root_visits("on");
    let fresh = root_visits("off");
    assert!(fresh < 200, "without reuse the root has {fresh} visits");
    println!("root visits after two turns: {kept} kept, {fresh} fresh");
    assert!(kept > fresh + 100, "reuse kept {kept}, fresh {fresh}");
}

#[test]
fn a_full_tree_still_answers_legal_turns() {
    let geometry = Geometry::sygo(9).unwrap();
    let options = [
        ("level".to_string(), "5".to_string()),
        ("memory".to_string(), "1".to_string()),
    ];
    let mut player = MctsPlayer::from_options(2, &options).unwrap();
    let mut game = Game::new(Position::new(geometry));
    for _ in 0..4 {
        let decision = player.choose(&game, &Budget::visits(10_000));
        assert!(decision.analysis.unwrap().visits >= 10_000);
        game.play(decision.turn).unwrap();
    }
}

#[test]
fn options_are_read_or_refused_with_a_reason() {
    let opts = |text: &[(&str, &str)]| -> Vec<(String, String)> {
        text.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let player = MctsPlayer::from_options(1, &opts(&[("level", "2"), ("c", "0.5")])).unwrap();
    assert_eq!(player.settings().visits, Some(200));
    assert_eq!(player.settings().exploration, 0.5);
    assert_eq!(
        *MctsPlayer::from_options(1, &opts(&[("level", "4")]))
            .unwrap()
            .settings(),
        MctsSettings::level(4).unwrap()
    );
    let error = |text: &[(&str, &str)]| {
        MctsPlayer::from_options(1, &opts(text))
            .err()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        error(&[("level", "7")]),
        "level=7: write a number from 1 to 6"
    );
    assert_eq!(error(&[("level", "x")]), "level=x: write a whole number");
    assert!(error(&[("colour", "red")]).contains("no option \"colour\""));
    assert!(error(&[("visits", "many")]).contains("visits=many"));
    assert!(error(&[("reuse", "maybe")]).contains("on or off"));
    assert!(UctPlayer::from_options(1, &opts(&[("rave", "1")])).is_err());
    // Every resource a user can set is capped, with a clear error.
    for (key, bad) in [
        ("threads", "200000"),
        ("threads", "0"),
        ("visits", "0"),
        ("time", "0"),
        ("memory", "1000000"),
    ] {
        assert!(
            error(&[(key, bad)]).starts_with(&format!("{key}={bad}: write a number from ")),
            "{key}={bad}: {}",
            error(&[(key, bad)])
        );
        assert!(UctPlayer::from_options(1, &opts(&[(key, bad)])).is_err());
    }
    for (key, bad) in [("c", "-1"), ("margin", "2"), ("grow", "1.5"), ("c", "NaN")] {
        assert!(
            error(&[(key, bad)]).contains("write a number"),
            "{key}={bad}"
        );
    }
}

#[test]
fn a_search_without_limits_stops_on_its_flag() {
    let geometry = Geometry::hexsygo(4).unwrap();
    let options = [
        ("threads".to_string(), "2".to_string()),
        ("visits".to_string(), "off".to_string()),
        ("time".to_string(), "600000".to_string()),
    ];
    let mut player = MctsPlayer::from_options(1, &options).unwrap();
    let stop = player.stop_handle();
    let game = Game::new(Position::new(geometry));
    let start = Instant::now();
    // The flag is raised from 300 ms on, again and again until the search
    // returns (a search lowers it when it begins, which on a loaded machine
    // may come after a first raise).
    let chosen = Arc::new(AtomicBool::new(false));
    let raiser = std::thread::spawn({
        let chosen = chosen.clone();
        move || {
            std::thread::sleep(Duration::from_millis(300));
            while !chosen.load(Ordering::Relaxed) {
                stop.store(true, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    });
    let decision = player.choose(&game, &Budget::default());
    chosen.store(true, Ordering::Relaxed);
    raiser.join().unwrap();
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(300));
    assert!(took < Duration::from_secs(60), "took {took:?}");
    assert!(legal(game.position(), &decision.turn).is_ok());
}

/// In a small endgame the player plays the turn the endgame solver proves,
/// even at the lowest level, and its analysis says the result is certain.
#[test]
fn small_endgames_are_played_exactly() {
    // Sygo 3×3, C1 and C2 vacant: White's five stones have one liberty, C2,
    // and only the placement C1 keeps them (after anything else Black's C2
    // reverses them).
    let pos: Position = "sygo 3 WWW/WB1/WB1 w g 0".parse().unwrap();
    let game = Game::new(pos.clone());
    for level in [1, 3] {
        let mut player = MctsPlayer::level(level, 5).unwrap();
        let decision = player.choose(&game, &Budget::visits(50));
        assert_eq!(decision.turn.to_notation(&pos.geometry()), "C1");
        let a = decision.analysis.expect("an analysis");
        assert_eq!(a.win_rate, 1.0);
        assert_eq!(a.candidates[0].turn, decision.turn);
        assert_eq!(a.candidates[0].win_rate, 1.0);
    }
    // Black, after White's pass, takes them.
    let mut passed = game.clone();
    passed.play(Turn::Pass).unwrap();
    let mut player = MctsPlayer::level(1, 5).unwrap();
    let decision = player.choose(&passed, &Budget::visits(50));
    assert_eq!(decision.turn.to_notation(&pos.geometry()), "C2");
}

/// With the player's own endgame solver off, the tree alone proves small
/// endgames (its nodes solved by the prover, the proofs backed up): the
/// analysis gives the exact result, and the turn chosen keeps it.
#[test]
fn the_tree_proves_small_endgames_by_itself() {
    use sygo_ai::endgame::{SolveLimits, Verdict, solve};
    let limits = SolveLimits {
        nodes: 10_000_000,
        ..SolveLimits::default()
    };
    let options: Vec<(String, String)> = [("threads", "1"), ("endgame", "off")]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut checked = 0;
    for (geometry, seed) in [
        (Geometry::sygo(5).unwrap(), 1),
        (Geometry::hexsygo(3).unwrap(), 2),
        (Geometry::sygo(5).unwrap(), 3),
        (Geometry::hexsygo(3).unwrap(), 4),
    ] {
        let endgames = positions(geometry, seed)
            .into_iter()
            .filter(|p| !p.turn_in_progress() && (2..=6).contains(&p.vacant_count()));
        for pos in endgames {
            let truth = solve(&pos, &limits).expect("solved").verdict;
            let mut player = MctsPlayer::from_options(seed, &options).unwrap();
            let game = Game::new(pos.clone());
            let decision = player.choose(&game, &Budget::visits(4000));
            let analysis = decision.analysis.expect("an analysis");
            let exact = match truth {
                Verdict::Win => 1.0,
                Verdict::Draw => 0.5,
                Verdict::Loss => 0.0,
            };
            assert_eq!(analysis.win_rate, exact, "{pos}");
            if truth != Verdict::Loss {
                let after = legal(&pos, &decision.turn).unwrap();
                let answer = solve(&after, &limits).map(|s| s.verdict);
                let kept = match truth {
                    Verdict::Win => Verdict::Loss,
                    _ => Verdict::Draw,
                };
                assert!(
                    after.is_over() || answer == Some(kept),
                    "{pos}: {:?}",
                    decision.turn
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 8, "only {checked} endgames");
}

#[test]
fn off_turns_off_every_setting_that_may_be_none_and_a_number_sets_it() {
    let read = |text: &str| {
        let options: Vec<(String, String)> = text
            .split(',')
            .map(|kv| {
                let (k, v) = kv.split_once('=').unwrap();
                (k.to_string(), v.to_string())
            })
            .collect();
        MctsPlayer::from_options(1, &options)
            .unwrap()
            .settings()
            .clone()
    };
    let off = read("visits=off,rave=none,widen=off,selfatari=off,resign=off,endgame=off,prove=off");
    assert_eq!(off.visits, None);
    assert_eq!(off.rave_equivalence, None);
    assert!(off.widening.is_none());
    assert_eq!(off.playouts.self_atari, 0);
    assert_eq!(off.resign_below, None);
    assert_eq!(off.endgame_vacant, 0);
    assert_eq!(off.prove_vacant, 0);
    let on = read("visits=500,rave=300,widen=4/0.5,selfatari=5,resign=0.1,endgame=12,prove=10");
    assert_eq!(on.visits, Some(500));
    assert_eq!(on.rave_equivalence, Some(300.0));
    let widening = on.widening.expect("widening");
    assert_eq!((widening.base, widening.exponent), (4.0, 0.5));
    assert_eq!(on.playouts.self_atari, 5);
    assert_eq!(on.resign_below, Some(0.1));
    assert_eq!(on.endgame_vacant, 12);
    assert_eq!(on.prove_vacant, 10);
    // A value out of range is refused, with the setting's own range.
    let options = vec![("prove".to_string(), "65".to_string())];
    let refused = MctsPlayer::from_options(1, &options)
        .err()
        .expect("refused");
    assert_eq!(refused.to_string(), "prove=65: write a number from 0 to 64");
}
