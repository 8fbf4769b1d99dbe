//! `POST /api/games` (start a game), `GET /api/games` (the list) and
//! `GET /api/games/{id}[?turn=N]` (a game, or a review of its first N turns).

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sygo_rules::{Color, Game, Geometry, Position, Variant};

use crate::ai;
use crate::api::extract::JsonBody;
use crate::api::{count, find, json_response};
use crate::app::AppState;
use crate::config::{
    DEFAULT_TURN_TIME_MS, HEXSYGO_SIZES, LEVELS, MAX_KOMI, SYGO_SIZES, TURN_TIMES_MS,
};
use crate::db::WriteError;
use crate::error::ApiError;
use crate::games::{Entry, Meta, Side, Source};
use crate::secret;
use crate::view;

/// The body of `POST /api/games`.
#[derive(Deserialize)]
pub(crate) struct CreateRequest {
    variant: String,
    size: Option<i64>,
    komi: Option<f64>,
    black: SideRequest,
    white: SideRequest,
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
fn geometry(variant: &str, size: Option<i64>) -> Result<Geometry, ApiError> {
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
        match state.db.insert_game(row, turns).await {
            Ok(()) => {}
            Err(WriteError::Duplicate) => continue,
            Err(WriteError::Failed(why)) => {
                return Err(ApiError::Internal(format!("storing a game: {why}")));
            }
        }
        let entry = Arc::new(entry);
        state.games.insert(entry.clone());
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
/// the links to share.
pub(crate) async fn create(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<CreateRequest>,
) -> Result<Response, ApiError> {
    let geometry = geometry(&request.variant, request.size)?;
    let komi = request.komi.unwrap_or(0.0);
    if !komi.is_finite() || komi.abs() > MAX_KOMI {
        return Err(bad(format!("komi {komi}: at most {MAX_KOMI} either way")));
    }
    let black = side("black", &request.black)?;
    let white = side("white", &request.white)?;
    let token = |s: &Side| -> Result<Option<String>, ApiError> {
        Ok(if s.is_ai() {
            None
        } else {
            Some(secret::new_token()?)
        })
    };
    let tokens = [token(&black)?, token(&white)?];
    let created = state.games.next_created();
    let entry = add_game(
        &state,
        |id| {
            let meta = Meta {
                id,
                geometry,
                komi,
                black: black.clone(),
                white: white.clone(),
                tokens: tokens.clone(),
                source: Source::Played,
                created,
                record: None,
            };
            Entry::new(
                meta,
                Game::new(Position::new(geometry)),
                Vec::new(),
                created,
            )
        },
        |_| Vec::new(),
    )
    .await?;
    let game = entry.update().json;
    let game = RawValue::from_string(game).map_err(|e| ApiError::Internal(e.to_string()))?;
    let id = &entry.meta.id;
    let token_of = |c: Color| entry.meta.tokens[c.index()].as_deref();
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
    Ok(json_response(StatusCode::CREATED, json))
}

#[derive(Serialize)]
struct List<'a> {
    games: Vec<view::ListItem<'a>>,
}

/// `GET /api/games`: every game, newest first.
pub(crate) async fn list(State(state): State<AppState>) -> Result<Response, ApiError> {
    let entries = state.games.newest_first();
    let games = entries
        .iter()
        .map(|e| e.with_live(|live| view::list_item(&e.meta, live)))
        .collect();
    let json =
        serde_json::to_string(&List { games }).map_err(|e| ApiError::Internal(e.to_string()))?;
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
    let entry = find(&state, &id)?;
    let Query(review) =
        query.map_err(|e| bad(format!("the query is not ?turn=N: {}", e.body_text())))?;
    let json = entry.with_live(|live| {
        let total = live.game.turns().len();
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
        Ok(view::game_json(&entry.meta, live, shown))
    })?;
    Ok(json_response(StatusCode::OK, json))
}
