//! `sygo study` as a user runs it, on a 5×5 board with fast players: the
//! same seed gives the same CSV whatever the threads; a study interrupted
//! (SIGINT, SIGKILL, a half-written last line) or extended and resumed
//! gives the CSV of one run straight through; a folder of other options is
//! refused; the report, the records and the plots (well-formed SVG) are
//! written; bad arguments get one clear error.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sygo_records::Record;

/// Runs sygo; (success, exit code, stdout, stderr).
fn sygo(args: &[&str]) -> (bool, Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sygo"))
        .args(args)
        .output()
        .expect("sygo runs");
    (
        out.status.success(),
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The player of most tests: the AI with few playouts (fast, and it
/// searches, so that threads could matter).
const AI: &str = "mcts:visits=30,resign=off";

/// A study's arguments with seed 7, its folder `out`, on Sygo 5×5 unless
/// `extra` gives a size.
fn study_args<'a>(
    out: &'a str,
    games: &'a str,
    player: &'a str,
    extra: &[&'a str],
) -> Vec<&'a str> {
    let mut args = vec![
        "study", "--games", games, "--player", player, "--seed", "7", "--out", out,
    ];
    if !extra.contains(&"--size") {
        args.extend(["--size", "5"]);
    }
    args.extend_from_slice(extra);
    args
}

fn csv(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("games.csv")).unwrap()
}

fn path(dir: &Path) -> &str {
    dir.to_str().unwrap()
}

#[test]
fn the_same_seed_gives_the_same_csv_whatever_the_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("one");
    let two = tmp.path().join("two");
    let (ok, _, out, err) = sygo(&study_args(path(&one), "8", AI, &["--jobs", "1", "--sgf"]));
    assert!(ok, "{err}");
    let (ok, _, _, err) = sygo(&study_args(path(&two), "8", AI, &["--threads", "2"]));
    assert!(ok, "{err}");
    assert_eq!(csv(&one), csv(&two));
    let text = csv(&one);
    assert_eq!(text.lines().count(), 9, "{text}");
    assert!(text.starts_with("game,seed,result,winner,margin,white,black,end,turns,stones,"));
    // The report is printed and written, and is a function of the CSV.
    assert!(
        out.starts_with("# Sygo 5×5, balance turn on: self-play study"),
        "{out}"
    );
    assert!(out.contains("| White's score (draws half) |"), "{out}");
    let report = std::fs::read_to_string(one.join("report.md")).unwrap();
    assert_eq!(
        report,
        std::fs::read_to_string(two.join("report.md")).unwrap()
    );
    assert!(out.starts_with(&report));
    // Each record reads back to its row's result and turns.
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let game: usize = fields[0].parse().unwrap();
        let record = Record::read_file(one.join(format!("records/game-{game:05}.sgf"))).unwrap();
        assert_eq!(record.info().result.as_deref(), Some(fields[2]));
        assert_eq!(
            record.main_line().turns().len(),
            fields[8].parse::<usize>().unwrap()
        );
    }
    // Another seed, other games.
    let three = tmp.path().join("three");
    let mut args = study_args(path(&three), "8", AI, &[]);
    args[6] = "8";
    assert!(sygo(&args).0);
    assert_ne!(csv(&one), csv(&three));
}

/// Starts a study, waits until it has written `rows` games, and stops it
/// with `signal` (`INT` or `KILL`); the number of rows then, or `None` when
/// the signal is ignored here (a program started in the background by a
/// shell without job control ignores SIGINT) and the study ran to its end.
fn interrupt(args: &[&str], dir: &Path, rows: usize, signal: &str) -> Option<usize> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sygo"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let written = || {
        std::fs::read_to_string(dir.join("games.csv"))
            .map_or(0, |t| t.lines().count().saturating_sub(1))
    };
    while written() < rows && started.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(5));
    }
    if signal == "KILL" {
        // At once, from this process.
        child.kill().unwrap();
    } else {
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }
    let status = child.wait().unwrap();
    if status.success() {
        // SIGINT is ignored here, or the study (a few seconds of games) ran
        // to its end before the signal came on a loaded machine.
        eprintln!("the study ran to its end before SIG{signal} stopped it");
        return None;
    }
    Some(written())
}

#[test]
fn a_study_running_in_a_folder_keeps_others_out() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("s");
    let args = study_args(path(&dir), "1000", AI, &[]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_sygo"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read_to_string(dir.join("games.csv")).map_or(0, |t| t.lines().count()) < 2
        && started.elapsed() < Duration::from_secs(30)
    {
        std::thread::sleep(Duration::from_millis(5));
    }
    let (ok, code, _, err) = sygo(&args);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!ok && code == Some(1), "{err}");
    assert!(
        err.contains("another sygo study is playing the games of"),
        "{err}"
    );
    // Once it has stopped, the folder is free again.
    let (ok, _, _, err) = sygo(&study_args(path(&dir), "1", AI, &[]));
    assert!(ok, "{err}");
}

#[test]
fn an_interrupted_study_resumes_to_the_csv_of_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let games = "40";
    let whole = tmp.path().join("whole");
    let (ok, _, _, err) = sygo(&study_args(path(&whole), games, AI, &[]));
    assert!(ok, "{err}");
    let expected = csv(&whole);
    assert_eq!(expected.lines().count(), 41);

    for signal in ["INT", "KILL"] {
        let dir = tmp.path().join(signal);
        let args = study_args(path(&dir), games, AI, &[]);
        if let Some(stopped_at) = interrupt(&args, &dir, 1, signal) {
            assert!(
                (1..40).contains(&stopped_at),
                "stopped after {stopped_at} games"
            );
        }
        let (ok, _, _, err) = sygo(&args);
        assert!(ok, "{err}");
        assert_eq!(csv(&dir), expected, "{signal}: resumed = straight through");
    }

    // A last line cut short (stopped while writing it) is cut off and its
    // game played again.
    let cut = tmp.path().join("cut");
    let args = study_args(path(&cut), games, AI, &[]);
    let keep: String = expected
        .lines()
        .take(21)
        .map(|l| format!("{l}\n"))
        .collect();
    let half = &expected.lines().nth(21).unwrap()[..10];
    std::fs::create_dir(&cut).unwrap();
    std::fs::copy(whole.join("study.txt"), cut.join("study.txt")).unwrap();
    std::fs::write(cut.join("games.csv"), format!("{keep}{half}")).unwrap();
    let (ok, _, _, err) = sygo(&args);
    assert!(ok, "{err}");
    assert!(err.contains("unfinished"), "{err}");
    assert_eq!(csv(&cut), expected);

    // A study extended is the longer study.
    let short = tmp.path().join("short");
    assert!(sygo(&study_args(path(&short), "15", AI, &[])).0);
    assert_eq!(csv(&short).lines().count(), 16);
    assert!(sygo(&study_args(path(&short), games, AI, &[])).0);
    assert_eq!(csv(&short), expected);
}

#[test]
fn a_folder_of_other_options_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("s");
    let d = path(&dir);
    assert!(sygo(&study_args(d, "3", "random", &[])).0);
    let before = csv(&dir);
    for (player, extra, names) in [
        ("random", &["--visits", "5"][..], "visits player (asked: 5)"),
        ("random", &["--no-balance"][..], "balance on (asked: off)"),
        (
            "uct:visits=10",
            &[][..],
            "player random (asked: uct:visits=10)",
        ),
        ("random", &["--size", "6"][..], "size 5 (asked: 6)"),
    ] {
        let (ok, code, out, err) = sygo(&study_args(d, "3", player, extra));
        assert!(!ok && code == Some(1), "{extra:?}");
        assert!(out.is_empty());
        assert!(
            err.contains("holds a study played with other options"),
            "{err}"
        );
        assert!(err.contains(names), "{extra:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    assert_eq!(csv(&dir), before, "nothing changed");
    // A folder with a CSV that is not a study's.
    let other = tmp.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("games.csv"), "a,b\n").unwrap();
    let (ok, _, _, err) = sygo(&study_args(path(&other), "3", "random", &[]));
    assert!(!ok && err.contains("not a study"), "{err}");
}

/// Whether `text` is well-formed XML as far as its elements go: every tag
/// closed in order, one root.
fn well_formed(text: &str) -> bool {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = text;
    let mut roots = 0;
    while let Some(start) = rest.find('<') {
        let Some(end) = rest[start..].find('>') else {
            return false;
        };
        let tag = &rest[start + 1..start + end];
        rest = &rest[start + end + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            if open.pop() != Some(name.trim()) {
                return false;
            }
        } else {
            if open.is_empty() {
                roots += 1;
            }
            if !tag.ends_with('/') {
                open.push(tag.split_whitespace().next().unwrap_or(""));
            }
        }
    }
    open.is_empty() && roots == 1
}

#[test]
fn plots_are_written_as_svg() {
    let tmp = tempfile::tempdir().unwrap();
    let on = tmp.path().join("on");
    let off = tmp.path().join("off");
    let hex = tmp.path().join("hex");
    assert!(sygo(&study_args(path(&on), "12", "random", &[])).0);
    assert!(sygo(&study_args(path(&off), "12", "random", &["--no-balance"])).0);
    let (ok, _, _, err) = sygo(&[
        "study",
        "--variant",
        "hexsygo",
        "--size",
        "3",
        "--games",
        "12",
        "--player",
        "random",
        "--out",
        path(&hex),
    ]);
    assert!(ok, "{err}");
    let plots = tmp.path().join("plots");
    let (ok, _, out, err) = sygo(&[
        "study",
        "plot",
        path(&on),
        path(&off),
        path(&hex),
        "--out",
        path(&plots),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("## What the balance turn is worth"), "{out}");
    assert!(out.contains("| Sygo 5×5 | "), "{out}");
    assert!(out.contains("| Hexsygo 3 | on | 12 |"), "{out}");
    let summary = std::fs::read_to_string(plots.join("summary.md")).unwrap();
    assert!(out.starts_with(&summary));
    for file in [
        plots.join("win-rate.svg"),
        plots.join("margin.svg"),
        on.join("margins.svg"),
        on.join("lengths.svg"),
        off.join("margins.svg"),
    ] {
        let svg = std::fs::read_to_string(&file).unwrap();
        assert!(svg.starts_with("<svg "), "{}", file.display());
        assert!(well_formed(&svg), "{}", file.display());
    }
    let win = std::fs::read_to_string(plots.join("win-rate.svg")).unwrap();
    for label in [
        "Sygo 5×5",
        "Hexsygo 3",
        "with the balance turn",
        "without it",
    ] {
        assert!(win.contains(label), "{label}");
    }
    // Two studies of one board and balance: which to show is unclear.
    let (ok, _, _, err) = sygo(&["study", "plot", path(&on), path(&on)]);
    assert!(!ok && err.contains("both studies of Sygo 5×5"), "{err}");
    let (ok, _, _, err) = sygo(&["study", "plot", path(&tmp.path().join("none"))]);
    assert!(!ok && err.contains("is not a study"), "{err}");
}

#[test]
fn bad_arguments_get_one_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("s");
    let d = path(&dir);
    let cases: [(&str, &[&str], &str); 6] = [
        ("mcts:threads=2", &[], "leave threads out"),
        ("uct", &[], "limited by time"),
        ("mcts", &[], "--visits N"),
        ("alphago", &[], "is not a player"),
        ("random", &["--size", "99"], "99"),
        ("random", &["--visits", "0"], "--visits"),
    ];
    for (player, extra, says) in cases {
        let (ok, code, out, err) = sygo(&study_args(d, "3", player, extra));
        assert!(!ok && matches!(code, Some(1 | 2)), "{extra:?}");
        assert!(out.is_empty(), "{extra:?}");
        assert!(err.contains(says), "{extra:?}: {err}");
        assert_eq!(err.matches("error").count(), 1, "{extra:?}: {err}");
    }
    let (ok, _, _, err) = sygo(&["study", "--size", "5", "--player", "random"]);
    assert!(!ok && err.contains("--games"), "{err}");
    assert!(!dir.join("games.csv").exists(), "nothing written");
}
