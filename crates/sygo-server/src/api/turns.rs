//! A side's moves with its token: `POST /api/games/{id}/turns` (a turn),
//! `/resign` (at any time), `/undo` (turns taken back, against the AI and
//! when one page plays both sides).

use axum::extract::{Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use sygo_rules::Turn;

use crate::ai;
use crate::api::extract::{JsonBody, color_of, side_of};
use crate::api::{count, find, json_response};
use crate::error::ApiError;
use crate::metrics::PlayedBy;
use crate::state::AppState;

/// The body: the turn as the protocol writes it, and the number of turns
/// played so far as the page saw it.
#[derive(Deserialize)]
pub(crate) struct TurnRequest {
    turn: String,
    turn_number: i64,
}

/// Whether a request asks for a minimal answer (`Prefer: return=minimal`,
/// RFC 7240).
fn wants_minimal(headers: &HeaderMap) -> bool {
    headers
        .get_all("prefer")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|p| p.trim().eq_ignore_ascii_case("return=minimal"))
}

/// `POST /api/games/{id}/turns`: 200 with the game after the turn, once the
/// turn is in the database; with `Prefer: return=minimal`, the `turn` event
/// of the game's last turn instead (`docs/web.md`: a client that keeps the
/// game applies it as it applies the live updates; a 19×19 game is tens of
/// kilobytes, the event about one).
pub(crate) async fn play(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<TurnRequest>,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    let expected = count("turn_number", request.turn_number)?;
    let turn = Turn::parse(request.turn.trim(), &entry.meta.geometry)
        .map_err(|e| ApiError::BadRequest(format!("turn {:?}: {e}", request.turn)))?;
    // Played on a task of its own, so that a client that goes away cannot
    // stop it between the commit and the live game.
    let playing = {
        let (entry, state) = (entry.clone(), state.clone());
        tokio::spawn(async move {
            let ai_next = entry
                .play(&state.db, &state.ratings, color, turn, Some(expected), None)
                .await?;
            state.metrics.turn_played(PlayedBy::Api);
            if !ai_next {
                // The other side's conditional turn may answer at once.
                ai::after_turn(&state, &entry).await;
            }
            Ok::<bool, ApiError>(ai_next)
        })
    };
    let ai_next = playing
        .await
        .map_err(|e| ApiError::Internal(format!("playing a turn: {e}")))??;
    if ai_next {
        ai::start_turn(&state, entry.clone());
    }
    if wants_minimal(&headers) {
        return Ok((
            StatusCode::OK,
            [
                (CONTENT_TYPE, HeaderValue::from_static("application/json")),
                (
                    HeaderName::from_static("preference-applied"),
                    HeaderValue::from_static("return=minimal"),
                ),
            ],
            entry.turn_event(),
        )
            .into_response());
    }
    Ok(json_response(StatusCode::OK, entry.json(None)))
}

/// `POST /api/games/{id}/resign`: the token's side resigns, on its turn or
/// not (a body, if any, is not read); 200 with the game, once the
/// resignation is in the database.
pub(crate) async fn resign(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    let resigning = {
        let (entry, state) = (entry.clone(), state.clone());
        tokio::spawn(async move { entry.resign(&state.db, &state.ratings, color).await })
    };
    resigning
        .await
        .map_err(|e| ApiError::Internal(format!("resigning: {e}")))??;
    Ok(json_response(StatusCode::OK, entry.json(None)))
}

/// The body of an undo: the number of turns played as the page saw it, and
/// the other side's token when one page plays both sides.
#[derive(Deserialize)]
pub(crate) struct UndoRequest {
    turn_number: i64,
    #[serde(default)]
    other_token: Option<String>,
}

/// `POST /api/games/{id}/undo`: turns taken back (`Entry::undo`); 200 with
/// the game, once the database has them taken back.
pub(crate) async fn undo(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<UndoRequest>,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    let expected = count("turn_number", request.turn_number)?;
    let both = match request.other_token.as_deref() {
        None => false,
        Some(token) if color_of(&state, &entry, token, &headers) == Some(color.opponent()) => true,
        Some(_) => {
            return Err(ApiError::Unauthorized(
                "other_token is not the other side's token of this game".to_string(),
            ));
        }
    };
    let undoing = {
        let (entry, state) = (entry.clone(), state.clone());
        tokio::spawn(async move { entry.undo(&state.db, color, both, expected).await })
    };
    undoing
        .await
        .map_err(|e| ApiError::Internal(format!("taking turns back: {e}")))??;
    Ok(json_response(StatusCode::OK, entry.json(None)))
}
