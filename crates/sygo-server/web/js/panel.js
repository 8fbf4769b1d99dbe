// The game page's panel: whose turn, the scores, the buttons, the message
// area, the legend of the markers, the links; and the page's layout. The
// functions take the page (js/game.js) and draw from its state.

import { h, cap, setChildren, listPoints } from './dom.js';
import { Board } from './board.js';
import { announce, resultText } from './announce.js';

const BALANCE_NOTE =
  'Balance turn: no growth turn has been played yet, so Black may grow any or all of his groups ' +
  'and then place one unconnected stone, in the same turn. Add the growth stones first, then the ' +
  'placement (it ends the turn), then press Finish turn. A plain placement or growth turn is also allowed.';

/** The page's elements (`page.el`) and its board (`page.board`). */
export function buildLayout(page) {
  const el = (page.el = {});
  el.board = h('div', { class: 'board-wrap', id: 'board' });
  el.keys = h('p', { class: 'keys-help small', id: 'board-keys' });
  el.status = h('div', { class: 'status', id: 'status' });
  el.connection = h('p', { class: 'connection', id: 'connection', hidden: true });
  el.scores = h('div', { class: 'scores', id: 'scores' });
  el.message = h('div', { class: 'message', id: 'message', role: 'alert' });
  el.preview = h('p', { class: 'preview-text', id: 'preview' });
  el.lastTurnText = h('p', { class: 'last-turn', id: 'last-turn' });
  el.balance = h('div', { class: 'note balance', id: 'balance-note', hidden: true }, BALANCE_NOTE);
  el.controls = h('div', { class: 'controls', id: 'controls' });
  el.finishReason = h('p', { class: 'finish-reason small', id: 'finish-reason' });
  el.legend = h('div', { class: 'legend', id: 'legend' });
  el.territoryBox = h('input', {
    type: 'checkbox', id: 'territory-toggle', onchange: (e) => page.toggleTerritory(e.target.checked),
  });
  el.aiButtons = h('div', { class: 'ai-buttons' },
    h('button', { type: 'button', id: 'hint-button', onclick: () => page.askHint() }, 'Hint'),
    h('button', { type: 'button', id: 'analyse-button', onclick: () => page.analyse() }, 'Analyse'));
  el.aiOut = h('div', { class: 'ai-out', id: 'ai-out', 'aria-live': 'polite' });
  el.review = h('div', { class: 'review', id: 'review' });
  el.moves = h('ol', { class: 'moves', id: 'moves', 'aria-label': 'Turns played' });
  el.share = h('div', { class: 'share', id: 'share' });
  setChildren(page.root,
    h('div', { class: 'game-page' },
      h('section', { class: 'board-area', 'aria-label': 'Board' }, el.board,
        h('details', { class: 'keys-box' }, h('summary', {}, 'Playing from the keyboard'), el.keys)),
      h('aside', { class: 'panel', 'aria-label': 'Game' },
        el.status, el.connection, el.scores, el.lastTurnText,
        el.controls, el.finishReason,
        h('div', { class: 'message-box' }, el.message, el.preview),
        el.balance, el.legend,
        h('div', { class: 'options' }, h('label', { class: 'check' }, el.territoryBox, ' Show territory')),
        h('details', { class: 'ai-tools', open: true }, h('summary', {}, 'AI'), el.aiButtons, el.aiOut),
        el.review,
        h('h2', { class: 'moves-title' }, 'Turns'),
        el.moves,
        el.share)));
  page.board = new Board(el.board, {
    click: (p, type) => page.onClick(p, type),
    hover: (p) => page.onHover(p),
  });
}

/** What the hovered (or cursor) point would do, in words. */
export function renderPreview(page) {
  const el = page.el.preview;
  const b = page.builder;
  el.textContent = '';
  el.removeAttribute('data-kind');
  if (!page.hover || !page.canPlay() || !b.steps) return;
  const stones = b.steps.stones || page.game.stones;
  if (stones[page.hover]) return;
  const entry = b.entry(page.hover);
  if (!entry) return;
  if (entry.refused) {
    el.textContent = `${page.hover}: not allowed. ${entry.refused}`;
    el.dataset.kind = 'refused';
  } else {
    const rev = entry.reverses && entry.reverses.length ? `, reversing ${listPoints(entry.reverses)}` : '';
    const kind = entry.kind === 'placement'
      ? (b.pending.length ? 'a placement (it ends the turn)' : 'a placement (played at once)')
      : (b.pending.length ? 'a growth step' : 'a growth step (starts a growth turn)');
    el.textContent = `${page.hover}: ${kind}${rev}.`;
    el.dataset.kind = entry.kind;
  }
}

/** The title, who plays, whose turn, the AI thinking, the scores. */
export function renderStatus(page) {
  const g = page.game;
  const shown = page.shown();
  const who = (c) => {
    const p = g[c];
    return p.kind === 'ai' ? `${cap(c)} (AI, level ${p.level})` : cap(c);
  };
  const stoneIcon = (c) => h('span', { class: `stone-icon ${c}`, 'aria-hidden': 'true' });
  const parts = [];
  const title = `${g.variant === 'hexsygo' ? 'Hexsygo, base' : 'Sygo,'} ${g.variant === 'hexsygo' ? g.size : `${g.size}×${g.size}`}`;
  parts.push(h('h1', { class: 'game-title' }, title));
  const sides = page.mySides();
  let role;
  if (g.source === 'uploaded') role = 'An uploaded record: review it turn by turn.';
  else if (sides.length === 2 && page.tokens.any && !page.tokens.black && !page.tokens.white) {
    role = 'You play the side of your private link (it says which when you first move).';
  } else if (sides.length === 2) role = 'Both sides are played on this page.';
  else if (sides.length === 1) role = `You play ${cap(sides[0])}.`;
  else role = 'You are watching.';
  parts.push(h('p', { class: 'role', id: 'role' }, role));
  if (g.status === 'over') {
    parts.push(h('p', { class: 'turn over', id: 'to-move', 'data-status': 'over' }, `Game over: ${resultText(g)}.`));
  } else {
    const mine = page.canPlay();
    parts.push(h('p', { class: 'turn', id: 'to-move', 'data-to-move': g.to_move },
      stoneIcon(g.to_move), ` ${who(g.to_move)} to move`, mine && sides.length === 1 ? ' — your turn' : '', '.'));
    if (g.ai_thinking) {
      parts.push(h('p', { class: 'thinking', id: 'ai-thinking' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ` ${who(g.to_move)} is thinking…`));
    }
  }
  if (!page.live()) parts.push(h('p', { class: 'reviewing' }, `Reviewing the position after turn ${shown.shown_turn}.`));
  setChildren(page.el.status, ...parts);
  document.title = `${g.status === 'over' ? 'Game over' : `${cap(g.to_move)} to move`} · ${title}`;

  const score = shown.score || { black: 0, white: 0 };
  const count = (c) => Object.values(shown.stones).filter((x) => x === c).length;
  const row = (c) => {
    const stones = count(c);
    const total = score[c];
    return h('div', { class: `score ${c}`, 'data-score': c },
      stoneIcon(c), h('strong', {}, ` ${who(c)}: ${total}`),
      h('span', { class: 'small' }, ` (${stones} stone${stones === 1 ? '' : 's'} + ${total - stones} territory)`));
  };
  setChildren(page.el.scores, row('black'), row('white'));
}

/** Finish, undo, drop, pass, resign (with its confirmation), why not, the balance note. */
export function renderControls(page) {
  const el = page.el.controls;
  const g = page.game;
  const b = page.builder;
  const can = page.canPlay() && !page.submitting;
  const n = b.pending.length;
  const finishAllowed = can && n > 0 && b.finish.allowed;
  const button = (action, text, attrs) =>
    h('button', { type: 'button', 'data-action': action, id: `${action}-button`, ...attrs }, text);
  if (page.confirmResign && can) {
    setChildren(el,
      h('span', { class: 'confirm' }, `Resign this game as ${cap(g.to_move)}?`),
      button('resign-yes', 'Yes, resign', { class: 'danger', onclick: () => page.resign(true) }),
      button('resign-no', 'Cancel', { onclick: () => { page.confirmResign = false; page.renderControls(); } }));
  } else {
    setChildren(el,
      button('finish', n ? `Finish turn (${n} stone${n > 1 ? 's' : ''})` : 'Finish turn', {
        class: 'primary', disabled: finishAllowed ? null : true, onclick: () => page.finish(),
      }),
      button('undo', 'Undo stone', { disabled: can && n ? null : true, onclick: () => page.undoStone() }),
      button('clear', 'Drop turn', { disabled: can && n ? null : true, onclick: () => page.clearTurn() }),
      button('pass', 'Pass', { disabled: can && !n ? null : true, onclick: () => page.pass() }),
      button('resign', 'Resign', { class: 'danger', disabled: can ? null : true, onclick: () => page.resign(false) }));
  }
  // Spectators and uploaded records have nothing to play.
  el.hidden = page.mySides().length === 0;
  const fr = page.el.finishReason;
  fr.textContent = '';
  if (can && n && !b.finish.allowed && b.steps) {
    fr.textContent = `Cannot finish yet: ${b.finish.reason || 'the turn cannot end here.'}`;
  } else if (can && !n) {
    fr.textContent = 'Click a point: a placement is played at once; a growth stone starts a growth turn, ended with Finish turn.';
  } else if (!can && g.status === 'playing' && !page.submitting) {
    fr.textContent = page.whyNot();
  }
  // Only worth explaining once Black has a group to grow.
  const balance = can && g.balance_available && g.to_move === 'black' &&
    Object.values(g.stones).includes('black');
  page.el.balance.hidden = !balance;
  page.el.aiButtons.querySelector('#hint-button').disabled = !can;
}

/** The markers in use, each with its shape and meaning. */
export function renderLegend(page, building) {
  const el = page.el.legend;
  const item = (symbol, text) => h('li', {}, h('span', { class: 'sym', 'aria-hidden': 'true' }, symbol), ' ', text);
  const items = [
    item('○', 'ring: the last turn\'s stones'),
    item('◇', 'diamond: stones reversed (changed colour)'),
  ];
  if (building) {
    items.push(
      item('①', 'translucent numbered stone with a dashed ring: pending stone of this turn (click it to take it back)'),
      item('△', 'triangle: your group can still grow this turn (fresh)'),
      item('✓', 'check: your group has grown this turn'),
      item('✕', 'cross: your group is frozen by a capture this turn'),
      item('•', 'dot: the turn may continue here (growth)'),
      item('□', 'small square: a placement may end the turn here'),
      item('◌', 'dashed circle (on hover): stones the step would reverse'),
    );
  }
  if (page.territory) items.push(item('■', 'small square on a vacant point: territory of its colour'));
  setChildren(el, h('ul', { class: 'legend-list', 'aria-label': 'Markers on the board' }, ...items));
}

/** The spectators' link. */
export function renderShare(page) {
  const url = `${location.origin}/game/${page.id}`;
  const input = h('input', { type: 'text', readonly: true, value: url, 'aria-label': 'Spectator link', id: 'spectator-link' });
  setChildren(page.el.share,
    h('h2', {}, 'Spectators'),
    h('div', { class: 'link-row' }, input,
      h('button', { type: 'button', onclick: () => copy(input, url) }, 'Copy')));
}

/** Copies a link; selects it when the clipboard is refused. */
export function copy(input, text) {
  input.select();
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(() => announce('Link copied.'), () => document.execCommand('copy'));
  } else {
    document.execCommand('copy');
    announce('Link copied.');
  }
}
