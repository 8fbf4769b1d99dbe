//! The AI's review of whole games (`docs/web.md`, review): every position
//! of a game's main line analysed in the background, one game at a time in
//! the order the reviews were asked for, each position on one slot of the
//! AI with a fixed number of visits, one thread and a fixed seed (so that
//! a review is reproducible and its cost known:
//! [`crate::config::review_visits`]).
//!
//! The queue is the database's: a review asked for is a job (`jobs`, kind
//! `review`, due when it was asked for), taken by the server (or, with
//! several on one PostgreSQL database, by whichever server or `sygo
//! worker` plays the AI) for a lease it renews while it works; a taker
//! killed stops renewing, and another takes the review up where it stopped.
//! The AI's turns in games keep priority: a review's search gives way to an
//! AI turn that waits for slots (`Ai::run_background`) and is made again.
//! Each position's result is committed to the database before it counts
//! (and told to the other servers, which read it), so a restart takes an
//! unfinished review up where it stopped. A position is stored with its
//! hash: a game in progress reviewed again has only its new positions
//! analysed (and those that turns taken back changed).

use sygo_ai::view::{finite, rate};
use sygo_ai::{Analysis, Budget, MctsPlayer, MctsSettings};
use sygo_rules::{Color, Game, Outcome, Position};

use std::time::Duration;

use crate::db::{JobKind, ReviewJob};
use crate::error::ApiError;
use crate::games::AI_LEASE_MS;
use crate::review_store::{PositionReview, Status, hashes, main_line_positions};
use crate::state::AppState;
use crate::time::now_ms;

/// How long a review's job is held without being renewed (a taker killed
/// leaves it to another after this long): as long as an AI turn's.
const REVIEW_LEASE_MS: i64 = AI_LEASE_MS;

/// How often the review maker renews its job's lease while it works, as
/// the AI's turns do theirs (`ai.rs`).
const RENEW_EVERY: Duration = Duration::from_millis((AI_LEASE_MS / 3).unsigned_abs());

/// How often the review maker looks for a review to make besides when it
/// is woken (with other servers on the database: another's request, or a
/// job whose taker was killed).
const POLL: Duration = Duration::from_secs(1);

/// The seed of every review search: the same position and visits give the
/// same analysis.
const REVIEW_SEED: u64 = 1;

/// The memory of a review's search tree.
const REVIEW_MEMORY: usize = 128 << 20;

/// Most reviews that wait or run at once, on all the servers of a
/// database: one more asked for is refused at once (503 `busy`) rather
/// than waiting behind hours of them.
pub(crate) const MAX_QUEUED_REVIEWS: usize = 100;

/// Where the review of `game_id` stands: its job in the database, else
/// whether it was ever made.
pub(crate) async fn status(state: &AppState, game_id: &str) -> Result<Status, ApiError> {
    let job = state
        .db
        .review_job(game_id)
        .await
        .map_err(|e| ApiError::Internal(format!("reading a review's job: {e:?}")))?;
    Ok(match job {
        ReviewJob::Running => Status::Running,
        ReviewJob::Queued { ahead } => Status::Queued { ahead },
        ReviewJob::None if state.reviews.known(game_id) => Status::Done,
        ReviewJob::None => Status::None,
    })
}

/// Asks for the review of a game: queued unless it waits or runs already
/// (then nothing changes), stored so that a restart takes it up; 409 when
/// every position of the game is reviewed already, 503 `busy` when
/// [`MAX_QUEUED_REVIEWS`] wait already.
pub(crate) async fn request(state: &AppState, game_id: &str, game: &Game) -> Result<(), ApiError> {
    let reviews = &state.reviews;
    let hashes = hashes(game);
    if matches!(
        status(state, game_id).await?,
        Status::Queued { .. } | Status::Running
    ) {
        return Ok(());
    }
    if reviews.positions(game_id, &hashes).len() == hashes.len() {
        return Err(ApiError::Conflict(
            "every position of this game is reviewed already: read the review with GET".to_string(),
        ));
    }
    let queued = state
        .db
        .reviews_queued()
        .await
        .map_err(|e| ApiError::Internal(format!("reading the reviews' queue: {e:?}")))?;
    if queued >= MAX_QUEUED_REVIEWS {
        return Err(ApiError::Busy {
            message: format!(
                "{queued} reviews are waiting, the most the server queues: try again in a minute"
            ),
            retry_after: 60,
        });
    }
    let requested = reviews.requested_now(game_id);
    state
        .db
        .set_review(game_id, requested, true)
        .await
        .map_err(|e| ApiError::Internal(format!("storing a review's request: {e:?}")))?;
    reviews.wake.notify_one();
    Ok(())
}

/// Starts the review maker, which takes the reviews asked for, the
/// longest waiting first, one after another, until the server shuts down;
/// a server that leaves the AI to others (no AI slots) makes none.
pub(crate) fn start(state: &AppState) {
    if state.db.is_shared() && !state.db.takes_ai() {
        return;
    }
    let state = state.clone();
    tokio::spawn(async move {
        let mut shutdown = state.shutdown.clone();
        loop {
            if state.ai.stopping() || *shutdown.borrow() {
                return;
            }
            let taken = state
                .db
                .take_jobs(JobKind::Review, now_ms() + REVIEW_LEASE_MS, 1)
                .await;
            let game_id = match taken {
                Ok(mut games) if !games.is_empty() => games.swap_remove(0),
                Ok(_) => {
                    tokio::select! {
                        () = state.reviews.wake.notified() => {}
                        () = tokio::time::sleep(POLL) => {}
                        _ = shutdown.changed() => {}
                    }
                    continue;
                }
                Err(e) => {
                    tracing::error!(error = ?e, "the reviews' jobs cannot be taken");
                    tokio::time::sleep(POLL).await;
                    continue;
                }
            };
            let renewing = tokio::spawn(renew(state.clone(), game_id.clone()));
            let result = review_taken(&state, &game_id).await;
            renewing.abort();
            match result {
                Ok(()) => {}
                // Shutting down: the review stays pending, for the restart
                // (or another taker).
                Err(_) if state.ai.stopping() => return,
                Err(ApiError::NotFound(_)) => {
                    tracing::warn!(game = %game_id, "a review's game is gone: its job is dropped");
                    if let Err(e) = state.db.drop_job(JobKind::Review, &game_id).await {
                        tracing::warn!(game = %game_id, error = ?e, "a review's job could not be dropped");
                    }
                }
                // Left to be taken again once its lease runs out.
                Err(e) => tracing::error!(game = %game_id, error = %e, "a review failed"),
            }
        }
    });
}

/// Keeps the lease of this server's review job of `game_id` while the
/// review runs (aborted when it ends).
async fn renew(state: AppState, game_id: String) {
    loop {
        tokio::time::sleep(RENEW_EVERY).await;
        match state
            .db
            .renew_job(JobKind::Review, &game_id, now_ms() + REVIEW_LEASE_MS)
            .await
        {
            Ok(true) => {}
            Ok(false) => {
                // Its lease ran out and another took it: both finish it,
                // each position stored by whichever ends it last.
                tracing::warn!(game = %game_id, "a review's job was taken by another");
                return;
            }
            Err(e) => {
                tracing::warn!(game = %game_id, error = ?e, "a review's lease cannot be renewed")
            }
        }
    }
}

/// Makes the review of a game whose job this server took: what the database
/// has of it read first (another server or worker may have made part of
/// it), the game brought up to date.
async fn review_taken(state: &AppState, game_id: &str) -> Result<(), ApiError> {
    if state.db.is_shared() {
        let stored = state
            .db
            .load_review(game_id)
            .await
            .map_err(|e| ApiError::Internal(format!("reading a review: {e:?}")))?;
        if let Some(stored) = stored {
            state.reviews.load(game_id, stored);
        }
        let entry = crate::follow::entry(state, game_id)
            .await
            .ok_or_else(|| ApiError::NotFound(format!("there is no game {game_id} to review")))?;
        let _submit = entry.hold_submissions().await;
        entry.catch_up(&state.db).await;
    }
    review_game(state, game_id).await
}

/// Reviews every position of a game's main line not reviewed yet, then
/// marks its review finished.
async fn review_game(state: &AppState, game_id: &str) -> Result<(), ApiError> {
    // An uploaded game may have been let go of since it was asked for.
    let entry = crate::follow::entry(state, game_id)
        .await
        .ok_or_else(|| ApiError::NotFound(format!("there is no game {game_id} to review")))?;
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
    use sygo_rules::{Geometry, Turn};

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
