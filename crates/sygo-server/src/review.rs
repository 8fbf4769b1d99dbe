//! The AI's review of whole games (`docs/web.md`, review): every position
//! of a game's main line analysed in the background, one game at a time in
//! the order the reviews were asked for, each position on one slot of the
//! AI with a fixed number of visits, one thread and a fixed seed (so that
//! a review is reproducible and its cost known:
//! [`crate::config::review_visits`]).
//!
//! The AI's turns in games keep priority: a review's search gives way to an
//! AI turn that waits for slots (`Ai::run_background`) and is made again.
//! Each position's result is committed to the database before it counts,
//! and the request stays pending there until the review ends, so a restart
//! takes an unfinished review up where it stopped. A position is stored
//! with its hash: a game in progress reviewed again has only its new
//! positions analysed (and those that turns taken back changed).

use std::collections::{BTreeMap, HashMap, VecDeque};

use parking_lot::Mutex;
use sygo_ai::{Analysis, Budget, MctsPlayer, MctsSettings};
use sygo_rules::{Color, Game, Outcome, Position, Turn};
use tokio::sync::Notify;

use crate::ai::{finite, rate};
use crate::app::AppState;
use crate::config::review_visits;
use crate::db::{PositionRow, StoredReview};
use crate::error::ApiError;
use crate::time::now_ms;

/// The seed of every review search: the same position and visits give the
/// same analysis.
const REVIEW_SEED: u64 = 1;

/// The memory of a review's search tree.
const REVIEW_MEMORY: usize = 128 << 20;

/// Where a game's review stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// Never asked for.
    None,
    /// Waiting behind `ahead` reviews (the one running included).
    Queued { ahead: usize },
    /// Being made now.
    Running,
    /// Finished (new turns since may be left to review).
    Done,
}

/// The AI's view of one position of a review, from Black's side.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PositionReview {
    /// The position's hash: the result holds for this position only.
    pub hash: u64,
    /// Black's win probability, 0 to 1.
    pub win_rate: f64,
    /// Black's expected margin with the komi, in points.
    pub score_lead: f64,
    /// The best turn as the protocol writes it; `None` where the game is
    /// over.
    pub best: Option<String>,
    pub visits: u64,
    /// Each point's owner in the order of `Geometry::points`: 100 Black,
    /// −100 White.
    pub ownership: Vec<i8>,
}

impl PositionReview {
    /// The database row of the position after `turn` turns.
    fn row(&self, turn: usize) -> PositionRow {
        PositionRow {
            turn: u32::try_from(turn).unwrap_or(u32::MAX),
            hash: i64::from_ne_bytes(self.hash.to_ne_bytes()),
            win_rate: self.win_rate,
            score_lead: self.score_lead,
            best: self.best.clone(),
            visits: i64::try_from(self.visits).unwrap_or(i64::MAX),
            ownership: serde_json::to_string(&self.ownership).unwrap_or_else(|_| "[]".into()),
        }
    }

    /// From a database row (`None` if its ownership is not readable).
    fn from_row(row: &PositionRow) -> Option<PositionReview> {
        Some(PositionReview {
            hash: u64::from_ne_bytes(row.hash.to_ne_bytes()),
            win_rate: row.win_rate,
            score_lead: row.score_lead,
            best: row.best.clone(),
            visits: u64::try_from(row.visits).unwrap_or(0),
            ownership: serde_json::from_str(&row.ownership).ok()?,
        })
    }
}

/// A game's review: when it was asked for, and its positions by turn.
#[derive(Default)]
struct GameReview {
    /// Unix milliseconds of the last request.
    requested: i64,
    positions: BTreeMap<usize, PositionReview>,
}

#[derive(Default)]
struct Inner {
    /// The games waiting, in the order their reviews were asked for.
    queue: VecDeque<String>,
    /// The game being reviewed.
    running: Option<String>,
    /// Every game ever reviewed (or asked for), by id.
    games: HashMap<String, GameReview>,
}

/// The reviews: the queue, the one running, the results.
pub(crate) struct Reviews {
    inner: Mutex<Inner>,
    /// Wakes the worker when a review is queued.
    wake: Notify,
    /// Visits per position if set (tests), else by board size.
    visits: Option<u64>,
}

/// The positions of a game's main line: after 0, 1, …, all its turns.
pub(crate) fn main_line_positions(game: &Game) -> Vec<Position> {
    let mut pos = game.start().clone();
    let mut positions = vec![pos.clone()];
    for (color, turn) in game.turns_with_colors() {
        let played = match turn {
            Turn::Resign => pos.resign_as(color),
            turn => pos.play_turn(turn),
        };
        if played.is_err() {
            // Every turn of a game held here was played by the rules.
            break;
        }
        positions.push(pos.clone());
    }
    positions
}

/// The hashes of a game's main line positions, by turn.
pub(crate) fn hashes(game: &Game) -> Vec<u64> {
    main_line_positions(game)
        .iter()
        .map(Position::hash)
        .collect()
}

impl Reviews {
    /// No review yet; `visits` per position if given, else by board size.
    pub(crate) fn new(visits: Option<u64>) -> Reviews {
        Reviews {
            inner: Mutex::new(Inner::default()),
            wake: Notify::new(),
            visits: visits.map(|v| v.max(1)),
        }
    }

    /// Takes in a game's stored review; a pending one goes back in the
    /// queue (call in the order of requests).
    pub(crate) fn load(&self, game_id: &str, stored: StoredReview) {
        let positions = stored
            .positions
            .iter()
            .filter_map(|row| Some((row.turn as usize, PositionReview::from_row(row)?)))
            .collect();
        let mut inner = self.inner.lock();
        inner.games.insert(
            game_id.to_string(),
            GameReview {
                requested: stored.requested,
                positions,
            },
        );
        if stored.pending {
            inner.queue.push_back(game_id.to_string());
        }
    }

    /// The visits of each position on a board of `points` points.
    pub(crate) fn visits_for(&self, points: usize) -> u64 {
        self.visits.unwrap_or_else(|| review_visits(points))
    }

    /// Where the review of `game_id` stands.
    pub(crate) fn status(&self, game_id: &str) -> Status {
        let inner = self.inner.lock();
        if inner.running.as_deref() == Some(game_id) {
            Status::Running
        } else if let Some(i) = inner.queue.iter().position(|g| g == game_id) {
            Status::Queued {
                ahead: i + usize::from(inner.running.is_some()),
            }
        } else if inner.games.contains_key(game_id) {
            Status::Done
        } else {
            Status::None
        }
    }

    /// The reviewed positions of `game_id` that are still its positions
    /// (`hashes`, by turn), by turn.
    pub(crate) fn positions(&self, game_id: &str, hashes: &[u64]) -> Vec<(usize, PositionReview)> {
        let inner = self.inner.lock();
        let Some(review) = inner.games.get(game_id) else {
            return Vec::new();
        };
        review
            .positions
            .iter()
            .filter(|(turn, p)| hashes.get(**turn) == Some(&p.hash))
            .map(|(turn, p)| (*turn, p.clone()))
            .collect()
    }

    /// Whether the position after `turn` turns, of hash `hash`, is reviewed.
    fn has(&self, game_id: &str, turn: usize, hash: u64) -> bool {
        self.inner
            .lock()
            .games
            .get(game_id)
            .and_then(|r| r.positions.get(&turn))
            .is_some_and(|p| p.hash == hash)
    }

    /// Queues the review of `game_id` unless it waits or runs already:
    /// whether it was queued now, and the time of the request to store.
    fn enqueue(&self, game_id: &str) -> Option<i64> {
        let mut inner = self.inner.lock();
        if inner.running.as_deref() == Some(game_id) || inner.queue.iter().any(|g| g == game_id) {
            return None;
        }
        let requested = now_ms();
        inner.queue.push_back(game_id.to_string());
        inner
            .games
            .entry(game_id.to_string())
            .or_default()
            .requested = requested;
        Some(requested)
    }

    /// Takes `game_id` out of the queue (its request could not be stored).
    fn dequeue(&self, game_id: &str) {
        let mut inner = self.inner.lock();
        inner.queue.retain(|g| g != game_id);
        if inner
            .games
            .get(game_id)
            .is_some_and(|r| r.positions.is_empty())
        {
            inner.games.remove(game_id);
        }
    }

    /// The next game to review, now running.
    fn start_next(&self) -> Option<String> {
        let mut inner = self.inner.lock();
        let next = inner.queue.pop_front()?;
        inner.running = Some(next.clone());
        Some(next)
    }

    /// The review running has ended.
    fn finish(&self) {
        self.inner.lock().running = None;
    }

    /// Keeps the analysis of the position after `turn` turns.
    fn insert(&self, game_id: &str, turn: usize, review: PositionReview) {
        self.inner
            .lock()
            .games
            .entry(game_id.to_string())
            .or_default()
            .positions
            .insert(turn, review);
    }

    /// When the review of `game_id` was last asked for.
    fn requested(&self, game_id: &str) -> i64 {
        self.inner
            .lock()
            .games
            .get(game_id)
            .map_or(0, |r| r.requested)
    }
}

/// Asks for the review of a game: queued unless it waits or runs already
/// (then nothing changes), stored so that a restart takes it up; 409 when
/// every position of the game is reviewed already.
pub(crate) async fn request(state: &AppState, game_id: &str, game: &Game) -> Result<(), ApiError> {
    let reviews = &state.reviews;
    let hashes = hashes(game);
    let status = reviews.status(game_id);
    if matches!(status, Status::Queued { .. } | Status::Running) {
        return Ok(());
    }
    if reviews.positions(game_id, &hashes).len() == hashes.len() {
        return Err(ApiError::Conflict(
            "every position of this game is reviewed already: read the review with GET".to_string(),
        ));
    }
    let Some(requested) = reviews.enqueue(game_id) else {
        return Ok(());
    };
    if let Err(e) = state.db.set_review(game_id, requested, true).await {
        reviews.dequeue(game_id);
        return Err(ApiError::Internal(format!(
            "storing a review's request: {e:?}"
        )));
    }
    reviews.wake.notify_one();
    Ok(())
}

/// Starts the worker that makes the reviews, one game after another, until
/// the server shuts down.
pub(crate) fn start(state: &AppState) {
    let state = state.clone();
    tokio::spawn(async move {
        let mut shutdown = state.shutdown.clone();
        loop {
            if state.ai.stopping() || *shutdown.borrow() {
                return;
            }
            let Some(game_id) = state.reviews.start_next() else {
                tokio::select! {
                    () = state.reviews.wake.notified() => {}
                    _ = shutdown.changed() => {}
                }
                continue;
            };
            let result = review_game(&state, &game_id).await;
            state.reviews.finish();
            match result {
                Ok(()) => {}
                // Shutting down: the review stays pending, for the restart.
                Err(_) if state.ai.stopping() => return,
                Err(e) => eprintln!("sygo serve: game {game_id}: its review failed: {e}"),
            }
        }
    });
}

/// Reviews every position of a game's main line not reviewed yet, then
/// marks its review finished.
async fn review_game(state: &AppState, game_id: &str) -> Result<(), ApiError> {
    let entry = state.games.get(game_id)?;
    let game = entry.with_live(|live| live.game.clone());
    let komi = entry.meta.komi;
    let visits = state.reviews.visits_for(entry.meta.geometry.num_points());
    for (turn, pos) in main_line_positions(&game).into_iter().enumerate() {
        if state.reviews.has(game_id, turn, pos.hash()) {
            continue;
        }
        let review = loop {
            if let Some(review) = review_position(state, &pos, komi, visits).await? {
                break review;
            }
            // An AI turn came first: the same search again.
        };
        state
            .db
            .insert_review_position(game_id, review.row(turn))
            .await
            .map_err(|e| ApiError::Internal(format!("storing a review: {e:?}")))?;
        state.reviews.insert(game_id, turn, review);
    }
    let requested = state.reviews.requested(game_id);
    state
        .db
        .set_review(game_id, requested, false)
        .await
        .map_err(|e| ApiError::Internal(format!("storing a review's end: {e:?}")))
}

/// The review of one position: the rules' score where the game is over,
/// else a search of `visits` visits (`None` if an AI turn stopped it).
async fn review_position(
    state: &AppState,
    pos: &Position,
    komi: f64,
    visits: u64,
) -> Result<Option<PositionReview>, ApiError> {
    if pos.is_over() {
        return Ok(Some(final_review(pos, komi)));
    }
    let mut settings = MctsSettings::strongest();
    settings.threads = 1;
    settings.memory = REVIEW_MEMORY;
    let mut player = MctsPlayer::new(settings, REVIEW_SEED);
    let stop = player.stop_handle();
    let game = Game::new(pos.clone());
    let analysis = state
        .ai
        .run_background(stop, move || player.analyze(&game, &Budget::visits(visits)))
        .await?;
    Ok(analysis.map(|a| searched_review(pos, komi, &a)))
}

/// A search's analysis from Black's side, the margin with the komi.
fn searched_review(pos: &Position, komi: f64, analysis: &Analysis) -> PositionReview {
    let g = pos.geometry();
    let (win_rate, lead) = match pos.side_to_move() {
        Color::Black => (rate(analysis.win_rate), finite(analysis.score_lead)),
        Color::White => (1.0 - rate(analysis.win_rate), -finite(analysis.score_lead)),
    };
    PositionReview {
        hash: pos.hash(),
        win_rate,
        score_lead: lead - komi,
        best: analysis.candidates.first().map(|c| c.turn.to_notation(&g)),
        visits: analysis.visits,
        ownership: analysis
            .ownership
            .iter()
            .map(|&o| percent(if o.is_finite() { f64::from(o) } else { 0.0 }))
            .collect(),
    }
}

/// Where the game is over: the outcome decides, the margin is the board's
/// score with the komi, each point is its owner's.
fn final_review(pos: &Position, komi: f64) -> PositionReview {
    let g = pos.geometry();
    let territory = pos.territory();
    let score = territory.score();
    let margin = f64::from(score.black) - f64::from(score.white) - komi;
    let by_margin = if margin > 0.0 {
        1.0
    } else if margin < 0.0 {
        0.0
    } else {
        0.5
    };
    let win_rate = match pos.outcome() {
        Some(Outcome::Resignation { winner }) => f64::from(u8::from(winner == Color::Black)),
        _ => by_margin,
    };
    let owner = |c: Option<Color>| match c {
        Some(Color::Black) => 100,
        Some(Color::White) => -100,
        None => 0,
    };
    PositionReview {
        hash: pos.hash(),
        win_rate,
        score_lead: margin,
        best: None,
        visits: 0,
        ownership: g
            .points()
            .map(|p| owner(pos.stone_at(p).or_else(|| territory.owner_of(p))))
            .collect(),
    }
}

/// −1 to 1 as a whole percentage.
fn percent(x: f64) -> i8 {
    // In range after the clamp: the cast cannot wrap.
    (x.clamp(-1.0, 1.0) * 100.0).round() as i8
}

#[cfg(test)]
mod tests {
    use super::*;
    use sygo_rules::Geometry;

    #[test]
    fn percentages_are_clamped() {
        assert_eq!(percent(1.7), 100);
        assert_eq!(percent(-0.456), -46);
        assert_eq!(percent(0.0), 0);
    }

    #[test]
    fn a_game_over_is_scored_with_its_komi() {
        let mut game = Game::new(Position::new(Geometry::sygo(5).unwrap()));
        game.play(Turn::parse("C3", &game.position().geometry()).unwrap())
            .unwrap();
        game.play(Turn::Pass).unwrap();
        game.play(Turn::Pass).unwrap();
        let positions = main_line_positions(&game);
        assert_eq!(positions.len(), 4);
        let last = positions.last().unwrap();
        assert!(last.is_over());
        // White moved first: the board is White's.
        let review = final_review(last, 0.5);
        assert_eq!(review.win_rate, 0.0);
        assert_eq!(review.score_lead, -25.5);
        assert!(review.ownership.iter().all(|&o| o == -100));
        assert_eq!(review.best, None);
        let review = final_review(last, -30.0);
        assert_eq!(review.win_rate, 1.0);
    }
}
