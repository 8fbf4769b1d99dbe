// Text for screen readers: the aria-live regions of index.html, and every
// turn described in words with its coordinates.

import { cap, listPoints, other } from './dom.js';

function speak(id, text) {
  const el = document.getElementById(id);
  if (!el) return;
  // Cleared first, so that the same sentence twice is read twice.
  el.textContent = '';
  window.setTimeout(() => { el.textContent = text; }, 20);
}

/** A turn, a result, a change: read politely after what is being read. */
export const announce = (text) => speak('announce', text);

/** What is under the keyboard cursor. */
export const announceCursor = (text) => speak('announce-cursor', text);

/**
 * The last turn of `game` in words, e.g. "White grew D5 and F7, reversing
 * E6." `before` is the board before it (stones by point), when known: it
 * tells growth from placement; `neighbours` gives a point's neighbours.
 */
export function describeTurn(game, before, neighbours) {
  const t = game.last_turn;
  if (!t) return '';
  const who = cap(t.color);
  if (t.turn === 'pass') return `${who} passed.`;
  if (t.turn === 'resign') return `${who} resigned.`;
  const stones = t.stones || [];
  const grown = [];
  const placed = [];
  for (const p of stones) {
    const touches = before && neighbours(p).some((q) => before[q] === t.color);
    if (touches || (!before && stones.length > 1 && p !== stones[stones.length - 1])) grown.push(p);
    else if (before) placed.push(p);
    else if (stones.length > 1) grown.push(p);
    else placed.push(p);
  }
  const parts = [];
  if (grown.length) parts.push(`grew ${listPoints(grown)}`);
  if (placed.length) parts.push(`${before ? 'placed' : 'played'} ${listPoints(placed)}`);
  let text = `${who} ${parts.join(' and ')}`;
  const rev = t.reversed || [];
  if (rev.length) text += `, reversing ${listPoints(rev)}`;
  return text + '.';
}

/** "Black to move.", or the result. */
export function describeState(game) {
  if (game.status === 'over') return `Game over: ${resultText(game)}.`;
  return `${cap(game.to_move)} to move.`;
}

/** The result in words: "B+3" → "Black wins by 3". */
export function resultText(game) {
  const r = game.result;
  if (!r) return 'game over';
  const m = /^([BW])\+(.*)$/i.exec(r);
  if (!m) return r === '0' || /^draw$/i.test(r) ? 'a draw' : r;
  const who = m[1].toUpperCase() === 'B' ? 'Black' : 'White';
  const by = m[2];
  if (/^r(esign)?$/i.test(by)) return `${who} wins by resignation`;
  if (/^t(ime)?$/i.test(by)) return `${who} wins on time`;
  if (/^f(orfeit)?$/i.test(by)) return `${who} wins by forfeit`;
  return by ? `${who} wins by ${by}` : `${who} wins`;
}

export { other };
