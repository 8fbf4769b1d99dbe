//! The database: where every game, turn, account and session is kept.
//! Two stores take the same statements: SQLite, embedded, a file beside the
//! server (`sqlite.rs`, the default), and PostgreSQL, for a server that
//! outgrows one machine (`postgres.rs`). The statements are in
//! `statements.rs`, written once for both.
//!
//! One thread owns the writer's connection and does every write. Requests
//! queue up on a channel; the thread takes all that are waiting and commits
//! them in one transaction (group commit: one disk flush for many turns),
//! each in a savepoint of its own so that one refused row (a turn number
//! already stored) refuses only its request. A request is answered after
//! its commit, so a turn is acknowledged only once it is durable.
//!
//! Reads happen at start: every game with its turns, every account with its
//! sessions and seats. Another program may change accounts while the
//! server runs (`sygo admin`): the writer thread notices within a second
//! and reads the accounts again for the server ([`AccountsChanged`]). What
//! other servers on a PostgreSQL database change is read on a connection of
//! its own: a game, or the accounts a notice names ([`Db::load_accounts_of`]).

mod notice;
pub(crate) use notice::{AccountsRead, GameNotice, Notice, PresenceNotice};
mod postgres;
pub(crate) mod sql;
mod sqlite;
mod statements;
mod tls;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use sygo_rules::Color;
use tokio::sync::oneshot;

use crate::ratings::RatingChange;
pub(crate) use sql::Sql;
use statements::load_accounts;

/// Most writes committed together.
const MAX_BATCH: usize = 256;

/// How long a server waits at start for another server to let the database
/// go (one server a database: the servers keep the games in memory, so a
/// second would not see the first's turns), and how often it looks.
const LOCK_WAIT: Duration = Duration::from_secs(5);
const LOCK_POLL: Duration = Duration::from_millis(100);

/// Why a server cannot use a database another one holds.
const ANOTHER_SERVER: &str =
    "another sygo serve is running on this database (one server a database: stop the other first)";

/// Where a server keeps its games: a SQLite file, or a PostgreSQL database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// A SQLite database file, created if missing.
    Sqlite(PathBuf),
    /// A PostgreSQL database's address (`postgres://user:password@host/db`,
    /// or any form `libpq` takes); its schema is created or brought up to
    /// date at start.
    Postgres(String),
}

impl Database {
    /// A `postgres://` or `postgresql://` address names a PostgreSQL
    /// database; anything else is a SQLite file's path.
    pub fn parse(text: &str) -> Database {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Database::Postgres(text.to_string())
        } else {
            Database::Sqlite(PathBuf::from(text))
        }
    }

    /// The SQLite file's path, if it is one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Database::Sqlite(path) => Some(path),
            Database::Postgres(_) => None,
        }
    }
}

/// The path, or the address without its password.
impl fmt::Display for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => f.write_str(&postgres::describe(url)),
        }
    }
}

impl From<PathBuf> for Database {
    fn from(path: PathBuf) -> Database {
        Database::Sqlite(path)
    }
}

impl From<&Path> for Database {
    fn from(path: &Path) -> Database {
        Database::Sqlite(path.to_path_buf())
    }
}

impl From<&str> for Database {
    fn from(text: &str) -> Database {
        Database::parse(text)
    }
}

impl From<String> for Database {
    fn from(text: String) -> Database {
        Database::parse(&text)
    }
}

/// A row of the `games` table. Not `Debug`: it holds the sides' secrets,
/// which are never written to a log.
#[derive(Clone)]
pub(crate) struct GameRow {
    pub id: String,
    pub variant: String,
    pub size: u8,
    pub komi: f64,
    /// JSON of the side.
    pub black: String,
    /// JSON of the side.
    pub white: String,
    pub black_token: Option<String>,
    pub white_token: Option<String>,
    pub source: String,
    /// A position string.
    pub start: String,
    pub record: Option<String>,
    /// Unix milliseconds.
    pub created: i64,
    /// The client's id of the request that created the game (a secret).
    pub request_id: Option<String>,
    /// How many times turns were taken back.
    pub undos: i64,
    /// JSON of the time control, if the game has a clock.
    pub time_control: Option<String>,
    /// A rated game's accounts, Black's and White's.
    pub rated: Option<[i64; 2]>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
}

#[cfg(test)]
impl GameRow {
    /// A game between humans on an empty 9×9 board, for the store's tests.
    pub(crate) fn for_test(id: &str) -> GameRow {
        GameRow {
            id: id.to_string(),
            variant: "sygo".to_string(),
            size: 9,
            komi: 0.0,
            black: "{}".to_string(),
            white: "{}".to_string(),
            black_token: None,
            white_token: None,
            source: "played".to_string(),
            start: "sygo 9 9/9/9/9/9/9/9/9/9 w - 0".to_string(),
            record: None,
            created: 0,
            request_id: None,
            undos: 0,
            time_control: None,
            rated: None,
            rematch_of: None,
        }
    }
}

/// A row of the `accounts` table. Not `Debug`: it holds the password's
/// hash, which is never written to a log.
#[derive(Clone)]
pub(crate) struct AccountRow {
    pub id: i64,
    pub name: String,
    /// Argon2id as a PHC string.
    pub password_hash: String,
    /// Unix milliseconds.
    pub created: i64,
    pub disabled: bool,
    /// Unix milliseconds: when the account's vacation began, `None` while
    /// it is not on vacation.
    pub vacation_since: Option<i64>,
}

/// A row of the `vacations` table: a vacation that ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct VacationRow {
    pub account_id: i64,
    /// Unix milliseconds.
    pub started: i64,
    /// Unix milliseconds.
    pub ended: i64,
}

/// A row of the `clock_credits` table: the vacation time given back to the
/// running turn of a correspondence game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CreditRow {
    pub game_id: String,
    /// The number of turns played when it was credited (the running turn).
    pub turn: u32,
    /// The whole credit of that turn, in milliseconds.
    pub credit_ms: i64,
}

/// A row of the `sessions` table.
#[derive(Clone)]
pub(crate) struct SessionRow {
    /// SHA-256 of the cookie's secret, hexadecimal.
    pub secret_hash: String,
    pub account_id: i64,
    /// Unix milliseconds.
    pub created: i64,
    /// Unix milliseconds.
    pub expires: i64,
}

/// A row of the `seats` table: a side of a game that an account holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SeatRow {
    pub game_id: String,
    /// `black` or `white`.
    pub color: String,
    pub account_id: i64,
    /// Unix milliseconds.
    pub claimed: i64,
}

/// The accounts as stored: every account, the sessions that have not
/// expired, every seat, the vacations that ended, the rating changes not
/// annulled (oldest first), the challenges.
#[derive(Default)]
pub(crate) struct StoredAccounts {
    pub accounts: Vec<AccountRow>,
    pub sessions: Vec<SessionRow>,
    pub seats: Vec<SeatRow>,
    pub vacations: Vec<VacationRow>,
    pub rating_changes: Vec<RatingChange>,
    pub challenges: Vec<ChallengeRow>,
}

/// A row of the `challenges` table.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ChallengeRow {
    pub id: String,
    pub account_id: i64,
    pub opponent_id: Option<i64>,
    /// JSON of the terms.
    pub terms: String,
    /// Unix milliseconds.
    pub created: i64,
    /// `open`, `accepted` or `withdrawn`.
    pub state: String,
    pub game_id: Option<String>,
}

/// Everything read at start.
pub(crate) struct Stored {
    pub games: Vec<StoredGame>,
    pub accounts: StoredAccounts,
}

/// What the server is told when another program changed the database: the
/// accounts as they now stand.
pub(crate) type AccountsChanged = Box<dyn Fn(StoredAccounts) + Send>;

/// A row of the `turns` table.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct TurnRow {
    pub game_id: String,
    /// 1 for the first turn.
    pub number: u32,
    pub turn: String,
    /// Unix milliseconds.
    pub played: i64,
    /// `black` or `white`; `None` in rows from before colours were stored.
    pub color: Option<String>,
    /// JSON of each side's time left after the turn (a game with a clock).
    pub clock: Option<String>,
    /// The game's count of undos the turn was played on: it is stored only
    /// if the game's count is still that (not a column of `turns`: another
    /// server may have taken turns back meanwhile).
    pub undos: i64,
}

/// A game as stored: its row, its turns in order, and its review if one
/// was asked for.
pub(crate) struct StoredGame {
    pub row: GameRow,
    pub turns: Vec<StoredTurn>,
    pub review: Option<StoredReview>,
    pub chat: Vec<ChatRow>,
    /// Each side's conditional turns as JSON, by colour name.
    pub conditionals: Vec<(String, String)>,
    /// The vacation time credited to a turn: (the turns played when it was
    /// credited, milliseconds).
    pub credits: Vec<(u32, i64)>,
    /// The last undo request declined, if any.
    pub undo_declined: Option<UndoDeclinedRow>,
    /// The offers stored (stale ones included: `Entry::from_stored` keeps
    /// those that still hold).
    pub offers: Vec<OfferRow>,
}

/// A row of the `offers` table: an undo request or a rematch offer
/// standing in a game, which holds while the game is as it was then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OfferRow {
    pub game_id: String,
    pub kind: OfferKind,
    /// `black` or `white`: the side that made it.
    pub color: String,
    /// The turns played when it was made.
    pub turn_number: u32,
    /// The game's count of undos then.
    pub undos: i64,
}

/// What an offer offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OfferKind {
    /// To take back the asking side's last turn.
    Undo,
    /// A rematch, once the game is over.
    Rematch,
}

impl OfferKind {
    /// The `kind` column.
    pub(crate) fn name(self) -> &'static str {
        match self {
            OfferKind::Undo => "undo",
            OfferKind::Rematch => "rematch",
        }
    }

    /// From the `kind` column.
    pub(crate) fn from_name(name: &str) -> Option<OfferKind> {
        match name {
            "undo" => Some(OfferKind::Undo),
            "rematch" => Some(OfferKind::Rematch),
            _ => None,
        }
    }
}

/// Work that waits in the `jobs` table for whichever server or worker
/// takes it first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JobKind {
    /// The AI's turn in a game where it is to move.
    Ai,
    /// The AI's review of a game.
    Review,
}

impl JobKind {
    /// The `kind` column.
    pub(crate) fn name(self) -> &'static str {
        match self {
            JobKind::Ai => "ai",
            JobKind::Review => "review",
        }
    }
}

/// Where a review's job stands (`Db::review_job`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ReviewJob {
    /// No job: never asked for, or finished.
    None,
    /// Waiting behind `ahead` reviews (those running included).
    Queued { ahead: usize },
    /// Taken by a server or worker that still holds it.
    Running,
}

/// A row of the `undo_declines` table: a game's last undo request
/// declined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct UndoDeclinedRow {
    pub game_id: String,
    /// `black` or `white`: the side that asked.
    pub color: String,
    /// The turns played when it was declined.
    pub turn_number: u32,
    /// The game's count of undos then.
    pub undos: i64,
}

/// A row of the `chat` table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ChatRow {
    pub game_id: String,
    pub number: u32,
    pub color: String,
    pub text: String,
    /// Unix milliseconds.
    pub at: i64,
}

/// A game's review as stored: whether it still waits (or was running when
/// the server stopped), when it was asked for, the positions analysed.
pub(crate) struct StoredReview {
    /// Unix milliseconds of the request.
    pub requested: i64,
    pub pending: bool,
    pub positions: Vec<PositionRow>,
}

/// A row of the `review_positions` table.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PositionRow {
    /// The position after this many turns.
    pub turn: u32,
    /// The position's hash, its bits as a signed integer.
    pub hash: i64,
    /// Black's win probability.
    pub win_rate: f64,
    /// Black's expected margin with the komi.
    pub score_lead: f64,
    /// The best turn, `None` where the game is over.
    pub best: Option<String>,
    pub visits: i64,
    /// A JSON array of each point's owner, −100 to 100.
    pub ownership: String,
}

/// A stored turn: its notation, when it was played, by whom if stored.
#[derive(Debug)]
pub(crate) struct StoredTurn {
    pub turn: String,
    pub played: i64,
    pub color: Option<String>,
    pub clock: Option<String>,
}

/// What to write.
enum Write {
    /// Nothing stored: a statement run to show the database answers.
    Ping,
    /// A new game, with the turns it starts with (an uploaded record's),
    /// and the AI's job if it is to move.
    Game(Box<GameRow>, Vec<TurnRow>, AiJob),
    /// One more turn of a game, the rating changes if it ends a rated game,
    /// and what becomes of the AI's job (all or nothing).
    Turn(TurnRow, Vec<RatingChange>, AiJob),
    /// Turns taken back: every turn after the first `keep` is deleted and
    /// the game's count of undos set to `undos`, if the game is as the
    /// server saw it (`played` turns, `undos - 1` undos; else
    /// [`WriteError::Duplicate`]).
    Undo {
        game_id: String,
        played: u32,
        keep: u32,
        undos: i64,
        job: AiJob,
    },
    /// An offer made (an undo request replaces a stale one or the same
    /// side's; a rematch offer where the other side's holds is
    /// [`WriteError::Duplicate`]).
    Offer(OfferRow),
    /// A side's offer of a kind withdrawn.
    WithdrawOffer {
        game_id: String,
        kind: OfferKind,
        color: String,
    },
    /// Nothing stored: a side's page is open (`present`) or closing, told
    /// to the other servers (a notice alone; see `notice.rs`).
    Presence {
        game_id: String,
        color: String,
        present: bool,
    },
    /// A review asked for (`pending`: its job queued) or finished (its job
    /// done).
    Review {
        game_id: String,
        requested: i64,
        pending: bool,
    },
    /// A position of a review, analysed (replacing an older analysis).
    ReviewPosition { game_id: String, row: PositionRow },
    /// A new account ([`WriteError::Duplicate`] when its name is taken).
    Account(AccountRow),
    /// A new password; every session of the account but `keep` ends.
    Password {
        account_id: i64,
        password_hash: String,
        keep: String,
    },
    /// A new session.
    Session(SessionRow),
    /// A session of an account ended (signed out).
    EndSession {
        secret_hash: String,
        account_id: i64,
    },
    /// A session's expiry moved on (it is in use).
    RenewSession { secret_hash: String, expires: i64 },
    /// Sides of games claimed by an account.
    Seats(Vec<SeatRow>),
    /// A line of a game's chat.
    Chat(ChatRow),
    /// A game's undo request declined (replacing the one before).
    UndoDeclined(UndoDeclinedRow),
    /// A side's conditional turns set (JSON) or cleared (`None`).
    Conditional {
        game_id: String,
        color: String,
        tree: Option<String>,
    },
    /// A new challenge.
    Challenge(ChallengeRow),
    /// A challenge withdrawn (the accounts it names: its challenger, its
    /// opponent if it has one).
    Withdraw {
        id: String,
        challenger: i64,
        opponent: Option<i64>,
    },
    /// A challenge accepted: the game it starts, its seats, the challenge's
    /// new state (all or nothing); its challenger.
    Accept {
        game: Box<GameRow>,
        seats: Vec<SeatRow>,
        challenge: String,
        challenger: i64,
    },
    /// An account's vacation begins.
    VacationOn { account_id: i64, since: i64 },
    /// An account's vacation ends: the vacation kept, the account off
    /// vacation, and the time credited to its games' running turns (all or
    /// nothing).
    VacationOff {
        vacation: VacationRow,
        credits: Vec<CreditRow>,
    },
}

/// What a write does to the AI's job of its game (the `jobs` table): with
/// several servers on one database, whoever takes the job plays the AI's
/// turn, and a job whose taker was killed is taken again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AiJob {
    /// Nothing (a game without the AI).
    Unchanged,
    /// The AI is not to move: no job.
    Done,
    /// The AI is to move: a job, taken by a server that plays it at once
    /// (its name, and until when), or by no one yet.
    Due { taken: Option<(String, i64)> },
}

/// Why a write was not committed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum WriteError {
    /// The key is taken: that turn number (or game id) is already stored.
    Duplicate,
    /// The database failed; the reason for the log.
    Failed(String),
}

/// What the writer thread is sent.
enum Message {
    /// A write to commit.
    Write(Request),
    /// Commit what came before, then let the database go: the server has
    /// stopped, and whatever its tasks still send is refused.
    Close,
}

/// A write and who waits for it.
struct Request {
    write: Write,
    reply: oneshot::Sender<Result<(), WriteError>>,
}

/// Why the database could not be opened.
#[derive(Debug)]
pub struct DbError(pub(crate) String);

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DbError {}

/// The handle of the writer thread, and the reading connection.
pub(crate) struct Db {
    requests: mpsc::Sender<Message>,
    /// Dropped with the handle: the SQLite store's checkpoint thread then
    /// ends.
    _checkpoints: mpsc::Sender<()>,
    /// `Db::instance`.
    instance: String,
    /// A connection of its own for the reads while the server runs (a game
    /// another server changed, the jobs), so that they never wait behind
    /// the writer's batches.
    reader: Arc<parking_lot::Mutex<Option<Box<dyn Sql + Send>>>>,
    /// The listening connection, from the start until [`Db::listen`]
    /// hands it to its thread.
    listener: parking_lot::Mutex<Option<postgres::Postgres>>,
    /// The PostgreSQL address, when other servers may share the database.
    shared: Option<String>,
    /// Whether this server plays the AI's turns (`Db::takes_ai`).
    takes_ai: bool,
}

/// A server's name among those sharing a database: 64 bits from the
/// system's random source (the process id and the time if it fails).
fn instance_name() -> String {
    use rand::TryRng;
    let mut bytes = [0u8; 8];
    let n = if rand::rngs::SysRng.try_fill_bytes(&mut bytes).is_ok() {
        u64::from_le_bytes(bytes)
    } else {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        nanos ^ (u64::from(std::process::id()) << 32)
    };
    format!("{n:016x}")
}

impl Drop for Db {
    /// The reading connection is let go of on a thread of its own: the
    /// PostgreSQL client's own runtime cannot run on an async thread,
    /// where the last handle may be dropped.
    fn drop(&mut self) {
        let reader = self.reader.lock().take();
        let listener = self.listener.lock().take();
        let _ = thread::Builder::new()
            .name("sygo-db-close".to_string())
            .spawn(move || drop((reader, listener)));
    }
}

/// What a server hears from the others on its database.
#[derive(Debug)]
pub(crate) enum Heard {
    /// Another server (or this one: see `Notice::from`) committed.
    Notice(Notice),
    /// `sygo admin` changed the accounts.
    Accounts,
    /// The listening connection was lost and is back: notices may have been
    /// missed meanwhile, so everything is read again.
    Reconnected,
}

impl Db {
    /// Opens (or creates) the database, brings its schema up to date,
    /// reads every game and account, and starts the writer thread, which
    /// calls `changed` when another program changes the accounts.
    pub(crate) fn open(
        database: &Database,
        changed: AccountsChanged,
        takes_ai: bool,
    ) -> Result<(Db, Stored), DbError> {
        // The SQLite store's checkpoint thread ends when this is dropped.
        let (checkpoints, stop) = mpsc::channel();
        let mut store: Box<dyn Store> = match database {
            Database::Sqlite(path) => Box::new(sqlite::open(path, stop)?),
            Database::Postgres(url) => Box::new(postgres::open(url)?),
        };
        let fail =
            |what: &str, e: &dyn fmt::Display| DbError(format!("database {database}: {what}: {e}"));
        // Listening starts before the reading, so that nothing another
        // server commits in between is missed.
        let listener = match database {
            Database::Sqlite(_) => None,
            Database::Postgres(url) => Some(postgres::listening(url).map_err(DbError)?),
        };
        if let Database::Sqlite(_) = database {
            // The one server of the file: jobs a killed server held are
            // free at once.
            statements::free_jobs(store.as_sql()).map_err(|e| fail("cannot write it", &e))?;
        }
        let digested = statements::digest_plain_tokens(store.as_sql())
            .map_err(|e| fail("cannot write it", &e))?;
        if digested > 0 {
            tracing::info!(
                games = digested,
                "side tokens stored as digests from now on"
            );
        }
        let games = statements::load(store.as_sql()).map_err(|e| fail("cannot read it", &e))?;
        let accounts = load_accounts(store.as_sql()).map_err(|e| fail("cannot read it", &e))?;
        let reader: Box<dyn Sql + Send> = match database {
            Database::Sqlite(path) => Box::new(sqlite::open_existing(path).map_err(DbError)?),
            Database::Postgres(url) => Box::new(postgres::connect(url).map_err(DbError)?),
        };
        let shared = match database {
            Database::Sqlite(_) => None,
            Database::Postgres(url) => Some(url.clone()),
        };
        let instance = instance_name();
        let announce = shared.is_some().then(|| instance.clone());
        let (requests, queue) = mpsc::channel();
        thread::Builder::new()
            .name("sygo-db".to_string())
            .spawn(move || writer(store, queue, changed, announce))
            .map_err(|e| fail("cannot start its thread", &e))?;
        Ok((
            Db {
                requests,
                _checkpoints: checkpoints,
                instance,
                reader: Arc::new(parking_lot::Mutex::new(Some(reader))),
                listener: parking_lot::Mutex::new(listener),
                shared,
                takes_ai,
            },
            Stored { games, accounts },
        ))
    }

    /// This server's name among those that share the database (random, new
    /// at each start): the taker of its jobs, the sender of its notices.
    pub(crate) fn instance(&self) -> &str {
        &self.instance
    }

    /// Whether this server plays the AI's turns: with other servers on the
    /// database, one that does not leaves them to the others and to `sygo
    /// worker`s (the jobs).
    pub(crate) fn takes_ai(&self) -> bool {
        self.takes_ai
    }

    /// Whether other servers may share the database (PostgreSQL): its
    /// games are then followed (`cluster.rs`), and the AI's turns are jobs.
    pub(crate) fn is_shared(&self) -> bool {
        self.shared.is_some()
    }

    /// Runs `read` on the reading connection (not the writer's), off the
    /// async threads.
    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&mut dyn Sql) -> Result<T, sql::SqlError> + Send + 'static,
    ) -> Result<T, WriteError> {
        let reader = self.reader.clone();
        tokio::task::spawn_blocking(move || match reader.lock().as_mut() {
            Some(conn) => read(&mut **conn),
            None => Err(sql::SqlError::Failed("the server has stopped".to_string())),
        })
        .await
        .map_err(|e| WriteError::Failed(e.to_string()))?
        .map_err(WriteError::from)
    }

    /// One game as the database has it now (`None`: no such game), read
    /// again when another server changed it.
    pub(crate) async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, WriteError> {
        let id = id.to_string();
        self.read(move |conn| statements::load_game(conn, &id))
            .await
    }

    /// Every game played here as the database has it now.
    pub(crate) async fn load_games(&self) -> Result<Vec<StoredGame>, WriteError> {
        self.read(statements::load).await
    }

    /// The accounts as the database has them now.
    pub(crate) async fn load_accounts(&self) -> Result<StoredAccounts, WriteError> {
        self.read(load_accounts).await
    }

    /// What [`Db::load_accounts`] reads, of the accounts `ids` only (the
    /// challenges that name one of them, as challenger or opponent): what
    /// another server changed of them.
    pub(crate) async fn load_accounts_of(
        &self,
        ids: Vec<i64>,
    ) -> Result<StoredAccounts, WriteError> {
        self.read(move |conn| statements::load_accounts_of(conn, &ids))
            .await
    }

    /// Takes up to `limit` jobs of a kind for this server until `until`,
    /// the longest waiting first; their games.
    pub(crate) async fn take_jobs(
        &self,
        kind: JobKind,
        until: i64,
        limit: i64,
    ) -> Result<Vec<String>, WriteError> {
        let taker = self.instance.clone();
        self.read(move |conn| statements::take_jobs(conn, kind, &taker, until, limit))
            .await
    }

    /// Takes the job of a kind of a game for this server until `until` if
    /// no one has it, its taker let it run out, or this server has it;
    /// whether it did.
    pub(crate) async fn take_job(
        &self,
        kind: JobKind,
        game_id: &str,
        until: i64,
    ) -> Result<bool, WriteError> {
        let (taker, id) = (self.instance.clone(), game_id.to_string());
        self.read(move |conn| statements::take_job(conn, kind, &id, &taker, until))
            .await
    }

    /// Keeps this server's job of a kind of a game until `until`; whether
    /// it still has it.
    pub(crate) async fn renew_job(
        &self,
        kind: JobKind,
        game_id: &str,
        until: i64,
    ) -> Result<bool, WriteError> {
        let (taker, id) = (self.instance.clone(), game_id.to_string());
        self.read(move |conn| statements::renew_job(conn, kind, &id, &taker, until))
            .await
    }

    /// Drops this server's job of a kind of a game (the AI's, where the AI
    /// is no longer to move; a review's, of a game that is gone).
    pub(crate) async fn drop_job(&self, kind: JobKind, game_id: &str) -> Result<(), WriteError> {
        let (taker, id) = (self.instance.clone(), game_id.to_string());
        self.read(move |conn| statements::drop_job(conn, kind, &id, &taker))
            .await
    }

    /// Where the review of a game stands in the jobs, as the database has
    /// it now.
    pub(crate) async fn review_job(&self, game_id: &str) -> Result<ReviewJob, WriteError> {
        let id = game_id.to_string();
        self.read(move |conn| statements::review_job(conn, &id))
            .await
    }

    /// How many reviews wait in the queue or run, as the database has it
    /// now.
    pub(crate) async fn reviews_queued(&self) -> Result<usize, WriteError> {
        self.read(statements::reviews_queued).await
    }

    /// A game's review as the database has it now (`None`: never asked
    /// for), read again when another server or a worker changed it.
    pub(crate) async fn load_review(
        &self,
        game_id: &str,
    ) -> Result<Option<StoredReview>, WriteError> {
        let id = game_id.to_string();
        self.read(move |conn| statements::load_review(conn, &id))
            .await
    }

    /// The id of the rematch of a game as the database has it now (`None`:
    /// none started).
    pub(crate) async fn rematch_of(&self, game_id: &str) -> Result<Option<String>, WriteError> {
        let id = game_id.to_string();
        self.read(move |conn| statements::rematch_of(conn, &id))
            .await
    }

    /// Stores an offer; [`WriteError::Duplicate`] when the other side's
    /// rematch offer stands (the caller reads the game again).
    pub(crate) async fn offer(&self, row: OfferRow) -> Result<(), WriteError> {
        self.write(Write::Offer(row)).await
    }

    /// Withdraws a side's offer of a kind.
    pub(crate) async fn withdraw_offer(
        &self,
        game_id: &str,
        kind: OfferKind,
        color: Color,
    ) -> Result<(), WriteError> {
        self.write(Write::WithdrawOffer {
            game_id: game_id.to_string(),
            kind,
            color: color.lowercase().to_string(),
        })
        .await
    }

    /// Tells the other servers that a side's page is open or closing
    /// (nothing is stored; nothing is sent without other servers).
    pub(crate) async fn tell_presence(
        &self,
        game_id: &str,
        color: Color,
        present: bool,
    ) -> Result<(), WriteError> {
        if !self.is_shared() {
            return Ok(());
        }
        self.write(Write::Presence {
            game_id: game_id.to_string(),
            color: color.lowercase().to_string(),
            present,
        })
        .await
    }

    /// The id of the account of this name (in any case), if one is
    /// stored.
    pub(crate) async fn account_id(&self, name: &str) -> Result<Option<i64>, WriteError> {
        let key = name.to_ascii_lowercase();
        self.read(move |conn| statements::account_id(conn, &key))
            .await
    }

    /// The ids of the accounts stored from `first` on.
    pub(crate) async fn account_ids_from(&self, first: i64) -> Result<Vec<i64>, WriteError> {
        self.read(move |conn| statements::account_ids_from(conn, first))
            .await
    }

    /// A session (by its secret's hash), if it is stored, expired or not:
    /// its account and when it expires.
    pub(crate) async fn session(
        &self,
        secret_hash: &str,
    ) -> Result<Option<(i64, i64)>, WriteError> {
        let hash = secret_hash.to_string();
        self.read(move |conn| statements::session(conn, &hash))
            .await
    }

    /// Lets go of this server's jobs (it stops).
    pub(crate) async fn release_jobs(&self) -> Result<(), WriteError> {
        let taker = self.instance.clone();
        self.read(move |conn| statements::release_jobs(conn, &taker))
            .await
    }

    /// A job for the AI's turn in each of these games that has none.
    pub(crate) async fn ensure_ai_jobs(&self, games: Vec<String>) -> Result<(), WriteError> {
        self.read(move |conn| statements::ensure_ai_jobs(conn, &games))
            .await
    }

    /// Starts listening to the other servers on the database (PostgreSQL;
    /// `None` for SQLite): what they commit, and `sygo admin`'s changes.
    /// `leader`, if given, is kept true while this server holds the lead
    /// of the clocks' watcher (one server at a time).
    pub(crate) fn listen(
        &self,
        leader: Option<Arc<std::sync::atomic::AtomicBool>>,
    ) -> Option<tokio::sync::mpsc::UnboundedReceiver<Heard>> {
        let url = self.shared.clone()?;
        let first = self.listener.lock().take()?;
        let (heard, receiver) = tokio::sync::mpsc::unbounded_channel();
        postgres::listen(url, first, heard, leader);
        Some(receiver)
    }

    /// Stores a new account; [`WriteError::Duplicate`] when the name (in
    /// any case) is taken.
    pub(crate) async fn insert_account(&self, row: AccountRow) -> Result<(), WriteError> {
        self.write(Write::Account(row)).await
    }

    /// Stores a new password hash and ends every session of the account but
    /// the one whose hash is `keep`.
    pub(crate) async fn set_password(
        &self,
        account_id: i64,
        password_hash: String,
        keep: String,
    ) -> Result<(), WriteError> {
        self.write(Write::Password {
            account_id,
            password_hash,
            keep,
        })
        .await
    }

    /// Stores a new session.
    pub(crate) async fn insert_session(&self, row: SessionRow) -> Result<(), WriteError> {
        self.write(Write::Session(row)).await
    }

    /// Deletes a session of the account `account_id`.
    pub(crate) async fn end_session(
        &self,
        secret_hash: String,
        account_id: i64,
    ) -> Result<(), WriteError> {
        self.write(Write::EndSession {
            secret_hash,
            account_id,
        })
        .await
    }

    /// Moves a session's expiry on.
    pub(crate) async fn renew_session(
        &self,
        secret_hash: String,
        expires: i64,
    ) -> Result<(), WriteError> {
        self.write(Write::RenewSession {
            secret_hash,
            expires,
        })
        .await
    }

    /// Stores seats claimed together (all or none).
    pub(crate) async fn insert_seats(&self, seats: Vec<SeatRow>) -> Result<(), WriteError> {
        self.write(Write::Seats(seats)).await
    }

    /// Stores a new game (and the turns it starts with); returns once it is
    /// committed.
    pub(crate) async fn insert_game(
        &self,
        game: GameRow,
        turns: Vec<TurnRow>,
        job: AiJob,
    ) -> Result<(), WriteError> {
        self.write(Write::Game(Box::new(game), turns, job)).await
    }

    /// Stores a turn, with the rating changes if it ends a rated game;
    /// returns once it is committed. [`WriteError::Duplicate`] if that game
    /// already has that turn number (or those rating changes).
    pub(crate) async fn insert_turn(
        &self,
        turn: TurnRow,
        ratings: Vec<RatingChange>,
        job: AiJob,
    ) -> Result<(), WriteError> {
        self.write(Write::Turn(turn, ratings, job)).await
    }

    /// Stores a line of chat ([`WriteError::Duplicate`] if its number is
    /// taken).
    pub(crate) async fn insert_chat(&self, row: ChatRow) -> Result<(), WriteError> {
        self.write(Write::Chat(row)).await
    }

    /// Stores that a game's undo request was declined (its last one).
    pub(crate) async fn decline_undo(&self, row: UndoDeclinedRow) -> Result<(), WriteError> {
        self.write(Write::UndoDeclined(row)).await
    }

    /// Stores (or clears, with `None`) a side's conditional turns.
    pub(crate) async fn set_conditional(
        &self,
        game_id: &str,
        color: &str,
        tree: Option<String>,
    ) -> Result<(), WriteError> {
        self.write(Write::Conditional {
            game_id: game_id.to_string(),
            color: color.to_string(),
            tree,
        })
        .await
    }

    /// Stores a new challenge.
    pub(crate) async fn insert_challenge(&self, row: ChallengeRow) -> Result<(), WriteError> {
        self.write(Write::Challenge(row)).await
    }

    /// Stores that a challenge (of `challenger`, for `opponent` if it names
    /// one) is withdrawn.
    pub(crate) async fn withdraw_challenge(
        &self,
        id: String,
        challenger: i64,
        opponent: Option<i64>,
    ) -> Result<(), WriteError> {
        self.write(Write::Withdraw {
            id,
            challenger,
            opponent,
        })
        .await
    }

    /// Stores an accepted challenge's game, its seats and the challenge's
    /// state together (`challenger`: the account that posted it).
    pub(crate) async fn accept_challenge(
        &self,
        game: GameRow,
        seats: Vec<SeatRow>,
        challenge: String,
        challenger: i64,
    ) -> Result<(), WriteError> {
        self.write(Write::Accept {
            game: Box::new(game),
            seats,
            challenge,
            challenger,
        })
        .await
    }

    /// Stores that an account's vacation began at `since`.
    pub(crate) async fn vacation_on(&self, account_id: i64, since: i64) -> Result<(), WriteError> {
        self.write(Write::VacationOn { account_id, since }).await
    }

    /// Stores that an account's vacation ended, and the time it gives back
    /// to the running turns of its games, together.
    pub(crate) async fn vacation_off(
        &self,
        vacation: VacationRow,
        credits: Vec<CreditRow>,
    ) -> Result<(), WriteError> {
        self.write(Write::VacationOff { vacation, credits }).await
    }

    /// Takes back every turn of `game_id` after the first `keep` and
    /// stores the game's count of undos, if the game still has the
    /// `played` turns and the undos the server saw; returns once it is
    /// committed ([`WriteError::Duplicate`] if another server changed the
    /// game first).
    pub(crate) async fn undo(
        &self,
        game_id: &str,
        played: u32,
        keep: u32,
        undos: i64,
        job: AiJob,
    ) -> Result<(), WriteError> {
        self.write(Write::Undo {
            game_id: game_id.to_string(),
            played,
            keep,
            undos,
            job,
        })
        .await
    }

    /// Stores that a game's review is asked for (`pending`) or finished;
    /// returns once it is committed.
    pub(crate) async fn set_review(
        &self,
        game_id: &str,
        requested: i64,
        pending: bool,
    ) -> Result<(), WriteError> {
        self.write(Write::Review {
            game_id: game_id.to_string(),
            requested,
            pending,
        })
        .await
    }

    /// Stores the analysis of a position of a game's review; returns once
    /// it is committed.
    pub(crate) async fn insert_review_position(
        &self,
        game_id: &str,
        row: PositionRow,
    ) -> Result<(), WriteError> {
        self.write(Write::ReviewPosition {
            game_id: game_id.to_string(),
            row,
        })
        .await
    }

    /// Answers once the writer thread has run a statement on the database:
    /// the server's readiness (`/readyz`).
    pub(crate) async fn ping(&self) -> Result<(), WriteError> {
        self.write(Write::Ping).await
    }

    /// Lets the database go once the writes sent before are committed
    /// (the server stops): the writer's connection closes, which lets
    /// another server open the database; writes sent after are refused.
    pub(crate) fn close(&self) {
        let _ = self.requests.send(Message::Close);
    }

    async fn write(&self, write: Write) -> Result<(), WriteError> {
        let (reply, answer) = oneshot::channel();
        self.requests
            .send(Message::Write(Request { write, reply }))
            .map_err(|_| WriteError::Failed("the database thread has stopped".to_string()))?;
        answer
            .await
            .map_err(|_| WriteError::Failed("the database thread has stopped".to_string()))?
    }
}

/// A connection to one of the stores, as the writer thread uses it.
pub(crate) trait Store: Sql + Send {
    /// Whether another program changed the accounts since the last call
    /// (SQLite: another connection committed; PostgreSQL: a notification
    /// came).
    fn changed_elsewhere(&mut self) -> bool;

    /// The connection, to run statements on.
    fn as_sql(&mut self) -> &mut dyn Sql;
}

/// Opens a server's existing database for the host's commands (`sygo
/// admin`): a SQLite file must exist.
pub(crate) fn open_for_admin(database: &Database) -> Result<AdminStore, String> {
    match database {
        Database::Sqlite(path) => {
            sqlite::open_existing(path).map(|c| AdminStore(AdminConnection::Sqlite(c)))
        }
        Database::Postgres(url) => {
            postgres::connect(url).map(|c| AdminStore(AdminConnection::Postgres(Box::new(c))))
        }
    }
}

/// A connection for the host's commands.
pub(crate) struct AdminStore(AdminConnection);

enum AdminConnection {
    Sqlite(sqlite::Sqlite),
    Postgres(Box<postgres::Postgres>),
}

impl AdminStore {
    /// The connection, to run statements on.
    pub(crate) fn sql(&mut self) -> &mut dyn Sql {
        match &mut self.0 {
            AdminConnection::Sqlite(s) => s,
            AdminConnection::Postgres(p) => p.as_mut(),
        }
    }

    /// Tells running servers that accounts changed: PostgreSQL servers
    /// listen for it (delivered at commit); SQLite servers notice any
    /// commit by themselves.
    pub(crate) fn announce_change(&mut self) -> Result<(), sql::SqlError> {
        match &mut self.0 {
            AdminConnection::Sqlite(_) => Ok(()),
            AdminConnection::Postgres(p) => p.notify(),
        }
    }
}

/// How often the writer thread looks for changes made by another program.
const WATCH_INTERVAL: Duration = Duration::from_secs(1);

/// The writer thread: takes every request waiting, commits them together,
/// answers each; ends when every handle is dropped. When idle for
/// [`WATCH_INTERVAL`], and every [`WATCH_INTERVAL`] while busy, it asks the
/// store whether another program changed the accounts, and if so reads them again and hands them
/// to `changed`.
fn writer(
    mut store: Box<dyn Store>,
    queue: mpsc::Receiver<Message>,
    changed: AccountsChanged,
    announce: Option<String>,
) {
    let mut watched = Instant::now();
    let mut closing = false;
    while !closing {
        let first = match queue.recv_timeout(WATCH_INTERVAL) {
            Ok(Message::Write(request)) => Some(request),
            Ok(Message::Close) | Err(mpsc::RecvTimeoutError::Disconnected) => return,
            Err(mpsc::RecvTimeoutError::Timeout) => None,
        };
        // When idle, or a second after the last look while busy.
        if (first.is_none() || watched.elapsed() >= WATCH_INTERVAL) && {
            watched = Instant::now();
            store.changed_elsewhere()
        } {
            match load_accounts(store.as_sql()) {
                Ok(accounts) => changed(accounts),
                Err(e) => tracing::error!(error = %e, "the accounts could not be read again"),
            }
        }
        let Some(first) = first else { continue };
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(Message::Write(request)) => batch.push(request),
                Ok(Message::Close) => {
                    closing = true;
                    break;
                }
                Err(_) => break,
            }
        }
        let writes: Vec<&Write> = batch.iter().map(|r| &r.write).collect();
        let results = statements::commit(store.as_sql(), &writes, announce.as_deref());
        for (request, result) in batch.into_iter().zip(results) {
            // The one waiting may have gone (its connection closed): the
            // write stands all the same.
            let _ = request.reply.send(result);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(game_id: &str, number: u32, turn: &str, undos: i64) -> Write {
        Write::Turn(
            TurnRow {
                game_id: game_id.to_string(),
                number,
                turn: turn.to_string(),
                played: 1,
                color: Some("white".to_string()),
                clock: None,
                undos,
            },
            Vec::new(),
            AiJob::Unchanged,
        )
    }

    /// Writes committed together are stored as they would be one after
    /// another, whatever the batch: a refused one (a turn number stored
    /// already, in an earlier batch or earlier in the same one; a turn
    /// played before an undo) refuses only itself, the others are stored,
    /// and so are the writes of the next batch. The turns of a run of turn
    /// writes are stored with one statement (on PostgreSQL); a batch with
    /// a refused write of another kind is applied again, a write in a
    /// savepoint.
    fn batches_store_what_the_writes_one_after_another_would(conn: &mut dyn Sql) {
        let commit = |conn: &mut dyn Sql, writes: &[Write]| -> Vec<bool> {
            statements::commit(conn, &writes.iter().collect::<Vec<_>>(), None)
                .iter()
                .map(|r| match r {
                    Ok(()) => true,
                    Err(WriteError::Duplicate) => false,
                    Err(e) => panic!("a write failed: {e:?}"),
                })
                .collect()
        };
        let game = |id: &str| {
            Write::Game(
                Box::new(GameRow::for_test(id)),
                Vec::new(),
                AiJob::Unchanged,
            )
        };
        let chat = |number: u32| {
            Write::Chat(ChatRow {
                game_id: "0000abcd".to_string(),
                number,
                color: "black".to_string(),
                text: "hi".to_string(),
                at: 1,
            })
        };
        let (a, b) = ("0000abcd", "0000beef");
        let stored = commit(
            conn,
            &[
                game(a),
                turn(a, 1, "E5", 0),
                turn(a, 1, "C3", 0),
                turn(a, 2, "G7", 0),
                game(b),
                turn(b, 1, "D4", 0),
            ],
        );
        assert_eq!(stored, [true, true, false, true, true, true]);
        let stored = commit(
            conn,
            &[
                turn(a, 3, "A1", 0),
                turn(a, 2, "B2", 0),
                turn(b, 2, "C3", 1),
                turn(b, 2, "E5", 0),
                chat(1),
                turn(a, 4, "J9", 0),
                chat(1),
            ],
        );
        assert_eq!(stored, [true, false, false, true, true, true, false]);
        // A game stored already: the batch again, a write at a time.
        let stored = commit(conn, &[turn(a, 5, "F6", 0), game(b), turn(a, 5, "H8", 0)]);
        assert_eq!(stored, [true, false, false]);
        let stored: Vec<(String, String)> = conn
            .query(
                "SELECT game_id, turn FROM turns ORDER BY game_id, number",
                &[],
            )
            .unwrap()
            .iter()
            .map(|r| (r.get(0).unwrap(), r.get(1).unwrap()))
            .collect();
        let expected = [
            (a, "E5"),
            (a, "G7"),
            (a, "A1"),
            (a, "J9"),
            (a, "F6"),
            (b, "D4"),
            (b, "E5"),
        ];
        assert_eq!(
            stored,
            expected.map(|(g, t)| (g.to_string(), t.to_string()))
        );
        let chats = conn.query("SELECT number FROM chat", &[]).unwrap();
        assert_eq!(chats.len(), 1);
    }

    #[test]
    fn batches_store_what_the_writes_one_after_another_would_on_sqlite() {
        batches_store_what_the_writes_one_after_another_would(&mut sqlite::in_memory());
    }

    /// The same on PostgreSQL, when `SYGO_TEST_POSTGRES` names a server
    /// (`scripts/test.sh` runs it so, on the server it starts).
    #[test]
    fn batches_store_what_the_writes_one_after_another_would_on_postgres() {
        if let Some(mut db) = postgres::TestDatabase::new("batches") {
            batches_store_what_the_writes_one_after_another_would(db.store());
        }
    }

    #[test]
    fn an_address_names_its_store() {
        assert_eq!(
            Database::parse("postgres://ann@db.example/sygo"),
            Database::Postgres("postgres://ann@db.example/sygo".to_string())
        );
        assert_eq!(
            Database::parse("postgresql:///sygo"),
            Database::Postgres("postgresql:///sygo".to_string())
        );
        assert_eq!(
            Database::parse("games.db"),
            Database::Sqlite(PathBuf::from("games.db"))
        );
        // The password is never shown.
        let shown = Database::parse("postgres://ann:secret@db.example:5433/sygo").to_string();
        assert_eq!(shown, "postgres://ann@db.example:5433/sygo");
    }
}
