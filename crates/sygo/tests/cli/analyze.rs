//! `sygo analyze` as a user meets it: the real binary on the example records
//! of both boards (`docs/examples/`), with few simulations so that it is
//! quick. The text has its parts, every candidate turn and every turn of its
//! line is legal (checked with the rules library), the JSON reads back with
//! one owner per point, a finished game shows its final score, the same seed
//! gives the same analysis, and mistakes get one line and an exit code.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;
use sygo_records::Record;
use sygo_rules::{Color, Game, Geometry, Turn};

const SYGO_9: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/examples/sygo-9.sgf"
);
const HEXSYGO_4: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/examples/hexsygo-4.sgf"
);

/// Few simulations on one thread: quick, and the same every time.
const QUICK: [&str; 6] = ["--visits", "300", "--threads", "1", "--level", "2"];

/// What a run printed and how it ended.
struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

fn sygo(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_sygo"))
        .args(args)
        .output()
        .expect("the sygo binary runs");
    let run = Run {
        stdout: String::from_utf8(output.stdout).expect("UTF-8 output"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8 errors"),
        code: output.status.code(),
    };
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    run
}

/// `sygo analyze ARGS…`, which must succeed with nothing on standard error.
#[track_caller]
fn analyze(args: &[&str]) -> String {
    let mut all = vec!["analyze"];
    all.extend_from_slice(args);
    let run = sygo(&all);
    assert_eq!(run.code, Some(0), "sygo {all:?}: {}", run.stderr);
    assert_eq!(run.stderr, "", "sygo {all:?}");
    run.stdout
}

/// `sygo analyze ARGS…`, which must fail with `code`; standard error.
#[track_caller]
fn fails(args: &[&str], code: i32) -> String {
    let mut all = vec!["analyze"];
    all.extend_from_slice(args);
    let run = sygo(&all);
    assert_eq!(run.code, Some(code), "sygo {all:?}: {}", run.stdout);
    assert_eq!(run.stdout, "", "nothing on standard output");
    if code == 1 {
        assert_eq!(run.stderr.lines().count(), 1, "one line: {}", run.stderr);
    }
    run.stderr
}

#[track_caller]
fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} is not in:\n{text}");
}

/// The game after `n` turns of a record's main line.
fn game_after(file: &str, n: usize) -> Game {
    Record::read_file(std::path::Path::new(file))
        .expect("the example reads")
        .game_after(n)
}

/// Checks that a turn and the line after it are legal from `game`'s
/// position, as the rules library plays them.
#[track_caller]
fn assert_legal_line(game: &Game, line: &[&str]) {
    let g = game.position().geometry();
    let mut pos = game.position().clone();
    assert!(!line.is_empty(), "a line has its first turn");
    for text in line {
        let turn = Turn::parse(text, &g).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        pos.play_turn(&turn)
            .unwrap_or_else(|e| panic!("{text} after {line:?} is illegal: {e}"));
    }
}

// ------------------------------------------------------------------ text

#[test]
fn the_text_has_every_part_and_legal_candidates_on_both_boards() {
    for (file, n, board) in [
        (SYGO_9, 8, "Sygo 9x9"),
        (HEXSYGO_4, 8, "Hexsygo, base 4"),
        (SYGO_9, 0, "Sygo 9x9"),
    ] {
        let game = game_after(file, n);
        let me = game.position().side_to_move();
        let turn = n.to_string();
        let mut args = vec![file, "--turn", &turn];
        args.extend_from_slice(&QUICK);
        let out = analyze(&args);

        assert!(
            out.starts_with("Ann (Black) against Bob (White), "),
            "{out}"
        );
        if n == 0 {
            assert_contains(&out, &format!("{board}, the start; the main line has "));
        } else {
            assert_contains(&out, &format!("{board}, turn {n} of "));
            assert_contains(&out, "'s last turn (");
        }
        // The board as sygo play draws it: coordinates on both sides.
        let rows = if file == SYGO_9 { 9 } else { 7 };
        assert_contains(&out, &format!("\n  {rows} "));
        assert_contains(&out, "  1 ");
        assert_contains(&out, &format!("{me} to move; "));
        assert_contains(&out, "score now: Black ");
        assert_contains(&out, &format!("{me} to move: "));
        assert_contains(&out, "% to win, score lead ");
        assert_contains(&out, "(AI level 2, 1 thread: 300 visits in ");

        // The table of candidates: every turn and its line legal.
        let table = out
            .split_once(&format!("Best turns for {me}:\n"))
            .map(|(_, rest)| rest)
            .unwrap_or_else(|| panic!("a table of candidates in:\n{out}"));
        let mut lines = table.lines();
        let header = lines.next().expect("a header");
        for column in ["turn", "visits", "win %", "lead", "principal variation"] {
            assert_contains(header, column);
        }
        let rows: Vec<&str> = lines.take_while(|l| !l.is_empty()).collect();
        assert!(!rows.is_empty() && rows.len() <= 10, "{table}");
        let mut visits_before = u64::MAX;
        for (i, row) in rows.iter().enumerate() {
            let fields: Vec<&str> = row.split_whitespace().collect();
            assert!(fields.len() >= 6, "{row}");
            assert_eq!(fields[0], (i + 1).to_string(), "{row}");
            let visits: u64 = fields[2].parse().expect("visits");
            assert!(visits <= visits_before, "most visited first: {table}");
            visits_before = visits;
            let win: f64 = fields[3].parse().expect("a win rate");
            assert!((0.0..=100.0).contains(&win), "{row}");
            let _lead: f64 = fields[4].parse().expect("a score lead");
            // The line starts with the candidate itself.
            assert_eq!(fields[5], fields[1], "{row}");
            assert_legal_line(&game, &fields[5..]);
        }

        // The ownership map: the board again, one symbol per point, and the
        // legend.
        let map = out
            .split_once("Ownership (who is expected to own each point at the end):\n")
            .map(|(_, rest)| rest)
            .expect("an ownership map");
        let symbols: usize = map
            .lines()
            .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| {
                l.split_whitespace()
                    .skip(1)
                    .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
                    .flat_map(|w| w.chars())
                    .filter(|c| "XxOo.".contains(*c))
                    .count()
            })
            .sum();
        assert_eq!(symbols, game.position().geometry().num_points(), "{map}");
        assert_contains(map, "X O: Black's, White's, surely (80%+)");
        assert_contains(map, "x o: likely (60%+)");
        assert_contains(map, ". unclear");
        assert_contains(map, "! a stone expected to be reversed");
    }
}

/// A game that is over is not searched: the text says so and shows the
/// final owners, stones and territory; the default position is the end.
#[test]
fn a_finished_game_shows_its_final_score() {
    let out = analyze(&[SYGO_9, "--visits", "100"]);
    assert_contains(&out, "Sygo 9x9, turn 19 of 19: White passed.\n");
    assert_contains(&out, "game over after two passes: B+2.5");
    assert_contains(
        &out,
        "The game is over: nothing to search. On the board (no komi), Black leads by 3 points.\n",
    );
    assert_contains(&out, "Final ownership (stones and territory):\n");
    assert!(!out.contains("Best turns"), "{out}");
    // Each stone is its owner's, surely.
    let map = out.split_once("Final ownership").expect("a map").1;
    let count = |c: char| {
        map.lines()
            .take(11)
            .flat_map(|l| l.chars())
            .filter(|&x| x == c)
            .count()
    };
    assert_eq!((count('X'), count('O')), (12, 9), "{map}");

    let json: Value = serde_json::from_str(&analyze(&[HEXSYGO_4, "--json"])).expect("JSON");
    assert_eq!(json["game_over"], true);
    assert_eq!(json["result"], "B+R");
    assert_eq!(json["visits"], 0);
    assert_eq!(json["candidates"].as_array().map(Vec::len), Some(0));
    assert_eq!(json["to_move"], "white");
    assert_eq!(json["win_rate"], 0.0);
}

// ------------------------------------------------------------------ JSON

#[test]
fn the_json_reads_back_with_one_owner_per_point_on_both_boards() {
    for (file, n) in [(SYGO_9, 12), (HEXSYGO_4, 5)] {
        let game = game_after(file, n);
        let pos = game.position();
        let g: Geometry = pos.geometry();
        let turn = n.to_string();
        let mut args = vec![file, "--turn", &turn, "--json"];
        args.extend_from_slice(&QUICK);
        let json: Value = serde_json::from_str(&analyze(&args)).expect("the output is JSON");

        assert_eq!(json["variant"], g.variant().name());
        assert_eq!(json["size"], g.size());
        assert_eq!(json["turn"], n);
        assert_eq!(json["game_over"], false);
        assert_eq!(json["result"], Value::Null);
        let me = match pos.side_to_move() {
            Color::Black => "black",
            Color::White => "white",
        };
        assert_eq!(json["to_move"], me);
        assert!(json["visits"].as_u64().expect("visits") >= 300);
        let win = json["win_rate"].as_f64().expect("a win rate");
        assert!((0.0..=1.0).contains(&win));
        assert!(json["score_lead"].as_f64().is_some());

        // One owner per point, named in the order of Geometry::points.
        let points: Vec<String> = g.points().map(|p| g.vertex(p).to_string()).collect();
        let named: Vec<&str> = json["points"]
            .as_array()
            .expect("points")
            .iter()
            .map(|p| p.as_str().expect("a point"))
            .collect();
        assert_eq!(named, points);
        let ownership = json["ownership"].as_array().expect("ownership");
        assert_eq!(ownership.len(), g.num_points());
        for o in ownership {
            let o = o.as_f64().expect("a number");
            assert!((-1.0..=1.0).contains(&o), "{o}");
        }

        let candidates = json["candidates"].as_array().expect("candidates");
        assert!(!candidates.is_empty());
        for c in candidates {
            let turn = c["turn"].as_str().expect("a turn");
            let pv: Vec<&str> = c["pv"]
                .as_array()
                .expect("a line")
                .iter()
                .map(|t| t.as_str().expect("a turn"))
                .collect();
            assert_eq!(pv.first(), Some(&turn));
            assert_legal_line(&game, &pv);
            assert!((0.0..=1.0).contains(&c["win_rate"].as_f64().expect("a win rate")));
            assert!(c["visits"].as_u64().is_some());
        }
    }
}

/// With one thread and a number of simulations, the same seed gives the
/// same analysis.
#[test]
fn the_same_seed_gives_the_same_analysis() {
    let run = |seed: &str| {
        let mut args = vec![SYGO_9, "--turn", "10", "--json", "--seed", seed];
        args.extend_from_slice(&QUICK);
        let mut json: Value = serde_json::from_str(&analyze(&args)).expect("JSON");
        json["seconds"] = Value::Null;
        json
    };
    assert_eq!(run("7"), run("7"));
}

/// A time limit alone: the search runs and stops.
#[test]
fn a_time_limit_alone_is_enough() {
    let out = analyze(&[HEXSYGO_4, "--turn", "3", "--time", "200", "--threads", "1"]);
    assert_contains(&out, "(AI level 6, 1 thread: ");
    assert_contains(&out, "Best turns for Black:");
}

// -------------------------------------------------------------- mistakes

/// A fresh temporary directory for one test, removed at the end.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("sygo-analyze-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }

    fn file(&self, name: &str, contents: &str) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, contents).expect("written");
        path.to_str().expect("UTF-8").to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn mistakes_get_one_line_and_an_exit_code() {
    let dir = TempDir::new("errors");
    let missing = dir.0.join("missing.sgf");
    let missing = missing.to_str().expect("UTF-8");
    assert_eq!(
        fails(&[missing], 1),
        format!("sygo: error: {missing}: no such file\n")
    );
    let illegal = dir.file("illegal.sgf", "(;GM[400]VR[hexsygo]SZ[3];W[cc];B[cc])");
    assert_eq!(
        fails(&[&illegal, "--visits", "10"], 1),
        format!(
            "sygo: error: {illegal}: node 2: Black's turn C3 is illegal: C3 is already occupied\n"
        )
    );
    let garbage = dir.file("garbage.sgf", "not a record");
    assert!(fails(&[&garbage], 1).starts_with(&format!("sygo: error: {garbage}: ")));
    assert_eq!(
        fails(&[SYGO_9, "--turn", "20", "--visits", "10"], 1),
        "sygo: error: there is no turn 20: the main line has 19 turns (0 is the start)\n"
    );
    // Usage: clap's message and exit code 2.
    for args in [
        &[][..],
        &[SYGO_9, "--level", "7"],
        &[SYGO_9, "--level", "0"],
        &[SYGO_9, "--visits", "0"],
        &[SYGO_9, "--time", "soon"],
        &[SYGO_9, "--time", "18446744073709551615"],
        &[SYGO_9, "--threads", "0"],
        &[SYGO_9, "--turn", "-1"],
        &[SYGO_9, "--colour"],
    ] {
        let stderr = fails(args, 2);
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    }
}

// ------------------------------------------------------------ the README

/// Every `sygo analyze` command in the README runs as written.
#[test]
fn the_readme_commands_run() {
    let readme = include_str!("../../../../README.md");
    let commands: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.trim_start_matches("$ ").strip_prefix("sygo analyze "))
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .collect();
    assert!(!commands.is_empty(), "the README shows sygo analyze");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    for command in commands {
        let args: Vec<String> = command
            .split_whitespace()
            .map(|a| {
                if a.starts_with("docs/") {
                    format!("{root}{a}")
                } else {
                    a.to_string()
                }
            })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = analyze(&args);
        if args.contains(&"--json") {
            serde_json::from_str::<Value>(&out).expect("JSON");
        } else {
            assert_contains(&out, "Ownership");
        }
    }
}

// --------------------------------------------------------- groups in danger

/// The first position of a record's main line with a group in danger.
fn first_danger(file: &str) -> (usize, Game) {
    let len = Record::read_file(std::path::Path::new(file))
        .expect("the example reads")
        .main_line_len();
    (0..=len)
        .map(|n| (n, game_after(file, n)))
        .find(|(_, game)| !game.position().is_over() && !game.position().dangers().is_empty())
        .expect("a position with a group in danger")
}

/// Checks that `turn`, played by the opponent of the group of `stone`,
/// reverses the group (the owner passing first when it is to move).
#[track_caller]
fn assert_reverses(game: &Game, stone: &str, turn: &str) {
    let mut pos = game.position().clone();
    let g = pos.geometry();
    let stone = g.parse_point(stone).unwrap();
    let owner = pos.stone_at(stone).expect("a stone");
    if pos.side_to_move() == owner {
        pos.set_side_to_move(owner.opponent()).unwrap();
    }
    pos.play_turn(&Turn::parse(turn, &g).unwrap())
        .unwrap_or_else(|e| panic!("{turn}: {e}"));
    assert_eq!(pos.stone_at(stone), Some(owner.opponent()), "{turn}");
}

#[test]
fn the_groups_in_danger_are_listed_and_marked_with_a_turn_that_reverses_each() {
    for file in [SYGO_9, HEXSYGO_4] {
        let (n, game) = first_danger(file);
        let g = game.position().geometry();
        let turn = n.to_string();
        let mut args = vec![file, "--turn", &turn, "--color", "never"];
        args.extend_from_slice(&QUICK);
        let text = analyze(&args);
        assert_contains(&text, "In danger (? on the board");
        let dangers = game.position().dangers();
        for d in &dangers {
            // "  White C3 (1 stone, 4 liberties: C2,B3,D3,C4): Black reverses it with D3,B3,C4,C2 (…)"
            let head = format!("  {} {} (", d.color, g.vertex(d.stones[0]));
            let line = text
                .lines()
                .find(|l| l.starts_with(&head))
                .unwrap_or_else(|| panic!("{head:?} is not in:\n{text}"));
            let turn = line
                .split(" with ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap();
            assert_reverses(&game, &g.vertex(d.stones[0]).to_string(), turn);
            // The stones are marked on the board.
            let (col, row) = g.col_row(d.stones[0]);
            if g.variant() == sygo_rules::Variant::Sygo {
                let row_line = text
                    .lines()
                    .find(|l| l.trim_start().starts_with(&format!("{} ", row + 1)))
                    .unwrap();
                let cell = &row_line[4 + 2 * usize::from(col)..][..2];
                assert_eq!(&cell[1..], "?", "{row_line}");
            }
        }
        let mut args = vec![file, "--turn", &turn, "--json"];
        args.extend_from_slice(&QUICK);
        let json: Value = serde_json::from_str(&analyze(&args)).expect("JSON");
        let listed = json["dangers"].as_array().expect("dangers");
        assert_eq!(listed.len(), dangers.len());
        for (entry, d) in listed.iter().zip(&dangers) {
            let first = entry["stones"][0].as_str().unwrap();
            assert_eq!(first, g.vertex(d.stones[0]).to_string());
            assert_eq!(entry["stones"].as_array().unwrap().len(), d.stones.len());
            assert_eq!(
                entry["color"],
                if d.color == Color::Black {
                    "black"
                } else {
                    "white"
                }
            );
            assert!(["placement", "growth", "balance"].contains(&entry["kind"].as_str().unwrap()));
            assert_reverses(&game, first, entry["turn"].as_str().unwrap());
        }
    }
    // The start of a game: nothing in danger.
    let mut args = vec![SYGO_9, "--turn", "0"];
    args.extend_from_slice(&QUICK);
    assert_contains(
        &analyze(&args),
        "In danger: no group can be reversed with one turn.",
    );
}
