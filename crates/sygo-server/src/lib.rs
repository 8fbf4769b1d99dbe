//! The web app of sygo: play Sygo and Hexsygo in the browser, against the AI
//! or another person, online (`docs/web.md` is the contract).
//!
//! An [axum](https://docs.rs/axum) server with a JSON API over the rules
//! library (the browser never applies the rules itself: it asks which steps
//! are allowed and why one is refused), live updates as server-sent events,
//! the AI searching on threads of its own, every game in SQLite (a turn is
//! committed before it is acknowledged), and the front end (`web/`)
//! embedded in the binary.
//!
//! ```no_run
//! use sygo_server::{Config, serve};
//! let config = Config::new("127.0.0.1:8080".parse().unwrap(), "sygo.db".into());
//! serve(config, |addr| println!("sygo web app: open http://{addr}/")).unwrap();
//! ```
//!
//! # Modules
//!
//! - `app`: the router, pages and embedded static files; `api/`: the
//!   endpoints, one file per group; `events`: live updates.
//! - `games`: the games in memory, their locks, and how a turn is played
//!   and committed; `view`: their JSON; `uploaded`: what an uploaded
//!   record holds beyond its main line (information, comments, the tree).
//! - `db` (with `migrations/`): SQLite, one writer thread with group commit.
//! - `ai`: the AI's turns, hints and analyses on blocking threads;
//!   `review`: the AI's reviews of whole games in the background, and
//!   `review_record`: a record with a review in it.
//! - `error`: [`ApiError`], every error as JSON; `config`: [`Config`] and
//!   the limits.

mod ai;
mod api;
mod app;
pub mod config;
mod db;
mod error;
mod events;
mod games;
mod review;
mod review_record;
mod secret;
mod server;
mod time;
mod uploaded;
mod view;

pub use app::{AppState, Shutdown, app};
pub use config::Config;
pub use error::ApiError;
pub use games::Side;
pub use server::{Server, ServerError, serve, shutdown_signal};
