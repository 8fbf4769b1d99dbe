//! The application: the shared state opened (the database read, the AI
//! resumed, the reviews started), the router (pages, embedded static
//! files, the API, the host's `/healthz`, `/readyz` and `/metrics`), the
//! body limit, JSON errors for unknown paths and methods, and every request
//! counted and timed.

use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Path};
use axum::http::HeaderValue;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY as CONTENT_SECURITY_POLICY_HEADER, CONTENT_TYPE,
    REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use include_dir::{Dir, include_dir};
use tokio::sync::watch;

use crate::accounts::Accounts;
use crate::ai;
use crate::api;
use crate::cluster::Role;
use crate::config::{BODY_LIMIT, Config};
use crate::db::{Db, Stored, StoredAccounts};
use crate::error::ApiError;
use crate::error::ServerError;
use crate::events;
use crate::follow;
use crate::games::{Entry, Games};
use crate::limits::Limits;
use crate::lobby::Lobby;
use crate::metrics::{self, AccountsReading, Metrics};
use crate::ratings::Ratings;
use crate::review;
use crate::review_store::Reviews;
use crate::same_site;
use crate::slots::Ai;
use crate::state::{AppState, Shutdown, WebSettings};

/// The front end: every file of `web/`, in the binary.
static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/web");

impl AppState {
    /// Opens the database of `config` (creating it if needed) and loads every
    /// game into memory; the AI resumes where it is to move once
    /// [`AppState::resume_ai`] is called (on a Tokio runtime).
    ///
    /// # Errors
    ///
    /// The database cannot be opened or read.
    pub async fn open(config: &Config) -> Result<(AppState, Shutdown), ServerError> {
        AppState::open_as(config, Role::Server).await
    }

    /// [`AppState::open`] for a server or a worker (`sygo worker`).
    pub(crate) async fn open_as(
        config: &Config,
        role: Role,
    ) -> Result<(AppState, Shutdown), ServerError> {
        let database = config.db.clone();
        // The accounts are read by `Db::open`, and again when another
        // program changes them; the slot is filled once they are loaded.
        type Slot = std::sync::OnceLock<(Arc<Accounts>, Arc<Ratings>)>;
        let accounts_slot: Arc<Slot> = Arc::default();
        let slot = accounts_slot.clone();
        let metrics = Arc::new(Metrics::new());
        let counted = metrics.clone();
        let changed = Box::new(move |mut stored: StoredAccounts| {
            if let Some((accounts, ratings)) = slot.get() {
                counted.accounts_read(AccountsReading::Whole);
                ratings.replace(std::mem::take(&mut stored.rating_changes));
                accounts.replace(stored);
            }
        });
        let takes_ai = config.ai_slots > 0;
        let (db, stored) =
            tokio::task::spawn_blocking(move || Db::open(&database, changed, takes_ai))
                .await
                .map_err(|e| ServerError(format!("opening the database: {e}")))?
                .map_err(|e| ServerError(e.to_string()))?;
        let Stored {
            games: stored,
            accounts: mut stored_accounts,
        } = stored;
        let lobby = Lobby::load(std::mem::take(&mut stored_accounts.challenges));
        let changes = std::mem::take(&mut stored_accounts.rating_changes);
        let (accounts, ratings) = accounts_slot
            .get_or_init(|| {
                (
                    Arc::new(Accounts::load(stored_accounts)),
                    Arc::new(Ratings::load(changes)),
                )
            })
            .clone();
        let games = Games::default();
        let reviews = Reviews::new(config.review_visits);
        let mut stored_reviews = Vec::new();
        for mut stored in stored {
            let review = stored.review.take();
            match Entry::from_stored(stored) {
                Ok(entry) => {
                    if let Some(review) = review {
                        stored_reviews.push((entry.meta.id.clone(), review));
                    }
                    games.insert(Arc::new(entry));
                }
                Err(e) => tracing::warn!(error = %e, "a stored game is skipped"),
            }
        }
        for (id, review) in stored_reviews {
            reviews.load(&id, review);
        }
        let (sender, shutdown) = watch::channel(false);
        let ai = Arc::new(Ai::new(config.ai_slots));
        let state = AppState {
            games: Arc::new(games),
            db: Arc::new(db),
            ai: ai.clone(),
            reviews: Arc::new(reviews),
            shutdown,
            keep_alive: config.keep_alive,
            accounts,
            limits: Arc::new(Limits::new(config.rate_limits)),
            ratings,
            lobby: Arc::new(lobby),
            web: WebSettings {
                secure_cookies: config.secure_cookies,
                trust_proxy: config.trust_proxy,
            },
            metrics,
            cluster: None,
            readers: Arc::new(tokio::sync::Semaphore::new(crate::uploaded::READERS)),
        };
        let mut state = state;
        // Other servers on the database: followed from now on.
        if let Some(opened) = follow::open(&state, role, config.ai_slots) {
            state.cluster = Some(opened.cluster.clone());
            follow::run(&state, opened);
        }
        for entry in state.games.all() {
            follow::note_rematch(&state, &entry);
        }
        // The clocks of the games of players on vacation stop as stored.
        crate::vacation::load(&state);
        review::start(&state);
        let db = state.db.clone();
        Ok((state, Shutdown { ai, sender, db }))
    }

    /// Number of games loaded.
    pub fn game_count(&self) -> usize {
        self.games.len()
    }

    /// The games where the AI is to move resume its thinking, and the
    /// clocks' watcher starts (a game past its deadline ends on time).
    pub fn resume_ai(&self) {
        crate::timeouts::start(self);
        // Conditional turns that a stop kept from answering answer now.
        for entry in self.games.newest_first() {
            if entry.with_live(|live| live.conditional.iter().any(|t| !t.is_empty())) {
                let state = self.clone();
                tokio::spawn(async move {
                    crate::ai::after_turn(&state, &entry).await;
                });
            }
        }
        let to_move: Vec<Arc<Entry>> = self
            .games
            .newest_first()
            .into_iter()
            .filter(|entry| entry.ai_to_move())
            .collect();
        if self.db.is_shared() {
            // Whoever takes each game's job plays it (this server, another,
            // or a worker), so that it is played once.
            for entry in &to_move {
                entry.set_ai_thinking(true);
            }
            let state = self.clone();
            let ids = to_move.iter().map(|e| e.meta.id.clone()).collect();
            tokio::spawn(async move {
                if let Err(e) = state.db.ensure_ai_jobs(ids).await {
                    tracing::error!(error = ?e, "the AI's jobs could not be stored");
                }
            });
            return;
        }
        for entry in to_move {
            entry.set_ai_thinking(true);
            ai::start_turn(self, entry);
        }
    }
}

/// The whole application as an axum [`Router`]: the pages, the embedded
/// front end, the API (`docs/web.md`). Serve it, or call it in-process
/// (`tower::ServiceExt::oneshot`).
///
/// ```no_run
/// # async fn example() -> Result<(), sygo_server::ServerError> {
/// use sygo_server::{AppState, Config, app};
/// let config = Config::new("127.0.0.1:0".parse().unwrap(), "games.db");
/// let (state, _shutdown) = AppState::open(&config).await?;
/// let router = app(state);
/// # let _ = router;
/// # Ok(())
/// # }
/// ```
pub fn app(state: AppState) -> Router {
    let metrics = state.metrics.clone();
    let api = Router::new()
        .route("/games", get(api::games::list).post(api::games::create))
        .route("/games/{id}", get(api::games::get))
        .route("/games/{id}/side", get(api::games::side_of_token))
        .route("/games/{id}/steps", post(api::steps::steps))
        .route("/games/{id}/turns", post(api::turns::play))
        .route("/games/{id}/resign", post(api::turns::resign))
        .route("/games/{id}/undo", post(api::turns::undo))
        .route("/games/{id}/abort", post(api::etiquette::abort))
        .route(
            "/games/{id}/undo-request",
            post(api::etiquette::undo_request),
        )
        .route("/games/{id}/undo-answer", post(api::etiquette::undo_answer))
        .route(
            "/games/{id}/rematch",
            get(api::etiquette::get_rematch)
                .post(api::etiquette::offer_rematch)
                .delete(api::etiquette::withdraw_rematch),
        )
        .route(
            "/games/{id}/chat",
            get(api::etiquette::chat_page).post(api::etiquette::chat),
        )
        .route(
            "/games/{id}/conditional",
            get(api::conditional::get)
                .put(api::conditional::put)
                .delete(api::conditional::delete),
        )
        .route("/games/{id}/presence", post(api::etiquette::presence))
        .route("/games/{id}/events", get(events::events))
        .route("/games/{id}/hint", post(api::search::hint))
        .route("/games/{id}/analysis", post(api::search::analysis))
        .route(
            "/games/{id}/review",
            get(api::review::get).post(api::review::request),
        )
        .route("/searches/{ticket}", get(api::search::place))
        .route("/games/{id}/record", get(api::records::download))
        .route("/games/{id}/record/tree", get(api::uploaded::tree))
        .route("/games/{id}/record/node", get(api::uploaded::node))
        .route("/records", post(api::records::upload))
        .route("/position", post(api::position::show))
        .route("/position/steps", post(api::position::steps))
        .route("/position/turns", post(api::position::turns))
        .route(
            "/account",
            get(api::accounts::get).post(api::accounts::sign_up),
        )
        .route("/account/password", post(api::accounts::change_password))
        .route("/account/claims", post(api::accounts::claims))
        .route("/account/vacation", post(api::accounts::vacation))
        .route("/account/events", get(api::accounts::events))
        .route(
            "/session",
            post(api::accounts::sign_in).delete(api::accounts::sign_out),
        )
        .route("/players/{name}", get(api::players::profile))
        .route("/ratings/{family}", get(api::ratings::leaderboard))
        .route("/lobby", get(api::lobby::get))
        .route("/lobby/events", get(api::lobby::events))
        .route("/challenges", post(api::lobby::post))
        .route("/challenges/{id}", delete(api::lobby::withdraw))
        .route("/challenges/{id}/accept", post(api::lobby::accept))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed);
    Router::new()
        .route("/", get(index))
        .route("/games", get(index))
        .route("/game/{id}", get(index))
        .route("/learn", get(index))
        .route("/account", get(index))
        .route("/player/{name}", get(index))
        .route("/ratings", get(index))
        .route("/static/{*path}", get(static_file))
        .route("/healthz", get(api::health::healthz))
        .route("/readyz", get(api::health::readyz))
        .route("/metrics", get(api::health::metrics))
        .nest("/api", api)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn(same_site::only_this_site))
        .layer(middleware::map_response(security_headers))
        // Outermost: every answer is counted, those of the layers above too.
        .layer(middleware::from_fn_with_state(metrics, metrics::record))
        .with_state(state)
}

/// The Content-Security-Policy of every answer: scripts, styles, images and
/// connections from this site only; no inline script or style, no plugin,
/// no framing. The front end needs nothing more (it sets styles through the
/// CSSOM, which the policy allows).
pub(crate) const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to an answer: the policy above, no MIME
/// sniffing, no referrer (a page's URL may carry a side's token in its
/// fragment, which is never sent, but its path is the game's).
async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_SECURITY_POLICY_HEADER,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

async fn not_found() -> ApiError {
    ApiError::NotFound("there is nothing at this path".to_string())
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

/// The page of the app (`/`, `/games`, `/game/{id}`, `/learn`, `/account`,
/// `/player/{name}`): `web/index.html`,
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
