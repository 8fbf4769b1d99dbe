// The games this browser plays in, remembered without an account: each
// game's id and the secret token of each side this browser plays, kept in
// the browser's localStorage. A secret never goes into a URL the server
// sees: a link that carries one in its fragment (`/game/{id}#token=…`, how
// an online opponent receives their side; the fragment never leaves the
// browser) is read once, checked with the server, remembered, and taken out
// of the address bar (history.replaceState), so that it is not bookmarked,
// shared by accident or kept in the history.
//
// Signed in to an account (js/account-state.js), the browser also gives the
// account every side it keeps (a claim: when it signs in, then each new
// side, told by `onNewSides`), and keeps the sides the account holds
// (`rememberFromAccount`), so that every browser signed in plays them.
//
// What is kept, under the key `sygo.games`:
//   {"v": 1, "games": {"ab12cd34": {"black": "…", "white": null, "since": 1717…}}}
// (`since`: when this browser first remembered the game, Unix ms).
// A game forgotten here (**Forget** on the home page) is noted under
// `sygo.forgotten` (its id), so that the account signed in does not bring
// it back: `["ab12cd34", …]`, the last 500.

import * as api from './api.js';

const KEY = 'sygo.games';

/** The store when localStorage cannot be used (a private window that
 * refuses it): the games are remembered for this page only. */
let memory = null;

function storage() {
  try {
    const s = window.localStorage;
    const probe = KEY + '.probe';
    s.setItem(probe, '1');
    s.removeItem(probe);
    return s;
  } catch (e) {
    return null;
  }
}

function load() {
  const s = storage();
  if (!s) return memory || (memory = {});
  try {
    const data = JSON.parse(s.getItem(KEY) || 'null');
    if (data && data.v === 1 && data.games && typeof data.games === 'object') return data.games;
  } catch (e) {
    // Unreadable (edited by hand?): start again rather than fail.
  }
  return {};
}

function save(games) {
  const s = storage();
  if (!s) {
    memory = games;
    return;
  }
  try {
    s.setItem(KEY, JSON.stringify({ v: 1, games }));
  } catch (e) {
    memory = games; // full: kept for this page at least
  }
}

const isToken = (t) => typeof t === 'string' && /^[0-9a-f]{32}$/.test(t);

const FORGOTTEN_KEY = 'sygo.forgotten';
let forgottenMemory = [];

function loadForgotten() {
  const s = storage();
  if (!s) return forgottenMemory;
  try {
    const ids = JSON.parse(s.getItem(FORGOTTEN_KEY) || '[]');
    return Array.isArray(ids) ? ids.filter((x) => typeof x === 'string') : [];
  } catch (e) {
    return [];
  }
}

function saveForgotten(ids) {
  const kept = ids.slice(-500);
  const s = storage();
  if (!s) {
    forgottenMemory = kept;
    return;
  }
  try {
    s.setItem(FORGOTTEN_KEY, JSON.stringify(kept));
  } catch (e) {
    forgottenMemory = kept;
  }
}

/** Whether the games are kept when the tab closes (false: this page only). */
export function persistent() {
  return storage() !== null;
}

/** Who is told of each side newly kept (js/account-state.js claims it). */
const listeners = [];

/** Calls `fn(claims)` (`[{game, token}]`) whenever this browser keeps a
 * side it did not keep before (`remember`; not one the account gave it). */
export function onNewSides(fn) {
  listeners.push(fn);
}

/** Adds the tokens of game `id` to `games`; the colours newly kept. */
function add(games, id, tokens) {
  const known = games[id] || { black: null, white: null, since: Date.now() };
  const added = [];
  for (const c of ['black', 'white']) {
    if (isToken(tokens[c]) && known[c] !== tokens[c]) {
      known[c] = tokens[c];
      added.push(c);
    }
  }
  games[id] = known;
  return added;
}

/**
 * Remembers a game and the tokens of the sides this browser plays in it
 * (`tokens`: `{black, white}`, either null). Sides already remembered stay.
 * A side new to this browser is told to the listeners (`onNewSides`: the
 * account signed in claims it). Returns the colours newly kept.
 */
export function remember(id, tokens = {}) {
  const games = load();
  const forgotten = loadForgotten();
  if (forgotten.includes(id)) saveForgotten(forgotten.filter((x) => x !== id));
  const added = add(games, id, tokens);
  save(games);
  if (added.length) {
    const claims = added.map((c) => ({ game: id, token: games[id][c] }));
    for (const fn of listeners) {
      try {
        fn(claims);
      } catch (e) {
        // A listener's failure never stops play.
      }
    }
  }
  return added;
}

/**
 * Keeps the sides an account holds (`[{id, color, token}]`), all at once,
 * without telling the listeners (the account holds them already). A game
 * forgotten here is not brought back.
 */
export function rememberFromAccount(sides) {
  const games = load();
  const forgotten = new Set(loadForgotten());
  let changed = false;
  for (const { id, color, token } of sides) {
    if (forgotten.has(id) && !games[id]) continue;
    if (add(games, id, { [color]: token }).length) changed = true;
  }
  if (changed) save(games);
}

/** Every side this browser keeps, as claims for an account, the most
 * recently remembered game first: `[{game, token}]`. */
export function claims() {
  return list().flatMap((g) => ['black', 'white'].filter((c) => g[c]).map((c) => ({ game: g.id, token: g[c] })));
}

/** The tokens this browser holds for a game: `{black, white}`. */
export function tokensFor(id) {
  const g = load()[id];
  return { black: (g && g.black) || null, white: (g && g.white) || null };
}

/** Every game remembered, most recently remembered first:
 * `[{id, black, white, since}]`. */
export function list() {
  return Object.entries(load())
    .map(([id, g]) => ({ id, black: g.black || null, white: g.white || null, since: g.since || 0 }))
    .sort((a, b) => b.since - a.since);
}

/** Forgets a game (and the secrets of its sides). */
export function forget(id) {
  const games = load();
  delete games[id];
  save(games);
  saveForgotten([...loadForgotten().filter((x) => x !== id), id]);
}

/** Forgets the sides whose tokens are given (`[{id, token}]`: an account's
 * sides, when it signs out on a shared computer); a game left with no side
 * is forgotten. */
export function forgetTokens(sides) {
  const games = load();
  for (const { id, token } of sides) {
    const g = games[id];
    if (!g) continue;
    for (const c of ['black', 'white']) if (g[c] === token) g[c] = null;
    if (!g.black && !g.white) delete games[id];
  }
  save(games);
}

/**
 * The tokens of the game page: those remembered, plus any in the address's
 * fragment, each checked with the server (`GET /api/games/{id}/side`, which
 * also tells a `#token=` its side) and remembered; the fragment is then
 * taken out of the address. Returns `{tokens: {black, white, any}, notice}`,
 * `notice` saying why a link's secret was not taken, if it was not.
 */
export async function tokensForPage(id) {
  const told = api.tokensFromFragment();
  const offered = [['black', told.black], ['white', told.white], [null, told.any]]
    .filter(([, t]) => t);
  let notice = '';
  let unchecked = false;
  for (const [side, token] of offered) {
    try {
      const answer = await api.sideOf(id, token);
      remember(id, { [answer.side]: token });
      if (side && side !== answer.side) notice = `That link plays ${answer.side}, not ${side}.`;
    } catch (e) {
      if (e.status === 401) notice = 'That link’s secret is not one of this game’s sides: you are watching.';
      else if (e.status === 0) unchecked = true; // the server cannot be reached
    }
  }
  if (offered.length && unchecked) {
    // Not checked, so not remembered: the fragment stays, and this page
    // plays with it as before.
    const mine = tokensFor(id);
    return { tokens: { black: mine.black || told.black, white: mine.white || told.white, any: told.any }, notice };
  }
  if (location.hash) {
    history.replaceState(history.state, '', location.pathname + location.search);
  }
  return { tokens: { ...tokensFor(id), any: null }, notice };
}
