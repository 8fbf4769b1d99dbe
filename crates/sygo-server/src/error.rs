//! Errors as the API answers them: one [`ApiError`] per row of the table in
//! `docs/web.md`, each a status and `{"error": {"code", "message"}}` with one
//! sentence a player understands (and, for conditional turns the rules
//! refuse, the line at fault as data: [`PlanError`]). Every handler returns
//! it, and an error always means that nothing changed.

use std::fmt;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Why a request was refused (or failed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// 400: malformed JSON, a missing or wrong-typed field, a bad coordinate,
    /// a bad size, a value out of range.
    BadRequest(String),
    /// 401: no token, or a token that is not one of this game's sides.
    Unauthorized(String),
    /// 403: the token is the side that is not to move.
    NotYourTurn(String),
    /// 403: what is asked is not offered in this game (undo between two
    /// people on their own pages).
    NotOffered(String),
    /// 403: the account is disabled by the server's host.
    Disabled(String),
    /// 403: a request that changes something, sent from another site (the
    /// browser's `Origin` or `Sec-Fetch-Site` says so).
    CrossSite(String),
    /// 404: unknown game or path.
    NotFound(String),
    /// 405: a path that exists, with another method.
    MethodNotAllowed,
    /// 409: the turn number sent is not the game's, the game is over, or the
    /// AI is already searching this game.
    Conflict(String),
    /// 409: a vacation asked for with none of the allowance left.
    NoVacationLeft(String),
    /// 408: a body that did not come in time (`config::READ_TIMEOUT`).
    Timeout(String),
    /// 413: a body over the limit.
    TooLarge,
    /// 415: a body that is not of the type expected.
    UnsupportedMediaType(String),
    /// 429: over a rate limit; try again after this many seconds.
    RateLimited {
        /// The sentence for the player.
        message: String,
        /// Seconds until a request is accepted again (`Retry-After`).
        retry_after: u64,
    },
    /// 422: a turn or step the rules refuse, with the rules' reason.
    Illegal(String),
    /// 422 `illegal`: conditional turns the rules refuse, with the line at
    /// fault and the rules' reason as data besides the message.
    IllegalPlan(Box<PlanError>),
    /// 422: an uploaded record that cannot be read, with where and why.
    BadRecord(String),
    /// 503: the server is shutting down.
    Unavailable,
    /// 503 `busy`: the work asked for waits on others (records being read);
    /// try again after this many seconds.
    Busy {
        /// The sentence for the player.
        message: String,
        /// Seconds to wait (`Retry-After`).
        retry_after: u64,
    },
    /// 500: something failed on the server's side (the database); the
    /// details go to the server's log, not to the player.
    Internal(String),
}

impl ApiError {
    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::NotYourTurn(_)
            | ApiError::NotOffered(_)
            | ApiError::Disabled(_)
            | ApiError::CrossSite(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) | ApiError::NoVacationLeft(_) => StatusCode::CONFLICT,
            ApiError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Illegal(_) | ApiError::IllegalPlan(_) | ApiError::BadRecord(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ApiError::Unavailable | ApiError::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The machine-readable code of the JSON answer.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::NotYourTurn(_) => "not_your_turn",
            ApiError::NotOffered(_) => "not_offered",
            ApiError::Disabled(_) => "disabled",
            ApiError::CrossSite(_) => "cross_site",
            ApiError::NotFound(_) => "not_found",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::Conflict(_) => "conflict",
            ApiError::NoVacationLeft(_) => "no_vacation_left",
            ApiError::Timeout(_) => "timeout",
            ApiError::TooLarge => "too_large",
            ApiError::UnsupportedMediaType(_) => "unsupported_media_type",
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::Illegal(_) | ApiError::IllegalPlan(_) => "illegal",
            ApiError::BadRecord(_) => "bad_record",
            ApiError::Unavailable => "unavailable",
            ApiError::Busy { .. } => "busy",
            ApiError::Internal(_) => "internal",
        }
    }

    /// The sentence for the player.
    pub fn message(&self) -> String {
        match self {
            ApiError::BadRequest(m)
            | ApiError::Unauthorized(m)
            | ApiError::NotYourTurn(m)
            | ApiError::NotOffered(m)
            | ApiError::Disabled(m)
            | ApiError::CrossSite(m)
            | ApiError::RateLimited { message: m, .. }
            | ApiError::Busy { message: m, .. }
            | ApiError::NotFound(m)
            | ApiError::Conflict(m)
            | ApiError::NoVacationLeft(m)
            | ApiError::UnsupportedMediaType(m)
            | ApiError::Timeout(m)
            | ApiError::Illegal(m)
            | ApiError::BadRecord(m) => m.clone(),
            ApiError::IllegalPlan(plan) => plan.to_string(),
            ApiError::MethodNotAllowed => "this path does not take that method".to_string(),
            ApiError::TooLarge => format!(
                "the body is larger than {} KiB",
                crate::config::BODY_LIMIT / 1024
            ),
            ApiError::Unavailable => "the server is shutting down: try again soon".to_string(),
            ApiError::Internal(_) => {
                "the server could not do that (its log says why): try again".to_string()
            }
        }
    }

    /// The JSON answer: `{"error": {"code", "message"}}`, with the fields
    /// of a [`PlanError`] beside them for one. The one place an error is
    /// written.
    pub fn body(&self) -> serde_json::Value {
        let mut error = json!({"code": self.code(), "message": self.message()});
        if let (ApiError::IllegalPlan(plan), Some(fields)) = (self, error.as_object_mut()) {
            fields.insert("line".to_string(), json!(plan.line));
            fields.insert("branch".to_string(), json!(plan.branch));
            fields.insert("field".to_string(), json!(plan.field.map(PlanField::name)));
            fields.insert("reason".to_string(), json!(plan.reason));
        }
        json!({ "error": error })
    }

    /// 404 for a game id that names no game.
    pub(crate) fn no_game(id: &str) -> ApiError {
        ApiError::NotFound(format!("there is no game {id:?}"))
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status().as_u16(),
            self.code(),
            self.message()
        )
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(detail) = &self {
            tracing::error!(detail = %detail, "internal error");
        }
        let mut response = (self.status(), Json(self.body())).into_response();
        if let ApiError::RateLimited { retry_after, .. } | ApiError::Busy { retry_after, .. } = self
        {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, retry_after.into());
        }
        response
    }
}

/// Which of a conditional branch's two turns is at fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanField {
    /// The opponent's turn (`if`).
    If,
    /// The answer (`then`).
    Then,
}

impl PlanField {
    /// `if` or `then`, as the branch names it.
    pub fn name(self) -> &'static str {
        match self {
            PlanField::If => "if",
            PlanField::Then => "then",
        }
    }
}

/// Conditional turns the rules refuse (`docs/web.md`, "Conditional
/// turns"): which branch, and why. Written as the message
/// (`"if B2 then D4: your answer: D4 is already occupied"`) and as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanError {
    /// The turns from the root to the branch at fault, as sent: each
    /// branch's `if` and `then` on the way, the branch's own last
    /// (`["B2", "C2", "E5", "F6"]`).
    pub line: Vec<String>,
    /// The branch at fault by its index at each level of the tree, from 0
    /// (`[0, 1]`: the second follow-up of the first branch).
    pub branch: Vec<usize>,
    /// The turn at fault, if it is one of the two.
    pub field: Option<PlanField>,
    /// The rules' reason (or the limit broken), alone.
    pub reason: String,
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, pair) in self.line.chunks(2).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            let when = pair.first().map_or("", String::as_str);
            let then = pair.get(1).map_or("", String::as_str);
            write!(f, "if {when} then {then}")?;
        }
        match self.field {
            Some(PlanField::If) => write!(f, ": their turn: {}", self.reason),
            Some(PlanField::Then) => write!(f, ": your answer: {}", self.reason),
            None => write!(f, ": {}", self.reason),
        }
    }
}

/// Why the server could not start or stopped with an error.
#[derive(Debug)]
pub struct ServerError(pub(crate) String);

impl std::fmt::Display for ServerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ServerError {}

/// A game of the database that cannot be read back (a database written by
/// another program, or by a newer version of this one): it is skipped with
/// this message at start, and the others are served.
#[derive(Debug)]
pub struct StoredGameError {
    /// The game's id.
    pub game: String,
    /// What is wrong with it.
    pub problem: StoredGameProblem,
}

/// What is wrong with a stored game.
#[derive(Debug)]
pub enum StoredGameProblem {
    /// A variant this version does not know.
    Variant(String),
    /// A board size off the rules.
    Board(sygo_rules::GeometryError),
    /// A start position that does not read.
    Start(sygo_rules::ParsePositionError),
    /// A start position on another board than the game's.
    StartOffBoard,
    /// A side that does not read.
    Side(serde_json::Error),
    /// A source this version does not know.
    Source(String),
    /// A time control that does not read.
    Clock(serde_json::Error),
}

impl fmt::Display for StoredGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}: ", self.game)?;
        match &self.problem {
            StoredGameProblem::Variant(v) => write!(f, "unknown variant {v:?}"),
            StoredGameProblem::Board(e) => write!(f, "{e}"),
            StoredGameProblem::Start(e) => write!(f, "its start: {e}"),
            StoredGameProblem::StartOffBoard => write!(f, "its start is not on its board"),
            StoredGameProblem::Side(e) => write!(f, "a side: {e}"),
            StoredGameProblem::Source(s) => write!(f, "unknown source {s:?}"),
            StoredGameProblem::Clock(e) => write!(f, "its time control: {e}"),
        }
    }
}

impl std::error::Error for StoredGameError {}
