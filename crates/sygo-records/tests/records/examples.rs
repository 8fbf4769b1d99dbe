//! The example records of `docs/examples/` and `docs/records.md`: they load,
//! replay to the positions their comments describe, and are written back
//! exactly as they are stored.

use sygo_records::{Node, Record};
use sygo_rules::{Color, Geometry, Turn, Variant};

const SYGO_9: &str = include_str!("../../../../docs/examples/sygo-9.sgf");
const HEXSYGO_4: &str = include_str!("../../../../docs/examples/hexsygo-4.sgf");
const DOCS: &str = include_str!("../../../../docs/records.md");

/// The text of the first ```sgf block after a heading of the docs.
fn docs_example(heading: &str) -> &'static str {
    let section = &DOCS[DOCS.find(heading).unwrap_or_else(|| panic!("{heading}"))..];
    let start = section.find("```sgf\n").expect("an sgf block") + "```sgf\n".len();
    let end = start + section[start..].find("```").expect("its end");
    &section[start..end]
}

#[test]
fn the_square_example_loads_and_replays() {
    let record = Record::parse(SYGO_9).unwrap();
    assert_eq!(record.to_sgf(), SYGO_9, "written back as stored");
    let info = record.info();
    assert_eq!(info.black.as_deref(), Some("Ann"));
    assert_eq!(info.white.as_deref(), Some("Bob"));
    assert_eq!(info.date.as_deref(), Some("2025-06-01"));
    assert_eq!(info.result.as_deref(), Some("B+2.5"));
    assert_eq!(info.komi, 0.5);
    assert_eq!(record.start().geometry(), Geometry::sygo(9).unwrap());

    let game = record.main_line();
    let g = game.position().geometry();
    assert_eq!(game.turns().len(), 19);
    assert_eq!(game.turns()[3], Turn::parse("A4,C1", &g).unwrap());
    // The capture at turn 8 reversed White's A1.
    let after_capture = record.game_after(8);
    let a1 = g.parse_point("A1").unwrap();
    assert_eq!(after_capture.position().stone_at(a1), Some(Color::Black));
    assert!(game.position().is_over());
    assert_eq!(
        game.position().score().result_with_komi(info.komi),
        info.result.clone().unwrap()
    );
    // One variation at turn 10, with its comment.
    assert_eq!(record.tree().variations.len(), 2);
    let alternative: &Node = &record.tree().variations[1].nodes[0];
    assert_eq!(alternative.comment.as_deref(), Some("A quieter move: D4."));
}

#[test]
fn the_hex_example_loads_and_ends_in_a_resignation() {
    let record = Record::parse(HEXSYGO_4).unwrap();
    assert_eq!(record.to_sgf(), HEXSYGO_4, "written back as stored");
    assert_eq!(record.start().geometry().variant(), Variant::Hexsygo);
    assert_eq!(record.start().geometry().size(), 4);
    let game = record.main_line();
    assert_eq!(game.turns().last(), Some(&Turn::Resign));
    assert_eq!(game.position().resigned(), Some(Color::White));
    assert_eq!(game.position().outcome().unwrap().to_string(), "B+R");
    let turns = record.main_line_turns();
    assert_eq!(turns.len(), 15);
    assert!(turns[14].node.is_none(), "a resignation has no node");
    let g = game.position().geometry();
    assert_eq!(
        game.turns()[7],
        Turn::parse("A2,B1,B2", &g).unwrap(),
        "a three-stone growth turn"
    );
    let a1 = g.parse_point("A1").unwrap();
    assert_eq!(game.position().stone_at(a1), Some(Color::Black));
}

#[test]
fn the_docs_show_the_example_files_as_they_are() {
    assert_eq!(docs_example("## Example: Sygo 9×9"), SYGO_9);
    assert_eq!(docs_example("## Example: Hexsygo of base 4"), HEXSYGO_4);
}

#[test]
fn the_smaller_examples_of_the_docs_load() {
    for heading in [
        "### A setup position",
        "### Forgiving reading",
        "## The smallest record",
    ] {
        let text = docs_example(heading);
        Record::parse(text).unwrap_or_else(|e| panic!("{heading}: {e}"));
    }
}
