// Where each point of a board is drawn, its labels, star points and
// neighbours. Geometry only: the rules stay on the server.

const SQRT3_2 = Math.sqrt(3) / 2;

/**
 * The layout of a game's board from its `points` (`{name, col, row}`, row 0
 * at the bottom). Square: x = col, y = row. Hexagonal: x = c − r/2,
 * y = r·√3/2. SVG's y grows downwards, so y is negated.
 */
export function layout(game) {
  const hex = game.variant === 'hexsygo';
  const pos = (c, r) => (hex ? { x: c - r / 2, y: -r * SQRT3_2 } : { x: c, y: -r });
  const byName = new Map();
  const byCell = new Map();
  for (const p of game.points) {
    const point = { name: p.name, col: p.col, row: p.row, ...pos(p.col, p.row) };
    byName.set(p.name, point);
    byCell.set(p.col + ',' + p.row, point);
  }
  const at = (c, r) => byCell.get(c + ',' + r);

  // Labels: each column's letter past its lowest and highest point (along
  // the column), each row's number past its first and last point.
  const labels = [];
  const cols = new Map();
  const rows = new Map();
  for (const p of byName.values()) {
    const letter = p.name.replace(/\d+$/, '');
    const c = cols.get(p.col) || { letter, min: Infinity, max: -Infinity };
    c.min = Math.min(c.min, p.row);
    c.max = Math.max(c.max, p.row);
    cols.set(p.col, c);
    const r = rows.get(p.row) || { min: Infinity, max: -Infinity };
    r.min = Math.min(r.min, p.col);
    r.max = Math.max(r.max, p.col);
    rows.set(p.row, r);
  }
  // On the hexagon two edges hold both a column's end and a row's end: the
  // upper left one shows the rows, the lower right one the columns. So every
  // column is named at its lower end, and at its upper end on the top edge;
  // every row at its left end, and at its right end on the right edge.
  const gap = hex ? 0.85 : 0.9;
  let topRow = -Infinity, lastCol = -Infinity;
  for (const c of cols.values()) topRow = Math.max(topRow, c.max);
  for (const r of rows.values()) lastCol = Math.max(lastCol, r.max);
  for (const [col, c] of cols) {
    labels.push({ text: c.letter, kind: 'col', ...pos(col, c.min - gap) });
    if (c.max === topRow) labels.push({ text: c.letter, kind: 'col', ...pos(col, c.max + gap) });
  }
  for (const [row, r] of rows) {
    labels.push({ text: String(row + 1), kind: 'row', ...pos(r.min - gap, row) });
    if (r.max === lastCol) labels.push({ text: String(row + 1), kind: 'row', ...pos(r.max + gap, row) });
  }

  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (const l of labels) {
    minX = Math.min(minX, l.x); maxX = Math.max(maxX, l.x);
    minY = Math.min(minY, l.y); maxY = Math.max(maxY, l.y);
  }
  const pad = 0.45;
  const viewBox = [minX - pad, minY - pad, maxX - minX + 2 * pad, maxY - minY + 2 * pad];

  const deltas = hex
    ? [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1]]
    : [[1, 0], [-1, 0], [0, 1], [0, -1]];
  const neighbours = (name) => {
    const p = byName.get(name);
    return deltas.map(([dc, dr]) => at(p.col + dc, p.row + dr)).filter(Boolean).map((q) => q.name);
  };

  return { hex, size: game.size, byName, at, labels, viewBox, neighbours, stars: starPoints(game, at) };
}

/** The usual Go star points: the 4th lines from 13×13 up, the 3rd below; the
 * centre on odd boards; the side stars from 15×15 up. None on the hexagon. */
function starPoints(game, at) {
  if (game.variant === 'hexsygo') return [];
  const n = game.size;
  const out = [];
  const mid = (n - 1) / 2;
  if (n % 2 === 1 && n >= 5) out.push([mid, mid]);
  if (n >= 7) {
    const e = n >= 13 ? 3 : 2;
    const lines = [e, n - 1 - e];
    for (const c of lines) for (const r of lines) out.push([c, r]);
    if (n % 2 === 1 && n >= 15) {
      for (const c of lines) out.push([c, mid], [mid, c]);
    }
  }
  return out.map(([c, r]) => at(c, r)).filter(Boolean);
}
