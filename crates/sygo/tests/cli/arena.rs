//! `sygo arena` as a user meets it: the real binary, its report and its
//! machine-readable last line, `sygo gtp` itself as an external engine,
//! broken engines, the SPRT stopping a match, and the records it writes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sygo_records::Record;
use sygo_rules::Color;

const SYGO: &str = env!("CARGO_BIN_EXE_sygo");

fn run(args: &[&str]) -> Output {
    Command::new(SYGO)
        .arg("arena")
        .args(args)
        .output()
        .expect("the sygo binary runs")
}

/// Runs `sygo arena`; returns the fields of the last line and the report.
fn arena(args: &[&str]) -> (BTreeMap<String, String>, String) {
    let output = run(args);
    assert!(output.status.success(), "sygo arena {args:?}: {output:?}");
    let text = String::from_utf8(output.stdout).expect("UTF-8 output");
    let last = text.lines().last().expect("some output");
    let fields = last
        .split(' ')
        .map(|field| {
            let (key, value) = field
                .split_once('=')
                .unwrap_or_else(|| panic!("key=value: {field:?} in {last:?}"));
            (key.to_string(), value.to_string())
        })
        .collect();
    (fields, text)
}

fn number(fields: &BTreeMap<String, String>, key: &str) -> f64 {
    fields[key]
        .parse()
        .unwrap_or_else(|_| panic!("{key}: {fields:?}"))
}

/// A fresh folder for records under the target folder.
fn folder(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_seeded_match_is_reproducible_and_reports_everything() {
    let args = [
        "--a", "random", "--b", "random", "--size", "5", "--games", "10", "--seed", "4",
        "--visits", "10",
    ];
    let (first, text) = arena(&args);
    let (second, _) = arena(&[&args[..], &["--jobs", "1"]].concat());
    for (key, value) in &first {
        if key != "seconds" {
            assert_eq!(value, &second[key], "{key}");
        }
    }
    assert_eq!(number(&first, "games"), 10.0);
    let w = number(&first, "wins") + number(&first, "losses") + number(&first, "draws");
    assert_eq!(w, 10.0);
    let keys: Vec<&str> = first.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "draws",
            "elo",
            "elo_high",
            "elo_low",
            "forfeits_a",
            "forfeits_b",
            "games",
            "length_mean",
            "losses",
            "margin_mean",
            "overruns_a",
            "overruns_b",
            "score",
            "seconds",
            "wins"
        ]
    );
    for line in [
        "A: random\nB: random\nsygo 5, 10 games, seed 4, 4 opening turns, 10 visits per turn",
        "\n  as White: ",
        "\n  as Black: ",
        "\n  pairs by A's points (0, 1/2, 1, 3/2, 2): ",
        "\nElo of A over B: ",
        "\nscore margin (A - B, 10 games decided by the score): mean ",
        "\ngame length (turns): mean ",
        "\ntime per turn, A: mean ",
        "\nresignations: A 0, B 0; forfeits: A 0, B 0\n",
    ] {
        assert!(text.contains(line), "{line:?} in\n{text}");
    }
    // Another seed, another match (on the whole).
    let (other, _) = arena(&[&args[..8], &["--seed", "5", "--visits", "10"]].concat());
    assert_ne!(
        (&other["margin_mean"], &other["length_mean"]),
        (&first["margin_mean"], &first["length_mean"])
    );
}

#[test]
fn sygo_gtp_plays_as_an_external_engine_and_records_are_written() {
    let dir = folder("arena-gtp");
    let engine = format!("cmd:{SYGO} gtp --player random --seed 3");
    let (fields, text) = arena(&[
        "--a",
        &engine,
        "--b",
        "random",
        "--variant",
        "hexsygo",
        "--size",
        "3",
        "--games",
        "4",
        "--time-per-turn",
        "50",
        "--opening-turns",
        "2",
        "--records",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(number(&fields, "games"), 4.0, "{text}");
    assert_eq!(fields["forfeits_a"], "0", "{text}");
    assert!(text.contains("records: 4 games in "), "{text}");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["game-1.sgf", "game-2.sgf", "game-3.sgf", "game-4.sgf"]
    );
    let mut openings = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let record = Record::read_file(dir.join(name)).expect("a record that loads back");
        let info = record.info();
        // A plays White (who moves first) in the odd-numbered games.
        let (a, b) = if i % 2 == 0 {
            (&info.white, &info.black)
        } else {
            (&info.black, &info.white)
        };
        assert_eq!(a.as_deref(), Some(engine.as_str()));
        assert_eq!(b.as_deref(), Some("random"));
        let game = record.main_line();
        assert!(game.position().is_over());
        let result = info.result.clone().unwrap();
        assert_eq!(result, game.position().score().to_string());
        let root = record.tree().nodes[0].comment.clone().unwrap();
        assert!(
            root.starts_with(&format!("sygo arena, game {} of 4: A = {engine} (", i + 1)),
            "{root}"
        );
        assert!(
            root.contains("Turns 1 to 2 are the random opening of pair"),
            "{root}"
        );
        let second = record.tree().nodes[2].comment.clone().unwrap();
        assert!(second.starts_with("End of the random opening (2 turns)"));
        openings.push(game.turns()[..2].to_vec());
        assert_eq!(game.start().side_to_move(), Color::White);
    }
    assert_eq!(openings[0], openings[1]);
    assert_eq!(openings[2], openings[3]);
    assert_ne!(openings[0], openings[2]);
}

#[cfg(unix)]
#[test]
fn a_broken_engine_forfeits_every_game_and_the_match_finishes() {
    let dir = folder("arena-broken");
    let (fields, text) = arena(&[
        "--a",
        "random",
        "--b",
        "cmd:cat",
        "--size",
        "5",
        "--games",
        "4",
        "--records",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(fields["wins"], "4", "{text}");
    assert_eq!(fields["forfeits_b"], "4", "{text}");
    assert_eq!(fields["elo"], "inf", "{text}");
    assert!(
        text.contains("  game 1: B forfeits: protocol error: answered \"1 variant sygo 5\" to `variant sygo 5`\n"),
        "{text}"
    );
    // The record says who forfeited, and why.
    let record = Record::read_file(dir.join("game-2.sgf")).unwrap();
    assert_eq!(record.info().result.as_deref(), Some("B+F"));
    let last = record.tree().nodes.last().unwrap().comment.clone().unwrap();
    assert!(
        last.contains("White (B = cmd:cat) forfeits: protocol error"),
        "{last}"
    );
}

#[cfg(unix)]
#[test]
fn the_sprt_stops_a_match_at_its_verdict() {
    let (fields, text) = arena(&[
        "--a", "random", "--b", "cmd:cat", "--size", "5", "--games", "400", "--sprt", "0,50",
        "--jobs", "1",
    ]);
    assert_eq!(fields["sprt"], "H1", "{text}");
    assert!(number(&fields, "games") < 100.0, "{text}");
    assert!(number(&fields, "llr") >= 2.944, "{text}");
    assert!(text.contains("(stopped early, of 400)"), "{text}");
    assert!(
        text.contains("H1 accepted: A is stronger by 50 Elo or more"),
        "{text}"
    );
    // Bounds may be negative; two games decide nothing.
    let (fields, text) = arena(&[
        "--a", "random", "--b", "random", "--size", "5", "--games", "2", "--sprt", "-10,10",
    ]);
    assert_eq!(fields["sprt"], "continue", "{text}");
    assert!(
        text.contains("SPRT [-10, 10] (alpha 0.05, beta 0.05): LLR "),
        "{text}"
    );
}

#[test]
fn bad_options_are_refused_with_exit_code_2() {
    for args in [
        &["--a", "alphago", "--b", "random"][..],
        &["--a", "random", "--b", "cmd:"],
        &["--a", "random", "--b", "random", "--sprt", "50,0"],
        &[
            "--a",
            "random",
            "--b",
            "random",
            "--visits",
            "5",
            "--time-per-turn",
            "5",
        ],
        &["--a", "random"],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
    }
    let output = run(&[
        "--a",
        "cmd:/nonexistent/engine",
        "--b",
        "random",
        "--size",
        "5",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("player A (cmd:/nonexistent/engine): cannot start"),
        "{error}"
    );
}
