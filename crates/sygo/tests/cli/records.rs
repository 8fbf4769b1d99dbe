//! The record subcommands as a user meets them: the real `sygo` binary run
//! on the example records of both boards (`docs/examples/`), `replay` driven
//! through a pipe, `convert` both ways, errors as one line and an exit code;
//! and the engine protocol's `printsgf` and `loadsgf` through files.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

const SYGO_9: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/examples/sygo-9.sgf"
);
const HEXSYGO_4: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/examples/hexsygo-4.sgf"
);

/// What a run printed and how it ended.
struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

/// Runs `sygo` with arguments and standard input.
fn sygo(args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sygo"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sygo binary starts");
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        // The program may stop reading early (after `quit`).
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("sygo runs");
    writer.join().expect("writer");
    let run = Run {
        stdout: String::from_utf8(output.stdout).expect("UTF-8 output"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8 errors"),
        code: output.status.code(),
    };
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    run
}

/// Runs `sygo` and expects success with nothing on standard error.
#[track_caller]
fn ok(args: &[&str], input: &str) -> String {
    let run = sygo(args, input);
    assert_eq!(run.code, Some(0), "sygo {args:?}: {}", run.stderr);
    assert_eq!(run.stderr, "", "sygo {args:?}");
    run.stdout
}

/// Runs `sygo` and expects a failure: one line on standard error.
#[track_caller]
fn fails(args: &[&str], code: i32) -> String {
    let run = sygo(args, "");
    assert_eq!(run.code, Some(code), "sygo {args:?}: {}", run.stdout);
    if code == 1 {
        assert_eq!(run.stderr.lines().count(), 1, "one line: {}", run.stderr);
    }
    run.stderr
}

/// A fresh temporary directory for one test, removed at the end.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("sygo-records-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn file(&self, name: &str, contents: &str) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, contents).unwrap();
        path.to_str().unwrap().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn show_prints_the_position_after_a_turn_on_both_boards() {
    let end = ok(&["show", SYGO_9], "");
    assert!(end.starts_with("Ann (Black) against Bob (White), 2025-06-01, result B+2.5\n"));
    assert!(
        end.contains("sygo 9, turn 19 of 19: White passed.\n"),
        "{end}"
    );
    assert!(end.contains("game over after two passes: B+2.5; growth started\n"));
    assert!(end.contains(
        "score: Black 12 (12 stones, 0 territory), White 9 (9 stones, 0 territory): komi 0.5, B+2.5\n"
    ));

    let capture = ok(&["show", SYGO_9, "--turn", "8"], "");
    assert!(
        capture.contains("sygo 9, turn 8 of 19: Black grew A2 and B1, reversing A1.\n"),
        "{capture}"
    );
    assert!(
        capture.contains("  1 X X X . . . . . . 1\n"),
        "A1 reversed: {capture}"
    );
    assert!(capture.contains("comment: A2 and B1 grow both of Black's groups"));

    let start = ok(&["show", SYGO_9, "--turn", "0"], "");
    assert!(start.contains("sygo 9, the start: the empty board; the main line has 19 turns"));
    assert!(start.contains("White to move; no growth turn yet"));

    let hex = ok(&["show", HEXSYGO_4], "");
    assert!(
        hex.contains("hexsygo 4, turn 15 of 15: White resigned.\n"),
        "{hex}"
    );
    assert!(hex.contains("  1    X X X . 1\n"), "{hex}");
    assert!(hex.contains("game over: B+R (White resigned)"));
    let three = ok(&["show", HEXSYGO_4, "--turn", "8"], "");
    assert!(
        three.contains("turn 8 of 15: Black grew A2, B1 and B2, reversing A1.\n"),
        "{three}"
    );
}

#[test]
fn score_prints_stones_territory_and_result_on_both_boards() {
    assert_eq!(
        ok(&["score", SYGO_9], ""),
        "sygo 9, 19 turns, ended by two passes\n\
         Black: 12 stones + 0 territory = 12\n\
         White: 9 stones + 0 territory = 9\n\
         komi: 0.5 for White\n\
         result: B+2.5\n"
    );
    assert_eq!(
        ok(&["score", HEXSYGO_4], ""),
        "hexsygo 4, 15 turns, ended when White resigned\n\
         Black: 11 stones + 1 territory = 12\n\
         White: 7 stones + 0 territory = 7\n\
         result: B+R (White resigned; on the board, B+5)\n"
    );
}

#[test]
fn replay_steps_through_a_pipe_on_both_boards() {
    let out = ok(
        &["replay", SYGO_9],
        "next\n\nprev\njump 8\nprev\nlast\nnext\nfirst\nprev\njump 99\ndance\nhelp\n9\nquit\nnext\n",
    );
    // The prompt shows where we are; each line read follows it.
    for expected in [
        "sygo 9, the start: the empty board; the main line has 19 turns (0 is the start)\n",
        "replay 0/19> next\nsygo 9, turn 1 of 19: White placed E5.\n",
        "replay 1/19> \nsygo 9, turn 2 of 19: Black placed A3.\n",
        "replay 2/19> prev\nsygo 9, turn 1 of 19: White placed E5.\n",
        "replay 1/19> jump 8\nsygo 9, turn 8 of 19: Black grew A2 and B1, reversing A1.\n",
        "replay 8/19> prev\nsygo 9, turn 7 of 19: White placed A1.\n",
        "replay 7/19> last\nsygo 9, turn 19 of 19: White passed.\n",
        "replay 19/19> next\nalready at the last turn: the main line has 19 turns (0 is the start)\n",
        "replay 19/19> first\nsygo 9, the start: the empty board",
        "replay 0/19> prev\nalready at the start\n",
        "replay 0/19> jump 99\nthere is no turn 99: the main line has 19 turns (0 is the start)\n",
        "replay 0/19> dance\nunknown command \"dance\": commands: next",
        "replay 0/19> 9\nsygo 9, turn 9 of 19: White grew F6.\n",
        "comment: One stone, F6, grows two groups at once and joins them.\n",
    ] {
        assert!(out.contains(expected), "{expected:?} in:\n{out}");
    }
    assert!(out.ends_with("replay 9/19> quit\n"), "{out}");

    // The end of the input quits too.
    let out = ok(&["replay", HEXSYGO_4], "last\nprev\njump 8\n");
    assert!(out.contains("replay 0/15> last\nhexsygo 4, turn 15 of 15: White resigned.\n"));
    assert!(out.contains("replay 15/15> prev\nhexsygo 4, turn 14 of 15: Black grew C4.\n"));
    assert!(out.contains("White to move; growth started\n"));
    assert!(out.contains("turn 8 of 15: Black grew A2, B1 and B2, reversing A1.\n"));
    assert!(out.ends_with("replay 8/15> \n"), "{out}");
}

#[test]
fn convert_goes_from_records_to_position_strings_and_back() {
    assert_eq!(
        ok(&["convert", SYGO_9], ""),
        "sygo 9 9/3W5/2WB2W2/1WBBWWW2/2BWW4/BBB6/B8/B8/BBB6 b g 2\n"
    );
    assert_eq!(
        ok(&["convert", HEXSYGO_4, "--turn", "3"], ""),
        "hexsygo 4 3W/5/6/3W3/B5/5/4 b - 0\n"
    );
    let dir = TempDir::new("convert");
    for position in [
        "sygo 9 9/9/9/5B3/9/3W5/9/9/9 w - 0",
        "sygo 5 5/5/2W2/5/5 b - 1",
        "hexsygo 2 B1/1W1/2 b g 2",
        "sygo 9 9/9/9/9/4W4/9/9/9/9 b - 0 W+R",
        "hexsygo 4 3W/5/6/3W3/B5/5/4 b - 0",
    ] {
        let record = ok(&["convert", "--position", position], "");
        assert!(record.starts_with("(;FF[4]GM[400]"), "{record}");
        let out = dir.0.join("position.sgf");
        let out = out.to_str().unwrap();
        assert_eq!(
            ok(&["convert", "--position", position, "--output", out], ""),
            ""
        );
        assert_eq!(std::fs::read_to_string(out).unwrap(), record);
        assert_eq!(ok(&["convert", out], ""), format!("{position}\n"));
    }
}

#[test]
fn errors_are_one_line_and_an_exit_code() {
    let dir = TempDir::new("errors");
    let missing = dir.0.join("missing.sgf");
    let missing = missing.to_str().unwrap();
    for command in ["show", "score", "replay", "convert"] {
        assert_eq!(
            fails(&[command, missing], 1),
            format!("sygo: error: {missing}: no such file\n")
        );
    }
    let truncated = dir.file("truncated.sgf", "(;GM[400]VR[sygo]SZ[9];W[ee];B[cg");
    assert_eq!(
        fails(&["show", &truncated], 1),
        format!(
            "sygo: error: {truncated}: not an SGF file: the text ends inside a property value \
             or before the game tree is closed: the file looks truncated\n"
        )
    );
    let illegal = dir.file("illegal.sgf", "(;GM[400]VR[hexsygo]SZ[3];W[cc];B[cc])");
    assert_eq!(
        fails(&["replay", &illegal], 1),
        format!(
            "sygo: error: {illegal}: node 2: Black's turn C3 is illegal: C3 is already occupied\n"
        )
    );
    let twice = dir.file("twice.sgf", "(;GM[400]VR[sygo]SZ[9];W[ee];W[cg])");
    assert_eq!(
        fails(&["score", &twice], 1),
        format!(
            "sygo: error: {twice}: node 2: White moves twice in a row: turns alternate, \
             passes included\n"
        )
    );
    assert_eq!(
        fails(&["show", SYGO_9, "--turn", "20"], 1),
        "sygo: error: there is no turn 20: the main line has 19 turns (0 is the start)\n"
    );
    assert_eq!(
        fails(&["convert", "--position", "sygo 5 5/5/5"], 1),
        "sygo: error: \"sygo 5 5/5/5\" is not a position string: \
         a position string has 6 or 7 fields separated by spaces, not 3\n"
    );
    fails(&["convert"], 2);
    fails(
        &["convert", SYGO_9, "--position", "sygo 5 5/5/5/5/5 w - 0"],
        2,
    );
    fails(&["show"], 2);
}

/// A random game through the engine protocol, printed with `printsgf`,
/// loaded with `loadsgf` into another engine: the same game, printed the
/// same; and the record subcommands read the file.
#[test]
fn printsgf_and_loadsgf_round_trip_through_files_on_both_boards() {
    let dir = TempDir::new("gtp");
    for (variant, size) in [("sygo", "7"), ("hexsygo", "3")] {
        let mut input = String::from("komi 1.5\n");
        for _ in 0..200 {
            input.push_str("genmove w\ngenmove b\n");
        }
        input.push_str("printsgf\nquit\n");
        let out = ok(
            &[
                "gtp",
                "--player",
                "random",
                "--variant",
                variant,
                "--size",
                size,
                "--seed",
                "9",
            ],
            &input,
        );
        let printed = out
            .split("\n\n")
            .find(|answer| answer.starts_with("=\n(;FF[4]"))
            .expect("printsgf answers");
        let sgf = format!("{}\n", &printed[2..]);
        let path = dir.file(&format!("{variant}.sgf"), &sgf);

        let out = ok(
            &["gtp", "--seed", "2"],
            &format!("loadsgf {path}\nprintsgf\nfinal_score\nquit\n"),
        );
        let answers: Vec<&str> = out.split("\n\n").collect();
        assert_eq!(answers[0], "=");
        assert_eq!(format!("{}\n", &answers[1][2..]), sgf);
        assert!(sgf.contains(&format!("RE[{}]", &answers[2][2..])), "{sgf}");
        assert!(ok(&["score", &path], "").contains("komi: 1.5 for White\n"));
    }
}

#[test]
fn the_readme_shows_what_sygo_score_prints() {
    let readme = include_str!("../../../../README.md");
    let command = "$ sygo score docs/examples/sygo-9.sgf\n";
    let start = readme.find(command).expect("the example in the README") + command.len();
    let end = start + readme[start..].find("```").expect("its end");
    assert_eq!(ok(&["score", SYGO_9], ""), &readme[start..end]);
}
