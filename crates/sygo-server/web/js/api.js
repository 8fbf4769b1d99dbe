// The JSON API of docs/web.md: fetch with JSON bodies, errors as ApiError,
// and the secret tokens a link carries in its fragment (js/identity.js
// remembers them).

/** An error answer of the API: `{"error": {"code", "message", …}}`;
 * `details` is that whole object (a refused plan of conditional turns
 * names its line there: `branch`, `field`, `line`, `reason`). */
export class ApiError extends Error {
  constructor(status, code, message, details = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/**
 * Calls the API. `body` is sent as JSON unless `raw` is given (then as
 * `contentType`); `token` goes into the Authorization header; `keepalive`
 * lets the request finish when the page is left (a claim sent just before
 * the page opens a game); `prefer` is sent as the Prefer header
 * (`return=minimal`: a smaller answer where the API offers one). The
 * session's cookie goes with every request (same origin).
 */
export async function api(path, { method = 'GET', body, token, raw, contentType, keepalive, prefer } = {}) {
  const headers = { Accept: 'application/json' };
  if (prefer) headers.Prefer = prefer;
  let payload;
  if (raw !== undefined) {
    payload = raw;
    headers['Content-Type'] = contentType || 'application/x-go-sgf';
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: payload, keepalive: !!keepalive });
  } catch (e) {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check your connection and try again.');
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch (e) {
      data = null;
    }
  }
  if (!response.ok) {
    const err = data && data.error;
    throw new ApiError(
      response.status,
      (err && err.code) || 'http_' + response.status,
      (err && err.message) || `The server answered ${response.status} ${response.statusText}.`,
      err && typeof err === 'object' ? err : null,
    );
  }
  return data;
}

export const getGame = (id, turn) =>
  api(`/api/games/${encodeURIComponent(id)}` + (turn == null ? '' : `?turn=${turn}`));
export const listGames = (before) =>
  api('/api/games' + (before ? `?before=${encodeURIComponent(before)}` : ''));
/** Starts a game; `spec.request_id` makes a repeated request get the same game. */
export const createGame = (spec) => api('/api/games', { method: 'POST', body: spec });
/** The side a token plays in a game: `{side}` (401 for neither side). */
export const sideOf = (id, token) => api(`/api/games/${encodeURIComponent(id)}/side`, { token });
/** Several games at once, with their positions: `{games, missing}`, asked
 * for 100 at a time (the server's limit). */
export async function chosenGames(ids) {
  const chunks = [];
  for (let i = 0; i < ids.length; i += 100) chunks.push(ids.slice(i, i + 100));
  const answers = await Promise.all(chunks.map((c) => api(`/api/games?ids=${c.join(',')}`)));
  return {
    games: answers.flatMap((a) => a.games || []),
    missing: answers.flatMap((a) => a.missing || []),
  };
}
export const steps = (id, stones) =>
  api(`/api/games/${encodeURIComponent(id)}/steps`, { method: 'POST', body: { stones } });
/** Plays a turn; the answer is the turn's `turn` event (docs/web.md: the
 * page applies it to the game it has, as it applies the live updates), not
 * the whole game. */
export const playTurn = (id, turn, turnNumber, token) =>
  api(`/api/games/${encodeURIComponent(id)}/turns`, {
    method: 'POST', body: { turn, turn_number: turnNumber }, token, prefer: 'return=minimal',
  });
export const resign = (id, token) =>
  api(`/api/games/${encodeURIComponent(id)}/resign`, { method: 'POST', token });
export const undo = (id, turnNumber, token, otherToken) =>
  api(`/api/games/${encodeURIComponent(id)}/undo`, {
    method: 'POST', body: { turn_number: turnNumber, other_token: otherToken || undefined }, token,
  });

// Etiquette (docs/web.md, "Etiquette"), each with a side's token; each
// answers with the game unless said.

/** Ends the game with no result, before one's first turn. */
export const abort = (id, token) =>
  api(`/api/games/${encodeURIComponent(id)}/abort`, { method: 'POST', token });
/** Asks the other person to take back one's last turn (`turnNumber`: the turns the page saw). */
export const undoRequest = (id, turnNumber, token) =>
  api(`/api/games/${encodeURIComponent(id)}/undo-request`, {
    method: 'POST', body: { turn_number: turnNumber }, token,
  });
/** Accepts or declines the other side's undo request. */
export const undoAnswer = (id, accept, token) =>
  api(`/api/games/${encodeURIComponent(id)}/undo-answer`, { method: 'POST', body: { accept: !!accept }, token });
/** Offers a rematch, or accepts the other's: `{state: "offered"}`, or one's
 * seat in the rematch, `{game, color, token}`. */
export const rematch = (id, token) =>
  api(`/api/games/${encodeURIComponent(id)}/rematch`, { method: 'POST', token });
/** Withdraws one's rematch offer: the game. */
export const withdrawRematch = (id, token) =>
  api(`/api/games/${encodeURIComponent(id)}/rematch`, { method: 'DELETE', token });
/** One's seat in the rematch once it started: `{game, color, token}` (404 before). */
export const getRematch = (id, token) => api(`/api/games/${encodeURIComponent(id)}/rematch`, { token });
/** The chat's lines before line `before` (the last 100 of them, oldest
 * first): `{chat, chat_total}`. Anyone may read them. */
export const chatLines = (id, before) =>
  api(`/api/games/${encodeURIComponent(id)}/chat?before=${encodeURIComponent(before)}`);
/** A line of chat from the token's side. */
export const chat = (id, text, token) =>
  api(`/api/games/${encodeURIComponent(id)}/chat`, { method: 'POST', body: { text }, token });
/** The side's page is open (`present`) or closing; `keepalive` lets it be
 * sent as the page goes (204, no body). */
export const presence = (id, present, token, keepalive = false) =>
  api(`/api/games/${encodeURIComponent(id)}/presence`, {
    method: 'POST', body: { present: !!present }, token, keepalive,
  });

export const hint = (id, token, timeMs) =>
  api(`/api/games/${encodeURIComponent(id)}/hint`, { method: 'POST', body: { time_ms: timeMs }, token });
/** Analyses the position after `turn` turns (null: the current one);
 * `ticket` follows its place in the AI's queue (`searchPlace`). */
export const analysis = (id, timeMs, turn, ticket) =>
  api(`/api/games/${encodeURIComponent(id)}/analysis`, {
    method: 'POST', body: { time_ms: timeMs, turn: turn ?? undefined, ticket: ticket || undefined },
  });
/** Where the search of a ticket stands: `{state, ahead}` (404 once it ended). */
export const searchPlace = (ticket) => api(`/api/searches/${encodeURIComponent(ticket)}`);
/** The AI's review of a game, its positions from turn `from` on. */
export const getReview = (id, from = 0) =>
  api(`/api/games/${encodeURIComponent(id)}/review` + (from ? `?from=${from}` : ''));
/** Asks for the AI's review of a game. */
export const requestReview = (id) =>
  api(`/api/games/${encodeURIComponent(id)}/review`, { method: 'POST' });
export const uploadRecord = (text) => api('/api/records', { method: 'POST', raw: text });
export const recordUrl = (id) => `/api/games/${encodeURIComponent(id)}/record`;
/** A part of an uploaded record's tree: `{nodes, total, next}`, the nodes from number `from`. */
export const recordTree = (id, from = 0) =>
  api(`/api/games/${encodeURIComponent(id)}/record/tree` + (from ? `?from=${from}` : ''));
/** The position at node number `node` of an uploaded record. */
export const recordNode = (id, node) =>
  api(`/api/games/${encodeURIComponent(id)}/record/node?node=${encodeURIComponent(node)}`);
export const eventsUrl = (id) => `/api/games/${encodeURIComponent(id)}/events`;

// Accounts (docs/web.md, "Accounts"). `claims`: `[{game, token}]`, the sides
// this browser keeps, at most 100 a request.

/** Creates an account and signs in: `{account, claimed}`. */
export const signUp = (name, password, claims) =>
  api('/api/account', { method: 'POST', body: { name, password, claims } });
/** Signs in: `{account, claimed}`. */
export const signIn = (name, password, claims) =>
  api('/api/session', { method: 'POST', body: { name, password, claims } });
export const signOut = () => api('/api/session', { method: 'DELETE' });
/** The account signed in and the sides it holds: `{account, games: [{id, color, token}]}`
 * (401 when signed out). */
export const getAccount = () => api('/api/account');
export const changePassword = (current, next) =>
  api('/api/account/password', { method: 'POST', body: { current, new: next } });
/** Switches the account's vacation on or off: `{vacation: {on, since_ms,
 * until_ms, used_ms, left_ms, …}}` (409 `no_vacation_left`). */
export const setVacation = (on) => api('/api/account/vacation', { method: 'POST', body: { on } });
/** Gives sides to the account signed in: `{claimed, refused}`. */
export const claim = (claims) =>
  api('/api/account/claims', { method: 'POST', body: { claims }, keepalive: true });
/** A player's profile: `{name, created, games, against_ai, ratings}` (404: no such player). */
export const getPlayer = (name) => api(`/api/players/${encodeURIComponent(name)}`);

// The lobby and the ratings (docs/web.md, "Lobby" and "Ratings").

/** The challenges this browser sees and the games being played now:
 * `{challenges, playing}`. */
export const getLobby = () => api('/api/lobby');
/** The lobby's live updates (server-sent events, `event: lobby`). */
export const lobbyEventsUrl = () => '/api/lobby/events';
/** Posts a challenge (signed in): `{variant, size, color, clock, rated,
 * min_rating, max_rating, opponent}`; the challenge. */
export const postChallenge = (terms) => api('/api/challenges', { method: 'POST', body: terms });
/** Withdraws one's own challenge. */
export const withdrawChallenge = (id) => api(`/api/challenges/${encodeURIComponent(id)}`, { method: 'DELETE' });
/** Accepts a challenge (signed in): `{game, color, token}`. */
export const acceptChallenge = (id) => api(`/api/challenges/${encodeURIComponent(id)}/accept`, { method: 'POST' });
/** A board family's leaderboard: `{family, players: [{rank, name, rating, deviation, provisional, games}]}`. */
export const getRatings = (family) => api(`/api/ratings/${encodeURIComponent(family)}`);

// Notifications and conditional turns (docs/web.md, "Accounts" and
// "Conditional turns").

/** The account's notice, live (server-sent events, `event: notice`:
 * `{your_turn: [{id, deadline_ms, correspondence}], challenges}`). */
export const accountEventsUrl = () => '/api/account/events';
/** A side's conditional turns: `{tree: [{if, then, next}]}`. */
export const getConditional = (id, token) =>
  api(`/api/games/${encodeURIComponent(id)}/conditional`, { token });
/** Sets a side's conditional turns (422 with the rules' reason). */
export const putConditional = (id, token, tree) =>
  api(`/api/games/${encodeURIComponent(id)}/conditional`, { method: 'PUT', body: { tree }, token });
/** Clears a side's conditional turns. */
export const deleteConditional = (id, token) =>
  api(`/api/games/${encodeURIComponent(id)}/conditional`, { method: 'DELETE', token });

/**
 * The tokens in the URL fragment. `#token=T` is the server's own link (the
 * side is told by `&side=black|white` when the page knows it); a hot-seat page
 * keeps both: `#black=T1&white=T2`.
 */
export function tokensFromFragment(hash = location.hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const tokens = { black: params.get('black'), white: params.get('white'), any: null };
  const token = params.get('token');
  if (token) {
    const side = params.get('side');
    if (side === 'black' || side === 'white') tokens[side] = token;
    else tokens.any = token;
  }
  return tokens;
}
