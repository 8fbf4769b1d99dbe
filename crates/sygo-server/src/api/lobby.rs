//! The lobby (docs/web.md, "Lobby"): `POST /api/challenges` (post a
//! challenge, open or to a named player), `DELETE /api/challenges/{id}`
//! (withdraw it), `POST /api/challenges/{id}/accept` (start its game),
//! `GET /api/lobby` (the challenges one sees and the games being played
//! now) and `GET /api/lobby/events` (the same, live).

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use serde::{Deserialize, Serialize};
use sygo_rules::{Color, Game, Position};

use crate::api::accounts::{Who, who};
use crate::api::extract::JsonBody;
use crate::api::games::geometry;
use crate::api::json_response;
use crate::client_addr::ClientAddr;
use crate::clock::TimeControl;
use crate::config::MAX_KOMI;
use crate::db::{SeatRow, WriteError};
use crate::error::ApiError;
use crate::game::{Meta, Side, Source};
use crate::games::Entry;
use crate::lobby::{Challenge, ColorChoice, MAX_OPEN_CHALLENGES, State as ChallengeState, Terms};
use crate::metrics::Stream;
use crate::ratings::{RatingView, family};
use crate::secret::{self, is_id};
use crate::session;
use crate::session::{MaybeSignedIn, SignedIn};
use crate::state::AppState;
use crate::time::{now_ms, rfc3339};

/// The body of `POST /api/challenges`.
#[derive(Deserialize)]
pub(crate) struct ChallengeRequest {
    variant: String,
    size: Option<i64>,
    komi: Option<f64>,
    color: Option<ColorChoice>,
    clock: Option<TimeControl>,
    rated: Option<bool>,
    min_rating: Option<f64>,
    max_rating: Option<f64>,
    /// A direct challenge: the name of the only account that may accept.
    opponent: Option<String>,
}

#[derive(Serialize)]
struct Player {
    name: String,
    rating: RatingView,
}

#[derive(Serialize)]
struct ChallengeView<'a> {
    id: &'a str,
    from: Player,
    to: Option<String>,
    variant: &'a str,
    size: u8,
    komi: f64,
    color: ColorChoice,
    clock: Option<TimeControl>,
    rated: bool,
    min_rating: Option<f64>,
    max_rating: Option<f64>,
    created: String,
    expires: String,
    /// `open` or `accepted`.
    state: &'static str,
    /// The game an accepted challenge started.
    game: Option<&'a str>,
    /// Who accepted it: the account holding the other side of its game.
    accepted_by: Option<String>,
}

fn player(state: &AppState, account: i64, family: &str) -> Player {
    Player {
        name: state
            .accounts
            .by_id(account)
            .map_or_else(|| "?".to_string(), |a| a.name),
        rating: state.ratings.get(account, family).view(),
    }
}

fn challenge_view<'a>(state: &AppState, c: &'a Challenge) -> ChallengeView<'a> {
    let fam = if c.terms.variant == "hexsygo" {
        "hexsygo"
    } else {
        "sygo"
    };
    ChallengeView {
        id: &c.id,
        from: player(state, c.owner, fam),
        to: c
            .opponent
            .and_then(|o| state.accounts.by_id(o))
            .map(|a| a.name),
        variant: &c.terms.variant,
        size: c.terms.size,
        komi: c.terms.komi,
        color: c.terms.color,
        clock: c.terms.clock,
        rated: c.terms.rated,
        min_rating: c.terms.min_rating,
        max_rating: c.terms.max_rating,
        created: rfc3339(c.created),
        expires: rfc3339(c.expires()),
        state: match c.state {
            ChallengeState::Accepted { .. } => "accepted",
            _ => "open",
        },
        game: match &c.state {
            ChallengeState::Accepted { game } => Some(game),
            _ => None,
        },
        accepted_by: match &c.state {
            ChallengeState::Accepted { game } => accepter(state, c.owner, game),
            _ => None,
        },
    }
}

/// The name of the account that accepted `owner`'s challenge whose game is
/// `game`: the one holding the side the poster does not.
fn accepter(state: &AppState, owner: i64, game: &str) -> Option<String> {
    [Color::Black, Color::White]
        .into_iter()
        .filter_map(|color| state.accounts.seat_holder(game, color))
        .find(|&id| id != owner)
        .and_then(|id| state.accounts.by_id(id))
        .map(|a| a.name)
}

/// A game being played now, as the lobby lists it.
#[derive(Serialize)]
struct Playing {
    id: String,
    variant: &'static str,
    size: u8,
    black: Who,
    white: Who,
    turns: usize,
    rated: bool,
    clock: Option<TimeControl>,
    updated: String,
}

/// Most games listed as being played now.
const MAX_PLAYING: usize = 50;
/// A game counts as being played now if it changed within this time.
const PLAYING_WITHIN_MS: i64 = 15 * 60 * 1000;

#[derive(Serialize)]
struct LobbyView<'a> {
    challenges: Vec<ChallengeView<'a>>,
    playing: Vec<Playing>,
}

/// The lobby as `account` sees it, as JSON.
fn lobby_json(state: &AppState, account: Option<i64>) -> Result<String, ApiError> {
    let now = now_ms();
    let challenges = state.lobby.shown_to(account, now);
    let mut playing: Vec<(i64, Playing)> = state
        .games
        .newest_first()
        .into_iter()
        .filter(|e| e.meta.source == Source::Played)
        .filter_map(|e| {
            let (updated, turns) = e.with_live(|live| {
                let over = live.game.position().is_over();
                (!over && now - live.updated < PLAYING_WITHIN_MS)
                    .then(|| (live.updated, live.game.turns().len()))
            })?;
            // The accounts are looked at without the game's lock.
            Some((
                updated,
                Playing {
                    id: e.meta.id.clone(),
                    variant: e.meta.geometry.variant().name(),
                    size: e.meta.geometry.size(),
                    black: who(state, &e, Color::Black),
                    white: who(state, &e, Color::White),
                    turns,
                    rated: e.meta.rated.is_some(),
                    clock: e.meta.clock,
                    updated: rfc3339(updated),
                },
            ))
        })
        .collect();
    playing.sort_by_key(|p| std::cmp::Reverse(p.0));
    playing.truncate(MAX_PLAYING);
    let view = LobbyView {
        challenges: challenges
            .iter()
            .map(|c| challenge_view(state, c))
            .collect(),
        playing: playing.into_iter().map(|(_, p)| p).collect(),
    };
    serde_json::to_string(&view).map_err(|e| ApiError::Internal(e.to_string()))
}

/// `GET /api/lobby`.
pub(crate) async fn get(
    State(state): State<AppState>,
    signed_in: MaybeSignedIn,
) -> Result<Response, ApiError> {
    let account = signed_in.0.map(|s| s.account.id);
    Ok(json_response(StatusCode::OK, lobby_json(&state, account)?))
}

/// How often the lobby's stream is sent again without a change (the games
/// being played move on).
const REFRESH: Duration = Duration::from_secs(10);

/// `GET /api/lobby/events`: the lobby at once, then after every change of
/// its challenges (and every ten seconds), as `event: lobby`.
pub(crate) async fn events(
    State(state): State<AppState>,
    signed_in: MaybeSignedIn,
) -> Result<Response, ApiError> {
    let account = signed_in.0.map(|s| s.account.id);
    let updates = state.lobby.subscribe();
    let shutdown = state.shutdown.clone();
    let first = true;
    // Counts the stream as open (`sygo_live_streams`) until it is dropped.
    let open = state.metrics.stream_opened(Stream::Lobby);
    let stream = stream::unfold(
        (state.clone(), updates, shutdown, first, open),
        move |(state, mut updates, mut shutdown, first, open)| async move {
            if !first {
                if *shutdown.borrow() {
                    return None;
                }
                tokio::select! {
                    received = updates.recv() => {
                        if let Err(tokio::sync::broadcast::error::RecvError::Closed) = received {
                            return None;
                        }
                    }
                    () = tokio::time::sleep(REFRESH) => {}
                    _ = shutdown.changed() => return None,
                }
            }
            let json = lobby_json(&state, account).unwrap_or_default();
            let event: Result<Event, Infallible> = Ok(Event::default().event("lobby").data(json));
            Some((event, (state, updates, shutdown, false, open)))
        },
    );
    let keep_alive = KeepAlive::new()
        .interval(state.keep_alive)
        .text("keep-alive");
    Ok(Sse::new(stream).keep_alive(keep_alive).into_response())
}

fn bad(message: String) -> ApiError {
    ApiError::BadRequest(message)
}

/// `POST /api/challenges`: 201 with the challenge.
pub(crate) async fn post(
    State(state): State<AppState>,
    addr: ClientAddr,
    signed_in: SignedIn,
    JsonBody(request): JsonBody<ChallengeRequest>,
) -> Result<Response, ApiError> {
    let me = signed_in.account;
    state.limits.game(addr.0, Some(me.id))?;
    let g = geometry(&request.variant, request.size)?;
    let komi = request.komi.unwrap_or(0.0);
    if !komi.is_finite() || komi.abs() > MAX_KOMI {
        return Err(bad(format!("komi {komi}: at most {MAX_KOMI} either way")));
    }
    if let Some(clock) = &request.clock {
        clock.check()?;
    }
    for (field, r) in [
        ("min_rating", request.min_rating),
        ("max_rating", request.max_rating),
    ] {
        if r.is_some_and(|r| !r.is_finite() || !(0.0..=5000.0).contains(&r)) {
            return Err(bad(format!("{field}: a rating from 0 to 5000")));
        }
    }
    if let (Some(lo), Some(hi)) = (request.min_rating, request.max_rating)
        && lo > hi
    {
        return Err(bad(format!("min_rating {lo} is above max_rating {hi}")));
    }
    let opponent = match &request.opponent {
        None => None,
        Some(name) => {
            let them = state
                .accounts
                .by_name(name)
                .filter(|a| !a.disabled)
                .ok_or_else(|| ApiError::NotFound(format!("there is no player named {name}")))?;
            if them.id == me.id {
                return Err(bad(
                    "a challenge to yourself: play hot-seat instead".to_string()
                ));
            }
            Some(them.id)
        }
    };
    // One post at a time, so that the count of open challenges holds.
    let _changing = state.lobby.changing.lock().await;
    let open = state.lobby.open_of(me.id, now_ms());
    if open >= MAX_OPEN_CHALLENGES {
        return Err(ApiError::Conflict(format!(
            "you have {open} open challenges, the most at once: withdraw one first"
        )));
    }
    let challenge = {
        let mut id = secret::new_id()?;
        while state.lobby.contains(&id) {
            id = secret::new_id()?;
        }
        Challenge {
            id,
            owner: me.id,
            opponent,
            terms: Terms {
                variant: g.variant().name().to_string(),
                size: g.size(),
                komi,
                color: request.color.unwrap_or(ColorChoice::Random),
                clock: request.clock,
                rated: request.rated.unwrap_or(true),
                min_rating: request.min_rating,
                max_rating: request.max_rating,
            },
            created: now_ms(),
            state: ChallengeState::Open,
        }
    };
    state
        .db
        .insert_challenge(challenge.row())
        .await
        .map_err(|e| ApiError::Internal(format!("storing a challenge: {e:?}")))?;
    state.lobby.put(challenge.clone());
    let json = serde_json::to_string(&challenge_view(&state, &challenge))
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(json_response(StatusCode::CREATED, json))
}

/// The challenge named in a path (404 for none).
fn find_challenge(state: &AppState, id: &str) -> Result<Challenge, ApiError> {
    is_id(id)
        .then(|| state.lobby.get(id))
        .flatten()
        .ok_or_else(|| ApiError::NotFound(format!("there is no challenge {id}")))
}

/// Why a challenge can no longer be accepted or withdrawn.
fn closed(c: &Challenge, now: i64) -> Option<ApiError> {
    let why = match c.state {
        ChallengeState::Accepted { .. } => "this challenge was accepted already",
        ChallengeState::Withdrawn => "this challenge was withdrawn",
        ChallengeState::Open if now >= c.expires() => "this challenge has expired",
        ChallengeState::Open => return None,
    };
    Some(ApiError::Conflict(why.to_string()))
}

/// `DELETE /api/challenges/{id}`: its poster withdraws it; 204.
pub(crate) async fn withdraw(
    State(state): State<AppState>,
    signed_in: SignedIn,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let _changing = state.lobby.changing.lock().await;
    let mut c = find_challenge(&state, &id)?;
    if c.owner != signed_in.account.id {
        return Err(ApiError::NotOffered(
            "only its poster can withdraw a challenge".to_string(),
        ));
    }
    if let Some(e) = closed(&c, now_ms()) {
        return Err(e);
    }
    state
        .db
        .withdraw_challenge(c.id.clone(), c.owner, c.opponent)
        .await
        .map_err(|e| ApiError::Internal(format!("withdrawing a challenge: {e:?}")))?;
    c.state = ChallengeState::Withdrawn;
    state.lobby.put(c);
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[derive(Serialize)]
struct Accepted<'a> {
    game: &'a str,
    color: &'static str,
    token: &'a str,
}

/// `POST /api/challenges/{id}/accept`: starts its game between the poster
/// and the account accepting it; 201 with the game's id, the accepter's
/// colour and token (the poster's is theirs through `GET /api/account`).
pub(crate) async fn accept(
    State(state): State<AppState>,
    signed_in: SignedIn,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let me = signed_in.account;
    let _changing = state.lobby.changing.lock().await;
    let mut c = find_challenge(&state, &id)?;
    let now = now_ms();
    if let Some(e) = closed(&c, now) {
        return Err(e);
    }
    if c.owner == me.id {
        return Err(ApiError::Conflict(
            "this is your own challenge: wait for someone to accept it, or withdraw it".to_string(),
        ));
    }
    if c.opponent.is_some_and(|o| o != me.id) {
        return Err(ApiError::NotOffered(
            "this challenge is for another player".to_string(),
        ));
    }
    let g = geometry(&c.terms.variant, Some(i64::from(c.terms.size)))?;
    let fam = family(g.variant());
    let mine = state.ratings.get(me.id, fam).glicko.rating;
    let below = c.terms.min_rating.is_some_and(|lo| mine < lo);
    let above = c.terms.max_rating.is_some_and(|hi| mine > hi);
    if below || above {
        return Err(ApiError::NotOffered(format!(
            "your {fam} rating, {}, is outside this challenge's range",
            mine.round()
        )));
    }
    let owner = state
        .accounts
        .by_id(c.owner)
        .ok_or_else(|| ApiError::Internal("a challenge's poster is gone".to_string()))?;
    let owner_color = match c.terms.color {
        ColorChoice::Black => Color::Black,
        ColorChoice::White => Color::White,
        ColorChoice::Random => {
            if secret::seed() % 2 == 0 {
                Color::Black
            } else {
                Color::White
            }
        }
    };
    let mut accounts = [0i64; 2];
    accounts[owner_color.index()] = owner.id;
    accounts[owner_color.opponent().index()] = me.id;
    let name_of = |c: Color| {
        if accounts[c.index()] == owner.id {
            owner.name.clone()
        } else {
            me.name.clone()
        }
    };
    // The players' pages use the tokens of their sessions
    // (`secret::seat_token`): these are given to no one.
    let token_digests = [
        Some(secret::digest(&secret::new_token()?)),
        Some(secret::digest(&secret::new_token()?)),
    ];
    let created = state.games.next_created();
    let mut game_id = secret::new_id()?;
    while state.games.contains(&game_id) {
        game_id = secret::new_id()?;
    }
    let meta = Meta {
        rematch_of: None,
        id: game_id.clone(),
        geometry: g,
        komi: c.terms.komi,
        black: Side::Human {
            name: Some(name_of(Color::Black)),
        },
        white: Side::Human {
            name: Some(name_of(Color::White)),
        },
        token_digests,
        source: Source::Played,
        created,
        record: None,
        request_id: None,
        clock: c.terms.clock,
        rated: c.terms.rated.then_some(accounts),
    };
    let entry = Entry::new(meta, Game::new(Position::new(g)), created);
    let seats: Vec<SeatRow> = [Color::Black, Color::White]
        .into_iter()
        .map(|color| SeatRow {
            game_id: game_id.clone(),
            color: color.lowercase().to_string(),
            account_id: accounts[color.index()],
            claimed: now,
        })
        .collect();
    match state
        .db
        .accept_challenge(entry.row()?, seats.clone(), c.id.clone(), c.owner)
        .await
    {
        Ok(()) => {}
        Err(WriteError::Duplicate) => {
            return Err(ApiError::Conflict(
                "this challenge was taken meanwhile: reload the lobby".to_string(),
            ));
        }
        Err(WriteError::Failed(why)) => {
            return Err(ApiError::Internal(format!("starting a game: {why}")));
        }
    }
    // Added unless another task read it meanwhile (once stored, it can
    // be): then that one is the game.
    state.games.insert_new(std::sync::Arc::new(entry));
    state.accounts.add_seats(&seats);
    // A player on vacation: the new game's clock stops on its turns.
    crate::vacation::seats_added(&state, &seats).await;
    c.state = ChallengeState::Accepted {
        game: game_id.clone(),
    };
    state.lobby.put(c);
    let color = owner_color.opponent();
    let body = Accepted {
        game: &game_id,
        color: color.lowercase(),
        token: &session::secret_of(&headers)
            .map(|session| secret::seat_token(&session, &game_id, color.lowercase()))
            .unwrap_or_default(),
    };
    let json = serde_json::to_string(&body).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(json_response(StatusCode::CREATED, json))
}
