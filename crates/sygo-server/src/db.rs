//! The database: SQLite in WAL mode with `synchronous=FULL`, so that a
//! commit is on disk when it returns, and the schema in `migrations/`.
//!
//! One thread owns the connection and does every write. Requests queue up
//! on a channel; the thread takes all that are waiting and commits them in
//! one transaction (group commit: one disk flush for many turns), each in a
//! savepoint of its own so that one refused row (a turn number already
//! stored) refuses only its request. A request is answered after its commit,
//! so a turn is acknowledged only once it is durable. Another thread copies
//! the write-ahead log into the database (checkpoints) meanwhile, so that
//! the commits seldom wait for that copy.
//!
//! Reads happen at start: every game with its turns, every account with its
//! sessions and seats. Another program may change accounts while the
//! server runs (`sygo admin`): the writer thread notices a commit of another
//! connection (`PRAGMA data_version`) within a second and reads the
//! accounts again for the server ([`AccountsChanged`]).

use std::collections::HashMap;
use std::path::Path;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, params};
use rusqlite_migration::{M, Migrations};

use crate::ratings::RatingChange;
use tokio::sync::oneshot;

/// Most writes committed together.
const MAX_BATCH: usize = 256;

/// The schema, one migration per file.
fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("../migrations/0001_games_and_turns.sql")),
        M::up(include_str!("../migrations/0002_request_id.sql")),
        M::up(include_str!("../migrations/0003_resignations_and_undo.sql")),
        M::up(include_str!("../migrations/0004_reviews.sql")),
        M::up(include_str!("../migrations/0005_accounts.sql")),
        M::up(include_str!("../migrations/0006_clocks.sql")),
        M::up(include_str!("../migrations/0007_lobby_and_ratings.sql")),
        M::up(include_str!("../migrations/0008_etiquette.sql")),
        M::up(include_str!("../migrations/0009_conditional_turns.sql")),
        M::up(include_str!("../migrations/0010_vacation.sql")),
        M::up(include_str!("../migrations/0011_undo_declines.sql")),
    ])
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
#[derive(Clone, Debug)]
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
    /// A new game, with the turns it starts with (an uploaded record's).
    Game(Box<GameRow>, Vec<TurnRow>),
    /// One more turn of a game, and the rating changes if it ends a rated
    /// game (all or nothing).
    Turn(TurnRow, Vec<RatingChange>),
    /// Turns taken back: every turn after the first `keep` is deleted and
    /// the game's count of undos set.
    Undo {
        game_id: String,
        keep: u32,
        undos: i64,
    },
    /// A review asked for (`pending`) or finished.
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
    /// A session ended (signed out, or found expired).
    EndSession { secret_hash: String },
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
    /// A challenge withdrawn.
    Withdraw { id: String },
    /// A challenge accepted: the game it starts, its seats, the challenge's
    /// new state (all or nothing).
    Accept {
        game: Box<GameRow>,
        seats: Vec<SeatRow>,
        challenge: String,
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

/// Why a write was not committed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum WriteError {
    /// The key is taken: that turn number (or game id) is already stored.
    Duplicate,
    /// The database failed; the reason for the log.
    Failed(String),
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

/// The handle of the writer thread.
pub(crate) struct Db {
    requests: mpsc::Sender<Request>,
    /// Dropped with the handle: the checkpoint thread then ends.
    _checkpoints: mpsc::Sender<()>,
}

impl Db {
    /// Opens (or creates) the database at `path`, brings its schema up to
    /// date, reads every game and account, and starts the writer thread,
    /// which calls `changed` when another program changes the database.
    pub(crate) fn open(path: &Path, changed: AccountsChanged) -> Result<(Db, Stored), DbError> {
        let fail = |what: &str, e: &dyn std::fmt::Display| {
            DbError(format!("database {}: {what}: {e}", path.display()))
        };
        let mut conn = Connection::open(path).map_err(|e| fail("cannot open it", &e))?;
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
        let games = load(&conn).map_err(|e| fail("cannot read it", &e))?;
        let accounts = load_accounts(&conn).map_err(|e| fail("cannot read it", &e))?;
        // Every statement the writer runs stays prepared (the default keeps
        // 16).
        conn.set_prepared_statement_cache_capacity(64);
        let checkpoint_conn =
            Connection::open(path).map_err(|e| fail("cannot open it for checkpoints", &e))?;
        checkpoint_conn
            .execute_batch("PRAGMA synchronous=FULL; PRAGMA busy_timeout=5000;")
            .map_err(|e| fail("cannot set it up for checkpoints", &e))?;
        let (requests, queue) = mpsc::channel();
        thread::Builder::new()
            .name("sygo-db".to_string())
            .spawn(move || writer(conn, queue, changed))
            .map_err(|e| fail("cannot start its thread", &e))?;
        let (checkpoints, stop) = mpsc::channel();
        thread::Builder::new()
            .name("sygo-checkpoint".to_string())
            .spawn(move || checkpointer(checkpoint_conn, stop))
            .map_err(|e| fail("cannot start its thread", &e))?;
        Ok((
            Db {
                requests,
                _checkpoints: checkpoints,
            },
            Stored { games, accounts },
        ))
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

    /// Deletes a session.
    pub(crate) async fn end_session(&self, secret_hash: String) -> Result<(), WriteError> {
        self.write(Write::EndSession { secret_hash }).await
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
    ) -> Result<(), WriteError> {
        self.write(Write::Game(Box::new(game), turns)).await
    }

    /// Stores a turn, with the rating changes if it ends a rated game;
    /// returns once it is committed. [`WriteError::Duplicate`] if that game
    /// already has that turn number (or those rating changes).
    pub(crate) async fn insert_turn(
        &self,
        turn: TurnRow,
        ratings: Vec<RatingChange>,
    ) -> Result<(), WriteError> {
        self.write(Write::Turn(turn, ratings)).await
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

    /// Stores that a challenge is withdrawn.
    pub(crate) async fn withdraw_challenge(&self, id: String) -> Result<(), WriteError> {
        self.write(Write::Withdraw { id }).await
    }

    /// Stores an accepted challenge's game, its seats and the challenge's
    /// state together.
    pub(crate) async fn accept_challenge(
        &self,
        game: GameRow,
        seats: Vec<SeatRow>,
        challenge: String,
    ) -> Result<(), WriteError> {
        self.write(Write::Accept {
            game: Box::new(game),
            seats,
            challenge,
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
    /// stores the game's count of undos; returns once it is committed.
    pub(crate) async fn undo(
        &self,
        game_id: &str,
        keep: u32,
        undos: i64,
    ) -> Result<(), WriteError> {
        self.write(Write::Undo {
            game_id: game_id.to_string(),
            keep,
            undos,
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

    async fn write(&self, write: Write) -> Result<(), WriteError> {
        let (reply, answer) = oneshot::channel();
        self.requests
            .send(Request { write, reply })
            .map_err(|_| WriteError::Failed("the database thread has stopped".to_string()))?;
        answer
            .await
            .map_err(|_| WriteError::Failed("the database thread has stopped".to_string()))?
    }
}

/// Every review with its positions, by game.
fn load_reviews(conn: &Connection) -> rusqlite::Result<HashMap<String, StoredReview>> {
    let mut reviews = HashMap::new();
    let mut stmt = conn.prepare("SELECT game_id, requested, pending FROM reviews")?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            StoredReview {
                requested: r.get(1)?,
                pending: r.get::<_, i64>(2)? != 0,
                positions: Vec::new(),
            },
        ))
    })?;
    for row in rows {
        let (id, review) = row?;
        reviews.insert(id, review);
    }
    let mut stmt = conn.prepare(
        "SELECT game_id, turn, hash, win_rate, score_lead, best, visits, ownership \
         FROM review_positions ORDER BY game_id, turn",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
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
    })?;
    for row in rows {
        let (id, position) = row?;
        if let Some(review) = reviews.get_mut(&id) {
            review.positions.push(position);
        }
    }
    Ok(reviews)
}

/// Every game with its turns, oldest first.
fn load(conn: &Connection) -> rusqlite::Result<Vec<StoredGame>> {
    let mut reviews = load_reviews(conn)?;
    let mut chat: HashMap<String, Vec<ChatRow>> = HashMap::new();
    let mut stmt =
        conn.prepare("SELECT game_id, number, color, text, at FROM chat ORDER BY game_id, number")?;
    let rows = stmt.query_map([], |r| {
        Ok(ChatRow {
            game_id: r.get(0)?,
            number: r.get(1)?,
            color: r.get(2)?,
            text: r.get(3)?,
            at: r.get(4)?,
        })
    })?;
    for row in rows {
        let row = row?;
        chat.entry(row.game_id.clone()).or_default().push(row);
    }
    let mut conditionals: HashMap<String, Vec<(String, String)>> = HashMap::new();
    let mut stmt = conn.prepare("SELECT game_id, color, tree FROM conditionals")?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
        ))
    })?;
    for row in rows {
        let (game, color, tree) = row?;
        conditionals.entry(game).or_default().push((color, tree));
    }
    let mut credits: HashMap<String, Vec<(u32, i64)>> = HashMap::new();
    let mut stmt = conn.prepare("SELECT game_id, turn, credit_ms FROM clock_credits")?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, u32>(1)?,
            r.get::<_, i64>(2)?,
        ))
    })?;
    for row in rows {
        let (game, turn, ms) = row?;
        credits.entry(game).or_default().push((turn, ms));
    }
    let mut declined: HashMap<String, UndoDeclinedRow> = HashMap::new();
    let mut stmt = conn.prepare("SELECT game_id, color, turn_number, undos FROM undo_declines")?;
    let rows = stmt.query_map([], |r| {
        Ok(UndoDeclinedRow {
            game_id: r.get(0)?,
            color: r.get(1)?,
            turn_number: r.get(2)?,
            undos: r.get(3)?,
        })
    })?;
    for row in rows {
        let row = row?;
        declined.insert(row.game_id.clone(), row);
    }
    let mut turns: HashMap<String, Vec<StoredTurn>> = HashMap::new();
    let mut stmt = conn.prepare(
        "SELECT game_id, turn, played, color, clock FROM turns ORDER BY game_id, number",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            StoredTurn {
                turn: r.get(1)?,
                played: r.get(2)?,
                color: r.get(3)?,
                clock: r.get(4)?,
            },
        ))
    })?;
    for row in rows {
        let (id, turn) = row?;
        turns.entry(id).or_default().push(turn);
    }
    let mut stmt = conn.prepare(
        "SELECT id, variant, size, komi, black, white, black_token, white_token, \
         source, start, record, created, request_id, undos, time_control, rated_black, \
         rated_white, rematch_of FROM games ORDER BY created, id",
    )?;
    let rows = stmt.query_map([], |r| {
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
            rated: match (r.get::<_, Option<i64>>(15)?, r.get::<_, Option<i64>>(16)?) {
                (Some(b), Some(w)) => Some([b, w]),
                _ => None,
            },
            rematch_of: r.get(17)?,
        })
    })?;
    let mut games = Vec::new();
    for row in rows {
        let row = row?;
        let turns = turns.remove(&row.id).unwrap_or_default();
        let review = reviews.remove(&row.id);
        let chat = chat.remove(&row.id).unwrap_or_default();
        let conditionals = conditionals.remove(&row.id).unwrap_or_default();
        let credits = credits.remove(&row.id).unwrap_or_default();
        let undo_declined = declined.remove(&row.id);
        games.push(StoredGame {
            row,
            turns,
            review,
            chat,
            conditionals,
            credits,
            undo_declined,
        });
    }
    Ok(games)
}

/// How often the writer thread looks for changes made by another program.
const WATCH_INTERVAL: Duration = Duration::from_secs(1);
/// How often the checkpoint thread copies the log into the database (at
/// 100 ms, a writer's checkpoint still found up to 100 ms of pages to copy
/// and took about 12 ms).
const CHECKPOINT_INTERVAL: Duration = Duration::from_millis(20);

/// The writer thread: takes every request waiting, commits them together,
/// answers each; ends when every handle is dropped. Between batches, and at
/// least every [`WATCH_INTERVAL`], it asks SQLite whether another
/// connection committed (`PRAGMA data_version` changes only then), and if
/// so reads the accounts again and hands them to `changed`.
fn writer(mut conn: Connection, queue: mpsc::Receiver<Request>, changed: AccountsChanged) {
    let data_version = |conn: &Connection| -> Option<i64> {
        conn.prepare_cached("PRAGMA data_version")
            .and_then(|mut st| st.query_row([], |r| r.get(0)))
            .ok()
    };
    let mut seen = data_version(&conn);
    loop {
        let first = match queue.recv_timeout(WATCH_INTERVAL) {
            Ok(request) => Some(request),
            Err(mpsc::RecvTimeoutError::Timeout) => None,
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        let now = data_version(&conn);
        if now != seen {
            seen = now;
            match load_accounts(&conn) {
                Ok(accounts) => changed(accounts),
                Err(e) => eprintln!("sygo serve: reading the accounts again: {e}"),
            }
        }
        let Some(first) = first else { continue };
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(request) => batch.push(request),
                Err(_) => break,
            }
        }
        let results = commit(&mut conn, batch.iter().map(|r| &r.write));
        for (request, result) in batch.into_iter().zip(results) {
            // The one waiting may have gone (its connection closed): the
            // write stands all the same.
            let _ = request.reply.send(result);
        }
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
            eprintln!("sygo serve: a checkpoint of the database: {e}");
        }
    }
}

/// Commits the writes in one transaction, each in its own savepoint; the
/// result of each (all failed if the commit fails).
fn commit<'a>(
    conn: &mut Connection,
    writes: impl ExactSizeIterator<Item = &'a Write>,
) -> Vec<Result<(), WriteError>> {
    let n = writes.len();
    let failed = |e: rusqlite::Error| vec![Err(WriteError::Failed(e.to_string())); n];
    if let Err(e) = run_cached(conn, "BEGIN") {
        return failed(e);
    }
    let mut results = Vec::with_capacity(n);
    for write in writes {
        results.push(apply_in_savepoint(conn, write));
    }
    match run_cached(conn, "COMMIT") {
        Ok(()) => results,
        Err(e) => {
            let _ = run_cached(conn, "ROLLBACK");
            failed(e)
        }
    }
}

/// Runs a statement without parameters or rows, prepared once: the
/// transaction's and the savepoints' statements, parsed for every batch and
/// every write, were most of the writer's work.
fn run_cached(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([])?;
    Ok(())
}

/// One write in a savepoint: all of it or nothing.
fn apply_in_savepoint(conn: &Connection, write: &Write) -> Result<(), WriteError> {
    run_cached(conn, "SAVEPOINT write").map_err(classify)?;
    match apply(InSavepoint(conn), write) {
        Ok(()) => run_cached(conn, "RELEASE write").map_err(classify),
        Err(e) => {
            // Undone, and the savepoint let go of.
            let _ = run_cached(conn, "ROLLBACK TO write");
            let _ = run_cached(conn, "RELEASE write");
            Err(e)
        }
    }
}

/// The connection within the savepoint of one write; as rusqlite's
/// `Savepoint`, it is the connection to use.
struct InSavepoint<'a>(&'a Connection);

impl std::ops::Deref for InSavepoint<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.0
    }
}

/// A write's statements (in the savepoint `apply_in_savepoint` opened).
fn apply(sp: InSavepoint<'_>, write: &Write) -> Result<(), WriteError> {
    match write {
        Write::Game(game, turns) => {
            insert_game(&sp, game).map_err(classify)?;
            for turn in turns {
                insert_turn(&sp, turn).map_err(classify)?;
            }
        }
        Write::Turn(turn, ratings) => {
            insert_turn(&sp, turn).map_err(classify)?;
            for change in ratings {
                insert_rating_change(&sp, change).map_err(classify)?;
            }
        }
        Write::Chat(c) => {
            sp.prepare_cached(
                "INSERT INTO chat (game_id, number, color, text, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .and_then(|mut st| st.execute(params![c.game_id, c.number, c.color, c.text, c.at]))
            .map_err(classify)?;
        }
        Write::UndoDeclined(d) => {
            sp.prepare_cached(
                "INSERT OR REPLACE INTO undo_declines (game_id, color, turn_number, undos) \
                 VALUES (?1, ?2, ?3, ?4)",
            )
            .and_then(|mut st| st.execute(params![d.game_id, d.color, d.turn_number, d.undos]))
            .map_err(classify)?;
        }
        Write::Conditional {
            game_id,
            color,
            tree,
        } => match tree {
            Some(tree) => {
                sp.prepare_cached(
                    "INSERT OR REPLACE INTO conditionals (game_id, color, tree) VALUES (?1, ?2, ?3)",
                )
                .and_then(|mut st| st.execute(params![game_id, color, tree]))
                .map_err(classify)?;
            }
            None => {
                sp.prepare_cached("DELETE FROM conditionals WHERE game_id = ?1 AND color = ?2")
                    .and_then(|mut st| st.execute(params![game_id, color]))
                    .map_err(classify)?;
            }
        },
        Write::Challenge(c) => {
            sp.prepare_cached(
                "INSERT INTO challenges (id, account_id, opponent_id, terms, created, state, \
                 game_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )
            .and_then(|mut st| {
                st.execute(params![
                    c.id,
                    c.account_id,
                    c.opponent_id,
                    c.terms,
                    c.created,
                    c.state,
                    c.game_id
                ])
            })
            .map_err(classify)?;
        }
        Write::Withdraw { id } => {
            sp.prepare_cached("UPDATE challenges SET state = 'withdrawn' WHERE id = ?1")
                .and_then(|mut st| st.execute(params![id]))
                .map_err(classify)?;
        }
        Write::Accept {
            game,
            seats,
            challenge,
        } => {
            insert_game(&sp, game).map_err(classify)?;
            insert_seats(&sp, seats).map_err(classify)?;
            let changed = sp
                .prepare_cached(
                    "UPDATE challenges SET state = 'accepted', game_id = ?2 \
                     WHERE id = ?1 AND state = 'open'",
                )
                .and_then(|mut st| st.execute(params![challenge, game.id]))
                .map_err(classify)?;
            if changed != 1 {
                return Err(WriteError::Duplicate);
            }
        }
        Write::Undo {
            game_id,
            keep,
            undos,
        } => {
            sp.prepare_cached("DELETE FROM turns WHERE game_id = ?1 AND number > ?2")
                .and_then(|mut st| st.execute(params![game_id, keep]))
                .map_err(classify)?;
            sp.prepare_cached("UPDATE games SET undos = ?2 WHERE id = ?1")
                .and_then(|mut st| st.execute(params![game_id, undos]))
                .map_err(classify)?;
        }
        Write::Review {
            game_id,
            requested,
            pending,
        } => {
            sp.prepare_cached(
                "INSERT OR REPLACE INTO reviews (game_id, requested, pending) VALUES (?1, ?2, ?3)",
            )
            .and_then(|mut st| st.execute(params![game_id, requested, i64::from(*pending)]))
            .map_err(classify)?;
        }
        Write::ReviewPosition { game_id, row } => {
            sp.prepare_cached(
                "INSERT OR REPLACE INTO review_positions (game_id, turn, hash, win_rate, \
                 score_lead, best, visits, ownership) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )
            .and_then(|mut st| {
                st.execute(params![
                    game_id,
                    row.turn,
                    row.hash,
                    row.win_rate,
                    row.score_lead,
                    row.best,
                    row.visits,
                    row.ownership
                ])
            })
            .map_err(classify)?;
        }
        Write::Account(a) => {
            sp.prepare_cached(
                "INSERT INTO accounts (id, name, name_key, password_hash, created, disabled) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )
            .and_then(|mut st| {
                st.execute(params![
                    a.id,
                    a.name,
                    a.name.to_ascii_lowercase(),
                    a.password_hash,
                    a.created,
                    i64::from(a.disabled)
                ])
            })
            .map_err(classify)?;
        }
        Write::Password {
            account_id,
            password_hash,
            keep,
        } => {
            sp.prepare_cached("UPDATE accounts SET password_hash = ?2 WHERE id = ?1")
                .and_then(|mut st| st.execute(params![account_id, password_hash]))
                .map_err(classify)?;
            sp.prepare_cached("DELETE FROM sessions WHERE account_id = ?1 AND secret_hash <> ?2")
                .and_then(|mut st| st.execute(params![account_id, keep]))
                .map_err(classify)?;
        }
        Write::Session(row) => {
            sp.prepare_cached(
                "INSERT INTO sessions (secret_hash, account_id, created, expires) \
                 VALUES (?1, ?2, ?3, ?4)",
            )
            .and_then(|mut st| {
                st.execute(params![
                    row.secret_hash,
                    row.account_id,
                    row.created,
                    row.expires
                ])
            })
            .map_err(classify)?;
        }
        Write::EndSession { secret_hash } => {
            sp.prepare_cached("DELETE FROM sessions WHERE secret_hash = ?1")
                .and_then(|mut st| st.execute(params![secret_hash]))
                .map_err(classify)?;
        }
        Write::RenewSession {
            secret_hash,
            expires,
        } => {
            sp.prepare_cached("UPDATE sessions SET expires = ?2 WHERE secret_hash = ?1")
                .and_then(|mut st| st.execute(params![secret_hash, expires]))
                .map_err(classify)?;
        }
        Write::Seats(seats) => insert_seats(&sp, seats).map_err(classify)?,
        Write::VacationOn { account_id, since } => {
            sp.prepare_cached("UPDATE accounts SET vacation_since = ?2 WHERE id = ?1")
                .and_then(|mut st| st.execute(params![account_id, since]))
                .map_err(classify)?;
        }
        Write::VacationOff { vacation, credits } => {
            sp.prepare_cached("UPDATE accounts SET vacation_since = NULL WHERE id = ?1")
                .and_then(|mut st| st.execute(params![vacation.account_id]))
                .map_err(classify)?;
            sp.prepare_cached(
                "INSERT INTO vacations (account_id, started, ended) VALUES (?1, ?2, ?3)",
            )
            .and_then(|mut st| {
                st.execute(params![
                    vacation.account_id,
                    vacation.started,
                    vacation.ended
                ])
            })
            .map_err(classify)?;
            for c in credits {
                sp.prepare_cached(
                    "INSERT OR REPLACE INTO clock_credits (game_id, turn, credit_ms) \
                     VALUES (?1, ?2, ?3)",
                )
                .and_then(|mut st| st.execute(params![c.game_id, c.turn, c.credit_ms]))
                .map_err(classify)?;
            }
        }
    }
    Ok(())
}

/// Every account, the sessions that have not expired, every seat.
pub(crate) fn load_accounts(conn: &Connection) -> rusqlite::Result<StoredAccounts> {
    let mut stmt = conn.prepare(
        "SELECT id, name, password_hash, created, disabled, vacation_since FROM accounts \
         ORDER BY id",
    )?;
    let accounts = stmt
        .query_map([], |r| {
            Ok(AccountRow {
                id: r.get(0)?,
                name: r.get(1)?,
                password_hash: r.get(2)?,
                created: r.get(3)?,
                disabled: r.get::<_, i64>(4)? != 0,
                vacation_since: r.get(5)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut stmt = conn
        .prepare("SELECT account_id, started, ended FROM vacations ORDER BY account_id, started")?;
    let vacations = stmt
        .query_map([], |r| {
            Ok(VacationRow {
                account_id: r.get(0)?,
                started: r.get(1)?,
                ended: r.get(2)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut stmt = conn.prepare(
        "SELECT secret_hash, account_id, created, expires FROM sessions WHERE expires > ?1",
    )?;
    let sessions = stmt
        .query_map([crate::time::now_ms()], |r| {
            Ok(SessionRow {
                secret_hash: r.get(0)?,
                account_id: r.get(1)?,
                created: r.get(2)?,
                expires: r.get(3)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut stmt =
        conn.prepare("SELECT game_id, color, account_id, claimed FROM seats ORDER BY claimed")?;
    let seats = stmt
        .query_map([], |r| {
            Ok(SeatRow {
                game_id: r.get(0)?,
                color: r.get(1)?,
                account_id: r.get(2)?,
                claimed: r.get(3)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut stmt = conn.prepare(
        "SELECT id, account_id, opponent_id, terms, created, state, game_id FROM challenges \
         ORDER BY created",
    )?;
    let challenges = stmt
        .query_map([], |r| {
            Ok(ChallengeRow {
                id: r.get(0)?,
                account_id: r.get(1)?,
                opponent_id: r.get(2)?,
                terms: r.get(3)?,
                created: r.get(4)?,
                state: r.get(5)?,
                game_id: r.get(6)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(StoredAccounts {
        accounts,
        sessions,
        seats,
        vacations,
        rating_changes: load_rating_changes(conn)?,
        challenges,
    })
}

fn insert_game(conn: &Connection, g: &GameRow) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO games (id, variant, size, komi, black, white, black_token, \
         white_token, source, start, record, created, request_id, undos, time_control, \
         rated_black, rated_white, rematch_of) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
    )?
    .execute(params![
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
    ])?;
    Ok(())
}

fn insert_seats(conn: &Connection, seats: &[SeatRow]) -> rusqlite::Result<()> {
    for seat in seats {
        conn.prepare_cached(
            "INSERT INTO seats (game_id, color, account_id, claimed) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![
            seat.game_id,
            seat.color,
            seat.account_id,
            seat.claimed
        ])?;
    }
    Ok(())
}

fn insert_rating_change(conn: &Connection, c: &RatingChange) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO rating_changes (game_id, account_id, family, score, rating, deviation, \
         volatility, games, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute(params![
        c.game_id,
        c.account_id,
        c.family,
        c.score,
        c.rating,
        c.deviation,
        c.volatility,
        c.games,
        c.at
    ])?;
    Ok(())
}

/// Every rating change not annulled, oldest first.
pub(crate) fn load_rating_changes(conn: &Connection) -> rusqlite::Result<Vec<RatingChange>> {
    let mut stmt = conn.prepare(
        "SELECT game_id, account_id, family, score, rating, deviation, volatility, games, at \
         FROM rating_changes WHERE annulled = 0 ORDER BY at, game_id, account_id",
    )?;
    stmt.query_map([], |r| {
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
    })?
    .collect()
}

fn insert_turn(conn: &Connection, t: &TurnRow) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO turns (game_id, number, turn, played, color, clock) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        t.game_id, t.number, t.turn, t.played, t.color, t.clock
    ])?;
    Ok(())
}

/// A taken key is a duplicate; anything else a failure.
fn classify(e: rusqlite::Error) -> WriteError {
    match e.sqlite_error() {
        Some(err)
            if err.code == ErrorCode::ConstraintViolation
                && (err.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                    || err.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE) =>
        {
            WriteError::Duplicate
        }
        _ => WriteError::Failed(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_valid() {
        assert!(migrations().validate().is_ok());
    }

    fn turn(number: u32, turn: &str) -> Write {
        Write::Turn(
            TurnRow {
                game_id: "0000abcd".to_string(),
                number,
                turn: turn.to_string(),
                played: 1,
                color: Some("white".to_string()),
                clock: None,
            },
            Vec::new(),
        )
    }

    /// Writes committed together: one refused (a turn number stored
    /// already) refuses only itself, the others are stored, and so are the
    /// writes of the next batch (the savepoints and the transaction are
    /// let go of either way).
    #[test]
    fn a_refused_write_of_a_batch_refuses_only_itself() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrations().to_latest(&mut conn).unwrap();
        let game = Write::Game(
            Box::new(GameRow {
                id: "0000abcd".to_string(),
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
            }),
            Vec::new(),
        );
        assert!(commit(&mut conn, [game].iter()).iter().all(Result::is_ok));
        let batch = [turn(1, "E5"), turn(1, "C3"), turn(2, "G7")];
        let results = commit(&mut conn, batch.iter());
        assert!(results[0].is_ok());
        assert!(matches!(results[1], Err(WriteError::Duplicate)));
        assert!(results[2].is_ok());
        let results = commit(&mut conn, [turn(3, "A1"), turn(2, "B2")].iter());
        assert!(results[0].is_ok());
        assert!(matches!(results[1], Err(WriteError::Duplicate)));
        let stored: Vec<String> = conn
            .prepare("SELECT turn FROM turns ORDER BY number")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(stored, ["E5", "G7", "A1"]);
    }
}
