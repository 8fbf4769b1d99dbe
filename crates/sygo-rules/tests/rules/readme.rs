//! The README's library example, run as written.

#[test]
fn readme_example() {
    use sygo_rules::{Geometry, Position, StepKind, Turn};

    let g = Geometry::sygo(9).unwrap();
    let at = |s: &str| g.parse_point(s).unwrap();
    let mut pos: Position = "sygo 9 9/9/9/5B3/9/3W5/9/9/9 w - 0".parse().unwrap();
    assert_eq!(pos.play_step(at("D5")), Ok(StepKind::Growth));
    let refusal = pos.check_step(at("C4")).unwrap_err();
    assert_eq!(
        refusal.to_string(),
        "C4 would grow the group at D4 a second time this turn"
    );
    let next = pos.allowed_steps();
    assert!(!next.contains(&at("C4")) && pos.check_finish().is_ok());
    pos.finish_turn().unwrap();
    let turn = Turn::parse("F7", &g).unwrap();
    pos.play_turn(&turn).unwrap();
    println!("{}", pos.diagram());
    assert_eq!(
        pos.to_position_string(),
        "sygo 9 9/9/5B3/5B3/3W5/3W5/9/9/9 w g 0"
    );
}
