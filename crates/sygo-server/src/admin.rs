//! The host's commands on a server's database (`sygo admin`): list the
//! accounts (with their vacation), disable one (its sessions end; it cannot sign in; its profile
//! is gone) or enable it again, annul a rated game's effect on the ratings. They work while the server runs: the
//! server notices another program's commit within a second (`db.rs`).

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use rusqlite::{Connection, OpenFlags, params};

use crate::accounts::vacation_at;
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
    conn: Connection,
}

impl Admin {
    /// Opens the database of a server (it must exist, and have been
    /// opened by `sygo serve` at least once).
    ///
    /// # Errors
    ///
    /// No such file, not a database of `sygo serve`.
    pub fn open(path: &Path) -> Result<Admin, AdminError> {
        let fail = |e: &dyn fmt::Display| {
            AdminError::Database(format!("database {}: {e}", path.display()))
        };
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| fail(&e))?;
        conn.execute_batch("PRAGMA foreign_keys=ON; PRAGMA busy_timeout=5000;")
            .map_err(|e| fail(&e))?;
        let has_accounts: bool = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'accounts'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n > 0)
            .map_err(|e| fail(&e))?;
        if !has_accounts {
            return Err(fail(
                &"it has no accounts table: is it a database of sygo serve, opened by this version?",
            ));
        }
        Ok(Admin { conn })
    }

    /// Every account, oldest first, with its vacation as it stands now
    /// (`docs/web.md`, "Vacation": 30 days in any 365).
    ///
    /// # Errors
    ///
    /// The database fails.
    pub fn accounts(&self) -> Result<Vec<AccountSummary>, AdminError> {
        let now = crate::time::now_ms();
        let mut ended: HashMap<i64, Vec<(i64, i64)>> = HashMap::new();
        {
            let mut stmt = self
                .conn
                .prepare("SELECT account_id, started, ended FROM vacations")
                .map_err(db)?;
            let rows = stmt
                .query_map([], |r| {
                    Ok((r.get::<_, i64>(0)?, (r.get::<_, i64>(1)?, r.get(2)?)))
                })
                .map_err(db)?;
            for row in rows {
                let (account, span) = row.map_err(db)?;
                ended.entry(account).or_default().push(span);
            }
        }
        let mut stmt = self
            .conn
            .prepare(
                "SELECT name, created, disabled, \
                 (SELECT count(*) FROM seats WHERE account_id = accounts.id), \
                 (SELECT count(*) FROM sessions WHERE account_id = accounts.id AND expires > ?1), \
                 id, vacation_since FROM accounts ORDER BY id",
            )
            .map_err(db)?;
        stmt.query_map([now], |r| {
            let id: i64 = r.get(5)?;
            let since: Option<i64> = r.get(6)?;
            let spans = ended.get(&id).map_or(&[][..], Vec::as_slice);
            let vacation = vacation_at(spans, since, now);
            Ok(AccountSummary {
                name: r.get(0)?,
                created: rfc3339(r.get(1)?),
                disabled: r.get::<_, i64>(2)? != 0,
                games: r.get::<_, i64>(3)?.unsigned_abs(),
                sessions: r.get::<_, i64>(4)?.unsigned_abs(),
                vacation_since: vacation.since.map(rfc3339),
                vacation_until: vacation.until.map(rfc3339),
                vacation_used_ms: vacation.used_ms,
                vacation_left_ms: vacation.left_ms,
            })
        })
        .map_err(db)?
        .collect::<rusqlite::Result<Vec<_>>>()
        .map_err(db)
    }

    /// Disables (or enables again) the account of this name, in any case;
    /// disabling ends its sessions. Returns the name as written.
    ///
    /// # Errors
    ///
    /// No such account; the database fails.
    pub fn set_disabled(&mut self, name: &str, disabled: bool) -> Result<String, AdminError> {
        let tx = self.conn.transaction().map_err(db)?;
        let found: Option<(i64, String)> = tx
            .query_row(
                "SELECT id, name FROM accounts WHERE name_key = ?1",
                [name.to_ascii_lowercase()],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map(Some)
            .or_else(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                e => Err(e),
            })
            .map_err(db)?;
        let (id, written) = found.ok_or_else(|| AdminError::NoAccount(name.to_string()))?;
        tx.execute(
            "UPDATE accounts SET disabled = ?2 WHERE id = ?1",
            params![id, i64::from(disabled)],
        )
        .map_err(db)?;
        if disabled {
            tx.execute("DELETE FROM sessions WHERE account_id = ?1", [id])
                .map_err(db)?;
        }
        tx.commit().map_err(db)?;
        Ok(written)
    }
}

impl Admin {
    /// Annuls a rated game's effect on the ratings: its rating changes are
    /// marked annulled, and every rating is worked out again from the rated
    /// games left, in order (the changes after it move too). Returns the
    /// names of the game's two players.
    ///
    /// # Errors
    ///
    /// No rated game of this id with ratings applied; the database fails.
    pub fn annul(&mut self, game: &str) -> Result<Vec<String>, AdminError> {
        let tx = self.conn.transaction().map_err(db)?;
        let names: Vec<String> = {
            let mut stmt = tx
                .prepare(
                    "SELECT accounts.name FROM rating_changes JOIN accounts \
                     ON accounts.id = rating_changes.account_id \
                     WHERE game_id = ?1 AND annulled = 0 ORDER BY accounts.id",
                )
                .map_err(db)?;
            stmt.query_map([game], |r| r.get(0))
                .map_err(db)?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(db)?
        };
        if names.is_empty() {
            return Err(AdminError::NoRatedGame(game.to_string()));
        }
        tx.execute(
            "UPDATE rating_changes SET annulled = 1 WHERE game_id = ?1",
            [game],
        )
        .map_err(db)?;
        // Each game's result as Black's score, from the changes left.
        let results = {
            let mut stmt = tx
                .prepare(
                    "SELECT rc.game_id, rc.family, g.rated_black, g.rated_white, rc.score, rc.at \
                     FROM rating_changes rc JOIN games g ON g.id = rc.game_id \
                     WHERE rc.annulled = 0 AND rc.account_id = g.rated_black",
                )
                .map_err(db)?;
            stmt.query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    [r.get::<_, i64>(2)?, r.get::<_, i64>(3)?],
                    r.get::<_, f64>(4)?,
                    r.get::<_, i64>(5)?,
                ))
            })
            .map_err(db)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(db)?
        };
        for c in crate::ratings::recompute(results) {
            tx.execute(
                "UPDATE rating_changes SET rating = ?3, deviation = ?4, volatility = ?5, \
                 games = ?6 WHERE game_id = ?1 AND account_id = ?2",
                params![
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
        tx.commit().map_err(db)?;
        Ok(names)
    }
}

fn db(e: rusqlite::Error) -> AdminError {
    AdminError::Database(e.to_string())
}
