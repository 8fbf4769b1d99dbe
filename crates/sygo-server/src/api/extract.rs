//! Request bodies and tokens: JSON bodies checked for their type, size and
//! shape, the bearer token of a side (a game's own, or one derived from the
//! session of the account that holds the side: `secret.rs`).

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use serde::de::DeserializeOwned;

use crate::config::READ_TIMEOUT;
use crate::error::ApiError;
use crate::games::Entry;
use crate::state::AppState;
use crate::time::now_ms;
use crate::{secret, session};
use sygo_rules::Color;

/// A JSON body of type `T`: `Content-Type: application/json` (415
/// otherwise), at most the body limit (413), and valid for `T` (400 with
/// serde's words).
pub(crate) struct JsonBody<T>(pub T);

/// A JSON body that may be left out (empty): then `T::default()`.
pub(crate) struct OptionalJsonBody<T>(pub T);

/// The media type of a request (`application/json`), lower case, without
/// parameters.
pub(crate) fn media_type(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(CONTENT_TYPE)?.to_str().ok()?;
    let essence = value.split(';').next().unwrap_or("").trim();
    Some(essence.to_ascii_lowercase())
}

fn is_json(headers: &HeaderMap) -> bool {
    media_type(headers).is_some_and(|m| m == "application/json" || m.ends_with("+json"))
}

/// The whole body, within the limit.
pub(crate) async fn body_bytes<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, ApiError> {
    let read = tokio::time::timeout(READ_TIMEOUT, Bytes::from_request(req, state));
    let Ok(read) = read.await else {
        return Err(ApiError::Timeout(format!(
            "the body did not come within {} s",
            READ_TIMEOUT.as_secs()
        )));
    };
    read.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge
        } else {
            ApiError::BadRequest(format!(
                "the body could not be read: {}",
                rejection.body_text()
            ))
        }
    })
}

fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes)
        .map_err(|e| ApiError::BadRequest(format!("the body is not what this path takes: {e}")))
}

fn not_json() -> ApiError {
    ApiError::UnsupportedMediaType(
        "send the body as JSON, with Content-Type: application/json".to_string(),
    )
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        if !is_json(req.headers()) {
            return Err(not_json());
        }
        let bytes = body_bytes(req, state).await?;
        Ok(JsonBody(parse(&bytes)?))
    }
}

impl<S: Send + Sync, T: DeserializeOwned + Default> FromRequest<S> for OptionalJsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let json = is_json(req.headers());
        let has_type = req.headers().contains_key(CONTENT_TYPE);
        let bytes = body_bytes(req, state).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) && (json || !has_type) {
            return Ok(OptionalJsonBody(T::default()));
        }
        if !json {
            return Err(not_json());
        }
        Ok(OptionalJsonBody(parse(&bytes)?))
    }
}

/// The side of `entry` whose token `Authorization: Bearer TOKEN` carries
/// (401 without a token, or with a token of neither side).
pub(crate) fn side_of(
    state: &AppState,
    entry: &Entry,
    headers: &HeaderMap,
) -> Result<Color, ApiError> {
    let token = bearer(headers)?;
    color_of(state, entry, token, headers).ok_or_else(|| {
        ApiError::Unauthorized("this token is not one of this game's sides".to_string())
    })
}

/// The side of `entry` whose token this is: one of the game's own (its
/// digest kept), or the token of a side that the account signed in by the
/// request's cookie holds, derived from that session's secret
/// ([`secret::seat_token`]).
pub(crate) fn color_of(
    state: &AppState,
    entry: &Entry,
    token: &str,
    headers: &HeaderMap,
) -> Option<Color> {
    if let Some(color) = entry.meta.color_of_token(token) {
        return Some(color);
    }
    let session = session::secret_of(headers)?;
    let account = state
        .accounts
        .signed_in(&secret::digest(&session), now_ms())?;
    held_color(state, entry, token, &session, account.id)
}

/// The side of `entry` that `account` holds and whose token for the
/// session of this secret is `token`.
pub(crate) fn held_color(
    state: &AppState,
    entry: &Entry,
    token: &str,
    session: &str,
    account: i64,
) -> Option<Color> {
    let id = &entry.meta.id;
    [Color::Black, Color::White].into_iter().find(|&color| {
        state.accounts.seat_holder(id, color) == Some(account)
            && secret::tokens_match(token, &secret::seat_token(session, id, color.lowercase()))
    })
}

/// The token of the request's `Authorization: Bearer TOKEN`, if any.
pub(crate) fn presented_token(headers: &HeaderMap) -> Option<&str> {
    bearer(headers).ok()
}

/// The token of `Authorization: Bearer TOKEN` (401 without one).
fn bearer(headers: &HeaderMap) -> Result<&str, ApiError> {
    let missing = || {
        ApiError::Unauthorized(
            "this needs the token of a side: Authorization: Bearer TOKEN".to_string(),
        )
    };
    let value = headers
        .get(AUTHORIZATION)
        .ok_or_else(missing)?
        .to_str()
        .map_err(|_| missing())?;
    let (scheme, token) = value.trim().split_once(' ').ok_or_else(missing)?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return Err(missing());
    }
    Ok(token)
}
