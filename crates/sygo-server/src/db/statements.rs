//! Every statement of the server, written once in the SQL both stores
//! take: the writes ([`apply`]) and the reads at start ([`load`],
//! [`load_accounts`]). Where SQLite wrote `INSERT OR REPLACE`, both take
//! `INSERT … ON CONFLICT … DO UPDATE`.

use std::collections::HashMap;

use super::sql::{Row, Sql, SqlError, Value, vals};
use super::{
    AccountRow, AiJob, ChallengeRow, ChatRow, GameRow, JobKind, OfferKind, OfferRow, PositionRow,
    ReviewJob, SeatRow, SessionRow, StoredAccounts, StoredGame, StoredReview, StoredTurn, TurnRow,
    UndoDeclinedRow, VacationRow, Write, WriteError,
};
use crate::ratings::RatingChange;

impl From<SqlError> for WriteError {
    fn from(e: SqlError) -> WriteError {
        match e {
            SqlError::Duplicate(_) => WriteError::Duplicate,
            SqlError::Failed(why) => WriteError::Failed(why),
        }
    }
}

/// Commits the writes in one transaction; the result of each (all failed
/// if the commit fails). The writes are applied as they come, one
/// statement after another, but the turns of each run of turn writes by
/// one statement ([`apply_all`]): on PostgreSQL every statement is a round
/// trip to the database's process, and a batch's round trips must not grow
/// with the batch (under load each waits for a core, and the batches, and
/// the turns' answer times, grew without end). A turn refused (its number
/// stored already, or played before an undo) refuses only its write. If a
/// statement fails otherwise, the transaction is rolled back and the batch
/// applied again with each write in its own savepoint, so that the
pub(super) fn commit(
    conn: &mut dyn Sql,
    writes: &[&Write],
    announce: Option<&str>,
) -> Vec<Result<(), WriteError>> {
    let n = writes.len();
    let failed = |e: SqlError| vec![Err(WriteError::Failed(e.to_string())); n];
    if let Err(e) = conn.run("BEGIN") {
        return failed(e);
    }
    let results = if let Ok(results) = apply_all(conn, writes) {
        results
    } else {
        if let Err(e) = conn.run("ROLLBACK").and_then(|()| conn.run("BEGIN")) {
            return failed(e);
        }
        writes
            .iter()
            .map(|write| apply_in_savepoint(conn, write))
            .collect()
    };
    let told = match announce {
        Some(from) => {
            let committed: Vec<&Write> = writes
                .iter()
                .zip(&results)
                .filter(|(_, r)| r.is_ok())
                .map(|(w, _)| *w)
                .collect();
            super::notice::payloads(from, &committed)
                .iter()
                .try_for_each(|payload| {
                    conn.execute(
                        &format!("SELECT pg_notify('{}', ?1)", super::notice::CHANNEL),
                        vals![payload],
                    )
                    .map(drop)
                })
        }
        None => Ok(()),
    };
    match told.and_then(|()| conn.run("COMMIT")) {
        Ok(()) => results,
        Err(e) => {
            let _ = conn.run("ROLLBACK");
            failed(e)
        }
    }
}

/// One write in a savepoint: all of it or nothing.
fn apply_in_savepoint(conn: &mut dyn Sql, write: &Write) -> Result<(), WriteError> {
    conn.run("SAVEPOINT write")?;
    match apply(conn, write) {
        Ok(()) => Ok(conn.run("RELEASE write")?),
        Err(e) => {
            // Undone, and the savepoint let go of.
            let _ = conn.run("ROLLBACK TO write");
            let _ = conn.run("RELEASE write");
            Err(e)
        }
    }
}

/// The writes in order, in the transaction [`commit`] opened; the result
/// of each. The turns of each run of turn writes (none twice, so that the
/// run's turns are stored as they would be one after another) are stored
/// by one statement where the store has one
/// ([`Sql::insert_turns_at_once`]), else a statement each; then the rest of
/// each stored turn's write. A refused turn refuses its write and leaves the
/// transaction whole; any other failure is returned (the transaction must
/// then be rolled back).
fn apply_all(
    conn: &mut dyn Sql,
    writes: &[&Write],
) -> Result<Vec<Result<(), WriteError>>, WriteError> {
    let mut results = Vec::with_capacity(writes.len());
    let mut rest = writes;
    while let Some((first, after)) = rest.split_first() {
        let Write::Turn(..) = first else {
            apply(conn, first)?;
            results.push(Ok(()));
            rest = after;
            continue;
        };
        let mut run: Vec<(&TurnRow, &[RatingChange], &AiJob)> = Vec::new();
        for write in rest {
            let Write::Turn(turn, ratings, job) = write else {
                break;
            };
            if run
                .iter()
                .any(|(t, _, _)| t.game_id == turn.game_id && t.number == turn.number)
            {
                break;
            }
            run.push((turn, ratings, job));
        }
        let turns: Vec<&TurnRow> = run.iter().map(|(turn, _, _)| *turn).collect();
        let stored = match conn.insert_turns_at_once(&turns) {
            Some(stored) => stored?,
            None => turns
                .iter()
                .map(|t| store_turn(conn, t))
                .collect::<Result<_, SqlError>>()?,
        };
        for ((turn, ratings, job), stored) in run.iter().zip(stored) {
            if stored {
                after_turn(conn, turn, ratings, job)?;
                results.push(Ok(()));
            } else {
                results.push(Err(WriteError::Duplicate));
            }
        }
        rest = &rest[run.len()..];
    }
    Ok(results)
}

/// What a turn's write stores besides the turn: its rating changes, and
/// its game's AI job.
fn after_turn(
    conn: &mut dyn Sql,
    turn: &TurnRow,
    ratings: &[RatingChange],
    job: &AiJob,
) -> Result<(), WriteError> {
    for change in ratings {
        insert_rating_change(conn, change)?;
    }
    set_ai_job(conn, &turn.game_id, job)?;
    Ok(())
}

/// A write's statements (in the transaction of [`apply_all`], or in the
/// savepoint [`apply_in_savepoint`] opened).
fn apply(conn: &mut dyn Sql, write: &Write) -> Result<(), WriteError> {
    match write {
        Write::Ping => {
            conn.query("SELECT 1", &[])?;
        }
        Write::Game(game, turns, job) => {
            insert_game(conn, game)?;
            for turn in turns {
                insert_turn(conn, turn)?;
            }
            set_ai_job(conn, &game.id, job)?;
            if let Some(old) = &game.rematch_of {
                // The rematch started: the offers that started it are spent.
                conn.execute(
                    "DELETE FROM offers WHERE game_id = ?1 AND kind = 'rematch'",
                    vals![old],
                )?;
            }
        }
        Write::Turn(turn, ratings, job) => {
            insert_turn(conn, turn)?;
            after_turn(conn, turn, ratings, job)?;
        }
        Write::Chat(c) => {
            conn.execute(
                "INSERT INTO chat (game_id, number, color, text, at) VALUES (?1, ?2, ?3, ?4, ?5)",
                vals![c.game_id, c.number, c.color, c.text, c.at],
            )?;
        }
        Write::UndoDeclined(d) => {
            conn.execute(
                "INSERT INTO undo_declines (game_id, color, turn_number, undos) \
                 VALUES (?1, ?2, ?3, ?4) ON CONFLICT (game_id) DO UPDATE SET \
                 color = excluded.color, turn_number = excluded.turn_number, \
                 undos = excluded.undos",
                vals![d.game_id, d.color, d.turn_number, d.undos],
            )?;
            conn.execute(
                "DELETE FROM offers WHERE game_id = ?1 AND kind = 'undo'",
                vals![d.game_id],
            )?;
        }
        Write::Offer(offer) => insert_offer(conn, offer)?,
        Write::WithdrawOffer {
            game_id,
            kind,
            color,
        } => {
            conn.execute(
                "DELETE FROM offers WHERE game_id = ?1 AND kind = ?2 AND color = ?3",
                vals![game_id, kind.name(), color],
            )?;
        }
        // Told, not stored.
        Write::Presence { .. } => {}
        Write::Conditional {
            game_id,
            color,
            tree,
        } => match tree {
            Some(tree) => {
                conn.execute(
                    "INSERT INTO conditionals (game_id, color, tree) VALUES (?1, ?2, ?3) \
                     ON CONFLICT (game_id, color) DO UPDATE SET tree = excluded.tree",
                    vals![game_id, color, tree],
                )?;
            }
            None => {
                conn.execute(
                    "DELETE FROM conditionals WHERE game_id = ?1 AND color = ?2",
                    vals![game_id, color],
                )?;
            }
        },
        Write::Challenge(c) => {
            conn.execute(
                "INSERT INTO challenges (id, account_id, opponent_id, terms, created, state, \
                 game_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                vals![
                    c.id,
                    c.account_id,
                    c.opponent_id,
                    c.terms,
                    c.created,
                    c.state,
                    c.game_id
                ],
            )?;
        }
        Write::Withdraw { id, .. } => {
            conn.execute(
                "UPDATE challenges SET state = 'withdrawn' WHERE id = ?1",
                vals![id],
            )?;
        }
        Write::Accept {
            game,
            seats,
            challenge,
            ..
        } => {
            insert_game(conn, game)?;
            insert_seats(conn, seats)?;
            let changed = conn.execute(
                "UPDATE challenges SET state = 'accepted', game_id = ?2 \
                 WHERE id = ?1 AND state = 'open'",
                vals![challenge, game.id],
            )?;
            if changed != 1 {
                return Err(WriteError::Duplicate);
            }
        }
        Write::Undo {
            game_id,
            played,
            keep,
            undos,
            job,
        } => {
            // Only from the game as the server saw it: the count of undos
            // before this one, no turn after the `played` it saw (another
            // server sharing the database may have moved on).
            let changed = conn.execute(
                "UPDATE games SET undos = ?2 WHERE id = ?1 AND undos = ?3 \
                 AND NOT EXISTS (SELECT 1 FROM turns WHERE game_id = ?1 AND number > ?4)",
                vals![game_id, undos, undos - 1, played],
            )?;
            if changed != 1 {
                return Err(WriteError::Duplicate);
            }
            conn.execute(
                "DELETE FROM turns WHERE game_id = ?1 AND number > ?2",
                vals![game_id, keep],
            )?;
            set_ai_job(conn, game_id, job)?;
        }
        Write::Review {
            game_id,
            requested,
            pending,
        } => {
            conn.execute(
                "INSERT INTO reviews (game_id, requested, pending) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (game_id) DO UPDATE SET requested = excluded.requested, \
                 pending = excluded.pending",
                vals![game_id, requested, pending],
            )?;
            // The review's job: queued (unless it waits or runs already),
            // or done.
            if *pending {
                conn.execute(
                    "INSERT INTO jobs (kind, game_id, due) VALUES ('review', ?1, ?2) \
                     ON CONFLICT (kind, game_id) DO NOTHING",
                    vals![game_id, requested],
                )?;
            } else {
                conn.execute(
                    "DELETE FROM jobs WHERE kind = 'review' AND game_id = ?1",
                    vals![game_id],
                )?;
            }
        }
        Write::ReviewPosition { game_id, row } => {
            conn.execute(
                "INSERT INTO review_positions (game_id, turn, hash, win_rate, score_lead, best, \
                 visits, ownership) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) \
                 ON CONFLICT (game_id, turn) DO UPDATE SET hash = excluded.hash, \
                 win_rate = excluded.win_rate, score_lead = excluded.score_lead, \
                 best = excluded.best, visits = excluded.visits, ownership = excluded.ownership",
                vals![
                    game_id,
                    row.turn,
                    row.hash,
                    row.win_rate,
                    row.score_lead,
                    row.best,
                    row.visits,
                    row.ownership
                ],
            )?;
        }
        Write::Account(a) => {
            conn.execute(
                "INSERT INTO accounts (id, name, name_key, password_hash, created, disabled) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                vals![
                    a.id,
                    a.name,
                    a.name.to_ascii_lowercase(),
                    a.password_hash,
                    a.created,
                    a.disabled
                ],
            )?;
        }
        Write::Password {
            account_id,
            password_hash,
            keep,
        } => {
            conn.execute(
                "UPDATE accounts SET password_hash = ?2 WHERE id = ?1",
                vals![account_id, password_hash],
            )?;
            conn.execute(
                "DELETE FROM sessions WHERE account_id = ?1 AND secret_hash <> ?2",
                vals![account_id, keep],
            )?;
        }
        Write::Session(row) => {
            conn.execute(
                "INSERT INTO sessions (secret_hash, account_id, created, expires) \
                 VALUES (?1, ?2, ?3, ?4)",
                vals![row.secret_hash, row.account_id, row.created, row.expires],
            )?;
        }
        Write::EndSession { secret_hash, .. } => {
            conn.execute(
                "DELETE FROM sessions WHERE secret_hash = ?1",
                vals![secret_hash],
            )?;
        }
        Write::RenewSession {
            secret_hash,
            expires,
        } => {
            conn.execute(
                "UPDATE sessions SET expires = ?2 WHERE secret_hash = ?1",
                vals![secret_hash, expires],
            )?;
        }
        Write::Seats(seats) => insert_seats(conn, seats)?,
        Write::VacationOn { account_id, since } => {
            conn.execute(
                "UPDATE accounts SET vacation_since = ?2 WHERE id = ?1",
                vals![account_id, since],
            )?;
        }
        Write::VacationOff { vacation, credits } => {
            conn.execute(
                "UPDATE accounts SET vacation_since = NULL WHERE id = ?1",
                vals![vacation.account_id],
            )?;
            conn.execute(
                "INSERT INTO vacations (account_id, started, ended) VALUES (?1, ?2, ?3)",
                vals![vacation.account_id, vacation.started, vacation.ended],
            )?;
            for c in credits {
                conn.execute(
                    "INSERT INTO clock_credits (game_id, turn, credit_ms) VALUES (?1, ?2, ?3) \
                     ON CONFLICT (game_id, turn) DO UPDATE SET credit_ms = excluded.credit_ms",
                    vals![c.game_id, c.turn, c.credit_ms],
                )?;
            }
        }
    }
    Ok(())
}

fn insert_game(conn: &mut dyn Sql, g: &GameRow) -> Result<(), SqlError> {
    conn.execute(
        "INSERT INTO games (id, variant, size, komi, black, white, black_token, \
         white_token, source, start, record, created, request_id, undos, time_control, \
         rated_black, rated_white, rematch_of) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
        vals![
            g.id,
            g.variant,
            g.size,
            g.komi,
            g.black,
            g.white,
            g.black_token,
            g.white_token,
            g.source,
            g.start,
            g.record,
            g.created,
            g.request_id,
            g.undos,
            g.time_control,
            g.rated.map(|r| r[0]),
            g.rated.map(|r| r[1]),
            g.rematch_of
        ],
    )?;
    Ok(())
}

/// The AI's job of a game, as a write leaves it.
fn set_ai_job(conn: &mut dyn Sql, game_id: &str, job: &AiJob) -> Result<(), SqlError> {
    match job {
        AiJob::Unchanged => {}
        AiJob::Done => {
            conn.execute(
                "DELETE FROM jobs WHERE kind = 'ai' AND game_id = ?1",
                vals![game_id],
            )?;
        }
        AiJob::Due { taken } => {
            let (taken_by, until) = match taken {
                Some((by, until)) => (Some(by.as_str()), Some(*until)),
                None => (None, None),
            };
            conn.execute(
                "INSERT INTO jobs (kind, game_id, due, taken_by, taken_until) \
                 VALUES ('ai', ?1, ?2, ?3, ?4) ON CONFLICT (kind, game_id) DO UPDATE SET \
                 due = excluded.due, taken_by = excluded.taken_by, \
                 taken_until = excluded.taken_until",
                vals![game_id, crate::time::now_ms(), taken_by, until],
            )?;
        }
    }
    Ok(())
}

/// Takes up to `limit` jobs of a kind for `taker` until `until`, the
/// longest waiting first, skipping those another transaction is taking;
/// their games.
pub(super) fn take_jobs(
    conn: &mut dyn Sql,
    kind: JobKind,
    taker: &str,
    until: i64,
    limit: i64,
) -> Result<Vec<String>, SqlError> {
    let now = crate::time::now_ms();
    // SQLite has no row locks (its one writer takes all), nor the clause.
    let lock = if conn.locks_rows() {
        " FOR UPDATE SKIP LOCKED"
    } else {
        ""
    };
    conn.query(
        &format!(
            "UPDATE jobs SET taken_by = ?1, taken_until = ?2 WHERE (kind, game_id) IN \
             (SELECT kind, game_id FROM jobs WHERE kind = ?5 AND due <= ?3 \
             AND (taken_until IS NULL OR taken_until < ?3) ORDER BY due, game_id LIMIT ?4{lock}) \
             RETURNING game_id"
        ),
        vals![taker, until, now, limit, kind.name()],
    )?
    .iter()
    .map(|r| r.get(0))
    .collect()
}

/// Takes the job of a kind of one game for `taker` until `until`, if it is
/// free, run out, or `taker`'s already; whether it did.
pub(super) fn take_job(
    conn: &mut dyn Sql,
    kind: JobKind,
    game_id: &str,
    taker: &str,
    until: i64,
) -> Result<bool, SqlError> {
    Ok(conn.execute(
        "UPDATE jobs SET taken_by = ?2, taken_until = ?3 WHERE kind = ?5 AND game_id = ?1 \
         AND (taken_until IS NULL OR taken_until < ?4 OR taken_by = ?2)",
        vals![game_id, taker, until, crate::time::now_ms(), kind.name()],
    )? == 1)
}

/// Keeps `taker`'s job of a kind of a game until `until`; whether it still
/// had it.
pub(super) fn renew_job(
    conn: &mut dyn Sql,
    kind: JobKind,
    game_id: &str,
    taker: &str,
    until: i64,
) -> Result<bool, SqlError> {
    Ok(conn.execute(
        "UPDATE jobs SET taken_until = ?3 WHERE kind = ?4 AND game_id = ?1 AND taken_by = ?2",
        vals![game_id, taker, until, kind.name()],
    )? == 1)
}

/// Where the review of a game stands in the jobs: running while a taker
/// holds it; else queued behind those running and those asked for before.
pub(super) fn review_job(conn: &mut dyn Sql, game_id: &str) -> Result<ReviewJob, SqlError> {
    let now = crate::time::now_ms();
    let rows = conn.query(
        "SELECT j.taken_until, (SELECT COUNT(*) FROM jobs o WHERE o.kind = 'review' \
         AND o.game_id <> j.game_id AND (o.taken_until >= ?2 OR o.due < j.due \
         OR (o.due = j.due AND o.game_id < j.game_id))) \
         FROM jobs j WHERE j.kind = 'review' AND j.game_id = ?1",
        vals![game_id, now],
    )?;
    let Some(row) = rows.first() else {
        return Ok(ReviewJob::None);
    };
    let taken_until: Option<i64> = row.get(0)?;
    Ok(if taken_until.is_some_and(|until| until >= now) {
        ReviewJob::Running
    } else {
        let ahead: i64 = row.get(1)?;
        ReviewJob::Queued {
            ahead: usize::try_from(ahead).unwrap_or(0),
        }
    })
}

/// The side tokens stored before only their digests were (32 hexadecimal
/// digits, where a digest has 64), replaced by their digests; the number
/// of games changed. At every start: once done, it finds none. Another
/// server doing the same at once writes the same digests.
pub(super) fn digest_plain_tokens(conn: &mut dyn Sql) -> Result<usize, SqlError> {
    let rows = conn.query(
        "SELECT id, black_token, white_token FROM games \
         WHERE length(black_token) = 32 OR length(white_token) = 32",
        &[],
    )?;
    for row in &rows {
        let id: String = row.get(0)?;
        for (i, column) in [(1, "black_token"), (2, "white_token")] {
            let token: Option<String> = row.get(i)?;
            if let Some(plain) = token.filter(|t| t.len() == 32) {
                conn.execute(
                    &format!("UPDATE games SET {column} = ?2 WHERE id = ?1 AND {column} = ?3"),
                    vals![id, crate::secret::digest(&plain), plain],
                )?;
            }
        }
    }
    Ok(rows.len())
}

/// How many reviews wait or run.
pub(super) fn reviews_queued(conn: &mut dyn Sql) -> Result<usize, SqlError> {
    let rows = conn.query("SELECT COUNT(*) FROM jobs WHERE kind = 'review'", &[])?;
    let n: i64 = rows.first().map(|row| row.get(0)).transpose()?.unwrap_or(0);
    Ok(usize::try_from(n).unwrap_or(0))
}

/// The id of the rematch of a game, if one started.
pub(super) fn rematch_of(conn: &mut dyn Sql, game_id: &str) -> Result<Option<String>, SqlError> {
    let rows = conn.query("SELECT id FROM games WHERE rematch_of = ?1", vals![game_id])?;
    rows.first().map(|row| row.get(0)).transpose()
}

/// One game's review as stored (`None` if it was never asked for).
pub(super) fn load_review(
    conn: &mut dyn Sql,
    game_id: &str,
) -> Result<Option<StoredReview>, SqlError> {
    Ok(load_reviews(conn, Games::One(game_id))?.remove(game_id))
}

/// Frees every job (the one server of a SQLite file starts: whoever held
/// them was killed).
pub(super) fn free_jobs(conn: &mut dyn Sql) -> Result<(), SqlError> {
    conn.execute(
        "UPDATE jobs SET taken_by = NULL, taken_until = NULL WHERE taken_by IS NOT NULL",
        &[],
    )?;
    Ok(())
}

/// Drops `taker`'s job of a kind of a game.
pub(super) fn drop_job(
    conn: &mut dyn Sql,
    kind: JobKind,
    game_id: &str,
    taker: &str,
) -> Result<(), SqlError> {
    conn.execute(
        "DELETE FROM jobs WHERE kind = ?3 AND game_id = ?1 AND taken_by = ?2",
        vals![game_id, taker, kind.name()],
    )?;
    Ok(())
}

/// Lets go of every job `taker` has (it stops): others take them at once.
pub(super) fn release_jobs(conn: &mut dyn Sql, taker: &str) -> Result<(), SqlError> {
    conn.execute(
        "UPDATE jobs SET taken_by = NULL, taken_until = NULL WHERE taken_by = ?1",
        vals![taker],
    )?;
    Ok(())
}

/// An AI job, taken by no one, for each of these games that has none (the
/// AI to move in a game from before the jobs).
pub(super) fn ensure_ai_jobs(conn: &mut dyn Sql, games: &[String]) -> Result<(), SqlError> {
    let now = crate::time::now_ms();
    for id in games {
        conn.execute(
            "INSERT INTO jobs (kind, game_id, due) VALUES ('ai', ?1, ?2) \
             ON CONFLICT (kind, game_id) DO NOTHING",
            vals![id, now],
        )?;
    }
    Ok(())
}

/// Stores an offer: a stale one of its kind (made on the game as it was
/// before a turn or an undo) is replaced, as is the same side's; the other
/// side's standing offer is [`WriteError::Duplicate`] for a rematch (both
/// offered: the caller reads the game again and starts it), replaced for an
/// undo request (only the side whose last turn it is may ask).
fn insert_offer(conn: &mut dyn Sql, o: &OfferRow) -> Result<(), WriteError> {
    let (game, kind) = (&o.game_id, o.kind.name());
    let standing = conn.query(
        "SELECT color FROM offers WHERE game_id = ?1 AND kind = ?2 \
         AND turn_number = ?3 AND undos = ?4",
        vals![game, kind, o.turn_number, o.undos],
    )?;
    if let Some(row) = standing.first() {
        let color: String = row.get(0)?;
        if color != o.color && o.kind == OfferKind::Rematch {
            return Err(WriteError::Duplicate);
        }
    }
    conn.execute(
        "INSERT INTO offers (game_id, kind, color, turn_number, undos) \
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (game_id, kind) DO UPDATE SET \
         color = excluded.color, turn_number = excluded.turn_number, undos = excluded.undos",
        vals![game, kind, o.color, o.turn_number, o.undos],
    )?;
    Ok(())
}

fn insert_seats(conn: &mut dyn Sql, seats: &[SeatRow]) -> Result<(), SqlError> {
    for seat in seats {
        conn.execute(
            "INSERT INTO seats (game_id, color, account_id, claimed) VALUES (?1, ?2, ?3, ?4)",
            vals![seat.game_id, seat.color, seat.account_id, seat.claimed],
        )?;
    }
    Ok(())
}

fn insert_rating_change(conn: &mut dyn Sql, c: &RatingChange) -> Result<(), SqlError> {
    conn.execute(
        "INSERT INTO rating_changes (game_id, account_id, family, score, rating, deviation, \
         volatility, games, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        vals![
            c.game_id,
            c.account_id,
            c.family,
            c.score,
            c.rating,
            c.deviation,
            c.volatility,
            c.games,
            c.at
        ],
    )?;
    Ok(())
}

/// A turn, stored only if the game's count of undos is still the one it
/// was played on and its number is not stored yet: with several servers on
/// one database, a turn chosen before another server took turns back, or
/// one another server stored first, is refused
/// ([`WriteError::Duplicate`]), and the transaction goes on.
const INSERT_TURN: &str = "INSERT INTO turns (game_id, number, turn, played, color, clock) \
     SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE (SELECT undos FROM games WHERE id = ?1) = ?7 \
     ON CONFLICT DO NOTHING";

/// A turn ([`INSERT_TURN`]): whether it was stored.
fn store_turn(conn: &mut dyn Sql, t: &TurnRow) -> Result<bool, SqlError> {
    let stored = conn.execute(
        INSERT_TURN,
        vals![
            t.game_id, t.number, t.turn, t.played, t.color, t.clock, t.undos
        ],
    )?;
    Ok(stored == 1)
}

/// A turn ([`INSERT_TURN`]), refused as a duplicate if not stored.
fn insert_turn(conn: &mut dyn Sql, t: &TurnRow) -> Result<(), WriteError> {
    if store_turn(conn, t)? {
        Ok(())
    } else {
        Err(WriteError::Duplicate)
    }
}

/// Each row of a query, read by `read`.
fn rows<T>(
    conn: &mut dyn Sql,
    sql: &str,
    read: impl Fn(&Row) -> Result<T, SqlError>,
) -> Result<Vec<T>, SqlError> {
    conn.query(sql, &[])?.iter().map(read).collect()
}

/// Which games a read is of: every game, or one.
#[derive(Clone, Copy)]
enum Games<'a> {
    /// Every game played here (not the uploaded ones: they are read one at
    /// a time, when asked for).
    PlayedHere,
    One(&'a str),
}

impl Games<'_> {
    /// The rows of `sql` (a query of a table with a `game_id` column, or
    /// of `games` itself: `column`), of these games only, in `order`.
    fn rows<T>(
        self,
        conn: &mut dyn Sql,
        sql: &str,
        column: &str,
        order: &str,
        read: impl Fn(&Row) -> Result<T, SqlError>,
    ) -> Result<Vec<T>, SqlError> {
        let order = if order.is_empty() {
            String::new()
        } else {
            format!(" ORDER BY {order}")
        };
        match self {
            Games::PlayedHere => rows(
                conn,
                &format!(
                    "{sql} WHERE {column} IN (SELECT id FROM games WHERE source <> 'uploaded'){order}"
                ),
                read,
            ),
            Games::One(id) => conn
                .query(&format!("{sql} WHERE {column} = ?1{order}"), vals![id])?
                .iter()
                .map(read)
                .collect(),
        }
    }
}

/// Every review with its positions, by game.
fn load_reviews(
    conn: &mut dyn Sql,
    games: Games<'_>,
) -> Result<HashMap<String, StoredReview>, SqlError> {
    let mut reviews: HashMap<String, StoredReview> = games
        .rows(
            conn,
            "SELECT game_id, requested, pending FROM reviews",
            "game_id",
            "",
            |r| {
                Ok((
                    r.get(0)?,
                    StoredReview {
                        requested: r.get(1)?,
                        pending: r.get(2)?,
                        positions: Vec::new(),
                    },
                ))
            },
        )?
        .into_iter()
        .collect();
    let positions = games.rows(
        conn,
        "SELECT game_id, turn, hash, win_rate, score_lead, best, visits, ownership \
         FROM review_positions",
        "game_id",
        "game_id, turn",
        |r| {
            Ok((
                r.get::<String>(0)?,
                PositionRow {
                    turn: r.get(1)?,
                    hash: r.get(2)?,
                    win_rate: r.get(3)?,
                    score_lead: r.get(4)?,
                    best: r.get(5)?,
                    visits: r.get(6)?,
                    ownership: r.get(7)?,
                },
            ))
        },
    )?;
    for (id, position) in positions {
        if let Some(review) = reviews.get_mut(&id) {
            review.positions.push(position);
        }
    }
    Ok(reviews)
}

/// Every game played here with its turns, oldest first (the uploaded ones
/// are read one at a time: [`load_game`]).
pub(super) fn load(conn: &mut dyn Sql) -> Result<Vec<StoredGame>, SqlError> {
    load_games(conn, Games::PlayedHere)
}

/// One game with its turns, as it stands in the database (`None` if there
/// is no such game): what another server wrote, read again.
pub(super) fn load_game(conn: &mut dyn Sql, id: &str) -> Result<Option<StoredGame>, SqlError> {
    Ok(load_games(conn, Games::One(id))?.pop())
}

fn load_games(conn: &mut dyn Sql, games: Games<'_>) -> Result<Vec<StoredGame>, SqlError> {
    let mut reviews = load_reviews(conn, games)?;
    let mut chat: HashMap<String, Vec<ChatRow>> = HashMap::new();
    for row in games.rows(
        conn,
        "SELECT game_id, number, color, text, at FROM chat",
        "game_id",
        "game_id, number",
        |r| {
            Ok(ChatRow {
                game_id: r.get(0)?,
                number: r.get(1)?,
                color: r.get(2)?,
                text: r.get(3)?,
                at: r.get(4)?,
            })
        },
    )? {
        chat.entry(row.game_id.clone()).or_default().push(row);
    }
    let mut conditionals: HashMap<String, Vec<(String, String)>> = HashMap::new();
    for (game, color, tree) in games.rows(
        conn,
        "SELECT game_id, color, tree FROM conditionals",
        "game_id",
        "",
        |r| Ok((r.get::<String>(0)?, r.get(1)?, r.get(2)?)),
    )? {
        conditionals.entry(game).or_default().push((color, tree));
    }
    let mut credits: HashMap<String, Vec<(u32, i64)>> = HashMap::new();
    for (game, turn, ms) in games.rows(
        conn,
        "SELECT game_id, turn, credit_ms FROM clock_credits",
        "game_id",
        "",
        |r| Ok((r.get::<String>(0)?, r.get(1)?, r.get(2)?)),
    )? {
        credits.entry(game).or_default().push((turn, ms));
    }
    let mut declined: HashMap<String, UndoDeclinedRow> = HashMap::new();
    for row in games.rows(
        conn,
        "SELECT game_id, color, turn_number, undos FROM undo_declines",
        "game_id",
        "",
        |r| {
            Ok(UndoDeclinedRow {
                game_id: r.get(0)?,
                color: r.get(1)?,
                turn_number: r.get(2)?,
                undos: r.get(3)?,
            })
        },
    )? {
        declined.insert(row.game_id.clone(), row);
    }
    let mut offers: HashMap<String, Vec<OfferRow>> = HashMap::new();
    for row in games
        .rows(
            conn,
            "SELECT game_id, kind, color, turn_number, undos FROM offers",
            "game_id",
            "",
            |r| {
                // An offer of a kind this server does not know is left alone.
                let Some(kind) = OfferKind::from_name(&r.get::<String>(1)?) else {
                    return Ok(None);
                };
                Ok(Some(OfferRow {
                    game_id: r.get(0)?,
                    kind,
                    color: r.get(2)?,
                    turn_number: r.get(3)?,
                    undos: r.get(4)?,
                }))
            },
        )?
        .into_iter()
        .flatten()
    {
        offers.entry(row.game_id.clone()).or_default().push(row);
    }
    let mut turns: HashMap<String, Vec<StoredTurn>> = HashMap::new();
    for (id, turn) in games.rows(
        conn,
        "SELECT game_id, turn, played, color, clock FROM turns",
        "game_id",
        "game_id, number",
        |r| {
            Ok((
                r.get::<String>(0)?,
                StoredTurn {
                    turn: r.get(1)?,
                    played: r.get(2)?,
                    color: r.get(3)?,
                    clock: r.get(4)?,
                },
            ))
        },
    )? {
        turns.entry(id).or_default().push(turn);
    }
    let games = games.rows(
        conn,
        "SELECT id, variant, size, komi, black, white, black_token, white_token, \
         source, start, record, created, request_id, undos, time_control, rated_black, \
         rated_white, rematch_of FROM games",
        "id",
        "created, id",
        game_row,
    )?;
    Ok(games
        .into_iter()
        .map(|row| StoredGame {
            turns: turns.remove(&row.id).unwrap_or_default(),
            review: reviews.remove(&row.id),
            chat: chat.remove(&row.id).unwrap_or_default(),
            conditionals: conditionals.remove(&row.id).unwrap_or_default(),
            credits: credits.remove(&row.id).unwrap_or_default(),
            undo_declined: declined.remove(&row.id),
            offers: offers.remove(&row.id).unwrap_or_default(),
            row,
        })
        .collect())
}

/// A row of `games` as `load` selects it.
fn game_row(r: &Row) -> Result<GameRow, SqlError> {
    Ok(GameRow {
        id: r.get(0)?,
        variant: r.get(1)?,
        size: r.get(2)?,
        komi: r.get(3)?,
        black: r.get(4)?,
        white: r.get(5)?,
        black_token: r.get(6)?,
        white_token: r.get(7)?,
        source: r.get(8)?,
        start: r.get(9)?,
        record: r.get(10)?,
        created: r.get(11)?,
        request_id: r.get(12)?,
        undos: r.get(13)?,
        time_control: r.get(14)?,
        rated: match (r.get::<Option<i64>>(15)?, r.get::<Option<i64>>(16)?) {
            (Some(b), Some(w)) => Some([b, w]),
            _ => None,
        },
        rematch_of: r.get(17)?,
    })
}

/// Every account, the sessions that have not expired, every seat, the
/// vacations, the rating changes and the challenges.
pub(crate) fn load_accounts(conn: &mut dyn Sql) -> Result<StoredAccounts, SqlError> {
    load_accounts_naming(conn, &[])
}

/// Most accounts a statement of [`load_accounts_of`] names: more are read
/// in several rounds.
const IDS_A_STATEMENT: usize = 64;

/// What [`load_accounts`] reads, of the accounts `ids` only: their rows,
/// their sessions that have not expired, their seats, their vacations,
/// their rating changes, and the challenges that name one of them (as
/// challenger or opponent); each in the order `load_accounts` gives.
pub(crate) fn load_accounts_of(
    conn: &mut dyn Sql,
    ids: &[i64],
) -> Result<StoredAccounts, SqlError> {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let mut read = StoredAccounts::default();
    for (round, chunk) in ids.chunks(IDS_A_STATEMENT).enumerate() {
        // A statement's list of ids is as long as the next power of two,
        // the last id repeated: a few statements (seven lengths) are
        // prepared, not one for every number of ids.
        let mut padded = chunk.to_vec();
        padded.resize(chunk.len().next_power_of_two(), chunk[chunk.len() - 1]);
        let more = load_accounts_naming(conn, &padded)?;
        read.accounts.extend(more.accounts);
        read.sessions.extend(more.sessions);
        read.seats.extend(more.seats);
        read.vacations.extend(more.vacations);
        read.rating_changes.extend(more.rating_changes);
        // A challenge between two accounts of different rounds is read
        // twice.
        if round > 0 {
            let known: std::collections::HashSet<String> =
                read.challenges.iter().map(|c| c.id.clone()).collect();
            read.challenges.extend(
                more.challenges
                    .into_iter()
                    .filter(|c| !known.contains(&c.id)),
            );
        } else {
            read.challenges = more.challenges;
        }
    }
    if ids.len() > IDS_A_STATEMENT {
        read.accounts.sort_by_key(|a| a.id);
        read.seats.sort_by_key(|s| s.claimed);
        read.vacations.sort_by_key(|v| (v.account_id, v.started));
        read.rating_changes.sort_by(|a, b| {
            (a.at, &a.game_id, a.account_id).cmp(&(b.at, &b.game_id, b.account_id))
        });
        read.challenges.sort_by_key(|c| c.created);
    }
    Ok(read)
}

/// The accounts' rows (every account's when `ids` is empty, else those
/// that name one of `ids`): the statements bind the ids as `?1`…`?n`.
fn load_accounts_naming(conn: &mut dyn Sql, ids: &[i64]) -> Result<StoredAccounts, SqlError> {
    let list = (1..=ids.len())
        .map(|i| format!("?{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    // The condition that a row names one of the ids in one of `columns`,
    // after `WHERE` (`first`) or `AND`; nothing for every row.
    let naming = |columns: &[&str], first: bool| {
        if ids.is_empty() {
            return String::new();
        }
        let any = columns
            .iter()
            .map(|c| format!("{c} IN ({list})"))
            .collect::<Vec<_>>()
            .join(" OR ");
        format!(" {} ({any})", if first { "WHERE" } else { "AND" })
    };
    let mut params: Vec<Value<'_>> = ids.iter().map(|&id| Value::Int(id)).collect();
    let of_ids = params.clone();
    let accounts = conn
        .query(
            &format!(
                "SELECT id, name, password_hash, created, disabled, vacation_since FROM accounts\
                 {} ORDER BY id",
                naming(&["id"], true)
            ),
            &of_ids,
        )?
        .iter()
        .map(|r| {
            Ok(AccountRow {
                id: r.get(0)?,
                name: r.get(1)?,
                password_hash: r.get(2)?,
                created: r.get(3)?,
                disabled: r.get(4)?,
                vacation_since: r.get(5)?,
            })
        })
        .collect::<Result<Vec<_>, SqlError>>()?;
    let vacations = conn
        .query(
            &format!(
                "SELECT account_id, started, ended FROM vacations{} \
                 ORDER BY account_id, started",
                naming(&["account_id"], true)
            ),
            &of_ids,
        )?
        .iter()
        .map(|r| {
            Ok(VacationRow {
                account_id: r.get(0)?,
                started: r.get(1)?,
                ended: r.get(2)?,
            })
        })
        .collect::<Result<Vec<_>, SqlError>>()?;
    params.push(Value::Int(crate::time::now_ms()));
    let sessions = conn
        .query(
            &format!(
                "SELECT secret_hash, account_id, created, expires FROM sessions \
                 WHERE expires > ?{}{}",
                ids.len() + 1,
                naming(&["account_id"], false)
            ),
            &params,
        )?
        .iter()
        .map(|r| {
            Ok(SessionRow {
                secret_hash: r.get(0)?,
                account_id: r.get(1)?,
                created: r.get(2)?,
                expires: r.get(3)?,
            })
        })
        .collect::<Result<Vec<_>, SqlError>>()?;
    let seats = conn
        .query(
            &format!(
                "SELECT game_id, color, account_id, claimed FROM seats{} ORDER BY claimed",
                naming(&["account_id"], true)
            ),
            &of_ids,
        )?
        .iter()
        .map(|r| {
            Ok(SeatRow {
                game_id: r.get(0)?,
                color: r.get(1)?,
                account_id: r.get(2)?,
                claimed: r.get(3)?,
            })
        })
        .collect::<Result<Vec<_>, SqlError>>()?;
    let challenges = conn
        .query(
            &format!(
                "SELECT id, account_id, opponent_id, terms, created, state, game_id \
                 FROM challenges{} ORDER BY created",
                naming(&["account_id", "opponent_id"], true)
            ),
            &of_ids,
        )?
        .iter()
        .map(|r| {
            Ok(ChallengeRow {
                id: r.get(0)?,
                account_id: r.get(1)?,
                opponent_id: r.get(2)?,
                terms: r.get(3)?,
                created: r.get(4)?,
                state: r.get(5)?,
                game_id: r.get(6)?,
            })
        })
        .collect::<Result<Vec<_>, SqlError>>()?;
    let rating_changes = conn
        .query(
            &format!(
                "SELECT game_id, account_id, family, score, rating, deviation, volatility, \
                 games, at FROM rating_changes WHERE annulled = 0{} \
                 ORDER BY at, game_id, account_id",
                naming(&["account_id"], false)
            ),
            &of_ids,
        )?
        .iter()
        .map(|r| {
            Ok(RatingChange {
                game_id: r.get(0)?,
                account_id: r.get(1)?,
                family: r.get(2)?,
                score: r.get(3)?,
                rating: r.get(4)?,
                deviation: r.get(5)?,
                volatility: r.get(6)?,
                games: r.get(7)?,
                at: r.get(8)?,
            })
        })
        .collect::<Result<Vec<_>, SqlError>>()?;
    Ok(StoredAccounts {
        accounts,
        sessions,
        seats,
        vacations,
        rating_changes,
        challenges,
    })
}

/// The id of the account whose name, lowercased, is `name_key`.
pub(super) fn account_id(conn: &mut dyn Sql, name_key: &str) -> Result<Option<i64>, SqlError> {
    conn.query(
        "SELECT id FROM accounts WHERE name_key = ?1",
        vals![name_key],
    )?
    .first()
    .map(|r| r.get(0))
    .transpose()
}

/// The ids of the accounts from `first` on.
pub(super) fn account_ids_from(conn: &mut dyn Sql, first: i64) -> Result<Vec<i64>, SqlError> {
    conn.query(
        "SELECT id FROM accounts WHERE id >= ?1 ORDER BY id",
        vals![first],
    )?
    .iter()
    .map(|r| r.get(0))
    .collect()
}

/// A session's account and expiry, if it is stored (expired or not).
pub(super) fn session(
    conn: &mut dyn Sql,
    secret_hash: &str,
) -> Result<Option<(i64, i64)>, SqlError> {
    conn.query(
        "SELECT account_id, expires FROM sessions WHERE secret_hash = ?1",
        vals![secret_hash],
    )?
    .first()
    .map(|r| Ok((r.get(0)?, r.get(1)?)))
    .transpose()
}

#[cfg(test)]
mod tests {
    use super::super::{postgres, sqlite};
    use super::*;

    /// How many accounts the stores hold: more than a statement names, so
    /// that a read of most of them takes several rounds.
    const N: i64 = 150;

    /// The accounts 1 to [`N`] with sessions (one expired), seats,
    /// vacations (one on), rating changes and challenges (between accounts
    /// of different rounds of a read too), every time distinct.
    fn fill(conn: &mut dyn Sql) {
        let mut writes = Vec::new();
        for id in 1..=N {
            writes.push(Write::Account(AccountRow {
                id,
                name: format!("Player{id}"),
                password_hash: format!("hash{id}"),
                created: id,
                disabled: id % 11 == 0,
                vacation_since: None,
            }));
        }
        for g in 0..N / 2 {
            writes.push(Write::Game(
                Box::new(GameRow {
                    created: g,
                    rated: Some([2 * g + 1, 2 * g + 2]),
                    ..GameRow::for_test(&format!("{g:08x}"))
                }),
                Vec::new(),
                AiJob::Unchanged,
            ));
        }
        let far = crate::time::now_ms() + 1_000_000;
        for id in 1..=N {
            let g = (id - 1) / 2;
            writes.push(Write::Session(SessionRow {
                secret_hash: format!("s{id}"),
                account_id: id,
                created: id,
                // One account's session has expired: not read.
                expires: if id == 5 { 1 } else { far },
            }));
            if id % 4 == 0 {
                writes.push(Write::Session(SessionRow {
                    secret_hash: format!("t{id}"),
                    account_id: id,
                    created: id,
                    expires: far,
                }));
            }
            writes.push(Write::Seats(vec![SeatRow {
                game_id: format!("{g:08x}"),
                color: if id % 2 == 1 { "black" } else { "white" }.to_string(),
                account_id: id,
                claimed: 1000 + id,
            }]));
            if id % 3 == 0 {
                writes.push(Write::VacationOff {
                    vacation: VacationRow {
                        account_id: id,
                        started: 2000 + id,
                        ended: 3000 + id,
                    },
                    credits: Vec::new(),
                });
            }
            if id % 7 == 0 {
                writes.push(Write::VacationOn {
                    account_id: id,
                    since: 4000 + id,
                });
            }
            // A challenge of each account: open, or for an account far off.
            writes.push(Write::Challenge(ChallengeRow {
                id: format!("c{id:07}"),
                account_id: id,
                opponent_id: (id % 2 == 0).then_some((id * 7 + 3) % N + 1),
                terms: "{}".to_string(),
                created: 5000 + id,
                state: "open".to_string(),
                game_id: None,
            }));
        }
        // The rated games of the first 40 accounts ended.
        for g in 0..20 {
            let change = |account_id, score| RatingChange {
                game_id: format!("{g:08x}"),
                account_id,
                family: "sygo".to_string(),
                score,
                rating: 1500.0 + score * 100.0,
                deviation: 300.0,
                volatility: 0.06,
                games: 1,
                at: 6000 + g,
            };
            writes.push(Write::Turn(
                TurnRow {
                    game_id: format!("{g:08x}"),
                    number: 1,
                    turn: "resign".to_string(),
                    played: 6000 + g,
                    color: Some("black".to_string()),
                    clock: None,
                    undos: 0,
                },
                vec![change(2 * g + 1, 0.0), change(2 * g + 2, 1.0)],
                AiJob::Unchanged,
            ));
        }
        let refs: Vec<&Write> = writes.iter().collect();
        for result in commit(conn, &refs, None) {
            result.unwrap();
        }
    }

    type Rows = (
        Vec<(i64, String, String, i64, bool, Option<i64>)>,
        Vec<(String, i64, i64, i64)>,
        Vec<SeatRow>,
        Vec<VacationRow>,
        Vec<RatingChange>,
        Vec<ChallengeRow>,
    );

    /// The rows read, comparable (the sessions, which have no order, in
    /// the order of their hashes).
    fn rows_of(read: StoredAccounts) -> Rows {
        let mut sessions: Vec<_> = read
            .sessions
            .into_iter()
            .map(|s| (s.secret_hash, s.account_id, s.created, s.expires))
            .collect();
        sessions.sort();
        (
            read.accounts
                .into_iter()
                .map(|a| {
                    (
                        a.id,
                        a.name,
                        a.password_hash,
                        a.created,
                        a.disabled,
                        a.vacation_since,
                    )
                })
                .collect(),
            sessions,
            read.seats,
            read.vacations,
            read.rating_changes,
            read.challenges,
        )
    }

    /// The rows of every account that belong to `ids`, in the order read.
    fn naming(all: &Rows, ids: &[i64]) -> Rows {
        let has = |id: &i64| ids.contains(id);
        (
            all.0.iter().filter(|a| has(&a.0)).cloned().collect(),
            all.1.iter().filter(|s| has(&s.1)).cloned().collect(),
            all.2
                .iter()
                .filter(|s| has(&s.account_id))
                .cloned()
                .collect(),
            all.3
                .iter()
                .filter(|v| has(&v.account_id))
                .cloned()
                .collect(),
            all.4
                .iter()
                .filter(|c| has(&c.account_id))
                .cloned()
                .collect(),
            all.5
                .iter()
                .filter(|c| has(&c.account_id) || c.opponent_id.as_ref().is_some_and(has))
                .cloned()
                .collect(),
        )
    }

    /// A read of some accounts gives exactly what a read of every account
    /// gives of them, in the same order.
    fn a_targeted_read_gives_exactly_the_rows_of_its_accounts(conn: &mut dyn Sql) {
        fill(conn);
        let all = rows_of(load_accounts(conn).unwrap());
        assert_eq!(all.0.len(), N as usize);
        assert!(
            all.1.iter().all(|s| s.1 != 5),
            "an expired session is not read"
        );
        let many: Vec<i64> = (1..=N).filter(|id| id % 3 != 1).collect();
        let every: Vec<i64> = (1..=N).collect();
        for ids in [
            vec![],
            vec![2],
            vec![5],
            vec![7, 21],
            // An account twice, and one that does not exist.
            vec![2, 99, 2, 100_000],
            (60..=70).collect(),
            many,
            every,
        ] {
            let read = rows_of(load_accounts_of(conn, &ids).unwrap());
            let expected = naming(&all, &ids);
            assert_eq!(read, expected, "the accounts {ids:?}");
        }
        // What one account's read holds, spelt out.
        let one = rows_of(load_accounts_of(conn, &[4]).unwrap());
        assert_eq!(one.0.len(), 1);
        assert_eq!(
            one.1.iter().map(|s| s.0.as_str()).collect::<Vec<_>>(),
            ["s4", "t4"]
        );
        assert_eq!(one.2.len(), 1);
        assert!(one.3.is_empty());
        assert_eq!(one.4.len(), 1);
        // Its own challenge (for account 32), and account 150's, which is
        // for it (150·7 + 3 = 1053; 1053 mod 150 + 1 = 4).
        let challengers: Vec<i64> = one.5.iter().map(|c| c.account_id).collect();
        assert_eq!(challengers, [4, 150]);
    }

    #[test]
    fn a_targeted_read_gives_exactly_the_rows_of_its_accounts_on_sqlite() {
        a_targeted_read_gives_exactly_the_rows_of_its_accounts(&mut sqlite::in_memory());
    }

    /// The same on PostgreSQL, when `SYGO_TEST_POSTGRES` names a server
    /// (`scripts/test.sh` runs it so, on the server it starts).
    #[test]
    fn a_targeted_read_gives_exactly_the_rows_of_its_accounts_on_postgres() {
        if let Some(mut db) = postgres::TestDatabase::new("targeted") {
            a_targeted_read_gives_exactly_the_rows_of_its_accounts(db.store());
        }
    }
}
