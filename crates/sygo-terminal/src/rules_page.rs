//! The page of `sygo rules`: how to play, in a page of plain words (docs/rules.md is the
//! precise text, which the page does not replace), with an example position whose refusal and capture are
//! played by the rules library itself, so that the page cannot say what the
//! rules do not do.

use sygo_rules::{Position, Turn};

/// The example: two Black groups and two White stones whose two liberties,
/// D3 and D4, touch each other (the designer's first Sygo diagram, middle
/// right, on a 5×5 board). Black to move.
const EXAMPLE: &str = "sygo 5 3BB/4W/4W/3BB/5 b g 0";
/// A turn the rules refuse in the example: the upper group grows twice.
const REFUSED: &str = "D4,C5";
/// The turn that captures: each group grows once, the new stones touch.
const CAPTURE: &str = "D4,D3";

const INTRO: &str = "\
How to play Sygo and Hexsygo

Two players, Black (X) and White (O), put stones on an empty board: the
points of a square grid (Sygo) or the cells of a hexagon (Hexsygo, where a
cell has six neighbours). White moves first. Stones never move, and they
are never taken off the board.

A group is one stone, or stones of one colour joined along the lines. Its
liberties are the vacant points next to it.

On your turn, do one of these:
  place  one stone on a vacant point that touches none of your stones: it
         starts a new group;
  grow   any or all of your groups, each by one stone next to it, in the
         same turn. A stone that touches two of your groups grows both. No
         group grows twice in a turn, but a new stone may touch the stone
         another group has just grown;
  pass   (always allowed: you move again next turn), or resign.

Capture: a group left without liberties is reversed. Its stones turn over
to the captor's colour and join the captor's stones. A placement that
captures ends the turn; after a capture by growth, the groups that captured
may not grow again in that turn.

Suicide: a turn may not end with a group of yours without liberties. A
stone may have no liberty of its own when it captures.

The balance turn: as long as neither player has made a growth turn, Black
may, once, grow and then place one stone, in the same turn.

The end: two passes in a row, or a resignation. Each player counts their
stones plus the vacant points that only their stones surround; the higher
count wins. There is no komi, and no ko: no position can come back.
";

const OUTRO: &str = "\
Learn by playing: `sygo serve` starts the web app, whose page /learn has a
lesson for each rule. Play at the terminal: `sygo play` (its `help` lists
the commands).
";

/// The page `sygo rules` prints.
pub fn page() -> String {
    let mut text = String::from(INTRO);
    text.push_str(&example());
    text.push('\n');
    text.push_str(OUTRO);
    text
}

/// The example, drawn and played by the rules library.
fn example() -> String {
    // The position and the turns are constants of this file, checked by its
    // test: the library accepts the one and refuses the other.
    let start: Position = EXAMPLE.parse().expect("the example is a position");
    let g = start.geometry();
    let turn = |text: &str| Turn::parse(text, &g).expect("the example's turns are written well");
    let refusal = {
        let mut pos = start.clone();
        match pos.play_turn(&turn(REFUSED)) {
            Err(e) => e.to_string(),
            Ok(()) => "(the rules allowed it)".to_string(),
        }
    };
    let mut after = start.clone();
    let captured = after.play_turn(&turn(CAPTURE)).is_ok();
    let mut text = format!(
        "Example: Black (X) to move. The White stones E3 and E4 have two
liberties, D3 and D4, next to each other and to two Black groups.

{}
  Black {REFUSED}: refused: \"{refusal}\".
  Black {CAPTURE}: each group grows once; the second stone touches only the
  first, a new stone. E3 and E4 lose their last liberty and turn Black:
",
        indent(&start.diagram())
    );
    if captured {
        text.push('\n');
        text.push_str(&indent(&after.diagram()));
    }
    text
}

/// A diagram indented by two spaces.
fn indent(diagram: &str) -> String {
    diagram.lines().map(|l| format!("  {l}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example's turns do what the page says they do.
    #[test]
    fn the_example_refuses_and_captures_as_the_page_says() {
        let start: Position = EXAMPLE.parse().unwrap();
        let g = start.geometry();
        let mut pos = start.clone();
        let err = pos
            .play_turn(&Turn::parse(REFUSED, &g).unwrap())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "C5 would grow the group at D5 a second time this turn"
        );
        let mut after = start.clone();
        after.play_turn(&Turn::parse(CAPTURE, &g).unwrap()).unwrap();
        assert_eq!(after.to_position_string(), "sygo 5 3BB/3BB/3BB/3BB/5 w g 0");
    }
}
