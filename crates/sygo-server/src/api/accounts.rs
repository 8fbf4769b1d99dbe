//! Accounts (docs/web.md, "Accounts"): `POST /api/account` (sign up),
//! `POST /api/session` (sign in), `DELETE /api/session` (sign out),
//! `GET /api/account` (the account and the sides it holds, with their
//! tokens, and its vacation), `POST /api/account/password`,
//! `POST /api/account/claims`, `POST /api/account/vacation`.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use sygo_rules::Color;

use crate::accounts::{Account, VACATION_ALLOWANCE_MS, VACATION_WINDOW_MS, Vacation, check_name};
use crate::api::extract::{JsonBody, held_color};
use crate::api::json_response;
use crate::client_addr::ClientAddr;
use crate::db::{AccountRow, SeatRow, WriteError};
use crate::error::ApiError;
use crate::game::Side;
use crate::games::Entry;
use crate::metrics::Stream;
use crate::password;
use crate::secret::{self, digest, is_id};
use crate::session::{self, MaybeSignedIn, SignedIn};
use crate::state::AppState;
use crate::time::{now_ms, rfc3339};

/// Most claims in one request.
pub(crate) const MAX_CLAIMS: usize = 100;

/// A side of a game, claimed with its token.
#[derive(Deserialize)]
pub(crate) struct Claim {
    game: String,
    token: String,
}

/// The body of a sign-up or a sign-in. Not `Debug`: it holds a password.
#[derive(Deserialize)]
pub(crate) struct Credentials {
    name: String,
    password: String,
    #[serde(default)]
    claims: Vec<Claim>,
}

/// The body of `POST /api/account/password`.
#[derive(Deserialize)]
pub(crate) struct NewPassword {
    current: String,
    new: String,
}

/// The body of `POST /api/account/claims`.
#[derive(Deserialize)]
pub(crate) struct Claims {
    claims: Vec<Claim>,
}

/// The body of `POST /api/account/vacation`.
#[derive(Deserialize)]
pub(crate) struct VacationSwitch {
    on: bool,
}

/// An account's vacation as the API writes it.
#[derive(Serialize)]
struct VacationView {
    on: bool,
    /// When it began (RFC 3339, Unix ms), while on.
    since: Option<String>,
    since_ms: Option<i64>,
    /// When it ends by itself, its allowance used up, while on.
    until: Option<String>,
    until_ms: Option<i64>,
    /// Vacation taken in the last 365 days, the current one included.
    used_ms: i64,
    /// What is left to take (while on: until it ends by itself).
    left_ms: i64,
    /// The same in days, to a tenth (`left_days` rounded down).
    used_days: f64,
    left_days: f64,
    /// The allowance: `allowance_days` in any `window_days`.
    allowance_days: i64,
    window_days: i64,
}

fn vacation_view(v: Vacation) -> VacationView {
    const DAY: f64 = crate::clock::DAY_MS as f64;
    VacationView {
        on: v.since.is_some(),
        since: v.since.map(rfc3339),
        since_ms: v.since,
        until: v.until.map(rfc3339),
        until_ms: v.until,
        used_ms: v.used_ms,
        left_ms: v.left_ms,
        used_days: (v.used_ms as f64 / DAY * 10.0).round() / 10.0,
        left_days: (v.left_ms as f64 / DAY * 10.0).floor() / 10.0,
        allowance_days: VACATION_ALLOWANCE_MS / crate::clock::DAY_MS,
        window_days: VACATION_WINDOW_MS / crate::clock::DAY_MS,
    }
}

#[derive(Serialize)]
struct AccountView<'a> {
    name: &'a str,
    created: String,
}

fn account_view(a: &Account) -> AccountView<'_> {
    AccountView {
        name: &a.name,
        created: rfc3339(a.created),
    }
}

/// A side claimed.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub(crate) struct Claimed {
    game: String,
    color: &'static str,
}

/// A claim refused, and why.
#[derive(Serialize, Debug)]
pub(crate) struct Refused {
    game: String,
    reason: String,
}

#[derive(Serialize)]
struct Welcome<'a> {
    account: AccountView<'a>,
    claimed: Vec<Claimed>,
    refused: Vec<Refused>,
}

fn too_many_claims(n: usize) -> Result<(), ApiError> {
    if n > MAX_CLAIMS {
        return Err(ApiError::BadRequest(format!(
            "{n} claims: at most {MAX_CLAIMS} at once"
        )));
    }
    Ok(())
}

fn json<T: Serialize>(status: StatusCode, body: &T) -> Result<Response, ApiError> {
    let json = serde_json::to_string(body).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(json_response(status, json))
}

/// Claims the sides of `claims` for `account`: each side whose token it is,
/// unless another account holds it (a token of the account's `session`,
/// the secret of the request's cookie, names a side it holds already). The
/// new seats are committed together.
pub(crate) async fn claim(
    state: &AppState,
    account: i64,
    session: Option<&str>,
    claims: &[Claim],
) -> Result<(Vec<Claimed>, Vec<Refused>), ApiError> {
    let _changing = state.accounts.changing.lock().await;
    let (mut claimed, mut refused, mut new) = (Vec::new(), Vec::new(), Vec::new());
    let now = now_ms();
    for c in claims {
        let refuse = |reason: &str| Refused {
            game: c.game.clone(),
            reason: reason.to_string(),
        };
        let Some(entry) = is_id(&c.game)
            .then(|| state.games.get(&c.game).ok())
            .flatten()
        else {
            refused.push(refuse("there is no such game"));
            continue;
        };
        let color = entry.meta.color_of_token(&c.token).or_else(|| {
            session.and_then(|session| held_color(state, &entry, &c.token, session, account))
        });
        let Some(color) = color else {
            refused.push(refuse("this token is not a side of this game"));
            continue;
        };
        let seat = Claimed {
            game: c.game.clone(),
            color: color.lowercase(),
        };
        match state.accounts.seat_holder(&c.game, color) {
            Some(holder) if holder != account => {
                refused.push(refuse("this side is another account's"));
                continue;
            }
            Some(_) => {}
            None => {
                let row = SeatRow {
                    game_id: c.game.clone(),
                    color: color.lowercase().to_string(),
                    account_id: account,
                    claimed: now,
                };
                if !new.contains(&row) {
                    new.push(row);
                }
            }
        }
        if !claimed.contains(&seat) {
            claimed.push(seat);
        }
    }
    if !new.is_empty() {
        state
            .db
            .insert_seats(new.clone())
            .await
            .map_err(|e| ApiError::Internal(format!("storing claims: {e:?}")))?;
        state.accounts.add_seats(&new);
        // A side claimed while on vacation: its clock stops from now.
        crate::vacation::seats_added_locked(state, &new).await;
    }
    Ok((claimed, refused))
}

/// `POST /api/account`: a new account, signed in; 201.
pub(crate) async fn sign_up(
    State(state): State<AppState>,
    addr: ClientAddr,
    headers: HeaderMap,
    JsonBody(request): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    state.limits.auth(addr.0)?;
    check_name(&request.name)?;
    password::check(&request.password, &request.name)?;
    too_many_claims(request.claims.len())?;
    let taken = || ApiError::Conflict(format!("the name {:?} is taken", request.name));
    if state.accounts.by_name(&request.name).is_some() {
        return Err(taken());
    }
    let password_hash = password::hash(request.password.clone()).await?;
    let account = {
        let _changing = state.accounts.changing.lock().await;
        if state.accounts.by_name(&request.name).is_some() {
            return Err(taken());
        }
        let mut row = AccountRow {
            id: state.accounts.next_id(),
            name: request.name.clone(),
            password_hash,
            created: now_ms(),
            disabled: false,
            vacation_since: None,
        };
        let mut tries = 0;
        loop {
            match state.db.insert_account(row.clone()).await {
                Ok(()) => break,
                // With other servers on the database, the name or the next
                // id may have been taken there: read the account of that
                // name and those from that id on, and tell which.
                Err(WriteError::Duplicate) if state.db.is_shared() && tries < 3 => {
                    tries += 1;
                    let mut ids = state.db.account_ids_from(row.id).await.unwrap_or_default();
                    ids.extend(state.db.account_id(&request.name).await.ok().flatten());
                    crate::follow::read_accounts_of(&state, ids).await;
                    if state.accounts.by_name(&request.name).is_some() {
                        return Err(taken());
                    }
                    row.id = state.accounts.next_id();
                }
                Err(WriteError::Duplicate) => return Err(taken()),
                Err(WriteError::Failed(why)) => {
                    return Err(ApiError::Internal(format!("storing an account: {why}")));
                }
            }
        }
        let account = Account::from(row);
        state.accounts.add(account.clone());
        account
    };
    let (claimed, refused) = claim(&state, account.id, None, &request.claims).await?;
    let cookie = session::start(&state, account.id, session::secure(&state, &headers)).await?;
    let body = Welcome {
        account: account_view(&account),
        claimed,
        refused,
    };
    Ok(([cookie], json(StatusCode::CREATED, &body)?).into_response())
}

/// `POST /api/session`: signs in; 200.
pub(crate) async fn sign_in(
    State(state): State<AppState>,
    addr: ClientAddr,
    headers: HeaderMap,
    JsonBody(request): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    state.limits.auth(addr.0)?;
    state.limits.sign_in(&request.name, addr.0)?;
    too_many_claims(request.claims.len())?;
    let wrong = || ApiError::Unauthorized("wrong name or password".to_string());
    let mut account = state.accounts.by_name(&request.name);
    if account.is_none()
        && state.db.is_shared()
        && let Ok(Some(id)) = state.db.account_id(&request.name).await
    {
        // An account another server on the database just made.
        crate::follow::read_accounts_of(&state, vec![id]).await;
        account = state.accounts.by_name(&request.name);
    }
    let Some(account) = account else {
        password::verify_nothing(request.password).await?;
        return Err(wrong());
    };
    if !password::verify(request.password, account.password_hash.clone()).await? {
        return Err(wrong());
    }
    if account.disabled {
        return Err(ApiError::Disabled(
            "this account is disabled by the server's host".to_string(),
        ));
    }
    let (claimed, refused) = claim(&state, account.id, None, &request.claims).await?;
    let cookie = session::start(&state, account.id, session::secure(&state, &headers)).await?;
    let body = Welcome {
        account: account_view(&account),
        claimed,
        refused,
    };
    Ok(([cookie], json(StatusCode::OK, &body)?).into_response())
}

/// `DELETE /api/session`: signs out (also when not signed in); 204.
pub(crate) async fn sign_out(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(secret) = session::secret_of(&headers) {
        let hash = digest(&secret);
        // The session's account (a session not kept here may be stored:
        // started on another server, or expired before the server started).
        let account = match state.accounts.session_account(&hash) {
            Some(account) => Some(account),
            None => state
                .db
                .session(&hash)
                .await
                .map_err(|e| ApiError::Internal(format!("reading a session: {e:?}")))?
                .map(|(account, _)| account),
        };
        // No such session: nothing to end.
        if let Some(account) = account {
            state
                .db
                .end_session(hash.clone(), account)
                .await
                .map_err(|e| ApiError::Internal(format!("ending a session: {e:?}")))?;
            state.accounts.end_session(&hash);
        }
    }
    let cleared = session::cleared(session::secure(&state, &headers));
    Ok((StatusCode::NO_CONTENT, [cleared]).into_response())
}

#[derive(Serialize)]
struct Held<'a> {
    id: &'a str,
    color: &'static str,
    /// The side's token for this session (`secret::seat_token`).
    token: String,
}

#[derive(Serialize)]
struct Mine<'a> {
    account: AccountView<'a>,
    games: Vec<Held<'a>>,
    vacation: VacationView,
}

/// `GET /api/account`: the account signed in and the sides it holds, newest
/// game first, with their tokens; 401 when not signed in (and a cookie that
/// signs no one in is cleared). A session with less than half its 30 days
/// left is renewed for 30 days (a new `Set-Cookie`).
pub(crate) async fn get(
    State(state): State<AppState>,
    headers: HeaderMap,
    signed_in: MaybeSignedIn,
) -> Result<Response, ApiError> {
    let Some(signed_in) = signed_in.0 else {
        let error = ApiError::Unauthorized("not signed in".to_string()).into_response();
        if session::secret_of(&headers).is_some() {
            let cleared = session::cleared(session::secure(&state, &headers));
            return Ok(([cleared], error).into_response());
        }
        return Ok(error);
    };
    let renewed = session::renew(&state, &headers, &signed_in).await?;
    // Signed in by the cookie: it is there.
    let session_secret = session::secret_of(&headers).unwrap_or_default();
    let account = signed_in.account;
    let mut held: Vec<_> = state
        .accounts
        .seats_of(account.id)
        .into_iter()
        .filter_map(|(game, color)| state.games.get(&game).ok().map(|e| (e, color)))
        .collect();
    held.sort_by(|(a, _), (b, _)| (b.meta.created, &b.meta.id).cmp(&(a.meta.created, &a.meta.id)));
    let games = held
        .iter()
        .map(|(entry, color)| Held {
            id: &entry.meta.id,
            color: color.lowercase(),
            token: secret::seat_token(&session_secret, &entry.meta.id, color.lowercase()),
        })
        .collect();
    let vacation = state
        .accounts
        .vacation(account.id, now_ms())
        .map(vacation_view)
        .ok_or_else(|| ApiError::Internal("an account went away".to_string()))?;
    let answer = json(
        StatusCode::OK,
        &Mine {
            account: account_view(&account),
            games,
            vacation,
        },
    )?;
    Ok(match renewed {
        Some(cookie) => ([cookie], answer).into_response(),
        None => answer,
    })
}

/// `POST /api/account/password`: a new password; every other session of
/// the account ends; 204.
pub(crate) async fn change_password(
    State(state): State<AppState>,
    signed_in: SignedIn,
    JsonBody(request): JsonBody<NewPassword>,
) -> Result<Response, ApiError> {
    let SignedIn { account, session } = signed_in;
    password::check(&request.new, &account.name)?;
    // Each change hashes a guess of the current password: a stolen
    // session cannot guess it without end.
    state.limits.password(account.id)?;
    if !password::verify(request.current, account.password_hash.clone()).await? {
        return Err(ApiError::Unauthorized(
            "the current password is wrong".to_string(),
        ));
    }
    let hash = password::hash(request.new).await?;
    state
        .db
        .set_password(account.id, hash.clone(), session.clone())
        .await
        .map_err(|e| ApiError::Internal(format!("storing a password: {e:?}")))?;
    state.accounts.set_password(account.id, hash, &session);
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[derive(Serialize)]
struct ClaimAnswer {
    claimed: Vec<Claimed>,
    refused: Vec<Refused>,
}

/// `POST /api/account/claims`: claims sides for the account; 200 with what
/// was claimed and what was refused.
pub(crate) async fn claims(
    State(state): State<AppState>,
    headers: HeaderMap,
    signed_in: SignedIn,
    JsonBody(request): JsonBody<Claims>,
) -> Result<Response, ApiError> {
    too_many_claims(request.claims.len())?;
    let session = session::secret_of(&headers);
    let (claimed, refused) = claim(
        &state,
        signed_in.account.id,
        session.as_deref(),
        &request.claims,
    )
    .await?;
    json(StatusCode::OK, &ClaimAnswer { claimed, refused })
}

#[derive(Serialize)]
struct VacationAnswer {
    vacation: VacationView,
}

/// `POST /api/account/vacation` (`{"on": true | false}`): switches the
/// account's vacation on or off (as it is already: nothing changes); 200
/// with the vacation as it then stands; 409 `no_vacation_left` when
/// switched on with nothing left of the allowance.
pub(crate) async fn vacation(
    State(state): State<AppState>,
    signed_in: SignedIn,
    JsonBody(request): JsonBody<VacationSwitch>,
) -> Result<Response, ApiError> {
    let v = crate::vacation::switch(&state, signed_in.account.id, request.on).await?;
    json(
        StatusCode::OK,
        &VacationAnswer {
            vacation: vacation_view(v),
        },
    )
}

/// The colour of a side as an account holds it (for other modules).
pub(crate) fn holder_of(state: &AppState, game: &str, color: Color) -> Option<Account> {
    state
        .accounts
        .seat_holder(game, color)
        .and_then(|id| state.accounts.by_id(id))
}

/// Who plays a side of a game, as the lobby and the notice name it.
#[derive(Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub(crate) enum Who {
    /// The account holding the side (its profile: `/player/{name}`).
    Account { name: String },
    /// The AI at a level.
    Ai { level: u8 },
    /// A person without an account (or who has not claimed the side; or
    /// whose account the host disabled, its profile hidden).
    Guest,
}

/// Who plays `color` in `entry`: the account holding it, the AI, or a
/// guest. Looks at the accounts: not to be called under the game's lock.
pub(crate) fn who(state: &AppState, entry: &Entry, color: Color) -> Who {
    match (
        holder_of(state, &entry.meta.id, color),
        entry.meta.side(color),
    ) {
        (Some(account), _) if !account.disabled => Who::Account { name: account.name },
        (_, Side::Ai { level, .. }) => Who::Ai { level: *level },
        _ => Who::Guest,
    }
}

/// A game waiting for the account's turn.
#[derive(Serialize, PartialEq)]
struct Waiting {
    id: String,
    /// The board in words: "Sygo 9×9", "Hexsygo, base 5".
    board: String,
    /// Who plays the other side, as the lobby says it.
    opponent: Who,
    /// The turns played so far (the account plays the next one).
    turn_number: usize,
    /// When the account runs out of time in it (Unix milliseconds), if it
    /// has a clock that runs (none while it is stopped by a vacation).
    deadline_ms: Option<i64>,
    correspondence: bool,
    /// Whether its clock is stopped: the account is on vacation.
    paused: bool,
}

/// What the account's pages show on every page: the games waiting for its
/// turn, and the challenges made to it.
#[derive(Serialize, PartialEq)]
struct Notice {
    your_turn: Vec<Waiting>,
    challenges: usize,
}

/// The account's notice as it stands.
fn notice(state: &AppState, account: i64) -> Notice {
    let now = now_ms();
    let mut your_turn: Vec<Waiting> = state
        .accounts
        .seats_of(account)
        .into_iter()
        .filter_map(|(game, color)| {
            let entry = state.games.get(&game).ok()?;
            // A hot-seat game of the account's own waits for no one.
            let other = state.accounts.seat_holder(&game, color.opponent());
            if other == Some(account) {
                return None;
            }
            let (turn_number, deadline_ms, paused) = entry.with_live(|live| {
                let pos = live.game.position();
                let mine = !pos.is_over() && pos.side_to_move() == color;
                let control = entry.meta.clock.as_ref();
                let paused = live.is_paused(control, now);
                mine.then(|| {
                    (
                        live.game.turns().len(),
                        live.deadline(control).filter(|_| !paused).map(|(_, d)| d),
                        paused,
                    )
                })
            })?;
            // The accounts are looked at without the game's lock.
            Some(Waiting {
                board: crate::view::board_name(&entry.meta.geometry),
                opponent: who(state, &entry, color.opponent()),
                turn_number,
                id: game,
                deadline_ms,
                correspondence: matches!(
                    entry.meta.clock,
                    Some(crate::clock::TimeControl::Correspondence { .. })
                ),
                paused,
            })
        })
        .collect();
    your_turn.sort_by_key(|w| w.deadline_ms.unwrap_or(i64::MAX));
    let challenges = state
        .lobby
        .shown_to(Some(account), now)
        .iter()
        .filter(|c| c.opponent == Some(account) && c.is_open(now))
        .count();
    Notice {
        your_turn,
        challenges,
    }
}

/// How often an account's stream looks whether its notice changed.
const NOTICE_POLL: std::time::Duration = std::time::Duration::from_secs(2);

/// `GET /api/account/events`: the account's notice (`event: notice`, JSON
/// `{"your_turn": [{"id", "board", "opponent", "turn_number",
/// "deadline_ms", "correspondence", "paused"}], "challenges"}`) at once
/// and whenever it changes (looked at every two seconds); 401 when not
/// signed in.
pub(crate) async fn events(
    State(state): State<AppState>,
    signed_in: SignedIn,
) -> Result<Response, ApiError> {
    use axum::response::sse::{Event, KeepAlive, Sse};
    let account = signed_in.account.id;
    let shutdown = state.shutdown.clone();
    // Counts the stream as open (`sygo_live_streams`) until it is dropped.
    let open = state.metrics.stream_opened(Stream::Account);
    let stream = futures_util::stream::unfold(
        (state.clone(), shutdown, None::<String>, open),
        move |(state, mut shutdown, last, open)| async move {
            loop {
                if *shutdown.borrow() {
                    return None;
                }
                let json = serde_json::to_string(&notice(&state, account)).unwrap_or_default();
                if last.as_deref() != Some(json.as_str()) {
                    let event: Result<Event, std::convert::Infallible> =
                        Ok(Event::default().event("notice").data(&json));
                    return Some((event, (state, shutdown, Some(json), open)));
                }
                tokio::select! {
                    () = tokio::time::sleep(NOTICE_POLL) => {}
                    _ = shutdown.changed() => return None,
                }
            }
        },
    );
    let keep_alive = KeepAlive::new()
        .interval(state.keep_alive)
        .text("keep-alive");
    Ok(Sse::new(stream).keep_alive(keep_alive).into_response())
}
