//! The arena's match runner: reproducible matches with alternating colours,
//! and players that break the rules or the protocol losing with a reason
//! while the match goes on.

use std::ops::ControlFlow;
use std::time::Duration;

use sygo_ai::{Budget, Decision, Player, RandomPlayer};
use sygo_arena::{
    Entrant, EntrantSpec, Forfeit, GameEnd, MatchReport, MatchSettings, Side, run_match,
};
use sygo_rules::{Color, Game, Geometry, Turn};

fn settings(geometry: Geometry, games: usize, jobs: usize) -> MatchSettings {
    MatchSettings {
        geometry,
        games,
        budget: Budget::visits(10),
        seed: 7,
        jobs,
        opening_turns: 3,
    }
}

fn random() -> Entrant {
    "random"
        .parse::<EntrantSpec>()
        .unwrap()
        .entrant(Duration::from_secs(10))
}

fn play(settings: &MatchSettings, a: &Entrant, b: &Entrant) -> MatchReport {
    run_match(settings, a, b, |_, _| ControlFlow::Continue(())).unwrap()
}

/// What must be the same when a match is played again: each game's turns
/// and end.
fn fingerprint(report: &MatchReport) -> Vec<(usize, Color, Vec<Turn>, GameEnd)> {
    report
        .games
        .iter()
        .map(|g| (g.index, g.a_color, g.game.turns().to_vec(), g.end.clone()))
        .collect()
}

#[test]
fn random_matches_are_reproducible_and_alternate_colours() {
    for geometry in [Geometry::sygo(5).unwrap(), Geometry::hexsygo(3).unwrap()] {
        let once = play(&settings(geometry, 12, 1), &random(), &random());
        let again = play(&settings(geometry, 12, 3), &random(), &random());
        assert_eq!(
            fingerprint(&once),
            fingerprint(&again),
            "{}",
            geometry.name()
        );
        assert_eq!(once.summary.games(), 12);
        assert_eq!(once.summary.tally, again.summary.tally);
        assert_eq!(
            once.summary.margins.len(),
            12,
            "random players never resign"
        );
        for (i, game) in once.games.iter().enumerate() {
            assert_eq!(game.index, i);
            let a_color = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            assert_eq!(game.a_color, a_color);
            assert_eq!(game.opening_turns, 3);
            assert!(game.game.position().is_over());
            assert_eq!(
                game.time[0].turns + game.time[1].turns + 3,
                game.game.turns().len() as u64
            );
        }
        // The two games of a pair share their opening, and the pairs differ.
        for pair in once.games.chunks(2) {
            assert_eq!(pair[0].game.turns()[..3], pair[1].game.turns()[..3]);
        }
        assert_ne!(
            once.games[0].game.turns()[..3],
            once.games[2].game.turns()[..3]
        );
        assert_eq!(once.summary.pentanomial.pairs(), 6);
        assert_eq!(
            once.summary.as_white.games() + once.summary.as_black.games(),
            12
        );
        // Another seed, other games.
        let other = MatchSettings {
            seed: 8,
            ..settings(geometry, 12, 2)
        };
        assert_ne!(
            fingerprint(&play(&other, &random(), &random())),
            fingerprint(&once)
        );
    }
}

#[test]
fn the_caller_can_stop_a_match() {
    let geometry = Geometry::sygo(5).unwrap();
    // No game starts before the caller has seen all but `jobs - 1` of those
    // started: one thread stops right after the fourth game, two may finish
    // one more.
    for (jobs, most) in [(1, 4), (2, 5)] {
        let report = run_match(
            &settings(geometry, 50, jobs),
            &random(),
            &random(),
            |_, summary| {
                if summary.games() >= 4 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        )
        .unwrap();
        assert!(report.stopped);
        let played = report.games.len();
        assert!((4..=most).contains(&played), "{jobs} jobs: {played} games");
        for (i, game) in report.games.iter().enumerate() {
            assert_eq!(game.index, i);
        }
    }
}

/// Plays a stone on an occupied point as soon as there is one.
struct Cheater(RandomPlayer);

impl Player for Cheater {
    fn name(&self) -> String {
        "cheater".into()
    }

    fn choose(&mut self, game: &Game, budget: &Budget) -> Decision {
        match game.position().stones().next() {
            Some((p, _)) => Decision::turn(Turn::Stones(vec![p])),
            None => self.0.choose(game, budget),
        }
    }
}

#[test]
fn an_illegal_turn_loses_and_is_reported() {
    let geometry = Geometry::sygo(5).unwrap();
    let cheater = Entrant::builtin("cheater", |seed| Box::new(Cheater(RandomPlayer::new(seed))));
    let report = play(&settings(geometry, 4, 2), &random(), &cheater);
    assert_eq!(report.summary.tally.wins, 4);
    assert_eq!(report.summary.forfeits_by(Side::B), 4);
    for game in &report.games {
        match &game.end {
            GameEnd::Forfeit {
                loser,
                reason: Forfeit::IllegalTurn { turn, reason },
            } => {
                assert_eq!(*loser, game.color_of(Side::B));
                assert!(reason.contains("is already occupied"), "{reason}");
                assert!(geometry.parse_point(turn).is_ok());
            }
            end => panic!("{end:?}"),
        }
        assert!(game.result_text().ends_with("+F"));
        assert!(game.describe().contains("B ("), "{}", game.describe());
        assert!(game.describe().contains("forfeits"), "{}", game.describe());
    }
}

#[test]
fn time_is_measured_and_overruns_counted() {
    /// Takes 30 ms a turn.
    struct Slow(RandomPlayer);
    impl Player for Slow {
        fn name(&self) -> String {
            "slow".into()
        }
        fn choose(&mut self, game: &Game, budget: &Budget) -> Decision {
            std::thread::sleep(Duration::from_millis(30));
            self.0.choose(game, budget)
        }
    }
    let slow = Entrant::builtin("slow", |seed| Box::new(Slow(RandomPlayer::new(seed))));
    let settings = MatchSettings {
        budget: Budget::time(Duration::from_millis(1)),
        ..settings(Geometry::sygo(4).unwrap(), 2, 2)
    };
    let report = play(&settings, &slow, &random());
    let [a, b] = report.summary.time;
    assert!(a.turns > 0 && a.overruns == a.turns, "{a:?}");
    assert!(a.mean() >= Duration::from_millis(30));
    // The random player takes microseconds: an overrun would be the machine's.
    assert!(b.turns > 0 && b.overruns < b.turns, "{b:?}");
}

#[cfg(unix)]
mod engines {
    use super::*;

    fn engine(script: &str, timeout_ms: u64) -> Entrant {
        let spec: EntrantSpec = format!("cmd:sh -c '{script}'").parse().unwrap();
        spec.entrant(Duration::from_millis(timeout_ms))
    }

    /// Plays 4 games of random against the engine and returns B's forfeit
    /// reasons.
    fn forfeits(b: &Entrant) -> Vec<String> {
        let report = play(&settings(Geometry::sygo(5).unwrap(), 4, 2), &random(), b);
        assert_eq!(report.games.len(), 4);
        assert_eq!(
            report.summary.tally.wins, 4,
            "{:?}",
            report.summary.forfeits
        );
        report
            .summary
            .forfeits
            .iter()
            .map(|f| f.reason.clone())
            .collect()
    }

    #[test]
    fn an_engine_that_echoes_loses() {
        let reasons = forfeits(&engine("exec cat", 20_000));
        assert_eq!(reasons.len(), 4);
        for reason in reasons {
            assert!(
                reason.starts_with("protocol error: answered \"1 variant sygo 5\""),
                "{reason}"
            );
        }
    }

    #[test]
    fn an_engine_that_answers_garbage_to_genmove_loses() {
        let script = r#"while read -r id cmd rest; do
            if [ "$cmd" = genmove ]; then echo "=$id Z99"; else echo "=$id"; fi; echo;
        done"#;
        for reason in forfeits(&engine(script, 20_000)) {
            assert!(reason.contains("answered `genmove "), "{reason}");
            assert!(reason.contains("\"Z99\", which is not a move"), "{reason}");
        }
    }

    #[test]
    fn an_engine_that_plays_illegally_loses() {
        // Always A1: legal once at most.
        let script = r#"while read -r id cmd rest; do
            if [ "$cmd" = genmove ]; then echo "=$id A1"; else echo "=$id"; fi; echo;
        done"#;
        for reason in forfeits(&engine(script, 20_000)) {
            assert!(reason.starts_with("illegal turn A1:"), "{reason}");
        }
    }

    #[test]
    fn an_engine_that_crashes_loses_with_its_last_words() {
        let script = r#"while read -r id cmd rest; do
            if [ "$cmd" = genmove ]; then echo "out of cheese" >&2; exit 3; fi; echo "=$id"; echo;
        done"#;
        for reason in forfeits(&engine(script, 20_000)) {
            assert!(reason.starts_with("engine crashed: it exited"), "{reason}");
            assert!(reason.contains("while answering `genmove "), "{reason}");
            assert!(reason.contains("\"out of cheese\""), "{reason}");
        }
    }

    #[test]
    fn an_engine_that_hangs_times_out() {
        // It never answers genmove, and reads on.
        let script = r#"while read -r id cmd rest; do
            if [ "$cmd" = genmove ]; then continue; fi; echo "=$id"; echo;
        done"#;
        // Its other answers come at once; a loaded machine still answers
        // them well within 2 s.
        let started = std::time::Instant::now();
        for reason in forfeits(&engine(script, 2000)) {
            assert!(
                reason.starts_with("timeout: no complete answer to `genmove "),
                "{reason}"
            );
        }
        assert!(started.elapsed() < Duration::from_secs(60));
    }

    #[test]
    fn an_engine_that_refuses_a_turn_loses() {
        let script = r#"while read -r id cmd rest; do
            if [ "$cmd" = play ]; then echo "?$id illegal move: no"; else echo "=$id"; fi; echo;
        done"#;
        // As Black the engine is told White's turn first, and refuses it.
        let report = play(
            &settings(Geometry::sygo(5).unwrap(), 2, 1),
            &random(),
            &engine(script, 20_000),
        );
        for note in &report.summary.forfeits {
            assert!(
                note.reason.starts_with("protocol error: refused `play "),
                "{}",
                note.reason
            );
        }
        assert_eq!(report.summary.forfeits.len(), 2);
    }

    #[test]
    fn a_missing_engine_stops_the_match_before_it_starts() {
        let spec: EntrantSpec = "cmd:/nonexistent/engine".parse().unwrap();
        let b = spec.entrant(Duration::from_secs(1));
        let error = run_match(
            &settings(Geometry::sygo(5).unwrap(), 2, 1),
            &random(),
            &b,
            |_, _| ControlFlow::Continue(()),
        )
        .unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("player B (cmd:/nonexistent/engine): cannot start"),
            "{error}"
        );
    }
}
