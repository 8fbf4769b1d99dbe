//! `POST /api/games` (start a game, once per request id), `GET /api/games`
//! (the list, or the games a browser plays in: `?ids=`),
//! `GET /api/games/{id}[?turn=N]` (a game, or a review of its first N turns)
//! and `GET /api/games/{id}/side` (whose token this is).

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sygo_rules::{Color, Game, Geometry, Position, Variant};

use crate::ai;
use crate::api::extract::{JsonBody, side_of};
use crate::api::{count, find, json_response};
use crate::client_addr::ClientAddr;
use crate::clock::TimeControl;
use crate::config::{
    DEFAULT_TURN_TIME_MS, HEXSYGO_SIZES, LEVELS, MAX_KOMI, SYGO_SIZES, TURN_TIMES_MS,
};
use crate::db::WriteError;
use crate::error::ApiError;
use crate::game::{Meta, Side, Source};
use crate::games::Entry;
use crate::secret::{self, is_id};
use crate::session::MaybeSignedIn;
use crate::state::AppState;
use crate::view;

/// The body of `POST /api/games`.
#[derive(Deserialize)]
pub(crate) struct CreateRequest {
    variant: String,
    size: Option<i64>,
    komi: Option<f64>,
    black: SideRequest,
    white: SideRequest,
    /// The client's id of this request: a repeated request gets the game the
    /// first one created.
    request_id: Option<String>,
    /// The time control; none: no clock.
    clock: Option<TimeControl>,
}

/// A side as a request gives it.
#[derive(Deserialize)]
struct SideRequest {
    kind: String,
    level: Option<i64>,
    time_ms: Option<i64>,
}

fn bad(message: String) -> ApiError {
    ApiError::BadRequest(message)
}

/// The board of a request.
pub(crate) fn geometry(variant: &str, size: Option<i64>) -> Result<Geometry, ApiError> {
    let variant = Variant::from_name(variant).ok_or_else(|| {
        bad(format!(
            "{variant:?} is not a variant: write \"sygo\" or \"hexsygo\""
        ))
    })?;
    let (sizes, what) = match variant {
        Variant::Sygo => (SYGO_SIZES, "a Sygo board's side"),
        Variant::Hexsygo => (HEXSYGO_SIZES, "a Hexsygo board's base"),
    };
    let size = size.unwrap_or(i64::from(variant.default_size()));
    let size = u8::try_from(size)
        .ok()
        .filter(|s| sizes.contains(s))
        .ok_or_else(|| {
            bad(format!(
                "size {size}: {what} is {} to {}",
                sizes.start(),
                sizes.end()
            ))
        })?;
    Geometry::new(variant, size).map_err(|e| bad(e.to_string()))
}

/// A side of a request, checked.
fn side(color: &str, request: &SideRequest) -> Result<Side, ApiError> {
    match request.kind.as_str() {
        "human" => Ok(Side::Human { name: None }),
        "ai" => {
            let level = request.level.ok_or_else(|| {
                bad(format!(
                    "{color}: the AI needs a level, {} to {}",
                    LEVELS.start(),
                    LEVELS.end()
                ))
            })?;
            let level = u8::try_from(level)
                .ok()
                .filter(|l| LEVELS.contains(l))
                .ok_or_else(|| {
                    bad(format!(
                        "{color}: level {level} is not a level: write {} to {}",
                        LEVELS.start(),
                        LEVELS.end()
                    ))
                })?;
            let time = request.time_ms.unwrap_or(DEFAULT_TURN_TIME_MS as i64);
            let time_ms = u64::try_from(time)
                .ok()
                .filter(|t| TURN_TIMES_MS.contains(t))
                .ok_or_else(|| {
                    bad(format!(
                        "{color}: time_ms {time}: the AI's time per turn is {} to {} ms",
                        TURN_TIMES_MS.start(),
                        TURN_TIMES_MS.end()
                    ))
                })?;
            Ok(Side::Ai { level, time_ms })
        }
        other => Err(bad(format!(
            "{color}: {other:?} is not a kind of side: write \"human\" or \"ai\""
        ))),
    }
}

#[derive(Serialize)]
struct ByColor<T> {
    black: T,
    white: T,
}

#[derive(Serialize)]
struct Links {
    black: Option<String>,
    white: Option<String>,
    spectator: String,
}

#[derive(Serialize)]
struct Created<'a> {
    game: &'a RawValue,
    tokens: ByColor<Option<&'a str>>,
    links: Links,
}

/// The shortest and longest request ids: long enough to be unguessable (the
/// id gives the tokens back), short enough to store.
const REQUEST_ID_LENGTHS: std::ops::RangeInclusive<usize> = 16..=64;

/// A request id, checked: 16 to 64 letters, digits, `-` or `_`.
fn request_id(text: &str) -> Result<String, ApiError> {
    let ok = REQUEST_ID_LENGTHS.contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(text.to_string())
    } else {
        Err(bad(format!(
            "request_id: {} to {} letters, digits, - or _ (a random one per game, \
             such as crypto.randomUUID())",
            REQUEST_ID_LENGTHS.start(),
            REQUEST_ID_LENGTHS.end()
        )))
    }
}

/// Stores a new game under a fresh id and makes it live; starts the AI if
/// it is to move.
pub(crate) async fn add_game(
    state: &AppState,
    make: impl Fn(String) -> Entry,
    turns_of: impl Fn(&Entry) -> Vec<crate::db::TurnRow>,
) -> Result<Arc<Entry>, ApiError> {
    for _ in 0..8 {
        let id = secret::new_id()?;
        if state.games.contains(&id) {
            continue;
        }
        let entry = make(id);
        let row = entry.row()?;
        let turns = turns_of(&entry);
        let job = entry.ai_job(&state.db, entry.ai_to_move(), crate::time::now_ms());
        match state.db.insert_game(row, turns, job).await {
            Ok(()) => {}
            // A rematch refused: its game has one already (another server
            // started it at the same moment), or, far less likely, the id
            // was taken; `start_rematch` reads which.
            Err(WriteError::Duplicate) if entry.meta.rematch_of.is_some() => {
                return Err(ApiError::Conflict(
                    "the rematch of this game has started".to_string(),
                ));
            }
            Err(WriteError::Duplicate) => continue,
            Err(WriteError::Failed(why)) => {
                return Err(ApiError::Internal(format!("storing a game: {why}")));
            }
        }
        // Added unless another task read it meanwhile (a server that takes
        // AI jobs may, once it is stored): then that one is the game.
        let entry = Arc::new(entry);
        let kept = state.games.insert_new(entry.clone());
        if !Arc::ptr_eq(&kept, &entry) {
            return Ok(kept);
        }
        if entry.ai_to_move() {
            entry.set_ai_thinking(true);
            ai::start_turn(state, entry.clone());
        }
        return Ok(entry);
    }
    Err(ApiError::Internal(
        "no free game id after 8 tries".to_string(),
    ))
}

/// `POST /api/games`: 201 with the game, the tokens of its human sides and
/// the links to share; 200 with the same for a request id already used.
pub(crate) async fn create(
    State(state): State<AppState>,
    addr: ClientAddr,
    signed_in: MaybeSignedIn,
    JsonBody(request): JsonBody<CreateRequest>,
) -> Result<Response, ApiError> {
    state
        .limits
        .game(addr.0, signed_in.0.as_ref().map(|s| s.account.id))?;
    let geometry = geometry(&request.variant, request.size)?;
    let komi = request.komi.unwrap_or(0.0);
    if !komi.is_finite() || komi.abs() > MAX_KOMI {
        return Err(bad(format!("komi {komi}: at most {MAX_KOMI} either way")));
    }
    let black = side("black", &request.black)?;
    let white = side("white", &request.white)?;
    let sent_id = request.request_id.as_deref().map(request_id).transpose()?;
    // Of the id, only its digest is kept, in memory and in the database.
    let request_id = sent_id.as_deref().map(secret::digest);
    // The human sides' tokens: derived from the request id when there is
    // one (the same request sent again gets them again), else random; of
    // them too only the digests are kept.
    let token = |s: &Side, color: Color| -> Result<Option<String>, ApiError> {
        Ok(match (&sent_id, s.is_ai()) {
            (_, true) => None,
            (Some(rid), false) => Some(secret::request_token(rid, color.lowercase())),
            (None, false) => Some(secret::new_token()?),
        })
    };
    let tokens = [token(&black, Color::Black)?, token(&white, Color::White)?];
    if let Some(clock) = &request.clock {
        clock.check()?;
    }
    let clock = request.clock;
    // With a request id, the lookup and the creation happen under one lock:
    // of two requests with the same id (a double click), one creates the
    // game and the other finds it.
    let _creating = match &request_id {
        Some(_) => Some(state.games.creating.lock().await),
        None => None,
    };
    if let Some(rid) = &request_id
        && let Some(entry) = state.games.by_request(rid)
    {
        let m = &entry.meta;
        let same = m.geometry == geometry
            && m.komi == komi
            && m.black == black
            && m.white == white
            && m.clock == clock;
        if !same {
            return Err(ApiError::Conflict(
                "this request_id started another game: send a new one for a new game".to_string(),
            ));
        }
        return created_answer(&entry, &tokens, StatusCode::OK);
    }
    let digests = tokens.clone().map(|t| t.as_deref().map(secret::digest));
    let created = state.games.next_created();
    let entry = add_game(
        &state,
        |id| {
            let meta = Meta {
                rematch_of: None,
                rated: None,
                id,
                geometry,
                komi,
                black: black.clone(),
                white: white.clone(),
                token_digests: digests.clone(),
                source: Source::Played,
                created,
                record: None,
                request_id: request_id.clone(),
                clock,
            };
            Entry::new(meta, Game::new(Position::new(geometry)), created)
        },
        |_| Vec::new(),
    )
    .await?;
    created_answer(&entry, &tokens, StatusCode::CREATED)
}

/// The answer to a creation: the game as it stands, its tokens (by
/// `Color::index`), its links.
fn created_answer(
    entry: &Entry,
    tokens: &[Option<String>; 2],
    status: StatusCode,
) -> Result<Response, ApiError> {
    let game = entry.json(None);
    let game = RawValue::from_string(game).map_err(|e| ApiError::Internal(e.to_string()))?;
    let id = &entry.meta.id;
    let token_of = |c: Color| tokens[c.index()].as_deref();
    let link = |c: Color| token_of(c).map(|t| format!("/game/{id}#token={t}"));
    let body = Created {
        game: &game,
        tokens: ByColor {
            black: token_of(Color::Black),
            white: token_of(Color::White),
        },
        links: Links {
            black: link(Color::Black),
            white: link(Color::White),
            spectator: format!("/game/{id}"),
        },
    };
    let json = serde_json::to_string(&body).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(json_response(status, json))
}

/// Most games `GET /api/games?ids=` answers for at once.
pub(crate) const MAX_IDS: usize = 100;

/// Most games a page of `GET /api/games` lists.
pub(crate) const LIST_PAGE: usize = 100;

#[derive(Serialize)]
struct List<'a> {
    games: Vec<view::ListItem<'a>>,
    /// The cursor of the next page (`?before=`), if more games follow.
    next: Option<String>,
}

#[derive(Serialize)]
struct Chosen<'a> {
    games: Vec<view::ListItem<'a>>,
    missing: Vec<&'a str>,
}

/// The query of `GET /api/games`.
#[derive(Deserialize)]
pub(crate) struct ListQuery {
    ids: Option<String>,
    /// The cursor of the page: the `next` of the page before.
    before: Option<String>,
}

/// The cursor of the page after a game: its creation time (Unix ms) and
/// id, `1733140800000-ab12cd34`.
fn cursor_after(entry: &Entry) -> String {
    format!("{}-{}", entry.meta.created, entry.meta.id)
}

/// A cursor sent as `?before=`.
fn read_cursor(text: &str) -> Result<crate::games::ListCursor, ApiError> {
    text.split_once('-')
        .and_then(|(created, id)| Some((created.parse().ok()?, id)))
        .filter(|(_, id)| is_id(id))
        .map(|(created, id)| (created, id.to_string()))
        .ok_or_else(|| {
            bad(format!(
                "before={text:?} is not a page's cursor (the `next` of the page before)"
            ))
        })
}

/// `GET /api/games[?before=CURSOR]`: the games played here, newest first, a
/// page of [`LIST_PAGE`] at a time; with `?ids=a,b,…` the games named (an
/// uploaded one too), in that order, each with its position, and the ids
/// of no game.
pub(crate) async fn list(
    State(state): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) =
        query.map_err(|e| bad(format!("the query is not ?ids=…: {}", e.body_text())))?;
    let json = match query.ids {
        None => {
            let before = query.before.as_deref().map(read_cursor).transpose()?;
            let (entries, more) = state.games.page(before.as_ref(), LIST_PAGE);
            let games = entries
                .iter()
                .map(|e| e.with_live(|live| view::list_item(&e.meta, live, false)))
                .collect();
            let next = more
                .then(|| entries.last().map(|e| cursor_after(e)))
                .flatten();
            serde_json::to_string(&List { games, next })
        }
        Some(ids) => {
            let mut named: Vec<&str> = Vec::new();
            for id in ids.split(',').map(str::trim).filter(|id| !id.is_empty()) {
                if !is_id(id) {
                    return Err(bad(format!(
                        "ids: {id:?} is not a game id (eight hexadecimal digits)"
                    )));
                }
                if !named.contains(&id) {
                    named.push(id);
                }
            }
            if named.len() > MAX_IDS {
                return Err(bad(format!(
                    "ids: {} games named; at most {MAX_IDS} at once",
                    named.len()
                )));
            }
            let mut found = Vec::new();
            let mut missing = Vec::new();
            for id in named {
                match crate::follow::entry(&state, id).await {
                    Some(entry) => {
                        // The player is back: an AI turn whose search failed
                        // starts again.
                        ai::resume(&state, &entry);
                        found.push(entry);
                    }
                    None => missing.push(id),
                }
            }
            let games = found
                .iter()
                .map(|e| e.with_live(|live| view::list_item(&e.meta, live, true)))
                .collect();
            serde_json::to_string(&Chosen { games, missing })
        }
    };
    let json = json.map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(json_response(StatusCode::OK, json))
}

/// The query of `GET /api/games/{id}`.
#[derive(Deserialize)]
pub(crate) struct Review {
    turn: Option<i64>,
}

/// `GET /api/games/{id}[?turn=N]`.
pub(crate) async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<Review>, QueryRejection>,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let Query(review) =
        query.map_err(|e| bad(format!("the query is not ?turn=N: {}", e.body_text())))?;
    // Someone looks at the game (its player coming back, perhaps): an AI
    // turn whose search failed starts again.
    ai::resume(&state, &entry);
    let total = entry.with_live(|live| live.game.turns().len());
    let shown = match review.turn {
        None => None,
        Some(n) => {
            let n = count("turn", n)?;
            if n > total {
                return Err(bad(format!("turn {n}: the game has {total} turns")));
            }
            Some(n)
        }
    };
    let json = entry.json(shown);
    Ok(json_response(StatusCode::OK, json))
}

#[derive(Serialize)]
struct SideAnswer {
    side: &'static str,
}

/// `GET /api/games/{id}/side` (token): which side the token plays, so that
/// a page given a link without its side knows it (401 for neither side).
pub(crate) async fn side_of_token(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let color = side_of(&state, &entry, &headers)?;
    let json = serde_json::to_string(&SideAnswer {
        side: color.lowercase(),
    })
    .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(json_response(StatusCode::OK, json))
}
