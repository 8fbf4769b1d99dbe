//! The state every handler shares ([`AppState`]) and the end of its life
//! ([`Shutdown`]). Opening it (reading the database, starting the AI's
//! background work) is in `app.rs`, above everything it starts.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::accounts::Accounts;
use crate::cluster::Cluster;
use crate::db::Db;
use crate::games::Games;
use crate::limits::Limits;
use crate::lobby::Lobby;
use crate::metrics::Metrics;
use crate::ratings::Ratings;
use crate::review_store::Reviews;
use crate::slots::Ai;

/// What every handler shares: the games, the accounts, the database, the
/// AI, the shutdown signal, the metrics. Made by [`AppState::open`]; [`app`](fn@crate::app) serves it.
#[derive(Clone)]
pub struct AppState {
    pub(crate) games: Arc<Games>,
    pub(crate) db: Arc<Db>,
    pub(crate) ai: Arc<Ai>,
    /// The AI's reviews of whole games: the queue and the results.
    pub(crate) reviews: Arc<Reviews>,
    /// Becomes true when the server shuts down (live updates end then).
    pub(crate) shutdown: watch::Receiver<bool>,
    /// The interval of keep-alive comments in live updates.
    pub(crate) keep_alive: Duration,
    /// The accounts, their sessions and the sides they hold.
    pub(crate) accounts: Arc<Accounts>,
    /// The rate limits.
    pub(crate) limits: Arc<Limits>,
    /// The ratings of the accounts.
    pub(crate) ratings: Arc<Ratings>,
    /// The lobby's challenges.
    pub(crate) lobby: Arc<Lobby>,
    /// How the server is reached (cookies, proxies).
    pub(crate) web: WebSettings,
    /// The server's metrics (`GET /metrics`): this server's alone, so that
    /// two servers in one process keep their own counts.
    pub(crate) metrics: Arc<Metrics>,
    /// The other servers on the database (PostgreSQL), if there can be any.
    pub(crate) cluster: Option<Arc<Cluster>>,
    /// Uploads being read, off the request threads: at most
    /// `uploaded::READERS` at once, the next refused at once (503 `busy`).
    pub(crate) readers: Arc<tokio::sync::Semaphore>,
}

/// How the server is reached: the settings of `Config` that requests read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WebSettings {
    /// `Config::secure_cookies`.
    pub secure_cookies: bool,
    /// `Config::trust_proxy`.
    pub trust_proxy: bool,
}

/// The end of an [`AppState`]'s life: [`Shutdown::stop`] stops the AI's
/// searches and ends the live updates.
pub struct Shutdown {
    pub(crate) ai: Arc<Ai>,
    pub(crate) sender: watch::Sender<bool>,
    pub(crate) db: Arc<Db>,
}

impl Shutdown {
    /// Stops every search of the AI and ends every live stream.
    pub fn stop(&self) {
        self.ai.stop_all();
        let _ = self.sender.send(true);
    }

    /// Lets the database go once the writes already sent are committed;
    /// what a task still sends after is refused, so that nothing is
    /// written behind the back of the next server on the database (one
    /// server a database). Called once every request is answered.
    pub fn release_database(&self) {
        self.db.close();
    }
}
