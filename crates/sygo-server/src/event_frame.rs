//! One live-update event as it goes on the wire (server-sent events), made
//! once per change by `games.rs` and shared by every stream of the game
//! that `events.rs` serves.

use axum::body::Bytes;

/// A live update: one event, written once as the bytes that
/// go on the wire, shared by every stream of the game.
#[derive(Debug)]
pub(crate) struct Update {
    /// `event: …`, `id: …`, `data: …`, as sent.
    pub frame: Bytes,
    /// The event's data (its JSON): a part of `frame`.
    pub data: Bytes,
}

/// The kinds of event a game's stream sends (`docs/web.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The whole game.
    Game,
    /// A turn added to the game.
    Turn,
    /// A field of the game changed.
    Change,
    /// A line added to the chat.
    Chat,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Game => "game",
            Kind::Turn => "turn",
            Kind::Change => "change",
            Kind::Chat => "chat",
        }
    }
}

/// One event as it goes on the wire: `event: turn`, `id: 12`, the JSON
/// (one line: JSON written by `serde_json` has no line break outside its
/// strings, and none inside them, where it is `\n`).
pub(crate) fn frame(kind: Kind, turn_number: usize, json: &str) -> Update {
    let name = kind.name();
    let mut text = String::with_capacity(json.len() + name.len() + 32);
    text.push_str("event: ");
    text.push_str(name);
    text.push_str("\nid: ");
    text.push_str(&turn_number.to_string());
    text.push_str("\ndata: ");
    let data = text.len()..text.len() + json.len();
    text.push_str(json);
    text.push_str("\n\n");
    let frame = Bytes::from(text);
    Update {
        data: frame.slice(data),
        frame,
    }
}
