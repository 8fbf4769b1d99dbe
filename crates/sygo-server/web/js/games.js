// The games list: the games played here, newest first, a page at a time
// (`GET /api/games?before=…`); "Older games" adds the next page.

import * as api from './api.js';
import { h, cap, setChildren } from './dom.js';
import { resultText } from './announce.js';

// An uploaded record's players have their names.
const player = (p) => (!p ? '?' : p.name ? p.name : p.kind === 'ai' ? `AI level ${p.level}` : 'person');

export async function showGames(root) {
  setChildren(root, h('h1', {}, 'Games'), h('p', {}, 'Loading…'));
  let page;
  try {
    page = await api.listGames();
  } catch (e) {
    setChildren(root, h('h1', {}, 'Games'), h('p', { role: 'alert' }, e.message));
    return;
  }
  const list = page.games || [];
  if (!list.length) {
    setChildren(root, h('h1', {}, 'Games'), h('p', {}, 'No games yet. ', h('a', { href: '/' }, 'Start one.')));
    return;
  }
  const tbody = h('tbody', {}, ...list.map(row));
  const status = h('p', { role: 'status' });
  const more = h('button', { type: 'button', class: 'older-games' }, 'Older games');
  let next = page.next;
  more.hidden = !next;
  more.addEventListener('click', async () => {
    more.disabled = true;
    try {
      const older = await api.listGames(next);
      tbody.append(...(older.games || []).map(row));
      next = older.next;
      more.hidden = !next;
      status.textContent = '';
    } catch (e) {
      status.textContent = e.message;
    }
    more.disabled = false;
  });
  setChildren(root,
    h('h1', {}, 'Games'),
    h('div', { class: 'table-wrap' },
      h('table', { class: 'games' },
        h('caption', { class: 'visually-hidden' }, 'Games played here, newest first'),
        h('thead', {}, h('tr', {}, ...['Game', 'Board', 'Black', 'White', 'Turns', 'Status', 'Source', 'Updated'].map((t) => h('th', { scope: 'col' }, t)))),
        tbody)),
    more,
    status);
}

// Each cell says what it is (`data-label`): on a phone a row is a card.
const cell = (label, attrs, ...children) => h('td', { 'data-label': label, ...attrs }, ...children);

function row(g) {
  return h('tr', { 'data-game': g.id },
    cell('Game', { class: 'game-cell' }, h('a', { href: `/game/${g.id}` }, g.id)),
    cell('Board', {}, g.variant === 'hexsygo' ? `Hexsygo base ${g.size}` : `Sygo ${g.size}×${g.size}`),
    cell('Black', { 'data-player': 'black' }, player(g.black)),
    cell('White', { 'data-player': 'white' }, player(g.white)),
    cell('Turns', { class: 'num-cell' }, String(g.turns)),
    cell('Status', {}, g.status !== 'playing' ? resultText(g) : `${cap(g.to_move)} to move`),
    cell('Source', {}, g.source === 'uploaded' ? 'uploaded' : 'played'),
    cell('Updated', {}, formatTime(g.updated || g.created)));
}

function formatTime(t) {
  if (t === undefined || t === null) return '';
  const d = typeof t === 'number' ? new Date(t > 1e12 ? t : t * 1000) : new Date(t);
  return Number.isNaN(d.getTime()) ? String(t) : d.toLocaleString();
}
