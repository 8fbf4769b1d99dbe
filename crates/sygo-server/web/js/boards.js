// The boards the pages offer and their names: Sygo's odd sizes 5 to 19
// (9×9 first), Hexsygo's bases 3 to 10 (base 5 first), as the server takes
// them (docs/web.md, "POST /api/games").

import { h } from './dom.js';

export const SQUARE_SIZES = [5, 7, 9, 11, 13, 15, 17, 19];
export const HEX_BASES = [3, 4, 5, 6, 7, 8, 9, 10];

/** "Sygo 9×9", "Hexsygo, base 5". */
export const boardName = (g) => (g.variant === 'hexsygo' ? `Hexsygo, base ${g.size}` : `Sygo ${g.size}×${g.size}`);

/** The options of a size select for a variant, the usual size chosen. */
export function sizeOptions(variant) {
  return variant === 'hexsygo'
    ? HEX_BASES.map((n) => h('option', { value: n, selected: n === 5 ? true : null }, `base ${n} (${3 * n * (n - 1) + 1} cells)`))
    : SQUARE_SIZES.map((n) => h('option', { value: n, selected: n === 9 ? true : null }, `${n}×${n}`));
}
