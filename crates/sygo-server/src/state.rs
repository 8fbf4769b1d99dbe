//! The state every handler shares ([`AppState`]) and the end of its life
//! ([`Shutdown`]). Opening it (reading the database, starting the AI's
//! background work) is in `app.rs`, above everything it starts.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::db::Db;
use crate::games::Games;
use crate::review_store::Reviews;
use crate::slots::Ai;

/// What every handler shares: the games, the database, the AI, the
/// shutdown signal. Made by [`AppState::open`]; [`app`](fn@crate::app) serves it.
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
}

/// The end of an [`AppState`]'s life: [`Shutdown::stop`] stops the AI's
/// searches and ends the live updates.
pub struct Shutdown {
    pub(crate) ai: Arc<Ai>,
    pub(crate) sender: watch::Sender<bool>,
}

impl Shutdown {
    /// Stops every search of the AI and ends every live stream.
    pub fn stop(&self) {
        self.ai.stop_all();
        let _ = self.sender.send(true);
    }
}
