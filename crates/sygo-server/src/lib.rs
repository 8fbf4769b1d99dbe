//! The web app of sygo: play Sygo and Hexsygo in the browser, against the AI
//! or another person, online (`docs/web.md` is the contract).
//!
//! An [axum](https://docs.rs/axum) server with a JSON API over the rules
//! library (the browser never applies the rules itself: it asks which steps
//! are allowed and why one is refused), live updates as server-sent events,
//! the AI searching on threads of its own, every game in SQLite or
//! PostgreSQL ([`Database`]; a turn is committed before it is acknowledged),
//! and the front end (`web/`) embedded in the binary.
//!
//! ```no_run
//! use sygo_server::{Config, serve};
//! let config = Config::new("127.0.0.1:8080".parse().unwrap(), "sygo.db");
//! serve(config, |addr| println!("sygo web app: open http://{addr}/")).unwrap();
//! ```
//!
//! # Modules
//!
//! From the bottom up (no file imports another in a circle; the list in
//! `ARCHITECTURE.md` gives every file):
//!
//! - `config`: [`Config`] and the limits; `error`: [`ApiError`], every
//!   error as JSON, and [`ServerError`]; `db` (with `migrations/`): the two
//!   stores (SQLite, PostgreSQL) behind one set of statements, one writer
//!   thread with group commit; [`admin`]: the host's commands.
//! - `accounts`: the accounts, sessions and seats in memory; `password`:
//!   Argon2id; `limits`: rate limits; `client_addr`: the client's address; `same_site`:
//!   requests from other sites refused.
//! - `slots`: the AI's search slots; `game`: one game as data (its sides,
//!   what never changes, what changes); `uploaded`: what an uploaded record
//!   holds beyond its main line; `view` and `record_view`: their JSON.
//! - `games`: the games in memory, their locks, and how a turn is played
//!   and committed; `review_store`: the AI's reviews in memory; `state`:
//!   [`AppState`], what every handler shares; `session`: the session
//!   cookie and who is signed in.
//! - `ai`: the AI's turns, hints and analyses; `review`: the AI's reviews
//!   of whole games in the background, and `review_record`: a record with
//!   a review in it.
//! - `metrics`: what the server counts for its host (`GET /metrics`) and
//!   the middleware that counts every request.
//! - `api/`: the endpoints, one file per group (`api/health.rs`: the
//!   host's `/healthz`, `/readyz`, `/metrics`); `events`: live updates;
//!   `app`: the state opened and the router; `server`: the socket and the
//!   shutdown.
//!
//! Events (failures, the start and the end of serving, and each request at
//! the DEBUG level) go to [`tracing`]: the program that serves chooses where
//! they are written (`sygo serve` writes them to standard error).

mod accounts;
pub mod admin;
mod ai;
mod api;
mod app;
mod client_addr;
mod clock;
mod cluster;
mod conditional;
pub mod config;
mod db;
mod error;
mod event_frame;
mod events;
mod follow;
mod game;
mod games;
mod lanes;
mod limits;
mod lobby;
mod metrics;
mod password;
mod ratings;
mod record_view;
mod review;
mod review_record;
mod review_store;
mod same_site;
mod secret;
mod server;
mod session;
mod slots;
mod state;
mod time;
mod timeouts;
mod touched;
mod uploaded;
mod vacation;
mod view;
mod worker;

pub use app::app;
pub use config::Config;
pub use db::Database;
pub use error::{ApiError, PlanError, PlanField, ServerError, StoredGameError, StoredGameProblem};
pub use game::Side;
pub use server::{Server, serve, shutdown_signal};
pub use state::{AppState, Shutdown};
pub use worker::{run_worker, work};
