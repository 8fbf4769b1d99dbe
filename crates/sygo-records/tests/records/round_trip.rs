//! Writing then reading gives back the same record and the identical game,
//! on random games of both boards: empty and set-up starts, passes,
//! resignations, game information with awkward text, comments, properties
//! this format does not interpret, nodes without a turn, a turn in the root,
//! and variations (nested, some ending in a finished game).

use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};
use sygo_records::{GameInfo, Node, Play, Property, Record, Tree};
use sygo_rules::{Color, Game, Geometry, Point, Position, Turn};

/// Cases per board kind.
const CASES: u32 = 300;

/// Text with the characters SGF must escape or keep: brackets, backslashes,
/// colons, newlines, parentheses, semicolons, non-ASCII.
fn text(rng: &mut impl Rng) -> String {
    const PIECES: &[&str] = &[
        "a", "Ann", " ", "]", "[", "\\", ":", "\n", "\r\n", "(", ")", ";", "é", "囲碁", "B+R",
        "\t", "\\]", "x",
    ];
    let len = rng.random_range(0..8);
    (0..len)
        .map(|_| PIECES[rng.random_range(0..PIECES.len())])
        .collect()
}

fn maybe_text(rng: &mut impl Rng) -> Option<String> {
    rng.random_bool(0.5).then(|| text(rng))
}

/// A random turn for the side to move: mostly the random player's stones,
/// sometimes a pass.
fn random_turn(position: &Position, rng: &mut impl Rng) -> Turn {
    let stones = position.random_turn_stones(rng);
    if stones.is_empty() || rng.random_bool(0.08) {
        Turn::Pass
    } else {
        Turn::Stones(stones)
    }
}

/// The start: the empty board, or a position set up from a random game's
/// stones, with either side to move and either balance state.
fn random_start(g: Geometry, rng: &mut impl Rng) -> Position {
    if rng.random_bool(0.5) {
        return Position::new(g);
    }
    let mut played = Position::new(g);
    for _ in 0..rng.random_range(1..12) {
        if played.is_over() {
            break;
        }
        played.play_random_turn(rng);
    }
    let stones: Vec<(Point, Color)> = played.stones().collect();
    let side = if rng.random_bool(0.5) {
        Color::Black
    } else {
        Color::White
    };
    Position::from_parts(g, &stones, side, rng.random_bool(0.5), 0, None).unwrap()
}

/// A random game from the start, ending anywhere, perhaps in a resignation
/// or two passes.
fn random_game(start: Position, rng: &mut impl Rng) -> Game {
    let mut game = Game::new(start);
    let turns = rng.random_range(0..60);
    for _ in 0..turns {
        if game.position().is_over() {
            break;
        }
        let turn = random_turn(game.position(), rng);
        game.play(turn).unwrap();
    }
    if !game.position().is_over() && rng.random_bool(0.2) {
        game.play(Turn::Resign).unwrap();
    }
    game
}

fn random_info(rng: &mut impl Rng) -> GameInfo {
    const KOMI: &[f64] = &[0.0, 0.5, 6.5, -3.0, 7.25, 0.001, 1e12];
    const RESULTS: &[&str] = &["B+T", "W+F", "Void", "?", "0"];
    GameInfo {
        black: maybe_text(rng),
        white: maybe_text(rng),
        date: rng.random_bool(0.5).then(|| "2025-06-01".to_string()),
        result: rng
            .random_bool(0.3)
            .then(|| RESULTS[rng.random_range(0..RESULTS.len())].to_string()),
        komi: KOMI[rng.random_range(0..KOMI.len())],
    }
}

/// Properties this format keeps without reading them: its own unknown ones
/// and general SGF ones (`N`, a node name).
fn random_properties(rng: &mut impl Rng) -> Vec<Property> {
    let mut properties = Vec::new();
    if rng.random_bool(0.2) {
        properties.push(Property::new("N", &text(rng)));
    }
    if rng.random_bool(0.2) {
        let values = (0..rng.random_range(1..4)).map(|_| text(rng)).collect();
        properties.push(Property {
            identifier: "ZQ".to_string(),
            values,
        });
    }
    properties
}

/// Gives nodes comments and properties, and sometimes adds a node with no
/// turn after one.
fn decorate(nodes: &mut Vec<Node>, rng: &mut impl Rng) {
    for node in nodes.iter_mut() {
        if rng.random_bool(0.2) {
            node.comment = Some(text(rng));
        }
        node.properties.extend(random_properties(rng));
    }
    if !nodes.is_empty() && rng.random_bool(0.1) {
        let at = rng.random_range(1..=nodes.len());
        nodes.insert(
            at,
            Node {
                comment: Some(text(rng)),
                ..Node::default()
            },
        );
    }
}

/// A short line of play from a position: random turns, each in a node.
fn random_line(mut position: Position, rng: &mut impl Rng) -> Vec<Node> {
    let mut nodes = Vec::new();
    for _ in 0..rng.random_range(1..6) {
        if position.is_over() {
            break;
        }
        let color = position.side_to_move();
        let turn = random_turn(&position, rng);
        position.play_turn(&turn).unwrap();
        nodes.push(Node::with_play(Play::from_turn(color, &turn).unwrap()));
    }
    if nodes.is_empty() {
        // After the end of a game: a node with a comment and no turn.
        nodes.push(Node {
            comment: Some(text(rng)),
            ..Node::default()
        });
    }
    decorate(&mut nodes, rng);
    nodes
}

/// Splits a sequence that starts from `position` at a random node and adds
/// other lines there, the original continuation first; again further down,
/// while `depth` lasts.
fn branch(tree: Tree, position: &Position, rng: &mut impl Rng, depth: u32) -> Tree {
    let Tree { mut nodes, .. } = tree;
    if depth == 0 || nodes.len() < 2 || rng.random_bool(0.3) {
        return Tree {
            nodes,
            variations: Vec::new(),
        };
    }
    let at = rng.random_range(1..nodes.len());
    let rest = nodes.split_off(at);
    let mut there = position.clone();
    for node in &nodes {
        if let Some(play) = &node.play {
            there.play_turn(&play.turn()).unwrap();
        }
    }
    let mut variations = vec![branch(
        Tree {
            nodes: rest,
            variations: Vec::new(),
        },
        &there,
        rng,
        depth - 1,
    )];
    for _ in 0..rng.random_range(1..3) {
        variations.push(Tree {
            nodes: random_line(there.clone(), rng),
            variations: Vec::new(),
        });
    }
    Tree { nodes, variations }
}

/// One case: a random game, its record decorated, written and read back.
fn round_trip(g: Geometry, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let start = random_start(g, &mut rng);
    let game = random_game(start, &mut rng);
    let info = random_info(&mut rng);

    // The game alone: written and read, the identical game.
    let plain = Record::from_game(&game, info.clone());
    let read = Record::parse(&plain.to_sgf())
        .map_err(|e| TestCaseError::fail(format!("{e}\n{}", plain.to_sgf())))?;
    prop_assert_eq!(&read, &plain);
    let replayed = read.main_line();
    prop_assert_eq!(replayed.start(), game.start());
    prop_assert_eq!(replayed.turns(), game.turns());
    prop_assert_eq!(replayed.position(), game.position());

    // Decorated: comments, kept properties, variations, perhaps a turn in
    // the root.
    let (info, start, mut tree) = plain.into_parts();
    tree.nodes[0].properties = random_properties(&mut rng);
    tree.nodes[0].comment = maybe_text(&mut rng);
    let empty_start = start == Position::new(g);
    if empty_start && tree.nodes.len() > 1 && rng.random_bool(0.3) {
        let first = tree.nodes.remove(1);
        tree.nodes[0].play = first.play;
    }
    let mut rest = tree.nodes.split_off(1);
    decorate(&mut rest, &mut rng);
    tree.nodes.append(&mut rest);
    let tree = branch(tree, &start, &mut rng, 3);
    let record = Record::new(info, start, tree).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let text = record.to_sgf();
    let read = Record::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert_eq!(&read, &record, "{}", text);
    prop_assert_eq!(read.to_sgf(), text);
    let replayed = read.main_line();
    prop_assert_eq!(replayed.turns(), game.turns());
    prop_assert_eq!(replayed.position(), game.position());
    Ok(())
}

fn run(geometry: impl Strategy<Value = Geometry>) {
    let config = ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let mut runner = TestRunner::new(config);
    if let Err(e) = runner.run(&(geometry, any::<u64>()), |(g, seed)| round_trip(g, seed)) {
        panic!("{e}");
    }
}

#[test]
fn square_board_records_round_trip() {
    run(prop_oneof![
        4 => (3u8..=9).prop_map(|n| Geometry::sygo(n).unwrap()),
        1 => (10u8..=25).prop_map(|n| Geometry::sygo(n).unwrap()),
    ]);
}

#[test]
fn hex_board_records_round_trip() {
    run(prop_oneof![
        4 => (2u8..=5).prop_map(|n| Geometry::hexsygo(n).unwrap()),
        1 => (6u8..=13).prop_map(|n| Geometry::hexsygo(n).unwrap()),
    ]);
}
