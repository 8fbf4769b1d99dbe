//! What a load balancer and a monitoring system ask (`docs/web.md`,
//! "Health, readiness, metrics and logs"): `GET /healthz` (the process
//! answers), `GET /readyz` (the database answers and the server is not
//! shutting down), `GET /metrics` (the Prometheus text format). Plain text,
//! never cached.

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

use crate::db::WriteError;
use crate::metrics::CONTENT_TYPE as METRICS_CONTENT_TYPE;
use crate::state::AppState;

/// How long `/readyz` waits for the database: less than a load balancer's
/// usual probe timeout.
pub(crate) const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// A plain-text answer, not to be cached.
fn text(status: StatusCode, body: String) -> Response {
    (
        status,
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8"),
            (CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

/// `GET /healthz`: 200 `ok` while the process answers requests.
pub(crate) async fn healthz() -> Response {
    text(StatusCode::OK, "ok".to_string())
}

/// `GET /readyz`: 200 `ready` when the database answers a statement within
/// [`READY_TIMEOUT`]; 503 with the reason when it does not, or while the
/// server shuts down.
pub(crate) async fn readyz(State(state): State<AppState>) -> Response {
    if *state.shutdown.borrow() {
        return text(StatusCode::SERVICE_UNAVAILABLE, "shutting down".to_string());
    }
    let reason = match tokio::time::timeout(READY_TIMEOUT, state.db.ping()).await {
        Ok(Ok(())) => return text(StatusCode::OK, "ready".to_string()),
        Ok(Err(WriteError::Failed(e))) => format!("the database failed: {e}"),
        Ok(Err(WriteError::Duplicate)) => "the database failed: a duplicate key".to_string(),
        Err(_) => format!(
            "the database did not answer within {} s",
            READY_TIMEOUT.as_secs()
        ),
    };
    tracing::warn!(reason = %reason, "not ready");
    text(StatusCode::SERVICE_UNAVAILABLE, reason)
}

/// `GET /metrics`: every metric (`metrics.rs`) in the Prometheus text
/// format 0.0.4.
pub(crate) async fn metrics(State(state): State<AppState>) -> Response {
    let (running, waiting) = state.ai.counts();
    let body = state.metrics.encode(crate::metrics::Held {
        games: state.games.len(),
        uploads: state.games.uploads_held(),
        ai_running: running,
        ai_waiting: waiting,
    });
    (
        StatusCode::OK,
        [
            (CONTENT_TYPE, METRICS_CONTENT_TYPE),
            (CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}
