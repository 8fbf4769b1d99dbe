//! The JSON API (`docs/web.md`), one file per group of endpoints, and what
//! they share: request bodies, tokens, answers.

pub(crate) mod accounts;
pub(crate) mod conditional;
pub(crate) mod etiquette;
pub(crate) mod extract;
pub(crate) mod games;
pub(crate) mod health;
pub(crate) mod lobby;
pub(crate) mod players;
pub(crate) mod position;
pub(crate) mod ratings;
pub(crate) mod records;
pub(crate) mod review;
pub(crate) mod search;
pub(crate) mod steps;
pub(crate) mod turns;
pub(crate) mod uploaded;

use std::sync::Arc;

use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::games::Entry;
use crate::secret::is_id;
use crate::state::AppState;

/// An answer whose body is JSON text already written.
pub(crate) fn json_response(status: StatusCode, json: String) -> Response {
    (status, [(CONTENT_TYPE, "application/json")], json).into_response()
}

/// The game named in a path (404 for anything else). A game not in memory
/// is read from the database: an uploaded game let go of, or (with other
/// servers on the database) one another server just started, its notice
/// still on the way.
pub(crate) async fn find(state: &AppState, id: &str) -> Result<Arc<Entry>, ApiError> {
    if !is_id(id) {
        return Err(ApiError::no_game(id));
    }
    crate::follow::entry(state, id)
        .await
        .ok_or_else(|| ApiError::no_game(id))
}

/// A count sent as a JSON number, as a `usize`.
pub(crate) fn count(field: &str, n: i64) -> Result<usize, ApiError> {
    usize::try_from(n).map_err(|_| ApiError::BadRequest(format!("{field} {n} is negative")))
}
