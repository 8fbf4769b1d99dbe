//! The record of an uploaded game beyond its main line:
//! `GET /api/games/{id}/record/tree?from=N` (its nodes in parts, each with
//! its turn in words and its comment) and
//! `GET /api/games/{id}/record/node?path=…` or `?node=N` (the position at a
//! node, answered like a game at a turn). The JSON is `crate::record_view`'s.

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

/// The query of `GET /api/games/{id}/record/tree`.
#[derive(Deserialize)]
pub(crate) struct TreeQuery {
    /// The first node of the part (0 when absent).
    from: Option<usize>,
}

/// `GET /api/games/{id}/record/tree[?from=N]`: the nodes from number `N`,
/// at most `record_view::TREE_PART`, and where the next part starts.
pub(crate) async fn tree(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<TreeQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let uploaded = uploaded(&state, &id).await?;
    let Query(query) = query.map_err(|e| {
        ApiError::BadRequest(format!(
            "the query is not ?from=N (a node's number): {}",
            e.body_text()
        ))
    })?;
    let from = query.from.unwrap_or(0);
    let total = uploaded.places.len();
    if from >= total.max(1) {
        return Err(ApiError::BadRequest(format!(
            "from={from}: the record has {total} nodes (numbers 0 to {})",
            total.saturating_sub(1)
        )));
    }
    json(&tree_view(&uploaded, from))
}

/// The query of `GET /api/games/{id}/record/node`.
#[derive(Deserialize)]
pub(crate) struct NodeQuery {
    /// The node's path (`0.0.1`); the root when absent or empty.
    path: Option<String>,
    /// The node's number, instead of its path.
    node: Option<usize>,
}

/// `GET /api/games/{id}/record/node?path=0.0.1` (or `?node=N`): `400` for
/// a path that is not numbers separated by dots (or both asked), `404` for
/// one that names no node.
pub(crate) async fn node(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<NodeQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let uploaded = uploaded(&state, &id).await?;
    let Query(query) = query.map_err(|e| {
        ApiError::BadRequest(format!(
            "the query is not ?path=… or ?node=N: {}",
            e.body_text()
        ))
    })?;
    let number = match (query.path, query.node) {
        (Some(_), Some(_)) => {
            return Err(ApiError::BadRequest(
                "a node by its path or by its number (node=N), not both".to_string(),
            ));
        }
        (None, Some(number)) => number,
        (path, None) => {
            let text = path.unwrap_or_default();
            let path: NodePath = text
                .parse()
                .map_err(|e: PathError| ApiError::BadRequest(format!("path {text:?}: {e}")))?;
            uploaded
                .number_at(&path)
                .map_err(|e| ApiError::NotFound(format!("path {text:?}: {e}")))?
        }
    };
    let view = node_view(&uploaded, number).ok_or_else(|| {
        ApiError::NotFound(format!(
            "node {number}: the record has {} nodes",
            uploaded.places.len()
        ))
    })?;
    json(&view)
}
