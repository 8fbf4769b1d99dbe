// Stepping through a game's turns (`GET /api/games/{id}?turn=N`) and its
// move list.

import { h, cap, setChildren } from './dom.js';
import { recordUrl } from './api.js';

/**
 * The review controls: first, previous, next, last, the turn shown, and the
 * record to download. `go(n)` shows the position after n turns.
 */
export function renderReview(el, { id, shown, total, go }) {
  const button = (label, text, target, disabled) =>
    h('button', {
      type: 'button', class: 'nav', 'aria-label': label, title: label,
      'data-review': label.split(' ')[0].toLowerCase(),
      disabled: disabled ? true : null, onclick: () => go(target),
    }, text);
  setChildren(
    el,
    h('div', { class: 'review-buttons', role: 'group', 'aria-label': 'Step through the turns' },
      button('First position', '|◀', 0, shown === 0),
      button('Previous turn', '◀', shown - 1, shown === 0),
      h('span', { class: 'shown-turn', id: 'shown-turn', 'aria-live': 'off' },
        shown === total ? `Turn ${shown} of ${total}` : `Turn ${shown} of ${total} (reviewing)`),
      button('Next turn', '▶', shown + 1, shown >= total),
      button('Last position', '▶|', total, shown >= total)),
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
      }, `${t.number}. ${cap(t.color)} ${t.turn}`)));
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
