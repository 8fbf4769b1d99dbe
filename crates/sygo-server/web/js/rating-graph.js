// A player's rating history as a graph (the profile, js/player.js): an
// inline SVG drawn here with DOM calls (no library, no style attribute:
// classes in style.css, geometry by attributes), the rating after each
// rated game from left to right, a dot for each game, the start (1500) as
// a dotted line when in range. For assistive technology it is an image
// with a title and a description in words, and the points are a table that
// is hidden from sight only.

import { s, h } from './dom.js';
import { formatDate } from './account.js';

const W = 600;
const H = 180;
const PAD = 8;
/** Where every rating starts. */
const START = 1500;

/**
 * The graph of `history` (`[{at, rating, game}]`, oldest first; not empty)
 * for `who`'s rating in `family` ("Sygo"). `key` makes the ids unique.
 */
export function ratingGraph(history, { who, family, key }) {
  const ratings = history.map((p) => p.rating);
  const highest = Math.max(...ratings);
  const lowest = Math.min(...ratings);
  // The scale: the ratings with a margin, at least 50 points tall.
  const mid = (highest + lowest) / 2;
  const half = Math.max(25, (highest - lowest) / 2) * 1.1;
  const top = Math.ceil((mid + half) / 10) * 10;
  const bottom = Math.floor((mid - half) / 10) * 10;
  const n = history.length;
  const x = (i) => (n === 1 ? W / 2 : PAD + ((W - 2 * PAD) * i) / (n - 1));
  const y = (r) => PAD + ((H - 2 * PAD) * (top - r)) / (top - bottom);
  const line = history.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(p.rating).toFixed(1)}`).join(' ');
  const first = history[0];
  const last = history[n - 1];
  const titleId = `rating-graph-${key}-title`;
  const descId = `rating-graph-${key}-desc`;
  const title = `${who}’s ${family} rating after each of ${n} rated game${n === 1 ? '' : 's'}`;
  const desc = n === 1
    ? `${Math.round(first.rating)} after the one rated game.`
    : `From ${Math.round(first.rating)} after the first game to ${Math.round(last.rating)} after the last; ` +
      `highest ${Math.round(highest)}, lowest ${Math.round(lowest)}.`;
  const svg = s('svg', {
    class: 'rating-graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': `${titleId} ${descId}`,
    'data-rating-graph': key, 'data-points': n,
  },
  s('title', { id: titleId }, title),
  s('desc', { id: descId }, desc),
  s('rect', { class: 'rating-graph-bg', x: 0, y: 0, width: W, height: H }),
  START > bottom && START < top
    ? s('line', { class: 'rating-graph-start', x1: 0, x2: W, y1: y(START), y2: y(START) })
    : null,
  s('path', { class: 'rating-graph-line', d: line }),
  ...history.map((p, i) => s('circle', {
    class: 'rating-graph-dot', cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 3.5,
    'data-game': p.game, 'data-rating': Math.round(p.rating),
  })));
  // The scale beside the graph, and what its marks mean under it (for the
  // eye: the description says it in words).
  const axis = h('div', { class: 'rating-graph-axis small', 'aria-hidden': 'true' },
    h('span', {}, String(top)), h('span', {}, String(bottom)));
  const caption = h('figcaption', { class: 'small', 'aria-hidden': 'true' },
    START > bottom && START < top ? `Dotted: ${START}, where every rating starts. ` : '',
    'A dot for each rated game, the oldest on the left.');
  const points = h('table', { class: 'visually-hidden', 'data-rating-points': key },
    h('caption', {}, `${who}’s ${family} rating after each rated game, oldest first`),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Game'), h('th', { scope: 'col' }, 'Date'),
      h('th', { scope: 'col' }, 'Rating'))),
    h('tbody', {}, ...history.map((p, i) => h('tr', {},
      h('td', {}, String(i + 1)), h('td', {}, formatDate(p.at)), h('td', {}, String(Math.round(p.rating)))))));
  return h('figure', { class: 'rating-figure' }, h('div', { class: 'rating-graph-box' }, axis, svg), caption, points);
}
