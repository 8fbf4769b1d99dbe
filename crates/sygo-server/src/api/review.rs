//! `POST /api/games/{id}/review` (queue the AI's review of a game) and
//! `GET /api/games/{id}/review` (where it stands, and its results):
//! `docs/web.md`, review; the reviews themselves are `crate::review`.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};

use crate::api::{count, find, json_response};
use crate::client_addr::ClientAddr;
use crate::error::ApiError;
use crate::games::Entry;
use crate::review;
use crate::review_store::{PositionReview, Status, hashes};
use crate::state::AppState;
use crate::view::name;

/// A reviewed position as the API writes it, from Black's side.
#[derive(Serialize)]
struct PositionView {
    turn: usize,
    win_rate: f64,
    score_lead: f64,
    best: Option<String>,
    visits: u64,
    /// Each point's owner, 1 Black to −1 White, two decimals, in the order
    /// of the review's `points`.
    ownership: Vec<f64>,
}

/// A review as the API writes it.
#[derive(Serialize)]
struct ReviewView {
    /// `none`, `queued`, `running` or `done`.
    status: &'static str,
    /// Reviews ahead of this one (the one running included) while queued;
    /// 0 while running; `null` otherwise.
    queue_position: Option<usize>,
    /// The game's positions (after 0 to all its turns) reviewed, and all
    /// of them.
    positions_done: usize,
    positions_total: usize,
    /// The visits of each position's search.
    visits_per_position: u64,
    /// The board's points, in the order of every `ownership`.
    points: Vec<String>,
    /// The reviewed positions from turn `from` on, in order.
    positions: Vec<PositionView>,
}

/// `x` rounded to `places` decimals.
fn round(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}

fn position_view(turn: usize, p: &PositionReview) -> PositionView {
    PositionView {
        turn,
        win_rate: round(p.win_rate, 4),
        score_lead: round(p.score_lead, 2),
        best: p.best.clone(),
        visits: p.visits,
        ownership: p.ownership.iter().map(|&o| f64::from(o) / 100.0).collect(),
    }
}

/// The review of `entry` as JSON, its positions from turn `from` on.
async fn review_json(state: &AppState, entry: &Entry, from: usize) -> Result<String, ApiError> {
    let game = entry.with_live(|live| live.game.clone());
    let hashes = hashes(&game);
    let id = &entry.meta.id;
    let reviews = &state.reviews;
    let status = review::status(state, id).await?;
    let positions = reviews.positions(id, &hashes);
    let g = entry.meta.geometry;
    let (status, queue_position) = match status {
        Status::None => ("none", None),
        Status::Queued { ahead } => ("queued", Some(ahead)),
        Status::Running => ("running", Some(0)),
        Status::Done => ("done", None),
    };
    let view = ReviewView {
        status,
        queue_position,
        positions_done: positions.len(),
        positions_total: hashes.len(),
        visits_per_position: reviews.visits_for(g.num_points()),
        points: g.points().map(|p| name(&g, p)).collect(),
        positions: positions
            .iter()
            .filter(|(turn, _)| *turn >= from)
            .map(|(turn, p)| position_view(*turn, p))
            .collect(),
    };
    serde_json::to_string(&view).map_err(|e| ApiError::Internal(e.to_string()))
}

/// The query of `GET /api/games/{id}/review`.
#[derive(Deserialize)]
pub(crate) struct ReviewQuery {
    /// Only the positions from this turn on (a page that has the earlier
    /// ones).
    from: Option<i64>,
}

/// `GET /api/games/{id}/review[?from=N]`.
pub(crate) async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<ReviewQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let Query(query) = query.map_err(|e| {
        ApiError::BadRequest(format!("the query is not ?from=N: {}", e.body_text()))
    })?;
    let from = query.from.map(|n| count("from", n)).transpose()?;
    let json = review_json(&state, &entry, from.unwrap_or(0)).await?;
    Ok(json_response(StatusCode::OK, json))
}

/// `POST /api/games/{id}/review`: queues the review (202 with it as `GET`
/// gives it, positions left out); asked again while it waits or runs,
/// nothing changes; 409 when every position is reviewed already.
pub(crate) async fn request(
    State(state): State<AppState>,
    Path(id): Path<String>,
    addr: ClientAddr,
) -> Result<Response, ApiError> {
    state.limits.review(addr.0)?;
    let entry = find(&state, &id).await?;
    let game = entry.with_live(|live| live.game.clone());
    review::request(&state, &entry.meta.id, &game).await?;
    let json = review_json(&state, &entry, usize::MAX).await?;
    Ok(json_response(StatusCode::ACCEPTED, json))
}
