// The game page's status: the title, who plays what, whose turn it is, the
// AI thinking, the scores; the previewed step in words; the legend of the
// markers in use. Each function draws from the page's state (js/game.js).

import { h, cap, setChildren } from './dom.js';
import { resultText } from './announce.js';

const stoneIcon = (c) => h('span', { class: `stone-icon ${c}`, 'aria-hidden': 'true' });

/** The title, who plays, whose turn, the AI thinking, the scores. */
export function renderStatus(page) {
  const g = page.game;
  const shown = page.shown();
  const who = (c) => {
    const p = g[c];
    return p.kind === 'ai' ? `${cap(c)} (AI, level ${p.level})` : cap(c);
  };
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

/** What the hovered (or cursor) point would do, in words. */
export function renderPreview(page) {
  const el = page.el.preview;
  const preview = page.composer.previewText();
  el.textContent = preview ? preview.text : '';
  if (preview) el.dataset.kind = preview.kind;
  else el.removeAttribute('data-kind');
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
