//! The AI at work: its turns in games where it plays, hints and analyses.
//!
//! Every search runs on a blocking thread of its own, never on the threads
//! that answer requests, and holds one slot per search thread of a
//! semaphore with as many slots as the machine has cores: with every core
//! searching, a search waits for a slot, and requests are still answered.
//! One search at a time per game (the game's search lock). A search's stop
//! flag is kept while it runs, so that shutting down stops every search at
//! once.
//!
//! The slots are handed out in the order searches ask for them, and a
//! search may carry a client's ticket: `GET /api/searches/{ticket}` says
//! how many searches are ahead of it. Background searches (a review's)
//! give way to the AI's turns in games: an AI turn that waits for slots
//! stops them, and they are made again.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use serde::Serialize;
use sygo_ai::{Analysis, Budget, MctsPlayer, MctsSettings, Player};
use sygo_rules::{Game, Turn};
use tokio::sync::Semaphore;

use crate::app::AppState;
use crate::error::ApiError;
use crate::games::{Entry, Side};
use crate::secret::seed;
use crate::view::{DangerView, PointMap, dangers, name};

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
    fn preempt_background(&self, threads: usize) {
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
            .run_queued(1, stop, None, Some(gave_way.clone()), move || {
                (!flag.load(Ordering::Relaxed)).then(search)
            })
            .await?;
        Ok(result.filter(|_| !gave_way.load(Ordering::Relaxed)))
    }

    /// Runs `search` on a blocking thread once `threads` slots are free;
    /// `stop` is its player's stop flag; `ticket` the client's, if any.
    async fn run<R: Send + 'static>(
        &self,
        threads: usize,
        stop: Arc<AtomicBool>,
        ticket: Option<String>,
        search: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, ApiError> {
        self.run_queued(threads, stop, ticket, None, search).await
    }

    /// [`Ai::run`], for a background search if `gave_way` is given.
    async fn run_queued<R: Send + 'static>(
        &self,
        threads: usize,
        stop: Arc<AtomicBool>,
        ticket: Option<String>,
        gave_way: Option<Arc<AtomicBool>>,
        search: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, ApiError> {
        let threads = u32::try_from(threads.clamp(1, self.max_threads)).unwrap_or(1);
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.waiting.lock().push(id);
        if let Some(ticket) = &ticket {
            self.tickets.lock().insert(ticket.clone(), id);
        }
        if let Some(gave_way) = gave_way {
            self.background.lock().insert(id, (gave_way, stop.clone()));
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
        let _stop_on_drop = StopOnDrop(stop);
        let result = tokio::task::spawn_blocking(move || {
            let result = search();
            drop(permit);
            result
        })
        .await;
        self.running.lock().remove(&id);
        result.map_err(|e| ApiError::Internal(format!("an AI search failed: {e}")))
    }
}

/// Plays the AI's turns in a game, one after another while it is to move
/// (both sides may be the AI), on a task of its own.
pub(crate) fn start_turn(state: &AppState, entry: Arc<Entry>) {
    let state = state.clone();
    tokio::spawn(async move {
        loop {
            match ai_turn(&state, &entry).await {
                Ok(true) => continue,
                Ok(false) => break,
                Err(e) => {
                    if !state.ai.stopping() {
                        eprintln!(
                            "sygo serve: game {}: the AI's turn failed: {e}",
                            entry.meta.id
                        );
                        entry.set_ai_thinking(false);
                    }
                    break;
                }
            }
        }
    });
}

/// Starts the AI's turn again in a game where it is to move but its last
/// search failed (the game would otherwise wait for it forever): called
/// when someone looks at the game, such as its player coming back.
/// Nothing happens while a search runs, or once the server shuts down.
pub(crate) fn resume(state: &AppState, entry: &Arc<Entry>) {
    if !state.ai.stopping() && entry.claim_idle_ai_turn() {
        start_turn(state, entry.clone());
    }
}

/// One turn of the AI, if it is to move; whether it is to move again.
async fn ai_turn(state: &AppState, entry: &Arc<Entry>) -> Result<bool, ApiError> {
    let _search = entry.search.lock().await;
    let (game, undos) = entry.with_live(|live| (live.game.clone(), live.undos));
    let pos = game.position();
    let color = pos.side_to_move();
    let Side::Ai { level, time_ms } = *entry.meta.side(color) else {
        entry.set_ai_thinking(false);
        return Ok(false);
    };
    if pos.is_over() {
        entry.set_ai_thinking(false);
        return Ok(false);
    }
    entry.set_ai_thinking(true);
    let number = game.turns().len();
    let mut player = MctsPlayer::level(level, seed())
        .ok_or_else(|| ApiError::Internal(format!("no AI level {level}")))?;
    let threads = player.settings().threads;
    let stop = player.stop_handle();
    let budget = Budget::time(Duration::from_millis(time_ms));
    let position = pos.clone();
    entry.set_ai_stop(Some(stop.clone()));
    state.ai.preempt_background(threads);
    let decision = state
        .ai
        .run(threads, stop, None, move || player.choose(&game, &budget))
        .await;
    entry.set_ai_stop(None);
    let decision = decision?;
    if state.ai.stopping() {
        return Ok(false);
    }
    match entry
        .play(
            &state.db,
            color,
            decision.turn.clone(),
            Some(number),
            Some(undos),
        )
        .await
    {
        Ok(again) => Ok(again),
        Err(ApiError::Illegal(why)) => {
            // The AI plays by the rules library; should it not, a random
            // legal turn keeps the game going.
            eprintln!(
                "sygo serve: game {}: the AI chose an illegal turn ({why}); playing a random one",
                entry.meta.id
            );
            let stones = position.random_turn_stones(&mut rand_for_fallback());
            let turn = if stones.is_empty() {
                Turn::Pass
            } else {
                Turn::Stones(stones)
            };
            entry
                .play(&state.db, color, turn, Some(number), Some(undos))
                .await
        }
        // The game moved on meanwhile (the player resigned or took turns
        // back): think again if the AI is still to move.
        Err(ApiError::Conflict(_)) => Ok(entry.ai_to_move()),
        Err(e) => Err(e),
    }
}

/// A generator for the fallback turn.
fn rand_for_fallback() -> impl sygo_rules::Rng {
    use rand::SeedableRng;
    rand_pcg::Pcg64Mcg::seed_from_u64(seed())
}

/// A candidate turn as the API writes it.
#[derive(Serialize)]
struct CandidateView {
    turn: String,
    visits: u64,
    win_rate: f64,
    score_lead: f64,
    pv: Vec<String>,
}

/// An analysis as the API writes it.
#[derive(Serialize)]
struct AnalysisView {
    win_rate: f64,
    score_lead: f64,
    visits: u64,
    candidates: Vec<CandidateView>,
    /// The groups its opponent can reverse with one turn.
    dangers: Vec<DangerView>,
    ownership: PointMap<f32>,
}

/// A probability, or ½ if it is not a number.
pub(crate) fn rate(x: f64) -> f64 {
    if x.is_finite() {
        x.clamp(0.0, 1.0)
    } else {
        0.5
    }
}

/// A number, or 0 if it is not one.
pub(crate) fn finite(x: f64) -> f64 {
    if x.is_finite() { x } else { 0.0 }
}

/// The analysis of `game`'s position as JSON.
fn analysis_json(game: &Game, analysis: &Analysis) -> Result<String, ApiError> {
    let g = game.position().geometry();
    let view = AnalysisView {
        win_rate: rate(analysis.win_rate),
        score_lead: finite(analysis.score_lead),
        visits: analysis.visits,
        candidates: analysis
            .candidates
            .iter()
            .map(|c| CandidateView {
                turn: c.turn.to_notation(&g),
                visits: c.visits,
                win_rate: rate(c.win_rate),
                score_lead: finite(c.score_lead),
                pv: c.pv.iter().map(|t| t.to_notation(&g)).collect(),
            })
            .collect(),
        dangers: dangers(game.position()),
        ownership: PointMap(
            g.points()
                .zip(&analysis.ownership)
                .map(|(p, &o)| (name(&g, p), if o.is_finite() { o } else { 0.0 }))
                .collect(),
        ),
    };
    serde_json::to_string(&view).map_err(|e| ApiError::Internal(e.to_string()))
}

/// Searches `game`'s position for `time` with the strongest settings on one
/// thread; the analysis as JSON. `ticket`: the client's, to follow its
/// place in the queue.
pub(crate) async fn analyse(
    state: &AppState,
    game: Game,
    time: Duration,
    ticket: Option<String>,
) -> Result<String, ApiError> {
    let mut settings = MctsSettings::strongest();
    settings.threads = 1;
    settings.memory = 256 << 20;
    let mut player = MctsPlayer::new(settings, seed());
    let stop = player.stop_handle();
    let (analysis, game) = state
        .ai
        .run(1, stop, ticket, move || {
            let analysis = player.analyze(&game, &Budget::time(time));
            (analysis, game)
        })
        .await?;
    analysis_json(&game, &analysis)
}
