//! `POST /api/games/{id}/turns`: a side plays a turn with its token.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Deserialize;
use sygo_rules::Turn;

use crate::ai;
use crate::api::extract::{JsonBody, side_of};
use crate::api::{count, find, json_response};
use crate::app::AppState;
use crate::error::ApiError;

/// The body: the turn as the protocol writes it, and the number of turns
/// played so far as the page saw it.
#[derive(Deserialize)]
pub(crate) struct TurnRequest {
    turn: String,
    turn_number: i64,
}

/// `POST /api/games/{id}/turns`: 200 with the game after the turn, once the
/// turn is in the database.
pub(crate) async fn play(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<TurnRequest>,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id)?;
    let color = side_of(&entry, &headers)?;
    let expected = count("turn_number", request.turn_number)?;
    let turn = Turn::parse(request.turn.trim(), &entry.meta.geometry)
        .map_err(|e| ApiError::BadRequest(format!("turn {:?}: {e}", request.turn)))?;
    // Played on a task of its own, so that a client that goes away cannot
    // stop it between the commit and the live game.
    let playing = {
        let (entry, state) = (entry.clone(), state.clone());
        tokio::spawn(async move { entry.play(&state.db, color, turn, Some(expected)).await })
    };
    let ai_next = playing
        .await
        .map_err(|e| ApiError::Internal(format!("playing a turn: {e}")))??;
    if ai_next {
        ai::start_turn(&state, entry.clone());
    }
    Ok(json_response(StatusCode::OK, entry.update().json))
}
