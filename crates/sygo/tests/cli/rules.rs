//! `sygo rules` as a user runs it: the binary as a subprocess, its page read
//! as printed. The example's board is the rules library's own drawing of the
//! position, its refusal the library's reason, its capture the library's
//! result; `sygo play --help` and `play`'s `help` point to it.

use std::process::{Command, Output};

use sygo_rules::{Position, Turn};

fn sygo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sygo"))
        .args(args)
        .output()
        .expect("the sygo binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

/// The diagram as the page indents it.
fn indented(pos: &Position) -> String {
    pos.diagram().lines().map(|l| format!("  {l}\n")).collect()
}

#[test]
fn the_rules_page_explains_each_rule_with_an_example() {
    let output = sygo(&["rules"]);
    assert!(output.status.success(), "{output:?}");
    assert!(output.stderr.is_empty());
    let page = stdout(&output);
    assert!(page.starts_with("How to play Sygo and Hexsygo\n"));
    for words in [
        "White moves first",
        "place  one stone on a vacant point that touches none of your stones",
        "grow   any or all of your groups",
        "No\n         group grows twice in a turn",
        "pass   (always allowed",
        "Capture: a group left without liberties is reversed",
        "Suicide:",
        "The balance turn:",
        "two passes in a row",
        "There is no komi",
        "/learn",
        "sygo play",
    ] {
        assert!(page.contains(words), "{words:?} missing from:\n{page}");
    }
    // The example, as the rules library draws and plays it.
    let start: Position = "sygo 5 3BB/4W/4W/3BB/5 b g 0".parse().unwrap();
    assert!(page.contains(&indented(&start)), "{page}");
    let g = start.geometry();
    let refusal = start
        .clone()
        .play_turn(&Turn::parse("D4,C5", &g).unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        page.contains(&format!("Black D4,C5: refused: \"{refusal}\".")),
        "{page}"
    );
    assert!(page.contains("C5 would grow the group at D5 a second time this turn"));
    let mut after = start.clone();
    after.play_turn(&Turn::parse("D4,D3", &g).unwrap()).unwrap();
    assert!(page.contains(&indented(&after)), "{page}");
    assert!(
        page.contains("  4 . . . X X 4"),
        "E4 drawn Black after the capture"
    );
    // A page of a terminal: no line wider than 80 columns, about a screenful.
    for line in page.lines() {
        assert!(line.chars().count() <= 80, "too wide: {line:?}");
    }
    assert!(page.lines().count() <= 80, "{} lines", page.lines().count());
}

#[test]
fn play_and_help_point_to_the_rules() {
    let help = sygo(&["play", "--help"]);
    assert!(help.status.success());
    assert!(stdout(&help).contains("`sygo rules` explains the game"));
    let list = sygo(&["--help"]);
    assert!(stdout(&list).contains("rules"), "sygo --help lists rules");
    // Arguments are refused, with clap's exit code for bad arguments.
    let bad = sygo(&["rules", "extra"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("extra"));
}
