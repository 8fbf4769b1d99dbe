//! The etiquette of a real server (docs/web.md, "Etiquette"), each with a
//! side's token: `POST /api/games/{id}/abort` (before one's first turn),
//! `/undo-request` and `/undo-answer` (the other person accepts or
//! declines), `/rematch` (offer, or accept the other's; `GET` gives the
//! rematch's game and one's new token, `DELETE` withdraws one's offer),
//! `/chat` (a line of text; `GET`, without a token: the chat's earlier
//! lines, a page at a time) and `/presence` (the page is open, or
//! closing).

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use sygo_rules::{Color, Game, Position};

use crate::api::extract::{JsonBody, OptionalJsonBody, presented_token, side_of};
use crate::api::games::add_game;
use crate::api::{count, find, json_response};
use crate::client_addr::ClientAddr;
use crate::db::SeatRow;
use crate::error::ApiError;
use crate::game::{Meta, Source};
use crate::games::{Entry, RematchState};
use crate::state::AppState;
use crate::time::now_ms;
use crate::{secret, session};

/// The longest line of chat, in characters.
pub(crate) const MAX_CHAT: usize = 500;

/// Runs a change of a game on a task of its own (a client that goes away
/// cannot stop it between the commit and memory), then answers with the
/// game.
async fn then_game<F>(entry: &Arc<Entry>, change: F) -> Result<Response, ApiError>
where
    F: std::future::Future<Output = Result<(), ApiError>> + Send + 'static,
{
    tokio::spawn(change)
        .await
        .map_err(|e| ApiError::Internal(format!("changing a game: {e}")))??;
    Ok(json_response(StatusCode::OK, entry.json(None)))
}

/// `POST /api/games/{id}/abort`: 200 with the game, aborted.
pub(crate) async fn abort(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    let (e, s) = (entry.clone(), state.clone());
    then_game(
        &entry,
        async move { e.abort(&s.db, &s.ratings, color).await },
    )
    .await
}

/// The body of an undo request: the turns the page saw.
#[derive(Deserialize)]
pub(crate) struct UndoRequestBody {
    turn_number: i64,
}

/// `POST /api/games/{id}/undo-request`: 200 with the game, the request
/// standing.
pub(crate) async fn undo_request(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<UndoRequestBody>,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    let expected = count("turn_number", body.turn_number)?;
    let (e, s) = (entry.clone(), state.clone());
    then_game(&entry, async move {
        e.request_undo(&s.db, color, expected).await
    })
    .await
}

/// The body of an answer to an undo request.
#[derive(Deserialize)]
pub(crate) struct UndoAnswer {
    accept: bool,
}

/// `POST /api/games/{id}/undo-answer`: 200 with the game (its last turn
/// taken back if accepted).
pub(crate) async fn undo_answer(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<UndoAnswer>,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    let (e, s) = (entry.clone(), state.clone());
    then_game(&entry, async move {
        e.answer_undo(&s.db, color, body.accept).await
    })
    .await
}

/// The body of a line of chat.
#[derive(Deserialize)]
pub(crate) struct ChatBody {
    text: String,
}

/// Whether a character reorders the text around it: the bidirectional
/// embeddings, overrides and isolates (U+202A to U+202E, U+2066 to
/// U+2069), with which a line can be made to read as something else.
fn reorders(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A line of chat as kept: control characters (but line breaks) and
/// bidirectional overrides dropped, trimmed, 1 to [`MAX_CHAT`] characters.
fn chat_text(text: &str) -> Result<String, ApiError> {
    let clean: String = text
        .chars()
        .filter(|&c| (!c.is_control() || c == '\n') && !reorders(c))
        .collect();
    let clean = clean.trim().to_string();
    let n = clean.chars().count();
    if n == 0 {
        return Err(ApiError::BadRequest("the line is empty".to_string()));
    }
    if n > MAX_CHAT {
        return Err(ApiError::BadRequest(format!(
            "a line of chat has at most {MAX_CHAT} characters (this one has {n})"
        )));
    }
    Ok(clean)
}

/// The query of `GET /api/games/{id}/chat`.
#[derive(Deserialize)]
pub(crate) struct ChatQuery {
    before: Option<i64>,
}

/// `GET /api/games/{id}/chat[?before=N]`: anyone; 200 `{"chat",
/// "chat_total"}`, the last lines (at most `view::CHAT_SHOWN`) numbered
/// below `N` (the last lines of all without it), oldest first.
pub(crate) async fn chat_page(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<ChatQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let Query(query) = query.map_err(|e| {
        ApiError::BadRequest(format!("the query is not ?before=N: {}", e.body_text()))
    })?;
    let before = match query.before {
        None => None,
        Some(n) => Some(u32::try_from(n).ok().filter(|&n| n >= 1).ok_or_else(|| {
            ApiError::BadRequest(format!("before {n}: a chat line's number, from 1"))
        })?),
    };
    let json = entry.with_live(|live| crate::view::chat_page_json(live, before));
    Ok(json_response(StatusCode::OK, json))
}

/// `POST /api/games/{id}/chat`: 200 with the game, the line in its chat.
pub(crate) async fn chat(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<ChatBody>,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    let text = chat_text(&body.text)?;
    state.limits.chat(&entry.meta.id, color.index())?;
    let (e, s) = (entry.clone(), state.clone());
    then_game(&entry, async move { e.chat(&s.db, color, text).await }).await
}

/// The body of a presence: whether the page is open (`true` unless said).
#[derive(Deserialize, Default)]
pub(crate) struct PresenceBody {
    present: Option<bool>,
}

/// `POST /api/games/{id}/presence`: 204.
pub(crate) async fn presence(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    OptionalJsonBody(body): OptionalJsonBody<PresenceBody>,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    let present = body.present.unwrap_or(true);
    if entry.presence(color, present, now_ms()) {
        // The other servers on the database show it too.
        state
            .db
            .tell_presence(&entry.meta.id, color, present)
            .await
            .map_err(|e| ApiError::Internal(format!("telling a presence: {e:?}")))?;
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// A side's way into the rematch: its game, its colour there, its token.
#[derive(Serialize)]
struct Seat<'a> {
    game: &'a str,
    color: &'static str,
    token: &'a str,
}

/// The answer to a side of `old` asking for its way into the rematch (its
/// colour there `color`): the token it asked with, which the rematch's side
/// takes too, or, for one an account holds, the token of the rematch's
/// side for the session it asked with.
fn seat_answer(
    status: StatusCode,
    old: &Entry,
    rematch: &Entry,
    color: Color,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    let asked_with = presented_token(headers).unwrap_or_default();
    let token = match session::secret_of(headers) {
        Some(session) if old.meta.color_of_token(asked_with).is_none() => {
            secret::seat_token(&session, &rematch.meta.id, color.lowercase())
        }
        _ => asked_with.to_string(),
    };
    let body = Seat {
        game: &rematch.meta.id,
        color: color.lowercase(),
        token: &token,
    };
    let json = serde_json::to_string(&body).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(json_response(status, json))
}

/// The id of the rematch of the game `id` as the database has it.
async fn stored_rematch(state: &AppState, id: &str) -> Result<Option<String>, ApiError> {
    state
        .db
        .rematch_of(id)
        .await
        .map_err(|e| ApiError::Internal(format!("reading a rematch: {e:?}")))
}

/// The rematch of `old`, if it started: in memory, else the game whose
/// `rematch_of` it is in the database (after a restart, or started by
/// another server).
async fn rematch_of(state: &AppState, old: &Entry) -> Result<Option<Arc<Entry>>, ApiError> {
    let id = match old.with_live(|live| live.rematch.clone()) {
        Some(id) => id,
        None => match stored_rematch(state, &old.meta.id).await? {
            Some(id) => id,
            None => return Ok(None),
        },
    };
    find(state, &id).await.map(Some)
}

/// Starts the rematch of `old`: the same board, komi, clock and rating,
/// colours swapped; the accounts that held the sides hold them again. With
/// `false`, the rematch another server started at the same moment (the
/// database keeps one rematch a game).
async fn start_rematch(state: &AppState, old: &Arc<Entry>) -> Result<(Arc<Entry>, bool), ApiError> {
    let m = &old.meta;
    // Each player keeps the token of the game before (colours swapped):
    // the server could not give a new one to the player who asks later, as
    // it keeps only digests.
    let token_digests = [m.token_digests[1].clone(), m.token_digests[0].clone()];
    let created = state.games.next_created();
    let make = |id: String| {
        let meta = Meta {
            id,
            geometry: m.geometry,
            komi: m.komi,
            black: m.white.clone(),
            white: m.black.clone(),
            token_digests: token_digests.clone(),
            source: Source::Played,
            created,
            record: None,
            request_id: None,
            clock: m.clock,
            rated: m.rated.map(|[b, w]| [w, b]),
            rematch_of: Some(m.id.clone()),
        };
        Entry::new(meta, Game::new(Position::new(m.geometry)), created)
    };
    // Refused when the game has a rematch already (another server started
    // it at the same moment: that one it is), or when the id was taken
    // (another id is tried, as `add_game` does).
    let mut tries = 0;
    let entry = loop {
        tries += 1;
        match add_game(state, &make, |_| Vec::new()).await {
            Ok(entry) => break entry,
            Err(ApiError::Conflict(why)) => match stored_rematch(state, &m.id).await? {
                Some(id) => {
                    let rematch = find(state, &id).await?;
                    old.set_rematch(id);
                    return Ok((rematch, false));
                }
                None if tries < 8 => {}
                None => return Err(ApiError::Conflict(why)),
            },
            Err(e) => return Err(e),
        }
    };
    let now = now_ms();
    let seats: Vec<SeatRow> = [Color::Black, Color::White]
        .into_iter()
        .filter_map(|old_color| {
            let holder = state.accounts.seat_holder(&m.id, old_color)?;
            Some(SeatRow {
                game_id: entry.meta.id.clone(),
                color: old_color.opponent().lowercase().to_string(),
                account_id: holder,
                claimed: now,
            })
        })
        .collect();
    if !seats.is_empty() {
        state
            .db
            .insert_seats(seats.clone())
            .await
            .map_err(|e| ApiError::Internal(format!("storing a rematch's seats: {e:?}")))?;
        state.accounts.add_seats(&seats);
        // A player on vacation: the rematch's clock stops on its turns.
        crate::vacation::seats_added(state, &seats).await;
    }
    old.set_rematch(entry.meta.id.clone());
    Ok((entry, true))
}

/// `POST /api/games/{id}/rematch`: offers a rematch (200 `{"state":
/// "offered"}`), or accepts the other side's offer — against the AI at
/// once — and starts it (201 with the rematch's game, one's colour there
/// and token).
pub(crate) async fn offer_rematch(
    State(state): State<AppState>,
    Path(id): Path<String>,
    addr: ClientAddr,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    let _creating = state.games.creating.lock().await;
    match entry.offer_rematch(&state.db, color).await? {
        RematchState::Offered => Ok(json_response(
            StatusCode::OK,
            r#"{"state":"offered"}"#.to_string(),
        )),
        RematchState::Started(game) => {
            let rematch = find(&state, &game).await?;
            seat_answer(StatusCode::OK, &entry, &rematch, color.opponent(), &headers)
        }
        RematchState::Agreed => {
            state.limits.game(addr.0, None)?;
            let (rematch, started_here) = start_rematch(&state, &entry).await?;
            let status = if started_here {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            };
            seat_answer(status, &entry, &rematch, color.opponent(), &headers)
        }
    }
}

/// `DELETE /api/games/{id}/rematch`: withdraws one's rematch offer; 200
/// with the game (409 with none standing, or once the rematch started).
pub(crate) async fn withdraw_rematch(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    // Not while a rematch is being started.
    let _creating = state.games.creating.lock().await;
    entry.withdraw_rematch(&state.db, color).await?;
    Ok(json_response(StatusCode::OK, entry.json(None)))
}

/// `GET /api/games/{id}/rematch`: the rematch's game, one's colour there
/// and token (404 while there is none).
pub(crate) async fn get_rematch(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    let rematch = rematch_of(&state, &entry)
        .await?
        .ok_or_else(|| ApiError::NotFound("there is no rematch of this game yet".to_string()))?;
    seat_answer(StatusCode::OK, &entry, &rematch, color.opponent(), &headers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_lines_are_cleaned_and_bounded() {
        assert_eq!(chat_text("  good game\u{7}! \n").unwrap(), "good game!");
        assert_eq!(chat_text("a\nb").unwrap(), "a\nb");
        assert!(chat_text(" \n\t").is_err());
        assert!(chat_text(&"x".repeat(MAX_CHAT + 1)).is_err());
        assert_eq!(chat_text("<b>hi</b>").unwrap(), "<b>hi</b>", "kept as text");
        assert_eq!(
            chat_text("gg \u{202E}evil\u{202C} \u{2067}x\u{2069}").unwrap(),
            "gg evil x",
            "no bidirectional override or isolate"
        );
    }
}
