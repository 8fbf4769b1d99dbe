//! Tactics: positions with one right idea, read exhaustively, and the
//! strongest player's answers to them.
//!
//! Each position (`tactics/positions.rs`) has a goal for the side to move
//! ([`puzzle::Goal`]): capture named groups (`Capture`), capture them so that
//! they cannot be taken back (`CaptureForGood`), keep named groups out of
//! the opponent's reach (`Save`), or both (`CaptureAndSave`, a race won).
//! Its set of correct answers is not written by hand: the oracle
//! (`tactics/oracle.rs`) lists every legal turn of the side to move with the
//! rules library, one per resulting position, and judges each; "cannot be
//! reversed" is read over every turn of the opponent that could matter.
//! `every_position_is_read_exhaustively` checks that the set is not empty,
//! that the position's solution is in it and its tempting wrong turns are
//! legal and not, and prints for each position how many of the legal turns
//! are correct and how often the uniformly random player hits one.
//!
//! The strongest player then plays each position with a fixed number of
//! simulations ([`visits`], what the default level reads in about a second
//! on the 2-core development machine) on two threads with a fixed seed: the
//! same turns on every run, whatever the machine's load. It must solve
//! every position (issue 21; ignored until it does) and at least 90% of the
//! first 25 (run by `cargo test`). A line per
//! position says what it played, and for a miss the turns it preferred.
//! `TACTICS=words` runs only the positions whose names contain the words;
//! `TACTICS_OPTIONS=static=0,visits=40000` changes the player's settings for
//! an experiment. The timed variant (every core, one second a position) is
//! an ignored diagnostic.
//!
//! The strongest player's playouts barely tell a tactic from a quiet turn on
//! an open board, where random play reverses big groups back and forth;
//! what helps it find them is the static part of its value (the stones won
//! by captures since the root, `docs/ai.md`). `playout_values` (ignored: a
//! diagnostic) prints, for each position, the side to move's share of games
//! won after the solution, after the first wrong turn and after a pass, in
//! uniformly random games and in the strong player's playouts, and the
//! latter's mean margin.

#[allow(dead_code)]
#[path = "../../../sygo-rules/tests/common/diagram.rs"]
mod diagram;
mod oracle;
mod positions;
mod puzzle;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use sygo_ai::{Budget, MctsPlayer, Player, RandomPlayer};
use sygo_rules::{Color, Game, Geometry, Point, Position, Turn};

use puzzle::Puzzle;

/// The positions whose names contain the words of `TACTICS` (all of them
/// when it is not set).
fn selected() -> Vec<Puzzle> {
    let only = std::env::var("TACTICS").unwrap_or_default();
    positions::all()
        .into_iter()
        .filter(|p| p.name.contains(only.as_str()))
        .collect()
}

/// The most states within one turn the oracle reads in a position: enough
/// for every position of the set, few enough to keep the test fast.
const MAX_STATES: usize = 1_000_000;

/// Every position is sound, and its answers are read exhaustively: the set
/// of legal turns that meet the goal is not empty, holds the solution, and
/// holds none of the tempting wrong turns (each legal) nor the pass.
/// Prints, per position, the correct turns out of the legal ones and the
/// uniformly random player's rate of success over 100 turns.
#[test]
fn every_position_is_read_exhaustively() {
    let started = Instant::now();
    let puzzles = selected();
    // TACTICS_SHOW=N prints up to N correct turns a position (4 unless set).
    let show = std::env::var("TACTICS_SHOW")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(4);
    // TACTICS_SHOW_WRONG=N prints up to N legal turns that miss the goal.
    let show_wrong = std::env::var("TACTICS_SHOW_WRONG")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let mut problems = Vec::new();
    let mut names = HashSet::new();
    for puzzle in &puzzles {
        assert!(
            names.insert(puzzle.name),
            "two positions named {}",
            puzzle.name
        );
        let read_from = Instant::now();
        let judge = puzzle.judge();
        let mut legal = 0;
        let mut correct = Vec::new();
        let mut incorrect = Vec::new();
        let mut correct_hashes = oracle::HashSet::default();
        let complete = oracle::for_each_legal_turn(&judge.start, MAX_STATES, |turn, after| {
            legal += 1;
            if judge.meets(after) {
                correct.push(turn.to_notation(&puzzle.geometry));
                correct_hashes.insert(after.hash());
            } else if incorrect.len() < show_wrong {
                incorrect.push(turn.to_notation(&puzzle.geometry));
            }
        });
        let states = complete.unwrap_or_else(|| {
            panic!(
                "{}: more than {MAX_STATES} states in a turn: too open to read",
                puzzle.name
            )
        });
        let hits = |turn: &Turn| -> Result<bool, String> {
            let mut after = judge.start.clone();
            after.play_turn(turn).map_err(|e| e.to_string())?;
            Ok(correct_hashes.contains(&after.hash()))
        };
        let g = &puzzle.geometry;
        let random = (0..100u64)
            .filter(|&seed| {
                let turn = RandomPlayer::new(seed)
                    .choose(&Game::new(judge.start.clone()), &Budget::default())
                    .turn;
                hits(&turn) == Ok(true)
            })
            .count();
        let mut shown: Vec<String> = correct.iter().take(show).cloned().collect();
        if correct.len() > show {
            shown.push("…".to_string());
        }
        println!(
            "{:<58} {:<11} {:<16} {:>5} of {:>6} correct, random player {:>3}%, {:>6} states, {:>5.2} s: {}",
            puzzle.name,
            g.name(),
            puzzle.goal.kind(),
            correct.len(),
            legal,
            random,
            states,
            read_from.elapsed().as_secs_f64(),
            shown.join(" ")
        );
        if !incorrect.is_empty() {
            println!("     missing the goal: {}", incorrect.join(" "));
        }
        let mut problem = |what: String| {
            println!("     PROBLEM: {what}");
            problems.push(format!(
                "{}: {what}\n{}",
                puzzle.name,
                judge.start.diagram()
            ));
        };
        if correct.is_empty() {
            problem("no legal turn meets the goal".to_string());
        }
        if hits(&puzzle.turn(puzzle.solution)) != Ok(true)
            || judge.solved_by(&puzzle.turn(puzzle.solution)) != Ok(true)
        {
            problem(format!("the solution {} is not correct", puzzle.solution));
        }
        if puzzle.wrong.is_empty() {
            problem("no wrong turn".to_string());
        }
        for wrong in puzzle.wrong.iter().chain(&["pass"]) {
            match hits(&puzzle.turn(wrong)) {
                Ok(false) => {}
                Ok(true) => problem(format!("the wrong turn {wrong} is correct")),
                Err(e) => problem(format!("the wrong turn {wrong} is illegal: {e}")),
            }
        }
    }
    println!(
        "{} positions read in {:.1} s",
        puzzles.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The oracle's shortcut is sound: every point it does not ask about is one
/// that `check_step` refuses, in every state of the positions' solutions and
/// wrong turns (captures that freeze groups among them), and of random turns
/// along random games on small boards of both kinds.
#[test]
fn the_oracle_skips_only_forbidden_points() {
    use rand::SeedableRng;
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
    let mut walks: Vec<(Position, Vec<Point>)> = Vec::new();
    for puzzle in positions::all() {
        for text in puzzle.wrong.iter().chain(&[puzzle.solution]) {
            walks.push((puzzle.start(), puzzle.turn(text).stones().to_vec()));
        }
    }
    for g in [
        Geometry::sygo(5).unwrap(),
        Geometry::sygo(7).unwrap(),
        Geometry::hexsygo(3).unwrap(),
        Geometry::hexsygo(4).unwrap(),
    ] {
        for _ in 0..20 {
            let mut pos = Position::new(g);
            while !pos.is_over() {
                let stones = pos.random_turn_stones(&mut rng);
                walks.push((pos.clone(), stones.clone()));
                pos.play_turn(&if stones.is_empty() {
                    Turn::Pass
                } else {
                    Turn::Stones(stones)
                })
                .unwrap();
            }
        }
    }
    let mut states = 0;
    for (start, stones) in walks {
        let base = oracle::BaseGroups::new(&start);
        let mut pos = start.clone();
        for &s in &stones {
            let asked: HashSet<Point> = base.candidates(&pos).into_iter().collect();
            for p in start.geometry().points().filter(|p| !asked.contains(p)) {
                assert!(
                    pos.check_step(p).is_err(),
                    "{} is skipped but allowed in\n{}",
                    start.geometry().vertex(p),
                    pos.diagram()
                );
            }
            assert!(asked.contains(&s));
            pos.play_step(s).unwrap();
            states += 1;
        }
    }
    assert!(states > 2000, "only {states} states checked");
}

/// What the strongest player's default level (every core, one second a
/// turn) reads in a second on the 2-core development machine, in
/// simulations times points of the board: about 1,700,000 / points, from
/// 35,000 on 7×7 and 28,000 on Hexsygo 5 down to 4,700 on 19×19 and 6,300
/// on Hexsygo 10. Measured over this set with
/// `cargo test --release -p sygo-ai --test tactics -- --ignored --nocapture in_one_second`
/// (the visits of each line), with other work on the machine (docs/ai.md,
/// Tactics).
const VISITS_TIMES_POINTS: u64 = 1_700_000;

/// The simulations the strongest player gets in a position of `geometry`
/// in the tests of the suite: what its default level reads in a second.
fn visits(geometry: &Geometry) -> u64 {
    VISITS_TIMES_POINTS / geometry.num_points() as u64
}

/// How the strongest player reads each position.
#[derive(Clone, Copy)]
enum Reading {
    /// The default level's settings on two threads, [`visits`] simulations
    /// a position, a fixed seed: the same turns on every run and machine.
    FixedVisits,
    /// The default level as users get it: every core, one second.
    OneSecond,
}

/// The strongest player solves every position, old and new, at the default
/// level's reading of one second (issue 21's figure). Ignored while the AI
/// does not: run it with
/// `cargo test --release -p sygo-ai --test tactics -- --ignored --nocapture every_position_at`.
#[test]
#[ignore = "the AI does not solve every position yet (docs/ai.md, Tactics)"]
fn the_strongest_player_solves_every_position_at_fixed_visits() {
    let missed = run_player(&selected(), Reading::FixedVisits);
    assert!(
        missed.is_empty(),
        "missed {} positions: {missed:?}",
        missed.len()
    );
}

/// The strongest player, read as in
/// [`the_strongest_player_solves_every_position_at_fixed_visits`], still
/// solves at least 90% of the first 25 positions (the figure before the
/// races were added; it solved 23, and 24 with the balance-turn reading).
#[test]
fn the_strongest_player_solves_the_first_set_at_fixed_visits() {
    let only = std::env::var("TACTICS").unwrap_or_default();
    let first: Vec<Puzzle> = positions::first_set()
        .into_iter()
        .filter(|p| p.name.contains(only.as_str()))
        .collect();
    let missed = run_player(&first, Reading::FixedVisits);
    let solved = first.len() - missed.len();
    assert!(
        solved * 10 >= first.len() * 9,
        "solved only {solved} of {}: missed {missed:?}",
        first.len()
    );
}

/// The strongest player as users get it (every core, one second a
/// position): a timed diagnostic that prints what it plays and how many
/// simulations it read (where [`VISITS_TIMES_POINTS`] comes from), and
/// asserts nothing. Run it with
/// `cargo test --release -p sygo-ai --test tactics -- --ignored --nocapture in_one_second`
/// on an idle machine.
#[test]
#[ignore = "timed: run it on an idle machine (see docs/ai.md, Tactics)"]
fn the_strongest_player_in_one_second() {
    run_player(&selected(), Reading::OneSecond);
}

/// Lets the strongest player read as `reading` says (with any settings of
/// `TACTICS_OPTIONS`) choose a turn in each of `puzzles`, prints a line per
/// position, and returns the names of the positions it missed.
fn run_player(puzzles: &[Puzzle], reading: Reading) -> Vec<&'static str> {
    let mut missed = Vec::new();
    let started = Instant::now();
    for (i, puzzle) in puzzles.iter().enumerate() {
        let (mut options, budget) = match reading {
            Reading::FixedVisits => {
                let n = visits(&puzzle.geometry);
                (
                    vec![
                        ("threads".to_string(), "2".to_string()),
                        ("visits".to_string(), n.to_string()),
                    ],
                    Budget::visits(n),
                )
            }
            Reading::OneSecond => (Vec::new(), Budget::time(Duration::from_secs(1))),
        };
        // TACTICS_OPTIONS=static=0,grow=0.5 changes the player's settings
        // (MctsSettings::set), for experiments.
        options.extend(
            std::env::var("TACTICS_OPTIONS")
                .unwrap_or_default()
                .split(',')
                .filter_map(|kv| kv.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string())),
        );
        let judge = puzzle.judge();
        let game = Game::new(judge.start.clone());
        let mut player = MctsPlayer::from_options(1000 + i as u64, &options).unwrap();
        let t = Instant::now();
        let decision = player.choose(&game, &budget);
        let seconds = t.elapsed().as_secs_f64();
        let (visits, win_rate) = decision
            .analysis
            .as_ref()
            .map_or((0, 0.0), |a| (a.visits, a.win_rate));
        let outcome = judge.solved_by(&decision.turn);
        let ok = outcome == Ok(true);
        if !ok {
            missed.push(puzzle.name);
            if let Some(a) = &decision.analysis {
                for c in a.candidates.iter().take(6) {
                    println!(
                        "       candidate {:<20} {:>6} visits, win rate {:>3.0}%, score {:>+6.1}{}",
                        c.turn.to_notation(&puzzle.geometry),
                        c.visits,
                        c.win_rate * 100.0,
                        c.score_lead,
                        if judge.solved_by(&c.turn) == Ok(true) {
                            " (solves it)"
                        } else {
                            ""
                        }
                    );
                }
            }
        }
        println!(
            "{:<4} {:<58} {:<11} played {:<16} {:>7} visits in {:.2} s, win rate {:>3.0}%{}",
            if ok { "ok" } else { "MISS" },
            puzzle.name,
            puzzle.geometry.name(),
            decision.turn.to_notation(&puzzle.geometry),
            visits,
            seconds,
            win_rate * 100.0,
            match outcome {
                Err(e) => format!(" {e}"),
                Ok(_) => String::new(),
            }
        );
    }
    println!(
        "solved {} of {} in {:.1} s",
        puzzles.len() - missed.len(),
        puzzles.len(),
        started.elapsed().as_secs_f64(),
    );
    missed
}

/// How much each position's tactic weighs in playouts: the side to move's
/// share of wins (in %) after the solution, the wrong turn and a pass, in
/// 1,000 uniformly random games and then in 1,000 playouts of the strong
/// player's policy (a diagnostic, not a check).
#[test]
#[ignore = "a diagnostic: prints, checks nothing"]
fn playout_values() {
    use rand::SeedableRng;
    for puzzle in positions::all() {
        let start = puzzle.start();
        let me = puzzle.to_move;
        let value = |turn: &str| {
            let mut p = start.clone();
            p.play_turn(&puzzle.turn(turn)).unwrap();
            let mut rng = rand_pcg::Pcg32::seed_from_u64(1);
            let mut wins = 0;
            let mut smart = 0;
            let mut margin = 0.0;
            let mut playouts = sygo_ai::knowledge::Playouts::new(Default::default(), 1);
            for _ in 0..1000 {
                let mut q = p.clone();
                q.play_random_game(&mut rng);
                if q.score().winner() == Some(me) {
                    wins += 1;
                }
                let mut q = p.clone();
                let o = playouts.play(&mut q, &mut Default::default());
                margin += f64::from(o.margin) * if me == Color::Black { 1.0 } else { -1.0 };
                if (o.result > 0.5) == (me == Color::Black) && o.result != 0.5 {
                    smart += 1;
                }
            }
            format!(
                "{:5.1} {:5.1} {:+6.1}",
                wins as f64 / 10.0,
                smart as f64 / 10.0,
                margin / 1000.0
            )
        };
        println!(
            "{:<50} solution {}  wrong {}  pass {}",
            puzzle.name,
            value(puzzle.solution),
            value(puzzle.wrong[0]),
            value("pass")
        );
    }
}
