//! The games held in memory, one [`Entry`] each: what never changes about a
//! game ([`Meta`]), its live state ([`Live`]: the `Game` of the rules
//! library), the locks, and the channel of its live updates.
//!
//! Every game played here is in memory (a game is a few kilobytes), so
//! reads never touch the disk; of the uploaded records, only the
//! [`KEPT_UPLOADS`](crate::uploaded::KEPT_UPLOADS) looked at last are (an
//! upload can be thousands of nodes, and anyone may upload): the others are
//! read again when asked for (`follow::entry`). Writes go through [`Entry::play`]: under the
//! game's submission lock it checks the turn number, plays the turn on a
//! copy of the position, commits it to the database, and only then plays it
//! on the live game. Readers take the live lock only to copy the state,
//! never across a wait, so they are not held up by the disk.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, OnceLock};

use axum::body::Bytes;
use parking_lot::{Mutex, MutexGuard, RwLock};
use sygo_rules::{Color, Game, Geometry, Position, Turn, TurnError, TurnSummary, Variant};
use tokio::sync::broadcast;

use crate::clock::{Banked, ClockState, Pause, TimeControl};
use crate::conditional::Branch;
use crate::db::{
    AiJob, ChatRow, Db, GameRow, OfferKind, OfferRow, StoredGame, TurnRow, UndoDeclinedRow,
    WriteError,
};
use crate::error::{ApiError, StoredGameError, StoredGameProblem};
use crate::event_frame::{Kind, Update, frame};
use crate::game::{ChatLine, Live, Meta, Side, Source};
use crate::ratings::{RatingChange, Ratings};
use crate::slots::StopTurn;
use crate::time::now_ms;
use crate::uploaded::{KeptUploads, Uploaded};
use crate::view::{self, Field};

/// The stored turn of a side that ran out of time.
pub(crate) const TIMEOUT: &str = "timeout";

/// The stored turn of an aborted game.
pub(crate) const ABORT: &str = "abort";

/// How a refusal begins when another server on the database stored a turn
/// (or took turns back) first.
const STORED_FIRST: &str = "another turn was stored first";

/// How long a server or worker has the AI's turn of a game once it takes
/// it (it renews it while it thinks: `ai.rs`); a taker killed lets it go
/// after this long, and another takes it.
pub(crate) const AI_LEASE_MS: i64 = 15_000;

/// A side's page counts as open this long after its last heartbeat.
pub(crate) const PRESENCE_MS: i64 = 45_000;

/// A game without a clock that no one has played a turn in ends by itself
/// (aborted) after this long: a week.
pub(crate) const UNTOUCHED_MS: i64 = 7 * 24 * 60 * 60 * 1000;

/// Where a rematch stands after an offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RematchState {
    /// Offered: the other side has not answered.
    Offered,
    /// Both want it (or the other side is the AI): start it.
    Agreed,
    /// It has started: its game.
    Started(String),
}

/// How [`Entry::commit_turn`] plays a turn on the live game.
#[derive(Clone, Copy, Debug)]
enum Move {
    /// A turn of the side to move (`Game::play_as`).
    OnTurn,
    /// A resignation, on the side's turn or not (`Game::resign_as`).
    Resign { on_turn: bool },
}

/// How a game ends other than by its turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The side ran out of time.
    Timeout,
    /// The game is aborted (no result, no rating).
    Abort,
}

/// Live updates buffered per game for slow readers (a reader that falls
/// further behind is sent the current game instead).
const EVENTS_BUFFER: usize = 16;

/// What a live update says (`docs/web.md`, the game's events).
#[derive(Clone, Copy, Debug)]
enum News {
    /// The whole game: a page could not work out the change (turns taken
    /// back).
    Game,
    /// The game's last turn, just added.
    Turn,
    /// A field of the game changed.
    Change(Field),
    /// The chat's last line, just added.
    Chat,
}

/// The turns played in `game`, as the database counts them.
fn game_turns(game: &Game) -> u32 {
    u32::try_from(game.turns().len()).unwrap_or(u32::MAX)
}

/// A game in memory.
pub(crate) struct Entry {
    pub meta: Meta,
    live: Mutex<Live>,
    /// Held while a turn is checked, committed and made live: one at a time.
    submit: tokio::sync::Mutex<()>,
    /// Held by an AI search of this game (a turn, a hint, an analysis).
    pub search: tokio::sync::Mutex<()>,
    /// The stop of the AI's search for its turn, while it runs: raised
    /// when a resignation or an undo makes that turn pointless.
    ai_stop: Mutex<Option<StopTurn>>,
    events: broadcast::Sender<Arc<Update>>,
    /// The last `turn` event sent to the watchers, while it still says the
    /// game as it stands (any other change clears it): the answer to a turn
    /// that asks for its event (`Prefer: return=minimal`) is the same bytes,
    /// not written again.
    last_turn: Mutex<Option<Arc<Update>>>,
    /// An uploaded record, read at the game's first look.
    uploaded: OnceLock<Option<Arc<Uploaded>>>,
    /// When each side's page last said it is open (Unix milliseconds), by
    /// `Color::index`.
    seen: Mutex<[i64; 2]>,
    /// When this server last told the others on its database that each
    /// side's page is open (`Entry::presence`), by `Color::index`.
    told: Mutex<[i64; 2]>,
}

impl Entry {
    /// A game from its parts, as it stands after `game`'s turns (each
    /// summarised once here).
    pub(crate) fn new(meta: Meta, game: Game, updated: i64) -> Entry {
        let clock = meta
            .clock
            .map(|control| ClockState::start(&control, meta.created));
        Entry {
            meta,
            live: Mutex::new(Live {
                summaries: game.summaries(),
                game,
                updated,
                ai_thinking: false,
                undos: 0,
                clock,
                timed_out: None,
                aborted: false,
                undo_request: None,
                undo_declined: None,
                rematch_offer: None,
                rematch: None,
                chat: Vec::new(),
                connected: [false; 2],
                conditional: [Vec::new(), Vec::new()],
                vacation: [None; 2],
            }),
            submit: tokio::sync::Mutex::new(()),
            search: tokio::sync::Mutex::new(()),
            ai_stop: Mutex::new(None),
            events: broadcast::channel(EVENTS_BUFFER).0,
            last_turn: Mutex::new(None),
            uploaded: OnceLock::new(),
            seen: Mutex::new([0; 2]),
            told: Mutex::new([0; 2]),
        }
    }

    /// A game read from the database, its turns replayed. A turn the rules
    /// refuse (which a database written by this server never holds) ends
    /// the game where it was, with a warning.
    pub(crate) fn from_stored(stored: StoredGame) -> Result<Entry, StoredGameError> {
        let row = stored.row;
        let id = row.id.clone();
        let refused = |problem| StoredGameError {
            game: id.clone(),
            problem,
        };
        let variant = Variant::from_name(&row.variant)
            .ok_or_else(|| refused(StoredGameProblem::Variant(row.variant.clone())))?;
        let geometry =
            Geometry::new(variant, row.size).map_err(|e| refused(StoredGameProblem::Board(e)))?;
        let start: Position = row
            .start
            .parse()
            .map_err(|e| refused(StoredGameProblem::Start(e)))?;
        if start.geometry() != geometry {
            return Err(refused(StoredGameProblem::StartOffBoard));
        }
        let side = |json: &str| {
            serde_json::from_str::<Side>(json).map_err(|e| refused(StoredGameProblem::Side(e)))
        };
        let source = Source::from_name(&row.source)
            .ok_or_else(|| refused(StoredGameProblem::Source(row.source.clone())))?;
        let meta = Meta {
            black: side(&row.black)?,
            white: side(&row.white)?,
            geometry,
            komi: row.komi,
            token_digests: [row.black_token, row.white_token],
            source,
            created: row.created,
            record: row.record,
            request_id: row.request_id,
            rated: row.rated,
            rematch_of: row.rematch_of,
            clock: match row.time_control.as_deref() {
                Some(json) => Some(
                    serde_json::from_str::<TimeControl>(json)
                        .map_err(|e| refused(StoredGameProblem::Clock(e)))?,
                ),
                None => None,
            },
            id: row.id,
        };
        let mut game = Game::new(start);
        let mut updated = meta.created;
        let mut clock = meta
            .clock
            .map(|control| ClockState::start(&control, meta.created));
        let mut timed_out = None;
        let mut aborted = false;
        for (i, stored) in stored.turns.iter().enumerate() {
            let text = &stored.turn;
            let color = match stored.color.as_deref() {
                Some("black") => Some(Color::Black),
                Some("white") => Some(Color::White),
                _ => None,
            };
            if text == TIMEOUT || text == ABORT {
                // A side that ran out of time, or an aborted game: a
                // resignation for the rules.
                let Some(color) = color else { break };
                if game.resign_as(color).is_err() {
                    break;
                }
                if text == TIMEOUT {
                    timed_out = Some(color);
                } else {
                    aborted = true;
                }
                updated = updated.max(stored.played);
                continue;
            }
            let turn = Turn::parse(text, &geometry).map_err(|e| e.to_string());
            let played = turn.and_then(|t| {
                match (t, color) {
                    // A resignation may have been out of turn.
                    (Turn::Resign, Some(color)) => game.resign_as(color),
                    (t, Some(color)) => game.play_as(color, t),
                    (t, None) => game.play(t),
                }
                .map_err(|e| e.to_string())
            });
            if let Err(e) = played {
                tracing::warn!(
                    game = %id,
                    turn = i + 1,
                    text = %text,
                    reason = %e,
                    "a stored turn is refused: the game stops before it"
                );
                break;
            }
            updated = updated.max(stored.played);
            if let (Some(c), Some(json)) = (clock.as_mut(), stored.clock.as_deref()) {
                match serde_json::from_str::<Banked>(json) {
                    Ok(banked) => {
                        *c = ClockState {
                            banked,
                            turn_started: stored.played,
                            credit: 0,
                        }
                    }
                    Err(e) => tracing::warn!(
                        game = %id,
                        turn = i + 1,
                        error = %e,
                        "the clock of a stored turn does not read"
                    ),
                }
            }
        }
        // The vacation credited to the running turn.
        let running = u32::try_from(game.turns().len()).unwrap_or(u32::MAX);
        if let (Some(c), Some(&(_, ms))) = (
            clock.as_mut(),
            stored.credits.iter().find(|(turn, _)| *turn == running),
        ) {
            c.credit = ms;
        }
        let entry = Entry::new(meta, game, updated);
        {
            let mut live = entry.live.lock();
            live.undos = row.undos;
            live.clock = clock;
            live.timed_out = timed_out;
            live.aborted = aborted;
            for (color, tree) in &stored.conditionals {
                let i = usize::from(color == "white");
                match serde_json::from_str(tree) {
                    Ok(tree) => live.conditional[i] = tree,
                    Err(e) => {
                        tracing::warn!(game = %id, error = %e, "conditional turns do not read")
                    }
                }
            }
            live.undo_declined = stored.undo_declined.and_then(|d| {
                let color = match d.color.as_str() {
                    "black" => Color::Black,
                    "white" => Color::White,
                    _ => return None,
                };
                Some((color, usize::try_from(d.turn_number).ok()?, d.undos))
            });
            // The offers that still hold: made on the game as it stands.
            let turns = game_turns(&live.game);
            for offer in &stored.offers {
                let Some(color) = Color::from_name(&offer.color) else {
                    continue;
                };
                if offer.turn_number != turns || offer.undos != row.undos {
                    continue;
                }
                match offer.kind {
                    OfferKind::Undo
                        if live.undo_declined != Some((color, turns as usize, row.undos)) =>
                    {
                        live.undo_request = Some((color, turns as usize));
                    }
                    OfferKind::Undo => {}
                    OfferKind::Rematch if live.game.position().is_over() => {
                        live.rematch_offer = Some(color);
                    }
                    OfferKind::Rematch => {}
                }
            }
            live.chat = stored
                .chat
                .into_iter()
                .map(|c| ChatLine {
                    number: c.number,
                    color: if c.color == "black" { "black" } else { "white" },
                    text: c.text,
                    at: crate::time::rfc3339(c.at),
                })
                .collect();
        }
        Ok(entry)
    }

    /// An offer of `color`'s, as stored, on the game as it stands now.
    fn offer_row(&self, kind: OfferKind, color: Color) -> OfferRow {
        let (turns, undos) = self.with_live(|live| (game_turns(&live.game), live.undos));
        OfferRow {
            game_id: self.meta.id.clone(),
            kind,
            color: color.lowercase().to_string(),
            turn_number: turns,
            undos,
        }
    }

    /// The database row of a new game.
    pub(crate) fn row(&self) -> Result<GameRow, ApiError> {
        let side =
            |s: &Side| serde_json::to_string(s).map_err(|e| ApiError::Internal(e.to_string()));
        let m = &self.meta;
        let (start, undos) =
            self.with_live(|live| (live.game.start().to_position_string(), live.undos));
        Ok(GameRow {
            id: m.id.clone(),
            variant: m.geometry.variant().name().to_string(),
            size: m.geometry.size(),
            komi: m.komi,
            black: side(&m.black)?,
            white: side(&m.white)?,
            black_token: m.token_digests[0].clone(),
            white_token: m.token_digests[1].clone(),
            source: m.source.name().to_string(),
            start,
            record: m.record.clone(),
            created: m.created,
            request_id: m.request_id.clone(),
            undos,
            rated: m.rated,
            rematch_of: m.rematch_of.clone(),
            time_control: m
                .clock
                .map(|c| serde_json::to_string(&c))
                .transpose()
                .map_err(|e| ApiError::Internal(e.to_string()))?,
        })
    }

    /// The uploaded record of this game (`None` for a game played here),
    /// read from its text the first time it is asked for.
    pub(crate) fn uploaded(&self) -> Option<Arc<Uploaded>> {
        self.uploaded
            .get_or_init(|| {
                self.meta
                    .record
                    .as_deref()
                    .and_then(Uploaded::read)
                    .map(Arc::new)
            })
            .clone()
    }

    /// Keeps an upload's record as read when it came (instead of reading
    /// its text again at the first look).
    pub(crate) fn keep_uploaded(&self, uploaded: Arc<Uploaded>) {
        let _ = self.uploaded.set(Some(uploaded));
    }

    /// The game as JSON (`view::game_json`), as it stands or with `shown`
    /// turns, with its uploaded record's information.
    pub(crate) fn json(&self, shown: Option<usize>) -> String {
        let uploaded = self.uploaded();
        let info = uploaded.as_ref().map(|u| &u.info);
        self.with_live(|live| view::game_json(&self.meta, live, shown, info))
    }

    /// Looks at the live state (briefly: the lock is held meanwhile).
    pub(crate) fn with_live<R>(&self, f: impl FnOnce(&Live) -> R) -> R {
        f(&self.live.lock())
    }

    /// Whether a live stream watches this game.
    pub(crate) fn watched(&self) -> bool {
        self.events.receiver_count() > 0
    }

    /// Sets whether the AI is thinking, and tells the watchers.
    pub(crate) fn set_ai_thinking(&self, thinking: bool) {
        let mut live = self.live.lock();
        if live.ai_thinking != thinking {
            live.ai_thinking = thinking;
            self.publish(&live, News::Change(Field::AiThinking));
        }
    }

    /// Whether the AI is to move but no search of its turn runs (its last
    /// search failed): if so, marks it thinking again and returns true, and
    /// the caller starts its turn. Checked and set under one lock, so that
    /// of several callers one starts it.
    pub(crate) fn claim_idle_ai_turn(&self) -> bool {
        let mut live = self.live.lock();
        let pos = live.game.position();
        let idle =
            !pos.is_over() && self.meta.side(pos.side_to_move()).is_ai() && !live.ai_thinking;
        if idle {
            live.ai_thinking = true;
            self.publish(&live, News::Change(Field::AiThinking));
        }
        idle
    }

    /// Whether the AI is to move in the live game.
    pub(crate) fn ai_to_move(&self) -> bool {
        let live = self.live.lock();
        let pos = live.game.position();
        !pos.is_over() && self.meta.side(pos.side_to_move()).is_ai()
    }

    /// Watches the live updates: the receiver of the events to come, and
    /// the game as it is now as the first event (`event: game`). Both are
    /// taken under the live lock, under which every event is sent: the
    /// events received are exactly the changes after that game.
    pub(crate) fn watch(&self) -> (broadcast::Receiver<Arc<Update>>, Update) {
        let uploaded = self.uploaded();
        let info = uploaded.as_ref().map(|u| &u.info);
        let live = self.live.lock();
        let updates = self.events.subscribe();
        let json = view::game_json(&self.meta, &live, None, info);
        let first = frame(Kind::Game, live.game.turns().len(), &json);
        (updates, first)
    }

    /// Tells the watchers (if anyone watches) of a change of the live game
    /// (`live`, the lock still held: the events go out in the order of the
    /// changes, each written once for all the watchers).
    fn publish(&self, live: &MutexGuard<'_, Live>, news: News) {
        let mut last_turn = self.last_turn.lock();
        *last_turn = None;
        if self.events.receiver_count() == 0 {
            return;
        }
        let live: &Live = live;
        let number = live.game.turns().len();
        let update = match news {
            News::Game => {
                let uploaded = self.uploaded();
                let info = uploaded.as_ref().map(|u| &u.info);
                let json = view::game_json(&self.meta, live, None, info);
                frame(Kind::Game, number, &json)
            }
            News::Turn => {
                let json = view::turn_event_json(&self.meta, live);
                frame(Kind::Turn, number, &json)
            }
            News::Change(field) => {
                let json = view::change_event_json(&self.meta, live, field);
                frame(Kind::Change, number, &json)
            }
            News::Chat => match view::chat_event_json(live) {
                Some(json) => frame(Kind::Chat, number, &json),
                None => return,
            },
        };
        let update = Arc::new(update);
        if matches!(news, News::Turn) {
            *last_turn = Some(update.clone());
        }
        // No receiver left between the count and the send: nothing lost.
        let _ = self.events.send(update);
    }

    /// The data of the `turn` event of the game's last turn as the game
    /// stands (`docs/web.md`): the event sent to the watchers if nothing
    /// changed since, else written now.
    pub(crate) fn turn_event(&self) -> Bytes {
        let live = self.live.lock();
        if let Some(update) = self.last_turn.lock().as_ref() {
            return update.data.clone();
        }
        Bytes::from(view::turn_event_json(&self.meta, &live))
    }

    /// Plays `turn` for `color` and commits it: the turn number must be
    /// `expected` (the turns played so far) if given, and the count of undos
    /// `undos` if given (the AI's turn was chosen for that state), the game
    /// not over, `color` to move, the turn legal. Returns whether the AI is
    /// to move next (its flag is then already set). Nothing changes on an
    /// error.
    ///
    /// Run it to the end (spawn it): once the database has the turn, the live
    /// game must have it too.
    pub(crate) async fn play(
        &self,
        db: &Db,
        ratings: &Ratings,
        color: Color,
        turn: Turn,
        expected: Option<usize>,
        undos: Option<i64>,
    ) -> Result<bool, ApiError> {
        let _submit = self.submit.lock().await;
        // Another server on the database played the turn this one is told
        // of, and its notice is on the way: read the game now.
        if db.is_shared() && expected.is_some_and(|e| e > self.turn_count()) {
            self.catch_up(db).await;
        }
        match self
            .play_locked(db, ratings, color, turn.clone(), expected, undos)
            .await
        {
            // Another server stored a turn first: played on the game as it
            // now stands, this turn may still be legal (a turn that named
            // the turn it follows was not: it says so).
            Err(ApiError::Conflict(why))
                if why.starts_with(STORED_FIRST) && expected.is_none() && undos.is_none() =>
            {
                self.play_locked(db, ratings, color, turn, None, None).await
            }
            result => result,
        }
    }

    /// The turns played so far.
    pub(crate) fn turn_count(&self) -> usize {
        self.with_live(|live| live.game.turns().len())
    }

    /// `Entry::play`, the submission lock held.
    async fn play_locked(
        &self,
        db: &Db,
        ratings: &Ratings,
        color: Color,
        turn: Turn,
        expected: Option<usize>,
        undos: Option<i64>,
    ) -> Result<bool, ApiError> {
        // Only the position is copied, not the game with its turns: the turn
        // is checked and summarised on the copy, and played on the live game
        // once stored. Boxed, as every position held across an await here: a
        // position is about 10 kB (sized for the largest board), and the
        // future of a turn, spawned and so moved to the heap, would carry it
        // by value.
        let (mut after, number, now_undos, clock, paused) = self.with_live(|live| {
            (
                Box::new(live.game.position().clone()),
                live.game.turns().len(),
                live.undos,
                live.clock,
                live.vacation[color.index()],
            )
        });
        // A turn after the mover's deadline loses on time instead.
        if let (Some(control), Some(clock)) = (&self.meta.clock, clock)
            && !after.is_over()
            && after.side_to_move() == color
            && clock.after_turn(control, color, now_ms(), paused).is_err()
        {
            self.commit_timeout(db, ratings, color).await?;
            return Err(ApiError::Conflict(
                "your time ran out: the game is over".to_string(),
            ));
        }
        if let Some(expected) = expected
            && expected != number
        {
            return Err(ApiError::Conflict(format!(
                "the game is at turn {number}, not {expected}: another turn came first; \
                 reload the game"
            )));
        }
        if undos.is_some_and(|u| u != now_undos) {
            return Err(ApiError::Conflict(
                "turns were taken back meanwhile: reload the game".to_string(),
            ));
        }
        // As `Game::play_as` checks it: a finished game first, then whose
        // turn it is, then the turn itself.
        let summary = if after.is_over() {
            Err(TurnError::GameOver)
        } else if after.side_to_move() != color {
            Err(TurnError::WrongColor {
                to_move: after.side_to_move(),
            })
        } else {
            after.play_turn_summary(&turn)
        }
        .map_err(|e| match e {
            TurnError::GameOver => ApiError::Conflict("the game is over".to_string()),
            TurnError::WrongColor { to_move } => {
                ApiError::NotYourTurn(format!("it is {to_move}'s turn, not yours"))
            }
            other => ApiError::Illegal(other.to_string()),
        })?;
        self.commit_turn(db, ratings, &after, summary, color, Move::OnTurn, turn)
            .await
    }

    /// Resigns for `color`, on its turn or not (a player may resign at any
    /// time), and commits it; the AI's search for its turn, if any, stops.
    /// Nothing changes on an error (409 when the game is over).
    ///
    /// Run it to the end (spawn it), as [`Entry::play`].
    pub(crate) async fn resign(
        &self,
        db: &Db,
        ratings: &Ratings,
        color: Color,
    ) -> Result<(), ApiError> {
        let _submit = self.submit.lock().await;
        let mut after = self.with_live(|live| Box::new(live.game.position().clone()));
        let on_turn = after.side_to_move() == color;
        let refused = |e| match e {
            TurnError::GameOver => ApiError::Conflict("the game is over".to_string()),
            other => ApiError::Illegal(other.to_string()),
        };
        let summary = TurnSummary::of(&after, color, &Turn::Resign).map_err(refused)?;
        after.resign_as(color).map_err(refused)?;
        self.commit_turn(
            db,
            ratings,
            &after,
            summary,
            color,
            Move::Resign { on_turn },
            Turn::Resign,
        )
        .await?;
        self.stop_ai_turn();
        Ok(())
    }

    /// Stores `turn` by `color` (`after`: the live position with it played,
    /// `summary` its summary), then plays it on the live game (`how`: as
    /// `after` was made) and tells the watchers. Called with the submission
    /// lock held, so the live game is the one `after` was played from.
    #[allow(clippy::too_many_arguments)]
    async fn commit_turn(
        &self,
        db: &Db,
        ratings: &Ratings,
        after: &Position,
        summary: TurnSummary,
        color: Color,
        how: Move,
        turn: Turn,
    ) -> Result<bool, ApiError> {
        let number = self.with_live(|live| live.game.turns().len()) + 1;
        let on_turn = match how {
            Move::OnTurn => true,
            Move::Resign { on_turn } => on_turn,
        };
        let now = now_ms();
        // The clock after the turn: the mover's time spent, less any time
        // on vacation (a resignation out of turn leaves the clock as it is).
        let (clock, paused, undos) =
            self.with_live(|live| (live.clock, live.vacation[color.index()], live.undos));
        let clock = match (&self.meta.clock, clock) {
            (Some(control), Some(clock)) if on_turn => {
                // A turn within the deadline (checked by `play`), or a
                // resignation at any time: never a timeout here.
                Some(
                    clock
                        .after_turn(control, color, now, paused)
                        .unwrap_or(ClockState {
                            banked: clock.banked,
                            turn_started: now,
                            credit: 0,
                        }),
                )
            }
            (_, clock) => clock,
        };
        let row = TurnRow {
            game_id: self.meta.id.clone(),
            number: u32::try_from(number).unwrap_or(u32::MAX),
            turn: turn.to_notation(&self.meta.geometry),
            played: now,
            color: Some(color.lowercase().to_string()),
            clock: clock
                .map(|c| serde_json::to_string(&c.banked))
                .transpose()
                .map_err(|e| ApiError::Internal(e.to_string()))?,
            undos,
        };
        let winner = after
            .is_over()
            .then(|| crate::view::winner(after, self.meta.komi))
            .flatten();
        let (_applying, changes) = self.rating_changes(ratings, winner, now).await;
        let ai_next = !after.is_over() && self.meta.side(after.side_to_move()).is_ai();
        self.store_turn(db, row, &changes, self.ai_job(db, ai_next, now), "a turn")
            .await?;
        ratings.apply(&changes);
        {
            let mut live = self.live.lock();
            // Played again on the live game: the same position and turn, so
            // the same result as on `after` (a position copied is 10 kB, and
            // a game copied is its every turn too).
            let played = match how {
                Move::OnTurn => live.game.play_as(color, turn),
                Move::Resign { .. } => live.game.resign_as(color),
            };
            if let Err(e) = played {
                return Err(ApiError::Internal(format!(
                    "turn {number}, stored, does not play on the live game: {e}"
                )));
            }
            live.summaries.truncate(number - 1);
            live.summaries.push(summary);
            live.updated = now;
            live.ai_thinking = ai_next;
            live.clock = clock;
            live.undo_request = None;
            self.publish(&live, News::Turn);
        }
        Ok(ai_next)
    }

    /// Stores a turn (`what` names it for the log) with its rating changes
    /// and the AI's job. A turn number already stored (another server on
    /// the database came first) reads the game again and is a 409 that
    /// begins with [`STORED_FIRST`].
    async fn store_turn(
        &self,
        db: &Db,
        row: TurnRow,
        changes: &[RatingChange],
        job: AiJob,
        what: &str,
    ) -> Result<(), ApiError> {
        let number = row.number;
        let stored = db.insert_turn(row, changes.to_vec(), job).await;
        if stored == Err(WriteError::Duplicate) {
            self.catch_up(db).await;
        }
        stored.map_err(|e| match e {
            WriteError::Duplicate => ApiError::Conflict(format!(
                "{STORED_FIRST}: turn {number} of this game is already stored; reload the game"
            )),
            WriteError::Failed(why) => ApiError::Internal(format!("storing {what}: {why}")),
        })
    }

    /// For a rated game that a turn ends with `winner` (`Some(None)`: a
    /// draw; `None`: the game goes on), its rating changes, with the
    /// ratings' lock held until they are committed and applied (so that two
    /// games of one player ending together both count).
    async fn rating_changes<'a>(
        &self,
        ratings: &'a Ratings,
        winner: Option<Option<Color>>,
        now: i64,
    ) -> (Option<tokio::sync::MutexGuard<'a, ()>>, Vec<RatingChange>) {
        let (Some(accounts), Some(winner)) = (self.meta.rated, winner) else {
            return (None, Vec::new());
        };
        let guard = ratings.applying.lock().await;
        let family = crate::ratings::family(self.meta.geometry.variant());
        let changes = ratings.changes_for(&self.meta.id, family, accounts, winner, now);
        (Some(guard), changes)
    }

    /// Ends the game on time if the side to move is past its deadline
    /// (checked again under the submission lock: a turn committed meanwhile
    /// moved the deadline); a game no one has played a turn in is aborted
    /// instead. Whether it did.
    pub(crate) async fn time_out_if_due(
        &self,
        db: &Db,
        ratings: &Ratings,
    ) -> Result<bool, ApiError> {
        let _submit = self.submit.lock().await;
        let due = self.with_live(|live| {
            let (control, clock) = (self.meta.clock.as_ref()?, live.clock?);
            let pos = live.game.position();
            let color = pos.side_to_move();
            let late = clock.after_turn(control, color, now_ms(), live.pause());
            (!pos.is_over() && late.is_err()).then_some(color)
        });
        match due {
            Some(color) => {
                self.commit_timeout(db, ratings, color).await?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The game's submission lock, held by a change of a player's vacation
    /// across the changes it makes to the game (`vacation.rs`): no turn is
    /// committed and no timeout declared meanwhile.
    pub(crate) async fn hold_submissions(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.submit.lock().await
    }

    /// Whether this game's clock stops for a vacation: a correspondence
    /// clock.
    pub(crate) fn pauses_for_vacation(&self) -> bool {
        matches!(self.meta.clock, Some(TimeControl::Correspondence { .. }))
    }

    /// `color`'s account went on vacation: its clock stops during `pause`
    /// (on its turns; a correspondence game only). Called with the
    /// submission lock held; the watchers are told.
    pub(crate) fn vacation_begins(&self, color: Color, pause: Pause) {
        if !self.pauses_for_vacation() {
            return;
        }
        let mut live = self.live.lock();
        let was = live.vacation[color.index()];
        live.vacation[color.index()] = Some(pause);
        if was != Some(pause) {
            self.publish(&live, News::Change(Field::Clock));
        }
    }

    /// What the end of `color`'s vacation at `end` credits to the running
    /// turn, if `color` is to move with its clock stopped: the turns played
    /// (the turn it is credited to) and the turn's whole credit then.
    pub(crate) fn vacation_credit(&self, color: Color, end: i64) -> Option<(usize, i64)> {
        self.with_live(|live| {
            let pos = live.game.position();
            if pos.is_over() || pos.side_to_move() != color {
                return None;
            }
            let pause = live.vacation[color.index()]?;
            let (control, clock) = (self.meta.clock.as_ref()?, live.clock?);
            let credited = clock.credited(control, color, pause, end);
            Some((live.game.turns().len(), credited.credit))
        })
    }

    /// `color`'s vacation ended (committed already, with the running
    /// turn's `credit` if it has one): its clock runs again. Called with
    /// the submission lock held; the watchers are told.
    pub(crate) fn vacation_ends(&self, color: Color, credit: Option<i64>) {
        let mut live = self.live.lock();
        let was = live.vacation[color.index()].take();
        if let (Some(credit), Some(clock)) = (credit, live.clock.as_mut()) {
            clock.credit = credit;
        }
        if was.is_some() || credit.is_some() {
            self.publish(&live, News::Change(Field::Clock));
        }
    }

    /// Sets `color`'s vacation as stored, when the games are read at start
    /// (nothing runs yet: no lock).
    pub(crate) fn vacation_as_stored(&self, color: Color, pause: Pause) {
        if self.pauses_for_vacation() {
            self.live.lock().vacation[color.index()] = Some(pause);
        }
    }

    /// Ends the game aborted if no one has played a turn in it for
    /// [`UNTOUCHED_MS`] (a game without a clock: a clock's first deadline
    /// comes sooner). Whether it did.
    pub(crate) async fn abort_if_untouched(
        &self,
        db: &Db,
        ratings: &Ratings,
        now: i64,
    ) -> Result<bool, ApiError> {
        let untouched = |live: &Live| {
            live.game.turns().is_empty()
                && !live.game.position().is_over()
                && now - self.meta.created >= UNTOUCHED_MS
        };
        if self.meta.clock.is_some() || !self.with_live(untouched) {
            return Ok(false);
        }
        let _submit = self.submit.lock().await;
        if !self.with_live(untouched) {
            return Ok(false);
        }
        let color = self.with_live(|live| live.game.position().side_to_move());
        self.commit_ending(db, ratings, color, Ending::Abort)
            .await?;
        Ok(true)
    }

    /// Whether `color` has played a turn in this game.
    fn has_played(live: &Live, color: Color) -> bool {
        live.game.turns_with_colors().any(|(c, _)| c == color)
    }

    /// `color` aborts the game: allowed before its first turn (docs/web.md,
    /// Etiquette); no result, no rating. Nothing changes on an error.
    pub(crate) async fn abort(
        &self,
        db: &Db,
        ratings: &Ratings,
        color: Color,
    ) -> Result<(), ApiError> {
        let _submit = self.submit.lock().await;
        let (over, played) = self.with_live(|live| {
            (
                live.game.position().is_over(),
                Self::has_played(live, color),
            )
        });
        if over {
            return Err(ApiError::Conflict("the game is over".to_string()));
        }
        if played {
            return Err(ApiError::Conflict(
                "a game is aborted only before your first turn: resign instead".to_string(),
            ));
        }
        self.commit_ending(db, ratings, color, Ending::Abort).await
    }

    /// Stores that `color` ran out of time (a `timeout` turn), then ends the
    /// live game so; the AI's search for its turn stops. Called with the
    /// submission lock held, once the deadline is past.
    async fn commit_timeout(
        &self,
        db: &Db,
        ratings: &Ratings,
        color: Color,
    ) -> Result<(), ApiError> {
        // A game in which no one has played a turn is aborted, not lost.
        let untouched = self.with_live(|live| live.game.turns().is_empty());
        let ending = if untouched {
            Ending::Abort
        } else {
            Ending::Timeout
        };
        self.commit_ending(db, ratings, color, ending).await
    }

    /// Stores that the game ends by `color` running out of time or by an
    /// abort (a `timeout` or `abort` turn of `color`'s), then ends the live
    /// game so; the AI's search for its turn stops. Called with the
    /// submission lock held.
    async fn commit_ending(
        &self,
        db: &Db,
        ratings: &Ratings,
        color: Color,
        ending: Ending,
    ) -> Result<(), ApiError> {
        let (mut game, mut clock, undos) =
            self.with_live(|live| (Box::new(live.game.clone()), live.clock, live.undos));
        // The side that ran out has nothing left.
        if let (Some(c), Ending::Timeout) = (clock.as_mut(), ending) {
            c.banked.left[color.index()] = 0;
            c.banked.periods[color.index()] = 0;
        }
        let before = Box::new(game.position().clone());
        game.resign_as(color)
            .map_err(|e| ApiError::Conflict(e.to_string()))?;
        let summary = TurnSummary::of(&before, color, &Turn::Resign)
            .map_err(|e| ApiError::Internal(format!("summarising a timeout: {e}")))?;
        let number = game.turns().len();
        let now = now_ms();
        let row = TurnRow {
            game_id: self.meta.id.clone(),
            number: u32::try_from(number).unwrap_or(u32::MAX),
            turn: match ending {
                Ending::Timeout => TIMEOUT,
                Ending::Abort => ABORT,
            }
            .to_string(),
            played: now,
            color: Some(color.lowercase().to_string()),
            clock: clock
                .map(|c| serde_json::to_string(&c.banked))
                .transpose()
                .map_err(|e| ApiError::Internal(e.to_string()))?,
            undos,
        };
        // An aborted game changes no rating.
        let winner = (ending == Ending::Timeout).then_some(Some(color.opponent()));
        let (_applying, changes) = self.rating_changes(ratings, winner, now).await;
        self.store_turn(db, row, &changes, self.ai_job(db, false, now), "a timeout")
            .await?;
        ratings.apply(&changes);
        {
            let mut live = self.live.lock();
            live.game = *game;
            live.summaries.truncate(number - 1);
            live.summaries.push(summary);
            live.updated = now;
            live.ai_thinking = false;
            match ending {
                Ending::Timeout => live.timed_out = Some(color),
                Ending::Abort => live.aborted = true,
            }
            live.clock = clock;
            live.undo_request = None;
            self.publish(&live, News::Turn);
        }
        self.stop_ai_turn();
        Ok(())
    }

    /// `color` asks the other person to take back its last turn (a game
    /// between two people on their own pages, without a clock): the
    /// request stands until answered or until another turn is played.
    /// `expected`: the turns the page saw.
    pub(crate) async fn request_undo(
        &self,
        db: &Db,
        color: Color,
        expected: usize,
    ) -> Result<(), ApiError> {
        if self.meta.clock.is_some() {
            return Err(ApiError::NotOffered(
                "undo is not offered in a game with a clock".to_string(),
            ));
        }
        if self.meta.side(color.opponent()).is_ai() {
            return Err(ApiError::NotOffered(
                "against the AI a turn is taken back at once: use undo".to_string(),
            ));
        }
        let _submit = self.submit.lock().await;
        {
            let live = self.live.lock();
            let number = live.game.turns().len();
            if number != expected {
                return Err(ApiError::Conflict(format!(
                    "the game is at turn {number}, not {expected}: reload the game"
                )));
            }
            if live.game.position().is_over() {
                return Err(ApiError::Conflict("the game is over".to_string()));
            }
            let last_is_mine = live
                .game
                .turns_with_colors()
                .last()
                .is_some_and(|(c, _)| c == color);
            if !last_is_mine {
                return Err(ApiError::Conflict(
                    "only your last turn can be taken back, before the other side plays"
                        .to_string(),
                ));
            }
            if live.undo_declined == Some((color, number, live.undos)) {
                return Err(ApiError::Conflict(format!(
                    "{} declined to take back this turn already: it stands",
                    color.opponent().name()
                )));
            }
            if live.undo_request == Some((color, number)) {
                // Asked already: nothing changes.
                return Ok(());
            }
        }
        // Stored first: the request holds across a restart, and on every
        // server of the database.
        db.offer(self.offer_row(OfferKind::Undo, color))
            .await
            .map_err(|e| ApiError::Internal(format!("storing an undo request: {e:?}")))?;
        let mut live = self.live.lock();
        live.undo_request = Some((color, live.game.turns().len()));
        self.publish(&live, News::Change(Field::UndoRequest));
        Ok(())
    }

    /// `color` answers the other side's undo request: `accept` takes its
    /// last turn back (committed); otherwise the request is declined.
    pub(crate) async fn answer_undo(
        &self,
        db: &Db,
        color: Color,
        accept: bool,
    ) -> Result<(), ApiError> {
        let _submit = self.submit.lock().await;
        let (request, mut game, undos) =
            self.with_live(|live| (live.undo_request, live.game.clone(), live.undos));
        let Some((asker, at)) =
            request.filter(|(asker, at)| *asker == color.opponent() && *at == game.turns().len())
        else {
            return Err(ApiError::Conflict(
                "there is no undo request of the other side's to answer".to_string(),
            ));
        };
        if !accept {
            // Stored first: the decline holds across a restart.
            db.decline_undo(UndoDeclinedRow {
                game_id: self.meta.id.clone(),
                color: asker.lowercase().to_string(),
                turn_number: u32::try_from(at).unwrap_or(u32::MAX),
                undos,
            })
            .await
            .map_err(|e| ApiError::Internal(format!("storing a declined undo request: {e:?}")))?;
            let mut live = self.live.lock();
            live.undo_request = None;
            live.undo_declined = Some((asker, at, undos));
            self.publish(&live, News::Change(Field::UndoRequest));
            return Ok(());
        }
        debug_assert_eq!(asker, color.opponent());
        game.undo();
        debug_assert_eq!(game.turns().len(), at - 1);
        self.commit_undo(db, game, undos).await
    }

    /// Stores that `game` (the live game with turns taken back) is the game
    /// now, counting one more undo, then makes it live (no AI thinking, no
    /// undo request left) and tells the watchers the whole game (the turn
    /// number went down: no small event says it). Called with the
    /// submission lock held.
    async fn commit_undo(&self, db: &Db, game: Game, undos: i64) -> Result<(), ApiError> {
        let keep = game.turns().len();
        let played = self.turn_count();
        let ai_next =
            !game.position().is_over() && self.meta.side(game.position().side_to_move()).is_ai();
        let stored = db
            .undo(
                &self.meta.id,
                u32::try_from(played).unwrap_or(u32::MAX),
                u32::try_from(keep).unwrap_or(u32::MAX),
                undos + 1,
                self.ai_job(db, ai_next, now_ms()),
            )
            .await;
        if stored == Err(WriteError::Duplicate) {
            self.catch_up(db).await;
            return Err(ApiError::Conflict(format!(
                "{STORED_FIRST}: the game changed meanwhile; reload the game"
            )));
        }
        stored.map_err(|e| ApiError::Internal(format!("taking turns back: {e:?}")))?;
        let mut live = self.live.lock();
        live.game = game;
        live.summaries.truncate(keep);
        live.updated = now_ms();
        live.ai_thinking = false;
        live.undos = undos + 1;
        live.undo_request = None;
        self.publish(&live, News::Game);
        Ok(())
    }

    /// Sets `color`'s conditional turns (checked by the rules on the game as
    /// it stands, with the other side to move; an empty tree clears them).
    pub(crate) async fn set_conditional(
        &self,
        db: &Db,
        color: Color,
        tree: Vec<Branch>,
    ) -> Result<(), ApiError> {
        let _submit = self.submit.lock().await;
        let game = self.with_live(|live| live.game.clone());
        if !tree.is_empty() {
            crate::conditional::check(&tree, &game, color)?;
        }
        let json = (!tree.is_empty())
            .then(|| serde_json::to_string(&tree))
            .transpose()
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        db.set_conditional(&self.meta.id, color.lowercase(), json)
            .await
            .map_err(|e| ApiError::Internal(format!("storing conditional turns: {e:?}")))?;
        self.live.lock().conditional[color.index()] = tree;
        Ok(())
    }

    /// After a turn: if the side now to move left conditional turns and one
    /// answers the turn just played, plays that answer (its tree moves on
    /// to what follows, stored first); if none does, its tree is cleared.
    /// `Some(ai_next)` when an answer was played.
    pub(crate) async fn fire_conditional(
        &self,
        db: &Db,
        ratings: &Ratings,
    ) -> Result<Option<bool>, ApiError> {
        // The usual case, seen without the submission lock or a copy of the
        // game: the side to move left no conditional turns. (It sets them
        // only while the other side is to move, under that lock: none can
        // appear for it before the other side's next turn.)
        let waiting_has_none = self.with_live(|live| {
            let pos = live.game.position();
            pos.is_over() || live.conditional[pos.side_to_move().index()].is_empty()
        });
        if waiting_has_none {
            return Ok(None);
        }
        let _submit = self.submit.lock().await;
        let (game, trees) =
            self.with_live(|live| (Box::new(live.game.clone()), live.conditional.clone()));
        let pos = game.position();
        if pos.is_over() {
            return Ok(None);
        }
        let waiting = pos.side_to_move();
        let tree = &trees[waiting.index()];
        if tree.is_empty() {
            return Ok(None);
        }
        let Some((last, _)) = game.turns_with_colors().last() else {
            return Ok(None);
        };
        if last != waiting.opponent() {
            return Ok(None);
        }
        let mut before = game.clone();
        before.undo();
        let branch =
            crate::conditional::matching(tree, &before, pos.hash(), waiting.opponent()).cloned();
        // The tree moves on (or is cleared) before the answer is played: a
        // stop in between leaves the side to move, never a wrong answer.
        let next = branch.as_ref().map(|b| b.next.clone()).unwrap_or_default();
        let json = (!next.is_empty())
            .then(|| serde_json::to_string(&next))
            .transpose()
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        db.set_conditional(&self.meta.id, waiting.lowercase(), json)
            .await
            .map_err(|e| ApiError::Internal(format!("storing conditional turns: {e:?}")))?;
        self.live.lock().conditional[waiting.index()] = next;
        let Some(branch) = branch else {
            return Ok(None);
        };
        let turn = Turn::parse(branch.then.trim(), &self.meta.geometry)
            .map_err(|e| ApiError::Internal(format!("a stored conditional turn: {e}")))?;
        let mut after = Box::new(pos.clone());
        let Ok(summary) = after.play_turn_summary(&turn) else {
            // Checked when set; the position is the one it was checked on.
            return Ok(None);
        };
        let ai_next = self
            .commit_turn(db, ratings, &after, summary, waiting, Move::OnTurn, turn)
            .await?;
        Ok(Some(ai_next))
    }

    /// Adds a line to the chat (committed first).
    pub(crate) async fn chat(&self, db: &Db, color: Color, text: String) -> Result<(), ApiError> {
        let _submit = self.submit.lock().await;
        let number = self.with_live(|live| live.chat.len()) as u32 + 1;
        let now = now_ms();
        db.insert_chat(ChatRow {
            game_id: self.meta.id.clone(),
            number,
            color: color.lowercase().to_string(),
            text: text.clone(),
            at: now,
        })
        .await
        .map_err(|e| ApiError::Internal(format!("storing a chat line: {e:?}")))?;
        let mut live = self.live.lock();
        live.chat.push(ChatLine {
            number,
            color: color.lowercase(),
            text,
            at: crate::time::rfc3339(now),
        });
        self.publish(&live, News::Chat);
        Ok(())
    }

    /// A side's page says it is open (`present`) or closing: its side is
    /// shown connected or not; the watchers are told of a change. Whether
    /// the other servers on the database should hear of it too: a change,
    /// or a page still open that they last heard of a third of
    /// [`PRESENCE_MS`] ago (so that they do not expire it).
    pub(crate) fn presence(&self, color: Color, present: bool, now: i64) -> bool {
        self.seen.lock()[color.index()] = if present { now } else { 0 };
        let mut live = self.live.lock();
        let was = live.connected[color.index()];
        live.connected[color.index()] = present;
        if was != present {
            self.publish(&live, News::Change(Field::Connected));
        }
        drop(live);
        let mut told = self.told.lock();
        let tell = was != present || !present || now - told[color.index()] >= PRESENCE_MS / 3;
        if tell {
            told[color.index()] = if present { now } else { 0 };
        }
        tell
    }

    /// Shows as disconnected the sides whose page has not said it is open
    /// for [`PRESENCE_MS`].
    pub(crate) fn expire_presence(&self, now: i64) {
        let seen = *self.seen.lock();
        let mut live = self.live.lock();
        let mut changed = false;
        for c in [Color::Black, Color::White] {
            if live.connected[c.index()] && now - seen[c.index()] > PRESENCE_MS {
                live.connected[c.index()] = false;
                changed = true;
            }
        }
        if changed {
            self.publish(&live, News::Change(Field::Connected));
        }
    }

    /// Records a rematch offer of `color`'s (the game must be over; stored,
    /// so that it holds across a restart and on every server); returns
    /// whether the other side had offered one already (then the caller
    /// starts the rematch), or the rematch's game if it started.
    pub(crate) async fn offer_rematch(
        &self,
        db: &Db,
        color: Color,
    ) -> Result<RematchState, ApiError> {
        let _submit = self.submit.lock().await;
        // Twice at most: an offer of the other side's stored on another
        // server meanwhile is read, and agreed to.
        for _ in 0..2 {
            {
                let live = self.live.lock();
                if !live.game.position().is_over() {
                    return Err(ApiError::Conflict(
                        "a rematch is offered once the game is over".to_string(),
                    ));
                }
                if let Some(game) = &live.rematch {
                    return Ok(RematchState::Started(game.clone()));
                }
                if live.rematch_offer == Some(color.opponent())
                    || self.meta.side(color.opponent()).is_ai()
                {
                    return Ok(RematchState::Agreed);
                }
                if live.rematch_offer == Some(color) {
                    return Ok(RematchState::Offered);
                }
            }
            match db.offer(self.offer_row(OfferKind::Rematch, color)).await {
                Ok(()) => {
                    let mut live = self.live.lock();
                    live.rematch_offer = Some(color);
                    self.publish(&live, News::Change(Field::Rematch));
                    return Ok(RematchState::Offered);
                }
                Err(WriteError::Duplicate) => self.catch_up(db).await,
                Err(e) => {
                    return Err(ApiError::Internal(format!(
                        "storing a rematch offer: {e:?}"
                    )));
                }
            }
        }
        Err(ApiError::Conflict(
            "the game changed meanwhile: reload the game".to_string(),
        ))
    }

    /// `color` withdraws its rematch offer (before the other side accepts
    /// it); 409 when it has none standing, or the rematch started.
    pub(crate) async fn withdraw_rematch(&self, db: &Db, color: Color) -> Result<(), ApiError> {
        let _submit = self.submit.lock().await;
        {
            let live = self.live.lock();
            if live.rematch.is_some() {
                return Err(ApiError::Conflict(
                    "the rematch has started already: it is no longer withdrawn".to_string(),
                ));
            }
            if live.rematch_offer != Some(color) {
                return Err(ApiError::Conflict(
                    "you have no rematch offer to withdraw".to_string(),
                ));
            }
        }
        db.withdraw_offer(&self.meta.id, OfferKind::Rematch, color)
            .await
            .map_err(|e| ApiError::Internal(format!("withdrawing a rematch offer: {e:?}")))?;
        let mut live = self.live.lock();
        live.rematch_offer = None;
        self.publish(&live, News::Change(Field::Rematch));
        Ok(())
    }

    /// The rematch's game started (kept in memory; a restart finds it by
    /// its `rematch_of`).
    pub(crate) fn set_rematch(&self, game: String) {
        let mut live = self.live.lock();
        live.rematch = Some(game);
        live.rematch_offer = None;
        self.publish(&live, News::Change(Field::Rematch));
    }

    /// Takes back turns for `color` and commits it (`docs/web.md`, undo):
    /// against the AI, the player's last turn and the AI's answer if it has
    /// played it (its search for an answer is stopped); between two people
    /// the last turn, only when the request holds both sides' tokens
    /// (`both`: one page plays both sides). `expected` is the number of
    /// turns the page saw. Returns the number of turns taken back. Nothing
    /// changes on an error.
    ///
    /// Run it to the end (spawn it), as [`Entry::play`].
    pub(crate) async fn undo(
        &self,
        db: &Db,
        color: Color,
        both: bool,
        expected: usize,
    ) -> Result<usize, ApiError> {
        if self.meta.clock.is_some() {
            return Err(ApiError::NotOffered(
                "undo is not offered in a game with a clock".to_string(),
            ));
        }
        let _submit = self.submit.lock().await;
        let (mut game, undos) = self.with_live(|live| (live.game.clone(), live.undos));
        let number = game.turns().len();
        if expected != number {
            return Err(ApiError::Conflict(format!(
                "the game is at turn {number}, not {expected}: another turn came first; \
                 reload the game"
            )));
        }
        if game.position().is_over() {
            return Err(ApiError::Conflict(
                "the game is over: its turns are no longer taken back".to_string(),
            ));
        }
        let against_ai = self.meta.side(color.opponent()).is_ai();
        let take = if against_ai {
            if game.position().side_to_move() == color {
                2
            } else {
                1
            }
        } else if both {
            1
        } else {
            return Err(ApiError::NotOffered(
                "undo is not offered in a game between two people on their own pages: \
                 a turn played stands"
                    .to_string(),
            ));
        };
        let mine = number
            .checked_sub(take)
            .and_then(|i| game.turns_with_colors().nth(i))
            .is_some_and(|(c, _)| c == color || !against_ai);
        if !mine {
            return Err(ApiError::Conflict(
                "there is no turn of yours to take back".to_string(),
            ));
        }
        for _ in 0..take {
            game.undo();
        }
        self.commit_undo(db, game, undos).await?;
        self.stop_ai_turn();
        Ok(take)
    }

    /// Keeps the stop of the AI's search for its turn (`None` when it
    /// ends).
    pub(crate) fn set_ai_stop(&self, stop: Option<StopTurn>) {
        *self.ai_stop.lock() = stop;
    }

    /// Stops the AI's search for its turn, if one runs.
    fn stop_ai_turn(&self) {
        if let Some(stop) = self.ai_stop.lock().as_ref() {
            stop.raise();
        }
    }

    /// What a write leaves of this game's AI job: none in a game without
    /// the AI; the AI to move (`ai_next`) makes one, which this server
    /// takes at once if it plays the AI's turns (it does, right after).
    pub(crate) fn ai_job(&self, db: &Db, ai_next: bool, now: i64) -> AiJob {
        if !(self.meta.black.is_ai() || self.meta.white.is_ai()) {
            AiJob::Unchanged
        } else if ai_next {
            AiJob::Due {
                taken: db
                    .takes_ai()
                    .then(|| (db.instance().to_string(), now + AI_LEASE_MS)),
            }
        } else {
            AiJob::Done
        }
    }

    /// Reads the game again from the database and makes it live (another
    /// server on the database changed it). Called with the submission lock
    /// held; a failure leaves the game as it was (logged).
    pub(crate) async fn catch_up(&self, db: &Db) {
        match db.load_game(&self.meta.id).await {
            Ok(Some(stored)) => {
                if let Err(e) = self.refresh(stored) {
                    tracing::error!(error = %e, "a game read again does not replay");
                }
            }
            Ok(None) => {}
            Err(e) => {
                tracing::error!(game = %self.meta.id, error = ?e, "a game cannot be read again")
            }
        }
    }

    /// Makes `stored` (this game as the database has it) the live game, and
    /// tells the watchers: a chat line alone as a `chat` event, anything
    /// else as the whole game. What is not stored (pages open, vacations,
    /// the rematch's game) stays as this server has it. Called with the
    /// submission lock held.
    pub(crate) fn refresh(&self, stored: StoredGame) -> Result<(), StoredGameError> {
        let fresh = Entry::from_stored(stored)?.live.into_inner();
        let mut live = self.live.lock();
        let moved = fresh.game.turns().len() != live.game.turns().len()
            || fresh.undos != live.undos
            || fresh.game.position().is_over() != live.game.position().is_over();
        let same_notes = fresh.conditional == live.conditional
            && fresh.undo_declined == live.undo_declined
            && fresh.undo_request == live.undo_request
            && fresh.rematch_offer == live.rematch_offer;
        if !moved && same_notes && fresh.chat.len() == live.chat.len() {
            // Nothing that is stored changed (the game was read again on a
            // wake-up that this server's state already answers).
            return Ok(());
        }
        let chat_only = !moved && same_notes && fresh.chat.len() == live.chat.len() + 1;
        let pos = fresh.game.position();
        let ai_next = !pos.is_over() && self.meta.side(pos.side_to_move()).is_ai();
        let kept = Live {
            ai_thinking: ai_next,
            rematch: live.rematch.take(),
            connected: live.connected,
            vacation: live.vacation,
            ..fresh
        };
        *live = kept;
        self.publish(&live, if chat_only { News::Chat } else { News::Game });
        drop(live);
        if moved {
            // This server's search for the AI's turn, if any, is for a game
            // that moved on.
            self.stop_ai_turn();
        }
        Ok(())
    }

    /// Plays a turn another server on the database stored (`row`, from its
    /// notice) on the live game, if it is the next turn of the game as this
    /// server has it, and tells the watchers as for a turn played here.
    /// Called with the submission lock held.
    pub(crate) fn follow_turn(&self, row: &TurnRow) -> Followed {
        let mut live = self.live.lock();
        let have = live.game.turns().len();
        let number = usize::try_from(row.number).unwrap_or(usize::MAX);
        if row.undos < live.undos || (row.undos == live.undos && number <= have) {
            return Followed::Known;
        }
        if row.undos > live.undos || number != have + 1 || row.turn == TIMEOUT || row.turn == ABORT
        {
            return Followed::Behind;
        }
        let color = match row.color.as_deref() {
            Some("black") => Color::Black,
            Some("white") => Color::White,
            _ => return Followed::Behind,
        };
        let Ok(turn) = Turn::parse(&row.turn, &self.meta.geometry) else {
            return Followed::Behind;
        };
        let Ok(summary) = TurnSummary::of(live.game.position(), color, &turn) else {
            return Followed::Behind;
        };
        let played = match turn {
            Turn::Resign => live.game.resign_as(color),
            turn => live.game.play_as(color, turn),
        };
        if played.is_err() {
            return Followed::Behind;
        }
        live.summaries.truncate(number - 1);
        live.summaries.push(summary);
        live.updated = row.played;
        if let (Some(clock), Some(json)) = (live.clock.as_mut(), row.clock.as_deref())
            && let Ok(banked) = serde_json::from_str::<Banked>(json)
        {
            *clock = ClockState {
                banked,
                turn_started: row.played,
                credit: 0,
            };
        }
        let pos = live.game.position();
        live.ai_thinking = !pos.is_over() && self.meta.side(pos.side_to_move()).is_ai();
        live.undo_request = None;
        self.publish(&live, News::Turn);
        Followed::Played
    }
}

/// What became of a turn another server stored ([`Entry::follow_turn`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Followed {
    /// Played on the live game.
    Played,
    /// The live game has it already (or is past it).
    Known,
    /// The live game is not at the turn before it: read the game again.
    Behind,
}

/// Every game, by id.
#[derive(Default)]
pub(crate) struct Games {
    map: RwLock<HashMap<String, Arc<Entry>>>,
    /// The games played here (not uploaded), by creation time and id: the
    /// games list's order, read a page at a time.
    played: RwLock<BTreeSet<(i64, String)>>,
    /// The uploaded games in memory, the one looked at last at the end.
    uploads: Mutex<KeptUploads>,
    /// The games created with a request id, by that id.
    by_request: RwLock<HashMap<String, Arc<Entry>>>,
    /// Held while a game with a request id is looked up and created, so
    /// that two requests with the same id create one game.
    pub creating: tokio::sync::Mutex<()>,
    /// The latest creation time handed out or loaded, so that creation
    /// times are unique and the games list keeps the order of creation even
    /// for games created within the same millisecond.
    last_created: Mutex<i64>,
    /// Held while a game read from the database is added (`insert_new`).
    adding: Mutex<()>,
}

/// Where a page of the games list starts: after the game created at this
/// time with this id (`GET /api/games?before=…`).
pub(crate) type ListCursor = (i64, String);

impl Games {
    /// A creation time for a new game: now, or one millisecond after the
    /// latest game if the clock has not moved on (or went back).
    pub(crate) fn next_created(&self) -> i64 {
        let mut last = self.last_created.lock();
        *last = now_ms().max(last.saturating_add(1));
        *last
    }

    /// The game with this id, if it is in memory (an uploaded one that is
    /// not is read by `follow::entry`). An uploaded game found is the one
    /// looked at last.
    pub(crate) fn get(&self, id: &str) -> Result<Arc<Entry>, ApiError> {
        let entry = self
            .map
            .read()
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::no_game(id))?;
        if entry.meta.source == Source::Uploaded {
            self.uploads.lock().looked_at(id);
        }
        Ok(entry)
    }

    /// Whether an id is taken by a game in memory.
    pub(crate) fn contains(&self, id: &str) -> bool {
        self.map.read().contains_key(id)
    }

    /// Adds a game. Adding an uploaded one lets go of the uploaded game
    /// looked at longest ago (and watched by no one) beyond
    /// [`KEPT_UPLOADS`](crate::uploaded::KEPT_UPLOADS).
    pub(crate) fn insert(&self, entry: Arc<Entry>) {
        {
            let mut last = self.last_created.lock();
            *last = (*last).max(entry.meta.created);
        }
        if let Some(request) = &entry.meta.request_id {
            self.by_request
                .write()
                .insert(request.clone(), entry.clone());
        }
        let id = entry.meta.id.clone();
        let uploaded = entry.meta.source == Source::Uploaded;
        if !uploaded {
            self.played.write().insert((entry.meta.created, id.clone()));
        }
        self.map.write().insert(id.clone(), entry);
        if uploaded {
            let mut uploads = self.uploads.lock();
            uploads.looked_at(&id);
            let map = &self.map;
            for gone in uploads.let_go(|id| map.read().get(id).is_some_and(|e| e.watched())) {
                map.write().remove(&gone);
            }
        }
    }

    /// Adds a game read from the database unless one with its id is
    /// there already (read by another task meanwhile); the one kept.
    pub(crate) fn insert_new(&self, entry: Arc<Entry>) -> Arc<Entry> {
        if let Ok(there) = self.get(&entry.meta.id) {
            return there;
        }
        let _one_at_a_time = self.adding.lock();
        if let Ok(there) = self.get(&entry.meta.id) {
            return there;
        }
        self.insert(entry.clone());
        entry
    }

    /// The game created by the request with this id.
    pub(crate) fn by_request(&self, request_id: &str) -> Option<Arc<Entry>> {
        self.by_request.read().get(request_id).cloned()
    }

    /// Every game in memory, in no order.
    pub(crate) fn all(&self) -> Vec<Arc<Entry>> {
        self.map.read().values().cloned().collect()
    }

    /// Every game played with a clock and not over: its entry and the
    /// deadline of the side to move.
    pub(crate) fn deadlines(&self) -> Vec<(Arc<Entry>, i64)> {
        self.map
            .read()
            .values()
            .filter_map(|e| {
                let control = e.meta.clock.as_ref()?;
                let (_, deadline) = e.with_live(|live| live.deadline(Some(control)))?;
                Some((e.clone(), deadline))
            })
            .collect()
    }

    /// Every game in memory, newest first.
    pub(crate) fn newest_first(&self) -> Vec<Arc<Entry>> {
        let mut all: Vec<Arc<Entry>> = self.map.read().values().cloned().collect();
        all.sort_by(|a, b| (b.meta.created, &b.meta.id).cmp(&(a.meta.created, &a.meta.id)));
        all
    }

    /// A page of the games played here, newest first: at most `n` created
    /// before `before` (from the newest without it), and whether more
    /// follow. Its work is that of the page, however many games there are.
    pub(crate) fn page(&self, before: Option<&ListCursor>, n: usize) -> (Vec<Arc<Entry>>, bool) {
        let played = self.played.read();
        let mut older = match before {
            Some(cursor) => played.range(..cursor.clone()),
            None => played.range(..),
        }
        .rev();
        let map = self.map.read();
        let page: Vec<Arc<Entry>> = older
            .by_ref()
            .take(n)
            .filter_map(|(_, id)| map.get(id).cloned())
            .collect();
        (page, older.next().is_some())
    }

    /// Number of games in memory.
    pub(crate) fn len(&self) -> usize {
        self.map.read().len()
    }

    /// Number of uploaded games in memory.
    pub(crate) fn uploads_held(&self) -> usize {
        self.uploads.lock().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_people() -> Entry {
        let geometry = Geometry::new(Variant::Sygo, 5).unwrap();
        let meta = Meta {
            id: "0000abcd".to_string(),
            geometry,
            komi: 0.0,
            black: Side::Human { name: None },
            white: Side::Human { name: None },
            token_digests: [
                Some(crate::secret::digest(&"b".repeat(32))),
                Some(crate::secret::digest(&"w".repeat(32))),
            ],
            source: Source::Played,
            created: 0,
            record: None,
            request_id: None,
            clock: None,
            rated: None,
            rematch_of: None,
        };
        Entry::new(meta, Game::new(Position::new(geometry)), 0)
    }

    #[test]
    fn a_side_whose_page_says_nothing_for_a_while_is_shown_disconnected() {
        let e = two_people();
        let (mut watch, _) = e.watch();
        e.presence(Color::White, true, 1_000);
        assert!(e.with_live(|l| l.connected[1]));
        assert!(watch.try_recv().is_ok(), "the other side is told");
        e.presence(Color::White, true, 20_000);
        assert!(watch.try_recv().is_err(), "no change, no news");
        e.expire_presence(20_000 + PRESENCE_MS);
        assert!(e.with_live(|l| l.connected[1]), "still within the time");
        e.expire_presence(20_001 + PRESENCE_MS);
        assert!(!e.with_live(|l| l.connected[1]));
        assert!(watch.try_recv().is_ok());
    }
}
