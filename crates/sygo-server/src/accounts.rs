//! The accounts held in memory ([`Accounts`]): each account, the sessions of
//! signed-in browsers (by the hash of their secret), the seats — the
//! sides of games that accounts hold —, and each account's vacations (on
//! since when, and those that ended, for the allowance: [`Vacation`]).
//! Loaded from the database at start, again when another program changes
//! it (`sygo admin`), and account by account when another server on the
//! database changed some ([`Accounts::replace_of`]); every change is
//! committed to the database first (`db/`), then made here.

use std::collections::{HashMap, HashSet};

use parking_lot::RwLock;
use sygo_rules::Color;

use crate::db::{AccountRow, SeatRow, SessionRow, StoredAccounts, VacationRow};
use crate::error::ApiError;
use crate::touched::Touched;

/// How long a session lasts: 30 days.
pub(crate) const SESSION_MS: i64 = 30 * 24 * 60 * 60 * 1000;

/// A day in milliseconds.
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The vacation an account may take in any [`VACATION_WINDOW_MS`]: 30 days.
pub(crate) const VACATION_ALLOWANCE_MS: i64 = 30 * DAY_MS;

/// The span over which vacation counts against the allowance: the last 365
/// days.
pub(crate) const VACATION_WINDOW_MS: i64 = 365 * DAY_MS;

/// The fewest and most characters of a name.
pub(crate) const NAME_LENGTHS: std::ops::RangeInclusive<usize> = 3..=20;

/// Names no account may take (in any case): they would read as something
/// else on a page.
const RESERVED: [&str; 5] = ["ai", "admin", "guest", "human", "sygo"];

/// Checks a new account's name: 3 to 20 letters, digits, `_` or `-`,
/// starting with a letter or a digit, not one of the reserved names.
pub(crate) fn check_name(name: &str) -> Result<(), ApiError> {
    let bad = |why: &str| Err(ApiError::BadRequest(format!("the name {name:?} {why}")));
    if !NAME_LENGTHS.contains(&name.chars().count()) {
        return bad(&format!(
            "is not {} to {} characters long",
            NAME_LENGTHS.start(),
            NAME_LENGTHS.end()
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return bad("has a character other than letters a-z, digits, _ and -");
    }
    if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return bad("does not start with a letter or a digit");
    }
    if RESERVED.iter().any(|r| r.eq_ignore_ascii_case(name)) {
        return bad("is kept back by the server");
    }
    Ok(())
}

/// An account. Not `Debug`: it holds the password's hash.
#[derive(Clone)]
pub(crate) struct Account {
    pub id: i64,
    pub name: String,
    pub password_hash: String,
    /// Unix milliseconds.
    pub created: i64,
    pub disabled: bool,
    /// Unix milliseconds: when its vacation began, `None` while it is not on
    /// vacation.
    pub vacation_since: Option<i64>,
}

impl From<AccountRow> for Account {
    fn from(r: AccountRow) -> Account {
        Account {
            id: r.id,
            name: r.name,
            password_hash: r.password_hash,
            created: r.created,
            disabled: r.disabled,
            vacation_since: r.vacation_since,
        }
    }
}

/// An account's vacation as it stands at a time (docs/web.md, "Vacation"):
/// an allowance of [`VACATION_ALLOWANCE_MS`] in any [`VACATION_WINDOW_MS`].
/// A vacation lasts at most what was left of the allowance when it began,
/// and ends by itself then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Vacation {
    /// When the vacation began (Unix milliseconds), `None` when not on
    /// vacation.
    pub since: Option<i64>,
    /// When the vacation ends by itself, its allowance used up (while on).
    pub until: Option<i64>,
    /// Vacation taken in the window before the time asked about, the
    /// current one included.
    pub used_ms: i64,
    /// What is left to take: on vacation, until it ends by itself.
    pub left_ms: i64,
}

/// The vacation of the `ended` vacations (started, ended) within the window
/// that ends at `at`.
fn used_within(ended: &[(i64, i64)], at: i64) -> i64 {
    let from = at - VACATION_WINDOW_MS;
    ended
        .iter()
        .map(|&(s, e)| (e.min(at) - s.max(from)).max(0))
        .sum()
}

/// The vacation of an account whose vacations that ended are `ended` and
/// which is on vacation since `since` (if it is), at `now`.
pub(crate) fn vacation_at(ended: &[(i64, i64)], since: Option<i64>, now: i64) -> Vacation {
    match since {
        None => {
            let used_ms = used_within(ended, now);
            Vacation {
                since: None,
                until: None,
                used_ms,
                left_ms: (VACATION_ALLOWANCE_MS - used_ms).max(0),
            }
        }
        Some(since) => {
            // What was left when it began is what it may last.
            let until = since + (VACATION_ALLOWANCE_MS - used_within(ended, since)).max(0);
            let at = now.min(until);
            Vacation {
                since: Some(since),
                until: Some(until),
                used_ms: used_within(ended, at) + (at - since).max(0),
                left_ms: (until - now).max(0),
            }
        }
    }
}

/// A signed-in browser.
#[derive(Clone, Copy, Debug)]
struct Session {
    account_id: i64,
    /// Unix milliseconds.
    expires: i64,
}

/// A seat: a side of a game.
pub(crate) type Seat = (String, Color);

#[derive(Default)]
struct Inner {
    by_id: HashMap<i64, Account>,
    /// The name in lower case → the account's id.
    by_key: HashMap<String, i64>,
    /// SHA-256 of a session's secret → the session.
    sessions: HashMap<String, Session>,
    seats: HashMap<Seat, i64>,
    /// When each seat was claimed (Unix milliseconds).
    claimed: HashMap<Seat, i64>,
    /// Each account's seats, in the order claimed.
    seats_of: HashMap<i64, Vec<Seat>>,
    /// Each account's vacations that ended, (started, ended), oldest first.
    vacations: HashMap<i64, Vec<(i64, i64)>>,
    /// The largest account id so far.
    last_id: i64,
}

/// Every account, session and seat (module doc).
#[derive(Default)]
pub(crate) struct Accounts {
    inner: RwLock<Inner>,
    /// Held while a name is checked and taken (sign-up), and while seats
    /// are checked and claimed: of two requests for the same name or the
    /// same side, the second sees what the first did.
    pub changing: tokio::sync::Mutex<()>,
    /// The accounts changed here, for the reads of accounts changed
    /// elsewhere (`touched.rs`).
    pub touched: Touched,
}

/// A colour as stored.
fn color_from(name: &str) -> Option<Color> {
    match name {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        _ => None,
    }
}

impl Accounts {
    /// The accounts as stored.
    pub(crate) fn load(stored: StoredAccounts) -> Accounts {
        let accounts = Accounts::default();
        accounts.replace(stored);
        accounts
    }

    /// Replaces everything with the accounts as stored now (after another
    /// program changed them).
    pub(crate) fn replace(&self, stored: StoredAccounts) {
        let mut inner = Inner {
            last_id: self.inner.read().last_id,
            ..Inner::default()
        };
        inner.insert_stored(stored);
        *self.inner.write() = inner;
    }

    /// Replaces what is kept of the accounts `ids` (their rows, sessions,
    /// seats and vacations) with `stored`, those accounts as stored now
    /// (another server changed them): `stored` holds the rows of those
    /// accounts only. An account of `ids` that `stored` lacks is dropped.
    pub(crate) fn replace_of(&self, ids: &[i64], stored: StoredAccounts) {
        let ids: HashSet<i64> = ids.iter().copied().collect();
        let mut inner = self.inner.write();
        let inner = &mut *inner;
        for id in &ids {
            if let Some(old) = inner.by_id.remove(id) {
                // Its name as it was (it may have another now).
                let key = old.name.to_ascii_lowercase();
                if inner.by_key.get(&key) == Some(id) {
                    inner.by_key.remove(&key);
                }
            }
            for seat in inner.seats_of.remove(id).unwrap_or_default() {
                if inner.seats.get(&seat) == Some(id) {
                    inner.seats.remove(&seat);
                    inner.claimed.remove(&seat);
                }
            }
            inner.vacations.remove(id);
        }
        inner.sessions.retain(|_, s| !ids.contains(&s.account_id));
        inner.insert_stored(stored);
    }

    /// A new account's id.
    pub(crate) fn next_id(&self) -> i64 {
        self.inner.read().last_id + 1
    }

    /// Adds an account (committed already).
    pub(crate) fn add(&self, account: Account) {
        let id = account.id;
        let mut inner = self.inner.write();
        inner.last_id = inner.last_id.max(account.id);
        inner
            .by_key
            .insert(account.name.to_ascii_lowercase(), account.id);
        inner.by_id.insert(account.id, account);
        self.touched.touch([id]);
    }

    /// The account of this name, in any case.
    pub(crate) fn by_name(&self, name: &str) -> Option<Account> {
        let inner = self.inner.read();
        let id = inner.by_key.get(&name.to_ascii_lowercase())?;
        inner.by_id.get(id).cloned()
    }

    /// The account of this id.
    pub(crate) fn by_id(&self, id: i64) -> Option<Account> {
        self.inner.read().by_id.get(&id).cloned()
    }

    /// The account signed in with the session whose secret's hash is this,
    /// unless the session has expired or the account is disabled.
    pub(crate) fn signed_in(&self, secret_hash: &str, now: i64) -> Option<Account> {
        let inner = self.inner.read();
        let session = inner.sessions.get(secret_hash)?;
        if session.expires <= now {
            return None;
        }
        inner
            .by_id
            .get(&session.account_id)
            .filter(|a| !a.disabled)
            .cloned()
    }

    /// Adds a session (committed already).
    pub(crate) fn add_session(&self, row: &SessionRow) {
        self.inner.write().sessions.insert(
            row.secret_hash.clone(),
            Session {
                account_id: row.account_id,
                expires: row.expires,
            },
        );
        self.touched.touch([row.account_id]);
    }

    /// When a session expires.
    pub(crate) fn expires(&self, secret_hash: &str) -> Option<i64> {
        self.inner
            .read()
            .sessions
            .get(secret_hash)
            .map(|s| s.expires)
    }

    /// Moves a session's expiry on (committed already).
    pub(crate) fn renew_session(&self, secret_hash: &str, expires: i64) {
        let mut inner = self.inner.write();
        if let Some(s) = inner.sessions.get_mut(secret_hash) {
            s.expires = expires;
            self.touched.touch([s.account_id]);
        }
    }

    /// The account of a session (expired or not), if it is kept.
    pub(crate) fn session_account(&self, secret_hash: &str) -> Option<i64> {
        self.inner
            .read()
            .sessions
            .get(secret_hash)
            .map(|s| s.account_id)
    }

    /// Ends a session.
    pub(crate) fn end_session(&self, secret_hash: &str) {
        if let Some(s) = self.inner.write().sessions.remove(secret_hash) {
            self.touched.touch([s.account_id]);
        }
    }

    /// A new password (committed already): every session of the account
    /// but `keep` ends.
    pub(crate) fn set_password(&self, id: i64, password_hash: String, keep: &str) {
        let mut inner = self.inner.write();
        if let Some(a) = inner.by_id.get_mut(&id) {
            a.password_hash = password_hash;
        }
        inner
            .sessions
            .retain(|hash, s| s.account_id != id || hash == keep);
        self.touched.touch([id]);
    }

    /// The account holding a side of a game.
    pub(crate) fn seat_holder(&self, game: &str, color: Color) -> Option<i64> {
        self.inner
            .read()
            .seats
            .get(&(game.to_string(), color))
            .copied()
    }

    /// The sides an account holds, in the order claimed.
    pub(crate) fn seats_of(&self, id: i64) -> Vec<Seat> {
        self.inner
            .read()
            .seats_of
            .get(&id)
            .cloned()
            .unwrap_or_default()
    }

    /// Adds seats (committed already).
    pub(crate) fn add_seats(&self, seats: &[SeatRow]) {
        let mut inner = self.inner.write();
        for seat in seats {
            if let Some(color) = color_from(&seat.color) {
                inner.add_seat((seat.game_id.clone(), color), seat.account_id, seat.claimed);
            }
        }
        self.touched.touch(seats.iter().map(|seat| seat.account_id));
    }

    /// When a side of a game was claimed by the account holding it.
    pub(crate) fn seat_claimed(&self, game: &str, color: Color) -> Option<i64> {
        self.inner
            .read()
            .claimed
            .get(&(game.to_string(), color))
            .copied()
    }

    /// An account's vacation at `now` (`None` for no such account).
    pub(crate) fn vacation(&self, id: i64, now: i64) -> Option<Vacation> {
        let inner = self.inner.read();
        let account = inner.by_id.get(&id)?;
        let ended = inner.vacations.get(&id).map_or(&[][..], Vec::as_slice);
        Some(vacation_at(ended, account.vacation_since, now))
    }

    /// The accounts on vacation: each id, when its vacation began and when
    /// it ends by itself.
    pub(crate) fn on_vacation(&self) -> Vec<(i64, i64, i64)> {
        let inner = self.inner.read();
        inner
            .by_id
            .values()
            .filter_map(|a| {
                let since = a.vacation_since?;
                let ended = inner.vacations.get(&a.id).map_or(&[][..], Vec::as_slice);
                vacation_at(ended, Some(since), since)
                    .until
                    .map(|until| (a.id, since, until))
            })
            .collect()
    }

    /// An account's vacation began at `since` (committed already).
    pub(crate) fn vacation_on(&self, id: i64, since: i64) {
        if let Some(a) = self.inner.write().by_id.get_mut(&id) {
            a.vacation_since = Some(since);
        }
        self.touched.touch([id]);
    }

    /// An account's vacation ended (committed already).
    pub(crate) fn vacation_off(&self, v: VacationRow) {
        let mut inner = self.inner.write();
        if let Some(a) = inner.by_id.get_mut(&v.account_id) {
            a.vacation_since = None;
        }
        inner
            .vacations
            .entry(v.account_id)
            .or_default()
            .push((v.started, v.ended));
        self.touched.touch([v.account_id]);
    }
}

impl Inner {
    /// Adds the accounts, sessions, seats and vacations read from the
    /// database (what `replace` and `replace_of` put in place).
    fn insert_stored(&mut self, stored: StoredAccounts) {
        for row in stored.accounts {
            self.last_id = self.last_id.max(row.id);
            self.by_key.insert(row.name.to_ascii_lowercase(), row.id);
            self.by_id.insert(row.id, Account::from(row));
        }
        for s in stored.sessions {
            self.sessions.insert(
                s.secret_hash,
                Session {
                    account_id: s.account_id,
                    expires: s.expires,
                },
            );
        }
        for seat in stored.seats {
            if let Some(color) = color_from(&seat.color) {
                self.add_seat((seat.game_id, color), seat.account_id, seat.claimed);
            }
        }
        for v in stored.vacations {
            self.vacations
                .entry(v.account_id)
                .or_default()
                .push((v.started, v.ended));
        }
    }

    /// Gives a seat to an account, unless another holds it already.
    fn add_seat(&mut self, seat: Seat, account: i64, claimed: i64) {
        if let std::collections::hash_map::Entry::Vacant(v) = self.seats.entry(seat.clone()) {
            v.insert(account);
            self.claimed.insert(seat.clone(), claimed);
            self.seats_of.entry(account).or_default().push(seat);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: i64, name: &str) -> AccountRow {
        AccountRow {
            id,
            name: name.to_string(),
            password_hash: "h".to_string(),
            created: 0,
            disabled: false,
            vacation_since: None,
        }
    }

    #[test]
    fn names_follow_the_rules() {
        for good in ["ann", "Ann_Lee", "b0b", "x-1", "12345678901234567890"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in [
            "ab",
            "_ann",
            "-ann",
            "ann lee",
            "ann<b>",
            "Ann\u{e9}",
            "123456789012345678901",
            "AI",
            "Admin",
            "",
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sessions_end_and_expire_and_disabled_accounts_are_signed_out() {
        let accounts = Accounts::load(StoredAccounts {
            accounts: vec![row(1, "Ann"), row(2, "bob")],
            ..StoredAccounts::default()
        });
        assert_eq!(accounts.next_id(), 3);
        assert_eq!(accounts.by_name("ANN").unwrap().id, 1);
        let session = |hash: &str, account_id| SessionRow {
            secret_hash: hash.to_string(),
            account_id,
            created: 0,
            expires: 100,
        };
        accounts.add_session(&session("s1", 1));
        accounts.add_session(&session("s2", 1));
        accounts.add_session(&session("s3", 2));
        assert_eq!(accounts.signed_in("s1", 50).unwrap().name, "Ann");
        assert!(accounts.signed_in("s1", 100).is_none(), "expired");
        assert!(accounts.signed_in("nope", 50).is_none());
        accounts.set_password(1, "h2".to_string(), "s1");
        assert!(accounts.signed_in("s1", 50).is_some());
        assert!(accounts.signed_in("s2", 50).is_none(), "other sessions end");
        assert!(
            accounts.signed_in("s3", 50).is_some(),
            "not another account's"
        );
        accounts.end_session("s1");
        assert!(accounts.signed_in("s1", 50).is_none());
        let mut stored = StoredAccounts {
            accounts: vec![row(1, "Ann"), row(2, "bob")],
            sessions: vec![session("s3", 2)],
            ..StoredAccounts::default()
        };
        stored.accounts[1].disabled = true;
        accounts.replace(stored);
        assert!(accounts.signed_in("s3", 50).is_none(), "disabled");
    }

    #[test]
    fn vacation_counts_in_a_window_of_365_days_and_lasts_what_was_left() {
        let d = DAY_MS;
        let now = 1000 * d;
        // Nothing taken: 30 days left.
        let v = vacation_at(&[], None, now);
        assert_eq!((v.used_ms, v.left_ms), (0, 30 * d));
        // 10 days 100 days ago, 5 days 400 days ago (out of the window).
        let ended = [
            (now - 400 * d, now - 395 * d),
            (now - 100 * d, now - 90 * d),
        ];
        let v = vacation_at(&ended, None, now);
        assert_eq!((v.used_ms, v.left_ms), (10 * d, 20 * d));
        // A vacation half out of the window counts its part within.
        let v = vacation_at(&[(now - 367 * d, now - 363 * d)], None, now);
        assert_eq!(v.used_ms, 2 * d);
        // On vacation since 3 days: it ends 20 days after it began.
        let v = vacation_at(&ended, Some(now - 3 * d), now);
        assert_eq!(v.until, Some(now + 17 * d));
        assert_eq!((v.used_ms, v.left_ms), (13 * d, 17 * d));
        // Past its end (the server was stopped): all of it used.
        let v = vacation_at(&ended, Some(now - 3 * d), now + 30 * d);
        assert_eq!(v.left_ms, 0);
        // Nothing left: a vacation begun would end at once.
        let full = [(now - 50 * d, now - 20 * d)];
        assert_eq!(vacation_at(&full, None, now).left_ms, 0);
        assert_eq!(vacation_at(&full, Some(now), now).until, Some(now));
    }

    #[test]
    fn an_account_read_again_replaces_what_was_kept_of_it_only() {
        let session = |hash: &str, account_id| SessionRow {
            secret_hash: hash.to_string(),
            account_id,
            created: 0,
            expires: 100,
        };
        let seat = |game: &str, color: &str, account_id, claimed| SeatRow {
            game_id: game.to_string(),
            color: color.to_string(),
            account_id,
            claimed,
        };
        let vacation = |account_id, started| VacationRow {
            account_id,
            started,
            ended: started + DAY_MS,
        };
        let accounts = Accounts::load(StoredAccounts {
            accounts: vec![row(1, "Ann"), row(2, "bob")],
            sessions: vec![session("s1", 1), session("s2", 2)],
            seats: vec![
                seat("g1", "black", 1, 1),
                seat("g1", "white", 2, 2),
                seat("g2", "black", 1, 3),
            ],
            vacations: vec![vacation(1, 0), vacation(2, 0)],
            ..StoredAccounts::default()
        });
        // Ann renamed, signed out and in again, her seat of g2 gone (as
        // the database now has it), a seat of g3 taken, another vacation.
        let mut renamed = row(1, "Anne");
        renamed.vacation_since = Some(50 * DAY_MS);
        accounts.replace_of(
            &[1],
            StoredAccounts {
                accounts: vec![renamed],
                sessions: vec![session("s3", 1)],
                seats: vec![seat("g1", "black", 1, 1), seat("g3", "white", 1, 4)],
                vacations: vec![vacation(1, 0), vacation(1, 10 * DAY_MS)],
                ..StoredAccounts::default()
            },
        );
        assert!(accounts.by_name("ann").is_none(), "the old name is free");
        assert_eq!(accounts.by_name("ANNE").unwrap().id, 1);
        assert!(accounts.signed_in("s1", 50).is_none());
        assert_eq!(accounts.signed_in("s3", 50).unwrap().name, "Anne");
        assert_eq!(accounts.session_account("s3"), Some(1));
        assert_eq!(
            accounts.seats_of(1),
            [
                ("g1".to_string(), Color::Black),
                ("g3".to_string(), Color::White)
            ]
        );
        assert_eq!(accounts.seat_holder("g2", Color::Black), None);
        assert_eq!(accounts.seat_claimed("g2", Color::Black), None);
        assert_eq!(accounts.seat_claimed("g3", Color::White), Some(4));
        let v = accounts.vacation(1, 50 * DAY_MS).unwrap();
        assert_eq!((v.since, v.used_ms), (Some(50 * DAY_MS), 2 * DAY_MS));
        // Bob's as they were.
        assert_eq!(accounts.by_name("Bob").unwrap().id, 2);
        assert_eq!(accounts.signed_in("s2", 50).unwrap().name, "bob");
        assert_eq!(accounts.seat_holder("g1", Color::White), Some(2));
        assert_eq!(accounts.vacation(2, 50 * DAY_MS).unwrap().used_ms, DAY_MS);
        // A new account read: the next id is past it; an account the
        // database does not have is dropped.
        accounts.replace_of(
            &[7, 2],
            StoredAccounts {
                accounts: vec![row(7, "Cy")],
                ..StoredAccounts::default()
            },
        );
        assert_eq!(accounts.next_id(), 8);
        assert_eq!(accounts.by_name("cy").unwrap().id, 7);
        assert!(accounts.by_name("bob").is_none() && accounts.by_id(2).is_none());
        assert!(accounts.signed_in("s2", 50).is_none());
        assert_eq!(accounts.seat_holder("g1", Color::White), None);
        assert_eq!(accounts.signed_in("s3", 50).unwrap().name, "Anne");
    }

    #[test]
    fn a_seat_has_one_holder() {
        let accounts = Accounts::default();
        let seat = |game: &str, color: &str, account_id| SeatRow {
            game_id: game.to_string(),
            color: color.to_string(),
            account_id,
            claimed: 0,
        };
        accounts.add_seats(&[seat("g1", "black", 1), seat("g1", "white", 2)]);
        accounts.add_seats(&[seat("g1", "black", 2)]);
        assert_eq!(accounts.seat_holder("g1", Color::Black), Some(1));
        assert_eq!(accounts.seat_holder("g1", Color::White), Some(2));
        assert_eq!(accounts.seats_of(2), vec![("g1".to_string(), Color::White)]);
    }
}
