//! The AI's search slots: every search runs on a blocking thread of its
//! own, never on the threads that answer requests, and holds one slot per
//! search thread of a semaphore with as many slots as the machine has
//! cores: with every core searching, a search waits for a slot, and
//! requests are still answered. A search's stop flag is kept while it
//! runs, so that shutting down stops every search at once.
//!
//! The slots are handed out in the order searches ask for them, and a
//! search may carry a client's ticket: `GET /api/searches/{ticket}` says
//! how many searches are ahead of it. Background searches (a review's)
//! give way to the AI's turns in games: an AI turn that waits for slots
//! stops them, and they are made again.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use parking_lot::Mutex;
use tokio::sync::Semaphore;

use crate::error::ApiError;

/// How often a search that should stop has its stop flag raised again
/// (`Ai::run_queued`).
const RAISE_STOP_EVERY: std::time::Duration = std::time::Duration::from_millis(20);

/// The searches' slots and stop flags.
pub(crate) struct Ai {
    slots: Arc<Semaphore>,
    max_threads: usize,
    running: Mutex<HashMap<u64, Arc<AtomicBool>>>,
    /// The searches waiting for slots, in the order they asked.
    waiting: Mutex<Vec<u64>>,
    /// The search of each client's ticket.
    tickets: Mutex<HashMap<String, u64>>,
    /// The background searches, by id.
    background: Mutex<HashMap<u64, Background>>,
    next_id: AtomicU64,
    stopping: AtomicBool,
}

/// A background search's flags: "given way" (to an AI turn), and its
/// player's stop flag.
type Background = (Arc<AtomicBool>, Arc<AtomicBool>);

/// What besides the server stopping keeps a search's stop flag raised
/// until it ends (`Ai::run_queued`).
enum Hold {
    /// Nothing: a hint's or an analysis's search.
    Nothing,
    /// A background search's "given way" flag (to an AI turn).
    GaveWay(Arc<AtomicBool>),
    /// An AI turn's "no longer wanted" flag (a resignation, an undo:
    /// [`StopTurn`]).
    Unwanted(Arc<AtomicBool>),
}

impl Hold {
    fn raised(&self) -> bool {
        match self {
            Hold::Nothing => false,
            Hold::GaveWay(flag) | Hold::Unwanted(flag) => flag.load(Ordering::Relaxed),
        }
    }
}

/// How a game stops the AI's search for its turn: the player's stop flag,
/// raised at once, and a flag that keeps it raised should the player's
/// search not have begun yet (a player clears its flag as it begins).
#[derive(Clone)]
pub(crate) struct StopTurn {
    stop: Arc<AtomicBool>,
    unwanted: Arc<AtomicBool>,
}

impl StopTurn {
    /// The stop of a search whose player has the stop flag `stop`.
    pub(crate) fn new(stop: Arc<AtomicBool>) -> StopTurn {
        StopTurn {
            stop,
            unwanted: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Stops the search, now or as soon as it begins.
    pub(crate) fn raise(&self) {
        self.unwanted.store(true, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Where a search with a ticket stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// Waiting for slots behind `ahead` searches (running or waiting).
    Waiting { ahead: usize },
    /// Searching.
    Running,
}

/// A search waiting for slots or running, with its ticket: forgotten when
/// dropped (the search ended, or its client went away).
struct Queued<'a> {
    ai: &'a Ai,
    id: u64,
    ticket: Option<String>,
}

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        self.ai.waiting.lock().retain(|&w| w != self.id);
        if let Some(ticket) = &self.ticket {
            let mut tickets = self.ai.tickets.lock();
            if tickets.get(ticket) == Some(&self.id) {
                tickets.remove(ticket);
            }
        }
        self.ai.background.lock().remove(&self.id);
    }
}

/// Raises a search's stop flag when whoever waits for it goes away (a
/// client that closed its connection): the search ends at once.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Ai {
    /// Room for `slots` search threads at once.
    pub(crate) fn new(slots: usize) -> Ai {
        let slots = slots.max(1);
        Ai {
            slots: Arc::new(Semaphore::new(slots)),
            max_threads: slots,
            running: Mutex::new(HashMap::new()),
            waiting: Mutex::new(Vec::new()),
            tickets: Mutex::new(HashMap::new()),
            background: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
            stopping: AtomicBool::new(false),
        }
    }

    /// Whether the server is shutting down.
    pub(crate) fn stopping(&self) -> bool {
        self.stopping.load(Ordering::Relaxed)
    }

    /// Stops every search and refuses new ones: the server shuts down.
    pub(crate) fn stop_all(&self) {
        self.stopping.store(true, Ordering::Relaxed);
        self.slots.close();
        for flag in self.running.lock().values() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// The searches running and the searches waiting for slots (the
    /// server's metrics).
    pub(crate) fn counts(&self) -> (usize, usize) {
        let running = self.running.lock().len();
        (running, self.waiting.lock().len())
    }

    /// Where the search of `ticket` stands, if one is waiting or running.
    pub(crate) fn place(&self, ticket: &str) -> Option<Place> {
        let id = *self.tickets.lock().get(ticket)?;
        let running = self.running.lock().len();
        let waiting = self.waiting.lock();
        Some(match waiting.iter().position(|&w| w == id) {
            Some(i) => Place::Waiting { ahead: running + i },
            None => Place::Running,
        })
    }

    /// Stops the background searches if `threads` slots are not free: an
    /// AI turn is about to wait for them.
    pub(crate) fn preempt_background(&self, threads: usize) {
        if self.slots.available_permits() >= threads {
            return;
        }
        for (gave_way, stop) in self.background.lock().values() {
            gave_way.store(true, Ordering::Relaxed);
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// Runs a background search (a review's) on one slot, as [`Ai::run`]
    /// does; `None` if it gave way to an AI turn (see the module doc): the
    /// caller searches again.
    pub(crate) async fn run_background<R: Send + 'static>(
        &self,
        stop: Arc<AtomicBool>,
        search: impl FnOnce() -> R + Send + 'static,
    ) -> Result<Option<R>, ApiError> {
        let gave_way = Arc::new(AtomicBool::new(false));
        let flag = gave_way.clone();
        let result = self
            .run_queued(1, stop, None, Hold::GaveWay(gave_way.clone()), move || {
                (!flag.load(Ordering::Relaxed)).then(search)
            })
            .await?;
        Ok(result.filter(|_| !gave_way.load(Ordering::Relaxed)))
    }

    /// Runs `search` on a blocking thread once `threads` slots are free;
    /// `stop` is its player's stop flag; `ticket` the client's, if any.
    pub(crate) async fn run<R: Send + 'static>(
        &self,
        threads: usize,
        stop: Arc<AtomicBool>,
        ticket: Option<String>,
        search: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, ApiError> {
        self.run_queued(threads, stop, ticket, Hold::Nothing, search)
            .await
    }

    /// Runs the search of an AI turn, as [`Ai::run`] does; `stop` is how
    /// the game stops it.
    pub(crate) async fn run_turn<R: Send + 'static>(
        &self,
        threads: usize,
        stop: StopTurn,
        search: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, ApiError> {
        self.run_queued(
            threads,
            stop.stop,
            None,
            Hold::Unwanted(stop.unwanted),
            search,
        )
        .await
    }

    /// [`Ai::run`], for a background search with [`Hold::GaveWay`]; `hold`
    /// keeps the stop flag raised once raised.
    async fn run_queued<R: Send + 'static>(
        &self,
        threads: usize,
        stop: Arc<AtomicBool>,
        ticket: Option<String>,
        hold: Hold,
        search: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, ApiError> {
        let threads = u32::try_from(threads.clamp(1, self.max_threads)).unwrap_or(1);
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.waiting.lock().push(id);
        if let Some(ticket) = &ticket {
            self.tickets.lock().insert(ticket.clone(), id);
        }
        if let Hold::GaveWay(gave_way) = &hold {
            self.background
                .lock()
                .insert(id, (gave_way.clone(), stop.clone()));
        }
        let _queued = Queued {
            ai: self,
            id,
            ticket,
        };
        let permit = self
            .slots
            .clone()
            .acquire_many_owned(threads)
            .await
            .map_err(|_| ApiError::Unavailable)?;
        self.waiting.lock().retain(|&w| w != id);
        self.running.lock().insert(id, stop.clone());
        if self.stopping() {
            stop.store(true, Ordering::Relaxed);
        }
        let _stop_on_drop = StopOnDrop(stop.clone());
        let mut searching = tokio::task::spawn_blocking(move || {
            let result = search();
            drop(permit);
            result
        });
        // A player clears its stop flag as its search begins: a stop raised
        // between the slot's grant and that moment (the server stopping, an
        // AI turn claiming a background search's slot, a resignation during
        // an AI turn) would be lost, and the search run to its whole
        // budget. Raised again until it ends.
        let mut tick = tokio::time::interval(RAISE_STOP_EVERY);
        let result = loop {
            tokio::select! {
                result = &mut searching => break result,
                _ = tick.tick() => {
                    if self.stopping()
                        || hold.raised()
                    {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        };
        self.running.lock().remove(&id);
        result.map_err(|e| ApiError::Internal(format!("an AI search failed: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    /// A search as a player runs one: it clears its stop flag as it
    /// begins (after `starting`; then sets `begun`), then searches until
    /// the flag is raised or `budget` is spent; whether it was stopped.
    fn search(
        stop: Arc<AtomicBool>,
        starting: Duration,
        budget: Duration,
        begun: Arc<AtomicBool>,
    ) -> bool {
        std::thread::sleep(starting);
        stop.store(false, Ordering::Relaxed);
        begun.store(true, Ordering::Relaxed);
        let began = Instant::now();
        while began.elapsed() < budget {
            if stop.load(Ordering::Relaxed) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        false
    }

    /// A resignation or an undo during an AI turn stops its search even
    /// when it comes after the slot was granted and before the player's
    /// search began (when the player clears its flag).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_turn_stopped_before_its_search_begins_stops() {
        let ai = Ai::new(1);
        let stop = Arc::new(AtomicBool::new(false));
        let turn = StopTurn::new(stop.clone());
        let raise = turn.clone();
        let started = Instant::now();
        let (stopped, ()) = tokio::join!(
            ai.run_turn(1, turn, move || search(
                stop,
                Duration::from_millis(200),
                Duration::from_secs(60),
                Arc::default(),
            )),
            async move {
                // The slot is granted; the search has (most likely) not
                // begun. Either way it is to stop.
                tokio::time::sleep(Duration::from_millis(50)).await;
                raise.raise();
            }
        );
        assert!(stopped.unwrap(), "the search ran its whole budget");
        assert!(started.elapsed() < Duration::from_secs(30));
    }

    /// A hint's search (nothing holds its stop) runs as its player says,
    /// and a stop raised after it began stops it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_search_runs_until_stopped() {
        let ai = Ai::new(1);
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let searching = stop.clone();
        let begun = Arc::new(AtomicBool::new(false));
        let has_begun = begun.clone();
        let (stopped, ()) = tokio::join!(
            ai.run(1, stop, None, move || search(
                searching,
                Duration::ZERO,
                Duration::from_secs(60),
                begun,
            )),
            async move {
                // Raised once the search has begun (and cleared it).
                let deadline = Instant::now() + Duration::from_secs(30);
                while !has_begun.load(Ordering::Relaxed) {
                    assert!(Instant::now() < deadline, "the search never began");
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
                flag.store(true, Ordering::Relaxed);
            }
        );
        assert!(stopped.unwrap());
        // Unstopped, it runs its budget.
        let stop = Arc::new(AtomicBool::new(false));
        let searching = stop.clone();
        let ran = ai
            .run(1, stop, None, move || {
                search(
                    searching,
                    Duration::ZERO,
                    Duration::from_millis(100),
                    Arc::default(),
                )
            })
            .await;
        assert!(!ran.unwrap());
    }
}
