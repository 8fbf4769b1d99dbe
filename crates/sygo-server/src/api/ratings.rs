//! `GET /api/ratings/{family}`: the leaderboard of a board family (`sygo`
//! or `hexsygo`): the accounts with an established rating (not
//! provisional), best first.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Serialize;

use crate::api::json_response;
use crate::error::ApiError;
use crate::ratings::RatingView;
use crate::state::AppState;

/// Most players on the leaderboard.
const MAX_ROWS: usize = 100;

#[derive(Serialize)]
struct Row {
    rank: usize,
    name: String,
    #[serde(flatten)]
    rating: RatingView,
}

#[derive(Serialize)]
struct Leaderboard<'a> {
    family: &'a str,
    players: Vec<Row>,
}

/// `GET /api/ratings/{family}`.
pub(crate) async fn leaderboard(
    State(state): State<AppState>,
    Path(family): Path<String>,
) -> Result<Response, ApiError> {
    if family != "sygo" && family != "hexsygo" {
        return Err(ApiError::NotFound(format!(
            "{family:?} is not a board family: sygo or hexsygo"
        )));
    }
    let players = state
        .ratings
        .table(&family)
        .into_iter()
        .filter(|(_, r)| !r.view().provisional)
        .filter_map(|(account, r)| {
            let a = state.accounts.by_id(account).filter(|a| !a.disabled)?;
            Some((a.name, r.view()))
        })
        .take(MAX_ROWS)
        .enumerate()
        .map(|(i, (name, rating))| Row {
            rank: i + 1,
            name,
            rating,
        })
        .collect();
    let json = serde_json::to_string(&Leaderboard {
        family: &family,
        players,
    })
    .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(json_response(StatusCode::OK, json))
}
