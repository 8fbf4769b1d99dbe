// A small drawing of a position from its position string
// (docs/position-string.md: `sygo 9 9/9/2W6/… b - 0`), for the home page's
// list of your games. Rows are written from the top; on the hexagonal board
// row r (0 at the bottom) holds the columns c with |c − r| ≤ n − 1, drawn at
// x = c − r/2, y = r·√3/2, as on the game page.

import { s } from './dom.js';

const SQRT3_2 = Math.sqrt(3) / 2;

/** The points of a position string's board: `[{x, y, stone}]` (stone:
 * 'black', 'white' or null), or null if the string cannot be read. */
export function parsePosition(text) {
  const fields = String(text || '').trim().split(/\s+/);
  if (fields.length < 2) return null;
  const hex = fields[0].toLowerCase() === 'hexsygo';
  const n = Number(fields[1]);
  const rows = (fields[2] || '').split('/');
  const height = hex ? 2 * n - 1 : n;
  if (!Number.isInteger(n) || n < 2 || rows.length !== height) return null;
  const points = [];
  rows.forEach((row, i) => {
    const r = height - 1 - i; // 0 at the bottom
    let c = hex ? Math.max(0, r - (n - 1)) : 0;
    for (const [, count, stone] of row.matchAll(/(\d+)|([BW])/gi)) {
      const k = count ? Number(count) : 1;
      for (let j = 0; j < k; j++, c++) {
        const x = hex ? c - r / 2 : c;
        const y = hex ? -r * SQRT3_2 : -r;
        points.push({ x, y, stone: stone ? (stone.toUpperCase() === 'B' ? 'black' : 'white') : null });
      }
    }
  });
  return { hex, size: n, points };
}

/** An SVG drawing of the position, `label` its accessible name. */
export function thumbnail(position, label) {
  const board = parsePosition(position);
  const svg = s('svg', { class: 'thumb', role: 'img', 'aria-label': label });
  if (!board) return svg;
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (const p of board.points) {
    minX = Math.min(minX, p.x); maxX = Math.max(maxX, p.x);
    minY = Math.min(minY, p.y); maxY = Math.max(maxY, p.y);
  }
  const pad = 0.6;
  svg.setAttribute('viewBox', `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`);
  svg.setAttribute('data-board', board.hex ? 'hex' : 'square');
  svg.append(s('rect', {
    class: 'thumb-wood', x: minX - pad, y: minY - pad,
    width: maxX - minX + 2 * pad, height: maxY - minY + 2 * pad, rx: 0.4,
  }));
  if (!board.hex) {
    const m = board.size - 1;
    let d = '';
    for (let i = 0; i <= m; i++) d += `M0 ${-i}H${m}M${i} 0V${-m}`;
    svg.append(s('path', { class: 'thumb-grid', d }));
  }
  for (const p of board.points) {
    if (p.stone) svg.append(s('circle', { class: `stone ${p.stone}`, cx: p.x, cy: p.y, r: 0.46, 'data-thumb-stone': p.stone }));
    else if (board.hex) svg.append(s('circle', { class: 'thumb-cell', cx: p.x, cy: p.y, r: 0.12 }));
  }
  return svg;
}
