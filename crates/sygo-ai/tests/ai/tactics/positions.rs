//! The positions: each a drawing, a side to move, a goal, a checked solution
//! and the natural-looking turns that fail.
//!
//! In the drawings `X` is Black, `O` White, `.` vacant (see
//! `sygo-rules/tests/rules/diagram.rs`, which reads them). On the hex board
//! a cell's neighbours are the two beside it in its row and the two touching
//! it in the rows above and below.

use sygo_rules::{Color, Geometry};

use super::puzzle::{Goal, Puzzle};
use crate::diagram::Growth;

fn sygo(n: u8) -> Geometry {
    Geometry::sygo(n).unwrap()
}

fn hex(n: u8) -> Geometry {
    Geometry::hexsygo(n).unwrap()
}

/// Every position: the first set, the multi-group races, the endgames and
/// the races whose every stone alone is without a liberty.
pub fn all() -> Vec<Puzzle> {
    let mut all = first_set();
    all.extend(races());
    all.extend(endgames());
    all.extend(races_without_a_liberty());
    all
}

/// Positions whose one-turn goal play does not bear out, with what was
/// measured: the strongest player (at the suite's simulations) misses the
/// goal, and when the game is played on by the player against itself (40
/// games from each position, 2,000 simulations a turn,
/// `PLAY_GAMES=40 PLAY_VISITS=2000 cargo test --release -p sygo-ai --test
/// tactics -- --ignored --nocapture goals_by_play`), the turn it chose does
/// better than the goal's solution, or the position is lost either way.
/// The last one (Sygo 13×13, a longer game) was played 20 games each at
/// 1,000 simulations (`TACTICS="reversing the attacker" PLAY_GAMES=20
/// PLAY_VISITS=1000`): if White takes Black's F1 group, White's stones on
/// the first line are shut in by Black's wall and taken back bigger.
/// Evidence, not proof (the judge cannot read them to the end): they stay in
/// the set, are read and checked like the others, and are counted apart from
/// the positions the player must solve.
pub const DOUBTED: &[(&str, &str)] = &[
    (
        "white takes the three stones, not the one",
        "A2,E8,H5 wins 92% (+44.6 a game), the solution F2 75% (+18.6)",
    ),
    (
        "black takes the corner with two groups at once",
        "E1,G5 wins 11% (-10.2), the solution E1,G3 6% (-30.2)",
    ),
    (
        "white takes three edge stones with two groups",
        "D6 wins 99% (+38.0), the solution C3,A5 80% (+26.4)",
    ),
    (
        "black connects three edge stones before two groups close them",
        "D7 wins 1% (-41.6), the solution C3 0% (-48.1)",
    ),
    (
        "black saves three stones rather than take three",
        "C1,A5,G3 wins 5% (-34.0), the solution C3 2% (-45.9)",
    ),
    (
        "white closes four stones with two groups, not one",
        "C1,C4 wins 2% (-16.9), the solution E3,E4 0% (-32.9)",
    ),
    (
        "white connects two stones through its other group",
        "B5,F5 wins 0% (-33.5), the solution F3 0% (-36.8)",
    ),
    (
        "black's balance turn closes a corner stone: a growth, then a placement",
        "E2,C6,A2,G5 wins 95% (+42.6), the solution A2,B1 52% (-1.8)",
    ),
    (
        "black's balance turn closes an edge stone: two growths, then a placement",
        "B7,E2,F6,E5 wins 84% (+26.4), the solution D1,E2,F1 60% (+11.9)",
    ),
    (
        "black wins the race by reversing the attacker first",
        "E7 wins 78% (+32.8), the solution E2,H2 32% (-29.8)",
    ),
];

/// Whether play doubts the position's goal ([`DOUBTED`]).
pub fn doubted(name: &str) -> bool {
    DOUBTED.iter().any(|(n, _)| *n == name)
}

/// The first set: a capture to make or a group to save, about half
/// on each board, of every size (25 at first; three that best play read to
/// the end does not bear out were dropped, `exact.rs`).
pub fn first_set() -> Vec<Puzzle> {
    vec![
        // Black's C3-C4 is in atari at C2, where White may place. White's D3-D4
        // is in atari too, at D2, which touches no black stone: a placement at D2
        // reverses it and joins Black's stones into one group (growing to C2 also
        // survives). Growing the E-group instead lets White place at C2.
        Puzzle {
            name: "black saves the group in atari by capturing",
            geometry: sygo(6),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                A B C D E F
              6 . . . . . . 6
              5 . . O X . . 5
              4 . O X O X . 4
              3 . O X O X . 3
              2 . . . . . . 2
              1 . . . . . . 1
                A B C D E F
            ",
            goal: Goal::Save("C4"),
            solution: "D2",
            wrong: &["E2"],
        },
        // Both white groups are in atari: C5-C6 at C7 (touching Black's B-group),
        // E2-E3 at E1 (touching the F-group). Two different black groups grow, so
        // one growth turn takes both; C7 alone takes one.
        Puzzle {
            name: "black captures two groups in one growth turn",
            geometry: sygo(7),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                A B C D E F G
              7 . X . . . . . 7
              6 . X O X . . . 6
              5 . X O X . . . 5
              4 . . X . X . . 4
              3 . . . X O X . 3
              2 . . . X O X . 2
              1 . . . . . X . 1
                A B C D E F G
            ",
            goal: Goal::Capture("C6,E3"),
            solution: "C7,E1",
            wrong: &["C7"],
        },
        // White's seven stones inside Black's wall have one liberty, D3, which
        // touches no black stone: only a placement takes them. Left alone, White
        // grows to D3 and has three liberties there. Growing the wall is useless.
        Puzzle {
            name: "black captures the big group by placement",
            geometry: sygo(8),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                A B C D E F G H
              8 . . . . . . . . 8
              7 . X X X X X . . 7
              6 . X O O O X . O 6
              5 . X O O O X . O 5
              4 . X X O X X . . 4
              3 . . . . . . . . 3
              2 . O . . . . O . 2
              1 . . . . . . . . 1
                A B C D E F G H
            ",
            goal: Goal::Capture("D5"),
            solution: "D3",
            wrong: &["G4"],
        },
        // Black's block D4-E6 has three liberties, each touched by a different
        // white group: E7 (the C-group), F4 (F5-F6) and E3 (D3). All three grow in
        // one turn and reverse six stones; two are not enough.
        Puzzle {
            name: "white captures with three growths from three groups",
            geometry: sygo(9),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                A B C D E F G H J
              9 . . . . . . . . . 9
              8 . X . . . . . X . 8
              7 . . O O . . . . . 7
              6 . . O X X O . . . 6
              5 . . O X X O . . . 5
              4 . . O X X . . . . 4
              3 . . . O . . . . . 3
              2 . . . . . . . X . 2
              1 . . . . . . . . . 1
                A B C D E F G H J
            ",
            goal: Goal::Capture("D5"),
            solution: "E7,F4,E3",
            wrong: &["E7,F4"],
        },
        // No growth turn yet, so Black may grow and then place (docs/rules.md §6). G4 is
        // in atari at G3, next to G2: a growth. C6 is in atari at C5, which touches
        // no black stone: a placement. The balance turn G3 then C5 takes both; a
        // plain placement takes one.
        Puzzle {
            name: "black's balance turn: a growth capture, then a placement capture",
            geometry: sygo(9),
            to_move: Color::Black,
            growth: Growth::NotYet,
            board: "
                A B C D E F G H J
              9 O . . . . . . . . 9
              8 . . . O . . . . . 8
              7 . . X . . . . O . 7
              6 . X O X . . . . . 6
              5 . . . . . . X . . 5
              4 . . . . . X O X . 4
              3 . O . . . . . . . 3
              2 . . . . O . X . . 2
              1 . . . . . . . . O 1
                A B C D E F G H J
            ",
            goal: Goal::Capture("C6,G4"),
            solution: "G3,C5",
            wrong: &["C5"],
        },
        // White's E5-E6 has two liberties, E7 (next to Black's D-group) and E4
        // (next to the F-group): Black threatens to grow both at once. Growing to E7
        // (or E4) leaves three liberties, one of which no black group touches. A
        // placement at E8 does not help.
        Puzzle {
            name: "white saves a group that two black groups could fill",
            geometry: sygo(11),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                A B C D E F G H J K L
             11 . . . . . . . . . . . 11
             10 . . . . . . . . . . . 10
              9 . . O . . . . . . . . 9
              8 . . . . . . . X . . . 8
              7 . . . X . . . . . . . 7
              6 . . . X O X . . . . . 6
              5 . . . X O X . . O . . 5
              4 . . . . . X . . . . . 4
              3 . . X . . . . O . . . 3
              2 . . . . . . . . . . . 2
              1 . . . . . . . . . . . 1
                A B C D E F G H J K L
            ",
            goal: Goal::Save("E5"),
            solution: "E7",
            wrong: &["E8"],
        },
        // White's seven stones on the edge have one liberty, D4, which touches no
        // black stone (C4 and E4 are empty): only a placement takes them, and if
        // Black grows instead White escapes at D4.
        Puzzle {
            name: "black captures on the edge by placement",
            geometry: sygo(13),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                A B C D E F G H J K L M N
             13 . . . . . . . . . . . . . 13
             12 . . . . . . . . . . . . . 12
             11 . . . . . . . . . . . . . 11
             10 . . . O . . . . O X . . . 10
              9 . . . . . . . . . . . . . 9
              8 . . . . . . . . . . . . . 8
              7 . . . . . . . . . . . . . 7
              6 . . . . . . . . . . . . . 6
              5 . . . . . . . . . . . . . 5
              4 . . . . . . . . . O . . . 4
              3 . X X O X . . . . . . . . 3
              2 X X O O X X . . . . . . . 2
              1 X O O O O X . . . . . . . 1
                A B C D E F G H J K L M N
            ",
            goal: Goal::Capture("C1"),
            solution: "D4",
            wrong: &["G2"],
        },
        // White's B6-F6 is in atari at F5. Extending there leaves two liberties,
        // G5 and F4, which Black's G6 and E4-E5 fill in one turn. Instead the
        // H-group grows to G5 and reverses G6, which joins the five stones to it.
        Puzzle {
            name: "white saves the group by capturing its attacker",
            geometry: sygo(13),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                A B C D E F G H J K L M N
             13 . . . . . . . . . . . . . 13
             12 . . . . . . . . . . . . . 12
             11 . . . . . . . . . . . . . 11
             10 . . O . . . . . . X . . . 10
              9 . . . . . . . . . . . . . 9
              8 . . . . . . . . . . . . . 8
              7 X X X X X X O O . . . . . 7
              6 X O O O O O X O . . . . . 6
              5 . X X X X . . O . . . . . 5
              4 . . . . X . . . . O . . . 4
              3 . . . . . . . . . . . . . 3
              2 . . . . . . . . . . . . . 2
              1 . . . . . . . . . . . . . 1
                A B C D E F G H J K L M N
            ",
            goal: Goal::Save("D6"),
            solution: "G5",
            wrong: &["F5"],
        },
        // Black's C14-H14 group is in atari at H15, and so are White's D15-G15.
        // Taking them at H15 leaves the whole group one liberty, J15, where White
        // grows from J14 and reverses twelve stones. A15 instead takes B14-B15 with
        // the A-group and joins everything into one group with three liberties.
        Puzzle {
            name: "black does not take the bait",
            geometry: sygo(15),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                A B C D E F G H J K L M N O P
             15 . O X O O O O . . . . . . . . 15
             14 X O X X X X X X O . . . . . . 14
             13 X X O O O O O O O . . . . . . 13
             12 . . . . . . . . . O . . . . . 12
             11 . . . . . . . . . . . . . . . 11
             10 . . . . . . . . . . . X . . . 10
              9 . . . . . . . . . . . . . . . 9
              8 . . . . . . . . . . . . . . . 8
              7 . . . . . . . . . . . . . . . 7
              6 . . . . . . . . . . . . . . . 6
              5 . . . . . . . . . . . . . . . 5
              4 . . . O . . . . . . X . . . . 4
              3 . . . . . . . . . . . . . . . 3
              2 . . . . . . . . . . . . . . . 2
              1 . . . . . . . . . . . . . . . 1
                A B C D E F G H J K L M N O P
            ",
            goal: Goal::Save("D14"),
            solution: "A15",
            wrong: &["H15"],
        },
        // Four black stones share their last liberty P2, which touches no white
        // stone: one placement reverses all four.
        Puzzle {
            name: "white reverses four stones with one placement",
            geometry: sygo(17),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                A B C D E F G H J K L M N O P Q R
             17 . . . . . . . . . . . . . . . . . 17
             16 . . . . . . . . . . . . . . . . . 16
             15 . . . . . . . . . . . . X . . . . 15
             14 . . . X . . . . . . . . . O . . . 14
             13 . . . . . . . . . . . . . . . . . 13
             12 . . . . . . . . . . . . . . . . . 12
             11 . . . . . . . . . . . . . . . . . 11
             10 . . . . . . . . . . . . . . . . . 10
              9 . . . . . . . . O . . . . . . . . 9
              8 . . . . . . . . . . . . . . . . . 8
              7 . . . . . . . . . . . . . . . . . 7
              6 . . . . . . . . . . . . . . . . . 6
              5 . . . . . . . . . . . . . . . . . 5
              4 . . . X . . . . . . . . . . O . . 4
              3 . . . . . . . . . . . . . O X O . 3
              2 . . . . . . . . . . . . O X . X O 2
              1 . . . . . . . . . . . . . O X O . 1
                A B C D E F G H J K L M N O P Q R
            ",
            goal: Goal::Capture("P3,O2,Q2,P1"),
            solution: "P2",
            wrong: &["P5"],
        },
        // Black's K10-K13 is in atari at K14. Extending there gives three
        // liberties, J14, L14 and K15, each touched by a different white group
        // (the J-group, the L-group, K16), so White fills all three in one turn.
        // Instead J8-J9 grows to K8 and reverses K9, joining the four stones to
        // the outside.
        Puzzle {
            name: "black saves the group by capturing, not by extending",
            geometry: sygo(19),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                A B C D E F G H J K L M N O P Q R S T
             19 . . . . . . . . . . . . . . . . . . . 19
             18 . . . . . . . . . . . . . . . . . . . 18
             17 . . . . . . . . . . . . . . . . . . . 17
             16 . . . O . . . . . O . . . . . X . . . 16
             15 . . . . . . . . . . . . . . . . . . . 15
             14 . . . . . . . . . . . . . . . . . . . 14
             13 . . . . . . . . O X O . . . . . . . . 13
             12 . . . . . . . . O X O . . . . . . . . 12
             11 . . . . . . . . O X O . . . . . . . . 11
             10 . . . . . . . . O X O . . . . . . . . 10
              9 . . . . . . . . X O X . . . . . . . . 9
              8 . . . . . . . . X . . . . . . . . . . 8
              7 . . . . . . . . . . . . . . . . . . . 7
              6 . . . . . . . . . . . . . . . . . . . 6
              5 . . . . . . . . . . . . . . . . . . . 5
              4 . . . X . . . . . . . . . . . O . . . 4
              3 . . . . . . . . . . . . . . . . . . . 3
              2 . . . . . . . . . . . . . . . . . . . 2
              1 . . . . . . . . . . . . . . . . . . . 1
                A B C D E F G H J K L M N O P Q R S T
            ",
            goal: Goal::Save("K10"),
            solution: "K8",
            wrong: &["K14"],
        },
        // Black's J10-M10 has two liberties, H10 (touched only by H9-M9) and N10
        // (touched only by J11-N11): both white groups grow in one turn.
        Puzzle {
            name: "white captures a two-liberty group in the centre",
            geometry: sygo(19),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                A B C D E F G H J K L M N O P Q R S T
             19 . . . . . . . . . . . . . . . . . . . 19
             18 . . . . . . . . . . . . . . . . . . . 18
             17 . . . . . . . . . . . . . . . . . . . 17
             16 . . . O . . . . . . . . . . . X . . . 16
             15 . . . . . . . . . . . . . . . . . . . 15
             14 . . . . . . . . . . . . . . . . . . . 14
             13 . . . . . . . . . . . . . . . . . . . 13
             12 . . . . . . . . . . . . . . . . . . . 12
             11 . . . . . . . . O O O O O . . . . . . 11
             10 . . X . . . . . X X X X . . . . . . . 10
              9 . . . . . . . O O O O O . . . . . . . 9
              8 . . . . . . . . . . . . . . . . . . . 8
              7 . . . . . . . . . . . . . . . . . . . 7
              6 . . . . . . . . . . . . . . . . . . . 6
              5 . . . . . . . . . . . . . . . . . . . 5
              4 . . . X . . . . . . . . . . . O . . . 4
              3 . . . . . . . . . . . . . . . . . . . 3
              2 . . . . . . . . . . . . . . . . . . . 2
              1 . . . . . . . . . . . . . . . . . . . 1
                A B C D E F G H J K L M N O P Q R S T
            ",
            goal: Goal::Capture("K10"),
            solution: "H10,N10",
            wrong: &["H10"],
        },
        // White's A1-C1 is in atari at A2 (touching Black's B2-D2) and G5-G7 at G4
        // (touching the F-group): two black groups, two growths in one turn. Any
        // other growth of the F-group first (F3, E4) would spoil G4.
        Puzzle {
            name: "black captures two corner groups with two growths",
            geometry: hex(4),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                   D E F G
              7    . . X O 7
              6   . . O X O 6
              5  . O . . X O 5
              4 . . . O . X . 4
              3  . . . . . . 3
              2   . X X X . 2
              1    O O O X 1
                   A B C D
            ",
            goal: Goal::Capture("A1,G7"),
            solution: "A2,G4",
            wrong: &["A2"],
        },
        // White's A1-B1 and Black's B2-C2-C1 share their one liberty, A2: whoever
        // grows there first reverses the other.
        Puzzle {
            name: "white escapes a mutual atari by capturing first",
            geometry: hex(4),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                   D E F G
              7    . X X . 7
              6   . . O X X 6
              5  . . . . . . 5
              4 X . . . . . . 4
              3  . O O O . . 3
              2   . X X O . 2
              1    O O X O 1
                   A B C D
            ",
            goal: Goal::Save("A1"),
            solution: "A2",
            wrong: &["E2"],
        },
        // No growth turn yet. White's corner stones A1 and E9 are each in atari,
        // at B2 (touching B1 and A2) and E8 (touching D8 and F9): a growth turn of
        // two stones takes both.
        Puzzle {
            name: "black takes both corners while the balance turn is open",
            geometry: hex(5),
            to_move: Color::Black,
            growth: Growth::NotYet,
            board: "
                    E F G H J
              9     O X . . . 9
              8    X . . . . O 8
              7   . . . . . . . 7
              6  X . . . . O . . 6
              5 . O . . X . . . . 5
              4  . . . O . . . X 4
              3   . . . . . O . 3
              2    X . O . . . 2
              1     O X . . . 1
                    A B C D E
            ",
            goal: Goal::Capture("A1,E9"),
            solution: "B2,E8",
            wrong: &["B2"],
        },
        // Black's A1 (at A2) and D1-E1-E2 (at F2) are both in atari, and both
        // liberties touch the same white group, which grows once: take the three
        // stones, which would otherwise grow out at F2.
        Puzzle {
            name: "white takes the three stones, not the one",
            geometry: hex(5),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    E F G H J
              9     . . . . . 9
              8    . . . . . . 8
              7   . . O . . . . 7
              6  . X . . . . O . 6
              5 . . . . . . X . . 5
              4  . . . . . . . . 4
              3   . . . . O O . 3
              2    . O O O X . 2
              1     X O O X X 1
                    A B C D E
            ",
            goal: Goal::Capture("D1"),
            solution: "F2",
            wrong: &["A2"],
        },
        // Black's F5-F7 is in atari at G8, inside White's ring. Growing there gives
        // three liberties, which the ring alone cannot fill. Taking the corner
        // stone A1 at B2 is a capture, but loses the three stones.
        Puzzle {
            name: "black saves the centre group by extending",
            geometry: hex(6),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                     F G H J K L
             11      . . . . . . 11
             10     . . . . . . . 10
              9    . . . . . X . . 9
              8   X . . O . . . . . 8
              7  . . . O X O . . . . 7
              6 . . . . O X O . . O . 6
              5  . . O . O X O . . . 5
              4   . . . . O O . . . 4
              3    . . . . . . . O 3
              2     X . . O . . . 2
              1      O X . . . . 1
                     A B C D E F
            ",
            goal: Goal::Save("F6"),
            solution: "G8",
            wrong: &["B2"],
        },
        // Three black corner groups are in atari, at A2, H3 and L9, each touched
        // by the white stones of its own corner: three growths in one turn.
        Puzzle {
            name: "white captures three corners in one growth turn",
            geometry: hex(6),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                     F G H J K L
             11      . . . . O X 11
             10     . . . . . O X 10
              9    . . . . X . O . 9
              8   . . . . O . . . . 8
              7  . . . . . . . . . . 7
              6 . . . . O X . . . . . 6
              5  . . . . . . . . . . 5
              4   . . O X . . . . . 4
              3    . . . . . . O . 3
              2     . O O . . O X 2
              1      X X O . O X 1
                     A B C D E F
            ",
            goal: Goal::Capture("A1,F1,L11"),
            solution: "A2,H3,L9",
            wrong: &["A2,H3"],
        },
        // White's G1-G2 has two liberties: F2 touches only Black's F1, G3 only
        // H2-H3. Both grow in one turn (the new stones may touch each other).
        Puzzle {
            name: "black captures a corner group with two liberties",
            geometry: hex(7),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                      G H J K L M N
             13       . . . . . X O 13
             12      . . . . . . X O 12
             11     . . . . . . X . . 11
             10    . . . . . . . . . . 10
              9   . . . . . . . O . . . 9
              8  . . . . . . O . . . . . 8
              7 . . . . . . . . X . . . . 7
              6  . . O . . . . . . . . . 6
              5   . . . . O . . . . . . 5
              4    . . . X . . . . . . 4
              3     . . . . . . . X . 3
              2      . . . . . . O X 2
              1       . . . . . X O 1
                      A B C D E F G
            ",
            goal: Goal::Capture("G1"),
            solution: "F2,G3",
            wrong: &["F2"],
        },
        // Black's A1 (at A2) and D1-F2 (at G1) are both in atari, both liberties
        // next to the same white group, which grows once: take the five stones.
        Puzzle {
            name: "white takes the five stones, not the corner",
            geometry: hex(8),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                       H J K L M N O P
             15        . . . . . . . . 15
             14       . . . . . . . . . 14
             13      . . . . . O . . . . 13
             12     . . . . . . . X . . . 12
             11    . . . . . . . . . . . . 11
             10   . . . . . . . . . . O . . 10
              9  . . . . . O . . . . . . . . 9
              8 . . . . O . . . . . . . . . . 8
              7  . . . . . . . X . . . . . . 7
              6   . . . X . . . . . . . . . 6
              5    . . . . . . . . . X . . 5
              4     . . . . . . . . O . . 4
              3      . . . . O O O . . . 3
              2       . O O O X X O . . 2
              1        X O O X X X . O 1
                       A B C D E F G H
            ",
            goal: Goal::Capture("E1"),
            solution: "G1",
            wrong: &["A2"],
        },
        // Black's J7-J9 is in atari at K10; growing there gives three liberties,
        // more than the surrounding white group can fill. Growing the corner group
        // does nothing for it.
        Puzzle {
            name: "black extends out of atari",
            geometry: hex(9),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                        J K L M N O P Q R
             17         . . . . . . . . . 17
             16        . . . . . . . . . . 16
             15       . . . . . . . . . . . 15
             14      . . . . . . X . . . . . 14
             13     . . . . . . O . . . . . . 13
             12    . . . . . . . . . . . . . . 12
             11   . . . O . . . . . . . . . . . 11
             10  . . . . . . . O . . . . X . . . 10
              9 . . . . . . . O X O . . . . . . . 9
              8  . . . . . . . O X O . . O . . . 8
              7   . . . . . . . O X O . . . . . 7
              6    . . . . X . . O O . . . . . 6
              5     . . . . . . . . . . . . . 5
              4      . . . . . . . . . . . . 4
              3       O . . . . . . . . . . 3
              2        . O . . . . . . . . 2
              1         X X O . . . . . . 1
                        A B C D E F G H J
            ",
            goal: Goal::Save("J8"),
            solution: "K10",
            wrong: &["C2"],
        },
        // Black's corner groups A1-B1, K1-L2 and T18-T19 are in atari, at A2, M3
        // and T17, each touched by the white stones of its own corner: one growth
        // turn of three stones.
        Puzzle {
            name: "white takes three corners on the largest board",
            geometry: hex(10),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                         K L M N O P Q R S T
             19          . . . . . . . . O X 19
             18         . . . . . . . . . O X 18
             17        . . . . . . . . . . O . 17
             16       . . . . . . . . . . . . . 16
             15      . . . . . . . . . X . . . . 15
             14     . . . . . . . . . . . . . . . 14
             13    . . . . . . . . . . . . . . . . 13
             12   . . . O . . . . . X . . . . . . . 12
             11  . . . . . . . . . . . . . . O . . . 11
             10 . . . . . . . . . O . . . . . . . . . 10
              9  . . . . . . . X . . . . . . . . . . 9
              8   . . . . . . . . . . . . O . . . . 8
              7    . . . . . . . . . . . . . . . . 7
              6     . . . . . . . . . . . . . . . 6
              5      . . . . X . . . . . . . . . 5
              4       . . . . . . . . . . . . . 4
              3        . . . . . . . . . . O . 3
              2         . O O . . . . . . O X 2
              1          X X O . . . . . O X 1
                         A B C D E F G H J K
            ",
            goal: Goal::Capture("A1,K1,T19"),
            solution: "A2,M3,T17",
            wrong: &["A2,M3"],
        },
        // Black's A1-B1 and White's B2-C2-C1 share their one liberty A2: Black
        // grows there first and reverses the white stones.
        Puzzle {
            name: "black escapes a mutual atari by capturing first",
            geometry: hex(10),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                         K L M N O P Q R S T
             19          . . . . . . . . . . 19
             18         . . . . . . . . . . . 18
             17        . . . . . . . . . . . . 17
             16       . O . . . . . . . . . . . 16
             15      O O . . . . . . . . . . . . 15
             14     . O . . . . . . . . X . . . . 14
             13    . . . . . . . . . . . . . . . . 13
             12   . . . . . . . . . . . . . . O . . 12
             11  . . . . . . . . O . . . . . . . . . 11
             10 . . . . . . . . . . . X . . . . . . . 10
              9  . . . . . . . . . . . . . . . . . . 9
              8   . . . . . . . . . . . . . . . . . 8
              7    . . . . . . O . . . . . . . . . 7
              6     . . . . . . . . X . . . . . . 6
              5      . . . . . . . . . . . . . . 5
              4       O . . . . . . . . . . . . 4
              3        . X X X . . . . . . . . 3
              2         . O O X . . . . . . . 2
              1          X X O X . . . . . . 1
                         A B C D E F G H J K
            ",
            goal: Goal::Save("A1"),
            solution: "A2",
            wrong: &["E2"],
        },
    ]
}

/// The multi-group liberty races (issue 21): captures that need two or
/// three groups to grow at once, groups with few liberties to save,
/// natural-looking turns that hand over a group, races, decoys. Most come
/// from self-play (`sygo arena --records`), the AI's own mistakes among them.
pub fn races() -> Vec<Puzzle> {
    vec![
        // From self-play (the AI played C3,C4,G4). White's F1-G2 has two liberties:
        // E1, next to Black's D1-group, and G3, next to the F3-group. Growing G4 uses
        // the F3-group's growth elsewhere.
        Puzzle {
            name: "black takes the corner with two groups at once",
            geometry: sygo(7),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                    A B C D E F G
                  7 . O O X O . . 7
                  6 . O X X O O . 6
                  5 . O X O X X . 5
                  4 . O . O . X . 4
                  3 . O . O . X . 3
                  2 . X X X X O O 2
                  1 . . . X . O O 1
                    A B C D E F G
            ",
            goal: Goal::Capture("F1"),
            solution: "E1,G3",
            wrong: &["C3,C4,G4", "E1"],
        },
        // From self-play (the AI played D6). Black's A4-C4 has two liberties, C3 (next
        // to White's B2-group) and A5 (next to the B5-group).
        Puzzle {
            name: "white takes three edge stones with two groups",
            geometry: sygo(7),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F G
                  7 . . . . . . . 7
                  6 . O . . . . . 6
                  5 . O O . O . . 5
                  4 X X X O O . . 4
                  3 O O . X X . . 3
                  2 . O X X X X X 2
                  1 . . X X X X . 1
                    A B C D E F G
            ",
            goal: Goal::Capture("A4"),
            solution: "C3,A5",
            wrong: &["D6", "A5"],
        },
        // The next turn of that game (the AI played D7 and lost them). Growing to C3
        // joins A4-C4 to the big group below; extending to A5 leaves two liberties,
        // A6 and C3, for two white groups.
        Puzzle {
            name: "black connects three edge stones before two groups close them",
            geometry: sygo(7),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                    A B C D E F G
                  7 . . . . . . . 7
                  6 . O . O . . . 6
                  5 . O O . O . . 5
                  4 X X X O O . . 4
                  3 O O . X X . . 3
                  2 . O X X X X X 2
                  1 . . X X X X . 1
                    A B C D E F G
            ",
            goal: Goal::Save("A4"),
            solution: "C3",
            wrong: &["D7", "A5"],
        },
        // Two turns earlier in that game. Black can take D1-E2 (C1,E1, what the AI
        // played), but then White's two groups close A4-C4 at C3 and A5. C3 saves
        // them; nothing both takes and saves.
        Puzzle {
            name: "black saves three stones rather than take three",
            geometry: sygo(7),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                    A B C D E F G
                  7 . . . . . . . 7
                  6 . O . . . . . 6
                  5 . O O . O . . 5
                  4 X X X O O . . 4
                  3 O O . X X . . 3
                  2 . O X O O X X 2
                  1 . . . O . X . 1
                    A B C D E F G
            ",
            goal: Goal::Save("A4"),
            solution: "C3",
            wrong: &["C1,E1"],
        },
        // From self-play. White's E4-F5 has two liberties, G4 (next to two black
        // groups) and D5 (next to Black's C3-group): D5 joins it to the wall above.
        // Read to the end (exact.rs): D5 or D2 wins by 8; a pass loses by 7, G4 by
        // 17.
        Puzzle {
            name: "white keeps four stones with two liberties with D5 or D2, not G4",
            geometry: sygo(7),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F G
                  7 X X X X . . . 7
                  6 O O O O X X X 6
                  5 . O X . O O X 5
                  4 O O X X O O . 4
                  3 . O X . X X X 3
                  2 O O O . . . X 2
                  1 O O O X . . . 1
                    A B C D E F G
            ",
            goal: Goal::BestPlay,
            solution: "D5",
            wrong: &["G4"],
        },
        // From self-play on Hexsygo 4 (the AI played E4,C1,C4: C1 spends the growth
        // of the group next to E3). Black's F3-group has two liberties, E3 (next to
        // White's D2-group) and E4 (next to the F5-group).
        Puzzle {
            name: "white closes four stones with two groups, not one",
            geometry: hex(4),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                       D E F G
                  7    . . . . 7
                  6   . . X X O 6
                  5  . . . X O X 5
                  4 . X . . . X X 4
                  3  X O . . . X 3
                  2   O X X O O 2
                  1    . . . . 1
                       A B C D
            ",
            goal: Goal::Capture("F3"),
            solution: "E3,E4",
            wrong: &["E4,C1,C4", "E4"],
        },
        // From self-play. Black's A1-group has two liberties, C2 (next to White's
        // A2-group) and D3 (next to the D1-group).
        // Read to the end (exact.rs): closing the corner with two growths (C2,D3)
        // loses by 37; a third growth (C5, C6 or F7) with them wins by 37.
        Puzzle {
            name: "white closes four corner stones with three growths, not two",
            geometry: hex(4),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                       D E F G
                  7    O . . X 7
                  6   . O O X . 6
                  5  . . . . X X 5
                  4 . X X X X O O 4
                  3  O . . . O . 3
                  2   O O . X O 2
                  1    X X X O 1
                       A B C D
            ",
            goal: Goal::BestPlay,
            solution: "C3,D3,C5",
            wrong: &["C2,D3", "C2", "D3"],
        },
        // From self-play (the AI played B1 and lost them). White's D1-E1 has one
        // liberty, F3, which also touches the E4-group.
        Puzzle {
            name: "white connects two stones through its other group",
            geometry: hex(4),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                       D E F G
                  7    . . . . 7
                  6   O X X . X 6
                  5  . O O . . X 5
                  4 . X . . O O O 4
                  3  X . . . X . 3
                  2   . . . X O 2
                  1    . . X O 1
                       A B C D
            ",
            goal: Goal::Save("D1"),
            solution: "F3",
            wrong: &["B1"],
        },
        // From self-play (the AI played C3,B3). White's D1-E1 has one liberty, E3,
        // next to two black groups and to White's D3-group.
        // Read to the end (exact.rs): B3,C3 wins by 16, the only turn that does; E3
        // loses by 37.
        Puzzle {
            name: "white grows B3 and C3 between two black groups, not E3",
            geometry: hex(4),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                       D E F G
                  7    . X . . 7
                  6   X X . O O 6
                  5  O X X O X X 5
                  4 . O . . O X . 4
                  3  O . . O . X 3
                  2   . X . X O 2
                  1    . X X O 1
                       A B C D
            ",
            goal: Goal::BestPlay,
            solution: "C3,B3",
            wrong: &["E3"],
        },
        // From self-play (the AI played A1,D6,D4: D6 grows the group that must take
        // G6). Black's F6-group has one liberty, G6, shared with the F3-group.
        // Read to the end (exact.rs): every turn that grows D4 and D6 wins by 37;
        // A1,G6 loses by 37.
        Puzzle {
            name: "black grows D4 and D6 before the wall closes, not A1 and G6",
            geometry: hex(4),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                       D E F G
                  7    X O X X 7
                  6   O . O X . 6
                  5  . O . O O X 5
                  4 . X O . X X . 4
                  3  . X O . O X 3
                  2   . X O O O 2
                  1    . . O . 1
                       A B C D
            ",
            goal: Goal::BestPlay,
            solution: "D4,D6",
            wrong: &["A1,G6"],
        },
        // From self-play. White's D7-group has two liberties, C7 (next to the
        // D1-group) and E8 (next to Black's F9).
        // Read to the end (exact.rs): C7 with G7 (and G4 or J5) wins by 7; C7 alone
        // by 5; G7 or E8 alone lose by 61.
        Puzzle {
            name: "white joins six stones to the wall with C7 and grows G7 too",
            geometry: hex(5),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                        E F G H J
                  9     O X O X . 9
                  8    O . O X X O 8
                  7   . O O X . X X 7
                  6  O X X X . O X O 6
                  5 . O O O O . X O . 5
                  4  O . O X O X . O 4
                  3   X X X O X O O 3
                  2    X X . O X X 2
                  1     . . O X . 1
                        A B C D E
            ",
            goal: Goal::BestPlay,
            solution: "C7,G7",
            wrong: &["C7", "G7", "E8"],
        },
        // From self-play (the AI played E7 and lost them). White's A1-group has one
        // liberty, A3; growing there alone leaves A4, which Black fills.
        // Read to the end (exact.rs): E7, D8 or E8 (with A3 or not) wins by 37;
        // A3,A4 by 35.
        Puzzle {
            name: "white grows E7 rather than A3,A4 around seven corner stones",
            geometry: hex(5),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                        E F G H J
                  9     X X . X . 9
                  8    . . X X X X 8
                  7   O O . X O X O 7
                  6  O X O O O O O . 6
                  5 O X X X X X . O O 5
                  4  . X O O O X O . 4
                  3   . O O X X X O 3
                  2    O X X . . O 2
                  1     O X . . . 1
                        A B C D E
            ",
            goal: Goal::BestPlay,
            solution: "E7",
            wrong: &["A3,A4", "A3"],
        },
        // From self-play (the AI played B1,G4). White's G6-group has one liberty, F5,
        // shared with the C1-group.
        Puzzle {
            name: "white connects two stones at the shared liberty",
            geometry: hex(5),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                        E F G H J
                  9     O X O X . 9
                  8    O . O X X O 8
                  7   O O O X O X X 7
                  6  O X X X X O X O 6
                  5 . O O O O . X O . 5
                  4  O X O X O X . O 4
                  3   X X X O X O O 3
                  2    X X . O X X 2
                  1     . . O X . 1
                        A B C D E
            ",
            goal: Goal::Save("G6"),
            solution: "F5",
            wrong: &["B1,G4"],
        },
        // From self-play on 9x9. Black's G1-group has two liberties, G2 (next to
        // White's F1-group) and J2 (next to the J3-group): two white groups can
        // close it now (+52 for White with best play). Read to the end, the
        // corner A9 (or B9) first is worth two points more: Black cannot save
        // the thirteen stones anyway.
        Puzzle {
            name: "white takes the corner A9 rather than close thirteen stones now",
            geometry: sygo(9),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F G H J
                  9 . . X . X X O O . 9
                  8 X X X X X O O O O 8
                  7 O . X X X O O . O 7
                  6 O . O O O X O O O 6
                  5 O O . O X X X O . 5
                  4 O O O O X X X O O 4
                  3 X X X O O O X X O 3
                  2 X X X X O O . X . 2
                  1 X X X . X O X X X 1
                    A B C D E F G H J
            ",
            goal: Goal::BestPlay,
            solution: "A9",
            wrong: &["G2,J2", "G2", "J2"],
        },
        // From self-play. Black's B2-group has two liberties, B1 (next to White's
        // C1-group) and A2 (next to the A3-group).
        Puzzle {
            name: "white closes five stones from two sides",
            geometry: sygo(9),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F G H J
                  9 . O . . O . O O . 9
                  8 . O O O O O O X X 8
                  7 . O . O . X X X X 7
                  6 O . O . X . . X . 6
                  5 O O O X X X X . X 5
                  4 O O X O X . . X X 4
                  3 O X X O X . . X X 3
                  2 . X X O . . . X X 2
                  1 . . O O . . . X . 1
                    A B C D E F G H J
            ",
            goal: Goal::Capture("B2"),
            solution: "B1,A2",
            wrong: &["B1", "A2"],
        },
        // From self-play. Black's F4-group has two liberties, F6 (next to White's
        // C3-group) and H6 (next to the F1-group).
        Puzzle {
            name: "white closes four stones with its two big groups",
            geometry: sygo(9),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F G H J
                  9 X X X O O . . . . 9
                  8 X X X . O . X X . 8
                  7 X X . O O O O . . 7
                  6 X . O O O . X . . 6
                  5 . X X O O X X O . 5
                  4 . X X O O X O O . 4
                  3 . X O O . O O O O 3
                  2 X X X X O O O . . 2
                  1 . X X X X O . X X 1
                    A B C D E F G H J
            ",
            goal: Goal::Capture("F4"),
            solution: "F6,H6",
            wrong: &["H6", "F6"],
        },
        // From self-play. White's E1-group has three liberties, D1, E3 and D4, each
        // next to a different black group: three growths would reverse it.
        Puzzle {
            name: "white saves nine stones with three liberties",
            geometry: sygo(9),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F G H J
                  9 . . . . O . . . . 9
                  8 O O O O O . . X X 8
                  7 O O O O O X X X X 7
                  6 O O O X X X X X X 6
                  5 O O X X O O X X X 5
                  4 O O . . O O O X X 4
                  3 O O O O . O X . X 3
                  2 . . . O X O X X . 2
                  1 . . X . O O X X . 1
                    A B C D E F G H J
            ",
            goal: Goal::Save("E1"),
            solution: "E3",
            wrong: &["C4"],
        },
        // From self-play on 13x13. Black's A1-group has two liberties, D2 (next to
        // White's D1-group) and B6 (next to the A5-group).
        Puzzle {
            name: "white closes fifteen stones with two groups",
            geometry: sygo(13),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F G H J K L M N
                 13 . . . . . . X X O O O O O 13
                 12 . . . . X . X X O O O O . 12
                 11 . . . . X X X X O O . . . 11
                 10 . . . . . X X X X O . O . 10
                  9 . O . . . X X X X X O O O 9
                  8 . O O . X X X X X X O O . 8
                  7 O . O O X X X X X X O O O 7
                  6 O . X O X X . X X X O . . 6
                  5 O X X O X . X X O O X X X 5
                  4 X X X O X X . X O . . . X 4
                  3 X X X O O X X . O O . X X 3
                  2 X X X . O O X X O O . X X 2
                  1 X X X O O O O X X X X X . 1
                    A B C D E F G H J K L M N
            ",
            goal: Goal::CaptureForGood("A1"),
            solution: "D2,B6",
            wrong: &["D2", "B6"],
        },
        // From self-play (the AI played H12 and lost them). White's K1-group has one
        // liberty, G8, shared with the F8-group; a black placement there would
        // reverse both.
        Puzzle {
            name: "white joins thirty-five stones in atari to a group with liberties",
            geometry: sygo(13),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F G H J K L M N
                 13 . . . O . . . . . . . O O 13
                 12 . O O O . O X . O O O . O 12
                 11 . O . O . O X X X X O O O 11
                 10 . . O O O O X X O X X X . 10
                  9 . X X X X O O X O X . X X 9
                  8 X X X X X O . O O O X X . 8
                  7 X X X X X X O O O O X X X 7
                  6 X X X X X O O X X O O X . 6
                  5 X X O O X O X X X X O X X 5
                  4 X X O O O O O O O X X X X 4
                  3 X . X O X X X O O X X X X 3
                  2 X X X O X X X X O O O X X 2
                  1 X X X X X . X X X O O O O 1
                    A B C D E F G H J K L M N
            ",
            goal: Goal::Save("K1"),
            solution: "G8",
            wrong: &["H12"],
        },
        // From self-play. Black's A12-group has two liberties, A11 (next to White's
        // B11) and D13 (next to the big white group).
        Puzzle {
            name: "black joins five stones to its big group",
            geometry: sygo(13),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                    A B C D E F G H J K L M N
                 13 X X X . O . O O O O O O O 13
                 12 X X O O O O O O O O O O O 12
                 11 . O X O O O O O O O O O O 11
                 10 X X X O O O O . O O O O O 10
                  9 X O O O O . O O O O O O O 9
                  8 X O O O X O O O O O O O O 8
                  7 X X X X X X O O O O O O O 7
                  6 X X X X X X O O O O O O O 6
                  5 X X X X X O O O O O X O O 5
                  4 X . X O X X X O . O X X X 4
                  3 X X X O O X X O O O X X . 3
                  2 . X X O O X X O O O X X X 2
                  1 X X X O O O O O . O X . X 1
                    A B C D E F G H J K L M N
            ",
            goal: Goal::Save("A12"),
            solution: "A11",
            wrong: &["M1"],
        },
        // From self-play (the AI played N7). White's H9-group has one liberty, K13,
        // shared with the M12-group.
        Puzzle {
            name: "white joins nine stones in atari on the top edge",
            geometry: sygo(13),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F G H J K L M N
                 13 O O O O X X X X O . O O . 13
                 12 O O O X X X X O O O X O . 12
                 11 O O O X O X X O O X X . . 11
                 10 O O . O O O X X O X X X . 10
                  9 O . O O O X X O O X X . . 9
                  8 O O O O O X X X X X X X X 8
                  7 X O X X O X O O O O O . . 7
                  6 X X . X X X O O O O O O O 6
                  5 X X X . X X O O O O O X X 5
                  4 . X . . X O O O O O O X . 4
                  3 . X X X X O O O O O X . X 3
                  2 . X . . O O O X X X X X X 2
                  1 X X O O O . O X X X . X X 1
                    A B C D E F G H J K L M N
            ",
            goal: Goal::Save("H9"),
            solution: "K13",
            wrong: &["N7"],
        },
        // No growth turn yet. White's corner stone A1 has two liberties: A2, next to
        // Black's A3, and B1, next to no black stone. Only the balance turn fills
        // both: A3 grows to A2, then a stone is placed on B1.
        Puzzle {
            name: "black's balance turn closes a corner stone: a growth, then a placement",
            geometry: sygo(7),
            to_move: Color::Black,
            growth: Growth::NotYet,
            board: "
                    A B C D E F G
                  7 . . . . . . . 7
                  6 . . . . . O . 6
                  5 . . X . O . . 5
                  4 . . . O . . . 4
                  3 X . . . X . . 3
                  2 . . . . . . . 2
                  1 O . . . . . . 1
                    A B C D E F G
            ",
            goal: Goal::Capture("A1"),
            solution: "A2,B1",
            wrong: &["B1", "A2"],
        },
        // No growth turn yet. White's E1 has three liberties: D1 (next to Black's C1),
        // E2 (next to E3) and F1, next to no black stone. Two growths and a placement,
        // in that order, reverse it; a growth turn leaves F1.
        Puzzle {
            name: "black's balance turn closes an edge stone: two growths, then a placement",
            geometry: sygo(9),
            to_move: Color::Black,
            growth: Growth::NotYet,
            board: "
                    A B C D E F G H J
                  9 . . . . . . . . . 9
                  8 . . . . . O . . . 8
                  7 . . X . . . . . . 7
                  6 . . . O . . X . . 6
                  5 . . . . . . . . . 5
                  4 . . . . . . . . . 4
                  3 . . . . X . O . . 3
                  2 . . . . . . . . . 2
                  1 . . X . O . . . . 1
                    A B C D E F G H J
            ",
            goal: Goal::Capture("E1"),
            solution: "D1,E2,F1",
            wrong: &["D1,E2", "F1"],
        },
        // No growth turn yet. White's G7 has four liberties; three touch a black stone
        // (G9, E7, J7), the fourth, G6, none. Three growths, then the placement.
        Puzzle {
            name: "black's balance turn closes a centre stone from four sides",
            geometry: sygo(13),
            to_move: Color::Black,
            growth: Growth::NotYet,
            board: "
                    A B C D E F G H J K L M N
                 13 . . . . . . . . . . . . . 13
                 12 . . . . . . . . . . . . . 12
                 11 . . O . . . . . . X . . . 11
                 10 . . . O . . . . . . . . . 10
                  9 . . . . . . X . . . O . . 9
                  8 . . . . . . . . . . . . . 8
                  7 . . . . X . O . X . . . . 7
                  6 . . . . . . . . . . . . . 6
                  5 . . . . . . . . . . . . . 5
                  4 . . . . . . . . . O . . . 4
                  3 . . . . . . . . . . . . . 3
                  2 . . . . . . . . . . . . . 2
                  1 . . . . . . . . . . . . . 1
                    A B C D E F G H J K L M N
            ",
            goal: Goal::Capture("G7"),
            solution: "G8,F7,H7,G6",
            wrong: &["G8,F7,H7", "G6"],
        },
        // No growth turn yet. White's K1 has three liberties: J1 (next to Black's H1),
        // K2 (next to K3) and L1, next to no black stone.
        Puzzle {
            name: "black's balance turn on the big board: two growths, then a placement",
            geometry: sygo(19),
            to_move: Color::Black,
            growth: Growth::NotYet,
            board: "
                    A B C D E F G H J K L M N O P Q R S T
                 19 . . . . . . . . . . . . . . . . . . . 19
                 18 . . . . . . . . . . . . . . . . . . . 18
                 17 . . . . . . . . . . . . . . . . . . . 17
                 16 . . . . . . . . . . . . . . . O . . . 16
                 15 . . . . . . . . . . . . . . . . . . . 15
                 14 . . . . . . . . . . . . . . . . . . . 14
                 13 . . . . . . . . . . . . . . . . . . . 13
                 12 . . . . . . . . . . . . . . . . . . . 12
                 11 . . . . . . . . . . . . . . . . . . . 11
                 10 . . . . . . . . . O . . . . . . . . . 10
                  9 . . . . . . . . . . . . . . . . . . . 9
                  8 . . . . . . . . . . . . . . . . . . . 8
                  7 . . . . . . . . . . . . . . . . . . . 7
                  6 . . . . . . . . . . . . . . . . . . . 6
                  5 . . . . . . . . . . . . . . . . . . . 5
                  4 . . . O . . . . . . . . . . . X . . . 4
                  3 . . . . . . . . . X . . . . . . . . . 3
                  2 . . . . . . . . . . . . . . . . . . . 2
                  1 . . . . . . . X . O . . . . . . . . . 1
                    A B C D E F G H J K L M N O P Q R S T
            ",
            goal: Goal::Capture("K1"),
            solution: "J1,K2,L1",
            wrong: &["J1,K2", "L1"],
        },
        // Black's K1-K2 has three liberties, J2, L2 and K3, each next to a different
        // white group (J1, L1, K4): three growths in one turn.
        Puzzle {
            name: "white closes three liberties with three groups on the big board",
            geometry: sygo(19),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F G H J K L M N O P Q R S T
                 19 . . . . . . . . . . . . . . . . . . . 19
                 18 . . . . . . . . . . . . . . . . . . . 18
                 17 . . . . . . . . . . . . . . . . . . . 17
                 16 . . . X O . . . . . . . . . . X . . . 16
                 15 . . . . . . . . . . . . . . . . . . . 15
                 14 . . . . . . . . . . . . . . . . . . . 14
                 13 . . . . . . . . . . . . . . . . . . . 13
                 12 . . . . . . . . . . . . . . . . . . . 12
                 11 . . . . . . . . . . . . . . . . . . . 11
                 10 . . . . . . . . . . . . . . . . . . . 10
                  9 . . . . . . . . . . . . . . . . . . . 9
                  8 . . . . . . . . . . . . . . . . . . . 8
                  7 . . . . . . . . . . . . . . . . . . . 7
                  6 . . . . . . . . . . . . . . . . . . . 6
                  5 . . . . . . . . . . . . . . . . . . . 5
                  4 . . . X . . . . . O . . . . . O . . . 4
                  3 . . . . . . . . . . . . . . . . . . . 3
                  2 . . . . . . . . . X . . . . . . . . . 2
                  1 . . . . . . . . O X O . . . . . . . . 1
                    A B C D E F G H J K L M N O P Q R S T
            ",
            goal: Goal::Capture("K1"),
            solution: "J2,L2,K3",
            wrong: &["J2,L2", "K3"],
        },
        // White's G13-H13 has two liberties, G12 and H12, next to each other. Black's
        // F12 touches only G12 and J13 only H12: both grow in one turn.
        Puzzle {
            name: "black closes the top corner with two stones that each touch one liberty",
            geometry: hex(7),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                          G H J K L M N
                 13       O O X . . . . 13
                 12      X . . . . . . . 12
                 11     . . . . . . . . . 11
                 10    . . . . . . . . . . 10
                  9   . . . . . . O . . . . 9
                  8  . . . . . . . . . . . . 8
                  7 . . . . O . . . . . . . . 7
                  6  . . . . . . . . . X . . 6
                  5   . . . . . . . . . . . 5
                  4    . . . X . . . . . . 4
                  3     . . O . . . X . . 3
                  2      . . . . . . . . 2
                  1       . . . . . . . 1
                          A B C D E F G
            ",
            goal: Goal::Capture("G13"),
            solution: "G12,H12",
            wrong: &["G12", "H12"],
        },
        // White's A9-A10 has two liberties, B9 and B10. Black's B11 touches only B10
        // and A8 only B9: both grow in one turn.
        Puzzle {
            name: "black closes the left corner with two stones that each touch one liberty",
            geometry: hex(10),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                             K L M N O P Q R S T
                 19          . . . . . . . . . . 19
                 18         . . . . . . . . O . . 18
                 17        . . . . . . . . . . . . 17
                 16       . . . . . . . . . . . . . 16
                 15      . . . . X . . . . . . . . . 15
                 14     . . . . . . . O . . . . . . . 14
                 13    . . . . . . . . . . . . . . . . 13
                 12   . . . . . . . . . . . . X . . . . 12
                 11  X . . . . . . . . . . . . . . . . . 11
                 10 O . . . . . . . . . . . . . . . . . . 10
                  9  O . . . . . . . X . . . . . . . . . 9
                  8   X . . . . . . . . . . . . . . . . 8
                  7    . . . . . . . . . . . . . . . . 7
                  6     . . . . . . . . . . . . . . . 6
                  5      . . . . . . . O . . . . . . 5
                  4       . . . . . . . . . . . . . 4
                  3        . . . . . . . . . . . . 3
                  2         . . . . . . . . . . . 2
                  1          . . . . . . . . . . 1
                             A B C D E F G H J K
            ",
            goal: Goal::Capture("A10"),
            solution: "B10,B9",
            wrong: &["B10", "B9"],
        },
        // Black's F1-G1 and White's F2-G2 both have two liberties: White's D1 and J1
        // threaten E1 and H1. Black's D2 and J2 grow to E2 and H2 first and reverse
        // F2-G2, which joins F1-G1 to the stones above.
        Puzzle {
            name: "black wins the race by reversing the attacker first",
            geometry: sygo(13),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                    A B C D E F G H J K L M N
                 13 . . . . . . . . . . . . . 13
                 12 . . . . . . . . . . . . . 12
                 11 . . . . . . . . . . . . . 11
                 10 . . O . . . . . . X . . . 10
                  9 . . . . . . . . . . . . . 9
                  8 . . . . . . . . . . . . . 8
                  7 . . . . . . . . . . . . . 7
                  6 . . . . . . . . . . . . . 6
                  5 . . . . . . . . . . . . . 5
                  4 . . . . . . . . . . O . . 4
                  3 . . . . . X X . . . . . . 3
                  2 . . . X . O O . X . . . . 2
                  1 . . . O . X X . O . . . . 1
                    A B C D E F G H J K L M N
            ",
            goal: Goal::CaptureAndSave("F2", "F1"),
            solution: "E2,H2",
            wrong: &["E1", "E2"],
        },
    ]
}

/// Positions read to the end of the game (`exact.rs`), found in self-play
/// games by `mine_endgame_tactics` (500 simulations a turn, one thread; the
/// board, game and turn are named): few turns keep the best final margin, a
/// pass loses points, and the best turn grows two groups at once or
/// reverses stones. The comment gives the margins with best play, and what
/// the self-play player played.
pub fn endgames() -> Vec<Puzzle> {
    vec![
        // Sygo 7, game 8, turn 22. B7,D7: -10; E6,B7: -14; C6 (played): -49.
        Puzzle {
            name: "endgame: white grows both top-edge groups rather than into C6",
            geometry: sygo(7),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F G
                  7 . . . . O X . 7
                  6 O O . X . X X 6
                  5 O O O X X X X 5
                  4 O O O X X X X 4
                  3 O O O O X X X 3
                  2 O O X X X X X 2
                  1 . X X X X X X 1
                    A B C D E F G
            ",
            goal: Goal::BestPlay,
            solution: "B7,D7",
            wrong: &["C6", "E6,B7"],
        },
        // Sygo 7, game 15, turn 18. White's A1-group (five stones) can be reversed
        // by Black's A4; White's A4 takes B4 first: -5; pass, G2, F3: -19.
        Puzzle {
            name: "endgame: white saves five corner stones by taking B4",
            geometry: sygo(7),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F G
                  7 . O O O X X . 7
                  6 O . O O X X X 6
                  5 O O O O X . . 5
                  4 . X O O X X . 4
                  3 O O X O X . . 3
                  2 O X X X . X . 2
                  1 O O X X X X X 1
                    A B C D E F G
            ",
            goal: Goal::BestPlay,
            solution: "A4",
            wrong: &["G2", "F3"],
        },
        // Sygo 7, game 7, turn 20. E1,F4: +49; G1,F4: +10; E1,C2: -1.
        Puzzle {
            name: "endgame: white grows E1 and F4 together, not G1",
            geometry: sygo(7),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F G
                  7 O O O O X X . 7
                  6 O O O . X X X 6
                  5 O O O O O X X 5
                  4 O O X X O . . 4
                  3 O . O X X X X 3
                  2 O O . X O O O 2
                  1 . O X X . O . 1
                    A B C D E F G
            ",
            goal: Goal::BestPlay,
            solution: "E1,F4",
            wrong: &["G1,F4", "E1,C2"],
        },
        // Hexsygo 4, game 2, turn 15. B1,C6 or C1,C6: -12; D1 (played), B1,
        // pass: -37.
        Puzzle {
            name: "endgame: black grows two groups at once rather than a lone D1",
            geometry: hex(4),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                       D E F G
                  7    O O . X 7
                  6   . X X X . 6
                  5  O . X . X X 5
                  4 . O X . O O . 4
                  3  O O O O O O 3
                  2   X X X O . 2
                  1    X . . . 1
                       A B C D
            ",
            goal: Goal::BestPlay,
            solution: "B1,C6",
            wrong: &["D1", "B1"],
        },
        // Hexsygo 4, game 2, turn 16 (after D1). C1,F7: +37; C6: +12; C1: +9;
        // F7,D4 (played): +6.
        Puzzle {
            name: "endgame: white grows C1 and F7 together after Black's D1",
            geometry: hex(4),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                       D E F G
                  7    O O . X 7
                  6   . X X X . 6
                  5  O . X . X X 5
                  4 . O X . O O . 4
                  3  O O O O O O 3
                  2   X X X O . 2
                  1    X . . X 1
                       A B C D
            ",
            goal: Goal::BestPlay,
            solution: "C1,F7",
            wrong: &["F7,D4", "C6", "C1"],
        },
        // Hexsygo 4, game 4, turn 15. E2,E6 or E2,F6: +37; F6 (played), G7:
        // +12.
        Puzzle {
            name: "endgame: black grows E2 with its other group, not F6 alone",
            geometry: hex(4),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                       D E F G
                  7    . . . . 7
                  6   O O . . . 6
                  5  X O O X X X 5
                  4 . X O X O O . 4
                  3  X X X . O X 3
                  2   O O X O . 2
                  1    . O O O 1
                       A B C D
            ",
            goal: Goal::BestPlay,
            solution: "E2,E6",
            wrong: &["F6", "G7"],
        },
        // Hexsygo 4, game 8, turn 17. E5,F6: +37 (two white stones at F5 then
        // in danger); D1,F6: -6; D1: -8.
        Puzzle {
            name: "endgame: black grows E5 and F6 to close two white stones",
            geometry: hex(4),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                       D E F G
                  7    O . X . 7
                  6   O O O . O 6
                  5  O O . . O X 5
                  4 . O . . X X . 4
                  3  O O O X . X 3
                  2   O O O X X 2
                  1    O O O . 1
                       A B C D
            ",
            goal: Goal::BestPlay,
            solution: "E5,F6",
            wrong: &["D1,F6", "D1"],
        },
        // Hexsygo 4, game 10, turn 14. D4,E4: +14; E3,D4 (played), E7: +4.
        Puzzle {
            name: "endgame: white grows D4 and E4 together, not E3",
            geometry: hex(4),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                       D E F G
                  7    X . O . 7
                  6   X O . O O 6
                  5  X O O . O O 5
                  4 X . O . . O O 4
                  3  O O X . . O 3
                  2   O X X X X 2
                  1    X . X . 1
                       A B C D
            ",
            goal: Goal::BestPlay,
            solution: "D4,E4",
            wrong: &["E3,D4", "E7"],
        },
        // Hexsygo 4, game 10, turn 15 (after E3,D4). D3,E7: -4; D3,B4 (played),
        // D3: -14.
        Puzzle {
            name: "endgame: black grows D3 and E7 together, not D3 and B4",
            geometry: hex(4),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                       D E F G
                  7    X . O . 7
                  6   X O . O O 6
                  5  X O O . O O 5
                  4 X . O O . O O 4
                  3  O O X . O O 3
                  2   O X X X X 2
                  1    X . X . 1
                       A B C D
            ",
            goal: Goal::BestPlay,
            solution: "D3,E7",
            wrong: &["D3,B4", "D3"],
        },
        // Hexsygo 5, game 3, turn 23. B1,E3: -35; D2 (played), B1, pass: -61.
        Puzzle {
            name: "endgame: black grows B1 and E3 together rather than place D2",
            geometry: hex(5),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                        E F G H J
                  9     O . O O O 9
                  8    O O O O O O 8
                  7   . . O O O O O 7
                  6  . O O O O O X O 6
                  5 O O O O O O X O X 5
                  4  . O X O O X X X 4
                  3   O X O O . . X 3
                  2    X O O . X X 2
                  1     X . . . . 1
                        A B C D E
            ",
            goal: Goal::BestPlay,
            solution: "B1,E3",
            wrong: &["D2", "B1"],
        },
        // Hexsygo 5, game 13, turn 26. A2,D4 or C3,D4: +61; G8,A2 (played),
        // A2,G3: +15.
        Puzzle {
            name: "endgame: white grows D4 with another group, not G8 and A2",
            geometry: hex(5),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                        E F G H J
                  9     . O X O O 9
                  8    O O . . O O 8
                  7   O X O O O O O 7
                  6  O X . O O O O O 6
                  5 . X X X O O O O . 5
                  4  X X X . O O O X 4
                  3   X O . X X O . 3
                  2    . X X X O O 2
                  1     X . X X X 1
                        A B C D E
            ",
            goal: Goal::BestPlay,
            solution: "A2,D4",
            wrong: &["G8,A2", "A2,G3"],
        },
        // Hexsygo 5, game 13, turn 27 (after G8,A2). G3,D4 or D4,J5: -15; C3
        // (played), B1, pass: -61.
        Puzzle {
            name: "endgame: black grows D4 with another group rather than place C3",
            geometry: hex(5),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                        E F G H J
                  9     . O X O O 9
                  8    O O . O O O 8
                  7   O X O O O O O 7
                  6  O X . O O O O O 6
                  5 . X X X O O O O . 5
                  4  X X X . O O O X 4
                  3   X O . X X O . 3
                  2    O X X X O O 2
                  1     X . X X X 1
                        A B C D E
            ",
            goal: Goal::BestPlay,
            solution: "G3,D4",
            wrong: &["C3", "B1"],
        },
        // Sygo 6, game 2, turn 13. A5,F4: +2; A5: +0; F3: -2; pass: -36.
        Puzzle {
            name: "endgame: black grows A5 and F4 together, reversing E4",
            geometry: sygo(6),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                    A B C D E F
                  6 O O . X X X 6
                  5 . X X . X X 5
                  4 . O X X O . 4
                  3 . O O X X . 3
                  2 . O . X O O 2
                  1 . . . O O . 1
                    A B C D E F
            ",
            goal: Goal::BestPlay,
            solution: "A5,F4",
            wrong: &["A5", "F3"],
        },
        // Sygo 6, game 2, turn 14. C1,A2: -2; B1,C1: -4; A2 (played): -13; pass: -36.
        Puzzle {
            name: "endgame: white grows C1 and A2 together, not A2 alone",
            geometry: sygo(6),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F
                  6 O O . X X X 6
                  5 X X X . X X 5
                  4 . O X X X X 4
                  3 . O O X X . 3
                  2 . O . X O O 2
                  1 . . . O O . 1
                    A B C D E F
            ",
            goal: Goal::BestPlay,
            solution: "C1,A2",
            wrong: &["A2", "B1,C1"],
        },
        // Sygo 6, game 7, turn 11. F2,A4,B4: -1; E1,A4,B4: -5; E1,C1,E4 (played): -36; pass: -36.
        Puzzle {
            name: "endgame: black grows three groups at F2, A4 and B4",
            geometry: sygo(6),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                    A B C D E F
                  6 . . . O O . 6
                  5 O O O X O . 5
                  4 . . X X . O 4
                  3 X O O . O O 3
                  2 X X O X X . 2
                  1 . X . . . . 1
                    A B C D E F
            ",
            goal: Goal::BestPlay,
            solution: "F2,A4,B4",
            wrong: &["E1,C1,E4", "E1,A4,B4"],
        },
        // Sygo 6, game 8, turn 12. White's E1-group (four stones) can be reversed by D3,E4,F1. D3,F6: +13; E4: +4; B1 (played): -29; pass: -36.
        Puzzle {
            name: "endgame: white saves four stones in reach of three groups by growing D3",
            geometry: sygo(6),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F
                  6 . X . O O . 6
                  5 . X O . O X 5
                  4 . O O O . X 4
                  3 . X . . O O 3
                  2 X X . X O X 2
                  1 . . . X O . 1
                    A B C D E F
            ",
            goal: Goal::BestPlay,
            solution: "D3,F6",
            wrong: &["E4", "B1"],
        },
        // Hexsygo 3, game 1, turn 4. C2,E4: +14; C2,C4: +10; A2,D5: +1; pass: -19.
        Puzzle {
            name: "endgame: white grows C2 and E4 together on Hexsygo 3",
            geometry: hex(3),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                      C D E
                  5   . . . 5
                  4  X . O . 4
                  3 . X . . . 3
                  2  . O . . 2
                  1   . X . 1
                      A B C
            ",
            goal: Goal::BestPlay,
            solution: "C2,E4",
            wrong: &["C2,C4", "A2,D5"],
        },
        // Hexsygo 3, game 1, turn 6. A2,C4 and C1,C4: +14; A2,E5: +8; D2,C4: +0; pass: -19.
        Puzzle {
            name: "endgame: white grows C4 with A2 or C1, not with E5",
            geometry: hex(3),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                      C D E
                  5   . X . 5
                  4  X . O O 4
                  3 . X . . . 3
                  2  . O O . 2
                  1   . X . 1
                      A B C
            ",
            goal: Goal::BestPlay,
            solution: "A2,C4",
            wrong: &["A2,E5", "D2,C4"],
        },
        // Sygo 6, game 3, turn 12 (mined with the learned weights, MINE=sygo6,hex3
        // MINE_GAMES=4). E1 and E1,F4: +4 (2 of 22 turns); B3 and B3,F4: +3; F2,F4: +2; pass: -2.
        Puzzle {
            name: "endgame: white grows E1 on Sygo 6 (F4 with it or not), not B3",
            geometry: sygo(6),
            to_move: Color::White,
            growth: Growth::Started,
            board: "
                    A B C D E F
                  6 . X . X O . 6
                  5 X X . X O O 5
                  4 X . . O O . 4
                  3 . . O . X X 3
                  2 X X O O O . 2
                  1 . X O . . . 1
                    A B C D E F
            ",
            goal: Goal::BestPlay,
            solution: "E1,F4",
            wrong: &["B3", "B3,F4", "F2,F4"],
        },
    ]
}

/// Multi-group liberty races whose every stone, played alone, leaves its
/// own group without a liberty: the turn is legal only because its last
/// stone reverses the enemy group, which unites the groups with a living
/// one (docs/rules.md §7). The search could not play them while it offered
/// only stones that keep their group a liberty (docs/ai.md, "The search
/// over steps").
pub fn races_without_a_liberty() -> Vec<Puzzle> {
    vec![
        // White's ten stones have two liberties, B1 and F1, each the only
        // liberty of a Black corner stone. Either stone alone is suicide;
        // both reverse the white group, which unites them with Black's wall.
        // Otherwise White takes a corner stone at B1 or F1.
        Puzzle {
            name: "black fills two last liberties, each stone without one",
            geometry: sygo(7),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                A B C D E F G
              7 . . . . . . . 7
              6 . . . . . . . 6
              5 . . . . . . . 5
              4 . . . . . . . 4
              3 X X X X X X X 3
              2 O O O O O O O 2
              1 X . O O O . X 1
                A B C D E F G
            ",
            goal: Goal::Capture("A2"),
            solution: "B1,F1",
            wrong: &["D4", "C5"],
        },
        // White's fourteen stones have three liberties, A1, D1 and A4, each
        // the only liberty of a Black stone (B1, E1, A5) that has no other:
        // three groups grow at once, each stone alone without a liberty.
        Puzzle {
            name: "black fills three last liberties, each stone without one",
            geometry: sygo(7),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                A B C D E F G
              7 X X X . . . . 7
              6 O O X . . . . 6
              5 X O X . . . . 5
              4 . O X . . . . 4
              3 O O X X X X X 3
              2 O O O O O O X 2
              1 . X O . X O X 1
                A B C D E F G
            ",
            goal: Goal::Capture("A2"),
            solution: "A1,D1,A4",
            wrong: &["E4", "D6"],
        },
        // The hex board: White's seven stones have two liberties, the corners
        // A1 and D1, each the only liberty of a Black stone next to it (B1,
        // E2).
        Puzzle {
            name: "black fills two hex liberties, each stone without one",
            geometry: hex(4),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                   D E F G
              7    . . . . 7
              6   . . . . . 6
              5  . . . . . . 5
              4 . . . . X X X 4
              3  X X X X O O 3
              2   O O O O X 2
              1    . X O . 1
                   A B C D
            ",
            goal: Goal::Capture("A2"),
            solution: "A1,D1",
            wrong: &["D4"],
        },
        // Hexsygo 5: White's eleven stones have three liberties, B1, D1 and
        // A4, each the only liberty of a Black corner stone (A1, E1, A5).
        Puzzle {
            name: "black fills three hex liberties, each stone without one",
            geometry: hex(5),
            to_move: Color::Black,
            growth: Growth::Started,
            board: "
                    E F G H J
              9     . . . . . 9
              8    . . . . . . 8
              7   X . . . . . . 7
              6  O X . . . . . . 6
              5 X O X . . . . . . 5
              4  . O X . . . . . 4
              3   O X X X X X X 3
              2    O O O O O O 2
              1     X . O . X 1
                    A B C D E
            ",
            goal: Goal::Capture("A2"),
            solution: "B1,D1,A4",
            wrong: &["D4"],
        },
    ]
}
