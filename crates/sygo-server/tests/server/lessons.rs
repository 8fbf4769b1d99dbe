//! The lessons of the rules tutorial (`web/js/tutorial/lessons.json`,
//! played at `/learn`) checked against the rules library, step by step: every
//! position is a canonical position string of a small board; the stones a
//! step starts with are legal; its answer is a legal turn that meets the
//! step's goal; every try the lesson expects to be refused is refused with
//! the reason the lesson quotes (the rules library's own words, which the
//! page shows); every legal try the lesson expects to miss misses the goal
//! with the hint the lesson quotes; the scores it states are the rules'.

use std::collections::HashSet;

use serde::Deserialize;
use sygo_rules::{Color, Geometry, Point, Position, StepKind, Variant};

/// The file the page fetches.
const LESSONS: &str = include_str!("../../web/js/tutorial/lessons.json");

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Lessons {
    about: String,
    lessons: Vec<Lesson>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Lesson {
    id: String,
    title: String,
    steps: Vec<Step>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    follows: String,
    text: Vec<String>,
    position: String,
    #[serde(default)]
    pending: Vec<String>,
    goal: Vec<Condition>,
    answer: Vec<String>,
    #[serde(default)]
    refused: Vec<Refused>,
    #[serde(default)]
    misses: Vec<Miss>,
    score: Option<ScoreClaim>,
    score_after: Option<ScoreClaim>,
    success: String,
}

/// One condition of a goal: exactly one of the predicates, and its hint.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Condition {
    kind: Option<String>,
    grows: Option<bool>,
    stones: Option<Vec<String>>,
    some_of: Option<Vec<String>>,
    reverses: Option<Vec<String>>,
    all_grown: Option<bool>,
    hint: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Refused {
    stones: Vec<String>,
    #[serde(default)]
    finish: bool,
    reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Miss {
    stones: Vec<String>,
    hint: String,
}

#[derive(Deserialize, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
struct ScoreClaim {
    black: u32,
    white: u32,
}

/// A finished turn as the page sees it: the stones (the step's pending ones
/// first), what each was, whether every base group had grown (or was
/// frozen) when it ended, what it reversed.
struct Outcome {
    stones: Vec<Point>,
    kinds: Vec<StepKind>,
    pass: bool,
    all_grown: bool,
    reversed: Vec<Point>,
    after: Position,
}

fn lessons() -> Lessons {
    serde_json::from_str(LESSONS).expect("lessons.json reads as the lessons")
}

fn start(step: &Step) -> Position {
    Position::from_position_string(&step.position)
        .unwrap_or_else(|e| panic!("{:?}: {e}", step.position))
}

fn point(g: &Geometry, text: &str) -> Point {
    g.parse_point(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn points(g: &Geometry, texts: &[String]) -> Vec<Point> {
    texts.iter().map(|t| point(g, t)).collect()
}

/// The position after the step's pending stones and `stones`, each played
/// as a step; the first refusal's reason otherwise.
fn steps(step: &Step, stones: &[String]) -> Result<(Position, Vec<StepKind>), String> {
    let mut pos = start(step);
    let g = pos.geometry();
    let mut kinds = Vec::new();
    for text in step.pending.iter().chain(stones) {
        kinds.push(pos.play_step(point(&g, text)).map_err(|e| e.to_string())?);
    }
    Ok((pos, kinds))
}

/// The learner's try (`["pass"]` for a pass) played and finished.
fn play(step: &Step, learner: &[String]) -> Result<Outcome, String> {
    let before = start(step);
    let g = before.geometry();
    if learner == ["pass"] {
        assert!(step.pending.is_empty(), "a pass after pending stones");
        let mut after = before.clone();
        after.pass().map_err(|e| e.to_string())?;
        return Ok(Outcome {
            stones: Vec::new(),
            kinds: Vec::new(),
            pass: true,
            all_grown: false,
            reversed: Vec::new(),
            after,
        });
    }
    let (mut pos, kinds) = steps(step, learner)?;
    let all_grown = pos
        .base_groups()
        .iter()
        .all(|group| group.status != sygo_rules::GroupStatus::Fresh);
    pos.finish_turn().map_err(|e| e.to_string())?;
    let reversed = before
        .stones()
        .filter(|&(p, color)| pos.stone_at(p) == Some(color.opponent()))
        .map(|(p, _)| p)
        .collect();
    Ok(Outcome {
        stones: points(&g, &[step.pending.clone(), learner.to_vec()].concat()),
        kinds,
        pass: false,
        all_grown,
        reversed,
        after: pos,
    })
}

/// Whether the outcome meets one condition.
fn meets(condition: &Condition, g: &Geometry, outcome: &Outcome) -> bool {
    let stones: HashSet<Point> = outcome.stones.iter().copied().collect();
    let k = &outcome.kinds;
    if let Some(kind) = &condition.kind {
        return match kind.as_str() {
            "pass" => outcome.pass,
            "placement" => k == &[StepKind::Placement],
            "growth" => !k.is_empty() && k.iter().all(|&s| s == StepKind::Growth),
            "balance" => {
                k.len() >= 2
                    && k.last() == Some(&StepKind::Placement)
                    && k[..k.len() - 1].iter().all(|&s| s == StepKind::Growth)
            }
            other => panic!("unknown kind {other:?}"),
        };
    }
    if let Some(grows) = condition.grows {
        return k.contains(&StepKind::Growth) == grows;
    }
    if let Some(exact) = &condition.stones {
        return points(g, exact).into_iter().collect::<HashSet<_>>() == stones;
    }
    if let Some(any) = &condition.some_of {
        return points(g, any).iter().any(|p| stones.contains(p));
    }
    if let Some(all) = &condition.reverses {
        return points(g, all).iter().all(|p| outcome.reversed.contains(p));
    }
    if let Some(grown) = condition.all_grown {
        return outcome.all_grown == grown;
    }
    panic!("a condition with no predicate (hint {:?})", condition.hint)
}

/// The hint of the first condition the outcome misses; `None` if it meets
/// the goal.
fn missed<'a>(step: &'a Step, outcome: &Outcome) -> Option<&'a str> {
    let g = start(step).geometry();
    step.goal
        .iter()
        .find(|c| !meets(c, &g, outcome))
        .map(|c| c.hint.as_str())
}

fn each_step(mut f: impl FnMut(&str, &Step)) {
    for lesson in lessons().lessons {
        for (i, step) in lesson.steps.iter().enumerate() {
            f(&format!("{} step {}", lesson.id, i + 1), step);
        }
    }
}

#[test]
fn lessons_are_named_and_written() {
    let all = lessons();
    assert!(!all.about.is_empty());
    assert!(all.lessons.len() >= 8);
    let mut ids = HashSet::new();
    for lesson in &all.lessons {
        assert!(
            !lesson.id.is_empty()
                && lesson
                    .id
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'-'),
            "{:?}",
            lesson.id
        );
        assert!(ids.insert(lesson.id.clone()), "{} twice", lesson.id);
        assert!(!lesson.title.is_empty() && !lesson.steps.is_empty());
    }
    each_step(|name, step| {
        assert!(!step.follows.is_empty(), "{name}: which diagram or rule");
        assert!(
            !step.text.is_empty() && step.text.iter().all(|t| !t.trim().is_empty()),
            "{name}"
        );
        assert!(!step.success.is_empty(), "{name}");
        assert!(!step.goal.is_empty(), "{name}: no goal");
        for c in &step.goal {
            let predicates = [
                c.kind.is_some(),
                c.grows.is_some(),
                c.stones.is_some(),
                c.some_of.is_some(),
                c.reverses.is_some(),
                c.all_grown.is_some(),
            ];
            assert_eq!(
                predicates.iter().filter(|&&b| b).count(),
                1,
                "{name}: one predicate per condition"
            );
            assert!(!c.hint.is_empty(), "{name}");
        }
    });
}

/// The rules the issue names each have a lesson, in this order.
#[test]
fn the_lessons_cover_every_rule() {
    let ids: Vec<String> = lessons().lessons.into_iter().map(|l| l.id).collect();
    assert_eq!(
        ids,
        [
            "placement",
            "growth",
            "capture",
            "one-per-group",
            "new-stones",
            "suicide",
            "balance",
            "seki",
            "scoring",
            "hexsygo"
        ]
    );
}

#[test]
fn positions_are_small_canonical_and_not_over() {
    each_step(|name, step| {
        let pos = start(step);
        assert_eq!(
            pos.to_position_string(),
            step.position,
            "{name}: write the position as the library does"
        );
        let g = pos.geometry();
        let small = match g.variant() {
            Variant::Sygo => g.size() <= 9,
            Variant::Hexsygo => g.size() <= 5,
        };
        assert!(small, "{name}: a small board");
        assert!(!pos.is_over(), "{name}");
        if let Some(claim) = &step.score {
            let score = pos.score();
            assert_eq!(
                (claim.black, claim.white),
                (score.black, score.white),
                "{name}"
            );
        }
        if let Err(reason) = steps(step, &[]) {
            panic!("{name}: a pending stone is refused: {reason}");
        }
    });
}

#[test]
fn every_answer_is_legal_and_meets_its_goal() {
    each_step(|name, step| {
        let outcome = play(step, &step.answer)
            .unwrap_or_else(|reason| panic!("{name}: the answer is refused: {reason}"));
        assert_eq!(missed(step, &outcome), None, "{name}");
        if let Some(claim) = &step.score_after {
            let score = outcome.after.score();
            assert_eq!(
                (claim.black, claim.white),
                (score.black, score.white),
                "{name}"
            );
        }
        if outcome.pass {
            return;
        }
        // The side to move played it, and it was the step's side.
        assert_eq!(
            outcome.after.side_to_move(),
            start(step).side_to_move().opponent(),
            "{name}"
        );
    });
}

#[test]
fn refused_tries_are_refused_with_the_lessons_reason() {
    let mut count = 0;
    each_step(|name, step| {
        for refused in &step.refused {
            count += 1;
            let (allowed, last) = if refused.finish {
                (&refused.stones[..], None)
            } else {
                let (last, allowed) = refused.stones.split_last().expect("a stone");
                (allowed, Some(last))
            };
            let (pos, _) = steps(step, allowed).unwrap_or_else(|reason| {
                panic!(
                    "{name}: {:?}: an earlier stone is refused: {reason}",
                    refused.stones
                )
            });
            let reason = match last {
                Some(last) => pos
                    .check_step(point(&pos.geometry(), last))
                    .map(|kind| panic!("{name}: {last} is allowed ({kind:?})"))
                    .unwrap_err()
                    .to_string(),
                None => pos
                    .check_finish()
                    .map(|()| panic!("{name}: {:?} may finish", refused.stones))
                    .unwrap_err()
                    .to_string(),
            };
            assert_eq!(reason, refused.reason, "{name}: {:?}", refused.stones);
        }
    });
    assert!(count >= 12, "{count} refused tries");
}

#[test]
fn missed_tries_are_legal_and_get_the_lessons_hint() {
    let mut count = 0;
    each_step(|name, step| {
        for miss in &step.misses {
            count += 1;
            let outcome = play(step, &miss.stones)
                .unwrap_or_else(|reason| panic!("{name}: {:?} is refused: {reason}", miss.stones));
            assert_eq!(
                missed(step, &outcome),
                Some(miss.hint.as_str()),
                "{name}: {:?}",
                miss.stones
            );
        }
    });
    assert!(count >= 15, "{count} missed tries");
}

/// Where a step's text tells the learner their side ("You are White", "You
/// (White)"), it is the side to move of the step's position (the page says
/// it too, from the position).
#[test]
fn texts_name_the_side_to_move() {
    let mut told = 0;
    each_step(|name, step| {
        let side = start(step).side_to_move();
        let (mine, theirs) = match side {
            Color::Black => ("Black", "White"),
            Color::White => ("White", "Black"),
        };
        let text = step.text.join(" ");
        for form in ["ou are ", "You ("] {
            assert!(
                !text.contains(&format!("{form}{theirs}")),
                "{name}: the text speaks to {theirs}, but {mine} is to move"
            );
            if text.contains(&format!("{form}{mine}")) {
                told += 1;
            }
        }
    });
    assert!(told >= 10, "{told} steps say whose side the learner plays");
}
