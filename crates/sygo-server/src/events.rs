//! `GET /api/games/{id}/events`: live updates as server-sent events.
//!
//! The stream opens with the game as it is (`event: game`, the game as
//! `GET /api/games/{id}` gives it), so a page that reconnects misses
//! nothing; then each change comes as a small event that says what changed
//! (`turn`, `change`, `chat`), or as the whole game again where a page
//! could not work it out (turns taken back, a reader that fell behind).
//! `docs/web.md` is the contract. Each event is written once, as the bytes
//! that go on the wire, and shared by every stream of the game; its `id:`
//! is the game's turn number. A `: keep-alive` comment goes out when
//! nothing else has for a while. The stream ends when the server shuts
//! down.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use tokio::sync::{broadcast, watch};
use tokio::time::{Instant, Sleep};

use crate::api::find;
use crate::error::ApiError;
use crate::event_frame::Update;
use crate::games::Entry;
use crate::metrics::{Stream, StreamGuard};
use crate::state::AppState;

/// The comment sent when nothing else has been for a while.
const KEEP_ALIVE: &[u8] = b": keep-alive\n\n";

/// Where a stream of updates stands.
struct Watch {
    /// The event to send first: the whole game.
    first: Option<Bytes>,
    updates: broadcast::Receiver<Arc<Update>>,
    shutdown: watch::Receiver<bool>,
    entry: Arc<Entry>,
    keep_alive: Duration,
    /// When the keep-alive comment is due (put off by every event).
    quiet: Pin<Box<Sleep>>,
    /// Counts the stream as open (`sygo_live_streams`) until it is dropped.
    _open: StreamGuard,
}

/// The next bytes of a stream, or `None` when it ends.
async fn next(mut w: Watch) -> Option<(Result<Bytes, Infallible>, Watch)> {
    if let Some(first) = w.first.take() {
        let due = Instant::now() + w.keep_alive;
        w.quiet.as_mut().reset(due);
        return Some((Ok(first), w));
    }
    if *w.shutdown.borrow() {
        return None;
    }
    let bytes = tokio::select! {
        received = w.updates.recv() => match received {
            Ok(update) => update.frame.clone(),
            Err(broadcast::error::RecvError::Lagged(_)) => {
                // Too far behind: the game as it is now, and the events
                // from there on.
                let (updates, first) = w.entry.watch();
                w.updates = updates;
                first.frame
            }
            Err(broadcast::error::RecvError::Closed) => return None,
        },
        _ = w.shutdown.changed() => return None,
        () = w.quiet.as_mut() => Bytes::from_static(KEEP_ALIVE),
    };
    let due = Instant::now() + w.keep_alive;
    w.quiet.as_mut().reset(due);
    Some((Ok(bytes), w))
}

/// `GET /api/games/{id}/events`.
pub(crate) async fn events(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    crate::ai::resume(&state, &entry);
    // Subscribed and read under one lock: no change falls in between.
    let (updates, first) = entry.watch();
    let keep_alive = state.keep_alive;
    let watch = Watch {
        first: Some(first.frame),
        updates,
        shutdown: state.shutdown.clone(),
        entry,
        keep_alive,
        quiet: Box::pin(tokio::time::sleep(keep_alive)),
        _open: state.metrics.stream_opened(Stream::Game),
    };
    let body = Body::from_stream(stream::unfold(watch, next));
    Ok((
        StatusCode::OK,
        [
            (CONTENT_TYPE, "text/event-stream"),
            (CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response())
}
