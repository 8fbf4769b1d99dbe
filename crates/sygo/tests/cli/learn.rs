//! `sygo learn` as a user meets it: the real binary fitting step weights to
//! the example records, the weights it writes read back by the AI's own
//! reader, and mistakes (records of two board families, a corrupt record)
//! answered with one line, an exit code and no file.

use std::fs;
use std::process::Command;

use sygo_ai::knowledge::Weights;
use sygo_rules::Variant;

const SYGO_9: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/examples/sygo-9.sgf"
);
const HEXSYGO_4: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/examples/hexsygo-4.sgf"
);

fn learn(args: &[&str]) -> (String, String, Option<i32>) {
    let output = Command::new(env!("CARGO_BIN_EXE_sygo"))
        .arg("learn")
        .args(args)
        .output()
        .expect("the sygo binary runs");
    let stderr = String::from_utf8(output.stderr).expect("UTF-8 errors");
    assert!(!stderr.contains("panicked"), "{stderr}");
    (
        String::from_utf8(output.stdout).expect("UTF-8 output"),
        stderr,
        output.status.code(),
    )
}

/// The mean log-likelihood on a line of the report.
fn log_likelihood(line: &str) -> f64 {
    line.split("log-likelihood ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("no log-likelihood in {line:?}"))
}

#[test]
fn the_fit_explains_the_records_better_than_even_weights() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("weights.txt");
    let out_arg = out.to_str().unwrap();
    for (record, variant) in [(SYGO_9, Variant::Sygo), (HEXSYGO_4, Variant::Hexsygo)] {
        let (stdout, stderr, code) = learn(&[
            record,
            "--skip",
            "0",
            "--holdout",
            "0",
            "--rounds",
            "8",
            "--out",
            out_arg,
        ]);
        assert_eq!(code, Some(0), "{stderr}");
        let lines: Vec<&str> = stdout.lines().collect();
        let even = log_likelihood(lines[0]);
        let fitted = log_likelihood(
            lines
                .iter()
                .find(|l| l.starts_with("round 8:"))
                .expect("round 8 reported"),
        );
        assert!(fitted > even + 0.1, "{stdout}");
        let weights = Weights::parse(&fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(weights.variant(), variant);
        assert_ne!(weights, Weights::even(variant));
    }
}

#[test]
fn mistakes_get_one_line_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("weights.txt");
    let corrupt = dir.path().join("corrupt.sgf");
    fs::write(&corrupt, "(;FF[4]GM[400]SZ[9];B[zz").unwrap();
    for args in [
        vec![SYGO_9, HEXSYGO_4],
        vec![corrupt.to_str().unwrap()],
        vec![dir.path().join("missing.sgf").to_str().unwrap()],
    ] {
        let mut all = args.clone();
        all.extend(["--out", out.to_str().unwrap()]);
        let (_, stderr, code) = learn(&all);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
        assert!(!out.exists(), "{args:?}");
    }
}
