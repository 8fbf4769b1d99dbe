//! `POST /api/games/{id}/hint` (a side, with its token, when it is to move)
//! and `POST /api/games/{id}/analysis` (anyone): the AI's view of a
//! position, searched off the request threads; `GET /api/searches/{ticket}`:
//! the place of a search in the AI's queue.

use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use sygo_rules::Game;

use crate::ai;
use crate::api::extract::{OptionalJsonBody, side_of};
use crate::api::{count, find, json_response};
use crate::client_addr::ClientAddr;
use crate::config::{DEFAULT_SEARCH_TIME_MS, SEARCH_TIMES_MS};
use crate::error::ApiError;
use crate::games::Entry;
use crate::slots::Place;
use crate::state::AppState;

/// The body (optional): the time to search, for an analysis the position
/// (after its first `turn` turns; default: the current one), and a ticket
/// the client chose to follow the search's place in the queue.
#[derive(Deserialize, Default)]
pub(crate) struct SearchRequest {
    time_ms: Option<i64>,
    turn: Option<i64>,
    ticket: Option<String>,
}

/// A ticket: 8 to 64 letters, digits, `-` or `_`.
fn is_ticket(ticket: &str) -> bool {
    (8..=64).contains(&ticket.len())
        && ticket
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The request's ticket, checked.
fn ticket(request: &SearchRequest) -> Result<Option<String>, ApiError> {
    match &request.ticket {
        None => Ok(None),
        Some(t) if is_ticket(t) => Ok(Some(t.clone())),
        Some(_) => Err(ApiError::BadRequest(
            "ticket: 8 to 64 letters, digits, - or _".to_string(),
        )),
    }
}

/// Where a search stands in the AI's queue, as the API writes it.
#[derive(Serialize)]
struct PlaceView {
    /// `waiting` or `running`.
    state: &'static str,
    /// Searches running or waiting before it (0 when running).
    ahead: usize,
}

/// `GET /api/searches/{ticket}`: where the search sent with this ticket
/// stands; 404 once it has ended (or if there is none).
pub(crate) async fn place(
    State(state): State<AppState>,
    Path(ticket): Path<String>,
) -> Result<Response, ApiError> {
    let place = is_ticket(&ticket)
        .then(|| state.ai.place(&ticket))
        .flatten()
        .ok_or_else(|| {
            ApiError::NotFound("no search with this ticket waits or runs".to_string())
        })?;
    let view = match place {
        Place::Waiting { ahead } => PlaceView {
            state: "waiting",
            ahead,
        },
        Place::Running => PlaceView {
            state: "running",
            ahead: 0,
        },
    };
    let json = serde_json::to_string(&view).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(json_response(StatusCode::OK, json))
}

fn search_time(request: &SearchRequest) -> Result<Duration, ApiError> {
    let ms = request.time_ms.unwrap_or(DEFAULT_SEARCH_TIME_MS as i64);
    u64::try_from(ms)
        .ok()
        .filter(|t| SEARCH_TIMES_MS.contains(t))
        .map(Duration::from_millis)
        .ok_or_else(|| {
            ApiError::BadRequest(format!(
                "time_ms {ms}: a search takes {} to {} ms",
                SEARCH_TIMES_MS.start(),
                SEARCH_TIMES_MS.end()
            ))
        })
}

/// Searches `game` with the game's search lock (409 if a search of this
/// game is running).
async fn search(
    state: &AppState,
    entry: &Entry,
    game: Game,
    time: Duration,
    ticket: Option<String>,
) -> Result<Response, ApiError> {
    if game.position().is_over() {
        return Err(ApiError::Conflict(
            "the game is over: there is nothing to search".to_string(),
        ));
    }
    let _search = entry.search.try_lock().map_err(|_| {
        ApiError::Conflict(
            "the AI is already thinking about this game: ask again when it has played".to_string(),
        )
    })?;
    let json = ai::analyse(state, game, time, ticket).await?;
    Ok(json_response(StatusCode::OK, json))
}

/// `POST /api/games/{id}/hint`: the analysis of the current position for
/// the token's side, which must be to move.
pub(crate) async fn hint(
    State(state): State<AppState>,
    Path(id): Path<String>,
    addr: ClientAddr,
    headers: HeaderMap,
    OptionalJsonBody(request): OptionalJsonBody<SearchRequest>,
) -> Result<Response, ApiError> {
    state.limits.search(addr.0)?;
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    let time = search_time(&request)?;
    let ticket = ticket(&request)?;
    let game = entry.with_live(|live| live.game.clone());
    let pos = game.position();
    if !pos.is_over() && pos.side_to_move() != color {
        return Err(ApiError::NotYourTurn(format!(
            "it is {}'s turn: a hint is for the side to move",
            pos.side_to_move()
        )));
    }
    search(&state, &entry, game, time, ticket).await
}

/// `POST /api/games/{id}/analysis`: the analysis of the current position,
/// or of the position after the first `turn` turns.
pub(crate) async fn analysis(
    State(state): State<AppState>,
    Path(id): Path<String>,
    addr: ClientAddr,
    OptionalJsonBody(request): OptionalJsonBody<SearchRequest>,
) -> Result<Response, ApiError> {
    state.limits.search(addr.0)?;
    let entry = find(&state, &id).await?;
    let time = search_time(&request)?;
    let ticket = ticket(&request)?;
    let game = entry.with_live(|live| live.game.clone());
    let game = match request.turn {
        None => game,
        Some(n) => {
            let n = count("turn", n)?;
            let total = game.turns().len();
            if n > total {
                return Err(ApiError::BadRequest(format!(
                    "turn {n}: the game has {total} turns"
                )));
            }
            let mut earlier = Game::new(game.start().clone());
            for turn in &game.turns()[..n] {
                earlier
                    .play(turn.clone())
                    .map_err(|e| ApiError::Internal(format!("replaying a game: {e}")))?;
            }
            earlier
        }
    };
    search(&state, &entry, game, time, ticket).await
}
