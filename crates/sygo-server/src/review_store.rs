//! The AI's reviews of whole games in memory: every reviewed position by
//! turn with its hash, as loaded from the database at start, as the review
//! maker (`review.rs`) adds them, and as read again when another server or
//! a worker made them. The queue is the database's (`jobs`, kind `review`).

use std::collections::{BTreeMap, HashMap};

use parking_lot::Mutex;
use sygo_rules::{Game, Position, Turn};
use tokio::sync::Notify;

use crate::config::review_visits;
use crate::db::{PositionRow, StoredReview};
use crate::time::now_ms;

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
    pub(crate) fn row(&self, turn: usize) -> PositionRow {
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
    pub(crate) fn from_row(row: &PositionRow) -> Option<PositionReview> {
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

/// The reviews' results.
pub(crate) struct Reviews {
    /// Every game ever reviewed (or asked for), by id.
    games: Mutex<HashMap<String, GameReview>>,
    /// Wakes the review maker when a review is queued.
    pub(crate) wake: Notify,
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
            games: Mutex::new(HashMap::new()),
            wake: Notify::new(),
            visits: visits.map(|v| v.max(1)),
        }
    }

    /// Takes in a game's stored review (at start, or read again), in place
    /// of what was known of it.
    pub(crate) fn load(&self, game_id: &str, stored: StoredReview) {
        let positions = stored
            .positions
            .iter()
            .filter_map(|row| Some((row.turn as usize, PositionReview::from_row(row)?)))
            .collect();
        self.games.lock().insert(
            game_id.to_string(),
            GameReview {
                requested: stored.requested,
                positions,
            },
        );
    }

    /// The visits of each position on a board of `points` points.
    pub(crate) fn visits_for(&self, points: usize) -> u64 {
        self.visits.unwrap_or_else(|| review_visits(points))
    }

    /// Whether the review of `game_id` was ever asked for.
    pub(crate) fn known(&self, game_id: &str) -> bool {
        self.games.lock().contains_key(game_id)
    }

    /// The reviewed positions of `game_id` that are still its positions
    /// (`hashes`, by turn), by turn.
    pub(crate) fn positions(&self, game_id: &str, hashes: &[u64]) -> Vec<(usize, PositionReview)> {
        let games = self.games.lock();
        let Some(review) = games.get(game_id) else {
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
    pub(crate) fn has(&self, game_id: &str, turn: usize, hash: u64) -> bool {
        self.games
            .lock()
            .get(game_id)
            .and_then(|r| r.positions.get(&turn))
            .is_some_and(|p| p.hash == hash)
    }

    /// Notes that the review of `game_id` is asked for now; the time of
    /// the request, to store.
    pub(crate) fn requested_now(&self, game_id: &str) -> i64 {
        let requested = now_ms();
        self.games
            .lock()
            .entry(game_id.to_string())
            .or_default()
            .requested = requested;
        requested
    }

    /// Keeps the analysis of the position after `turn` turns.
    pub(crate) fn insert(&self, game_id: &str, turn: usize, review: PositionReview) {
        self.games
            .lock()
            .entry(game_id.to_string())
            .or_default()
            .positions
            .insert(turn, review);
    }

    /// When the review of `game_id` was last asked for.
    pub(crate) fn requested(&self, game_id: &str) -> i64 {
        self.games.lock().get(game_id).map_or(0, |r| r.requested)
    }
}
