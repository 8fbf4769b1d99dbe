// The game page's layout: its elements (`page.el`), the board
// (`page.board`, js/board.js) wired to the turn composer, and the
// spectators' link.
//
// Three parts, placed by style.css: the board; the bar under it (the clocks
// of a game that has one, the buttons, whose turn and with what, the message
// and the preview), whose lines keep their room whether they say something
// or not, so that nothing moves under a finger; the panel (the game's
// details, review, the AI).

import { h, setChildren } from './dom.js';
import { copy } from './clipboard.js';
import { Board } from './board.js';

/** Builds the page's elements into `page.root`; returns them. */
export function buildLayout(page) {
  const el = {};
  el.board = h('div', { class: 'board-wrap', id: 'board' });
  // Both sides' clocks, in a game that has a clock (js/clock.js).
  el.clocks = h('div', { class: 'clocks', id: 'clocks', role: 'group', 'aria-label': 'Clocks', hidden: true });
  el.keys = h('p', { class: 'keys-help small', id: 'board-keys' });
  el.toMove = h('p', { class: 'turn', id: 'to-move' });
  el.moveOptions = h('p', { class: 'move-options small', id: 'move-options' });
  el.status = h('div', { class: 'status', id: 'status' });
  el.connection = h('p', { class: 'connection', id: 'connection', hidden: true });
  el.scores = h('div', { class: 'scores', id: 'scores' });
  el.message = h('div', { class: 'message', id: 'message', role: 'alert' });
  el.preview = h('p', { class: 'preview-text', id: 'preview' });
  el.lastTurnText = h('p', { class: 'last-turn', id: 'last-turn' });
  el.balance = h('div', { class: 'note balance', id: 'balance-note', hidden: true });
  el.controls = h('div', { class: 'controls', id: 'controls' });
  el.finishReason = h('p', { class: 'finish-reason small', id: 'finish-reason' });
  el.undoNote = h('p', { class: 'undo-note small', id: 'undo-note', hidden: true });
  el.legend = h('div', { class: 'legend', id: 'legend' });
  // Etiquette (js/etiquette.js): abort, undo requests, rematch, under the
  // bar's lines (it never moves them); the other side's presence; the chat
  // (js/chat.js).
  el.etiquette = h('div', { class: 'etiquette', id: 'etiquette' });
  el.presence = h('p', { class: 'presence', id: 'presence', role: 'status', hidden: true });
  el.chat = h('section', { class: 'chat', id: 'chat', 'aria-labelledby': 'chat-title', hidden: true });
  el.territoryBox = h('input', {
    type: 'checkbox', id: 'territory-toggle', onchange: (e) => page.toggleTerritory(e.target.checked),
  });
  el.aiButtons = h('div', { class: 'ai-buttons' },
    h('button', { type: 'button', id: 'hint-button', onclick: () => page.askHint() }, 'Hint'),
    h('button', { type: 'button', id: 'analyse-button', onclick: () => page.analyse() }, 'Analyse'));
  // Why Hint or Analyse is greyed, as text (a title is never seen on a
  // touch screen); its room is kept, so nothing moves when it changes.
  el.aiReason = h('p', { class: 'ai-reason small', id: 'ai-reason' });
  el.aiOut = h('div', { class: 'ai-out', id: 'ai-out', 'aria-live': 'polite' });
  el.aiReview = h('section', { class: 'ai-review', id: 'ai-review', 'aria-label': 'Review with the AI' });
  el.review = h('div', { class: 'review', id: 'review' });
  el.moves = h('ol', { class: 'moves', id: 'moves', 'aria-label': 'Turns played' });
  el.share = h('div', { class: 'share', id: 'share' });
  setChildren(page.root,
    h('div', { class: 'game-page' },
      h('section', { class: 'board-area', 'aria-label': 'Board' }, el.board),
      h('section', { class: 'board-bar', 'aria-label': 'Your turn' },
        // The clocks (a line of their own, their size fixed), then the
        // buttons: the lines under them may grow, never move them.
        el.clocks, el.controls, el.toMove, el.moveOptions,
        h('div', { class: 'message-box' }, el.message, el.preview),
        el.finishReason, el.etiquette),
      h('aside', { class: 'panel', 'aria-label': 'Game' },
        el.status, el.connection, el.presence, el.scores, el.lastTurnText,
        el.balance, el.undoNote, el.legend,
        h('div', { class: 'options' }, h('label', { class: 'check' }, el.territoryBox, ' Show territory')),
        el.chat,
        h('details', { class: 'ai-tools', open: true }, h('summary', {}, 'AI'), el.aiButtons, el.aiReason, el.aiOut),
        el.aiReview,
        el.review,
        h('h2', { class: 'moves-title' }, 'Turns'),
        el.moves,
        el.share,
        h('details', { class: 'keys-box' }, h('summary', {}, 'Playing from the keyboard'), el.keys))));
  renderShare(el.share, page.id);
  return el;
}

/** The board, its clicks, taps and hovers going to the turn composer. */
export function buildBoard(page) {
  return new Board(page.el.board, {
    click: (p, type, count) => page.composer.onClick(p, type, count),
    hover: (p) => page.composer.onHover(p),
  });
}

/** The spectators' link. */
function renderShare(el, id) {
  const url = `${location.origin}/game/${id}`;
  const input = h('input', { type: 'text', readonly: true, value: url, 'aria-label': 'Spectator link', id: 'spectator-link' });
  setChildren(el,
    h('h2', {}, 'Spectators'),
    h('div', { class: 'link-row' }, input,
      h('button', { type: 'button', onclick: () => copy(input, url) }, 'Copy')));
}
