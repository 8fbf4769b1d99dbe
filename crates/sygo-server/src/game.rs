//! One game on the server, as data: what never changes about it ([`Meta`]:
//! the board, its [`Side`]s and their secrets, where it came from) and what
//! changes as it is played ([`Live`]: the rules' `Game` and the summaries of
//! its turns); the positions of its past. `games.rs` holds each game with
//! its locks; `view.rs` writes it as JSON.

use serde::{Deserialize, Serialize};
use sygo_rules::{Color, Game, Geometry, Point, Position, Turn, TurnSummary};

use crate::clock::{ClockState, Pause, TimeControl};
use crate::conditional::Branch;

/// One side of a game, as the API writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Side {
    /// A person, with their name for uploaded records.
    Human {
        /// The name a record gives (`PB`, `PW`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// The AI at a level with a time per turn.
    Ai {
        /// 1 to 6.
        level: u8,
        /// Milliseconds per turn.
        time_ms: u64,
    },
}

impl Side {
    /// Whether this side is the AI.
    pub fn is_ai(&self) -> bool {
        matches!(self, Side::Ai { .. })
    }

    /// The name written in a record.
    pub(crate) fn record_name(&self) -> String {
        match self {
            Side::Human { name: Some(name) } => name.clone(),
            Side::Human { name: None } => "human".to_string(),
            Side::Ai { level, .. } => format!("sygo AI level {level}"),
        }
    }
}

/// Where a game came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// Started on this server.
    Played,
    /// An uploaded record, for review.
    Uploaded,
}

impl Source {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Source::Played => "played",
            Source::Uploaded => "uploaded",
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<Source> {
        match name {
            "played" => Some(Source::Played),
            "uploaded" => Some(Source::Uploaded),
            _ => None,
        }
    }
}

/// What never changes about a game. Not `Debug`: it holds the sides'
/// secrets, which are never written to a log.
pub(crate) struct Meta {
    pub id: String,
    pub geometry: Geometry,
    pub komi: f64,
    pub black: Side,
    pub white: Side,
    /// The digest (`secret::digest`) of each human side's token, indexed
    /// by `Color::index`: the tokens themselves are kept nowhere.
    pub token_digests: [Option<String>; 2],
    pub source: Source,
    /// Unix milliseconds.
    pub created: i64,
    /// An uploaded record's text, as uploaded.
    pub record: Option<String>,
    /// The SHA-256 digest (`secret::digest`) of the client's id of the
    /// request that created the game, if it sent one (`POST /api/games`
    /// with the same id gives this game again): the id itself is as secret
    /// as the tokens, and is kept nowhere.
    pub request_id: Option<String>,
    /// The time control, if the game has a clock.
    pub clock: Option<TimeControl>,
    /// A rated game's accounts, by `Color::index`: their ratings change when
    /// it ends.
    pub rated: Option<[i64; 2]>,
    /// The game this one is a rematch of (colours swapped).
    pub rematch_of: Option<String>,
}

impl Meta {
    /// The side playing `color`.
    pub(crate) fn side(&self, color: Color) -> &Side {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// The colour whose token (random, or derived from a request id) this
    /// is, if any; a session's token is `api::extract::color_of`'s.
    pub(crate) fn color_of_token(&self, token: &str) -> Option<Color> {
        let presented = crate::secret::digest(token);
        [Color::Black, Color::White].into_iter().find(|c| {
            self.token_digests[c.index()]
                .as_deref()
                .is_some_and(|kept| crate::secret::tokens_match(&presented, kept))
        })
    }
}

/// What changes as a game is played.
#[derive(Clone, Debug)]
pub(crate) struct Live {
    pub game: Game,
    /// The summary of every turn of `game`, in order: computed once as each
    /// turn is played (`TurnSummary::of`), cut back when turns are taken
    /// back, so that the game's JSON never replays the game.
    pub summaries: Vec<TurnSummary>,
    /// Unix milliseconds of the last change.
    pub updated: i64,
    /// Whether the AI is thinking of its turn.
    pub ai_thinking: bool,
    /// How many times turns were taken back: with the number of turns it
    /// orders the game's states (a turn adds a turn, an undo adds an undo).
    pub undos: i64,
    /// The clock, if the game has one (`Meta::clock`).
    pub clock: Option<ClockState>,
    /// The side that ran out of time, if the game ended so (its last turn is
    /// then a resignation of that side's, for the rules).
    pub timed_out: Option<Color>,
    /// Whether the game was aborted (no result; its last turn is a
    /// resignation for the rules).
    pub aborted: bool,
    /// An undo asked for by a side, of its last turn, the game's turn count
    /// when asked.
    pub undo_request: Option<(Color, usize)>,
    /// The last undo request declined: the side that asked, the game's turn
    /// count and undos then (the same request is not made again; stored,
    /// `undo_declines`, so that this holds across a restart).
    pub undo_declined: Option<(Color, usize, i64)>,
    /// A rematch offered by a side, once the game is over.
    pub rematch_offer: Option<Color>,
    /// The rematch's game, once it started.
    pub rematch: Option<String>,
    /// The players' chat, oldest first.
    pub chat: Vec<ChatLine>,
    /// Whether each side's page is open (a heartbeat within
    /// `PRESENCE_MS`), by `Color::index`.
    pub connected: [bool; 2],
    /// Each side's conditional turns (secret to the other side), by
    /// `Color::index`.
    pub conditional: [Vec<Branch>; 2],
    /// In a correspondence game, the vacation that stops each side's clock
    /// on its turns (from the vacation's start, or the side's claim if
    /// later, to when the vacation ends by itself at the latest), by
    /// `Color::index`; `None` while the side's account is not on vacation
    /// (and always under a live clock).
    pub vacation: [Option<Pause>; 2],
}

/// A line of a game's chat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct ChatLine {
    /// 1 for the first line.
    pub number: u32,
    pub color: &'static str,
    pub text: String,
    /// RFC 3339.
    pub at: String,
}

impl Live {
    /// The side to move and its deadline (Unix milliseconds), while the game
    /// is played with a clock: with the mover on vacation, the deadline
    /// once its vacation has ended by itself (sooner if it is switched off).
    pub(crate) fn deadline(&self, control: Option<&TimeControl>) -> Option<(Color, i64)> {
        let (control, clock) = (control?, self.clock.as_ref()?);
        let pos = self.game.position();
        if pos.is_over() {
            return None;
        }
        let color = pos.side_to_move();
        Some((color, clock.deadline(control, color, self.pause())))
    }

    /// The vacation of the side to move (a game in progress), if it is on
    /// one.
    pub(crate) fn pause(&self) -> Option<Pause> {
        let pos = self.game.position();
        if pos.is_over() {
            return None;
        }
        self.vacation[pos.side_to_move().index()]
    }

    /// Whether the clock of the side to move is stopped at `now` by its
    /// vacation.
    pub(crate) fn is_paused(&self, control: Option<&TimeControl>, now: i64) -> bool {
        let (Some(control), Some(clock)) = (control, self.clock.as_ref()) else {
            return false;
        };
        let pos = self.game.position();
        !pos.is_over() && clock.is_stopped(control, pos.side_to_move(), self.pause(), now)
    }
}

/// The position after the first `n` turns of a game.
pub(crate) fn replay(game: &Game, n: usize) -> Position {
    let mut pos = game.start().clone();
    for (color, turn) in game.turns_with_colors().take(n) {
        let played = match turn {
            // A resignation may have been out of turn.
            Turn::Resign => pos.resign_as(color),
            turn => pos.play_turn(turn),
        };
        if played.is_err() {
            // Every turn of a live game was played by the rules.
            break;
        }
    }
    pos
}

/// The opponent stones of `before` that are the other colour in `after`:
/// the reversals of a turn in progress (`api/steps.rs`). A whole turn's
/// come from its summary (`TurnSummary::reversed`).
pub(crate) fn reversed_stones(before: &Position, after: &Position) -> Vec<Point> {
    before
        .stones()
        .filter(|&(p, color)| after.stone_at(p) == Some(color.opponent()))
        .map(|(p, _)| p)
        .collect()
}
