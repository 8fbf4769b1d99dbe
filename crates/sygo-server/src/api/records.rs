//! `GET /api/games/{id}/record` (download the record) and
//! `POST /api/records` (upload a record to review it).

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, Request, State};
use axum::http::StatusCode;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sygo_records::{GameInfo, Record};

use crate::api::extract::{body_bytes, media_type};
use crate::api::games::add_game;
use crate::api::{find, json_response};
use crate::client_addr::ClientAddr;
use crate::db::TurnRow;
use crate::error::ApiError;
use crate::game::{Meta, Side, Source};
use crate::games::Entry;
use crate::review_record::with_review;
use crate::review_store::hashes as review_hashes;
use crate::state::AppState;
use crate::time::date;
use crate::uploaded::{MAX_UPLOAD_NODES, Uploaded};

/// The query of `GET /api/games/{id}/record`.
#[derive(Deserialize)]
pub(crate) struct RecordQuery {
    /// `1`: with the AI's review in it; `0` (the default): without.
    analysis: Option<String>,
}

/// `GET /api/games/{id}/record[?analysis=1]`: the record as SGF
/// (`docs/records.md`), an uploaded one as it was uploaded; with
/// `analysis=1`, with the AI's review of every reviewed position in it
/// (`crate::review_record`).
pub(crate) async fn download(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<RecordQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let entry = find(&state, &id).await?;
    let Query(query) = query.map_err(|e| {
        ApiError::BadRequest(format!("the query is not ?analysis=1: {}", e.body_text()))
    })?;
    let analysis = match query.analysis.as_deref() {
        None | Some("0") => false,
        Some("1") => true,
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "analysis={other:?}: 1 for the record with the AI's review, 0 without"
            )));
        }
    };
    let meta = &entry.meta;
    let (game, timed_out, aborted) =
        entry.with_live(|live| (live.game.clone(), live.timed_out, live.aborted));
    let record = || -> Result<Record, ApiError> {
        match &meta.record {
            Some(text) => {
                Record::parse(text).map_err(|e| ApiError::Internal(format!("a stored record: {e}")))
            }
            None => {
                let info = GameInfo {
                    black: Some(meta.black.record_name()),
                    white: Some(meta.white.record_name()),
                    date: Some(date(meta.created)),
                    result: None,
                    komi: meta.komi,
                };
                let record = Record::from_game(&game, info);
                // Lost on time (`B+T`) or aborted (`Void`, no result), where
                // the rules see a resignation.
                let result = match (timed_out, aborted) {
                    (_, true) => "Void".to_string(),
                    (Some(loser), _) => format!("{}+T", loser.opponent().letter()),
                    (None, false) => return Ok(record),
                };
                let (mut info, start, tree) = record.into_parts();
                info.result = Some(result);
                Record::new(info, start, tree).map_err(|e| {
                    ApiError::Internal(format!("a record lost on time or aborted: {e}"))
                })
            }
        }
    };
    let (text, name) = if analysis {
        let positions = state.reviews.positions(&meta.id, &review_hashes(&game));
        let record = with_review(record()?, game.turns().len(), &positions)
            .map_err(|e| ApiError::Internal(format!("a record with its review: {e}")))?;
        (record.to_sgf(), format!("sygo-{}-review.sgf", meta.id))
    } else {
        let text = match &meta.record {
            Some(text) => text.clone(),
            None => record()?.to_sgf(),
        };
        (text, format!("sygo-{}.sgf", meta.id))
    };
    let disposition = format!("attachment; filename=\"{name}\"");
    Ok((
        [
            (
                CONTENT_TYPE,
                "application/x-go-sgf; charset=utf-8".to_string(),
            ),
            (CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

#[derive(Serialize)]
struct UploadAnswer<'a> {
    game: &'a RawValue,
}

/// `POST /api/records`: the SGF text as the body (`application/x-go-sgf` or
/// `text/plain`); 201 with the game, stored for review (no tokens).
pub(crate) async fn upload(
    State(state): State<AppState>,
    addr: ClientAddr,
    request: Request,
) -> Result<Response, ApiError> {
    state.limits.upload(addr.0)?;
    match media_type(request.headers()).as_deref() {
        Some("application/x-go-sgf" | "text/plain") => {}
        _ => {
            return Err(ApiError::UnsupportedMediaType(
                "send the record as its text, with Content-Type: application/x-go-sgf \
                 (or text/plain)"
                    .to_string(),
            ));
        }
    }
    let bytes = body_bytes(request, &state).await?;
    let text = String::from_utf8(Vec::from(bytes))
        .map_err(|_| ApiError::BadRecord("the record is not UTF-8 text".to_string()))?;
    let (text, uploaded) = read(&state, text).await?;
    let record = &uploaded.record;
    let game = record.main_line();
    let info = record.info();
    let komi = if info.komi.is_finite() {
        info.komi
    } else {
        0.0
    };
    let geometry = game.position().geometry();
    let created = state.games.next_created();
    let (black, white) = (info.black.clone(), info.white.clone());
    let entry = add_game(
        &state,
        |id| {
            let meta = Meta {
                rematch_of: None,
                rated: None,
                clock: None,
                id,
                geometry,
                komi,
                black: Side::Human {
                    name: black.clone(),
                },
                white: Side::Human {
                    name: white.clone(),
                },
                token_digests: [None, None],
                source: Source::Uploaded,
                created,
                record: Some(text.clone()),
                request_id: None,
            };
            Entry::new(meta, game.clone(), created)
        },
        |entry: &Entry| {
            entry.with_live(|live| {
                live.game
                    .turns_with_colors()
                    .enumerate()
                    .map(|(i, (color, t))| TurnRow {
                        clock: None,
                        undos: 0,
                        game_id: entry.meta.id.clone(),
                        number: u32::try_from(i + 1).unwrap_or(u32::MAX),
                        turn: t.to_notation(&geometry),
                        played: created,
                        color: Some(color.lowercase().to_string()),
                    })
                    .collect()
            })
        },
    )
    .await?;
    entry.keep_uploaded(uploaded);
    let game =
        RawValue::from_string(entry.json(None)).map_err(|e| ApiError::Internal(e.to_string()))?;
    let json = serde_json::to_string(&UploadAnswer { game: &game })
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(json_response(StatusCode::CREATED, json))
}

/// Reads an upload's text into its record, on a blocking thread (at most
/// [`READERS`](crate::uploaded::READERS) at once: one more is refused at
/// once with 503 `busy`), refusing more than
/// [`MAX_UPLOAD_NODES`](crate::uploaded::MAX_UPLOAD_NODES) nodes before
/// reading them.
async fn read(state: &AppState, text: String) -> Result<(String, Arc<Uploaded>), ApiError> {
    let permit = state
        .readers
        .clone()
        .try_acquire_owned()
        .map_err(|_| ApiError::Busy {
            message: "the server is reading other records: try again in a second".to_string(),
            retry_after: 1,
        })?;
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let record = Record::parse_at_most(&text, MAX_UPLOAD_NODES)
            .map_err(|e| ApiError::BadRecord(e.to_string()))?;
        Ok((text, Arc::new(Uploaded::of(record))))
    })
    .await
    .map_err(|e| ApiError::Internal(format!("reading a record: {e}")))?
}
