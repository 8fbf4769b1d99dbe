//! `sygo solve` as a user runs it: the value, the line, the nodes and the
//! time printed, the line written as a record that reads back to the value,
//! with and without the balance turn, and a bad size refused.

use std::process::Command;

use sygo_records::Record;

fn sygo(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sygo"))
        .args(args)
        .output()
        .expect("sygo runs");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn sygo_3_is_solved_and_its_line_written_as_a_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("line.sgf");
    let (ok, out, err) = sygo(&["solve", "--size", "3", "--sgf", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("sygo 3, with the balance turn (start: sygo 3 3/3/3 w - 0)\n"),
        "{out}"
    );
    assert!(out.contains("\nvalue: White wins by 9\n"), "{out}");
    assert!(
        out.contains("\nnodes: ") && out.contains("\ntime: "),
        "{out}"
    );
    let record = Record::read_file(&path).unwrap();
    let end = record.main_line();
    assert!(end.position().is_over());
    assert_eq!(record.info().result.as_deref(), Some("W+9"));
}

#[test]
fn without_the_balance_turn_the_start_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("line.sgf");
    let args = [
        "solve",
        "--variant",
        "hexsygo",
        "--size",
        "2",
        "--no-balance",
    ];
    let (ok, out, err) = sygo(&[&args[..], &["--sgf", path.to_str().unwrap()]].concat());
    assert!(ok, "{err}");
    assert!(
        out.contains("without the balance turn (start: hexsygo 2 2/3/2 w g 0)"),
        "{out}"
    );
    assert!(out.contains("\nvalue: White wins by 7\n"), "{out}");
    let record = Record::read_file(&path).unwrap();
    assert!(record.main_line().start().growth_started());
}

#[test]
fn a_size_off_the_rules_is_refused() {
    let (ok, _, err) = sygo(&["solve", "--size", "2"]);
    assert!(!ok);
    assert!(err.contains("sygo: error:"), "{err}");
}
