// A player's profile, /player/{name}: since when, the ratings (each board
// family's, with its history as a graph, js/rating-graph.js), the record
// against the AI, and the account's games (the board, the colour it played,
// the opponent, the state or the result, a link to each).

import * as api from './api.js';
import * as account from './account-state.js';
import { h, cap, setChildren } from './dom.js';
import { resultText } from './announce.js';
import { formatDate } from './account.js';
import { boardName } from './boards.js';
import { ratingText } from './ratings.js';
import { ratingGraph } from './rating-graph.js';


export async function showPlayer(root, name) {
  setChildren(root, h('div', { class: 'player-page' }, h('h1', {}, name), h('p', {}, 'Loading…')));
  let p;
  const signedIn = account.ready(); // never fails
  try {
    p = await api.getPlayer(name);
  } catch (e) {
    if (e.status === 404) {
      document.title = 'No such player';
      setChildren(root, h('div', { class: 'player-page', id: 'no-player' },
        h('h1', {}, 'No such player'),
        h('p', { role: 'alert' }, `There is no player named “${name}” on this server.`),
        h('p', {}, h('a', { href: '/games' }, 'See all games'))));
    } else {
      setChildren(root, h('div', { class: 'player-page' },
        h('h1', {}, name), h('p', { role: 'alert' }, `The profile cannot be shown now: ${e.message}`)));
    }
    return;
  }
  document.title = `${p.name} — Sygo player`;
  const me = await signedIn;
  const mine = me && me.signedIn && me.account.name.toLowerCase() === p.name.toLowerCase();
  const since = formatDate(p.created);
  setChildren(root, h('div', { class: 'player-page' },
    h('h1', { id: 'player-name' }, p.name),
    h('p', { id: 'member-since' }, since ? `Member since ${since}.` : ''),
    p.on_vacation ? h('p', { class: 'on-vacation', id: 'player-vacation' },
      h('span', { 'aria-hidden': 'true' }, '‖ '), 'On vacation: the clocks of their correspondence games are stopped on their turns.') : null,
    mine ? h('p', { class: 'small' }, 'This is your profile. ', h('a', { href: '/account' }, 'Your account')) : null,
    ratings(p),
    record(p.against_ai || {}),
    h('h2', { id: 'player-games-title' }, 'Games'),
    gamesTable(p)));
}

/** Each board family's rating: the figure ("1500?" while provisional), the
 * deviation, the rated games, and the history as a graph. */
function ratings(p) {
  const all = p.ratings || {};
  const family = (key, name) => {
    const r = all[key];
    if (!r) return null;
    const history = r.history || [];
    const games = r.games === 1 ? '1 rated game' : `${r.games || 0} rated games`;
    return h('div', { class: 'family-rating', 'data-family': key },
      h('h3', {}, name),
      h('p', { class: 'rating-line' },
        h('strong', { class: 'rating-value', 'data-rating': ratingText(r) }, ratingText(r)),
        h('span', {}, ` ± ${Math.round(r.deviation)}`),
        h('span', {}, ` · ${games}`),
        r.provisional ? h('span', {}, ' · provisional: the margin (the deviation) is still wide') : null),
      history.length
        ? ratingGraph(history, { who: p.name, family: name, key })
        : h('p', { class: 'small' }, `No rated ${name} game yet.`));
  };
  return h('section', { 'aria-labelledby': 'ratings-title', id: 'player-ratings' },
    h('h2', { id: 'ratings-title' }, 'Ratings'),
    h('div', { class: 'family-ratings' }, family('sygo', 'Sygo'), family('hexsygo', 'Hexsygo')),
    h('p', { class: 'small' }, h('a', { href: '/ratings' }, 'The leaderboard')));
}

/** Won, lost, drawn and playing against the AI. */
function record(r) {
  const figure = (key, label) => h('div', { 'data-record': key },
    h('dt', {}, label), h('dd', {}, String(r[key] || 0)));
  return h('section', { 'aria-labelledby': 'ai-record-title' },
    h('h2', { id: 'ai-record-title' }, 'Against the AI'),
    h('dl', { class: 'ai-record', id: 'ai-record' },
      figure('won', 'Won'), figure('lost', 'Lost'), figure('drawn', 'Drawn'), figure('playing', 'Playing')));
}

/** The opponent in words: the AI, another account (its profile), a guest,
 * or the player itself at one screen. */
function opponent(o) {
  if (!o) return '?';
  if (o.kind === 'ai') return `the AI (level ${o.level})`;
  if (o.kind === 'account') return h('a', { href: `/player/${encodeURIComponent(o.name)}`, 'data-opponent': o.name }, o.name);
  if (o.kind === 'self') return 'hot-seat';
  return 'a guest';
}

/** The state of a game, or its result as the player fared. */
function state(g) {
  if (g.status === 'playing') {
    const thinking = g[g.to_move] && g[g.to_move].kind === 'ai' && g.ai_thinking ? ' (the AI is thinking)' : '';
    return `Playing: ${cap(g.to_move)} to move${thinking}`;
  }
  const result = resultText(g);
  const m = /^([BW])\+/i.exec(g.result || '');
  if (!m || (g.opponent && g.opponent.kind === 'self')) return cap(result);
  const winner = m[1].toUpperCase() === 'B' ? 'black' : 'white';
  return `${winner === g.color ? 'Won' : 'Lost'}: ${result}`;
}

function gamesTable(p) {
  const list = p.games || [];
  if (!list.length) return h('p', { id: 'player-games' }, 'No games yet.');
  // Each cell says what it is (`data-label`): on a phone a row is a card.
  const cell = (label, attrs, ...children) => h('td', { 'data-label': label, ...attrs }, ...children);
  const rows = list.map((g) =>
    h('tr', { 'data-game': g.id },
      cell('Game', { class: 'game-cell' }, h('a', { href: `/game/${g.id}`, 'aria-label': `Game ${g.id}, ${boardName(g)}` }, g.id)),
      cell('Board', {}, boardName(g)),
      cell('Colour', { 'data-color': g.color }, g.opponent && g.opponent.kind === 'self' ? 'Both' : cap(g.color || '?')),
      cell('Opponent', { 'data-opponent-kind': g.opponent ? g.opponent.kind : '' }, opponent(g.opponent)),
      cell('Turns', { class: 'num-cell' }, String(g.turns)),
      cell('State', { 'data-status': g.status }, state(g)),
      cell('Updated', {}, formatDate(g.updated || g.created))));
  return h('div', { class: 'table-wrap' },
    h('table', { class: 'games player-games', id: 'player-games' },
      h('caption', { class: 'visually-hidden' }, `${p.name}’s games, newest first`),
      h('thead', {}, h('tr', {}, ...['Game', 'Board', 'Colour', 'Opponent', 'Turns', 'State', 'Updated']
        .map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, ...rows)));
}
