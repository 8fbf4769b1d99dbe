// The review's graph in SVG (no library): Black's win probability over the
// turns (the solid line, 0 to 100% bottom to top, the dotted 50% line
// across), Black's expected result with the komi as the second, dashed line
// (its scale, ± the largest margin, written beside the graph), and the turn
// shown marked by a vertical line and a ring. One dot per reviewed position.
//
// It is a slider for assistive technology and the keyboard: ←/→ one turn,
// Page Up/Down ten, Home/End the first and last; its value in words is the
// turn with the AI's view of it. A click or a tap anywhere on the graph
// goes to the nearest turn.

import { s, h, setChildren } from './dom.js';

const W = 600;
const H = 160;
const PAD = 6;

const pct = (x) => `${(x * 100).toFixed(1)}%`;

/** An expected result in the record's words: B+4.5, W+0.5, 0. */
export function resultWords(lead) {
  const r = Math.round(lead * 10) / 10;
  if (r > 0) return `B+${r.toFixed(1)}`;
  if (r < 0) return `W+${(-r).toFixed(1)}`;
  return '0';
}

/** The AI's view of a reviewed position in words. */
export function positionWords(p) {
  const best = p.best ? ` The AI's best turn: ${p.best}.` : ' The game is over.';
  return `Black's win probability ${pct(p.win_rate)}, expected result ${resultWords(p.score_lead)}.${best}`;
}

/**
 * Draws the graph into `el`: `positions` (reviewed, by turn, in order),
 * `total` (the last turn), `shown` (the turn shown), `select(turn)` when a
 * turn is chosen. Returns the slider element (for the focus).
 */
export function renderGraph(el, { positions, total, shown, select }) {
  const n = Math.max(total, 1);
  const x = (turn) => PAD + ((W - 2 * PAD) * turn) / n;
  const yWin = (w) => PAD + (H - 2 * PAD) * (1 - w);
  const maxLead = Math.max(1, ...positions.map((p) => Math.abs(p.score_lead)));
  const yLead = (l) => PAD + (H - 2 * PAD) * (0.5 - l / (2 * maxLead));
  const path = (y) => positions.map((p, i) => `${i ? 'L' : 'M'}${x(p.turn).toFixed(2)} ${y(p).toFixed(2)}`).join('');
  const at = positions.find((p) => p.turn === shown);
  const svg = s('svg', {
    class: 'graph', viewBox: `0 0 ${W} ${H}`,
    'aria-hidden': 'true', 'data-graph': '',
  },
  s('rect', { class: 'graph-bg', x: 0, y: 0, width: W, height: H }),
  s('line', { class: 'graph-half', x1: PAD, x2: W - PAD, y1: yWin(0.5), y2: yWin(0.5) }),
  s('path', { class: 'graph-lead', d: path((p) => yLead(p.score_lead)) }),
  s('path', { class: 'graph-win', d: path((p) => yWin(p.win_rate)) }),
  ...positions.map((p) => s('circle', {
    class: 'graph-dot', 'data-graph-turn': p.turn, cx: x(p.turn), cy: yWin(p.win_rate), r: 2.2,
  })),
  s('line', { class: 'graph-shown', 'data-graph-shown': shown, x1: x(shown), x2: x(shown), y1: 0, y2: H }),
  at ? s('circle', { class: 'graph-ring', cx: x(at.turn), cy: yWin(at.win_rate), r: 5 }) : null);
  const words = at ? `Turn ${shown}: ${positionWords(at)}` : `Turn ${shown}: not reviewed yet.`;
  const slider = h('div', {
    class: 'graph-box', role: 'slider', tabindex: '0', id: 'review-graph-slider',
    'aria-label': 'Win probability graph: choose a turn',
    'aria-valuemin': '0', 'aria-valuemax': String(total), 'aria-valuenow': String(shown),
    'aria-valuetext': words,
    onclick: (e) => {
      const box = svg.getBoundingClientRect();
      if (!box.width) return;
      const vx = ((e.clientX - box.left) / box.width) * W;
      select(Math.max(0, Math.min(total, Math.round(((vx - PAD) / (W - 2 * PAD)) * n))));
    },
    onkeydown: (e) => {
      const keys = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageDown: -10, PageUp: 10 };
      let to = null;
      if (e.key in keys) to = shown + keys[e.key];
      else if (e.key === 'Home') to = 0;
      else if (e.key === 'End') to = total;
      if (to === null) return;
      e.preventDefault();
      select(Math.max(0, Math.min(total, to)));
    },
  }, svg);
  setChildren(el,
    h('div', { class: 'graph-scale small', 'aria-hidden': 'true' },
      h('span', { class: 'key-win' }, '— Black\'s win probability (0–100%)'), ' ',
      h('span', { class: 'key-lead' }, `- - expected result (±${resultWords(maxLead).replace(/^[BW]\+/, '')} points)`)),
    slider);
  return slider;
}
