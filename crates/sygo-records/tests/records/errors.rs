//! Malformed and illegal records, each refused whole with its precise
//! error: the stage, the node and the reason. Forgiving reading where SGF
//! allows it.

use sygo_records::{FormatError, IllegalError, PointError, Record, RecordError, SyntaxError};
use sygo_rules::{Color, Geometry, StepError, TurnError};

/// A 9×9 record with these nodes after the root.
fn sygo9(nodes: &str) -> String {
    format!("(;FF[4]GM[400]VR[sygo]SZ[9]{nodes})")
}

#[track_caller]
fn refused(text: &str, message: &str) -> RecordError {
    let error = Record::parse(text).expect_err(text);
    assert_eq!(error.to_string(), message, "{text}");
    error
}

#[test]
fn truncated_files_are_refused() {
    let whole = sygo9(";W[ee];B[cg];W[gc]");
    // Cut anywhere after the opening, the text is truncated (or, cut just
    // after a complete node, lacks its closing parenthesis).
    for end in 2..whole.len() - 1 {
        let error = Record::parse(&whole[..end]).expect_err(&whole[..end]);
        assert_eq!(
            error,
            RecordError::Syntax(SyntaxError::Truncated),
            "{}",
            &whole[..end]
        );
    }
    refused(
        &sygo9(";W[ee];B[cg"),
        "not an SGF file: the text ends inside a property value or before the game tree is closed: \
         the file looks truncated",
    );
    refused(
        "",
        "not an SGF file: no game tree: an SGF record starts with (;",
    );
    refused(
        "(;GM[400]VR[sygo]))",
        "not an SGF file: a ) closes a game tree that was never opened",
    );
}

#[test]
fn wrong_coordinates_are_refused_with_the_node() {
    let error = refused(
        &sygo9(";W[ee];B[jj]"),
        "node 2: B: jj is not a point of the sygo 9 board",
    );
    assert_eq!(
        error,
        RecordError::Format {
            node: 2,
            error: FormatError::Point {
                property: "B".to_string(),
                error: PointError::OffBoard {
                    value: "jj".to_string(),
                    geometry: Geometry::sygo(9).unwrap()
                }
            }
        }
    );
    refused(
        &sygo9(";W[E5]"),
        "node 1: W: \"E5\" is not a point: write two lower-case letters, the column from the left \
         and the row from the top (aa is the top left corner)",
    );
    // The corners of the bounding square are not cells of the hexagon.
    refused(
        "(;GM[400]VR[hexsygo]SZ[4];W[dd];B[aa])",
        "node 2: B: aa is not a point of the hexsygo 4 board",
    );
    refused(
        "(;GM[400]VR[hexsygo]SZ[4]AB[dd:gg])",
        "node 0: AB: \"dd:gg\" is not a rectangle of points of the board: write its top left and \
         bottom right corners, like aa:cc",
    );
}

#[test]
fn an_illegal_turn_is_refused_with_its_node_and_the_rules_reason() {
    let error = refused(
        &sygo9(";W[ee];B[cg];W[ed][ec]"),
        "node 3: White's turn E6,E7 is illegal: E7 touches only stones played this turn \
         (such as E6): a growth stone must touch a group you had when the turn began",
    );
    let RecordError::Illegal {
        node: 3,
        error: IllegalError::Turn { color, turn, error },
    } = error
    else {
        panic!("{error:?}");
    };
    assert_eq!((color, turn.as_str()), (Color::White, "E6,E7"));
    assert!(matches!(
        error,
        TurnError::Step {
            index: 1,
            error: StepError::OnlyNewStones { .. }
        }
    ));
    // In a variation, numbered in the order written.
    refused(
        &sygo9(";W[ee](;B[cg];W[gc])(;B[ee])"),
        "node 4: Black's turn E5 is illegal: E5 is already occupied",
    );
    refused(
        &sygo9(";W[ee];B[];W[];B[cg]"),
        "node 4: Black's turn C3 is illegal: the game is over",
    );
    refused(
        &sygo9(";W[ee];B[cg];W[ed];B[cf][eg]"),
        "node 4: Black's turn C4,E3 is illegal: E3 touches none of your stones, so it would be a \
         placement, and the balance turn is gone: a growth turn has already been played",
    );
}

#[test]
fn two_moves_by_the_same_colour_are_refused() {
    let error = refused(
        &sygo9(";W[ee];W[cg]"),
        "node 2: White moves twice in a row: turns alternate, passes included",
    );
    assert_eq!(
        error,
        RecordError::Illegal {
            node: 2,
            error: IllegalError::SameColorTwice {
                color: Color::White
            }
        }
    );
    // A pass is a turn: after B[] it is White's turn again.
    refused(
        &sygo9(";W[ee];B[];B[cg]"),
        "node 3: Black moves twice in a row: turns alternate, passes included",
    );
    refused(
        &sygo9(";B[ee]"),
        "node 1: Black moves, but it is White's turn \
         (White moves first unless the root's PL says otherwise)",
    );
    Record::parse("(;GM[400]VR[sygo]SZ[9]PL[B];B[ee])").unwrap();
}

#[test]
fn bad_sizes_variants_and_games_are_refused() {
    refused(
        "(;GM[400]VR[sygo]SZ[26])",
        "node 0: SZ[26]: sygo cannot be played at size 26: sizes run from 3 to 25",
    );
    refused(
        "(;GM[400]VR[hexsygo]SZ[14])",
        "node 0: SZ[14]: hexsygo cannot be played at size 14: sizes run from 2 to 13",
    );
    refused(
        "(;GM[400]VR[sygo]SZ[9:13])",
        "node 0: SZ[9:13]: boards are square: write one size (for hexsygo, the base)",
    );
    refused(
        "(;GM[400]VR[sygo]SZ[nine])",
        "node 0: SZ[nine]: the size is a whole number: N for an N×N sygo board (3–25), \
         the base for hexsygo (2–13)",
    );
    refused(
        "(;GM[400]VR[go]SZ[9])",
        "node 0: VR[go]: write VR[sygo] or VR[hexsygo]",
    );
    refused(
        "(;GM[400]SZ[9])",
        "node 0: no VR property in the root: say which game it is, VR[sygo] or VR[hexsygo]",
    );
    refused(
        "(;FF[4]SZ[9];B[dd])",
        "node 0: no GM property, which in SGF means a game of Go: a Sygo record says GM[400]",
    );
    refused(
        "(;GM[1]SZ[19];B[dd])",
        "node 0: GM[1] is not a Sygo record, which says GM[400] (GM[1] is Go)",
    );
    refused(
        "(;GM[11]SZ[11])",
        "node 0: GM[11] is not a Sygo record, which says GM[400] (GM[1] is Go)",
    );
    refused(
        "(;GM[400]VR[sygo])(;GM[400]VR[sygo])",
        "the file holds 2 games: a record holds one game tree",
    );
    refused(
        "(;FF[3]GM[400]VR[sygo])",
        "node 0: FF[3]: records are SGF FF[4] (or say nothing)",
    );
    refused(
        "(;GM[400]VR[sygo]KM[lots])",
        "node 0: KM[lots]: komi is a decimal number of at most 1000 either way, like 0 or 6.5",
    );
}

#[test]
fn misplaced_and_repeated_properties_are_refused() {
    refused(
        &sygo9(";W[ee];AB[aa]"),
        "node 2: AB: setup belongs in the root node: a record's setup is its starting position",
    );
    refused(
        &sygo9(";W[ee]SZ[5]"),
        "node 1: SZ: this property belongs in the root node",
    );
    refused(
        &sygo9(";W[ee];AE[ee]"),
        "node 2: AE: stones are never removed in Sygo: no point is ever emptied",
    );
    refused(
        &sygo9(";W[ee]B[cg]"),
        "node 1: B and W in one node: a node holds one turn of one player",
    );
    refused(
        &sygo9(";W[ee]W[cg]"),
        "node 1: W is given twice in one node: give all its values in one property",
    );
    refused(
        "(;GM[400]VR[sygo]SZ[9]AB[aa]B[cc])",
        "node 0: setup (AB, AW, PL, GS) and a turn (B, W) in one node: SGF keeps them in \
         separate nodes",
    );
    refused(
        &sygo9(";W[ee][]"),
        "node 1: W[ee][]: an empty value among the stones: W[] alone is a pass",
    );
    refused(
        &sygo9(";w[ee]"),
        "node 1: a property identifier without a capital letter: identifiers are upper case \
         (SGF ignores lower-case letters in them)",
    );
}

#[test]
fn setups_and_resignations_are_checked_against_the_rules() {
    refused(
        "(;GM[400]VR[sygo]SZ[5]AB[aa]AW[ab][ba])",
        "node 0: the setup is not a position: the group at A5 would have no liberties",
    );
    refused(
        "(;GM[400]VR[sygo]SZ[5]AB[aa]AW[aa])",
        "node 0: the setup is not a position: A5 is already occupied",
    );
    refused(
        &sygo9("RE[W+Resign];W[ee];B[];W[]"),
        "node 0: RE[W+Resign]: says Black resigned, but the main line ends with the game over \
         by two passes",
    );
    // Black is to move after White's E5: Black resigned.
    let record = Record::parse(&sygo9("RE[W+R];W[ee]")).unwrap();
    assert_eq!(record.main_line().position().resigned(), Some(Color::Black));
    // A player may resign out of turn: White, after E5, while Black is to move.
    let record = Record::parse(&sygo9("RE[B+R];W[ee]")).unwrap();
    let game = record.main_line();
    assert_eq!(game.position().resigned(), Some(Color::White));
    assert_eq!(
        game.turns_with_colors().last().map(|(c, _)| c),
        Some(Color::White)
    );
    assert_eq!(
        Record::from_game(&game, record.info().clone())
            .info()
            .result
            .as_deref(),
        Some("B+R")
    );
}

#[test]
fn reading_forgives_what_sgf_forgives() {
    // Text before the game, whitespace everywhere, FF[3]-style identifiers
    // with lower-case letters, a point list as a rectangle, a turn in the
    // root, values around which there are spaces.
    let text = "Saved by hand.\n\n  ( ; GM[400] VaRiant[sygo]\n SiZe [5]\tAddBlack[aa:bb]\n\
                AddWhite[ee] PLayer[W]\n ; White [ cc ]\r\n ;Black[]\n)\n";
    let record = Record::parse(text).unwrap();
    assert_eq!(record.start().stone_count(Color::Black), 4);
    assert_eq!(record.main_line_len(), 2);
    // Unknown properties are kept and written back.
    let text = "(;GM[400]VR[sygo]SZ[5]AP[Other:1.0]XY[a\\]b][c]\n;W[cc]N[first]TR[bb][aa])";
    let record = Record::parse(text).unwrap();
    let written = record.to_sgf();
    assert!(written.contains("AP[Other:1.0]XY[a\\]b][c]"), "{written}");
    assert!(written.contains(";W[cc]N[first]TR[aa][bb]"), "{written}");
    assert_eq!(Record::parse(&written).unwrap(), record);
}

#[test]
fn files_are_read_whole_or_refused_with_their_path() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/examples");
    let record = Record::read_file(format!("{examples}/sygo-9.sgf")).unwrap();
    assert_eq!(record.main_line_len(), 19);
    let missing = format!("{examples}/missing.sgf");
    assert_eq!(
        Record::read_file(&missing).unwrap_err().to_string(),
        format!("{missing}: no such file")
    );
    assert_eq!(
        Record::read_file(examples).unwrap_err().to_string(),
        format!("{examples}: a directory, not a file")
    );
    let dir = std::env::temp_dir().join(format!("sygo-records-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join("binary.sgf");
    std::fs::write(&binary, b"(;GM[400]VR[sygo]C[\xff])").unwrap();
    assert_eq!(
        Record::read_file(&binary).unwrap_err().to_string(),
        format!("{}: not UTF-8 text, so not a record", binary.display())
    );
    let illegal = dir.join("illegal.sgf");
    std::fs::write(&illegal, sygo9(";W[ee];W[cg]")).unwrap();
    assert_eq!(
        Record::read_file(&illegal).unwrap_err().to_string(),
        format!(
            "{}: node 2: White moves twice in a row: turns alternate, passes included",
            illegal.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_record_overflows_the_stack_or_is_read_past_its_bounds() {
    // The SGF reader holds a sequence as nested nodes: freed recursively
    // (after a bad node, for a collection, a game of Go, a misplaced
    // property), a long one overflowed the stack and aborted the program.
    // Read on a thread with a small stack, as a server's may be.
    let head = "(;FF[4]GM[400]VR[sygo]SZ[5]";
    let long = ";".repeat(300_000);
    let refused = [
        format!("{head};B[zz]{long})"),
        format!("{head}{long}){head})"),
        format!("(;FF[4]GM[1]SZ[5]{long})"),
        format!("{head}{long}C[x](C[y]))"),
        format!("{head}{})", "(;C[x]".repeat(1_001) + &")".repeat(1_001)),
        format!("{head}{})", ";".repeat(1_000_000)),
    ];
    let nested = format!("{head}{})", "(;C[y])(;C[x]".repeat(999) + &")".repeat(999));
    let read = [format!("{head}{long})"), nested];
    let errors = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            for text in &read {
                let record = Record::parse(text).unwrap();
                assert!(record.tree().node_count() > 1_000);
            }
            refused
                .iter()
                .map(|text| Record::parse(text).unwrap_err().to_string())
                .collect::<Vec<String>>()
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(errors[0].starts_with("node 1: "), "{}", errors[0]);
    assert_eq!(
        errors[1],
        "the file holds 2 games: a record holds one game tree"
    );
    assert!(errors[2].starts_with("node 0: "), "{}", errors[2]);
    assert!(errors[3].starts_with("not an SGF file: "), "{}", errors[3]);
    assert_eq!(
        errors[4],
        "variations nested 1002 deep: a record's variations nest at most 1000 deep"
    );
    assert_eq!(
        errors[5],
        "1000001 nodes: a record here holds at most 1000000"
    );
    // A bound of one's own, checked before reading.
    assert_eq!(
        Record::parse_at_most(&format!("{head};;)"), 2)
            .unwrap_err()
            .to_string(),
        "3 nodes: a record here holds at most 2"
    );
}

#[test]
fn a_komi_beyond_a_thousand_either_way_is_refused() {
    for km in ["-1e300", "1000.5", "-1001", "NaN", "inf"] {
        let error = Record::parse(&format!("(;FF[4]GM[400]VR[sygo]SZ[5]KM[{km}])"))
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            format!(
                "node 0: KM[{km}]: komi is a decimal number of at most 1000 either way, like 0 or 6.5"
            )
        );
    }
    for km in ["-1000", "1000", "6.5"] {
        Record::parse(&format!("(;FF[4]GM[400]VR[sygo]SZ[5]KM[{km}])")).unwrap();
    }
}
