//! What a server tells the others on one PostgreSQL database when it
//! commits (`NOTIFY sygo`, delivered at the commit): the games its writes
//! touched, a turn's row itself when a write is one more turn (the others
//! play it without reading the database), and whether accounts changed.
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
    /// Whether accounts, sessions, seats, ratings or challenges changed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub accounts: bool,
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
        })
    };
    match write {
        Write::Game(g, ..) => game(&g.id),
        Write::Accept { game: g, .. } => game(&g.id),
        Write::Turn(t, ..) => Some(GameNotice {
            id: t.game_id.clone(),
            turn: Some(t.clone()),
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

/// Whether a write changes what the servers keep of the accounts (a
/// session's new expiry does not count: it only ever moves on).
fn changes_accounts(write: &Write) -> bool {
    match write {
        Write::Turn(_, ratings, _) => !ratings.is_empty(),
        Write::Account(_)
        | Write::Password { .. }
        | Write::Session(_)
        | Write::EndSession { .. }
        | Write::Seats(_)
        | Write::Challenge(_)
        | Write::Withdraw { .. }
        | Write::Accept { .. }
        | Write::VacationOn { .. }
        | Write::VacationOff { .. } => true,
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
        | Write::Conditional { .. } => false,
    }
}

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
        let cost = game.as_ref().map_or(0, |game| {
            40 + game.id.len()
                + game.turn.as_ref().map_or(0, |t| {
                    120 + t.turn.len() + t.clock.as_ref().map_or(0, String::len)
                })
        }) + review.as_ref().map_or(0, |id| 20 + id.len())
            + presence.as_ref().map_or(0, |p| 50 + p.id.len());
        if size + cost > MAX_PAYLOAD && size > 0 {
            out.extend(serde_json::to_string(&notice));
            notice.games.clear();
            notice.reviews.clear();
            notice.presence.clear();
            notice.accounts = false;
            size = 0;
        }
        size += cost;
        notice.accounts |= changes_accounts(write);
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
    use super::*;

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
        };
        let told: Notice = serde_json::from_str(&payloads("me", &[&session])[0]).unwrap();
        assert!(told.accounts && told.games.is_empty());
    }
}
