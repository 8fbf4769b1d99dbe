//! The AI at work: its turns in games where it plays, hints and analyses,
//! each search in one of the AI's slots (`slots.rs`). One search at a time
//! per game (the game's search lock).

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use sygo_ai::view::AnalysisView;
use sygo_ai::{Analysis, Budget, MctsPlayer, MctsSettings, Player};
use sygo_rules::{Game, Turn};

use crate::db::JobKind;
use crate::error::ApiError;
use crate::game::Side;
use crate::games::{AI_LEASE_MS, Entry};
use crate::metrics::PlayedBy;
use crate::secret::seed;
use crate::slots::StopTurn;
use crate::state::AppState;
use crate::view::{PointMap, name};

/// Plays the AI's turns in a game where a turn just made it the AI's to
/// move (this server stored that turn, and with it the game's AI job, taken
/// by this server if it plays the AI: `Entry::ai_job`). A server that
/// leaves the AI to others on its database does nothing: a worker takes
/// the job.
pub(crate) fn start_turn(state: &AppState, entry: Arc<Entry>) {
    if state.db.is_shared() && !state.db.takes_ai() {
        return;
    }
    play_turns(state, entry);
}

/// Plays the AI's turns in a game, one after another while it is to move
/// (both sides may be the AI), on a task of its own.
pub(crate) fn play_turns(state: &AppState, entry: Arc<Entry>) {
    let state = state.clone();
    tokio::spawn(async move {
        loop {
            match ai_turn(&state, &entry).await {
                Ok(true) => continue,
                Ok(false) => break,
                Err(e) => {
                    if !state.ai.stopping() {
                        tracing::error!(game = %entry.meta.id, error = %e, "the AI's turn failed");
                        entry.set_ai_thinking(false);
                    }
                    break;
                }
            }
        }
    });
}

/// What follows a turn: the other side's conditional turn, if it left one
/// that answers it (`Entry::fire_conditional`), then the AI if it is to
/// move. Run on the task that played the turn.
pub(crate) async fn after_turn(state: &AppState, entry: &Arc<Entry>) {
    match entry.fire_conditional(&state.db, &state.ratings).await {
        Ok(Some(ai_next)) => {
            state.metrics.turn_played(PlayedBy::Conditional);
            if ai_next {
                start_turn(state, entry.clone());
            }
        }
        Ok(None) => {}
        Err(e) => tracing::error!(
            game = %entry.meta.id,
            error = %e,
            "a conditional turn could not be played"
        ),
    }
}

/// Starts the AI's turn again in a game where it is to move but its last
/// search failed (the game would otherwise wait for it forever): called
/// when someone looks at the game, such as its player coming back.
/// Nothing happens while a search runs, or once the server shuts down.
pub(crate) fn resume(state: &AppState, entry: &Arc<Entry>) {
    if state.ai.stopping() || !entry.claim_idle_ai_turn() {
        return;
    }
    if !state.db.is_shared() {
        start_turn(state, entry.clone());
        return;
    }
    // With other servers on the database, the game's job says who plays:
    // this server takes it again now if it is free or its own (its search
    // failed here); else its taker plays, or another takes it once the
    // lease runs out.
    if !state.db.takes_ai() {
        return;
    }
    let (state, entry) = (state.clone(), entry.clone());
    tokio::spawn(async move {
        let until = crate::time::now_ms() + AI_LEASE_MS;
        match state.db.take_job(JobKind::Ai, &entry.meta.id, until).await {
            Ok(true) => play_turns(&state, entry),
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(game = %entry.meta.id, error = ?e, "the AI's job could not be taken")
            }
        }
    });
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
    let per_turn = Duration::from_millis(time_ms);
    let budget = Budget::time(match (&entry.meta.clock, entry.with_live(|l| l.clock)) {
        (Some(control), Some(clock)) => crate::clock::ai_budget(
            control,
            &clock,
            color,
            crate::time::now_ms(),
            pos.vacant_count(),
            per_turn,
        ),
        _ => per_turn,
    });
    let position = pos.clone();
    let stop = StopTurn::new(stop);
    entry.set_ai_stop(Some(stop.clone()));
    state.ai.preempt_background(threads);
    let renewing = renew_job_while_thinking(state, entry);
    let decision = state
        .ai
        .run_turn(threads, stop, move || player.choose(&game, &budget))
        .await;
    if let Some(renewing) = renewing {
        renewing.abort();
    }
    entry.set_ai_stop(None);
    let decision = decision?;
    if state.ai.stopping() {
        return Ok(false);
    }
    match entry
        .play(
            &state.db,
            &state.ratings,
            color,
            decision.turn.clone(),
            Some(number),
            Some(undos),
        )
        .await
    {
        Ok(again) => {
            state.metrics.turn_played(PlayedBy::Ai);
            if !again {
                // A person to move: their conditional turn may answer.
                after_turn(state, entry).await;
            }
            Ok(again)
        }
        Err(ApiError::Illegal(why)) => {
            // The AI plays by the rules library; should it not, a random
            // legal turn keeps the game going.
            tracing::error!(
                game = %entry.meta.id,
                reason = %why,
                "the AI chose an illegal turn; playing a random one"
            );
            let stones = position.random_turn_stones(&mut rand_for_fallback());
            let turn = if stones.is_empty() {
                Turn::Pass
            } else {
                Turn::Stones(stones)
            };
            let again = entry
                .play(
                    &state.db,
                    &state.ratings,
                    color,
                    turn,
                    Some(number),
                    Some(undos),
                )
                .await?;
            state.metrics.turn_played(PlayedBy::Ai);
            Ok(again)
        }
        // The game moved on meanwhile (the player resigned or took turns
        // back): think again if the AI is still to move.
        Err(ApiError::Conflict(_)) => Ok(entry.ai_to_move()),
        Err(e) => Err(e),
    }
}

/// With other servers on the database, keeps this server's AI job of the
/// game while it thinks (a killed server stops renewing it, and another
/// takes the job once the lease runs out); the task to abort when done.
fn renew_job_while_thinking(
    state: &AppState,
    entry: &Arc<Entry>,
) -> Option<tokio::task::JoinHandle<()>> {
    if !state.db.is_shared() {
        return None;
    }
    let (state, id) = (state.clone(), entry.meta.id.clone());
    Some(tokio::spawn(async move {
        let every = Duration::from_millis((AI_LEASE_MS / 3).unsigned_abs());
        loop {
            tokio::time::sleep(every).await;
            match state
                .db
                .renew_job(JobKind::Ai, &id, crate::time::now_ms() + AI_LEASE_MS)
                .await
            {
                Ok(true) => {}
                // Another took it, or it is done: this search's turn will be
                // refused if the game moved on.
                Ok(false) => break,
                Err(e) => {
                    tracing::warn!(game = %id, error = ?e, "the AI's job could not be renewed")
                }
            }
        }
    }))
}

/// A generator for the fallback turn.
fn rand_for_fallback() -> impl sygo_rules::Rng {
    use rand::SeedableRng;
    rand_pcg::Pcg64Mcg::seed_from_u64(seed())
}

/// An analysis as the API writes it: the view `sygo analyze --json` writes
/// too, with the ownership by point name.
#[derive(Serialize)]
struct AnalysisJson {
    #[serde(flatten)]
    view: AnalysisView,
    ownership: PointMap<f32>,
}

/// The analysis of `game`'s position as JSON.
fn analysis_json(game: &Game, analysis: &Analysis) -> Result<String, ApiError> {
    let g = game.position().geometry();
    let json = AnalysisJson {
        view: AnalysisView::new(game.position(), analysis),
        ownership: PointMap(
            g.points()
                .map(|p| name(&g, p))
                .zip(AnalysisView::ownership(analysis))
                .collect(),
        ),
    };
    serde_json::to_string(&json).map_err(|e| ApiError::Internal(e.to_string()))
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
