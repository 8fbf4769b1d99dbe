// Notifications on every page (docs/web.md, "Notifications on the page"):
// the games waiting for this player's turn and the challenges made to them.
//
// - Signed in, the account's notice comes live from the server
//   (`GET /api/account/events`, an `EventSource`: `event: notice`, at once
//   and whenever it changes). A guest's is worked out from the games this
//   browser keeps (`GET /api/games?ids=`, at each page load, when the tab
//   is shown again, and every 30 s): those in progress where it is the turn
//   of the side kept (a page playing both sides waits for no one), each
//   with its clock's deadline, so that a guest is reminded too.
// - Each game waiting is said as what it is: "Your turn against Ann (Sygo
//   9×9, turn 12)" (the counter's tooltip, the notifications).
// - The header shows it: a link to the home page's "Your games" with the
//   count of games waiting ("2 your turn"; on a phone the figure alone), and
//   one to the lobby with the count of direct challenges; both hidden at 0.
// - The tab's title starts with "(N) " while N games wait, on every page but
//   a game page (js/clock.js writes that one's title), and the favicon gets
//   a badge (web/favicon-turn.svg).
// - Browser notifications, only when the player asks for them (the button
//   of `notificationControl`, on the account page; permission is asked on
//   that click, never at page load): a game newly waiting, a direct
//   challenge newly made, and reminders when a correspondence game waiting
//   has less than 12 hours, then less than an hour, left. What was notified
//   is kept in localStorage, shared by the site's tabs, so that no event is
//   notified twice (and each notification has a tag, which the browser
//   replaces rather than repeats).

import * as api from './api.js';
import * as identity from './identity.js';
import * as account from './account-state.js';
import { h } from './dom.js';
import { boardName } from './boards.js';

const HOUR = 60 * 60 * 1000;
/** The reminders before a correspondence deadline, the nearest first. */
const REMINDERS = [
  { key: '1h', before: HOUR, words: 'less than an hour' },
  { key: '12h', before: 12 * HOUR, words: 'less than 12 hours' },
];
/** How often a guest's games are looked at. */
const GUEST_POLL_MS = 30000;
/** localStorage: "on" while the player wants notifications. */
const KEY_ON = 'sygo.notify';
/** localStorage: what the site's pages last saw, `{who, waiting: [id], challenges}`. */
const KEY_SEEN = 'sygo.notify.seen';
/** localStorage: the reminders sent, `{"ID:DEADLINE:12h": DEADLINE}`. */
const KEY_SENT = 'sygo.notify.sent';

/** The notice known now: `{your_turn: [{id, board, opponent, turn_number,
 * deadline_ms, correspondence, paused}], challenges}`, or null before the
 * first. */
let notice = null;
/** Whose notice it is: the account's name, or '' for a guest. */
let who = null;
let stream = null;
let pollTimer = null;
let remindTimer = null;
/** A guest's games seen over: not asked about again. */
const finished = new Set();
const listeners = [];

/** The notice known now (null before the first). */
export const current = () => notice;

/** Calls `fn(notice)` whenever the notice changes. */
export function onChange(fn) {
  listeners.push(fn);
}

/** Starts the header's counts, the title, the favicon and the browser
 * notifications; once per page load. */
export function start() {
  watchTitle();
  scrollToYourGames();
  account.ready().then(follow);
  account.onChange(follow);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && who === '') pollGuest();
  });
  // The stream is closed as the page is left: a browser may otherwise keep
  // its connection a while, and a few pages opened one after the other would
  // take every connection it allows to the site (six), stalling the next
  // page. Back on the page (from the back-forward cache), it is opened again.
  window.addEventListener('pagehide', () => {
    if (stream) stream.close();
    stream = null;
  });
  window.addEventListener('pageshow', (e) => {
    if (e.persisted && who && !stream) listen();
  });
}

// ---------------------------------------------------------------- sources

/** Follows the account signed in (its live notice) or the guest's games. */
function follow(state) {
  const next = state && state.signedIn ? state.account.name : state && !state.unknown ? '' : null;
  if (next === who) return;
  who = next;
  if (stream) stream.close();
  stream = null;
  clearTimeout(pollTimer);
  pollTimer = null;
  set(null);
  if (who) listen();
  else if (who === '') pollGuest();
}

function listen() {
  if (typeof EventSource === 'undefined') return;
  const es = new EventSource(api.accountEventsUrl());
  es.addEventListener('notice', (e) => {
    let data;
    try {
      data = JSON.parse(e.data);
    } catch (err) {
      return;
    }
    if (es === stream) set(clean(data));
  });
  stream = es;
}

/** A notice as the page uses it (whatever the server left out). */
function clean(data) {
  const waiting = Array.isArray(data && data.your_turn) ? data.your_turn : [];
  return {
    your_turn: waiting.filter((w) => w && typeof w.id === 'string').map((w) => ({
      id: w.id,
      board: typeof w.board === 'string' ? w.board : '',
      opponent: w.opponent && typeof w.opponent === 'object' ? w.opponent : null,
      turn_number: typeof w.turn_number === 'number' ? w.turn_number : null,
      deadline_ms: typeof w.deadline_ms === 'number' ? w.deadline_ms : null,
      correspondence: !!w.correspondence,
      // Its clock stopped by a vacation: nothing counts down, no reminder.
      paused: !!w.paused,
    })),
    challenges: Number(data && data.challenges) || 0,
  };
}

/** A guest: the games this browser keeps where it is the turn of its side. */
async function pollGuest() {
  clearTimeout(pollTimer);
  pollTimer = null;
  if (who !== '') return;
  const kept = identity.list().filter((g) => !finished.has(g.id) && !(g.black && g.white));
  if (!kept.length) {
    set({ your_turn: [], challenges: 0 });
    return;
  }
  try {
    const answer = await api.chosenGames(kept.map((g) => g.id));
    if (who !== '') return;
    const mine = new Map(kept.map((g) => [g.id, g]));
    const waiting = [];
    for (const g of answer.games) {
      if (g.status !== 'playing') {
        finished.add(g.id);
        continue;
      }
      const side = mine.get(g.id);
      if (side && side[g.to_move] && g[g.to_move] && g[g.to_move].kind === 'human') {
        const them = g[g.to_move === 'black' ? 'white' : 'black'] || {};
        waiting.push({
          id: g.id,
          board: boardName(g),
          opponent: them.kind === 'ai' ? { kind: 'ai', level: them.level }
            : them.name ? { kind: 'named', name: them.name } : { kind: 'guest' },
          turn_number: typeof g.turns === 'number' ? g.turns : null,
          // The list's clock: a guest is reminded as an account is.
          deadline_ms: typeof g.deadline_ms === 'number' ? g.deadline_ms : null,
          correspondence: !!g.clock && g.clock.kind === 'correspondence',
          paused: !!g.paused,
        });
      }
    }
    waiting.sort((a, b) => (a.deadline_ms ?? Infinity) - (b.deadline_ms ?? Infinity));
    for (const id of answer.missing || []) finished.add(id);
    set({ your_turn: waiting, challenges: 0 });
  } catch (e) {
    // The server cannot be asked now: the counts stay as they were.
  }
  if (who === '') pollTimer = setTimeout(pollGuest, GUEST_POLL_MS);
}

// ---------------------------------------------------------------- showing it

function set(next) {
  const same = JSON.stringify(next) === JSON.stringify(notice);
  notice = next;
  showInHeader();
  showInTitle();
  showInFavicon();
  if (next) notifyChanges(next);
  if (same) return;
  for (const fn of listeners) {
    try {
      fn(notice);
    } catch (e) {
      // One listener's failure stops no other.
    }
  }
}

const waitingCount = () => (notice ? notice.your_turn.length : 0);

/** The other side of a game waiting, in words: "Ann", "the AI (level 3)". */
function opponentName(o) {
  if (!o) return 'your opponent';
  if ((o.kind === 'account' || o.kind === 'named') && o.name) return o.name;
  if (o.kind === 'ai') return o.level ? `the AI (level ${o.level})` : 'the AI';
  return 'your opponent';
}

/** A game waiting, as it is said: "against Ann (Sygo 9×9, turn 12)", the
 * turn the one to play. */
function gameWords(w) {
  const what = [w.board, typeof w.turn_number === 'number' ? `turn ${w.turn_number + 1}` : '']
    .filter(Boolean).join(', ');
  return `against ${opponentName(w.opponent)}${what ? ` (${what})` : ''}`;
}

/** The games waiting in one line: the counter's tooltip. */
function waitingWords() {
  const waiting = notice ? notice.your_turn : [];
  if (waiting.length === 1) return `Your turn ${gameWords(waiting[0])}`;
  return `${waiting.length} games wait for your turn: ${waiting.map(gameWords).join('; ')}`;
}

/** The header's two links, made once, before the account's link. */
function headerLinks() {
  let box = document.getElementById('notices');
  if (box) return box;
  const account = document.getElementById('account-link');
  if (!account) return null;
  box = h('span', { class: 'notices', id: 'notices', hidden: true },
    h('a', { href: '/#your-games', id: 'turns-link', class: 'notice-link turns', hidden: true },
      h('span', { class: 'notice-count', id: 'turns-count' }), h('span', { class: 'notice-words' })),
    h('a', { href: '/#lobby', id: 'challenges-link', class: 'notice-link challenges', hidden: true },
      h('span', { class: 'notice-count', id: 'challenges-count' }), h('span', { class: 'notice-words' })));
  account.before(box);
  return box;
}

function showInHeader() {
  const box = headerLinks();
  if (!box) return;
  const n = waitingCount();
  const c = notice ? notice.challenges : 0;
  const turns = box.querySelector('#turns-link');
  const challenges = box.querySelector('#challenges-link');
  fillLink(turns, n, n === 1 ? 'A game waits for your turn' : `${n} games wait for your turn`, 'your turn',
    n ? waitingWords() : '');
  fillLink(challenges, c, c === 1 ? 'A challenge to you' : `${c} challenges to you`,
    c === 1 ? 'challenge' : 'challenges');
  box.hidden = !n && !c;
}

/** A header link: the figure, its words beside it (hidden on a phone), the
 * whole said as its name; its tooltip `tip` (or the name). */
function fillLink(link, count, said, words, tip = '') {
  link.hidden = !count;
  if (!count) return;
  link.setAttribute('aria-label', said);
  link.title = tip || said;
  const [figure, text] = link.children;
  if (figure.textContent !== String(count)) figure.textContent = String(count);
  if (text.textContent !== ` ${words}`) text.textContent = ` ${words}`;
}

const onGamePage = () => /^\/game\//.test(location.pathname);
const PREFIX = /^\(\d+\) /;

/** "(N) " before the tab's title while N games wait (not on a game page,
 * whose title js/clock.js writes). */
function showInTitle() {
  if (onGamePage()) return;
  const title = document.title;
  const bare = title.replace(PREFIX, '');
  const n = waitingCount();
  const want = n ? `(${n}) ${bare}` : bare;
  if (title !== want) document.title = want;
}

/** Keeps the prefix when a page writes its title again. */
function watchTitle() {
  const el = document.querySelector('title');
  if (!el || typeof MutationObserver === 'undefined') return;
  new MutationObserver(() => showInTitle()).observe(el, { childList: true, characterData: true, subtree: true });
}

function showInFavicon() {
  const icon = document.querySelector('link[rel="icon"]');
  if (!icon) return;
  const want = waitingCount() ? '/static/favicon-turn.svg' : '/static/favicon.svg';
  if (icon.getAttribute('href') !== want) icon.setAttribute('href', want);
}

/** The header's link opens `/#your-games`: the section is filled after the
 * page loads, so the browser cannot scroll to it by itself. */
function scrollToYourGames() {
  if (location.pathname !== '/' || location.hash !== '#your-games') return;
  const until = Date.now() + 5000;
  const look = () => {
    const section = document.getElementById('your-games');
    if (section && !section.hidden && section.querySelector('#my-games')) {
      section.scrollIntoView({ block: 'start' });
      return;
    }
    if (Date.now() < until) setTimeout(look, 100);
  };
  look();
}

// ---------------------------------------------------------------- browser notifications

function storage() {
  try {
    return window.localStorage;
  } catch (e) {
    return null;
  }
}

function read(key, fallback) {
  const s = storage();
  if (!s) return fallback;
  try {
    const v = JSON.parse(s.getItem(key) || 'null');
    return v === null ? fallback : v;
  } catch (e) {
    return fallback;
  }
}

function write(key, value) {
  const s = storage();
  if (!s) return;
  try {
    s.setItem(key, JSON.stringify(value));
  } catch (e) {
    // Full or refused: the next page may notify again, nothing worse.
  }
}

const supported = () => typeof window.Notification === 'function';

/** Whether the player asked for notifications and the browser allows them. */
export function enabled() {
  return supported() && Notification.permission === 'granted' && read(KEY_ON, null) === 'on';
}

/** Shows one notification; a click on it opens `href`. */
function show(title, body, tag, href) {
  try {
    const n = new Notification(title, { body, tag, icon: '/static/favicon-turn.svg' });
    n.onclick = () => {
      window.focus();
      if (location.pathname + location.hash !== href) location.assign(href);
      n.close();
    };
  } catch (e) {
    // A browser that only notifies through a service worker: nothing shown.
  }
}

/** Notifies what is new since the site's pages last looked. */
function notifyChanges(next) {
  const waiting = next.your_turn.map((w) => w.id);
  const seen = read(KEY_SEEN, null);
  const known = seen && seen.who === who && Array.isArray(seen.waiting);
  write(KEY_SEEN, { who, waiting, challenges: next.challenges });
  if (enabled() && known) {
    // A game the page shows, in sight, needs no notification.
    const inSight = (id) => document.visibilityState === 'visible' && location.pathname === `/game/${id}`;
    const fresh = next.your_turn.filter((w) => !seen.waiting.includes(w.id) && !inSight(w.id));
    if (fresh.length === 1) {
      show('Your turn in Sygo', `Your turn ${gameWords(fresh[0])}.`,
        `sygo-turn-${fresh[0].id}`, `/game/${fresh[0].id}`);
    } else if (fresh.length > 1) {
      show(`Your turn in ${fresh.length} Sygo games`, `Your turn ${fresh.map(gameWords).join('; ')}.`,
        'sygo-turns', '/#your-games');
    }
    if (next.challenges > (Number(seen.challenges) || 0)) {
      show('A challenge for you', 'A player challenges you to a game of Sygo: see the lobby.',
        'sygo-challenge', '/#lobby');
    }
  }
  remind(next);
}

/** Reminders before a correspondence deadline; the next one scheduled. */
function remind(next) {
  clearTimeout(remindTimer);
  remindTimer = null;
  if (!enabled()) return;
  const now = Date.now();
  const sent = read(KEY_SENT, {});
  // Reminders of deadlines gone by a day are forgotten.
  for (const [k, deadline] of Object.entries(sent)) if (!(deadline > now - 24 * HOUR)) delete sent[k];
  let soonest = Infinity;
  for (const w of next.your_turn) {
    if (!w.correspondence || w.paused || w.deadline_ms === null || w.deadline_ms <= now) continue;
    const left = w.deadline_ms - now;
    const due = REMINDERS.find((r) => left <= r.before);
    if (due) {
      const key = `${w.id}:${w.deadline_ms}:${due.key}`;
      if (!sent[key]) {
        // Each reminder once; a later one makes the earlier ones needless.
        for (const r of REMINDERS) {
          if (r.before >= due.before) sent[`${w.id}:${w.deadline_ms}:${r.key}`] = w.deadline_ms;
        }
        show('Your time is running out', `You have ${due.words} to play your turn ${gameWords(w)}.`,
          `sygo-remind-${w.id}-${due.key}`, `/game/${w.id}`);
      }
    }
    for (const r of REMINDERS) {
      const at = w.deadline_ms - r.before;
      if (at > now) soonest = Math.min(soonest, at);
    }
  }
  write(KEY_SENT, sent);
  if (soonest < Infinity) {
    // Looked at again when the next reminder is due (at least every hour:
    // a timer far ahead may be late after the computer sleeps).
    remindTimer = setTimeout(() => notice && remind(notice), Math.min(soonest - now + 500, HOUR));
  }
}

/**
 * The control to turn browser notifications on and off (the account page):
 * "Notify me of my turns" asks the browser's permission on its click only.
 */
export function notificationControl() {
  const button = h('button', { type: 'button', id: 'notify-button' });
  const status = h('p', { class: 'small', id: 'notify-status', role: 'status' });
  const box = h('section', { class: 'card notify-box', id: 'notify-box', 'aria-labelledby': 'notify-title' },
    h('h2', { id: 'notify-title' }, 'Notifications'),
    h('p', { class: 'small' }, 'While a page of this site is open, your browser can tell you when it is your turn in a ' +
      'game, when a player challenges you, and when a correspondence game has less than 12 hours, then less than ' +
      'an hour, left to play.'),
    h('p', { class: 'account-buttons' }, button),
    status);
  const draw = (said) => {
    if (!supported()) {
      button.hidden = true;
      status.textContent = 'This browser cannot show notifications.';
      return;
    }
    button.hidden = false;
    const on = enabled();
    button.textContent = on ? 'Stop notifications' : 'Notify me of my turns';
    button.setAttribute('aria-pressed', on ? 'true' : 'false');
    const denied = Notification.permission === 'denied';
    button.disabled = denied && !on;
    status.textContent = said || (on
      ? 'Notifications are on.'
      : denied
        ? 'Your browser blocks notifications from this site: allow them in its settings for this site first.'
        : 'Notifications are off.');
  };
  button.addEventListener('click', async () => {
    if (enabled()) {
      write(KEY_ON, 'off');
      draw('Notifications are off.');
      return;
    }
    button.disabled = true;
    let answer;
    try {
      answer = await askPermission();
    } catch (e) {
      answer = 'denied';
    }
    if (answer === 'granted') {
      write(KEY_ON, 'on');
      // What waits now is known: only what comes from now on is notified
      // (the reminders due are sent at once).
      if (notice) notifyChanges(notice);
      draw('Notifications are on.');
    } else {
      draw(answer === 'denied'
        ? 'Not allowed: your browser blocks notifications from this site.'
        : 'Not allowed: the browser did not give permission. Try again to be asked again.');
    }
    button.disabled = Notification.permission === 'denied' && !enabled();
  });
  draw('');
  return box;
}

/** The browser's permission, asked (a promise, or a callback in older
 * browsers). */
function askPermission() {
  return new Promise((resolve) => {
    const p = Notification.requestPermission(resolve);
    if (p && typeof p.then === 'function') p.then(resolve, () => resolve('denied'));
  });
}
