//! Every worked example of the designer's rules texts, one named test each,
//! with concrete positions drawn as boards.
//!
//! - Seed 000 (Sygo, 19×19): the two rule diagrams, described in words in the
//!   text (the top left, top right, middle left, middle right, bottom left and
//!   bottom right examples of the first diagram; the top left, top right,
//!   bottom left and bottom right examples of the second).
//! - Seed 003 (Hexsygo, base 10): the top, top-left, top-right, bottom-left,
//!   bottom-right and bottom examples of its diagram.
//! - docs/rules.md §9 ("worked consequences"), the balance turn of §6, the §7
//!   decision on transient suicide, and the pass of §3.
//!
//! The original diagrams are images that could not be found, so each position
//! is built to match the text's description exactly; its comment quotes the
//! text. Each test asserts what the text states: the step allowed or refused
//! (with the `StepError` and the points it names), the stones reversed, the
//! turn ending, the score.
//!
//! In the drawings `X` is Black, `O` White, `.` vacant; lower-case letters and
//! `*` mark vacant points the test plays; in a drawing of the board during a
//! turn, `x` and `o` are the stones that turn added (see `common/diagram.rs`).

use crate::diagram;

use diagram::{Growth, assert_board, position};
use sygo_rules::{
    BaseGroup, Color, FinishError, Geometry, GroupStatus, Point, Position, Score, StepError,
    StepKind, Turn, TurnError, Vertex, parse_points,
};

// ------------------------------------------------------------------ helpers

fn sygo19() -> Geometry {
    Geometry::sygo(19).unwrap()
}

fn hex10() -> Geometry {
    Geometry::hexsygo(10).unwrap()
}

/// A vertex as errors name it.
fn v(text: &str) -> Vertex {
    text.parse().unwrap()
}

/// The point at a vertex of `g`.
fn at(g: Geometry) -> impl Fn(&str) -> Point {
    move |text| {
        g.parse_point(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
    }
}

/// The points of a comma-separated list, in increasing order (the order of
/// [`Position::group`] and [`Position::liberties`]).
fn set(g: Geometry, text: &str) -> Vec<Point> {
    let mut points = parse_points(text, &g).unwrap();
    points.sort_unstable();
    points
}

/// Plays a whole turn written as in docs/rules.md §3 (`D5,F7`, `pass`).
fn play(pos: &mut Position, turn: &str) -> Result<(), TurnError> {
    let turn = Turn::parse(turn, &pos.geometry()).unwrap();
    pos.play_turn(&turn)
}

/// The status of the base group holding the stone at `stone`.
#[track_caller]
fn status(pos: &Position, stone: &str) -> GroupStatus {
    let p = at(pos.geometry())(stone);
    pos.base_group_status(p)
        .unwrap_or_else(|| panic!("{stone} holds no base stone of the mover"))
}

/// Asserts that every stone listed has `color`.
#[track_caller]
fn assert_color(pos: &Position, stones: &str, color: Color) {
    let g = pos.geometry();
    for p in set(g, stones) {
        assert_eq!(
            pos.stone_at(p),
            Some(color),
            "{}; the board is\n{}",
            g.vertex(p),
            pos.diagram()
        );
    }
}

// =========================================== seed 000, the first diagram

/// Seed 000, top left: "black has grown at E19 and now may not grow at C18
/// because the original group D/E18 would have had two new stones adjacent to
/// it."
#[test]
fn sygo_top_left_after_growing_at_e19_the_group_may_not_grow_at_c18() {
    let g = sygo19();
    let p = at(g);
    let (mut pos, _) = position(
        g,
        Color::Black,
        Growth::Started,
        "
             A B C D E F G
          19 . . . . . . .
          18 . . . X X . .
          17 . . . . . . .
        ",
    );
    // On its own, C18 would be a growth of the group.
    assert_eq!(pos.check_step(p("C18")), Ok(StepKind::Growth));

    assert_eq!(pos.play_step(p("E19")), Ok(StepKind::Growth));
    let err = pos.check_step(p("C18")).unwrap_err();
    assert_eq!(
        err,
        StepError::AlreadyGrown {
            at: v("C18"),
            group: v("D18")
        }
    );
    assert_eq!(
        err.to_string(),
        "C18 would grow the group at D18 a second time this turn"
    );
    assert_eq!(
        pos.base_groups(),
        vec![BaseGroup {
            stones: set(g, "D18,E18"),
            status: GroupStatus::Grown
        }]
    );
    // The group has grown: nothing more may be added to this turn.
    assert_eq!(pos.allowed_steps(), Vec::<Point>::new());

    // As a whole turn, the second stone is refused and nothing changes.
    let before = pos.turn_start();
    let mut whole = before.clone();
    assert_eq!(
        play(&mut whole, "E19,C18"),
        Err(TurnError::Step {
            index: 1,
            error: StepError::AlreadyGrown {
                at: v("C18"),
                group: v("D18")
            }
        })
    );
    assert_eq!(whole, before);

    pos.finish_turn().unwrap();
    assert_board(
        &pos,
        "
             A B C D E F G
          19 . . . . X . .
          18 . . . X X . .
          17 . . . . . . .
        ",
    );
}

/// Seed 000, top right: "For the same reason black cannot, in one turn,
/// capture the white stones top right." The two white stones have two
/// liberties, a and b, and both neighbour the one black group R18–S18.
#[test]
fn sygo_top_right_one_group_cannot_capture_in_one_turn() {
    let g = sygo19();
    let p = at(g);
    let (start, _) = position(
        g,
        Color::Black,
        Growth::Started,
        "
             O P Q R S T
          19 . . . a O O
          18 . . . X X b
          17 . . . . . .
        ",
    );
    assert_eq!(start.liberties(p("S19")), set(g, "R19,T18"));

    // R19 first: T18 would grow the same group a second time.
    let mut pos = start.clone();
    assert_eq!(pos.play_step(p("R19")), Ok(StepKind::Growth));
    assert_eq!(
        pos.check_step(p("T18")),
        Err(StepError::AlreadyGrown {
            at: v("T18"),
            group: v("S18")
        })
    );
    // T18 first: R19 is refused for the same reason.
    let mut other = start.clone();
    assert_eq!(other.play_step(p("T18")), Ok(StepKind::Growth));
    assert_eq!(
        other.check_step(p("R19")),
        Err(StepError::AlreadyGrown {
            at: v("R19"),
            group: v("R18")
        })
    );

    // So the white stones survive Black's turn, with one liberty left...
    pos.finish_turn().unwrap();
    assert_color(&pos, "S19,T19", Color::White);
    assert_eq!(pos.liberties(p("S19")), set(g, "T18"));
    // ...and Black needs a second turn to take them.
    play(&mut pos, "pass").unwrap();
    play(&mut pos, "T18").unwrap();
    assert_board(
        &pos,
        "
             O P Q R S T
          19 . . . X X X
          18 . . . X X X
          17 . . . . . .
        ",
    );
}

/// Seed 000, middle left: "black may grow at the marked point. It is true
/// that he thus does make contact with a group that already did grow, but
/// only the two newly grown stones touch." The group B10–C10 grows at a; the
/// marked point touches that new stone and the fresh group E11.
#[test]
fn sygo_middle_left_a_stone_touching_only_the_other_groups_new_stone_is_legal() {
    let g = sygo19();
    let p = at(g);
    let (mut pos, marks) = position(
        g,
        Color::Black,
        Growth::Started,
        "
             A B C D E F G
          12 . . . . . . .
          11 . . . . X . .
          10 . X X a * . .
           9 . . . . . . .
        ",
    );
    assert_eq!(pos.play_step(marks.one('a')), Ok(StepKind::Growth));
    assert_eq!(status(&pos, "C10"), GroupStatus::Grown);
    assert_eq!(status(&pos, "E11"), GroupStatus::Fresh);

    // The marked point E10 touches D10, a new stone of the grown group, and
    // no base stone of it.
    assert_eq!(pos.check_step(marks.one('*')), Ok(StepKind::Growth));
    // A point touching a base stone of the grown group is refused.
    assert_eq!(
        pos.check_step(p("C11")),
        Err(StepError::AlreadyGrown {
            at: v("C11"),
            group: v("C10")
        })
    );
    assert_eq!(pos.play_step(marks.one('*')), Ok(StepKind::Growth));
    assert_board(
        &pos,
        "
             A B C D E F G
          12 . . . . . . .
          11 . . . . X . .
          10 . X X x x . .
           9 . . . . . . .
        ",
    );
    assert_eq!(status(&pos, "E11"), GroupStatus::Grown);
    assert_eq!(pos.group(p("B10")), set(g, "B10,C10,D10,E10,E11"));
    pos.finish_turn().unwrap();
}

/// Seed 000, middle right: "For the same reason black can, in one turn,
/// capture the white stones middle right." The white stones' last two
/// liberties touch each other; each black group fills one, and the second
/// growth touches the first one's new stone only.
#[test]
fn sygo_middle_right_two_groups_capture_in_one_turn() {
    let g = sygo19();
    let drawing = "
             P Q R S T
          13 . . . . .
          12 . . . X X
          11 . . . a O
          10 . . . b O
           9 . . . X X
           8 . . . . .
        ";
    let (start, marks) = position(g, Color::Black, Growth::Started, drawing);
    let (a, b) = (marks.one('a'), marks.one('b'));
    let p = at(g);
    assert_eq!(start.liberties(p("T10")), vec![b, a]);

    for order in [[a, b], [b, a]] {
        let mut pos = start.clone();
        assert_eq!(pos.play_step(order[0]), Ok(StepKind::Growth));
        assert_color(&pos, "T10,T11", Color::White);
        // The second stone touches the first (new) one and a fresh group.
        assert_eq!(pos.play_step(order[1]), Ok(StepKind::Growth));
        assert_board(
            &pos,
            "
             P Q R S T
          13 . . . . .
          12 . . . X X
          11 . . . x X
          10 . . . x X
           9 . . . X X
           8 . . . . .
            ",
        );
        // The captors are united and may not grow any further this turn.
        assert_eq!(status(&pos, "S12"), GroupStatus::Frozen);
        assert_eq!(status(&pos, "S9"), GroupStatus::Frozen);
        assert_eq!(pos.group(p("T10")).len(), 8);
        pos.finish_turn().unwrap();
    }
}

/// The bottom left of seed 000's first diagram, White to move: A1 captures
/// the three black stones A2, B2, B1; the marked points are the liberties of
/// the eight white stones after it.
const BOTTOM_LEFT: &str = "
         A B C D E
       6 . . . . .
       5 X . . . .
       4 * * X . .
       3 O O X . .
       2 X X O X .
       1 a X O * .
    ";

/// Seed 000, bottom left: "white may capture at A1 and the three black men
/// are reversed immediately. That constitutes the beginning and the end of
/// the turn."
#[test]
fn sygo_bottom_left_white_captures_at_a1_which_ends_the_turn() {
    let g = sygo19();
    let p = at(g);
    let (mut pos, marks) = position(g, Color::White, Growth::Started, BOTTOM_LEFT);
    assert_eq!(pos.liberties(p("A2")), set(g, "A1"));

    // A1 touches no white stone: a placement.
    assert_eq!(pos.play_step(marks.one('a')), Ok(StepKind::Placement));
    assert_board(
        &pos,
        "
         A B C D E
       6 . . . . .
       5 X . . . .
       4 . . X . .
       3 O O X . .
       2 O O O X .
       1 o O O . .
        ",
    );
    // The turn is over: not even a growth of the white groups may follow.
    for next in ["A4", "B4", "D1", "E1"] {
        assert_eq!(
            pos.check_step(p(next)),
            Err(StepError::TurnOver { placement: v("A1") })
        );
    }
    assert_eq!(pos.allowed_steps(), Vec::<Point>::new());
    pos.finish_turn().unwrap();
    assert_eq!(pos.side_to_move(), Color::Black);
    assert_eq!(
        pos.group(p("A1")),
        set(g, "A1,B1,C1,A2,B2,C2,A3,B3"),
        "the reversed stones unite the captors"
    );
    assert_eq!(pos.liberties(p("A1")), set(g, "A4,B4,D1"));
}

/// Seed 000, bottom left, continued: "Black may thereafter capture the eight
/// white stones by growing at the marked points." Each marked point grows a
/// different black group (A5, C3–C4, D2), in any order; A4 and B4 touch only
/// each other's new stone.
#[test]
fn sygo_bottom_left_black_then_captures_the_eight_stones_by_growing() {
    let g = sygo19();
    let (mut pos, marks) = position(g, Color::White, Growth::Started, BOTTOM_LEFT);
    play(&mut pos, "A1").unwrap();
    let eight = "A1,B1,C1,A2,B2,C2,A3,B3";
    assert_color(&pos, eight, Color::White);

    let m = marks.all('*').to_vec();
    assert_eq!(m, set(g, "A4,B4,D1"));
    let orders = [
        [m[0], m[1], m[2]],
        [m[0], m[2], m[1]],
        [m[1], m[0], m[2]],
        [m[1], m[2], m[0]],
        [m[2], m[0], m[1]],
        [m[2], m[1], m[0]],
    ];
    for order in orders {
        let mut next = pos.clone();
        next.play_turn(&Turn::Stones(order.to_vec())).unwrap();
        assert_color(&next, eight, Color::Black);
        assert_board(
            &next,
            "
         A B C D E
       6 . . . . .
       5 X . . . .
       4 X X X . .
       3 X X X . .
       2 X X X X .
       1 X X X X .
            ",
        );
    }

    // Two of the three are not enough: the eight stones keep a liberty.
    let mut two = pos.clone();
    two.play_turn(&Turn::Stones(vec![m[1], m[2]])).unwrap();
    assert_color(&two, eight, Color::White);
}

/// The bottom right of seed 000's first diagram: a seki. White's group N1–P1
/// has the eye e and Black's group Q2–T1 the eye s; Q1 is their shared
/// liberty. The walls L–P3 (Black) and Q–T3 (White) have liberties outside.
const SEKI: &str = "
         L M N O P Q R S T
       4 . . . . . . . . .
       3 . X X X X O O O O
       2 . X O O O X X X X
       1 . X O e O * X s X
    ";

/// Seed 000, bottom right: "a seki: neither can grow at Q1 without allowing
/// the opponent the possibility of capturing the resulting group with a single
/// placement." Black grows at Q1: his group is left with the eye S1 alone,
/// and White captures all seven stones by placing there.
#[test]
fn sygo_bottom_right_seki_black_growing_at_q1_is_captured_by_a_placement() {
    let g = sygo19();
    let p = at(g);
    let (mut pos, _) = position(g, Color::Black, Growth::Started, SEKI);
    let black_group = "Q1,R1,T1,Q2,R2,S2,T2";

    play(&mut pos, "Q1").unwrap();
    assert_eq!(pos.liberties(p("Q1")), set(g, "S1"));
    // S1 touches no white stone: a placement, and it captures.
    assert_eq!(pos.play_step(p("S1")), Ok(StepKind::Placement));
    pos.finish_turn().unwrap();
    assert_color(&pos, black_group, Color::White);
    assert_board(
        &pos,
        "
         L M N O P Q R S T
       4 . . . . . . . . .
       3 . X X X X O O O O
       2 . X O O O O O O O
       1 . X O . O O O O O
        ",
    );
}

/// Seed 000, bottom right, the other side: White grows at Q1, his group is
/// left with the eye O1 alone, and Black captures all six stones by placing
/// there.
#[test]
fn sygo_bottom_right_seki_white_growing_at_q1_is_captured_by_a_placement() {
    let g = sygo19();
    let p = at(g);
    let (mut pos, _) = position(g, Color::White, Growth::Started, SEKI);

    play(&mut pos, "Q1").unwrap();
    assert_eq!(pos.liberties(p("Q1")), set(g, "O1"));
    assert_eq!(pos.play_step(p("O1")), Ok(StepKind::Placement));
    pos.finish_turn().unwrap();
    assert_color(&pos, "N1,P1,Q1,N2,O2,P2", Color::Black);
    assert_board(
        &pos,
        "
         L M N O P Q R S T
       4 . . . . . . . . .
       3 . X X X X O O O O
       2 . X X X X X X X X
       1 . X X X X X X . X
        ",
    );
}

/// Seed 000, bottom right: while Q1 is vacant neither eye can be filled (the
/// stone would have no liberty and capture nothing), and "in a seki only the
/// vacant points that are completely surrounded by one player count": O1 for
/// White, S1 for Black, Q1 for nobody.
#[test]
fn sygo_bottom_right_seki_eyes_are_suicide_and_only_the_eyes_score() {
    let g = sygo19();
    let p = at(g);
    let (pos, _) = position(g, Color::White, Growth::Started, SEKI);
    assert_eq!(
        pos.check_step(p("S1")),
        Err(StepError::Suicide {
            at: v("S1"),
            group: v("S1")
        })
    );
    let mut black = pos.clone();
    black.set_side_to_move(Color::Black).unwrap();
    let err = black.check_step(p("O1")).unwrap_err();
    assert_eq!(
        err,
        StepError::Suicide {
            at: v("O1"),
            group: v("O1")
        }
    );
    assert_eq!(
        err.to_string(),
        "O1 would be suicide: the stone would have no liberties"
    );

    let territory = pos.territory();
    assert_eq!(territory.owner_of(p("O1")), Some(Color::White));
    assert_eq!(territory.owner_of(p("S1")), Some(Color::Black));
    assert_eq!(territory.owner_of(p("Q1")), None);
    let q1 = territory
        .regions
        .iter()
        .find(|r| r.points.contains(&p("Q1")))
        .unwrap();
    assert_eq!(q1.points, vec![p("Q1")]);
    // The rest of the board borders both walls: nobody's.
    assert_eq!(territory.owner_of(p("K10")), None);
    // Black: 12 stones and S1; White: 9 stones and O1.
    assert_eq!(
        pos.score(),
        Score {
            black: 13,
            white: 10
        }
    );

    // After both players pass the game ends on that score.
    let mut end = pos.clone();
    play(&mut end, "pass").unwrap();
    play(&mut end, "pass").unwrap();
    assert!(end.is_over());
    assert_eq!(end.outcome().unwrap().to_string(), "B+3");
}

// ========================================== seed 000, the second diagram

/// Seed 000, second diagram, top left: "white may not grow at D19: that would
/// be suicide." The growth step itself is allowed by §5; the turn cannot end
/// there (§7: suicide is judged at the completion of the turn).
#[test]
fn sygo_second_top_left_white_may_not_grow_at_d19() {
    let g = sygo19();
    let p = at(g);
    let (pos, _) = position(
        g,
        Color::White,
        Growth::Started,
        "
             A B C D E F
          19 . X O * X .
          18 . X X X X .
          17 . . . . . .
        ",
    );
    let mut step = pos.clone();
    assert_eq!(step.play_step(p("D19")), Ok(StepKind::Growth));
    let err = step.check_finish().unwrap_err();
    assert_eq!(err, FinishError::Suicide { group: v("D19") });
    assert_eq!(
        err.to_string(),
        "this turn would leave your group at D19 without liberties"
    );
    assert_eq!(step.finish_turn(), Err(err.clone()));

    let mut whole = pos.clone();
    assert_eq!(play(&mut whole, "D19"), Err(TurnError::Finish(err)));
    assert_eq!(whole, pos, "an illegal turn changes nothing");
}

/// Seed 000, second diagram, top right: "white can neither place at S19, nor
/// grow at Q19: both would be suicide."
#[test]
fn sygo_second_top_right_white_can_neither_place_at_s19_nor_grow_at_q19() {
    let g = sygo19();
    let p = at(g);
    let (pos, _) = position(
        g,
        Color::White,
        Growth::Started,
        "
             N O P Q R S T
          19 . X O * X s X
          18 . X X X X X X
          17 . . . . . . .
        ",
    );
    // S19 touches no white stone: a placement, refused at once.
    let err = pos.check_step(p("S19")).unwrap_err();
    assert_eq!(
        err,
        StepError::Suicide {
            at: v("S19"),
            group: v("S19")
        }
    );
    assert_eq!(
        err.to_string(),
        "S19 would be suicide: the stone would have no liberties"
    );
    assert!(!pos.allowed_steps().contains(&p("S19")));

    // Q19 touches P19: a growth, which leaves P19–Q19 without liberties.
    let mut whole = pos.clone();
    assert_eq!(
        play(&mut whole, "Q19"),
        Err(TurnError::Finish(FinishError::Suicide { group: v("Q19") }))
    );
    assert_eq!(whole, pos);
}

/// Seed 000, second diagram, bottom left: "white cannot capture by growing at
/// B1, because the resulting white group would have no liberties, making the
/// move suicidal." B1 would reverse A1, but A1, A2, B1 and B2 would be
/// enclosed by the black group A3–C1.
#[test]
fn sygo_second_bottom_left_white_cannot_capture_by_growing_at_b1() {
    let g = sygo19();
    let p = at(g);
    let (pos, _) = position(
        g,
        Color::White,
        Growth::Started,
        "
             A B C D
           4 . . . .
           3 X X X .
           2 O O X .
           1 X * X .
        ",
    );
    let mut step = pos.clone();
    assert_eq!(step.play_step(p("B1")), Ok(StepKind::Growth));
    // The capture happens (A1 is reversed)...
    assert_eq!(step.stone_at(p("A1")), Some(Color::White));
    // ...but the resulting group has no liberty, so the turn cannot end.
    assert_eq!(
        step.check_finish(),
        Err(FinishError::Suicide { group: v("B1") })
    );
    let mut whole = pos.clone();
    assert_eq!(
        play(&mut whole, "B1"),
        Err(TurnError::Finish(FinishError::Suicide { group: v("B1") }))
    );
    assert_eq!(whole.stone_at(p("A1")), Some(Color::Black));
    assert_eq!(whole, pos);

    // The same capture with C1 vacant leaves the united group a liberty: legal.
    let (mut open, _) = position(
        g,
        Color::White,
        Growth::Started,
        "
             A B C D
           4 . . . .
           3 X X X .
           2 O O X .
           1 X * . .
        ",
    );
    play(&mut open, "B1").unwrap();
    assert_eq!(open.group(p("A1")), set(g, "A1,B1,A2,B2"));
    assert_eq!(open.liberties(p("A1")), set(g, "C1"));
}

/// Seed 000, second diagram, bottom right: "a ko isn't possible because a
/// capture at Q3 would not open a ko but close P3." In Go, Black's Q3 would
/// remove P3 and White could retake there; here P3 is reversed, stays
/// occupied, and Q3 belongs to a group with five liberties.
#[test]
fn sygo_second_bottom_right_a_capture_at_q3_closes_p3_no_ko() {
    let g = sygo19();
    let p = at(g);
    let (mut pos, _) = position(
        g,
        Color::Black,
        Growth::Started,
        "
             N O P Q R S
           5 . . . . . .
           4 . . X O . .
           3 . X O * O .
           2 . . X O . .
           1 . . . . . .
        ",
    );
    let vacant = pos.vacant_count();
    assert_eq!(pos.liberties(p("P3")), set(g, "Q3"));
    // Q3 touches only white stones: a placement, which captures P3.
    assert_eq!(pos.play_step(p("Q3")), Ok(StepKind::Placement));
    pos.finish_turn().unwrap();
    assert_board(
        &pos,
        "
             N O P Q R S
           5 . . . . . .
           4 . . X O . .
           3 . X X X O .
           2 . . X O . .
           1 . . . . . .
        ",
    );
    assert_eq!(pos.group(p("Q3")), set(g, "O3,P2,P3,P4,Q3"));
    assert_eq!(pos.liberties(p("Q3")), set(g, "P1,O2,N3,O4,P5"));

    // White cannot retake: P3 is closed for good.
    assert_eq!(pos.side_to_move(), Color::White);
    assert_eq!(pos.check_step(p("P3")), Err(StepError::Occupied(v("P3"))));
    assert!(!pos.allowed_steps().contains(&p("P3")));
    // One more point is occupied; no turn ever frees one, so no position
    // can come back.
    assert_eq!(pos.vacant_count(), vacant - 1);
    for step in pos.allowed_steps() {
        let mut next = pos.clone();
        next.play_step(step).unwrap();
        assert_eq!(next.vacant_count(), vacant - 2);
        assert_eq!(next.stone_at(p("P3")), Some(Color::Black));
    }
}

// ========================================================== seed 003, Hexsygo

/// Seed 003, top: "black can capture the three white stones, but if he does,
/// the resulting group can be captured by white." Black's growth at a (Q19)
/// reverses N19–P19; the resulting group of nine has the single liberty b
/// (R19), where White grows the wall to take all nine.
#[test]
fn hexsygo_top_black_captures_three_but_the_group_is_then_captured() {
    let g = hex10();
    let p = at(g);
    let (mut pos, marks) = position(
        g,
        Color::Black,
        Growth::Started,
        "
            K L M N O P Q R S
         19 . O X O O O a b .
         18  . O X X X X O . .
         17   . O O O O O . . .
         16    . . . . . . . . .
        ",
    );
    let (a, b) = (marks.one('a'), marks.one('b'));
    assert_eq!(pos.liberties(p("N19")), vec![a]);

    assert_eq!(pos.play_step(a), Ok(StepKind::Growth));
    assert_color(&pos, "N19,O19,P19", Color::Black);
    pos.finish_turn().unwrap();
    let nine = "M18,N18,O18,P18,M19,N19,O19,P19,Q19";
    assert_eq!(pos.group(a), set(g, nine));
    assert_eq!(pos.liberties(a), vec![b]);

    // White grows the wall at R19 and reverses all nine.
    assert_eq!(pos.play_step(b), Ok(StepKind::Growth));
    pos.finish_turn().unwrap();
    assert_color(&pos, nine, Color::White);
    assert_board(
        &pos,
        "
            K L M N O P Q R S
         19 . O O O O O O O .
         18  . O O O O O O . .
         17   . O O O O O . . .
         16    . . . . . . . . .
        ",
    );
}

/// Seed 003, top left: "black has grown (white circle) and now can no longer
/// grow the other group at the cell marked 'x' because the first group would
/// then have grown at two cells." The white circle is a (H16), the cell
/// marked x is `*` (G14), which touches both H15 and G13.
#[test]
fn hexsygo_top_left_after_one_group_grew_the_cell_touching_both_is_refused() {
    let g = hex10();
    let p = at(g);
    let (mut pos, marks) = position(
        g,
        Color::Black,
        Growth::Started,
        "
                H J K L
         17     . . . .
         16    . a . . .
         15   . . X . . .
         14  . . * . . . .
         13 . . . X . . . .
         12  . . . . . . . .
        ",
    );
    let x = marks.one('*');
    // Before the growth, the cell would grow both groups at once.
    assert_eq!(pos.check_step(x), Ok(StepKind::Growth));

    assert_eq!(pos.play_step(marks.one('a')), Ok(StepKind::Growth));
    let err = pos.check_step(x).unwrap_err();
    assert_eq!(
        err,
        StepError::AlreadyGrown {
            at: v("G14"),
            group: v("H15")
        }
    );
    assert_eq!(
        err.to_string(),
        "G14 would grow the group at H15 a second time this turn"
    );
    // The other group may still grow, away from the first.
    assert_eq!(status(&pos, "G13"), GroupStatus::Fresh);
    assert_eq!(pos.check_step(p("F12")), Ok(StepKind::Growth));
}

/// Seed 003, top right: "for the same reason black cannot capture the white
/// group in one turn." The white group T14–T15 has the liberties p and q; p
/// touches only S15, q touches S15 and S13–T13. Whichever comes first, the
/// other would grow S15 a second time.
#[test]
fn hexsygo_top_right_black_cannot_capture_in_one_turn() {
    let g = hex10();
    let (start, marks) = position(
        g,
        Color::Black,
        Growth::Started,
        "
            P Q R S T
         17 . . . . .
         16  . . . . p
         15   . . . X O
         14    . . . q O
         13     . . . X X
         12      . . . . .
        ",
    );
    let (p, q) = (marks.one('p'), marks.one('q'));
    assert_eq!(start.liberties(at(g)("T14")), vec![q, p]);

    let mut first_p = start.clone();
    assert_eq!(first_p.play_step(p), Ok(StepKind::Growth));
    assert_eq!(
        first_p.check_step(q),
        Err(StepError::AlreadyGrown {
            at: v("S14"),
            group: v("S15")
        })
    );

    let mut first_q = start.clone();
    assert_eq!(first_q.play_step(q), Ok(StepKind::Growth));
    // q grew both groups.
    assert_eq!(status(&first_q, "S15"), GroupStatus::Grown);
    assert_eq!(status(&first_q, "S13"), GroupStatus::Grown);
    assert_eq!(
        first_q.check_step(p),
        Err(StepError::AlreadyGrown {
            at: v("T16"),
            group: v("S15")
        })
    );

    for mut pos in [first_p, first_q] {
        pos.finish_turn().unwrap();
        assert_color(&pos, "T14,T15", Color::White);
    }
}

/// Seed 003, bottom left: "black has grown (white circle) but now connecting
/// at K3 is legal because only the grown stones touch." H3 grew at the white
/// circle a (J3); K3 touches that new stone and the fresh group L3.
#[test]
fn hexsygo_bottom_left_connecting_at_k3_is_legal() {
    let g = hex10();
    let p = at(g);
    let (mut pos, marks) = position(
        g,
        Color::Black,
        Growth::Started,
        "
            F G H J K L M N
          5 . . . . . . . .
          4  . . . . . . . .
          3   . . X a * X .
          2    . . . . . .
          1     . . . . .
        ",
    );
    assert_eq!(marks.one('*'), p("K3"));
    assert_eq!(pos.play_step(marks.one('a')), Ok(StepKind::Growth));
    assert_eq!(pos.check_step(p("K3")), Ok(StepKind::Growth));
    assert_eq!(pos.play_step(p("K3")), Ok(StepKind::Growth));
    assert_eq!(status(&pos, "H3"), GroupStatus::Grown);
    assert_eq!(status(&pos, "L3"), GroupStatus::Grown);
    assert_eq!(pos.group(p("H3")), set(g, "H3,J3,K3,L3"));
    pos.finish_turn().unwrap();
    assert_board(
        &pos,
        "
            F G H J K L M N
          5 . . . . . . . .
          4  . . . . . . . .
          3   . . X X X X .
          2    . . . . . .
          1     . . . . .
        ",
    );
}

/// Seed 003, bottom right: "for the same reason black can capture the white
/// group in one turn." The white group N4–O5 on the edge has the liberties p
/// and q, which touch each other: O6–P6 fills p, M3 fills q, in either order.
#[test]
fn hexsygo_bottom_right_black_captures_in_one_turn() {
    let g = hex10();
    let (start, marks) = position(
        g,
        Color::Black,
        Growth::Started,
        "
            J K L M N O P Q
          7 . . . . . . . .
          6  . . . . . X X
          5   . . . . p O
          4    . . . q O
          3     . . . X
          2      . . .
        ",
    );
    let (p, q) = (marks.one('p'), marks.one('q'));
    for order in [[p, q], [q, p]] {
        let mut pos = start.clone();
        assert_eq!(pos.play_step(order[0]), Ok(StepKind::Growth));
        assert_eq!(pos.play_step(order[1]), Ok(StepKind::Growth));
        assert_board(
            &pos,
            "
            J K L M N O P Q
          7 . . . . . . . .
          6  . . . . . X X
          5   . . . . x X
          4    . . . x X
          3     . . . X
          2      . . .
            ",
        );
        assert_eq!(status(&pos, "O6"), GroupStatus::Frozen);
        assert_eq!(status(&pos, "M3"), GroupStatus::Frozen);
        pos.finish_turn().unwrap();
    }
}

/// The bottom example of seed 003: the white stone H1 has one liberty, s
/// (G1), which it shares with the black group around it; that group has the
/// eye e (E1) besides. The white wall C1–K1 surrounds it all.
const HEX_SEKI: &str = "
        A B C D E F G H J K L M
      4 . . . . . . . . . . . .
      3  . . . . O O O O O O . .
      2   . . . O X X X X X O .
      1    . . O X e X s O X O
    ";

/// Seed 003, bottom: "white cannot capture because it would require
/// suicide": filling s leaves H1–G1 without liberties while the black group
/// keeps e, and filling e is a placement with no liberty.
#[test]
fn hexsygo_bottom_seki_white_cannot_capture_without_suicide() {
    let g = hex10();
    let (pos, marks) = position(g, Color::White, Growth::Started, HEX_SEKI);
    let (e, s) = (marks.one('e'), marks.one('s'));

    let mut grow = pos.clone();
    assert_eq!(grow.play_step(s), Ok(StepKind::Growth));
    assert_eq!(
        grow.check_finish(),
        Err(FinishError::Suicide { group: v("G1") })
    );
    assert_eq!(
        pos.check_step(e),
        Err(StepError::Suicide {
            at: v("E1"),
            group: v("E1")
        })
    );
}

/// Seed 003, bottom: "black cannot capture because the remaining group would
/// only have one eye." Black may grow at s and reverse H1, but his group is
/// left with e alone, and White takes all ten stones by placing there.
#[test]
fn hexsygo_bottom_seki_black_capture_leaves_one_eye_and_white_takes_all() {
    let g = hex10();
    let (mut pos, marks) = position(g, Color::Black, Growth::Started, HEX_SEKI);
    let (e, s) = (marks.one('e'), marks.one('s'));
    let ten = "D1,F1,G1,H1,J1,E2,F2,G2,H2,J2";

    play(&mut pos, "G1").unwrap();
    assert_color(&pos, ten, Color::Black);
    assert_eq!(pos.liberties(s), vec![e]);

    assert_eq!(pos.play_step(e), Ok(StepKind::Placement));
    pos.finish_turn().unwrap();
    assert_color(&pos, ten, Color::White);
    assert_board(
        &pos,
        "
        A B C D E F G H J K L M
      4 . . . . . . . . . . . .
      3  . . . . O O O O O O . .
      2   . . . O O O O O O O .
      1    . . O O O O O O O O
        ",
    );
}

/// Seed 003, bottom: "The cell completely surrounded by black counts as his
/// territory, the other vacant cell is neutral."
#[test]
fn hexsygo_bottom_seki_scoring() {
    let g = hex10();
    let (pos, marks) = position(g, Color::White, Growth::Started, HEX_SEKI);
    let (e, s) = (marks.one('e'), marks.one('s'));
    let territory = pos.territory();
    assert_eq!(territory.owner_of(e), Some(Color::Black));
    assert_eq!(territory.owner_of(s), None);
    assert_eq!(territory.area(Color::Black), 1);
    // Black: 8 stones and e. White: 11 stones and the rest of the board,
    // which borders only the white wall; s is not counted.
    let vacant = pos.vacant_count() as u32;
    assert_eq!(
        pos.score(),
        Score {
            black: 9,
            white: 11 + vacant - 2
        }
    );
}

// ============================================ docs/rules.md §9 and other rules

/// §9: "White's first turn on an empty board: any vacant point is a legal
/// placement; no growth is possible."
#[test]
fn rules_whites_first_turn_on_an_empty_board_is_any_placement() {
    for g in [sygo19(), hex10(), Geometry::sygo(3).unwrap()] {
        let pos = Position::new(g);
        assert_eq!(pos.side_to_move(), Color::White);
        assert_eq!(pos.allowed_steps().len(), g.num_points());
        for p in g.points() {
            assert_eq!(pos.check_step(p), Ok(StepKind::Placement));
        }
        // The placement ends the turn: no growth from the new stone.
        let mut next = pos.clone();
        let centre = next.allowed_steps()[g.num_points() / 2];
        next.play_step(centre).unwrap();
        let neighbour = g.neighbours(centre).next().unwrap();
        assert!(matches!(
            next.check_step(neighbour),
            Err(StepError::TurnOver { .. })
        ));
        next.finish_turn().unwrap();
        assert!(!next.growth_started());
    }
}

/// §9: "A stone that neighbours both a fresh base group and a grown base
/// group is illegal (g3)."
#[test]
fn rules_a_stone_touching_a_fresh_and_a_grown_group_is_illegal() {
    let g = Geometry::sygo(9).unwrap();
    let p = at(g);
    let (start, marks) = position(
        g,
        Color::Black,
        Growth::Started,
        "
            A B C D E F G H J
          7 . . . . . . . . .
          6 . . . . . . . . .
          5 . . X * X . . . .
          4 . . . . . . . . .
        ",
    );
    let both = marks.one('*');
    assert_eq!(start.check_step(both), Ok(StepKind::Growth));

    let mut pos = start.clone();
    pos.play_step(p("C6")).unwrap();
    assert_eq!(status(&pos, "C5"), GroupStatus::Grown);
    assert_eq!(status(&pos, "E5"), GroupStatus::Fresh);
    assert_eq!(
        pos.check_step(both),
        Err(StepError::AlreadyGrown {
            at: v("D5"),
            group: v("C5")
        })
    );
    // The fresh group may still grow where it touches no grown group.
    assert_eq!(pos.check_step(p("E6")), Ok(StepKind::Growth));

    let mut pos = start.clone();
    pos.play_step(p("E4")).unwrap();
    assert_eq!(
        pos.check_step(both),
        Err(StepError::AlreadyGrown {
            at: v("D5"),
            group: v("E5")
        })
    );
}

/// §9: "After a capture by growth, a stone that neighbours a base stone of the
/// resulting group is illegal (g3), even for a captor that had not grown; one
/// that touches only new stones of it is legal" when it grows another, fresh
/// group (here E8); without one it touches only new stones and is refused.
#[test]
fn rules_after_a_capture_by_growth_the_united_group_is_frozen() {
    let g = Geometry::sygo(9).unwrap();
    let p = at(g);
    let (mut pos, marks) = position(
        g,
        Color::Black,
        Growth::Started,
        "
            A B C D E F G H J
          9 . . . . . . . . .
          8 . . . . X . . . .
          7 . . . . b . . . .
          6 . . . X a . . . .
          5 . . . X O X . . .
          4 . . . . X . . . .
          3 . . . . . . . . .
        ",
    );
    // D5–D6 grows at a and captures E5; the captors E4 and F5 did not grow.
    assert_eq!(pos.play_step(marks.one('a')), Ok(StepKind::Growth));
    assert_eq!(pos.stone_at(p("E5")), Some(Color::Black));
    for captor in ["D5", "E4", "F5"] {
        assert_eq!(status(&pos, captor), GroupStatus::Frozen, "{captor}");
    }
    assert_eq!(status(&pos, "E8"), GroupStatus::Fresh);

    for (point, group) in [("F6", "F5"), ("G5", "F5"), ("E3", "E4"), ("C6", "D6")] {
        let err = pos.check_step(p(point)).unwrap_err();
        assert_eq!(
            err,
            StepError::Frozen {
                at: v(point),
                group: v(group)
            }
        );
        assert_eq!(
            err.to_string(),
            format!(
                "{point} would grow the group at {group}, which captured this turn and may not grow any further"
            )
        );
    }
    // b touches the new stone E6 of the frozen group, and the fresh E8.
    assert_eq!(pos.play_step(marks.one('b')), Ok(StepKind::Growth));
    pos.finish_turn().unwrap();
    assert_eq!(pos.group(p("E8")), set(g, "D5,E5,F5,D6,E6,E7,E8,E4"));

    // Without the fresh group, b touches only new stones: not a growth.
    let (mut alone, marks) = position(
        g,
        Color::Black,
        Growth::Started,
        "
            A B C D E F G H J
          9 . . . . . . . . .
          8 . . . . . . . . .
          7 . . . . b . . . .
          6 . . . X a . . . .
          5 . . . X O X . . .
          4 . . . . X . . . .
          3 . . . . . . . . .
        ",
    );
    alone.play_step(marks.one('a')).unwrap();
    let err = alone.check_step(marks.one('b')).unwrap_err();
    assert_eq!(
        err,
        StepError::OnlyNewStones {
            at: v("E7"),
            new: v("E6")
        }
    );
    assert_eq!(
        err.to_string(),
        "E7 touches only stones played this turn (such as E6): a growth stone must touch a group you had when the turn began"
    );
}

/// §6: a balance turn. Before any growth turn, Black grows C3 and G7 and
/// then places a stone, in one turn. The placement may touch none of his
/// stones: D4 touches only the new C4, so it is a growth stone that touches
/// only new stones. White has no balance turn.
#[test]
fn rules_balance_turn_black_grows_then_places() {
    let g = Geometry::sygo(9).unwrap();
    let p = at(g);
    let (start, _) = position(
        g,
        Color::Black,
        Growth::NotYet,
        "
            A B C D E F G H J
          8 . . . . . . . . .
          7 . . . . . . X . .
          6 . . . . . . . . .
          5 . . . . O . . . .
          4 . . . . . . . . .
          3 . . X . . . . . .
          2 . . . . . . . . .
        ",
    );
    assert!(start.balance_available());
    let mut pos = start.clone();
    assert_eq!(pos.play_step(p("C4")), Ok(StepKind::Growth));
    assert_eq!(pos.play_step(p("G6")), Ok(StepKind::Growth));
    // In a balance turn D4 could be meant as the placement: the refusal says
    // why it is neither a placement nor a growth.
    assert_eq!(
        pos.check_step(p("D4")),
        Err(StepError::PlacementTouchesOwn {
            at: v("D4"),
            own: v("C4")
        })
    );
    assert_eq!(pos.play_step(p("J1")), Ok(StepKind::Placement));
    assert_eq!(
        pos.check_step(p("J2")),
        Err(StepError::TurnOver { placement: v("J1") })
    );
    pos.finish_turn().unwrap();
    assert!(pos.growth_started());
    assert_board(
        &pos,
        "
            A B C D E F G H J
          8 . . . . . . . . .
          7 . . . . . . X . .
          6 . . . . . . X . .
          5 . . . . O . . . .
          4 . . X . . . . . .
          3 . . X . . . . . .
          2 . . . . . . . . .
          1 . . . . . . . . X
        ",
    );

    // A plain growth turn is a legal balance turn too (the placement is
    // optional), and it uses the balance up.
    let mut plain = start.clone();
    play(&mut plain, "C4,G6").unwrap();
    assert!(plain.growth_started());

    // White may not place after growing.
    let mut white = start.clone();
    white.set_side_to_move(Color::White).unwrap();
    white.play_step(p("E6")).unwrap();
    let err = white.check_step(p("A1")).unwrap_err();
    assert_eq!(
        err,
        StepError::PlacementAfterGrowth {
            at: v("A1"),
            color: Color::White
        }
    );
    assert_eq!(
        err.to_string(),
        "A1 touches none of your stones, so it would be a placement, and White may not place after growing: \
         only Black's balance turn ends with a placement"
    );
}

/// §9: "A placement that captures ends the turn, even in a balance turn."
/// Black grows C3 and then places at a, capturing G7; the fresh group B7
/// may no longer grow.
#[test]
fn rules_a_capturing_placement_ends_even_a_balance_turn() {
    let g = Geometry::sygo(9).unwrap();
    let p = at(g);
    let (mut pos, marks) = position(
        g,
        Color::Black,
        Growth::NotYet,
        "
            A B C D E F G H J
          9 . . . . . . . . .
          8 . . . . . . X . .
          7 . X . . . X O X .
          6 . . . . . . a . .
          5 . . . . . . . . .
          4 . . . . . . . . .
          3 . . X . . . . . .
          2 . . . . . . . . .
        ",
    );
    assert_eq!(pos.play_step(p("C4")), Ok(StepKind::Growth));
    assert_eq!(pos.play_step(marks.one('a')), Ok(StepKind::Placement));
    assert_eq!(pos.stone_at(p("G7")), Some(Color::Black));
    assert_eq!(status(&pos, "B7"), GroupStatus::Fresh);
    let err = pos.check_step(p("B8")).unwrap_err();
    assert_eq!(err, StepError::TurnOver { placement: v("G6") });
    assert_eq!(
        err.to_string(),
        "the placement at G6 ended the turn: finish it, or take it back"
    );
    assert_eq!(pos.allowed_steps(), Vec::<Point>::new());
    pos.finish_turn().unwrap();
    assert_eq!(pos.group(p("G7")), set(g, "G6,F7,G7,H7,G8"));
    assert_eq!(pos.side_to_move(), Color::White);
}

/// §9: "Black's balance turn is gone for good once either player has made a
/// growth turn." Placement turns and passes afterwards do not bring it back.
#[test]
fn rules_the_balance_turn_is_gone_for_good_after_any_growth_turn() {
    let g = Geometry::sygo(9).unwrap();
    let p = at(g);
    let drawing = "
            A B C D E F G H J
          6 . . . . . . . . .
          5 . . . . O . . . .
          4 . . . . . . . . .
          3 . . X . . . . . .
          2 . . . . . . . . .
        ";

    // White's growth turn takes it away from Black.
    let (mut pos, _) = position(g, Color::White, Growth::NotYet, drawing);
    play(&mut pos, "E6").unwrap();
    assert!(pos.growth_started());
    assert!(!pos.balance_available());
    // Placements and passes do not bring it back.
    for turn in ["A9", "J9", "pass", "A1"] {
        play(&mut pos, turn).unwrap();
    }
    assert_eq!(pos.side_to_move(), Color::Black);
    assert!(!pos.balance_available());
    let mut turn = pos.clone();
    turn.play_step(p("C4")).unwrap();
    let err = turn.check_step(p("J1")).unwrap_err();
    assert_eq!(
        err,
        StepError::PlacementAfterGrowth {
            at: v("J1"),
            color: Color::Black
        }
    );
    assert_eq!(
        err.to_string(),
        "J1 touches none of your stones, so it would be a placement, and the balance turn is gone: \
         a growth turn has already been played"
    );
    assert_eq!(
        play(&mut pos, "C4,J1"),
        Err(TurnError::Step {
            index: 1,
            error: StepError::PlacementAfterGrowth {
                at: v("J1"),
                color: Color::Black
            }
        })
    );

    // Black's own balance turn uses it up as well.
    let (mut pos, _) = position(g, Color::Black, Growth::NotYet, drawing);
    play(&mut pos, "C4,J1").unwrap();
    play(&mut pos, "A9").unwrap();
    assert_eq!(
        play(&mut pos, "C5,J9"),
        Err(TurnError::Step {
            index: 1,
            error: StepError::PlacementAfterGrowth {
                at: v("J9"),
                color: Color::Black
            }
        })
    );
}

/// §3 and §6: "a pass does not forfeit anything"; a placement turn or a pass
/// is not a growth turn, so Black keeps the balance turn.
#[test]
fn rules_a_pass_does_not_forfeit_the_balance_turn() {
    let g = Geometry::sygo(9).unwrap();
    let (mut pos, _) = position(
        g,
        Color::Black,
        Growth::NotYet,
        "
            A B C D E F G H J
          5 . . . . O . . . .
          4 . . . . . . . . .
          3 . . X . . . . . .
        ",
    );
    play(&mut pos, "pass").unwrap();
    assert_eq!(pos.passes(), 1);
    assert_eq!(pos.side_to_move(), Color::White);
    play(&mut pos, "G7").unwrap(); // a placement: no growth turn yet
    assert_eq!(pos.passes(), 0);
    assert_eq!(pos.side_to_move(), Color::Black);
    assert!(pos.balance_available());
    play(&mut pos, "C4,J1").unwrap();
    assert_color(&pos, "C3,C4,J1", Color::Black);
    assert!(pos.growth_started());
}

/// §7 [decision]: suicide is judged at the completion of the turn. Black's
/// growth at a leaves A1–B1 without liberties for a moment; the turn cannot
/// end there, but the later growth at b captures A2–B2 and unites A1–B1 with
/// the living group A3–C3.
#[test]
fn rules_a_transient_suicide_is_rescued_by_a_later_capture() {
    let g = Geometry::sygo(9).unwrap();
    let p = at(g);
    let (start, marks) = position(
        g,
        Color::Black,
        Growth::Started,
        "
            A B C D E
          4 . . . . .
          3 X X X . .
          2 O O b . .
          1 a X O . .
        ",
    );
    let (a, b) = (marks.one('a'), marks.one('b'));
    assert_eq!((a, b), (p("A1"), p("C2")));

    let mut pos = start.clone();
    assert_eq!(pos.play_step(a), Ok(StepKind::Growth));
    assert_eq!(pos.liberties(a), Vec::<Point>::new());
    let err = pos.check_finish().unwrap_err();
    assert_eq!(err, FinishError::Suicide { group: v("A1") });
    let mut alone = start.clone();
    assert_eq!(play(&mut alone, "A1"), Err(TurnError::Finish(err)));

    assert_eq!(pos.play_step(b), Ok(StepKind::Growth));
    assert_eq!(pos.check_finish(), Ok(()));
    pos.finish_turn().unwrap();
    assert_board(
        &pos,
        "
            A B C D E
          4 . . . . .
          3 X X X . .
          2 X X X . .
          1 X X O . .
        ",
    );
    assert_eq!(pos.liberties(a), set(g, "D2,D3,A4,B4,C4"));

    // In the other order there is no suicide at any moment.
    let mut other = start.clone();
    play(&mut other, "C2,A1").unwrap();
    assert_eq!(other, pos);
}

/// The drawings of this file mean what they say: the library's own diagram
/// of a position, read back as a drawing, gives the same position (for both
/// boards; the hex rows shift as in docs/rules.md §1).
#[test]
fn drawings_read_back_the_library_diagram() {
    for text in [
        "sygo 9 9/9/2BW5/9/4W4/9/9/B8/8W b - 0",
        "hexsygo 4 B3/W4/2B3/7/1W4/5/3W w g 0",
    ] {
        let pos: Position = text.parse().unwrap();
        let (drawn, _) = position(
            pos.geometry(),
            pos.side_to_move(),
            if pos.growth_started() {
                Growth::Started
            } else {
                Growth::NotYet
            },
            &pos.diagram(),
        );
        assert_eq!(drawn, pos, "\n{}", pos.diagram());
        assert_board(&pos, &pos.diagram());
    }
    // A window of a hex board: row 3 of base 4 is A3..F3, row 2 is A2..E2.
    let g = Geometry::hexsygo(4).unwrap();
    let (pos, marks) = position(
        g,
        Color::Black,
        Growth::Started,
        "
            A B C
          3 X . a
          2  . O
        ",
    );
    let p = at(g);
    assert_eq!(pos.stone_at(p("A3")), Some(Color::Black));
    assert_eq!(pos.stone_at(p("B2")), Some(Color::White));
    assert_eq!(marks.one('a'), p("C3"));
    // B2 neighbours A2, C2, B3, C3, B1, A1 (docs/rules.md §1).
    assert_eq!(
        {
            let mut n: Vec<Point> = g.neighbours(p("B2")).collect();
            n.sort_unstable();
            n
        },
        set(g, "A1,B1,A2,C2,B3,C3")
    );
}
