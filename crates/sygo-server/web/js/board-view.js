// The board view: what the board shows at this moment, from the game page's
// state (the position shown, the turn being built and its preview, the
// territory, the AI's ownership and hint). js/board.js draws it.

/** How long a reversed stone takes to turn over (style.css: .stone.flip). */
export const FLIP_MS = 900;

/** The view for `Board.render` (js/board.js). */
export function boardView(page) {
  const shown = page.shown();
  const composer = page.composer;
  const b = composer.builder;
  const building = composer.building();
  const stones = building ? b.steps.stones : shown.stones;
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
    ownership: page.analysis && page.showOwnership && page.live() ? page.analysis.ownership : null,
    hint: page.hint,
    hintColor: page.game.to_move,
    cursor: page.cursor,
  };
}
