//! What a server tells the others on one PostgreSQL database when it
//! commits (`NOTIFY sygo`, delivered at the commit): the games its writes
//! touched, a turn's row itself when a write is one more turn (the others
//! play it without reading the database), and the accounts whose rows
//! changed (the others read those accounts again, not every account).
//! A notice is a wake-up: a server that missed one (its listening
//! connection was lost) reads everything again.

use serde::{Deserialize, Serialize};

use super::{TurnRow, Write};

/// The channel of the notices.
pub(crate) const CHANNEL: &str = "sygo";

/// The longest payload sent in one notification (PostgreSQL takes under
/// 8,000 bytes).
const MAX_PAYLOAD: usize = 7000;

/// A commit, as the other servers hear of it.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct Notice {
    /// The server that committed (its own notices are not for it).
    pub from: String,
    /// The games changed, in the order of the writes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<GameNotice>,
    /// Whether accounts, sessions, seats, vacations, ratings or challenges
    /// changed. Alone (no `account_ids`) it says that every account is to
    /// be read again: what a server sent before the ids were told, and
    /// still reads so (servers of both kinds share a database while they
    /// are upgraded one by one, and a server before the ids reads every
    /// account when it sees it set).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub accounts: bool,
    /// The accounts whose rows changed, each once: their own row, their
    /// sessions, seats, vacations or rating changes, or a challenge that
    /// names them (as challenger or opponent). With `accounts` set, the
    /// others read these accounts again, and nothing else of the accounts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub account_ids: Vec<i64>,
    /// The games whose review was asked for, went on or ended.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reviews: Vec<String>,
    /// Players' pages said open or closing (nothing stored).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub presence: Vec<PresenceNotice>,
}

/// A side's page open or closing, as told to the other servers.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct PresenceNotice {
    pub id: String,
    /// `black` or `white`.
    pub color: String,
    pub present: bool,
}

/// A game changed by a commit.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct GameNotice {
    pub id: String,
    /// The turn added, when that is the whole change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<TurnRow>,
    /// Whether the commit created the game (any reading of the game is
    /// then as new as this commit, or newer).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub created: bool,
}

impl PartialEq for TurnRow {
    fn eq(&self, other: &TurnRow) -> bool {
        (
            &self.game_id,
            self.number,
            &self.turn,
            self.played,
            &self.color,
            &self.clock,
            self.undos,
        ) == (
            &other.game_id,
            other.number,
            &other.turn,
            other.played,
            &other.color,
            &other.clock,
            other.undos,
        )
    }
}

/// The game a write changes, with the turn when that is the change.
fn game_of(write: &Write) -> Option<GameNotice> {
    let game = |id: &str| {
        Some(GameNotice {
            id: id.to_string(),
            turn: None,
            created: false,
        })
    };
    let created = |id: &str| {
        Some(GameNotice {
            id: id.to_string(),
            turn: None,
            created: true,
        })
    };
    match write {
        Write::Game(g, ..) => created(&g.id),
        Write::Accept { game: g, .. } => created(&g.id),
        Write::Turn(t, ..) => Some(GameNotice {
            id: t.game_id.clone(),
            turn: Some(t.clone()),
            created: false,
        }),
        Write::Undo { game_id, .. } | Write::Conditional { game_id, .. } => game(game_id),
        Write::Chat(c) => game(&c.game_id),
        Write::UndoDeclined(d) => game(&d.game_id),
        Write::Offer(o) => game(&o.game_id),
        Write::WithdrawOffer { game_id, .. } => game(game_id),
        Write::Ping
        | Write::Presence { .. }
        | Write::Review { .. }
        | Write::ReviewPosition { .. }
        | Write::Account(_)
        | Write::Password { .. }
        | Write::Session(_)
        | Write::EndSession { .. }
        | Write::RenewSession { .. }
        | Write::Seats(_)
        | Write::Challenge(_)
        | Write::Withdraw { .. }
        | Write::VacationOn { .. }
        | Write::VacationOff { .. } => None,
    }
}

/// What a notice asks the others to read again of the accounts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AccountsRead {
    /// Nothing: no account changed.
    Nothing,
    /// These accounts (and the challenges that name them).
    Of(Vec<i64>),
    /// Every account: the notice names none (a server before the ids sent
    /// it).
    Whole,
}

impl Notice {
    /// What the notice asks to read again of the accounts.
    pub(crate) fn accounts_read(&self) -> AccountsRead {
        match (self.accounts, self.account_ids.is_empty()) {
            (false, _) => AccountsRead::Nothing,
            (true, true) => AccountsRead::Whole,
            (true, false) => AccountsRead::Of(self.account_ids.clone()),
        }
    }
}

/// The accounts whose rows a write changes, as the servers keep them (a
/// session's new expiry does not count: it only ever moves on, and a server
/// that finds a session expired reads it from the database).
fn accounts_of(write: &Write) -> Vec<i64> {
    match write {
        Write::Turn(_, ratings, _) => ratings.iter().map(|c| c.account_id).collect(),
        Write::Account(a) => vec![a.id],
        Write::Password { account_id, .. }
        | Write::EndSession { account_id, .. }
        | Write::VacationOn { account_id, .. } => vec![*account_id],
        Write::Session(row) => vec![row.account_id],
        Write::Seats(seats) => seats.iter().map(|s| s.account_id).collect(),
        Write::Challenge(c) => std::iter::once(c.account_id).chain(c.opponent_id).collect(),
        Write::Withdraw {
            challenger,
            opponent,
            ..
        } => std::iter::once(*challenger).chain(*opponent).collect(),
        Write::Accept {
            seats, challenger, ..
        } => std::iter::once(*challenger)
            .chain(seats.iter().map(|s| s.account_id))
            .collect(),
        Write::VacationOff { vacation, .. } => vec![vacation.account_id],
        Write::Ping
        | Write::Game(..)
        | Write::Undo { .. }
        | Write::Review { .. }
        | Write::ReviewPosition { .. }
        | Write::RenewSession { .. }
        | Write::Chat(_)
        | Write::UndoDeclined(_)
        | Write::Offer(_)
        | Write::WithdrawOffer { .. }
        | Write::Presence { .. }
        | Write::Conditional { .. } => Vec::new(),
    }
}

/// What the accounts' fields cost a payload once (`"accounts":true,
/// "account_ids":[]`), and what an id costs (up to 20 characters and a
/// comma).
const ACCOUNTS_COST: usize = 40;
const ACCOUNT_ID_COST: usize = 21;

/// The payloads that tell of `writes` (those committed), from the server
/// `from`: none when nothing the others keep changed, else as many as the
/// size limit needs.
pub(super) fn payloads(from: &str, writes: &[&Write]) -> Vec<String> {
    let mut out = Vec::new();
    let mut notice = Notice {
        from: from.to_string(),
        ..Notice::default()
    };
    let mut size = 0;
    for write in writes {
        // What the write adds to the notice, and its size: a turn's row is
        // at most a few hundred bytes, an id a dozen.
        let game = game_of(write);
        let review = match write {
            Write::Review { game_id, .. } | Write::ReviewPosition { game_id, .. }
                if notice.reviews.last() != Some(game_id) =>
            {
                Some(game_id.clone())
            }
            _ => None,
        };
        let presence = match write {
            Write::Presence {
                game_id,
                color,
                present,
            } => Some(PresenceNotice {
                id: game_id.clone(),
                color: color.clone(),
                present: *present,
            }),
            _ => None,
        };
        let mut accounts = accounts_of(write);
        accounts.sort_unstable();
        accounts.dedup();
        // The ids the notice does not name yet (all of them once it is
        // sent and begun again: counted as such).
        let new_ids = accounts
            .iter()
            .filter(|id| !notice.account_ids.contains(id))
            .count();
        let accounts_cost = |ids: usize, named: bool| {
            if ids == 0 {
                0
            } else {
                ids * ACCOUNT_ID_COST + if named { 0 } else { ACCOUNTS_COST }
            }
        };
        let cost = game.as_ref().map_or(0, |game| {
            40 + game.id.len()
                + game.turn.as_ref().map_or(0, |t| {
                    120 + t.turn.len() + t.clock.as_ref().map_or(0, String::len)
                })
        }) + review.as_ref().map_or(0, |id| 20 + id.len())
            + presence.as_ref().map_or(0, |p| 50 + p.id.len());
        if size + cost + accounts_cost(new_ids, notice.accounts) > MAX_PAYLOAD && size > 0 {
            out.extend(serde_json::to_string(&notice));
            notice.games.clear();
            notice.reviews.clear();
            notice.presence.clear();
            notice.accounts = false;
            notice.account_ids.clear();
            size = 0;
        }
        let new_ids: Vec<i64> = accounts
            .into_iter()
            .filter(|id| !notice.account_ids.contains(id))
            .collect();
        size += cost + accounts_cost(new_ids.len(), notice.accounts);
        notice.accounts |= !new_ids.is_empty();
        notice.account_ids.extend(new_ids);
        notice.games.extend(game);
        notice.reviews.extend(review);
        notice.presence.extend(presence);
    }
    if !notice.games.is_empty()
        || notice.accounts
        || !notice.reviews.is_empty()
        || !notice.presence.is_empty()
    {
        out.extend(serde_json::to_string(&notice));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{AccountRow, ChallengeRow, GameRow, SeatRow, SessionRow, VacationRow};
    use super::*;
    use crate::ratings::RatingChange;

    fn turn(game: &str, number: u32) -> Write {
        Write::Turn(
            TurnRow {
                game_id: game.to_string(),
                number,
                turn: "c3".to_string(),
                played: 5,
                color: Some("black".to_string()),
                clock: None,
                undos: 0,
            },
            Vec::new(),
            super::super::AiJob::Unchanged,
        )
    }

    #[test]
    fn a_batch_is_told_in_payloads_under_the_limit_and_read_back() {
        let writes: Vec<Write> = (0..200).map(|i| turn(&format!("{i:08x}"), i + 1)).collect();
        let refs: Vec<&Write> = writes.iter().collect();
        let payloads = payloads("me", &refs);
        assert!(payloads.len() > 1, "200 turns do not fit in one payload");
        let mut told = Vec::new();
        for payload in &payloads {
            assert!(payload.len() < 8000, "{} bytes", payload.len());
            let notice: Notice = serde_json::from_str(payload).unwrap();
            assert_eq!(notice.from, "me");
            assert!(!notice.accounts);
            told.extend(notice.games);
        }
        assert_eq!(told.len(), 200);
        for (i, game) in told.iter().enumerate() {
            assert_eq!(game.id, format!("{i:08x}"));
            assert_eq!(game.turn.as_ref().unwrap().number, i as u32 + 1);
        }
    }

    #[test]
    fn reviews_and_pages_open_are_told_without_games() {
        let review = Write::ReviewPosition {
            game_id: "g1".to_string(),
            row: super::super::PositionRow {
                turn: 3,
                hash: 7,
                win_rate: 0.5,
                score_lead: 0.0,
                best: None,
                visits: 10,
                ownership: "[]".to_string(),
            },
        };
        let again = Write::Review {
            game_id: "g1".to_string(),
            requested: 5,
            pending: false,
        };
        let presence = Write::Presence {
            game_id: "g2".to_string(),
            color: "white".to_string(),
            present: true,
        };
        let told: Notice =
            serde_json::from_str(&payloads("me", &[&review, &again, &presence])[0]).unwrap();
        assert!(told.games.is_empty() && !told.accounts);
        // One game's review changed twice: told once.
        assert_eq!(told.reviews, ["g1"]);
        assert_eq!(
            told.presence,
            [PresenceNotice {
                id: "g2".to_string(),
                color: "white".to_string(),
                present: true,
            }]
        );
    }

    #[test]
    fn writes_that_change_nothing_the_servers_keep_are_not_told() {
        let renew = Write::RenewSession {
            secret_hash: "x".to_string(),
            expires: 1,
        };
        assert!(payloads("me", &[&Write::Ping, &renew]).is_empty());
        let session = Write::EndSession {
            secret_hash: "x".to_string(),
            account_id: 4,
        };
        let told: Notice = serde_json::from_str(&payloads("me", &[&session])[0]).unwrap();
        assert!(told.accounts && told.games.is_empty());
        assert_eq!(told.account_ids, [4]);
    }

    fn seat(game: &str, color: &str, account_id: i64) -> SeatRow {
        SeatRow {
            game_id: game.to_string(),
            color: color.to_string(),
            account_id,
            claimed: 1,
        }
    }

    fn challenge(account_id: i64, opponent_id: Option<i64>) -> ChallengeRow {
        ChallengeRow {
            id: "c0000001".to_string(),
            account_id,
            opponent_id,
            terms: "{}".to_string(),
            created: 1,
            state: "open".to_string(),
            game_id: None,
        }
    }

    fn game_row(id: &str) -> GameRow {
        GameRow {
            rated: Some([16, 17]),
            ..GameRow::for_test(id)
        }
    }

    /// The notice of one write, read back as the others read it.
    fn told(write: &Write) -> Option<Notice> {
        let payloads = payloads("me", &[write]);
        assert!(payloads.len() <= 1);
        payloads.first().map(|p| serde_json::from_str(p).unwrap())
    }

    /// The accounts a write's notice asks the others to read again.
    fn read_of(write: &Write) -> AccountsRead {
        told(write).map_or(AccountsRead::Nothing, |n| n.accounts_read())
    }

    #[test]
    fn each_write_that_changes_accounts_names_the_accounts_it_changes() {
        let of = |ids: &[i64]| AccountsRead::Of(ids.to_vec());
        let account = Write::Account(AccountRow {
            id: 7,
            name: "Ann".to_string(),
            password_hash: "h".to_string(),
            created: 1,
            disabled: false,
            vacation_since: None,
        });
        assert_eq!(read_of(&account), of(&[7]));
        let password = Write::Password {
            account_id: 8,
            password_hash: "h".to_string(),
            keep: "s".to_string(),
        };
        assert_eq!(read_of(&password), of(&[8]));
        let session = Write::Session(SessionRow {
            secret_hash: "s".to_string(),
            account_id: 9,
            created: 1,
            expires: 2,
        });
        assert_eq!(read_of(&session), of(&[9]));
        let end = Write::EndSession {
            secret_hash: "s".to_string(),
            account_id: 10,
        };
        assert_eq!(read_of(&end), of(&[10]));
        let seats = Write::Seats(vec![seat("g1", "black", 11), seat("g2", "white", 12)]);
        assert_eq!(read_of(&seats), of(&[11, 12]));
        // A challenge: its challenger, and its opponent if it names one.
        assert_eq!(
            read_of(&Write::Challenge(challenge(13, Some(14)))),
            of(&[13, 14])
        );
        assert_eq!(read_of(&Write::Challenge(challenge(13, None))), of(&[13]));
        let withdraw = Write::Withdraw {
            id: "c0000001".to_string(),
            challenger: 15,
            opponent: None,
        };
        assert_eq!(read_of(&withdraw), of(&[15]));
        let withdraw = Write::Withdraw {
            id: "c0000001".to_string(),
            challenger: 15,
            opponent: Some(3),
        };
        assert_eq!(read_of(&withdraw), of(&[3, 15]));
        // An acceptance: the challenger and both seats' accounts, once
        // each; and the game it starts.
        let accept = Write::Accept {
            game: Box::new(game_row("g3")),
            seats: vec![seat("g3", "black", 17), seat("g3", "white", 16)],
            challenge: "c0000001".to_string(),
            challenger: 16,
        };
        let notice = told(&accept).unwrap();
        assert_eq!(notice.accounts_read(), of(&[16, 17]));
        assert_eq!(notice.games.len(), 1);
        assert_eq!(notice.games[0].id, "g3");
        let on = Write::VacationOn {
            account_id: 18,
            since: 1,
        };
        assert_eq!(read_of(&on), of(&[18]));
        let off = Write::VacationOff {
            vacation: VacationRow {
                account_id: 19,
                started: 1,
                ended: 2,
            },
            credits: Vec::new(),
        };
        assert_eq!(read_of(&off), of(&[19]));
        // A rated game's last turn: both players' ratings, and the turn.
        let Write::Turn(row, ..) = turn("g4", 30) else {
            unreachable!()
        };
        let last = Write::Turn(
            row,
            vec![
                RatingChange::for_test("g4", 21),
                RatingChange::for_test("g4", 20),
            ],
            super::super::AiJob::Unchanged,
        );
        let notice = told(&last).unwrap();
        assert_eq!(notice.accounts_read(), of(&[20, 21]));
        assert_eq!(notice.games[0].turn.as_ref().unwrap().number, 30);
        // No account: a turn that changes no rating, a session renewed, a
        // new game (its seats are a write of their own).
        assert_eq!(read_of(&turn("g5", 3)), AccountsRead::Nothing);
        let renew = Write::RenewSession {
            secret_hash: "s".to_string(),
            expires: 3,
        };
        assert_eq!(read_of(&renew), AccountsRead::Nothing);
        let game = Write::Game(
            Box::new(game_row("g6")),
            Vec::new(),
            super::super::AiJob::Unchanged,
        );
        assert_eq!(read_of(&game), AccountsRead::Nothing);
    }

    #[test]
    fn a_batch_names_each_account_once_and_a_notice_without_ids_reads_every_account() {
        let session = |account_id| {
            Write::Session(SessionRow {
                secret_hash: format!("s{account_id}"),
                account_id,
                created: 1,
                expires: 2,
            })
        };
        let writes = [
            session(3),
            Write::Seats(vec![seat("g1", "black", 3), seat("g1", "white", 4)]),
            session(4),
            turn("g1", 1),
        ];
        let refs: Vec<&Write> = writes.iter().collect();
        let payloads = payloads("me", &refs);
        assert_eq!(payloads.len(), 1);
        let notice: Notice = serde_json::from_str(&payloads[0]).unwrap();
        assert_eq!(notice.accounts_read(), AccountsRead::Of(vec![3, 4]));
        assert_eq!(notice.games.len(), 1);
        // What a server before the ids sent: every account is read again.
        let old: Notice = serde_json::from_str(r#"{"from":"old","accounts":true}"#).unwrap();
        assert_eq!(old.accounts_read(), AccountsRead::Whole);
        let old: Notice = serde_json::from_str(r#"{"from":"old","games":[{"id":"g1"}]}"#).unwrap();
        assert_eq!(old.accounts_read(), AccountsRead::Nothing);
        // And what a server before the ids reads of a notice with them: the
        // flag it knows, set (it ignores the ids, and reads every account).
        let value: serde_json::Value = serde_json::from_str(&payloads[0]).unwrap();
        assert_eq!(value["accounts"], true, "{value}");
    }

    #[test]
    fn many_accounts_are_told_in_payloads_under_the_limit() {
        // The longest ids, a session each, and a turn between them.
        let writes: Vec<Write> = (0..1000)
            .map(|i| {
                if i % 10 == 9 {
                    turn(&format!("{i:08x}"), 1)
                } else {
                    Write::Session(SessionRow {
                        secret_hash: format!("s{i}"),
                        account_id: i64::MIN + i,
                        created: 1,
                        expires: 2,
                    })
                }
            })
            .collect();
        let refs: Vec<&Write> = writes.iter().collect();
        let payloads = payloads("me", &refs);
        assert!(payloads.len() > 1, "900 ids do not fit in one payload");
        let mut ids = Vec::new();
        let mut games = 0;
        for payload in &payloads {
            assert!(payload.len() < 8000, "{} bytes", payload.len());
            let notice: Notice = serde_json::from_str(payload).unwrap();
            match notice.accounts_read() {
                AccountsRead::Of(of) => ids.extend(of),
                other => panic!("{other:?}"),
            }
            games += notice.games.len();
        }
        let expected: Vec<i64> = (0..1000)
            .filter(|i| i % 10 != 9)
            .map(|i| i64::MIN + i)
            .collect();
        assert_eq!(ids, expected);
        assert_eq!(games, 100);
    }
}
