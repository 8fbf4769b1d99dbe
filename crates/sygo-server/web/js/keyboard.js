// The board from the keyboard. Square board: the arrows move the cursor.
// Hexagonal board: ← → along a row; Q up-left, E up-right, Z down-left,
// C down-right (the six directions); ↑ ↓ go to the row above or below,
// zig-zagging so as to stay in the same place across the screen.
// Enter or Space: place or add a stone (or take back a pending one);
// F finish the turn; Backspace take back the last stone; Escape drop the
// turn being built; P pass; T territory; H hint; A analyse; ? where am I;
// review: , previous turn, . next turn, Home first, End last.

export const KEY_HELP_SQUARE =
  'Keys: arrows move the cursor; Enter or Space places or adds a stone (again on a pending stone takes it back); ' +
  'F finishes the turn; Backspace takes back the last stone; Escape drops the turn; P passes; T shows territory; ' +
  'H asks for a hint; A analyses; ? says where the cursor is; comma and full stop step back and forward through the turns, Home and End go to the first and last.';

export const KEY_HELP_HEX =
  'Keys: left and right arrows move along a row; Q up-left, E up-right, Z down-left, C down-right; ' +
  'up and down arrows go to the row above or below; Enter or Space places or adds a stone (again on a pending stone takes it back); ' +
  'F finishes the turn; Backspace takes back the last stone; Escape drops the turn; P passes; T shows territory; ' +
  'H asks for a hint; A analyses; ? says where the cursor is; comma and full stop step through the turns, Home and End go to the first and last.';

/** The point the cursor reaches from `from` with `key`, or null. */
export function moveCursor(geo, from, key, memory) {
  const p = geo.byName.get(from);
  if (!p) return null;
  const step = (dc, dr) => geo.at(p.col + dc, p.row + dr);
  let q = null;
  if (!geo.hex) {
    const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[key];
    if (d) q = step(...d);
    return q ? q.name : null;
  }
  const k = key.length === 1 ? key.toLowerCase() : key;
  const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], q: [0, 1], e: [1, 1], z: [-1, -1], c: [0, -1] };
  if (dirs[k]) {
    q = step(...dirs[k]);
    if (q) memory.x = q.x;
    return q ? q.name : null;
  }
  if (k === 'ArrowUp' || k === 'ArrowDown') {
    const cands = k === 'ArrowUp' ? [step(0, 1), step(1, 1)] : [step(-1, -1), step(0, -1)];
    const target = memory.x ?? p.x;
    const options = cands.filter(Boolean);
    if (!options.length) return null;
    options.sort((a, b) => Math.abs(a.x - target) - Math.abs(b.x - target));
    q = options[0];
    if (options.length === 2 && Math.abs(options[0].x - target) === Math.abs(options[1].x - target)) {
      q = memory.lastRight ? options.find((o) => o.x < p.x) : options.find((o) => o.x > p.x);
      memory.lastRight = q.x > p.x;
    }
    if (memory.x === undefined) memory.x = p.x;
    return q.name;
  }
  return null;
}

/**
 * Keys on the focused board. `actions` holds the page's functions:
 * getCursor, setCursor, activate, finish, undo, clear, pass, territory,
 * hint, analyse, where, prev, next, first, last.
 */
export function attachKeyboard(svg, geo, actions) {
  const memory = {};
  // The cursor shows when the board has the keyboard's focus (a click
  // focuses it too, without showing the cursor: see style.css).
  svg.addEventListener('focus', () => {
    if (svg.matches(':focus-visible')) actions.setCursor(actions.getCursor() || defaultCursor(geo));
  });
  svg.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (!actions.getCursor()) actions.setCursor(defaultCursor(geo));
    const cursor = actions.getCursor();
    const moved = moveCursor(geo, cursor, e.key, memory);
    if (moved) {
      actions.setCursor(moved);
      e.preventDefault();
      return;
    }
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const table = {
      Enter: () => actions.activate(cursor),
      ' ': () => actions.activate(cursor),
      f: actions.finish,
      Backspace: actions.undo,
      Escape: actions.clear,
      p: actions.pass,
      t: actions.territory,
      h: actions.hint,
      a: actions.analyse,
      '?': () => actions.where(cursor),
      ',': actions.prev,
      '.': actions.next,
      Home: actions.first,
      End: actions.last,
    };
    const f = table[k];
    if (f) {
      e.preventDefault();
      f();
    } else if (geo.hex && ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'q', 'e', 'z', 'c'].includes(k)) {
      e.preventDefault();
    } else if (!geo.hex && k.startsWith('Arrow')) {
      e.preventDefault();
    }
  });
}

/** The centre of the board. */
export function defaultCursor(geo) {
  const n = geo.size;
  const p = geo.hex ? geo.at(n - 1, n - 1) : geo.at(Math.floor(n / 2), Math.floor(n / 2));
  return p ? p.name : geo.byName.keys().next().value;
}
