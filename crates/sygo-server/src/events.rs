//! `GET /api/games/{id}/events`: live updates as server-sent events.
//!
//! The stream opens with the game as it is (so a page that reconnects
//! misses nothing), then sends it again after every change: a turn played,
//! the AI starting or ending its thought. Each event is `event: game`, its
//! `id:` the turn number, its data the game as `GET /api/games/{id}` gives
//! it. A `: keep-alive` comment goes out when nothing else has for a while.
//! The stream ends when the server shuts down.

use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use tokio::sync::{broadcast, watch};

use crate::api::find;
use crate::error::ApiError;
use crate::games::{Entry, Update};
use crate::state::AppState;

/// Where a stream of updates stands.
struct Watch {
    /// The update to send first.
    first: Option<Update>,
    updates: broadcast::Receiver<Arc<Update>>,
    shutdown: watch::Receiver<bool>,
    entry: Arc<Entry>,
}

fn event(update: &Update) -> Event {
    Event::default()
        .event("game")
        .id(update.turn_number.to_string())
        .data(&update.json)
}

/// The next event of a stream, or `None` when it ends.
async fn next(mut w: Watch) -> Option<(Result<Event, Infallible>, Watch)> {
    if let Some(first) = w.first.take() {
        return Some((Ok(event(&first)), w));
    }
    if *w.shutdown.borrow() {
        return None;
    }
    tokio::select! {
        received = w.updates.recv() => match received {
            Ok(update) => Some((Ok(event(&update)), w)),
            Err(broadcast::error::RecvError::Lagged(_)) => {
                // Too far behind: skip what is buffered, send the game as
                // it is now.
                w.updates = w.updates.resubscribe();
                let now = w.entry.update();
                Some((Ok(event(&now)), w))
            }
            Err(broadcast::error::RecvError::Closed) => None,
        },
        _ = w.shutdown.changed() => None,
    }
}

/// `GET /api/games/{id}/events`.
pub(crate) async fn events(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id)?;
    crate::ai::resume(&state, &entry);
    // Subscribe before reading the game: no change falls in between.
    let updates = entry.subscribe();
    let first = entry.update();
    let watch = Watch {
        first: Some(first),
        updates,
        shutdown: state.shutdown.clone(),
        entry,
    };
    let stream = stream::unfold(watch, next);
    let keep_alive = KeepAlive::new()
        .interval(state.keep_alive)
        .text("keep-alive");
    Ok(Sse::new(stream).keep_alive(keep_alive).into_response())
}
