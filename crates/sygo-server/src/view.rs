//! The JSON of a game (`GET /api/games/{id}`, live updates, answers to
//! turns; the chat's earlier lines, `GET /api/games/{id}/chat`) and of the
//! list of games, as `docs/web.md` shows them.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use sygo_rules::{Color, Geometry, Point, Position, Territory, TurnKind, TurnSummary};

use crate::clock::TimeControl;
use crate::game::{ChatLine, Live, Meta, Side, replay};
use crate::time::rfc3339;
use crate::uploaded::RecordInfo;

/// A map from point names to values, in the order given: `{"D4": …}`.
pub(crate) struct PointMap<T>(pub Vec<(String, T)>);

impl<T: Serialize> Serialize for PointMap<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// A board in words, as the pages name it (`web/js/boards.js`): "Sygo
/// 9×9", "Hexsygo, base 5".
pub(crate) fn board_name(g: &Geometry) -> String {
    match g.variant() {
        sygo_rules::Variant::Hexsygo => format!("Hexsygo, base {}", g.size()),
        sygo_rules::Variant::Sygo => format!("Sygo {0}×{0}", g.size()),
    }
}

/// The most chat lines a game's JSON carries: the last ones
/// (`GET /api/games/{id}/chat?before=N` gives the earlier, as many a page).
pub(crate) const CHAT_SHOWN: usize = 100;

/// A point's name: `D4`.
pub(crate) fn name(g: &Geometry, p: Point) -> String {
    g.vertex(p).to_string()
}

/// Points' names.
pub(crate) fn names(g: &Geometry, points: &[Point]) -> Vec<String> {
    points.iter().map(|&p| name(g, p)).collect()
}

/// The stones of a position by point name.
pub(crate) fn stones(pos: &Position) -> PointMap<&'static str> {
    let g = pos.geometry();
    PointMap(
        pos.stones()
            .map(|(p, c)| (name(&g, p), c.lowercase()))
            .collect(),
    )
}

/// The result of a finished game with the komi: `B+R`, `W+3.5`, `0`.
pub(crate) fn result(pos: &Position, komi: f64) -> Option<String> {
    let outcome = pos.outcome()?;
    Some(match outcome {
        sygo_rules::Outcome::Resignation { .. } => outcome.to_string(),
        sygo_rules::Outcome::Score(score) => score.result_with_komi(komi),
    })
}

/// The result of a game as it stands: `None` while it is played or once
/// aborted; `B+T` or `W+T` when a side ran out of time; else as [`result`].
pub(crate) fn game_result(live: &Live, komi: f64) -> Option<String> {
    if live.aborted {
        return None;
    }
    match live.timed_out {
        Some(loser) => Some(format!("{}+T", loser.opponent().letter())),
        None => result(live.game.position(), komi),
    }
}

/// The winner of a finished game with the komi: `None` while it is played,
/// `Some(None)` for a draw.
pub(crate) fn winner(pos: &Position, komi: f64) -> Option<Option<Color>> {
    Some(match pos.outcome()? {
        sygo_rules::Outcome::Resignation { winner } => Some(winner),
        sygo_rules::Outcome::Score(score) => {
            let margin = f64::from(score.black) - f64::from(score.white) - komi;
            if margin > 0.0 {
                Some(Color::Black)
            } else if margin < 0.0 {
                Some(Color::White)
            } else {
                None
            }
        }
    })
}

/// A side's clock as the API writes it.
#[derive(Serialize)]
struct SideClock {
    /// Milliseconds left as of the end of the side's last turn (for the
    /// side to move: as of the start of its turn; its `deadline` counts).
    left_ms: i64,
    /// Byo-yomi periods left (0 without byo-yomi).
    periods: u32,
    /// Whether the side's account is on vacation, its clock stopped on its
    /// turns (a correspondence game; always false under a live clock).
    on_vacation: bool,
    /// While `on_vacation`: when the vacation ends by itself at the latest
    /// (its allowance used up), RFC 3339 and Unix milliseconds.
    vacation_until: Option<String>,
    vacation_until_ms: Option<i64>,
}

/// A game's clock as the API writes it.
#[derive(Serialize)]
struct ClockView<'a> {
    control: &'a TimeControl,
    black: SideClock,
    white: SideClock,
    /// The side whose time runs (`None` once the game is over): the side to
    /// move, also while its clock is stopped (`paused`).
    running: Option<&'static str>,
    /// Whether the running side's clock is stopped: its account is on
    /// vacation (then no deadline).
    paused: bool,
    /// While `paused`: the running side's time left, which does not go
    /// down.
    paused_left_ms: Option<i64>,
    /// When the running side runs out of time: RFC 3339, and Unix
    /// milliseconds (`None` while paused).
    deadline: Option<String>,
    deadline_ms: Option<i64>,
    /// The server's time when this was written, Unix milliseconds: a page
    /// counts down from `deadline_ms` with its own clock corrected by it.
    now_ms: i64,
}

fn clock_view<'a>(meta: &'a Meta, live: &Live) -> Option<ClockView<'a>> {
    let control = meta.clock.as_ref()?;
    let clock = live.clock?;
    let pos = live.game.position();
    let to_move = (!pos.is_over()).then(|| pos.side_to_move());
    let side = |c: Color| {
        let until = live.vacation[c.index()]
            .filter(|_| to_move.is_some())
            .map(|(_, until)| until);
        SideClock {
            left_ms: clock.banked.left[c.index()].max(0),
            periods: clock.banked.periods[c.index()],
            on_vacation: until.is_some(),
            vacation_until: until.map(rfc3339),
            vacation_until_ms: until,
        }
    };
    let now = crate::time::now_ms();
    // Stopped: the mover on vacation (then no deadline to count down to).
    let paused = to_move
        .filter(|_| live.is_paused(Some(control), now))
        .map(|color| clock.left(control, color, now, live.pause()).max(0));
    let deadline = live.deadline(Some(control)).filter(|_| paused.is_none());
    Some(ClockView {
        control,
        black: side(Color::Black),
        white: side(Color::White),
        running: to_move.map(Color::lowercase),
        paused: paused.is_some(),
        paused_left_ms: paused,
        deadline: deadline.map(|(_, d)| rfc3339(d)),
        deadline_ms: deadline.map(|(_, d)| d),
        now_ms: now,
    })
}

#[derive(Serialize)]
struct PointView {
    name: String,
    col: u8,
    row: u8,
}

/// A turn as the API writes it, from its summary (`sygo_rules::TurnSummary`):
/// the last turn of a position shown.
#[derive(Serialize)]
pub(crate) struct LastTurn {
    color: &'static str,
    turn: String,
    stones: Vec<String>,
    reversed: Vec<String>,
    /// `placement`, `growth`, `balance`, `pass` or `resignation`.
    kind: &'static str,
    /// The turn in words: `"White grew D5 and F7, reversing E6."`
    description: String,
}

/// How the game ended, when not by its turns: the number of its last turn
/// and `timeout` (a side ran out of time) or `abort` (for the rules both
/// are a resignation).
fn ending(live: &Live) -> Option<(usize, &'static str)> {
    let total = live.game.turns().len();
    if live.aborted {
        Some((total, "abort"))
    } else if live.timed_out.is_some() {
        Some((total, "timeout"))
    } else {
        None
    }
}

/// Turn `number` (from 1) of the live game as `last_turn` writes it, in
/// the words of a timeout or an abort when it is one.
fn last_turn_of(live: &Live, number: usize) -> Option<LastTurn> {
    let mut t = last_turn(live.summaries.get(number.checked_sub(1)?)?);
    if let Some((n, word)) = ending(live)
        && n == number
    {
        ending_words(word, &mut t.kind, &mut t.turn, &mut t.description, t.color);
    }
    Some(t)
}

/// The words of a turn that is a side running out of time or an abort
/// (`ending`: `timeout` or `abort`; the rules see a resignation).
fn ending_words(
    ending: &'static str,
    kind: &mut &'static str,
    turn: &mut String,
    description: &mut String,
    color: &str,
) {
    *kind = ending;
    *turn = ending.to_string();
    let who = if color == "black" { "Black" } else { "White" };
    *description = if ending == "abort" {
        "The game was aborted: no result.".to_string()
    } else {
        format!("{who} ran out of time.")
    };
}

/// A game's state: `playing`, `over` or `aborted`.
fn status(live: &Live) -> &'static str {
    if live.aborted {
        "aborted"
    } else if live.game.position().is_over() {
        "over"
    } else {
        "playing"
    }
}

/// An undo request as the API writes it.
#[derive(Serialize)]
struct UndoRequestView {
    by: &'static str,
    turn_number: usize,
}

/// The last undo request declined, as the API writes it: who asked, and
/// the game's state then (the same request is not made again in it).
#[derive(Serialize)]
struct UndoDeclinedView {
    by: &'static str,
    turn_number: usize,
    undos: i64,
}

/// A rematch as the API writes it.
#[derive(Serialize)]
struct RematchView<'a> {
    offered_by: Option<&'static str>,
    game: Option<&'a str>,
}

/// Whether each side's page is open.
#[derive(Serialize)]
struct Connected {
    black: bool,
    white: bool,
}

/// A turn's notation from its summary: `D5,F7`, `pass`, `resign`.
pub(crate) fn notation(summary: &TurnSummary) -> String {
    match summary.kind {
        TurnKind::Pass => "pass".to_string(),
        TurnKind::Resignation => "resign".to_string(),
        _ => sygo_rules::format_points(&summary.stones(), &summary.geometry),
    }
}

/// The JSON of a turn from its summary.
pub(crate) fn last_turn(summary: &TurnSummary) -> LastTurn {
    let g = summary.geometry;
    LastTurn {
        color: summary.color.lowercase(),
        turn: notation(summary),
        stones: names(&g, &summary.stones()),
        reversed: names(&g, &summary.reversed),
        kind: summary.kind.name(),
        description: summary.to_string(),
    }
}

#[derive(Serialize)]
struct ScoreView {
    black: u32,
    white: u32,
    /// The result if the game ended in this position, with the komi.
    result: String,
    territory: PointMap<&'static str>,
}

#[derive(Serialize)]
struct TurnView {
    number: usize,
    color: &'static str,
    turn: String,
    kind: &'static str,
    description: String,
}

#[derive(Serialize)]
struct GameView<'a> {
    id: &'a str,
    variant: &'static str,
    size: u8,
    komi: f64,
    black: &'a Side,
    white: &'a Side,
    source: &'static str,
    created: String,
    updated: String,
    turn_number: usize,
    shown_turn: usize,
    to_move: &'static str,
    status: &'static str,
    result: Option<String>,
    balance_available: bool,
    ai_thinking: bool,
    undos: i64,
    points: Vec<PointView>,
    stones: PointMap<&'static str>,
    last_turn: Option<LastTurn>,
    score: ScoreView,
    turns: Vec<TurnView>,
    /// What an uploaded record holds beyond its main line (only for one).
    #[serde(skip_serializing_if = "Option::is_none")]
    record: Option<&'a RecordInfo>,
    /// The clock, for a game that has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<ClockView<'a>>,
    undo_request: Option<UndoRequestView>,
    undo_declined: Option<UndoDeclinedView>,
    rematch: RematchView<'a>,
    /// The game this one is a rematch of.
    rematch_of: Option<&'a str>,
    /// The last [`CHAT_SHOWN`] lines of the chat.
    chat: &'a [ChatLine],
    /// The number of the chat's last line (its lines are numbered from 1).
    chat_total: u32,
    connected: Connected,
}

/// The game as JSON: as it stands, or with `shown` (at most the turns
/// played) as it stood after its first `shown` turns; with what its record
/// holds for an uploaded game (`record`).
pub(crate) fn game_json(
    meta: &Meta,
    live: &Live,
    shown: Option<usize>,
    record: Option<&RecordInfo>,
) -> String {
    let game = &live.game;
    let total = game.turns().len();
    let shown = shown.unwrap_or(total).min(total);
    let g = meta.geometry;
    let position = if shown == total {
        game.position().clone()
    } else {
        replay(game, shown)
    };
    let ended = ending(live);
    let last_turn = last_turn_of(live, shown);
    let view = GameView {
        id: &meta.id,
        variant: g.variant().name(),
        size: g.size(),
        komi: meta.komi,
        black: &meta.black,
        white: &meta.white,
        source: meta.source.name(),
        created: rfc3339(meta.created),
        updated: rfc3339(live.updated),
        turn_number: total,
        shown_turn: shown,
        to_move: position.side_to_move().lowercase(),
        status: status(live),
        result: game_result(live, meta.komi),
        balance_available: position.balance_available() && !position.is_over(),
        ai_thinking: live.ai_thinking,
        undos: live.undos,
        points: point_views(&g),
        stones: stones(&position),
        last_turn,
        score: score_view(&position, meta.komi),
        turns: live
            .summaries
            .iter()
            .enumerate()
            .map(|(i, summary)| {
                let mut view = TurnView {
                    number: i + 1,
                    color: summary.color.lowercase(),
                    turn: notation(summary),
                    kind: summary.kind.name(),
                    description: summary.to_string(),
                };
                if let Some((n, word)) = ended
                    && n == i + 1
                {
                    ending_words(
                        word,
                        &mut view.kind,
                        &mut view.turn,
                        &mut view.description,
                        view.color,
                    );
                }
                view
            })
            .collect(),
        record,
        clock: clock_view(meta, live),
        undo_request: undo_request_view(live),
        undo_declined: undo_declined_view(live),
        rematch: rematch_view(live),
        rematch_of: meta.rematch_of.as_deref(),
        chat: last_lines(&live.chat, None),
        chat_total: chat_total(live),
        connected: connected_view(live),
    };
    to_json(&view)
}

/// JSON of the views above.
fn to_json(view: &impl Serialize) -> String {
    // Room for a turn's event at once (about a kilobyte and a half on 19×19),
    // rather than growing from serde_json's 128 bytes.
    let mut json = Vec::with_capacity(2048);
    serde_json::to_writer(&mut json, view)
        .map_err(|e| e.to_string())
        .and_then(|()| String::from_utf8(json).map_err(|e| e.to_string()))
        .unwrap_or_else(|e| {
            // Serialising these plain structs cannot fail; say so if it does.
            format!("{{\"error\":{{\"code\":\"internal\",\"message\":{e:?}}}}}")
        })
}

fn undo_request_view(live: &Live) -> Option<UndoRequestView> {
    live.undo_request.map(|(c, n)| UndoRequestView {
        by: c.lowercase(),
        turn_number: n,
    })
}

fn undo_declined_view(live: &Live) -> Option<UndoDeclinedView> {
    live.undo_declined.map(|(c, n, undos)| UndoDeclinedView {
        by: c.lowercase(),
        turn_number: n,
        undos,
    })
}

/// The number of a chat's last line (0 for none).
fn chat_total(live: &Live) -> u32 {
    live.chat.last().map_or(0, |line| line.number)
}

/// The last [`CHAT_SHOWN`] lines of `chat` before the line numbered
/// `before` (all of them with `None`).
fn last_lines(chat: &[ChatLine], before: Option<u32>) -> &[ChatLine] {
    let end = before.map_or(chat.len(), |n| chat.partition_point(|l| l.number < n));
    let lines = chat.get(..end).unwrap_or(chat);
    lines
        .get(lines.len().saturating_sub(CHAT_SHOWN)..)
        .unwrap_or(lines)
}

/// A page of a game's chat (`GET /api/games/{id}/chat`).
#[derive(Serialize)]
struct ChatPage<'a> {
    chat: &'a [ChatLine],
    chat_total: u32,
}

/// The JSON of a page of the chat: the last [`CHAT_SHOWN`] lines before
/// the line numbered `before` (the last lines with `None`), oldest first.
pub(crate) fn chat_page_json(live: &Live, before: Option<u32>) -> String {
    to_json(&ChatPage {
        chat: last_lines(&live.chat, before),
        chat_total: chat_total(live),
    })
}

fn rematch_view(live: &Live) -> RematchView<'_> {
    RematchView {
        offered_by: live.rematch_offer.map(Color::lowercase),
        game: live.rematch.as_deref(),
    }
}

fn connected_view(live: &Live) -> Connected {
    Connected {
        black: live.connected[0],
        white: live.connected[1],
    }
}

// ---- the live updates' small events (docs/web.md, `GET /api/games/{id}/events`)

/// The board in one string, a character per point in the order of a
/// game's `points`: `B` or `W` a black or white stone, `b` or `w` a vacant
/// point of Black's or White's territory, `.` any other vacant point.
fn board_string(pos: &Position, territory: &Territory) -> String {
    let g = pos.geometry();
    let mut owner = vec![b'.'; g.index_len()];
    for region in &territory.regions {
        let mark = match region.owner {
            Some(Color::Black) => b'b',
            Some(Color::White) => b'w',
            None => continue,
        };
        for p in &region.points {
            if let Some(slot) = owner.get_mut(p.index()) {
                *slot = mark;
            }
        }
    }
    // Sized at once: the points' iterator does not know its length.
    let mut board = Vec::with_capacity(g.index_len());
    board.extend(g.points().map(|p| match pos.stone_at(p) {
        Some(Color::Black) => b'B',
        Some(Color::White) => b'W',
        None => owner.get(p.index()).copied().unwrap_or(b'.'),
    }));
    // Only ASCII letters and dots.
    String::from_utf8(board).unwrap_or_default()
}

/// A turn as a `turn` event writes it: its number and `last_turn`'s fields.
#[derive(Serialize)]
struct NumberedTurn {
    number: usize,
    #[serde(flatten)]
    turn: LastTurn,
}

/// The score without its territory (the board string has it).
#[derive(Serialize)]
struct ScoreBrief {
    black: u32,
    white: u32,
    result: String,
}

/// A `turn` event: the turn just added to the game and what it changed.
#[derive(Serialize)]
struct TurnEvent<'a> {
    undos: i64,
    turn_number: usize,
    turn: Option<NumberedTurn>,
    board: String,
    to_move: &'static str,
    status: &'static str,
    result: Option<String>,
    balance_available: bool,
    ai_thinking: bool,
    undo_request: Option<UndoRequestView>,
    updated: String,
    score: ScoreBrief,
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<ClockView<'a>>,
}

/// The data of a `turn` event: the live game's last turn (just played,
/// resigned, lost on time or aborted) and what it changed.
pub(crate) fn turn_event_json(meta: &Meta, live: &Live) -> String {
    let pos = live.game.position();
    let total = live.game.turns().len();
    let territory = pos.territory();
    let score = territory.score();
    to_json(&TurnEvent {
        undos: live.undos,
        turn_number: total,
        turn: last_turn_of(live, total).map(|turn| NumberedTurn {
            number: total,
            turn,
        }),
        board: board_string(pos, &territory),
        to_move: pos.side_to_move().lowercase(),
        status: status(live),
        result: game_result(live, meta.komi),
        balance_available: pos.balance_available() && !pos.is_over(),
        ai_thinking: live.ai_thinking,
        undo_request: undo_request_view(live),
        updated: rfc3339(live.updated),
        score: ScoreBrief {
            black: score.black,
            white: score.white,
            result: score.result_with_komi(meta.komi),
        },
        clock: clock_view(meta, live),
    })
}

/// The field of a game that a `change` event carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Field {
    AiThinking,
    UndoRequest,
    Rematch,
    Connected,
    Clock,
}

/// A `change` event: one field of the game, as it now is, in the state
/// `(undos, turn_number)`.
#[derive(Serialize)]
struct ChangeEvent<'a> {
    undos: i64,
    turn_number: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    ai_thinking: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    undo_request: Option<Option<UndoRequestView>>,
    /// With `undo_request`: a request declined is kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    undo_declined: Option<Option<UndoDeclinedView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rematch: Option<RematchView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    connected: Option<Connected>,
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<ClockView<'a>>,
}

/// The data of a `change` event of `field`.
pub(crate) fn change_event_json<'a>(meta: &'a Meta, live: &'a Live, field: Field) -> String {
    let mut event = ChangeEvent {
        undos: live.undos,
        turn_number: live.game.turns().len(),
        ai_thinking: None,
        undo_request: None,
        undo_declined: None,
        rematch: None,
        connected: None,
        clock: None,
    };
    match field {
        Field::AiThinking => event.ai_thinking = Some(live.ai_thinking),
        Field::UndoRequest => {
            event.undo_request = Some(undo_request_view(live));
            event.undo_declined = Some(undo_declined_view(live));
        }
        Field::Rematch => event.rematch = Some(rematch_view(live)),
        Field::Connected => event.connected = Some(connected_view(live)),
        Field::Clock => event.clock = clock_view(meta, live),
    }
    to_json(&event)
}

/// The data of a `chat` event: the chat's last line.
pub(crate) fn chat_event_json(live: &Live) -> Option<String> {
    live.chat.last().map(to_json)
}

/// Every point of a board with its 0-based column and row.
fn point_views(g: &Geometry) -> Vec<PointView> {
    g.points()
        .map(|p| {
            let (col, row) = g.col_row(p);
            PointView {
                name: name(g, p),
                col,
                row,
            }
        })
        .collect()
}

/// Each side's score (stones plus territory), the result if the game ended
/// there with `komi`, and the owner of every vacant point that has one.
fn score_view(pos: &Position, komi: f64) -> ScoreView {
    let g = pos.geometry();
    let territory = pos.territory();
    let score = territory.score();
    let mut owned: Vec<(String, &'static str)> = Vec::new();
    for region in &territory.regions {
        if let Some(owner) = region.owner {
            owned.extend(
                region
                    .points
                    .iter()
                    .map(|&p| (name(&g, p), owner.lowercase())),
            );
        }
    }
    ScoreView {
        black: score.black,
        white: score.white,
        result: score.result_with_komi(komi),
        territory: PointMap(owned),
    }
}

/// A position given as a position string, as `POST /api/position` and
/// `POST /api/position/turns` answer it: what a game's JSON says of its
/// board, without a game around it.
#[derive(Serialize)]
pub(crate) struct PositionView {
    position: String,
    variant: &'static str,
    size: u8,
    to_move: &'static str,
    status: &'static str,
    result: Option<String>,
    balance_available: bool,
    points: Vec<PointView>,
    stones: PointMap<&'static str>,
    score: ScoreView,
}

/// The JSON of a position (no komi: the result is the rules' own).
pub(crate) fn position_view(pos: &Position) -> PositionView {
    position_view_with_komi(pos, 0.0)
}

/// The JSON of a position, its result and score's result with `komi`.
pub(crate) fn position_view_with_komi(pos: &Position, komi: f64) -> PositionView {
    let g = pos.geometry();
    PositionView {
        position: pos.to_position_string(),
        variant: g.variant().name(),
        size: g.size(),
        to_move: pos.side_to_move().lowercase(),
        status: if pos.is_over() { "over" } else { "playing" },
        result: result(pos, komi),
        balance_available: pos.balance_available() && !pos.is_over(),
        points: point_views(&g),
        stones: stones(pos),
        score: score_view(pos, komi),
    }
}

/// One game of the list.
#[derive(Serialize)]
pub(crate) struct ListItem<'a> {
    id: &'a str,
    variant: &'static str,
    size: u8,
    black: &'a Side,
    white: &'a Side,
    turns: usize,
    to_move: &'static str,
    status: &'static str,
    result: Option<String>,
    source: &'static str,
    created: String,
    updated: String,
    ai_thinking: bool,
    /// What `?ids=` adds: the position and the clock.
    #[serde(flatten)]
    chosen: Option<ForBrowser<'a>>,
}

/// What the list of the games a browser plays in (`?ids=`) says of each
/// game besides the list's fields.
#[derive(Serialize)]
pub(crate) struct ForBrowser<'a> {
    /// The position string (`docs/position-string.md`): the board in a few
    /// bytes, for the home page's small boards.
    position: String,
    /// The time control, if the game has a clock.
    clock: Option<&'a TimeControl>,
    /// When the side to move runs out of time (Unix milliseconds): `None`
    /// without a clock, once the game is over, and while its clock is
    /// stopped by a vacation (`paused`).
    deadline_ms: Option<i64>,
    /// Whether the clock of the side to move is stopped by its vacation.
    paused: bool,
}

/// A game as the list shows it; `chosen`: with what `?ids=` adds (its
/// position string and its clock's deadline).
pub(crate) fn list_item<'a>(meta: &'a Meta, live: &Live, chosen: bool) -> ListItem<'a> {
    let pos = live.game.position();
    let chosen = chosen.then(|| {
        let control = meta.clock.as_ref();
        let paused = live.is_paused(control, crate::time::now_ms());
        ForBrowser {
            position: pos.to_position_string(),
            clock: control,
            deadline_ms: live.deadline(control).filter(|_| !paused).map(|(_, d)| d),
            paused,
        }
    });
    ListItem {
        id: &meta.id,
        variant: meta.geometry.variant().name(),
        size: meta.geometry.size(),
        black: &meta.black,
        white: &meta.white,
        turns: live.game.turns().len(),
        to_move: pos.side_to_move().lowercase(),
        status: status(live),
        result: game_result(live, meta.komi),
        source: meta.source.name(),
        created: rfc3339(meta.created),
        updated: rfc3339(live.updated),
        ai_thinking: live.ai_thinking,
        chosen,
    }
}
