// Stepping through a game's turns (`GET /api/games/{id}?turn=N`) and its
// move list.

import { h, setChildren } from './dom.js';
import { recordUrl, getGame } from './api.js';
import { announce, describeTurn } from './announce.js';

/**
 * The review controls: first, previous, next, last, the turn shown, and the
 * record to download. `go(n)` shows the position after n turns. While a
 * variation of an uploaded record is shown (`variation`: its `turn`,
 * whether it goes on, `hasNext`, and its own `back()` and `next()`), the
 * line says so and ◀ ▶ step back and along the variation, as its own
 * buttons do, instead of jumping to the main line.
 */
export function renderReview(el, { id, shown, total, go, variation }) {
  const button = (label, text, action, disabled) =>
    h('button', {
      type: 'button', class: 'nav', 'aria-label': label, title: label,
      'data-review': label.split(' ')[0].toLowerCase(),
      disabled: disabled ? true : null, onclick: action,
    }, text);
  const v = variation;
  const words = v
    ? [`In a variation, turn ${v.turn}`]
    : [`Turn ${shown} of ${total}`,
      shown === total ? null : h('span', { class: 'shown-state' }, ' (reviewing)')];
  setChildren(
    el,
    h('div', { class: 'review-buttons', role: 'group', 'aria-label': 'Step through the turns' },
      button('First position', '|◀', () => go(0), !v && shown === 0),
      v ? button('Previous turn', '◀', () => v.back(), false)
        : button('Previous turn', '◀', () => go(shown - 1), shown === 0),
      h('span', { class: 'shown-turn', id: 'shown-turn', 'aria-live': 'off' }, ...words),
      v ? button('Next turn', '▶', () => v.next(), !v.hasNext)
        : button('Next turn', '▶', () => go(shown + 1), shown >= total),
      button('Last position', '▶|', () => go(total), !v && shown >= total)),
    h('a', { class: 'download', href: recordUrl(id), download: `sygo-${id}.sgf` }, 'Download the record (SGF)'),
  );
}

/** The move list; the turn shown is marked; a click shows that position. */
export function renderMoves(el, { turns, shown, go }) {
  const items = turns.map((t) =>
    h('li', { 'data-turn': t.number, class: t.number === shown ? 'current' : null },
      h('button', {
        type: 'button', class: 'move', 'aria-current': t.number === shown ? 'step' : null,
        onclick: () => go(t.number),
      }, `${t.number}. ${t.description}`)));
  setChildren(el, ...items);
  if (!items.length) el.append(h('li', { class: 'empty' }, 'No turns yet. White moves first.'));
  // The turn shown kept in view inside the list (never scrolling the page).
  const current = el.querySelector('li.current');
  if (current) {
    const top = current.offsetTop;
    const bottom = top + current.offsetHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (bottom > el.scrollTop + el.clientHeight) el.scrollTop = bottom - el.clientHeight;
  }
}

/**
 * Shows the position after `n` turns on the game page (`page`, js/game.js):
 * the live game when n is the last turn, else the game as it stood
 * (`GET /api/games/{id}?turn=N`); the URL keeps `?turn=N`.
 */
export function goTo(page, n) {
  return page.enqueue(async () => {
    const total = page.game.turn_number;
    const from = page.reviewTurn ?? total;
    n = Math.max(0, Math.min(total, n));
    if (n === total) {
      page.reviewTurn = null;
      page.reviewGame = null;
    } else {
      const game = await getGame(page.id, n);
      page.reviewTurn = n;
      page.reviewGame = game;
    }
    page.composer.hover = null;
    page.variation = null;
    page.clearAi();
    const g = page.shown();
    if (n === from + 1) page.startFlip(g);
    const text = g.last_turn ? describeTurn(g) : 'The empty board.';
    page.el.lastTurnText.textContent = text;
    announce(`Turn ${n} of ${total}. ${text}`);
    const url = new URL(location.href);
    if (page.reviewTurn === null) url.searchParams.delete('turn');
    else url.searchParams.set('turn', String(n));
    history.replaceState(null, '', url);
    if (page.canPlay() && !page.composer.builder.steps) await page.composer.refreshSteps();
    page.render();
  });
}
