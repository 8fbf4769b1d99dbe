//! The embedded store: SQLite in WAL mode with `synchronous=FULL`, so that
//! a commit is on disk when it returns, and the schema in `migrations/`.
//!
//! Another thread copies the write-ahead log into the database
//! (checkpoints) while the writer commits, so that the commits seldom wait
//! for that copy. Another program may change accounts while the server runs
//! (`sygo admin`): SQLite's `PRAGMA data_version` moves when another
//! connection commits.

use std::path::Path;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, ErrorCode, OpenFlags, params_from_iter};
use rusqlite_migration::{M, Migrations};

use super::sql::{Cell, Row, Sql, SqlError, Value};
use super::{DbError, Store};

/// The schema, one migration per file.
pub(super) fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("../../migrations/0001_games_and_turns.sql")),
        M::up(include_str!("../../migrations/0002_request_id.sql")),
        M::up(include_str!(
            "../../migrations/0003_resignations_and_undo.sql"
        )),
        M::up(include_str!("../../migrations/0004_reviews.sql")),
        M::up(include_str!("../../migrations/0005_accounts.sql")),
        M::up(include_str!("../../migrations/0006_clocks.sql")),
        M::up(include_str!("../../migrations/0007_lobby_and_ratings.sql")),
        M::up(include_str!("../../migrations/0008_etiquette.sql")),
        M::up(include_str!("../../migrations/0009_conditional_turns.sql")),
        M::up(include_str!("../../migrations/0010_vacation.sql")),
        M::up(include_str!("../../migrations/0011_undo_declines.sql")),
        M::up(include_str!("../../migrations/0012_jobs.sql")),
        M::up(include_str!(
            "../../migrations/0013_review_jobs_and_offers.sql"
        )),
        M::up(include_str!("../../migrations/0014_one_rematch.sql")),
        M::up(include_str!("../../migrations/0015_accounts_indexes.sql")),
        M::up(include_str!("../../migrations/0016_request_id_digests.sql")),
    ])
}

/// How often the checkpoint thread copies the log into the database (at
/// 100 ms, a writer's checkpoint still found up to 100 ms of pages to copy
/// and took about 12 ms).
const CHECKPOINT_INTERVAL: Duration = Duration::from_millis(20);

/// The writer's connection, and what it last saw of other connections'
/// commits.
pub(super) struct Sqlite {
    conn: Connection,
    data_version: Option<i64>,
    /// The database file, locked (`flock`) for as long as the server runs:
    /// one server a database (the servers keep the games in memory, so a
    /// second would not see the first's turns). SQLite's own locks are of
    /// another kind and do not see this one; `sygo admin` does not take it.
    _alone: Option<std::fs::File>,
}

/// Creates the database file when it is missing, readable and writable by
/// its owner alone (0600: it holds password hashes, sessions and the
/// sides' tokens); SQLite gives its journal files the same permissions.
/// An existing file keeps its own.
fn create_private(path: &Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// Opens (or creates) the database at `path` for the server and brings its
/// schema up to date; starts the checkpoint thread, which ends when
/// `stop` is dropped.
pub(super) fn open(path: &Path, stop: mpsc::Receiver<()>) -> Result<Sqlite, DbError> {
    let fail = |what: &str, e: &dyn std::fmt::Display| {
        DbError(format!("database {}: {what}: {e}", path.display()))
    };
    create_private(path).map_err(|e| fail("cannot create it", &e))?;
    let mut conn = Connection::open(path).map_err(|e| fail("cannot open it", &e))?;
    let alone = std::fs::File::open(path).map_err(|e| fail("cannot open it", &e))?;
    let mut waited = Duration::ZERO;
    loop {
        match fs4::FileExt::try_lock(&alone) {
            Ok(()) => break,
            // A server stopping lets it go once its last writes are
            // committed: wait for that a while.
            Err(fs4::TryLockError::WouldBlock) if waited < super::LOCK_WAIT => {
                thread::sleep(super::LOCK_POLL);
                waited += super::LOCK_POLL;
            }
            Err(fs4::TryLockError::WouldBlock) => {
                return Err(fail("cannot use it", &super::ANOTHER_SERVER));
            }
            Err(fs4::TryLockError::Error(e)) => return Err(fail("cannot lock it", &e)),
        }
    }
    let mode: String = conn
        .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
        .map_err(|e| fail("cannot set WAL mode", &e))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(fail("cannot set WAL mode", &mode));
    }
    conn.execute_batch(
        "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA busy_timeout=5000;",
    )
    .map_err(|e| fail("cannot set it up", &e))?;
    migrations()
        .to_latest(&mut conn)
        .map_err(|e| fail("cannot bring its schema up to date", &e))?;
    // Every statement the writer runs stays prepared (the default keeps 16).
    conn.set_prepared_statement_cache_capacity(64);
    let checkpoint_conn =
        Connection::open(path).map_err(|e| fail("cannot open it for checkpoints", &e))?;
    checkpoint_conn
        .execute_batch("PRAGMA synchronous=FULL; PRAGMA busy_timeout=5000;")
        .map_err(|e| fail("cannot set it up for checkpoints", &e))?;
    thread::Builder::new()
        .name("sygo-checkpoint".to_string())
        .spawn(move || checkpointer(checkpoint_conn, stop))
        .map_err(|e| fail("cannot start its thread", &e))?;
    let mut store = Sqlite {
        conn,
        data_version: None,
        _alone: Some(alone),
    };
    store.data_version = store.read_data_version();
    Ok(store)
}

/// Opens an existing database for the host's commands (`sygo admin`).
pub(super) fn open_existing(path: &Path) -> Result<Sqlite, String> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| e.to_string())?;
    conn.execute_batch("PRAGMA foreign_keys=ON; PRAGMA busy_timeout=5000;")
        .map_err(|e| e.to_string())?;
    Ok(Sqlite {
        conn,
        data_version: None,
        _alone: None,
    })
}

impl Sqlite {
    fn read_data_version(&self) -> Option<i64> {
        self.conn
            .prepare_cached("PRAGMA data_version")
            .and_then(|mut st| st.query_row([], |r| r.get(0)))
            .ok()
    }
}

impl Store for Sqlite {
    fn as_sql(&mut self) -> &mut dyn Sql {
        self
    }

    /// `PRAGMA data_version` changes only when another connection commits.
    fn changed_elsewhere(&mut self) -> bool {
        let now = self.read_data_version();
        let changed = now != self.data_version;
        self.data_version = now;
        changed
    }
}

/// The checkpoint thread: copies what the write-ahead log holds into the
/// database every [`CHECKPOINT_INTERVAL`] (a passive checkpoint, which never
/// holds a commit up), on a connection of its own, until `stop` is
/// dropped. The writer's commits still checkpoint themselves when the log
/// reaches a thousand pages (SQLite's automatic checkpoint, which also
/// starts the log again from its beginning, so that it never grows past
/// that), but then find at most the last few milliseconds' pages left to
/// copy. A commit that copied them all itself took 10 to 50 ms instead of
/// 1 to 4 (`docs/performance.md`), and every turn behind it waited.
fn checkpointer(conn: Connection, stop: mpsc::Receiver<()>) {
    while let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(CHECKPOINT_INTERVAL) {
        if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
            tracing::warn!(error = %e, "a checkpoint of the database failed");
        }
    }
}

impl rusqlite::ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match *self {
            Value::Null => ValueRef::Null,
            Value::Int(i) => ValueRef::Integer(i),
            Value::Real(x) => ValueRef::Real(x),
            Value::Text(s) => ValueRef::Text(s.as_bytes()),
        }))
    }
}

/// Every statement stays prepared (`prepare_cached`): the transaction's and
/// the savepoints' statements, parsed for every batch and every write, were
/// most of the writer's work.
impl Sql for Sqlite {
    fn run(&mut self, sql: &str) -> Result<(), SqlError> {
        self.conn
            .prepare_cached(sql)
            .and_then(|mut st| st.execute([]))
            .map(|_| ())
            .map_err(classify)
    }

    fn execute(&mut self, sql: &str, params: &[Value<'_>]) -> Result<u64, SqlError> {
        self.conn
            .prepare_cached(sql)
            .and_then(|mut st| st.execute(params_from_iter(params)))
            .map(|n| n as u64)
            .map_err(classify)
    }

    fn query(&mut self, sql: &str, params: &[Value<'_>]) -> Result<Vec<Row>, SqlError> {
        let mut st = self.conn.prepare_cached(sql).map_err(classify)?;
        let columns = st.column_count();
        let mut rows = st.query(params_from_iter(params)).map_err(classify)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(classify)? {
            let mut cells = Vec::with_capacity(columns);
            for i in 0..columns {
                cells.push(match row.get_ref(i).map_err(classify)? {
                    ValueRef::Null => Cell::Null,
                    ValueRef::Integer(n) => Cell::Int(n),
                    ValueRef::Real(x) => Cell::Real(x),
                    ValueRef::Text(t) | ValueRef::Blob(t) => {
                        Cell::Text(String::from_utf8_lossy(t).into_owned())
                    }
                });
            }
            out.push(Row(cells));
        }
        Ok(out)
    }
}

/// A taken key is a duplicate; anything else a failure.
fn classify(e: rusqlite::Error) -> SqlError {
    match e.sqlite_error() {
        Some(err)
            if err.code == ErrorCode::ConstraintViolation
                && (err.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                    || err.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE) =>
        {
            SqlError::Duplicate(e.to_string())
        }
        _ => SqlError::Failed(e.to_string()),
    }
}

/// An in-memory database with the schema, for the writer's tests.
#[cfg(test)]
pub(super) fn in_memory() -> Sqlite {
    let mut conn = Connection::open_in_memory().unwrap();
    migrations().to_latest(&mut conn).unwrap();
    Sqlite {
        conn,
        data_version: None,
        _alone: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_valid() {
        assert!(migrations().validate().is_ok());
    }

    /// Reading some accounts again finds their sessions and the challenges
    /// that name them by index, not by scanning the tables.
    #[test]
    fn some_accounts_are_read_by_index_from_migration_15() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrations().to_latest(&mut conn).unwrap();
        let plan = |sql: &str| -> String {
            let mut statement = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
            let details: Vec<String> = statement
                .query_map([], |r| r.get::<_, String>(3))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            details.join("; ")
        };
        let sessions = plan("SELECT * FROM sessions WHERE account_id IN (1, 2)");
        assert!(sessions.contains("sessions_by_account"), "{sessions}");
        let challenges =
            plan("SELECT * FROM challenges WHERE account_id IN (1, 2) OR opponent_id IN (1, 2)");
        assert!(
            challenges.contains("challenges_by_account")
                && challenges.contains("challenges_by_opponent"),
            "{challenges}"
        );
    }

    /// A database that holds two rematches of one game keeps the first as
    /// its rematch; from then on a second is refused.
    #[test]
    fn one_rematch_a_game_from_migration_14() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrations().to_version(&mut conn, 13).unwrap();
        let game = |id: &str, created: i64, rematch_of: Option<&str>| {
            format!(
                "INSERT INTO games (id, variant, size, komi, black, white, source, start, \
                 created, rematch_of) VALUES ('{id}', 'sygo', 5, 0, '{{}}', '{{}}', 'played', \
                 '', {created}, {})",
                rematch_of.map_or("NULL".to_string(), |old| format!("'{old}'"))
            )
        };
        for sql in [
            game("a0", 1, None),
            game("a2", 3, Some("a0")),
            game("a1", 2, Some("a0")),
            game("b0", 4, None),
            game("b1", 5, Some("b0")),
        ] {
            conn.execute(&sql, []).unwrap();
        }
        migrations().to_latest(&mut conn).unwrap();
        let rematch_of = |id: &str| -> Option<String> {
            conn.query_row("SELECT rematch_of FROM games WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .unwrap()
        };
        assert_eq!(rematch_of("a1").as_deref(), Some("a0"), "the first kept");
        assert_eq!(rematch_of("a2"), None, "the later one a game of its own");
        assert_eq!(rematch_of("b1").as_deref(), Some("b0"));
        assert!(conn.execute(&game("b2", 6, Some("b0")), []).is_err());
        conn.execute(&game("c0", 7, None), []).unwrap();
    }
}
