//! The session cookie (docs/web.md, "Accounts"): `sygo_session`, a random
//! secret whose SHA-256 hash the database keeps; made at sign-up and
//! sign-in, read by the [`SignedIn`] and [`MaybeSignedIn`] extractors.

use axum::extract::FromRequestParts;
use axum::http::header::{COOKIE as COOKIE_HEADER, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use cookie::{Cookie, SameSite};

use crate::accounts::{Account, SESSION_MS};
use crate::db::{SessionRow, WriteError};
use crate::error::ApiError;
use crate::secret;
use crate::state::AppState;
use crate::time::now_ms;

/// The cookie's name.
pub(crate) const COOKIE: &str = "sygo_session";

/// Whether cookies get `Secure`: the server is told it is served over TLS
/// (`--secure-cookies`), or a trusted proxy says the request came so.
pub(crate) fn secure(state: &AppState, headers: &HeaderMap) -> bool {
    state.web.secure_cookies
        || (state.web.trust_proxy
            && headers
                .get("x-forwarded-proto")
                .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"https")))
}

/// A `Set-Cookie` header value for the session cookie.
fn set_cookie(value: &str, max_age_secs: i64, secure: bool) -> HeaderValue {
    let cookie = Cookie::build((COOKIE, value))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .secure(secure)
        .max_age(cookie::time::Duration::seconds(max_age_secs))
        .build();
    // A cookie of hexadecimal digits and fixed attributes is a valid header.
    HeaderValue::from_str(&cookie.to_string()).unwrap_or(HeaderValue::from_static(""))
}

/// The `Set-Cookie` header that clears the session's cookie.
pub(crate) fn cleared(secure: bool) -> (axum::http::HeaderName, HeaderValue) {
    (SET_COOKIE, set_cookie("", 0, secure))
}

/// The session's secret in the request's cookies, if any.
pub(crate) fn secret_of(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE_HEADER)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == COOKIE)
        .map(|c| c.value().to_string())
}

/// Starts a session of `account_id` (committed before the cookie is
/// given): the `Set-Cookie` header to answer with.
pub(crate) async fn start(
    state: &AppState,
    account_id: i64,
    secure: bool,
) -> Result<(axum::http::HeaderName, HeaderValue), ApiError> {
    let secret = secret::new_token()?;
    let now = now_ms();
    let row = SessionRow {
        secret_hash: secret::digest(&secret),
        account_id,
        created: now,
        expires: now + SESSION_MS,
    };
    match state.db.insert_session(row.clone()).await {
        Ok(()) => {}
        Err(WriteError::Duplicate | WriteError::Failed(_)) => {
            return Err(ApiError::Internal("storing a session failed".to_string()));
        }
    }
    state.accounts.add_session(&row);
    Ok((SET_COOKIE, set_cookie(&secret, SESSION_MS / 1000, secure)))
}

/// Moves the expiry of a session in use on by [`SESSION_MS`] once less than
/// half of it is left (so an active player stays signed in, with one write
/// a fortnight): the `Set-Cookie` header that carries it, if it moved.
pub(crate) async fn renew(
    state: &AppState,
    headers: &HeaderMap,
    signed_in: &SignedIn,
) -> Result<Option<(axum::http::HeaderName, HeaderValue)>, ApiError> {
    let now = now_ms();
    let Some(expires) = state.accounts.expires(&signed_in.session) else {
        return Ok(None);
    };
    let Some(secret) = secret_of(headers) else {
        return Ok(None);
    };
    if expires - now > SESSION_MS / 2 {
        return Ok(None);
    }
    let expires = now + SESSION_MS;
    state
        .db
        .renew_session(signed_in.session.clone(), expires)
        .await
        .map_err(|e| ApiError::Internal(format!("renewing a session: {e:?}")))?;
    state.accounts.renew_session(&signed_in.session, expires);
    Ok(Some((
        SET_COOKIE,
        set_cookie(&secret, SESSION_MS / 1000, secure(state, headers)),
    )))
}

/// The account signed in by the request's cookie (401 without one).
pub(crate) struct SignedIn {
    pub account: Account,
    /// The hash of the session's secret.
    pub session: String,
}

/// The account signed in by the request's cookie, if any.
pub(crate) struct MaybeSignedIn(pub Option<SignedIn>);

impl FromRequestParts<AppState> for MaybeSignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Some(secret) = secret_of(&parts.headers) else {
            return Ok(MaybeSignedIn(None));
        };
        let session = secret::digest(&secret);
        let mut account = state.accounts.signed_in(&session, now_ms());
        // A session another server on the database just started (its
        // notice on the way) or renewed: its account is read again.
        if account.is_none()
            && state.db.is_shared()
            && let Ok(Some((id, expires))) = state.db.session(&session).await
            && expires > now_ms()
        {
            crate::follow::read_accounts_of(state, vec![id]).await;
            account = state.accounts.signed_in(&session, now_ms());
        }
        Ok(MaybeSignedIn(
            account.map(|account| SignedIn { account, session }),
        ))
    }
}

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        MaybeSignedIn::from_request_parts(parts, state)
            .await?
            .0
            .ok_or_else(|| ApiError::Unauthorized("sign in first".to_string()))
    }
}
