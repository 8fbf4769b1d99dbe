//! Conditional turns (docs/web.md, "Conditional turns"), each with a
//! side's token: `GET /api/games/{id}/conditional` (the side's own tree),
//! `PUT` (set it, checked by the rules), `DELETE` (clear it). The other
//! side never sees them.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use crate::api::extract::{JsonBody, side_of};
use crate::api::{find, json_response};
use crate::conditional::Branch;
use crate::error::ApiError;
use crate::state::AppState;

/// A side's conditional turns, as the API takes and gives them.
#[derive(Deserialize, Serialize)]
pub(crate) struct Tree {
    tree: Vec<Branch>,
}

/// `GET /api/games/{id}/conditional`: 200 `{"tree": [...]}`.
pub(crate) async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    let tree = entry.with_live(|live| live.conditional[color.index()].clone());
    let json =
        serde_json::to_string(&Tree { tree }).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(json_response(StatusCode::OK, json))
}

/// `PUT /api/games/{id}/conditional`: sets the side's tree; 200 with it.
pub(crate) async fn put(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<Tree>,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    let tree = body.tree;
    let (e, s, t) = (entry.clone(), state.clone(), tree.clone());
    tokio::spawn(async move { e.set_conditional(&s.db, color, t).await })
        .await
        .map_err(|e| ApiError::Internal(format!("setting conditional turns: {e}")))??;
    let json =
        serde_json::to_string(&Tree { tree }).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(json_response(StatusCode::OK, json))
}

/// `DELETE /api/games/{id}/conditional`: clears the side's tree; 204.
pub(crate) async fn delete(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    let (e, s) = (entry.clone(), state.clone());
    tokio::spawn(async move { e.set_conditional(&s.db, color, Vec::new()).await })
        .await
        .map_err(|e| ApiError::Internal(format!("clearing conditional turns: {e}")))??;
    Ok(StatusCode::NO_CONTENT.into_response())
}
