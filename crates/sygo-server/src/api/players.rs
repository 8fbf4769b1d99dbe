//! `GET /api/players/{name}`: a player's profile — the account's name, when
//! it was made, its games (the sides it holds) with their opponents, and its
//! record against the AI.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Serialize;

use crate::api::accounts::holder_of;
use crate::api::json_response;
use crate::error::ApiError;
use crate::game::{Side, Source};
use crate::ratings::{HistoryPoint, RatingView};
use crate::state::AppState;
use crate::time::rfc3339;
use crate::view::{self, ListItem};

/// Who a player's opponent in a game is.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Opponent {
    /// Another account.
    Account { name: String },
    /// The AI at a level.
    Ai { level: u8 },
    /// The same account (a hot-seat game).
    #[serde(rename = "self")]
    Myself,
    /// A person without an account (or who has not claimed the side).
    Guest,
}

#[derive(Serialize)]
struct PlayerGame<'a> {
    #[serde(flatten)]
    game: ListItem<'a>,
    color: &'static str,
    opponent: Opponent,
}

#[derive(Serialize, Default)]
struct Record {
    won: u32,
    lost: u32,
    drawn: u32,
    playing: u32,
}

/// A player's rating in a family, with its history for the graph.
#[derive(Serialize)]
struct FamilyRating {
    #[serde(flatten)]
    rating: RatingView,
    history: Vec<HistoryPoint>,
}

#[derive(Serialize)]
struct Profile<'a> {
    name: &'a str,
    created: String,
    games: Vec<PlayerGame<'a>>,
    against_ai: Record,
    /// By family: `sygo`, `hexsygo`.
    ratings: std::collections::BTreeMap<&'static str, FamilyRating>,
    /// Whether the player is on vacation (its correspondence clocks
    /// stopped).
    on_vacation: bool,
}

/// `GET /api/players/{name}`: the profile; 404 for no such account, or a
/// disabled one.
pub(crate) async fn profile(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let account = state
        .accounts
        .by_name(&name)
        .filter(|a| !a.disabled)
        .ok_or_else(|| ApiError::NotFound(format!("there is no player named {name}")))?;
    let mut entries: Vec<_> = state
        .accounts
        .seats_of(account.id)
        .into_iter()
        .filter_map(|(game, color)| state.games.get(&game).ok().map(|e| (e, color)))
        .filter(|(e, _)| e.meta.source == Source::Played)
        .collect();
    entries.sort_by(|(a, ca), (b, cb)| {
        (b.meta.created, &b.meta.id, cb.index()).cmp(&(a.meta.created, &a.meta.id, ca.index()))
    });
    // A hot-seat game of the account's own is listed once, as Black.
    entries.dedup_by(|(b, _), (a, _)| a.meta.id == b.meta.id);
    let mut against_ai = Record::default();
    let mut games = Vec::new();
    for (entry, color) in &entries {
        let other = color.opponent();
        let opponent = match (
            holder_of(&state, &entry.meta.id, other),
            entry.meta.side(other),
        ) {
            (Some(a), _) if a.id == account.id => Opponent::Myself,
            (Some(a), _) => Opponent::Account { name: a.name },
            (None, Side::Ai { level, .. }) => Opponent::Ai { level: *level },
            (None, Side::Human { .. }) => Opponent::Guest,
        };
        let item = entry.with_live(|live| {
            if matches!(opponent, Opponent::Ai { .. }) && !live.aborted {
                let pos = live.game.position();
                match view::winner(pos, entry.meta.komi) {
                    None => against_ai.playing += 1,
                    Some(None) => against_ai.drawn += 1,
                    Some(Some(w)) if w == *color => against_ai.won += 1,
                    Some(Some(_)) => against_ai.lost += 1,
                }
            }
            view::list_item(&entry.meta, live, false)
        });
        games.push(PlayerGame {
            game: item,
            color: color.lowercase(),
            opponent,
        });
    }
    let ratings = ["sygo", "hexsygo"]
        .into_iter()
        .map(|family| {
            (
                family,
                FamilyRating {
                    rating: state.ratings.get(account.id, family).view(),
                    history: state.ratings.history(account.id, family),
                },
            )
        })
        .collect();
    let body = Profile {
        name: &account.name,
        created: rfc3339(account.created),
        games,
        against_ai,
        ratings,
        on_vacation: account.vacation_since.is_some(),
    };
    let json = serde_json::to_string(&body).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(json_response(StatusCode::OK, json))
}
