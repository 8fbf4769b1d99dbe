// Text for screen readers: the aria-live regions of index.html, and every
// turn in words (the server's description of it).

import { cap, other } from './dom.js';

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
 * The last turn of `game` (or of a record's node) in words, e.g. "White grew
 * D5 and F7, reversing E6.": the server's description, made by the rules
 * library from the turn as it was played (never guessed here).
 */
export function describeTurn(game) {
  const t = game.last_turn;
  return t ? t.description : '';
}

/** "Black to move.", or the result ("Game aborted: no result."). */
export function describeState(game) {
  if (game.status === 'aborted') return 'Game aborted: no result.';
  if (game.status === 'over') return `Game over: ${resultText(game)}.`;
  return `${cap(game.to_move)} to move.`;
}

/** The result in words: "B+3" → "Black wins by 3". */
export function resultText(game) {
  if (game.status === 'aborted') return 'aborted, no result';
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
