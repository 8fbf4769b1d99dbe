//! `POST /api/position`, `/api/position/steps` and `/api/position/turns`:
//! the rules asked about any position, given as a position string
//! (`docs/position-string.md`), outside any game. Nothing is stored; anyone
//! may ask. The rules tutorial (`/learn`) plays its lessons through them.
//!
//! - `/api/position`: the position as the pages draw it (points, stones, side
//!   to move, score and territory).
//! - `/api/position/steps`: a turn in progress on it, answered by the very
//!   function that answers `POST /api/games/{id}/steps` ([`steps::answer`]).
//! - `/api/position/turns`: a whole turn played on it, and the position after.

use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use sygo_rules::{Position, Turn};

use crate::api::extract::JsonBody;
use crate::api::{json_response, steps};
use crate::error::ApiError;
use crate::view::{PositionView, names, position_view};

/// The body of `POST /api/position`.
#[derive(Deserialize)]
pub(crate) struct PositionRequest {
    position: String,
}

/// The body of `POST /api/position/steps`: the position, and the stones of
/// the turn so far in the order played.
#[derive(Deserialize)]
pub(crate) struct PositionStepsRequest {
    position: String,
    stones: Vec<String>,
}

/// The body of `POST /api/position/turns`: the position, and a turn as the
/// protocol writes it (`D5,F7`, `pass`, `resign`).
#[derive(Deserialize)]
pub(crate) struct PositionTurnRequest {
    position: String,
    turn: String,
}

/// The answer of `POST /api/position/turns`.
#[derive(Serialize)]
struct TurnPlayed {
    /// The turn as the rules write it back (`D5,F7`, `pass`).
    turn: String,
    /// Who played it.
    color: &'static str,
    /// The stones it placed, in order.
    stones: Vec<String>,
    /// The opponent stones it reversed.
    reversed: Vec<String>,
    /// `placement`, `growth`, `balance`, `pass` or `resignation`.
    kind: &'static str,
    /// The turn in words (`sygo_rules::TurnSummary`).
    description: String,
    /// The position after it.
    position: PositionView,
}

/// A position string read (`400` naming what is wrong).
fn read(text: &str) -> Result<Position, ApiError> {
    Position::from_position_string(text.trim())
        .map_err(|e| ApiError::BadRequest(format!("position {:?}: {e}", text.trim())))
}

fn json<T: Serialize>(value: &T) -> Result<Response, ApiError> {
    let text = serde_json::to_string(value).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(json_response(StatusCode::OK, text))
}

/// `POST /api/position`.
pub(crate) async fn show(
    JsonBody(request): JsonBody<PositionRequest>,
) -> Result<Response, ApiError> {
    let pos = read(&request.position)?;
    json(&position_view(&pos))
}

/// `POST /api/position/steps`.
pub(crate) async fn steps(
    JsonBody(request): JsonBody<PositionStepsRequest>,
) -> Result<Response, ApiError> {
    let start = read(&request.position)?;
    steps::answer(start, &request.stones).await
}

/// `POST /api/position/turns`: `409` on a finished position, `400` for a
/// turn that does not parse, `422` with the rules' reason for one they
/// refuse.
pub(crate) async fn turns(
    JsonBody(request): JsonBody<PositionTurnRequest>,
) -> Result<Response, ApiError> {
    let mut pos = read(&request.position)?;
    if pos.is_over() {
        return Err(ApiError::Conflict("the game is over".to_string()));
    }
    let g = pos.geometry();
    let turn = Turn::parse(request.turn.trim(), &g)
        .map_err(|e| ApiError::BadRequest(format!("turn {:?}: {e}", request.turn)))?;
    let summary = pos
        .play_turn_summary(&turn)
        .map_err(|e| ApiError::Illegal(e.to_string()))?;
    json(&TurnPlayed {
        turn: turn.to_notation(&g),
        color: summary.color.lowercase(),
        stones: names(&g, turn.stones()),
        reversed: names(&g, &summary.reversed),
        kind: summary.kind.name(),
        description: summary.to_string(),
        position: position_view(&pos),
    })
}
