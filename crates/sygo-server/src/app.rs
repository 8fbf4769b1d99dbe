//! The application: the shared state, the router (pages, embedded static
//! files, the API), the body limit, and JSON errors for unknown paths and
//! methods.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Path};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use include_dir::{Dir, include_dir};
use tokio::sync::watch;

use crate::ai::Ai;
use crate::api;
use crate::config::BODY_LIMIT;
use crate::db::Db;
use crate::error::ApiError;
use crate::events;
use crate::games::Games;

/// The front end: every file of `web/`, in the binary.
static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/web");

/// What every handler shares.
#[derive(Clone)]
pub(crate) struct AppState {
    pub games: Arc<Games>,
    pub db: Arc<Db>,
    pub ai: Arc<Ai>,
    /// Becomes true when the server shuts down (live updates end then).
    pub shutdown: watch::Receiver<bool>,
    /// The interval of keep-alive comments in live updates.
    pub keep_alive: Duration,
}

/// The router of the whole application.
pub(crate) fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/games", get(api::games::list).post(api::games::create))
        .route("/games/{id}", get(api::games::get))
        .route("/games/{id}/side", get(api::games::side_of_token))
        .route("/games/{id}/steps", post(api::steps::steps))
        .route("/games/{id}/turns", post(api::turns::play))
        .route("/games/{id}/events", get(events::events))
        .route("/games/{id}/hint", post(api::search::hint))
        .route("/games/{id}/analysis", post(api::search::analysis))
        .route("/games/{id}/record", get(api::records::download))
        .route("/records", post(api::records::upload))
        .route("/position", post(api::position::show))
        .route("/position/steps", post(api::position::steps))
        .route("/position/turns", post(api::position::turns))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed);
    Router::new()
        .route("/", get(index))
        .route("/games", get(index))
        .route("/game/{id}", get(index))
        .route("/learn", get(index))
        .route("/static/{*path}", get(static_file))
        .nest("/api", api)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::NotFound("there is nothing at this path".to_string())
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

/// The page of the app (`/`, `/games`, `/game/{id}`, `/learn`): `web/index.html`,
/// which routes on the path itself.
async fn index() -> Response {
    file_response("index.html")
}

/// `/static/{path}`: the file `web/{path}`.
async fn static_file(Path(path): Path<String>) -> Response {
    file_response(&path)
}

fn file_response(path: &str) -> Response {
    match WEB.get_file(path) {
        Some(file) => (
            [
                (CONTENT_TYPE, content_type(path)),
                (CACHE_CONTROL, "no-cache"),
            ],
            file.contents(),
        )
            .into_response(),
        None => ApiError::NotFound(format!("there is no file {path:?}")).into_response(),
    }
}

/// The content type of a file of the front end, by its extension.
pub(crate) fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    match ext.to_ascii_lowercase().as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "txt" | "md" => "text/plain; charset=utf-8",
        "sgf" => "application/x-go-sgf",
        "webmanifest" => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_of_the_front_end() {
        assert_eq!(content_type("app.js"), "text/javascript; charset=utf-8");
        assert_eq!(
            content_type("board/hex.MJS"),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(content_type("style.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("icon.svg"), "image/svg+xml");
        assert_eq!(content_type("LICENSE"), "application/octet-stream");
        assert!(WEB.get_file("index.html").is_some());
    }
}
