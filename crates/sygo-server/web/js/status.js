// The game page's status: the title, who plays what, whose turn it is, the
// AI thinking, the scores; the previewed step in words; the legend of the
// markers in use. Each function draws from the page's state (js/game.js).

import { h, cap, setChildren } from './dom.js';
import { describeState } from './announce.js';

const stoneIcon = (c) => h('span', { class: `stone-icon ${c}`, 'aria-hidden': 'true' });

/** The title, who plays, whose turn and with what, the AI thinking, the scores. */
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
  // The players' names, when the sides have them (a game of the lobby
  // between two accounts; an uploaded record's are shown with the record).
  if (g.source !== 'uploaded' && (g.black.name || g.white.name)) {
    const player = (c) => {
      const p = g[c];
      const name = p.name
        ? h('a', { href: `/player/${encodeURIComponent(p.name)}`, 'data-player-name': c }, p.name)
        : p.kind === 'ai' ? `the AI (level ${p.level})` : 'a guest';
      return h('span', { class: 'player-side' }, stoneIcon(c), ` ${cap(c)}: `, name);
    };
    parts.push(h('p', { class: 'players', id: 'players' }, player('white'), ' ', player('black')));
  }
  if (!page.live()) parts.push(h('p', { class: 'reviewing' }, `Reviewing the position after turn ${shown.shown_turn}.`));
  setChildren(page.el.status, ...parts);
  // The tab's title; js/clock.js puts the time left first while it is this
  // browser's turn in a game with a clock.
  const ended = g.status === 'aborted' ? 'Game aborted' : 'Game over';
  page.clocks.setTitle(g.status !== 'playing' ? ended : `${cap(g.to_move)} to move`, title);

  // Whose turn, in the bar under the board (one line, whatever it says).
  const toMove = page.el.toMove;
  if (g.status !== 'playing') {
    // Over, or aborted ("Game aborted: no result.").
    toMove.dataset.status = g.status;
    toMove.removeAttribute('data-to-move');
    setChildren(toMove, describeState(g));
  } else {
    toMove.removeAttribute('data-status');
    toMove.dataset.toMove = g.to_move;
    const mine = page.canPlay() && sides.length === 1 ? ' — your turn' : '';
    setChildren(toMove, stoneIcon(g.to_move), ` ${who(g.to_move)} to move${mine}`,
      g.ai_thinking
        ? h('span', { class: 'thinking', id: 'ai-thinking' }, ': ', h('span', { class: 'spinner', 'aria-hidden': 'true' }), ' thinking…')
        : '.');
  }
  setText(page.el.moveOptions, moveOptions(page));

  // The score so far is an area count: early on, one stone "surrounds" the
  // whole empty board, which is why it says so.
  const score = shown.score || { black: 0, white: 0 };
  const count = (c) => Object.values(shown.stones).filter((x) => x === c).length;
  const row = (c) => {
    const stones = count(c);
    const total = score[c];
    return h('div', { class: `score ${c}`, 'data-score': c },
      stoneIcon(c), h('strong', {}, ` ${who(c)}: ${total}`),
      h('span', { class: 'small' }, ` (${stones} stone${stones === 1 ? '' : 's'} + ${total - stones} surrounded point${total - stones === 1 ? '' : 's'})`));
  };
  const over = g.status !== 'playing' && page.live();
  setChildren(page.el.scores,
    h('p', { class: 'score-title small', id: 'score-title' }, over
      ? 'Final area count: stones plus the vacant points each side surrounds.'
      : 'Area count so far: stones plus the vacant points each side surrounds alone. Early in the game a few stones surround much of the empty board; the count settles as the board fills.'),
    row('black'), row('white'));
}

/** What the side to move may do now, in words (placement, growth, the balance turn, pass). */
export function moveOptions(page) {
  const g = page.game;
  if (g.source === 'uploaded') return 'An uploaded record: step through it, or ask the AI to review it.';
  if (!page.live()) {
    return `You are reviewing an earlier position: ${page.touch ? 'tap ▶| to return' : '▶| (or End) returns'} to the game.`;
  }
  if (g.status !== 'playing') return '';
  const side = cap(g.to_move);
  if (g[g.to_move].kind === 'ai') return `The AI plays ${side}'s turn.`;
  if (!page.canPlay()) {
    return page.mySides().length
      ? `Waiting for ${side}, your opponent, to play.`
      : 'You are watching: only the players, with their private links, can move.';
  }
  const b = page.composer.builder;
  if (!b.steps) return '';
  const entries = Object.values(b.steps.next || {}).filter((e) => !e.refused);
  const growth = entries.filter((e) => e.kind === 'growth').length;
  const placement = entries.filter((e) => e.kind === 'placement').length;
  const n = b.pending.length;
  if (n === 0) {
    const ways = [];
    if (placement) ways.push(`place one stone (${placement} point${placement === 1 ? '' : 's'})`);
    if (growth) ways.push('grow any or all of your groups, one stone each');
    const balance = g.balance_available && g.to_move === 'black' && growth
      ? ' Balance turn available: grow, then place one stone, in the same turn.' : '';
    return `${side} may ${ways.join(', or ')}${ways.length ? ', or pass' : 'pass'}.${balance}`;
  }
  const kinds = b.steps.kinds || [];
  if (kinds[kinds.length - 1] === 'placement') {
    return 'Balance turn: grown and placed, nothing more can be added. Press Finish turn to play it.';
  }
  const more = growth ? 'grow more of your groups, or ' : '';
  const place = placement
    ? `; or add a placement, the balance turn's last stone (${placement} point${placement === 1 ? '' : 's'})` : '';
  return `Growth turn: ${n} stone${n === 1 ? '' : 's'} pending. ${cap(more)}${more ? 'press' : 'Press'} Finish turn${place}.`;
}

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
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
      item('①', `translucent numbered stone with a dashed ring: pending stone of this turn (${page.touch ? 'tap' : 'click'} it to take it back)`),
      item('△', 'triangle: your group can still grow this turn (fresh)'),
      item('✓', 'check: your group has grown this turn'),
      item('✕', 'cross: your group is frozen by a capture this turn'),
      item('+', 'plus: the turn may continue here (growth)'),
      item('□', 'small square: a placement may end the turn here (shown when few points allow one)'),
      item('◌', 'dashed circle (on hover or the first tap): stones the step would reverse'),
    );
  }
  if (page.territory) items.push(item('■', 'small square on a vacant point: territory of its colour'));
  const view = page.boardViewShown || {};
  if (view.best && view.best.length) {
    items.push(item('★', 'star: the AI\'s best turn in this position (numbered when it has several stones)'));
  }
  if (view.ownership) {
    items.push(item('▪', 'square sized by certainty: who the AI expects to own the point (black or white)'));
  }
  setChildren(el, h('ul', { class: 'legend-list', 'aria-label': 'Markers on the board' }, ...items));
}
