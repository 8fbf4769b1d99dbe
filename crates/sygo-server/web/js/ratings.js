// The leaderboard, /ratings (docs/web.md, "Ratings"): the players whose
// rating is established (not provisional), best first, one board family
// at a time — Sygo or Hexsygo, two tabs (← → between them, as a tab list
// goes); `/ratings?family=hexsygo` opens the second. And a rating as every
// page shows it ("1500?" while provisional).

import * as api from './api.js';
import { h, setChildren } from './dom.js';

const FAMILIES = [['sygo', 'Sygo'], ['hexsygo', 'Hexsygo']];

/** A rating as pages show it: "1500", or "1500?" while provisional. */
export function ratingText(r) {
  if (!r || typeof r.rating !== 'number') return '?';
  return `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;
}

/** A rating's element: the figure, and for screen readers "provisional". */
export function ratingElement(r, attrs = {}) {
  return h('span', { class: 'rating', 'data-rating': ratingText(r), ...attrs }, ratingText(r),
    r && r.provisional ? h('span', { class: 'visually-hidden' }, ' (provisional)') : null);
}

export function showRatings(root) {
  const asked = new URLSearchParams(location.search).get('family');
  let family = FAMILIES.some(([f]) => f === asked) ? asked : 'sygo';
  const panel = h('div', { class: 'ratings-panel', id: 'ratings-panel', role: 'tabpanel', tabindex: '0' });
  const tabs = FAMILIES.map(([f, label]) => h('button', {
    type: 'button', role: 'tab', id: `tab-${f}`, 'data-family': f, 'aria-controls': 'ratings-panel',
    onclick: () => choose(f, false),
    onkeydown: (e) => {
      const i = FAMILIES.findIndex(([x]) => x === f);
      const step = { ArrowRight: 1, ArrowLeft: -1, Home: -i, End: FAMILIES.length - 1 - i }[e.key];
      if (step === undefined) return;
      e.preventDefault();
      choose(FAMILIES[(i + step + FAMILIES.length) % FAMILIES.length][0], true);
    },
  }, label));
  setChildren(root, h('div', { class: 'ratings-page' },
    h('h1', {}, 'Ratings'),
    h('p', {}, 'Glicko-2 ratings from rated games between players, one for each board family. A player is listed ' +
      'once their rating is established: a new player starts at 1500 with a wide margin (shown “1500?” on their ' +
      'profile and in the lobby), which narrows with each rated game.'),
    h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Board family' }, ...tabs),
    panel));

  let asking = 0;
  async function choose(f, focus) {
    family = f;
    for (const t of tabs) {
      const on = t.dataset.family === f;
      t.setAttribute('aria-selected', on ? 'true' : 'false');
      t.tabIndex = on ? 0 : -1;
      if (on && focus) t.focus();
    }
    panel.setAttribute('aria-labelledby', `tab-${f}`);
    panel.dataset.family = f;
    const url = f === 'sygo' ? '/ratings' : `/ratings?family=${f}`;
    if (location.pathname + location.search !== url) history.replaceState(history.state, '', url);
    const name = FAMILIES.find(([x]) => x === f)[1];
    document.title = `${name} ratings — Sygo`;
    panel.removeAttribute('data-loaded');
    setChildren(panel, h('p', {}, 'Loading…'));
    const mine = ++asking;
    let board;
    try {
      board = await api.getRatings(f);
    } catch (e) {
      if (mine !== asking) return;
      setChildren(panel, h('p', { role: 'alert' }, `The ratings cannot be shown now: ${e.message}`));
      return;
    }
    if (mine !== asking) return;
    setChildren(panel, table(board, name));
    panel.dataset.loaded = 'true';
  }
  choose(family, false);
}

/** The leaderboard as a table (a row a player), or a sentence for none. */
function table(board, name) {
  const players = board.players || [];
  if (!players.length) {
    return h('p', { id: 'ratings-empty' }, `No ${name} rating is established yet: a player is listed here once ` +
      'enough rated games have narrowed their rating’s margin (its deviation) to 110 or less.');
  }
  const cell = (label, attrs, ...children) => h('td', { 'data-label': label, ...attrs }, ...children);
  return h('div', { class: 'table-wrap' },
    h('table', { class: 'games leaderboard', id: 'leaderboard' },
      h('caption', { class: 'visually-hidden' }, `${name} ratings, best first`),
      h('thead', {}, h('tr', {}, ...['Rank', 'Player', 'Rating', 'Deviation', 'Rated games']
        .map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, ...players.map((p) => h('tr', { 'data-player': p.name },
        cell('Rank', { class: 'num-cell' }, String(p.rank)),
        cell('Player', {}, h('a', { href: `/player/${encodeURIComponent(p.name)}` }, p.name)),
        cell('Rating', { class: 'num-cell', 'data-rating': String(p.rating) }, String(Math.round(p.rating))),
        cell('Deviation', { class: 'num-cell' }, `± ${Math.round(p.deviation)}`),
        cell('Rated games', { class: 'num-cell' }, String(p.games)))))));
}
