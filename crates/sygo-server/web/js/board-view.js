// The board view: what the board shows at this moment, from the game page's
// state (the position shown, the turn being built and its preview, the
// territory, the AI's ownership and hint, the review's best turn and
// ownership at the turn shown). js/board.js draws it.

/** How long a reversed stone takes to turn over (style.css: .stone.flip). */
export const FLIP_MS = 900;

/** The stones the board shows: the turn being built's, or the position's. */
export function shownStones(page) {
  const b = page.composer.builder;
  return page.composer.building() ? b.steps.stones : page.shown().stones;
}

/** The view for `Board.render` (js/board.js). */
export function boardView(page) {
  const shown = page.shown();
  const composer = page.composer;
  const b = composer.builder;
  const building = composer.building();
  const stones = shownStones(page);
  const last = shown.last_turn;
  const key = `${shown.id}:${shown.shown_turn ?? shown.turn_number}`;
  const elapsed = performance.now() - page.flip.start;
  const flipElapsed = page.flip.key === key && elapsed < FLIP_MS ? elapsed : null;
  return {
    stones,
    pending: building ? b.pending : [],
    last: building ? [] : (last && last.stones) || [],
    reversed: building ? b.steps.reversed || [] : (last && last.reversed) || [],
    flipElapsed: building ? null : flipElapsed,
    groups: building ? b.steps.groups : [],
    next: building ? b.steps.next : null,
    showAllowed: building,
    preview: composer.preview(),
    territory: page.territory && shown.score ? shown.score.territory : null,
    ownership: page.showOwnership && !building ? ownership(page) : null,
    hint: page.hint,
    hintColor: shown.to_move,
    best: building ? [] : page.aiReview.bestAt(page.shownTurn()),
    cursor: page.cursor,
  };
}

/** The AI's ownership of the position shown: its analysis, or its review. */
function ownership(page) {
  if (page.analysis) return page.analysis.ownership;
  return page.aiReview.ownershipAt(page.shownTurn());
}
