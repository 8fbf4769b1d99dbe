//! The record of an uploaded game beyond its main line:
//! `GET /api/games/{id}/record/tree` (every node, with its turn in words and
//! its comment) and `GET /api/games/{id}/record/node?path=…` (the position
//! at a node, answered like a game at a turn). The JSON is
//! `crate::uploaded`'s.

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use sygo_records::{NodePath, PathError};

use crate::api::{find, json_response};
use crate::error::ApiError;
use crate::record_view::{node_view, tree_view};
use crate::state::AppState;
use crate::uploaded::Uploaded;

/// The uploaded record of the game named in the path: `404` for a game
/// played here (it has no record tree).
async fn uploaded(state: &AppState, id: &str) -> Result<Arc<Uploaded>, ApiError> {
    find(state, id).await?.uploaded().ok_or_else(|| {
        ApiError::NotFound(format!(
            "game {id:?} was played here, not uploaded: it has no record tree"
        ))
    })
}

fn json<T: Serialize>(value: &T) -> Result<Response, ApiError> {
    let text = serde_json::to_string(value).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(json_response(StatusCode::OK, text))
}

/// `GET /api/games/{id}/record/tree`.
pub(crate) async fn tree(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let uploaded = uploaded(&state, &id).await?;
    json(&tree_view(&uploaded.record))
}

/// The query of `GET /api/games/{id}/record/node`.
#[derive(Deserialize)]
pub(crate) struct NodeQuery {
    /// The node's path (`0.0.1`); the root when absent or empty.
    path: Option<String>,
}

/// `GET /api/games/{id}/record/node?path=0.0.1`: `400` for a path that is
/// not numbers separated by dots, `404` for one that names no node.
pub(crate) async fn node(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<NodeQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let uploaded = uploaded(&state, &id).await?;
    let Query(query) = query.map_err(|e| {
        ApiError::BadRequest(format!("the query is not ?path=…: {}", e.body_text()))
    })?;
    let text = query.path.unwrap_or_default();
    let path: NodePath = text
        .parse()
        .map_err(|e: PathError| ApiError::BadRequest(format!("path {text:?}: {e}")))?;
    let view = node_view(&uploaded.record, &path)
        .map_err(|e| ApiError::NotFound(format!("path {text:?}: {e}")))?;
    json(&view)
}
