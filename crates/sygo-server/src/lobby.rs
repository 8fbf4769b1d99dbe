//! The lobby (docs/web.md, "Lobby"): challenges posted by accounts, open to
//! anyone or to one named player, kept in memory and in the database, with a
//! channel that tells the lobby's watchers of every change.

use std::collections::{HashMap, HashSet};

use parking_lot::RwLock;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use crate::clock::TimeControl;
use crate::db::ChallengeRow;

/// Most open challenges an account may have posted at once.
pub(crate) const MAX_OPEN_CHALLENGES: usize = 10;

/// Most challenges of others the lobby shows a player (the newest).
pub(crate) const MAX_SHOWN: usize = 200;

/// How long a challenge without a correspondence clock stays open: an hour.
pub(crate) const LIVE_CHALLENGE_MS: i64 = 60 * 60 * 1000;
/// How long a correspondence challenge stays open: a week.
pub(crate) const CORRESPONDENCE_CHALLENGE_MS: i64 = 7 * 24 * 60 * 60 * 1000;

/// The challenger's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ColorChoice {
    Black,
    White,
    Random,
}

/// What a challenge offers, as the API takes it (checked).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Terms {
    pub variant: String,
    pub size: u8,
    pub komi: f64,
    /// The challenger's colour.
    pub color: ColorChoice,
    pub clock: Option<TimeControl>,
    pub rated: bool,
    /// The ratings (in the board's family) that may accept it.
    pub min_rating: Option<f64>,
    pub max_rating: Option<f64>,
}

/// Where a challenge stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum State {
    Open,
    Accepted { game: String },
    Withdrawn,
}

/// A challenge.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Challenge {
    pub id: String,
    pub owner: i64,
    /// The account a direct challenge is for.
    pub opponent: Option<i64>,
    pub terms: Terms,
    /// Unix milliseconds.
    pub created: i64,
    pub state: State,
}

impl Challenge {
    /// When it stops being open.
    pub(crate) fn expires(&self) -> i64 {
        let open_for = match self.terms.clock {
            Some(TimeControl::Correspondence { .. }) => CORRESPONDENCE_CHALLENGE_MS,
            _ => LIVE_CHALLENGE_MS,
        };
        self.created + open_for
    }

    /// Whether it can be accepted at `now`.
    pub(crate) fn is_open(&self, now: i64) -> bool {
        self.state == State::Open && now < self.expires()
    }

    /// Whether `account` sees it in the lobby at `now`: an open one meant
    /// for them (or for anyone), or their own (also once accepted, for a
    /// while).
    pub(crate) fn shown_to(&self, account: Option<i64>, now: i64) -> bool {
        let mine = account == Some(self.owner);
        match &self.state {
            State::Open => {
                self.is_open(now) && (mine || self.opponent.is_none() || self.opponent == account)
            }
            // Its poster's page learns the game from it.
            State::Accepted { .. } => mine && now < self.expires(),
            State::Withdrawn => false,
        }
    }

    /// Whether the challenger or the opponent is one of `ids`.
    pub(crate) fn names_any(&self, ids: &HashSet<i64>) -> bool {
        ids.contains(&self.owner) || self.opponent.is_some_and(|o| ids.contains(&o))
    }

    /// The database row.
    pub(crate) fn row(&self) -> ChallengeRow {
        let (state, game_id) = match &self.state {
            State::Open => ("open", None),
            State::Accepted { game } => ("accepted", Some(game.clone())),
            State::Withdrawn => ("withdrawn", None),
        };
        ChallengeRow {
            id: self.id.clone(),
            account_id: self.owner,
            opponent_id: self.opponent,
            // Plain data: serialising cannot fail.
            terms: serde_json::to_string(&self.terms).unwrap_or_default(),
            created: self.created,
            state: state.to_string(),
            game_id,
        }
    }

    /// A challenge from its row (`None` for a row that does not read).
    pub(crate) fn from_row(row: ChallengeRow) -> Option<Challenge> {
        let state = match (row.state.as_str(), row.game_id) {
            ("open", _) => State::Open,
            ("accepted", Some(game)) => State::Accepted { game },
            ("withdrawn", _) => State::Withdrawn,
            _ => return None,
        };
        Some(Challenge {
            id: row.id,
            owner: row.account_id,
            opponent: row.opponent_id,
            terms: serde_json::from_str(&row.terms).ok()?,
            created: row.created,
            state,
        })
    }
}

/// Every challenge, and the lobby's watchers.
pub(crate) struct Lobby {
    map: RwLock<HashMap<String, Challenge>>,
    events: broadcast::Sender<()>,
    /// Held while a challenge is accepted or withdrawn: one at a time.
    pub changing: tokio::sync::Mutex<()>,
    /// The accounts whose challenges changed here, for the reads of
    /// accounts changed elsewhere (`touched.rs`).
    pub touched: crate::touched::Touched,
}

impl Lobby {
    /// The challenges as stored.
    pub(crate) fn load(rows: Vec<ChallengeRow>) -> Lobby {
        let map = rows
            .into_iter()
            .filter_map(Challenge::from_row)
            .map(|c| (c.id.clone(), c))
            .collect();
        Lobby {
            map: RwLock::new(map),
            events: broadcast::channel(16).0,
            changing: tokio::sync::Mutex::new(()),
            touched: crate::touched::Touched::default(),
        }
    }

    /// The challenges as stored now (another server changed them), and
    /// the watchers told.
    pub(crate) fn replace(&self, rows: Vec<ChallengeRow>) {
        *self.map.write() = rows
            .into_iter()
            .filter_map(Challenge::from_row)
            .map(|c| (c.id.clone(), c))
            .collect();
        let _ = self.events.send(());
    }

    /// The challenges that name one of the accounts `ids` (as challenger
    /// or opponent) replaced with `rows`, those challenges as stored now
    /// (another server changed them), and the watchers told; but those
    /// that also name an account of `keep` (changed here meanwhile, read
    /// again next) are kept as they are, and `rows` holds none of them.
    pub(crate) fn replace_of(&self, ids: &[i64], rows: Vec<ChallengeRow>, keep: &HashSet<i64>) {
        let ids: HashSet<i64> = ids.iter().copied().collect();
        {
            let mut map = self.map.write();
            map.retain(|_, c| !c.names_any(&ids) || c.names_any(keep));
            map.extend(
                rows.into_iter()
                    .filter_map(Challenge::from_row)
                    .map(|c| (c.id.clone(), c)),
            );
        }
        let _ = self.events.send(());
    }

    /// A challenge by id.
    pub(crate) fn get(&self, id: &str) -> Option<Challenge> {
        self.map.read().get(id).cloned()
    }

    /// Whether an id is taken.
    pub(crate) fn contains(&self, id: &str) -> bool {
        self.map.read().contains_key(id)
    }

    /// Adds or replaces a challenge (committed already) and tells the
    /// watchers.
    pub(crate) fn put(&self, challenge: Challenge) {
        self.touched
            .touch(std::iter::once(challenge.owner).chain(challenge.opponent));
        self.map.write().insert(challenge.id.clone(), challenge);
        let _ = self.events.send(());
    }

    /// The challenges `account` sees at `now`, oldest first: its own, and
    /// of the others the newest [`MAX_SHOWN`].
    pub(crate) fn shown_to(&self, account: Option<i64>, now: i64) -> Vec<Challenge> {
        let (mut shown, mut others): (Vec<Challenge>, Vec<Challenge>) = self
            .map
            .read()
            .values()
            .filter(|c| c.shown_to(account, now))
            .cloned()
            .partition(|c| account == Some(c.owner));
        others.sort_by(|a, b| (b.created, &b.id).cmp(&(a.created, &a.id)));
        others.truncate(MAX_SHOWN);
        shown.append(&mut others);
        shown.sort_by(|a, b| (a.created, &a.id).cmp(&(b.created, &b.id)));
        shown
    }

    /// How many open challenges `account` has posted at `now`.
    pub(crate) fn open_of(&self, account: i64, now: i64) -> usize {
        self.map
            .read()
            .values()
            .filter(|c| c.owner == account && c.state == State::Open && c.is_open(now))
            .count()
    }

    /// A receiver told of every change.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<()> {
        self.events.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn challenge(opponent: Option<i64>, clock: Option<TimeControl>) -> Challenge {
        Challenge {
            id: "c1".to_string(),
            owner: 1,
            opponent,
            terms: Terms {
                variant: "sygo".to_string(),
                size: 9,
                komi: 0.0,
                color: ColorChoice::Random,
                clock,
                rated: true,
                min_rating: None,
                max_rating: None,
            },
            created: 0,
            state: State::Open,
        }
    }

    #[test]
    fn who_sees_a_challenge_and_for_how_long() {
        let open = challenge(None, None);
        assert!(open.shown_to(None, 10) && open.shown_to(Some(7), 10));
        assert!(!open.shown_to(Some(7), LIVE_CHALLENGE_MS), "expired");
        let direct = challenge(Some(2), None);
        assert!(direct.shown_to(Some(2), 10) && direct.shown_to(Some(1), 10));
        assert!(!direct.shown_to(Some(3), 10) && !direct.shown_to(None, 10));
        let corr = challenge(
            None,
            Some(TimeControl::Correspondence {
                days_per_turn: 3,
                bank_days: 6,
            }),
        );
        assert!(corr.is_open(LIVE_CHALLENGE_MS + 1));
        let mut accepted = open.clone();
        accepted.state = State::Accepted {
            game: "g".to_string(),
        };
        assert!(accepted.shown_to(Some(1), 10) && !accepted.shown_to(Some(7), 10));
        let row = accepted.row();
        assert_eq!(Challenge::from_row(row), Some(accepted));
    }

    #[test]
    fn the_challenges_of_accounts_read_again_replace_those_that_name_them() {
        let of = |id: &str, owner, opponent| {
            let mut c = challenge(opponent, None);
            c.id = id.to_string();
            c.owner = owner;
            c
        };
        let lobby = Lobby::load(vec![
            of("c1", 1, None).row(),
            of("c2", 2, Some(1)).row(),
            of("c3", 3, None).row(),
            of("c4", 3, Some(2)).row(),
        ]);
        let mut told = lobby.subscribe();
        // Account 1's: c1 withdrawn, c2 gone, a new one; c3 and c4 name
        // neither.
        let mut withdrawn = of("c1", 1, None);
        withdrawn.state = State::Withdrawn;
        lobby.replace_of(
            &[1],
            vec![withdrawn.row(), of("c5", 4, Some(1)).row()],
            &HashSet::new(),
        );
        assert_eq!(lobby.get("c1").unwrap().state, State::Withdrawn);
        assert!(lobby.get("c2").is_none());
        assert!(lobby.contains("c3") && lobby.contains("c4") && lobby.contains("c5"));
        assert!(told.try_recv().is_ok(), "the watchers are told");
        // Account 3's read again while account 2 changed here: c4, which
        // names 2 too, stays as it is here; c3, only 3's, goes.
        lobby.replace_of(&[3], Vec::new(), &HashSet::from([2]));
        assert!(lobby.contains("c4") && !lobby.contains("c3"));
    }

    #[test]
    fn a_challenge_put_here_touches_both_its_accounts() {
        let lobby = Lobby::load(Vec::new());
        let mark = lobby.touched.mark();
        let mut c = challenge(Some(9), None);
        c.owner = 4;
        lobby.put(c);
        assert_eq!(lobby.touched.since(mark), Some(HashSet::from([4, 9])));
    }
}
