// Whether this browser is signed in to an account, asked once per page load
// (`GET /api/account`: 401 is signed out), and what follows from it:
//
// - the header's link: "Sign in", or the account's name (both to /account);
// - the account's games kept by this browser (js/identity.js), so that a
//   second browser or device signed in to the account shows them on its
//   home page and plays them;
// - every side this browser keeps given to the account (a claim): all of
//   them when it signs in or up, then each new one (a game started, a link
//   opened), sent in the background: play never waits for it, and a claim
//   that fails changes nothing here.
//
// Signing in, up and out, and the password, go through here (js/account.js
// is the page), so that the rest of the page learns of the change.

import * as api from './api.js';
import * as identity from './identity.js';
import { h, setChildren } from './dom.js';

/** The most claims one request carries (the server's limit). */
const CLAIMS_PER_REQUEST = 100;

/**
 * What is known: `{signedIn: false}`, or `{signedIn: true, account: {name,
 * created}, vacation}` (`vacation` as `GET /api/account` gives it, or null);
 * `unknown: true` (with `error`) when the server could not be asked. Null
 * until the first answer.
 */
let state = null;
let loading = null;
/** The sides the account holds, by token: `{id, color}`. */
let held = new Map();
/** The tokens of claims on their way (not sent twice). */
const sending = new Set();
const listeners = [];

/** The account's state, asked of the server once per page load (never
 * rejects). */
export function ready() {
  if (!loading) loading = load();
  return loading;
}

/**
 * Asks the server again for the account and the sides it holds, and keeps
 * them here: a game started for the account elsewhere (a challenge of its
 * accepted in the lobby) is then played by this browser. Never rejects.
 */
export function refresh() {
  loading = load();
  return loading;
}

/** The state known now (null before the first answer). */
export const current = () => state;

/** Calls `fn(state)` whenever the state changes (signed in or out). */
export function onChange(fn) {
  listeners.push(fn);
}

/** How many sides the account holds, as far as this page knows. */
export const heldCount = () => held.size;

function set(next) {
  state = next;
  loading = Promise.resolve(state);
  showInHeader();
  for (const fn of listeners) {
    try {
      fn(state);
    } catch (e) {
      // One listener's failure stops no other.
    }
  }
}

async function load() {
  try {
    const answer = await api.getAccount();
    keepAccountGames(answer.games);
    set({ signedIn: true, account: answer.account, vacation: answer.vacation || null });
  } catch (e) {
    if (e.status === 401) set({ signedIn: false });
    else set({ signedIn: false, unknown: true, error: e.message });
  }
  return state;
}

/** The account's sides, kept by this browser (without claiming them back). */
function keepAccountGames(games) {
  held = new Map();
  const sides = [];
  for (const g of games || []) {
    if (!g || !g.id || !g.token || (g.color !== 'black' && g.color !== 'white')) continue;
    held.set(g.token, { id: g.id, color: g.color });
    sides.push({ id: g.id, color: g.color, token: g.token });
  }
  identity.rememberFromAccount(sides);
}

/** Notes the sides a claim's answer says the account holds now. */
function noteClaimed(claimed) {
  for (const c of claimed || []) {
    const token = identity.tokensFor(c.game)[c.color];
    if (token) held.set(token, { id: c.game, color: c.color });
  }
}

/** Sends claims in the background, 100 a request; never throws. */
async function sendClaims(claims) {
  const todo = claims.filter((c) => !held.has(c.token) && !sending.has(c.token));
  if (!todo.length) return;
  for (const c of todo) sending.add(c.token);
  try {
    for (let i = 0; i < todo.length; i += CLAIMS_PER_REQUEST) {
      try {
        noteClaimed((await api.claim(todo.slice(i, i + CLAIMS_PER_REQUEST))).claimed);
      } catch (e) {
        // Not claimed: the side plays here as before; the game page tries
        // again when it is opened (claimMissing).
      }
    }
  } finally {
    for (const c of todo) sending.delete(c.token);
  }
}

// Each side this browser keeps from now on goes to the account signed in.
identity.onNewSides((claims) => {
  ready().then((s) => {
    if (s.signedIn) sendClaims(claims);
  });
});

/**
 * The game page's sides that the account does not hold yet (a claim lost
 * when the page was left at once, or a side kept before the answer came),
 * claimed in the background.
 */
export function claimMissing(id, tokens) {
  ready().then((s) => {
    if (!s.signedIn) return;
    const claims = ['black', 'white']
      .filter((c) => tokens[c] && !held.has(tokens[c]))
      .map((c) => ({ game: id, token: tokens[c] }));
    if (claims.length) sendClaims(claims);
  });
}

/**
 * Signs in (or, with `create`, creates the account), giving it every side
 * this browser keeps, then keeps the account's games here. Returns
 * `{account, claimed, offered}` (how many sides the account took of those
 * offered). Throws the server's ApiError.
 */
export async function signIn(name, password, { create = false } = {}) {
  const claims = identity.claims();
  const first = claims.slice(0, CLAIMS_PER_REQUEST);
  const answer = create ? await api.signUp(name, password, first) : await api.signIn(name, password, first);
  let claimed = (answer.claimed || []).length;
  // More sides than one request carries: the rest, 100 at a time.
  for (let i = CLAIMS_PER_REQUEST; i < claims.length; i += CLAIMS_PER_REQUEST) {
    try {
      claimed += ((await api.claim(claims.slice(i, i + CLAIMS_PER_REQUEST))).claimed || []).length;
    } catch (e) {
      break;
    }
  }
  // The account's games from its other devices.
  try {
    const mine = await api.getAccount();
    keepAccountGames(mine.games);
    set({ signedIn: true, account: mine.account, vacation: mine.vacation || null });
  } catch (e) {
    held = new Map();
    noteClaimed(answer.claimed);
    set({ signedIn: true, account: answer.account, vacation: null });
  }
  return { account: state.account, claimed, offered: claims.length };
}

/**
 * Signs out. With `forgetGames`, this browser also forgets the sides the
 * account holds (a computer others use); the account keeps them. Throws the
 * server's ApiError.
 */
export async function signOut({ forgetGames = false } = {}) {
  await api.signOut();
  if (forgetGames) identity.forgetTokens([...held].map(([token, s]) => ({ id: s.id, token })));
  held = new Map();
  set({ signedIn: false });
}

/**
 * Switches the account's vacation on or off (never done but on the
 * player's click); returns the vacation as it then stands. Throws the
 * server's ApiError (409 `no_vacation_left`).
 */
export async function setVacation(on) {
  const answer = await api.setVacation(on);
  if (state && state.signedIn) set({ ...state, vacation: answer.vacation });
  return answer.vacation;
}

/** Changes the password (every other session of the account ends). */
export async function changePassword(current, next) {
  await api.changePassword(current, next);
}

/** The header's link: "Sign in", or the account's name. */
function showInHeader() {
  const link = document.getElementById('account-link');
  if (!link) return;
  if (state && state.signedIn) {
    setChildren(link,
      h('span', { class: 'account-name' }, state.account.name),
      h('span', { class: 'visually-hidden' }, ' (your account)'));
    link.dataset.signedIn = 'true';
  } else {
    setChildren(link, 'Sign in');
    link.dataset.signedIn = 'false';
  }
}
