//! The host's commands on a server's database (`sygo admin`): list the
//! accounts (with their vacation), disable one (its sessions end; it cannot
//! sign in; its profile is gone) or enable it again, annul a rated game's
//! effect on the ratings. They work while the server runs, on either store:
//! the server notices the change within a second (`db/`).

use std::collections::HashMap;
use std::fmt;

use crate::accounts::vacation_at;
use crate::db::sql::{SqlError, vals};
use crate::db::{AdminStore, Database, Sql, open_for_admin};
use crate::time::rfc3339;

/// Why an admin command failed.
#[derive(Debug)]
pub enum AdminError {
    /// The database cannot be opened or used; what and why.
    Database(String),
    /// No account has this name.
    NoAccount(String),
    /// No rated game has this id (or its rating effect is annulled already).
    NoRatedGame(String),
}

impl fmt::Display for AdminError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdminError::Database(why) => write!(f, "{why}"),
            AdminError::NoAccount(name) => write!(f, "there is no account {name:?}"),
            AdminError::NoRatedGame(id) => write!(
                f,
                "game {id:?} changed no rating (not a rated game, not over, or annulled already)"
            ),
        }
    }
}

impl std::error::Error for AdminError {}

/// An account as the host sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountSummary {
    /// The name as written at sign-up.
    pub name: String,
    /// When it was made, RFC 3339.
    pub created: String,
    /// Whether the host disabled it.
    pub disabled: bool,
    /// Sides of games it holds.
    pub games: u64,
    /// Sessions not expired.
    pub sessions: u64,
    /// While the account is on vacation: when it began, RFC 3339.
    pub vacation_since: Option<String>,
    /// While the account is on vacation: when it ends by itself at the
    /// latest (its allowance used up), RFC 3339.
    pub vacation_until: Option<String>,
    /// Vacation taken in the last 365 days (the current one included),
    /// milliseconds.
    pub vacation_used_ms: i64,
    /// Vacation left to take in the 365 days to come (while on: until it
    /// ends by itself), milliseconds.
    pub vacation_left_ms: i64,
}

/// A server's database, opened for the host's commands.
pub struct Admin {
    store: AdminStore,
}

impl Admin {
    /// Opens the database of a server (a SQLite file must exist; either
    /// store must have been opened by `sygo serve` at least once).
    ///
    /// # Errors
    ///
    /// No such file, no such database, not a database of `sygo serve`.
    pub fn open(database: &Database) -> Result<Admin, AdminError> {
        let mut store = open_for_admin(database).map_err(AdminError::Database)?;
        if store
            .sql()
            .query("SELECT count(*) FROM accounts", &[])
            .is_err()
        {
            return Err(AdminError::Database(format!(
                "database {database}: it has no accounts table: is it a database of sygo \
                 serve, opened by this version?"
            )));
        }
        Ok(Admin { store })
    }

    /// Every account, oldest first, with its vacation as it stands now
    /// (`docs/web.md`, "Vacation": 30 days in any 365).
    ///
    /// # Errors
    ///
    /// The database fails.
    pub fn accounts(&mut self) -> Result<Vec<AccountSummary>, AdminError> {
        let now = crate::time::now_ms();
        let conn = self.store.sql();
        let mut ended: HashMap<i64, Vec<(i64, i64)>> = HashMap::new();
        for r in conn
            .query("SELECT account_id, started, ended FROM vacations", &[])
            .map_err(db)?
        {
            ended
                .entry(r.get(0).map_err(db)?)
                .or_default()
                .push((r.get(1).map_err(db)?, r.get(2).map_err(db)?));
        }
        let rows = conn
            .query(
                "SELECT name, created, disabled, \
                 (SELECT count(*) FROM seats WHERE account_id = accounts.id), \
                 (SELECT count(*) FROM sessions WHERE account_id = accounts.id AND expires > ?1), \
                 id, vacation_since FROM accounts ORDER BY id",
                vals![now],
            )
            .map_err(db)?;
        rows.iter()
            .map(|r| {
                let id: i64 = r.get(5)?;
                let since: Option<i64> = r.get(6)?;
                let spans = ended.get(&id).map_or(&[][..], Vec::as_slice);
                let vacation = vacation_at(spans, since, now);
                Ok(AccountSummary {
                    name: r.get(0)?,
                    created: rfc3339(r.get(1)?),
                    disabled: r.get(2)?,
                    games: r.get::<i64>(3)?.unsigned_abs(),
                    sessions: r.get::<i64>(4)?.unsigned_abs(),
                    vacation_since: vacation.since.map(rfc3339),
                    vacation_until: vacation.until.map(rfc3339),
                    vacation_used_ms: vacation.used_ms,
                    vacation_left_ms: vacation.left_ms,
                })
            })
            .collect::<Result<Vec<_>, SqlError>>()
            .map_err(db)
    }

    /// Disables (or enables again) the account of this name, in any case;
    /// disabling ends its sessions. Returns the name as written.
    ///
    /// # Errors
    ///
    /// No such account; the database fails.
    pub fn set_disabled(&mut self, name: &str, disabled: bool) -> Result<String, AdminError> {
        self.in_transaction(|conn| {
            let found = conn
                .query(
                    "SELECT id, name FROM accounts WHERE name_key = ?1",
                    vals![name.to_ascii_lowercase()],
                )
                .map_err(db)?;
            let Some(row) = found.first() else {
                return Err(AdminError::NoAccount(name.to_string()));
            };
            let (id, written): (i64, String) = (row.get(0).map_err(db)?, row.get(1).map_err(db)?);
            conn.execute(
                "UPDATE accounts SET disabled = ?2 WHERE id = ?1",
                vals![id, disabled],
            )
            .map_err(db)?;
            if disabled {
                conn.execute("DELETE FROM sessions WHERE account_id = ?1", vals![id])
                    .map_err(db)?;
            }
            Ok(written)
        })
    }

    /// Annuls a rated game's effect on the ratings: its rating changes are
    /// marked annulled, and every rating is worked out again from the rated
    /// games left, in order (the changes after it move too). Returns the
    /// names of the game's two players.
    ///
    /// # Errors
    ///
    /// No rated game of this id with ratings applied; the database fails.
    pub fn annul(&mut self, game: &str) -> Result<Vec<String>, AdminError> {
        self.in_transaction(|conn| {
            let names = conn
                .query(
                    "SELECT accounts.name FROM rating_changes JOIN accounts \
                     ON accounts.id = rating_changes.account_id \
                     WHERE game_id = ?1 AND annulled = 0 ORDER BY accounts.id",
                    vals![game],
                )
                .map_err(db)?
                .iter()
                .map(|r| r.get::<String>(0))
                .collect::<Result<Vec<_>, _>>()
                .map_err(db)?;
            if names.is_empty() {
                return Err(AdminError::NoRatedGame(game.to_string()));
            }
            conn.execute(
                "UPDATE rating_changes SET annulled = 1 WHERE game_id = ?1",
                vals![game],
            )
            .map_err(db)?;
            // Each game's result as Black's score, from the changes left.
            let results = conn
                .query(
                    "SELECT rc.game_id, rc.family, g.rated_black, g.rated_white, rc.score, rc.at \
                     FROM rating_changes rc JOIN games g ON g.id = rc.game_id \
                     WHERE rc.annulled = 0 AND rc.account_id = g.rated_black",
                    &[],
                )
                .map_err(db)?
                .iter()
                .map(|r| {
                    Ok((
                        r.get::<String>(0)?,
                        r.get::<String>(1)?,
                        [r.get::<i64>(2)?, r.get::<i64>(3)?],
                        r.get::<f64>(4)?,
                        r.get::<i64>(5)?,
                    ))
                })
                .collect::<Result<Vec<_>, SqlError>>()
                .map_err(db)?;
            for c in crate::ratings::recompute(results) {
                conn.execute(
                    "UPDATE rating_changes SET rating = ?3, deviation = ?4, volatility = ?5, \
                     games = ?6 WHERE game_id = ?1 AND account_id = ?2",
                    vals![
                        c.game_id,
                        c.account_id,
                        c.rating,
                        c.deviation,
                        c.volatility,
                        c.games
                    ],
                )
                .map_err(db)?;
            }
            Ok(names)
        })
    }

    /// Runs `work` in a transaction, committed if it succeeds (and running
    /// servers told), rolled back if not.
    fn in_transaction<T>(
        &mut self,
        work: impl FnOnce(&mut dyn Sql) -> Result<T, AdminError>,
    ) -> Result<T, AdminError> {
        self.store.sql().run("BEGIN").map_err(db)?;
        let result = work(self.store.sql()).and_then(|value| {
            self.store.announce_change().map_err(db)?;
            self.store.sql().run("COMMIT").map_err(db)?;
            Ok(value)
        });
        if result.is_err() {
            let _ = self.store.sql().run("ROLLBACK");
        }
        result
    }
}

fn db(e: SqlError) -> AdminError {
    AdminError::Database(e.to_string())
}
