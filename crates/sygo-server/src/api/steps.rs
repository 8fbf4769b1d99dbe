//! `POST /api/games/{id}/steps`: a turn in progress, stone by stone, as the
//! rules see it. Nothing is stored; anyone may ask. [`answer`] is also the
//! answer of `POST /api/position/steps` (`api/position.rs`), for a position
//! given as a position string.
//!
//! The answer tells the page everything it draws while a turn is built:
//! the board after the pending stones, what each was, what they reversed,
//! the mover's base groups (fresh, grown, frozen), for every vacant point
//! the step it would be and what it would reverse or why it is refused, and
//! whether the turn may end here.

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use sygo_rules::{GroupStatus, Point, Position, StepKind};

use crate::api::extract::JsonBody;
use crate::api::{find, json_response};
use crate::error::ApiError;
use crate::game::reversed_stones;
use crate::state::AppState;
use crate::view::{PointMap, name, names, stones};

/// The body: the stones of the turn so far, in the order played.
#[derive(Deserialize)]
pub(crate) struct StepsRequest {
    stones: Vec<String>,
}

#[derive(Serialize)]
struct GroupView {
    stones: Vec<String>,
    status: &'static str,
}

#[derive(Serialize)]
#[serde(untagged)]
enum NextStep {
    Allowed {
        kind: &'static str,
        reverses: Vec<String>,
    },
    Refused {
        refused: String,
    },
}

#[derive(Serialize)]
struct FinishView {
    allowed: bool,
    reason: Option<String>,
}

#[derive(Serialize)]
struct StepsView {
    stones: PointMap<&'static str>,
    pending: Vec<String>,
    kinds: Vec<&'static str>,
    reversed: Vec<String>,
    groups: Vec<GroupView>,
    next: PointMap<NextStep>,
    finish: FinishView,
}

fn kind_name(kind: StepKind) -> &'static str {
    match kind {
        StepKind::Growth => "growth",
        StepKind::Placement => "placement",
    }
}

fn status_name(status: GroupStatus) -> &'static str {
    match status {
        GroupStatus::Fresh => "fresh",
        GroupStatus::Grown => "grown",
        GroupStatus::Frozen => "frozen",
    }
}

/// `POST /api/games/{id}/steps`: the turn in progress on the game's position.
pub(crate) async fn steps(
    State(state): State<AppState>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<StepsRequest>,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let start = entry.with_live(|live| live.game.position().clone());
    answer(start, &request.stones).await
}

/// The answer to a turn in progress whose stones (`texts`, in the order
/// played) are played from `start`, a position between turns: `409` if the
/// game is over there, `400` for a stone that is not a point of the board,
/// `422` for a stone the rules refuse. The one answer of both
/// `POST /api/games/{id}/steps` and `POST /api/position/steps`.
pub(crate) async fn answer(start: Position, texts: &[String]) -> Result<Response, ApiError> {
    if start.is_over() {
        return Err(ApiError::Conflict("the game is over".to_string()));
    }
    let g = start.geometry();
    if texts.len() > g.num_points() {
        return Err(ApiError::BadRequest(format!(
            "{} stones: the board has {} points",
            texts.len(),
            g.num_points()
        )));
    }
    let mut points = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        let p = g
            .parse_point(text.trim())
            .map_err(|e| ApiError::BadRequest(format!("stone {}: {e}", i + 1)))?;
        points.push(p);
    }
    let json = tokio::task::spawn_blocking(move || describe(&start, &points))
        .await
        .map_err(|e| ApiError::Internal(format!("describing steps: {e}")))??;
    Ok(json_response(StatusCode::OK, json))
}

/// The answer for the pending `points` played from `start` (between turns).
fn describe(start: &Position, points: &[Point]) -> Result<String, ApiError> {
    let g = start.geometry();
    let mut pos = start.clone();
    let mut kinds = Vec::with_capacity(points.len());
    for (i, &p) in points.iter().enumerate() {
        let kind = pos
            .play_step(p)
            .map_err(|e| ApiError::Illegal(format!("step {} ({}): {e}", i + 1, name(&g, p))))?;
        kinds.push(kind_name(kind));
    }
    let groups = pos
        .base_groups()
        .into_iter()
        .map(|group| GroupView {
            stones: names(&g, &group.stones),
            status: status_name(group.status),
        })
        .collect();
    let finish = match pos.check_finish() {
        Ok(()) => FinishView {
            allowed: true,
            reason: None,
        },
        Err(e) => FinishView {
            allowed: false,
            reason: Some(e.to_string()),
        },
    };
    let view = StepsView {
        stones: stones(&pos),
        pending: names(&g, points),
        kinds,
        reversed: names(&g, &reversed_stones(start, &pos)),
        groups,
        next: next_steps(&pos),
        finish,
    };
    serde_json::to_string(&view).map_err(|e| ApiError::Internal(e.to_string()))
}

/// For every vacant point, the step it would be and the opponent stones it
/// would reverse, or why it is refused.
///
/// A step at p reverses exactly the opponent groups next to p whose only
/// liberty is p (docs/rules.md §4, §5): reversing changes no vacant point, so
/// nothing else can be captured.
fn next_steps(pos: &Position) -> PointMap<NextStep> {
    let g = pos.geometry();
    let opponent = pos.side_to_move().opponent();
    // Each opponent group once: its stones, and its only liberty if it has
    // exactly one.
    let mut group_of: HashMap<Point, usize> = HashMap::new();
    let mut groups: Vec<(Vec<Point>, Option<Point>)> = Vec::new();
    for (p, color) in pos.stones() {
        if color == opponent && !group_of.contains_key(&p) {
            let stones = pos.group(p);
            let liberties = pos.liberties(p);
            for &s in &stones {
                group_of.insert(s, groups.len());
            }
            let only = (liberties.len() == 1).then(|| liberties[0]);
            groups.push((stones, only));
        }
    }
    let mut next = Vec::new();
    for p in g.points() {
        if pos.stone_at(p).is_some() {
            continue;
        }
        let step = match pos.check_step(p) {
            Ok(kind) => {
                let mut hit: Vec<usize> = g
                    .neighbours(p)
                    .filter(|&q| pos.stone_at(q) == Some(opponent))
                    .filter_map(|q| group_of.get(&q).copied())
                    .filter(|&i| groups[i].1 == Some(p))
                    .collect();
                hit.sort_unstable();
                hit.dedup();
                let mut reverses: Vec<Point> = hit
                    .iter()
                    .flat_map(|&i| groups[i].0.iter().copied())
                    .collect();
                reverses.sort_unstable();
                NextStep::Allowed {
                    kind: kind_name(kind),
                    reverses: names(&g, &reverses),
                }
            }
            Err(e) => NextStep::Refused {
                refused: e.to_string(),
            },
        };
        next.push((name(&g, p), step));
    }
    PointMap(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sygo_rules::Turn;

    /// The reversals `next` predicts are the ones playing the step makes,
    /// on random positions of both boards, with turns in progress.
    #[test]
    fn predicted_reversals_are_the_real_ones() {
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        for g in [
            sygo_rules::Geometry::sygo(5).unwrap(),
            sygo_rules::Geometry::hexsygo(3).unwrap(),
        ] {
            for _ in 0..40 {
                let mut pos = Position::new(g);
                let mut checked = 0;
                while !pos.is_over() && checked < 60 {
                    // A random partial turn, then every next step checked.
                    let stones = pos.random_turn_stones(&mut rng);
                    let mut partial = pos.clone();
                    for &s in stones.iter().take(stones.len().saturating_sub(1)) {
                        partial.play_step(s).unwrap();
                    }
                    let PointMap(next) = next_steps(&partial);
                    for (at, step) in next {
                        let p = g.parse_point(&at).unwrap();
                        if let NextStep::Allowed { reverses, .. } = step {
                            let mut after = partial.clone();
                            after.play_step(p).unwrap();
                            let real: Vec<Point> = reversed_stones(&partial, &after);
                            let real = names(&g, &real);
                            let mut real_sorted = real.clone();
                            real_sorted.sort();
                            let mut predicted = reverses.clone();
                            predicted.sort();
                            assert_eq!(predicted, real_sorted, "{at} in {partial:?}");
                        }
                        checked += 1;
                    }
                    let turn = if stones.is_empty() {
                        Turn::Pass
                    } else {
                        Turn::Stones(stones)
                    };
                    pos.play_turn(&turn).unwrap();
                }
            }
        }
    }
}
