//! The PostgreSQL store, for a server that outgrows one machine: the same
//! tables and statements as the SQLite store (`migrations/postgres/`), on
//! PostgreSQL's own durability (a commit returns once it is flushed, with
//! the server's default `synchronous_commit`).
//!
//! Several servers may share one database. Each writer tells the others
//! what it commits (`NOTIFY sygo`, `notice.rs`), and the host's commands
//! (`sygo admin`) that accounts changed (`NOTIFY sygo_changes`); each server
//! listens on a connection of its own ([`listen`]), which also holds the
//! lead of the clocks' watcher while it has it.

use std::collections::{HashMap, HashSet};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bytes::BytesMut;
use postgres::error::SqlState;
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::{IsNull, ToSql, Type, to_sql_checked};
use postgres::{Client, Statement};

use super::sql::{Cell, Row, Sql, SqlError, Value};
use super::{DbError, Heard, Store, TurnRow, notice, tls};

/// The schema, one migration per file, applied in order; a store's
/// `sygo_migrations` table lists those applied.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/postgres/0001_schema.sql"),
    include_str!("../../migrations/postgres/0002_jobs.sql"),
    include_str!("../../migrations/postgres/0003_review_jobs_and_offers.sql"),
    include_str!("../../migrations/postgres/0004_one_rematch.sql"),
    include_str!("../../migrations/postgres/0005_accounts_indexes.sql"),
    include_str!("../../migrations/postgres/0006_request_id_digests.sql"),
];

/// The channel on which the servers hear that `sygo admin` changed
/// accounts.
const CHANNEL: &str = "sygo_changes";

/// The key of the advisory lock held while the schema is brought up to
/// date, so that servers started together apply each migration once.
const MIGRATION_LOCK: i64 = 0x5359_474f_0001;

/// The key of the advisory lock held by the server that leads the clocks'
/// watcher (timeouts, vacations used up, untouched games): one server at a
/// time, another taking the lead when it stops or is killed (PostgreSQL
/// lets a session's locks go when it ends).
const LEADER_LOCK: i64 = 0x5359_474f_0002;

/// How long the listener waits on its connection before looking whether the
/// server stopped or the lead is free.
const LISTEN_TICK: Duration = Duration::from_millis(500);

/// A connection, with every statement it ran kept prepared.
pub(super) struct Postgres {
    client: Client,
    statements: HashMap<String, Statement>,
}

/// Connects to the database at `url` (`postgres://user:password@host/db`,
/// or any form `libpq` takes) and brings its schema up to date. Other
/// servers may share the database: each listens to the others ([`listen`]).
pub(super) fn open(url: &str) -> Result<Postgres, DbError> {
    let mut store = connect(url).map_err(DbError)?;
    let fail = |what: &str, e: &dyn std::fmt::Display| {
        DbError(format!("database {}: {what}: {e}", describe(url)))
    };
    migrate(&mut store.client).map_err(|e| fail("cannot bring its schema up to date", &e))?;
    Ok(store)
}

/// Connects to the database at `url` without changing it (`sygo admin`).
pub(super) fn connect(url: &str) -> Result<Postgres, String> {
    let (address, tls) = tls::split(url).map_err(|e| format!("database {}: {e}", describe(url)))?;
    let mut config = postgres::Config::from_str(&address)
        .map_err(|e| format!("database {}: not a PostgreSQL address: {e}", describe(url)))?;
    config.ssl_mode(tls.client_mode());
    let connector = tls
        .connector()
        .map_err(|e| format!("database {}: {e}", describe(url)))?;
    let mut client = config
        .connect(connector)
        .map_err(|e| format!("database {}: cannot connect: {}", describe(url), why(&e)))?;
    // A row held by another connection makes a write fail after 5 s, as
    // SQLite's busy timeout does, instead of waiting for ever.
    // PostgreSQL's notices ("already exists, skipping") are not for the
    // host's log.
    client
        .batch_execute("SET lock_timeout = '5s'; SET client_min_messages = warning")
        .map_err(|e| format!("database {}: cannot set it up: {e}", describe(url)))?;
    Ok(Postgres {
        client,
        statements: HashMap::new(),
    })
}

/// An error with what caused it: the client's own words for a failed TLS
/// handshake do not say why it failed ("invalid peer certificate: …").
fn why(e: &postgres::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        // rustls's error comes wrapped in an I/O error.
        let tls_error = cause.downcast_ref::<rustls::Error>().or_else(|| {
            cause
                .downcast_ref::<std::io::Error>()
                .and_then(|e| e.get_ref())
                .and_then(|e| e.downcast_ref::<rustls::Error>())
        });
        let said = match tls_error {
            Some(rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer)) => {
                "the server's certificate is not signed by an authority of sslrootcert".to_string()
            }
            _ => cause.to_string(),
        };
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        source = cause.source();
    }
    text
}

/// The address without its password, for messages and logs.
pub(crate) fn describe(url: &str) -> String {
    // An address whose TLS settings are wrong is still named (without them).
    let address = tls::split(url).map_or_else(
        |_| url.split('?').next().unwrap_or(url).to_string(),
        |(address, _)| address,
    );
    match postgres::Config::from_str(&address) {
        Ok(config) => {
            let user = config.get_user().unwrap_or("");
            let hosts: Vec<String> = config
                .get_hosts()
                .iter()
                .map(|h| match h {
                    postgres::config::Host::Tcp(name) => name.clone(),
                    #[cfg(unix)]
                    postgres::config::Host::Unix(path) => path.display().to_string(),
                })
                .collect();
            let port = config
                .get_ports()
                .first()
                .map_or(String::new(), |p| format!(":{p}"));
            format!(
                "postgres://{user}@{}{port}/{}",
                hosts.join(","),
                config.get_dbname().unwrap_or("")
            )
        }
        Err(_) => "(an address that cannot be read)".to_string(),
    }
}

/// Applies the migrations not applied yet, each in a transaction, under an
/// advisory lock.
fn migrate(client: &mut Client) -> Result<(), postgres::Error> {
    client.execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])?;
    let result = (|| {
        client.batch_execute(
            "CREATE TABLE IF NOT EXISTS sygo_migrations \
             (version BIGINT PRIMARY KEY, applied BIGINT NOT NULL)",
        )?;
        let done: i64 = client
            .query_one("SELECT coalesce(max(version), 0) FROM sygo_migrations", &[])?
            .get(0);
        for (version, sql) in (1_i64..).zip(MIGRATIONS) {
            if version <= done {
                continue;
            }
            let mut tx = client.transaction()?;
            tx.batch_execute(sql)?;
            tx.execute(
                "INSERT INTO sygo_migrations (version, applied) VALUES ($1, $2)",
                &[&version, &crate::time::now_ms()],
            )?;
            tx.commit()?;
        }
        Ok(())
    })();
    client.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])?;
    result
}

impl Postgres {
    /// The statement of `sql`, prepared once. The statements are written
    /// with SQLite's numbered parameters `?1`, `?2`; PostgreSQL's are `$1`,
    /// `$2`. No statement of the server has a `?` anywhere else.
    fn prepare(&mut self, sql: &str) -> Result<Statement, SqlError> {
        if let Some(st) = self.statements.get(sql) {
            return Ok(st.clone());
        }
        let st = self
            .client
            .prepare(&sql.replace('?', "$"))
            .map_err(classify)?;
        self.statements.insert(sql.to_string(), st.clone());
        Ok(st)
    }

    /// The turns of a batch with one statement: its parameters are arrays,
    /// one element a turn; the turns stored are those it returns. So a
    /// batch costs the same round trips whatever its size.
    fn insert_turns(&mut self, turns: &[&TurnRow]) -> Result<Vec<bool>, SqlError> {
        if turns.is_empty() {
            return Ok(Vec::new());
        }
        let st = self.prepare(
            "INSERT INTO turns (game_id, number, turn, played, color, clock) \
             SELECT t.game_id, t.number, t.turn, t.played, t.color, t.clock \
             FROM unnest(?1::TEXT[], ?2::BIGINT[], ?3::TEXT[], ?4::BIGINT[], ?5::TEXT[], \
                         ?6::TEXT[], ?7::BIGINT[]) \
                 AS t (game_id, number, turn, played, color, clock, undos) \
             WHERE (SELECT undos FROM games WHERE id = t.game_id) = t.undos \
             ON CONFLICT DO NOTHING \
             RETURNING game_id, number",
        )?;
        let game_ids: Vec<&str> = turns.iter().map(|t| t.game_id.as_str()).collect();
        let numbers: Vec<i64> = turns.iter().map(|t| i64::from(t.number)).collect();
        let notations: Vec<&str> = turns.iter().map(|t| t.turn.as_str()).collect();
        let played: Vec<i64> = turns.iter().map(|t| t.played).collect();
        let colors: Vec<Option<&str>> = turns.iter().map(|t| t.color.as_deref()).collect();
        let clocks: Vec<Option<&str>> = turns.iter().map(|t| t.clock.as_deref()).collect();
        let undos: Vec<i64> = turns.iter().map(|t| t.undos).collect();
        let stored = self
            .client
            .query(
                &st,
                &[
                    &game_ids, &numbers, &notations, &played, &colors, &clocks, &undos,
                ],
            )
            .map_err(classify)?;
        let stored: HashSet<(String, i64)> = stored
            .iter()
            .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
            .collect::<Result<_, postgres::Error>>()
            .map_err(classify)?;
        Ok(turns
            .iter()
            .map(|t| stored.contains(&(t.game_id.clone(), i64::from(t.number))))
            .collect())
    }

    /// Tells every server listening that accounts changed (delivered when
    /// the transaction commits).
    pub(super) fn notify(&mut self) -> Result<(), SqlError> {
        self.run(&format!("NOTIFY {CHANNEL}"))
    }
}

impl Store for Postgres {
    fn as_sql(&mut self) -> &mut dyn Sql {
        self
    }

    /// Never: the listener hears of other programs' changes ([`listen`]).
    fn changed_elsewhere(&mut self) -> bool {
        false
    }
}

/// Listens to the other servers and programs on the database at `url`, on
/// a thread and connection of its own, and hands what it hears to `heard`;
/// a lost connection is made again (with [`Heard::Reconnected`], since
/// notices were missed meanwhile). With `leader`, it also tries to lead the
/// clocks' watcher, and keeps `leader` true while it does. It ends when
/// `heard`'s receiver is dropped (the server stopped).
pub(super) fn listen(
    url: String,
    first: Postgres,
    heard: tokio::sync::mpsc::UnboundedSender<Heard>,
    leader: Option<Arc<AtomicBool>>,
) {
    let spawned = std::thread::Builder::new()
        .name("sygo-listen".to_string())
        .spawn(move || {
            let mut lost = false;
            let mut wait = Duration::from_millis(100);
            let mut first = Some(first);
            while !heard.is_closed() {
                let store = match first.take() {
                    Some(store) => Ok(store),
                    None => listening(&url),
                };
                let listened = store
                    .and_then(|store| listen_once(store, &heard, leader.as_deref(), &mut lost));
                if let Err(e) = listened {
                    tracing::warn!(error = %e, "listening to the other servers: trying again");
                    std::thread::sleep(wait);
                    wait = (wait * 2).min(Duration::from_secs(5));
                } else {
                    wait = Duration::from_millis(100);
                }
                if let Some(leader) = &leader {
                    leader.store(false, Ordering::SeqCst);
                }
            }
        });
    if let Err(e) = spawned {
        tracing::error!(error = %e, "cannot start the thread that listens to the other servers");
    }
}

/// A connection that listens to the other servers and programs.
pub(super) fn listening(url: &str) -> Result<Postgres, String> {
    let mut store = connect(url)?;
    store
        .client
        .batch_execute(&format!("LISTEN {}; LISTEN {CHANNEL}", notice::CHANNEL))
        .map_err(|e| format!("database {}: cannot listen: {e}", describe(url)))?;
    Ok(store)
}

/// One connection's listening, until it is lost (an error) or the server
/// stops (`Ok`).
fn listen_once(
    mut store: Postgres,
    heard: &tokio::sync::mpsc::UnboundedSender<Heard>,
    leader: Option<&AtomicBool>,
    lost: &mut bool,
) -> Result<(), String> {
    let client = &mut store.client;
    if std::mem::replace(lost, true) && heard.send(Heard::Reconnected).is_err() {
        return Ok(());
    }
    loop {
        if heard.is_closed() {
            return Ok(());
        }
        if let Some(leader) = leader
            && !leader.load(Ordering::SeqCst)
        {
            let took: bool = client
                .query_one("SELECT pg_try_advisory_lock($1)", &[&LEADER_LOCK])
                .map_err(|e| e.to_string())?
                .get(0);
            leader.store(took, Ordering::SeqCst);
        }
        // Every notification as it comes, for a tick at most (then the
        // lead and the server's stop are looked at again).
        let tick = std::time::Instant::now();
        {
            let mut notifications = client.notifications();
            let mut pending = notifications.timeout_iter(LISTEN_TICK);
            while let Some(n) = pending.next().map_err(|e| e.to_string())? {
                let told = if n.channel() == notice::CHANNEL {
                    match serde_json::from_str(n.payload()) {
                        Ok(notice) => Heard::Notice(notice),
                        Err(e) => {
                            tracing::warn!(
                                error = %e,
                                "a notice that does not read: reading everything again"
                            );
                            Heard::Reconnected
                        }
                    }
                } else {
                    Heard::Accounts
                };
                if heard.send(told).is_err() {
                    return Ok(());
                }
                if tick.elapsed() >= LISTEN_TICK {
                    break;
                }
            }
        }
        if client.is_closed() {
            return Err("the connection closed".to_string());
        }
    }
}

impl ToSql for Value<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match *self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(i) => match *ty {
                Type::INT4 => i32::try_from(i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(i)?.to_sql(ty, out),
                _ => i.to_sql(ty, out),
            },
            Value::Real(x) => x.to_sql(ty, out),
            Value::Text(s) => s.to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

impl Sql for Postgres {
    fn locks_rows(&self) -> bool {
        true
    }

    fn run(&mut self, sql: &str) -> Result<(), SqlError> {
        self.client.batch_execute(sql).map_err(classify)
    }

    fn execute(&mut self, sql: &str, params: &[Value<'_>]) -> Result<u64, SqlError> {
        let st = self.prepare(sql)?;
        let params: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p as _).collect();
        self.client.execute(&st, &params).map_err(classify)
    }

    /// [`Postgres::insert_turns`].
    fn insert_turns_at_once(&mut self, turns: &[&TurnRow]) -> Option<Result<Vec<bool>, SqlError>> {
        Some(self.insert_turns(turns))
    }

    fn query(&mut self, sql: &str, params: &[Value<'_>]) -> Result<Vec<Row>, SqlError> {
        let st = self.prepare(sql)?;
        let params: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p as _).collect();
        let rows = self.client.query(&st, &params).map_err(classify)?;
        rows.iter()
            .map(|row| {
                (0..row.len())
                    .map(|i| cell(row, i))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Row)
            })
            .collect()
    }
}

/// The `i`-th column of `row` as a [`Cell`].
fn cell(row: &postgres::Row, i: usize) -> Result<Cell, SqlError> {
    let ty = row.columns()[i].type_().clone();
    let read = |e: postgres::Error| SqlError::Failed(e.to_string());
    Ok(match ty {
        Type::INT8 => row
            .try_get::<_, Option<i64>>(i)
            .map_err(read)?
            .map_or(Cell::Null, Cell::Int),
        Type::INT4 => row
            .try_get::<_, Option<i32>>(i)
            .map_err(read)?
            .map_or(Cell::Null, |n| Cell::Int(n.into())),
        Type::INT2 => row
            .try_get::<_, Option<i16>>(i)
            .map_err(read)?
            .map_or(Cell::Null, |n| Cell::Int(n.into())),
        Type::BOOL => row
            .try_get::<_, Option<bool>>(i)
            .map_err(read)?
            .map_or(Cell::Null, |b| Cell::Int(b.into())),
        Type::FLOAT8 => row
            .try_get::<_, Option<f64>>(i)
            .map_err(read)?
            .map_or(Cell::Null, Cell::Real),
        Type::FLOAT4 => row
            .try_get::<_, Option<f32>>(i)
            .map_err(read)?
            .map_or(Cell::Null, |x| Cell::Real(x.into())),
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => row
            .try_get::<_, Option<String>>(i)
            .map_err(read)?
            .map_or(Cell::Null, Cell::Text),
        other => {
            return Err(SqlError::Failed(format!(
                "column {i} has the type {other}, which the server does not read"
            )));
        }
    })
}

/// A taken key is a duplicate; anything else a failure.
fn classify(e: postgres::Error) -> SqlError {
    let why = match e.as_db_error() {
        Some(db) => format!("{}: {}", db.severity(), db.message()),
        None => e.to_string(),
    };
    if e.code() == Some(&SqlState::UNIQUE_VIOLATION) {
        SqlError::Duplicate(why)
    } else {
        SqlError::Failed(why)
    }
}

/// A database of its own on the PostgreSQL server that
/// `SYGO_TEST_POSTGRES` names (`scripts/test.sh` starts one), for the
/// stores' unit tests; dropped with it. `None` when no server is named:
/// the tests that take one then check SQLite only.
#[cfg(test)]
pub(super) struct TestDatabase {
    server: String,
    name: String,
    store: Option<Postgres>,
}

#[cfg(test)]
impl TestDatabase {
    pub(super) fn new(label: &str) -> Option<TestDatabase> {
        let server = std::env::var("SYGO_TEST_POSTGRES")
            .ok()
            .filter(|s| !s.is_empty())?;
        let server = server.trim_end_matches('/').to_string();
        let name = format!("unit_{}_{label}", std::process::id());
        let mut admin = connect(&format!("{server}/postgres")).unwrap();
        admin
            .run(&format!("DROP DATABASE IF EXISTS {name}"))
            .unwrap();
        admin.run(&format!("CREATE DATABASE {name}")).unwrap();
        let store = open(&format!("{server}/{name}")).unwrap();
        Some(TestDatabase {
            server,
            name,
            store: Some(store),
        })
    }

    /// The connection to the database.
    pub(super) fn store(&mut self) -> &mut Postgres {
        self.store.as_mut().expect("open until dropped")
    }
}

#[cfg(test)]
impl Drop for TestDatabase {
    fn drop(&mut self) {
        // The store's connection first, or the database is in use.
        drop(self.store.take());
        if let Ok(mut admin) = connect(&format!("{}/postgres", self.server)) {
            let _ = admin.run(&format!("DROP DATABASE {}", self.name));
        }
    }
}
