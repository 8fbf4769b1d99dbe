//! `sygo bench` as a user meets it: the real binary, its summary and its
//! machine-readable last line.

use std::collections::BTreeMap;
use std::process::Command;

/// Runs `sygo bench` with the arguments; returns the fields of the last line
/// and the whole output.
fn bench(args: &[&str]) -> (BTreeMap<String, f64>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_sygo"))
        .arg("bench")
        .args(args)
        .output()
        .expect("the sygo binary runs");
    assert!(output.status.success(), "sygo bench {args:?}: {output:?}");
    let text = String::from_utf8(output.stdout).expect("UTF-8 output");
    let last = text.lines().last().expect("some output");
    let fields: BTreeMap<String, f64> = last
        .split(' ')
        .map(|field| {
            let (key, value) = field
                .split_once('=')
                .unwrap_or_else(|| panic!("key=value: {field:?} in {last:?}"));
            let value = value
                .parse()
                .unwrap_or_else(|_| panic!("a number: {field:?} in {last:?}"));
            (key.to_string(), value)
        })
        .collect();
    let keys: Vec<&str> = fields.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["games", "seconds", "steps", "steps_per_second", "turns"],
        "{last}"
    );
    (fields, text)
}

#[test]
fn a_seed_and_a_number_of_games_give_the_same_counts() {
    let (first, text) = bench(&["--games", "20", "--seed", "3"]);
    let (second, _) = bench(&["--games", "20", "--seed", "3"]);
    for key in ["steps", "turns", "games"] {
        assert_eq!(first[key], second[key], "{key}");
    }
    assert_eq!(first["games"], 20.0);
    // Random games fill most of the 19×19 board.
    assert!(first["steps"] > 20.0 * 300.0, "{text}");
    assert!(first["turns"] > 20.0 * 20.0, "{text}");
    assert!(first["seconds"] > 0.0 && first["steps_per_second"] > 0.0);
    assert!(
        text.starts_with("sygo 19: 20 random games (seed 3)"),
        "{text}"
    );
}

#[test]
fn the_hex_board_and_a_time_budget_work_too() {
    let (fields, text) = bench(&["--variant", "hexsygo", "--size", "5", "--seconds", "0.2"]);
    assert!(fields["games"] >= 1.0, "{text}");
    assert!(fields["seconds"] >= 0.2, "{text}");
    assert!(text.starts_with("hexsygo 5: "), "{text}");
    // Every random game on base 5 (61 cells) puts stones on most cells.
    assert!(fields["steps"] >= fields["games"] * 30.0, "{text}");
}

#[test]
fn bad_options_exit_with_code_2() {
    for args in [
        &["--games", "5", "--seconds", "1"][..],
        &["--size", "2"],
        &["--variant", "hexsygo", "--size", "14"],
        &["--seconds", "nan"],
        &["--games", "-1"],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_sygo"))
            .arg("bench")
            .args(args)
            .output()
            .expect("the sygo binary runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty());
    }
}
