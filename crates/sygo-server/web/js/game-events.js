// The small events of a game's live updates (docs/web.md, `GET
// /api/games/{id}/events`), applied to the game as the page last had it.
// The stream opens with the whole game (`game`); then a turn comes as
// `turn` (the turn, the board as a string, what the turn changed), a field
// that changed as `change`, a chat line as `chat` (the one after the
// game's `chat_total`; the game keeps the last 100 lines). The page keeps the game
// and applies each; an event that does not follow on from the game it has
// (a turn missed, turns taken back) is answered by fetching the game.

/** The most chat lines a game's JSON carries (the last ones; the chat's
 * panel asks for earlier ones, `GET /api/games/{id}/chat?before=N`). */
export const CHAT_SHOWN = 100;

/** The order of a game's states: undos first, then turns. */
const state = (g) => [g.undos || 0, g.turn_number];

/** -1, 0 or 1 as the state `[undos, turns]` of `a` is before, at or after `b`'s. */
function compare(a, b) {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return 0;
}

/** A turn event's fields that are not the game's own. */
const TURN_OWN = new Set(['undos', 'turn_number', 'turn', 'board', 'score']);

/**
 * The game after the event `kind` with its data `data`, applied to `game`
 * (never changed: a new object is made, so that the page can compare the
 * state before with the state after). Returns `{ game }` (the new state),
 * `{ old: true }` (the event is older than `game`: nothing to do) or
 * `{ fetch: true }` (the page must fetch the game: it missed something).
 */
export function applyEvent(game, kind, data) {
  if (kind === 'game') return { game: data };
  if (!game || !data || typeof data !== 'object') return { fetch: true };
  if (kind === 'chat') {
    // The line after the game's last (`chat_total`); the game keeps the
    // last CHAT_SHOWN lines, as the server's JSON does.
    const chat = game.chat || [];
    const total = typeof game.chat_total === 'number' ? game.chat_total : chat.length;
    if (data.number <= total) return { old: true };
    if (data.number !== total + 1) return { fetch: true };
    return { game: { ...game, chat: [...chat, data].slice(-CHAT_SHOWN), chat_total: data.number } };
  }
  const order = compare(state(data), state(game));
  if (kind === 'change') {
    if (order < 0) return { old: true };
    if (order > 0) return { fetch: true };
    const next = { ...game };
    for (const [key, value] of Object.entries(data)) {
      if (key !== 'undos' && key !== 'turn_number') next[key] = value;
    }
    return { game: next };
  }
  if (kind === 'turn') {
    if (order <= 0) return { old: true };
    const [undos, turns] = state(game);
    if ((data.undos || 0) !== undos || data.turn_number !== turns + 1) return { fetch: true };
    const t = data.turn;
    const points = game.points || [];
    if (!t || typeof data.board !== 'string' || data.board.length !== points.length) {
      return { fetch: true };
    }
    const stones = {};
    const territory = {};
    for (let i = 0; i < points.length; i++) {
      const c = data.board[i];
      const name = points[i].name;
      if (c === 'B') stones[name] = 'black';
      else if (c === 'W') stones[name] = 'white';
      else if (c === 'b') territory[name] = 'black';
      else if (c === 'w') territory[name] = 'white';
    }
    const next = { ...game };
    for (const [key, value] of Object.entries(data)) {
      if (!TURN_OWN.has(key)) next[key] = value;
    }
    next.turn_number = data.turn_number;
    next.shown_turn = data.turn_number;
    next.last_turn = {
      color: t.color, turn: t.turn, stones: t.stones, reversed: t.reversed,
      kind: t.kind, description: t.description,
    };
    next.turns = [...(game.turns || []), {
      number: t.number, color: t.color, turn: t.turn, kind: t.kind, description: t.description,
    }];
    next.stones = stones;
    next.score = { ...data.score, territory };
    return { game: next };
  }
  // An event this page does not know: the game as it is.
  return { fetch: true };
}
