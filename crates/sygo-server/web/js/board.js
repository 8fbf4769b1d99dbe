// The board in SVG: the square grid or the hexagon of cells, coordinates,
// star points, stones and every marker. Drawing only: what to draw comes
// from the game page (js/game.js) as a "view".
//
// Markers differ in shape, not only colour:
//   last turn ○ ring · reversed ◇ diamond · pending stone: translucent, dashed
//   ring, its number · group fresh △ · grown ✓ · frozen ✕ · allowed growth +
//   (a plus: a dot would look like a star point) · allowed placement □ (only
//   when few: more would cover the board) · would be reversed: dashed circle ·
//   refused: ⦸ · territory: small square · ownership: square sized by
//   certainty · hint: dotted ghost stone with its number · the review's best
//   turn ★ star (numbered when it has several stones).
//
// Input (Pointer Events): a mouse or pen previews the point under it
// (`hover`) and plays with a click; a finger never hovers (a touch screen
// sends `pointerleave` after every tap, which must not clear the preview): a
// tap is a click with `pointerType` "touch", and the game page decides what
// it means (js/composer.js). On big boards the page may zoom the view onto a
// part of the board (`zoomTo`), so that a finger hits one point surely.

import { s } from './dom.js';
import { layout } from './geometry.js';

const R_HEX = 1 / Math.sqrt(3); // circumradius of a hex cell at spacing 1

/** Placement squares are drawn only when there are at most this many. */
export const PLACEMENT_MARKS_MAX = 8;

/** Points across the zoomed view of a big board. */
const ZOOM_SPAN = 9;

/** Whether a board is big enough to be zoomed for touch: a square of 13 or
 * more, a hexagon of base 8 or more. */
export function isBig(game) {
  return game.variant === 'hexsygo' ? game.size >= 8 : game.size >= 13;
}

function hexagon(x, y, r) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = Math.PI / 2 + (k * Math.PI) / 3;
    pts.push(`${(x + r * Math.cos(a)).toFixed(4)},${(y + r * Math.sin(a)).toFixed(4)}`);
  }
  return pts.join(' ');
}

/** A five-pointed star centred on (x, y): outer and inner radii. */
function star(x, y, outer, inner) {
  const pts = [];
  for (let k = 0; k < 10; k++) {
    const a = -Math.PI / 2 + (k * Math.PI) / 5;
    const r = k % 2 ? inner : outer;
    pts.push(`${(x + r * Math.cos(a)).toFixed(4)},${(y + r * Math.sin(a)).toFixed(4)}`);
  }
  return pts.join(' ');
}

export class Board {
  /**
   * `handlers`: `click(point, pointerType)`, `hover(point | null)`.
   */
  constructor(container, handlers) {
    this.container = container;
    this.handlers = handlers;
    this.key = null;
    this.svg = null;
    this.lastPointerType = 'mouse';
    this.zoom = null;
  }

  /** Whether the view is zoomed onto a part of the board. */
  get zoomed() {
    return this.zoom !== null;
  }

  /**
   * Zooms the view onto `point` (a window of about ZOOM_SPAN points across,
   * of the whole board's proportions, kept inside the board), or back to the
   * whole board with null. The drawing keeps its size on the page: nothing
   * moves around it.
   */
  zoomTo(point) {
    const [vx, vy, vw, vh] = this.geo.viewBox;
    const p = point && this.geo.byName.get(point);
    if (!p) {
      this.zoom = null;
      this.svg.setAttribute('viewBox', `${vx} ${vy} ${vw} ${vh}`);
      this.svg.removeAttribute('data-zoomed');
      return;
    }
    const f = Math.max(1, Math.min(vw, vh) / ZOOM_SPAN);
    const w = vw / f;
    const hgt = vh / f;
    const x = Math.min(Math.max(p.x - w / 2, vx), vx + vw - w);
    const y = Math.min(Math.max(p.y - hgt / 2, vy), vy + vh - hgt);
    this.zoom = point;
    this.svg.setAttribute('viewBox', `${x} ${y} ${w} ${hgt}`);
    this.svg.setAttribute('data-zoomed', point);
  }

  /** Builds the static drawing for this game's board (once per board). */
  setGame(game) {
    const key = game.variant + ':' + game.size;
    if (key === this.key) return;
    this.key = key;
    this.zoom = null;
    this.geo = layout(game);
    const g = this.geo;
    const [vx, vy, vw, vh] = g.viewBox;
    const kind = g.hex ? 'hex' : 'square';
    const name = g.hex ? `Hexsygo board, base ${g.size}` : `Sygo board, ${g.size} by ${g.size}`;
    this.svg = s('svg', {
      class: `board ${kind}`,
      viewBox: `${vx} ${vy} ${vw} ${vh}`,
      role: 'application',
      'aria-roledescription': 'board',
      'aria-label': name + '. Arrow keys move the cursor, Enter places a stone.',
      'aria-describedby': 'board-keys',
      tabindex: '0',
      'data-board': kind,
    });
    const stat = s('g', { class: 'static', 'aria-hidden': 'true' });
    if (g.hex) {
      for (const p of g.byName.values()) {
        stat.append(s('polygon', { class: 'cell', points: hexagon(p.x, p.y, R_HEX) }));
      }
      const centre = g.at(g.size - 1, g.size - 1);
      if (centre) stat.append(s('circle', { class: 'star', cx: centre.x, cy: centre.y, r: 0.08 }));
    } else {
      const n = g.size;
      stat.append(s('rect', { class: 'wood', x: vx, y: vy, width: vw, height: vh, rx: 0.25 }));
      let d = '';
      for (let i = 0; i < n; i++) {
        d += `M0 ${-i}H${n - 1}M${i} 0V${-(n - 1)}`;
      }
      stat.append(s('path', { class: 'grid', d }));
      stat.append(s('rect', { class: 'grid-edge', x: 0, y: -(n - 1), width: n - 1, height: n - 1 }));
      for (const p of g.stars) stat.append(s('circle', { class: 'star', cx: p.x, cy: p.y, r: 0.11 }));
    }
    for (const l of g.labels) {
      stat.append(s('text', { class: `label ${l.kind}`, x: l.x, y: l.y, text: l.text }));
    }
    this.layers = {};
    this.svg.append(stat);
    for (const layer of ['shade', 'allowed', 'stones', 'marks', 'best', 'hint', 'preview', 'cursor']) {
      this.layers[layer] = s('g', { class: layer, 'aria-hidden': 'true' });
      this.svg.append(this.layers[layer]);
    }
    const hits = s('g', { class: 'hits' });
    for (const p of g.byName.values()) {
      const attrs = { class: 'hit', 'data-point': p.name };
      hits.append(
        g.hex
          ? s('polygon', { ...attrs, points: hexagon(p.x, p.y, R_HEX) })
          : s('rect', { ...attrs, x: p.x - 0.5, y: p.y - 0.5, width: 1, height: 1 }),
      );
    }
    this.svg.append(hits);
    const pointOf = (e) => (e.target.getAttribute && e.target.getAttribute('data-point')) || null;
    hits.addEventListener('pointerdown', (e) => { this.lastPointerType = e.pointerType || 'mouse'; });
    hits.addEventListener('click', (e) => {
      const point = pointOf(e);
      // `detail` counts the clicks of a double click: its second click is
      // not a second move.
      if (point) this.handlers.click(point, e.pointerType || this.lastPointerType, e.detail || 1);
    });
    hits.addEventListener('pointerover', (e) => {
      if (e.pointerType === 'touch') return;
      const point = pointOf(e);
      if (point) this.handlers.hover(point);
    });
    hits.addEventListener('pointerleave', (e) => {
      if (e.pointerType === 'touch') return;
      this.handlers.hover(null);
    });
    this.container.replaceChildren(this.svg);
  }

  /** Draws a view: stones, markers, shading, cursor (see the file's top). */
  render(view) {
    const g = this.geo;
    const L = this.layers;
    const r = g.hex ? 0.43 : 0.47;
    for (const layer of Object.values(L)) layer.replaceChildren();
    const stones = view.stones || {};
    const at = (name) => g.byName.get(name);

    // Shading: territory squares on vacant points, or ownership everywhere.
    if (view.ownership) {
      for (const [name, v] of Object.entries(view.ownership)) {
        const p = at(name);
        if (!p || Math.abs(v) < 0.1) continue;
        const side = 0.62 * Math.sqrt(Math.abs(v));
        L.shade.append(s('rect', {
          class: `own ${v > 0 ? 'black' : 'white'}`, 'data-own': name,
          x: p.x - side / 2, y: p.y - side / 2, width: side, height: side,
        }));
      }
    } else if (view.territory) {
      for (const [name, color] of Object.entries(view.territory)) {
        const p = at(name);
        if (!p || stones[name]) continue;
        L.shade.append(s('rect', {
          class: `terr ${color}`, 'data-territory': name,
          x: p.x - 0.17, y: p.y - 0.17, width: 0.34, height: 0.34,
        }));
      }
    }

    // Where the turn may continue: growth + everywhere, placement □ only
    // when few points allow it (a balance turn on a big board would cover
    // it: the preview and the text say where a placement goes then).
    if (view.next && view.showAllowed) {
      const allowed = Object.entries(view.next).filter(([name, e]) => !e.refused && !stones[name] && at(name));
      const placements = allowed.filter(([, e]) => e.kind === 'placement').length;
      for (const [name, entry] of allowed) {
        const p = at(name);
        if (entry.kind === 'placement') {
          if (placements > PLACEMENT_MARKS_MAX) continue;
          L.allowed.append(s('rect', {
            class: 'allow placement', 'data-allowed': name,
            x: p.x - 0.12, y: p.y - 0.12, width: 0.24, height: 0.24,
          }));
        } else {
          const d = 0.14;
          L.allowed.append(s('path', {
            class: 'allow growth', 'data-allowed': name,
            d: `M${p.x - d} ${p.y}H${p.x + d}M${p.x} ${p.y - d}V${p.y + d}`,
          }));
        }
      }
    }

    // Stones.
    const pending = view.pending || [];
    const reversed = new Set(view.reversed || []);
    for (const [name, color] of Object.entries(stones)) {
      const p = at(name);
      if (!p) continue;
      const k = pending.indexOf(name);
      const cls = ['stone', color];
      if (k >= 0) cls.push('pending');
      const flip = reversed.has(name) && view.flipElapsed != null;
      if (flip) cls.push('flip');
      const stone = s('circle', {
        class: cls.join(' '), cx: p.x, cy: p.y, r,
        'data-stone': name, 'data-color': color, 'data-pending': k >= 0 ? String(k + 1) : null,
      });
      // Redrawn during the animation: it goes on where it was (set through
      // the CSSOM: the Content-Security-Policy refuses style attributes).
      if (flip) stone.style.animationDelay = `-${Math.round(view.flipElapsed)}ms`;
      L.stones.append(stone);
      if (k >= 0) {
        L.marks.append(s('circle', { class: `pending-ring ${color}`, cx: p.x, cy: p.y, r: r + 0.035 }));
        L.marks.append(s('text', { class: `num on-${color}`, x: p.x, y: p.y, text: String(k + 1) }));
      }
    }

    const on = (name) => `on-${stones[name] || 'none'}`;
    for (const name of view.last || []) {
      const p = at(name);
      if (!p || reversed.has(name) || pending.includes(name)) continue;
      L.marks.append(s('circle', { class: `mark last ${on(name)}`, 'data-mark': 'last', 'data-at': name, cx: p.x, cy: p.y, r: r * 0.42 }));
    }
    for (const name of reversed) {
      const p = at(name);
      if (!p) continue;
      const d = r * 0.5;
      L.marks.append(s('polygon', {
        class: `mark reversed ${on(name)}`, 'data-mark': 'reversed', 'data-at': name,
        points: `${p.x},${p.y - d} ${p.x + d},${p.y} ${p.x},${p.y + d} ${p.x - d},${p.y}`,
      }));
    }

    // The mover's groups while a turn is built: fresh △, grown ✓, frozen ✕.
    for (const group of view.groups || []) {
      for (const name of group.stones) {
        const p = at(name);
        if (!p || pending.includes(name) || reversed.has(name)) continue;
        const cls = `mark group ${group.status} ${on(name)}`;
        const d = r * 0.42;
        const attrs = { class: cls, 'data-mark': group.status, 'data-at': name };
        if (group.status === 'fresh') {
          L.marks.append(s('polygon', { ...attrs, points: `${p.x},${p.y - d} ${p.x + d * 0.9},${p.y + d * 0.6} ${p.x - d * 0.9},${p.y + d * 0.6}` }));
        } else if (group.status === 'grown') {
          L.marks.append(s('path', { ...attrs, d: `M${p.x - d} ${p.y}L${p.x - d * 0.25} ${p.y + d * 0.7}L${p.x + d} ${p.y - d * 0.7}` }));
        } else {
          L.marks.append(s('path', { ...attrs, d: `M${p.x - d} ${p.y - d}L${p.x + d} ${p.y + d}M${p.x + d} ${p.y - d}L${p.x - d} ${p.y + d}` }));
        }
      }
    }

    // The review's best turn: a star on each of its stones.
    const best = view.best || [];
    best.forEach((name, i) => {
      const p = at(name);
      if (!p) return;
      L.best.append(s('polygon', { class: 'best-mark', 'data-best': name, points: star(p.x, p.y, r * 0.62, r * 0.27) }));
      if (best.length > 1) L.best.append(s('text', { class: 'num best-num', x: p.x, y: p.y + r * 0.75, text: String(i + 1) }));
    });

    // A hint: ghost stones with their order.
    (view.hint || []).forEach((name, i) => {
      const p = at(name);
      if (!p) return;
      L.hint.append(s('circle', { class: `hint ${view.hintColor || ''}`, 'data-hint': name, cx: p.x, cy: p.y, r }));
      L.hint.append(s('text', { class: 'num hint-num', x: p.x, y: p.y, text: String(i + 1) }));
    });

    this.drawPreview(view.preview, stones);

    // The keyboard cursor.
    if (view.cursor && at(view.cursor)) {
      const p = at(view.cursor);
      L.cursor.append(
        g.hex
          ? s('polygon', { class: 'cursor-mark', 'data-cursor': view.cursor, points: hexagon(p.x, p.y, R_HEX * 0.92) })
          : s('rect', { class: 'cursor-mark', 'data-cursor': view.cursor, x: p.x - 0.48, y: p.y - 0.48, width: 0.96, height: 0.96, rx: 0.08 }),
      );
    }
  }

  /**
   * Draws only the preview of a step (`preview`: the view's, or null) on
   * `stones`: what a hover or a tap changes, without redrawing the rest.
   */
  drawPreview(pv, stones) {
    const g = this.geo;
    const L = this.layers;
    const r = g.hex ? 0.43 : 0.47;
    const at = (name) => g.byName.get(name);
    L.preview.replaceChildren();
    if (pv && at(pv.point) && !stones[pv.point]) {
      const p = at(pv.point);
      if (pv.refused) {
        const d = r * 0.6;
        L.preview.append(s('circle', { class: 'refused-sign', 'data-preview': 'refused', 'data-armed': pv.armed ? pv.point : null, cx: p.x, cy: p.y, r: d }));
        L.preview.append(s('path', { class: 'refused-sign', d: `M${p.x - d * 0.7} ${p.y + d * 0.7}L${p.x + d * 0.7} ${p.y - d * 0.7}` }));
      } else {
        L.preview.append(s('circle', {
          class: `ghost ${pv.color}${pv.armed ? ' armed' : ''}`, 'data-preview': pv.kind,
          'data-armed': pv.armed ? pv.point : null, cx: p.x, cy: p.y, r,
        }));
        for (const name of pv.reverses || []) {
          const q = at(name);
          if (!q) continue;
          L.preview.append(s('circle', { class: 'would-reverse', 'data-would-reverse': name, cx: q.x, cy: q.y, r: r + 0.06 }));
        }
      }
    }
  }
}
