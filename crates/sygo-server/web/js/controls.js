// The game page's controls, in the bar under the board: Play (the point a
// tap previewed), Finish turn, Undo stone, Drop turn, Whole board (a zoomed
// big board); Pass, Take back (a turn, where undo is offered), Resign (at
// any time, confirmed). Also the line under them (why the turn cannot
// finish yet, or what a tap does), the balance turn's note and the note
// on undo.
//
// The buttons are made once and only updated afterwards, and they are
// always there (disabled when they do nothing): a button that keeps its
// element keeps the keyboard's focus (and a tap that started on it still
// ends on it), and nothing moves under a finger when the game changes.

import { h, setChildren } from './dom.js';
import { isBig } from './board.js';
import { whyNoAnalysis } from './analysis.js';

const BALANCE_NOTE =
  'Balance turn: no growth turn has been played yet, so Black may grow any or all of his groups ' +
  'and then place one unconnected stone, in the same turn. Add the growth stones first, then the ' +
  'placement: it is the last stone of the turn (nothing can be added after it). Then press Finish turn ' +
  'to play the turn. A plain placement or growth turn is also allowed.';

export class Controls {
  /**
   * `page`: the game page (js/game.js); `el`: the page's elements, of which
   * `controls`, `finishReason`, `balance`, `undoNote` and `aiButtons` are
   * filled here.
   */
  constructor(page, el) {
    this.page = page;
    this.el = el;
    const composer = page.composer;
    const button = (action, text, attrs) =>
      h('button', { type: 'button', 'data-action': action, id: `${action}-button`, ...attrs }, text);
    this.buttons = {
      play: button('play', 'Play', { onclick: () => composer.playArmed() }),
      finish: button('finish', 'Finish turn', { class: 'primary', onclick: () => composer.finish() }),
      undo: button('undo', 'Undo stone', { onclick: () => composer.undoStone() }),
      clear: button('clear', 'Drop turn', { onclick: () => composer.clearTurn() }),
      whole: button('whole', 'Whole board', { onclick: () => composer.zoomOut() }),
      pass: button('pass', 'Pass', { onclick: () => composer.pass() }),
      takeback: button('takeback', 'Take back', { onclick: () => composer.takeBack() }),
      resign: button('resign', 'Resign', { class: 'danger', onclick: () => composer.resign() }),
    };
    const b = this.buttons;
    setChildren(el.controls,
      h('div', { class: 'control-row', role: 'group', 'aria-label': 'This turn' }, b.play, b.finish, b.undo, b.clear, b.whole),
      h('div', { class: 'control-row', role: 'group', 'aria-label': 'The game' }, b.pass, b.takeback, b.resign));
    el.balance.textContent = BALANCE_NOTE;
  }

  /** Moves the keyboard's focus to a button (`'resign'`, …). */
  focus(action) {
    const button = this.buttons[action];
    if (button && !button.hidden) button.focus();
  }

  /** Brings every control up to date with the page. */
  render() {
    const page = this.page;
    const el = this.el;
    const g = page.game;
    const composer = page.composer;
    const b = composer.builder;
    const can = page.canPlay() && !composer.submitting;
    const n = b.pending.length;
    const buttons = this.buttons;
    const armed = composer.armed && can ? b.entry(composer.armed) : null;
    setText(buttons.play, composer.armed && can ? `Play ${composer.armed}` : 'Play');
    const playable = !!(armed && !armed.refused);
    buttons.play.disabled = !playable;
    // One next action at a time: Play while a point is previewed, else Finish turn.
    buttons.play.classList.toggle('primary', playable);
    buttons.finish.classList.toggle('primary', !playable);
    setText(buttons.finish, n ? `Finish turn (${n} stone${n > 1 ? 's' : ''})` : 'Finish turn');
    buttons.finish.disabled = !(can && n > 0 && b.finish.allowed);
    buttons.undo.disabled = !(can && n);
    buttons.clear.disabled = !(can && n);
    // Only big boards zoom; the button is there from the start, not added later.
    buttons.whole.hidden = !isBig(g);
    buttons.whole.disabled = !page.board.zoomed;
    buttons.pass.disabled = !(can && !n);
    const offer = page.undoOffer();
    buttons.takeback.hidden = !offer.offered;
    buttons.takeback.disabled = !offer.allowed || composer.submitting;
    buttons.resign.disabled = !(g.status === 'playing' && page.mySides().length > 0 && composer.resignToken());
    // Spectators and uploaded records have nothing to play, and nothing is
    // left to play once the game is over (the controls are under or beside
    // the board: the board does not move).
    el.controls.hidden = page.mySides().length === 0 || g.status !== 'playing';
    let reason = '';
    if (can && n && !b.finish.allowed && b.steps) {
      reason = `Cannot finish yet: ${b.finish.reason || 'the turn cannot end here.'}`;
    } else if (can && !n) {
      reason = page.touch
        ? 'Tap a point to preview it; tap it again or press Play to play it.'
        : 'Click a point: a placement is played at once; a growth stone starts a growth turn, ended with Finish turn.';
    }
    setText(el.finishReason, reason);
    // Only worth explaining once Black has a group to grow.
    const balance = can && g.balance_available && g.to_move === 'black' &&
      Object.values(g.stones).includes('black');
    el.balance.hidden = !balance;
    el.undoNote.hidden = offer.offered || page.mySides().length === 0 || g.status !== 'playing';
    setText(el.undoNote, offer.reason || 'Undo is not offered in a game between two people online: after your turn, ask your opponent to take it back.');
    const hint = el.aiButtons.querySelector('#hint-button');
    const whyNoHint = can ? '' : hintReason(page);
    hint.disabled = !can;
    hint.title = whyNoHint || 'A hint for your turn (H)';
    // Where the AI cannot analyse (js/analysis.js says why).
    const analyse = el.aiButtons.querySelector('#analyse-button');
    const why = whyNoAnalysis(page);
    analyse.disabled = why !== '';
    analyse.title = why || 'Analyse the position shown (A)';
    // The reasons as text too: a title is never seen on a touch screen.
    setText(el.aiReason, [whyNoHint, why].filter((x) => x).join(' '));
  }
}

/** Why the Hint button is greyed, in a short sentence. */
function hintReason(page) {
  const g = page.game;
  if (page.mySides().length === 0) return 'Hint is for the players only, on their turn.';
  if (!page.live()) return 'Hint is for the game\'s last position.';
  if (g.status !== 'playing') return 'The game is over: no hint.';
  if (page.composer.submitting) return 'Hint: the turn is being sent.';
  return 'Hint is for your turn only.';
}

/** Sets an element's text only when it changes (no needless announcement). */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
