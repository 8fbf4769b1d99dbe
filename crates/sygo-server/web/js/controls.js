// The game page's controls: Finish turn, Undo stone, Drop turn, Pass,
// Resign and its confirmation, the reason the turn cannot finish (or why
// the page cannot move), the balance turn's note, the Hint button.
//
// The buttons are made once and only updated afterwards: a button that keeps
// its element keeps the keyboard's focus (and a tap that started on it
// still ends on it) whatever is redrawn meanwhile.

import { h, cap, setChildren } from './dom.js';

const BALANCE_NOTE =
  'Balance turn: no growth turn has been played yet, so Black may grow any or all of his groups ' +
  'and then place one unconnected stone, in the same turn. Add the growth stones first, then the ' +
  'placement (it ends the turn), then press Finish turn. A plain placement or growth turn is also allowed.';

export class Controls {
  /**
   * `page`: the game page (js/game.js); `el`: the page's elements, of which
   * `controls`, `finishReason`, `balance` and `aiButtons` are filled here.
   */
  constructor(page, el) {
    this.page = page;
    this.el = el;
    const composer = page.composer;
    const button = (action, text, attrs) =>
      h('button', { type: 'button', 'data-action': action, id: `${action}-button`, ...attrs }, text);
    this.buttons = {
      finish: button('finish', 'Finish turn', { class: 'primary', onclick: () => composer.finish() }),
      undo: button('undo', 'Undo stone', { onclick: () => composer.undoStone() }),
      clear: button('clear', 'Drop turn', { onclick: () => composer.clearTurn() }),
      pass: button('pass', 'Pass', { onclick: () => composer.pass() }),
      resign: button('resign', 'Resign', { class: 'danger', onclick: () => composer.resign(false) }),
      'resign-yes': button('resign-yes', 'Yes, resign', { class: 'danger', onclick: () => composer.resign(true) }),
      'resign-no': button('resign-no', 'Cancel', { onclick: () => composer.cancelResign() }),
    };
    const b = this.buttons;
    this.confirmText = h('span', { class: 'confirm' });
    this.main = h('div', { class: 'control-row' }, b.finish, b.undo, b.clear, b.pass, b.resign);
    this.confirm = h('div', { class: 'control-row', hidden: true }, this.confirmText, b['resign-yes'], b['resign-no']);
    setChildren(el.controls, this.main, this.confirm);
    el.balance.textContent = BALANCE_NOTE;
  }

  /** Moves the keyboard's focus to a button (`'resign-yes'`, …). */
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
    const finishAllowed = can && n > 0 && b.finish.allowed;
    const buttons = this.buttons;
    const confirming = composer.confirmResign && can;
    this.main.hidden = confirming;
    this.confirm.hidden = !confirming;
    this.confirmText.textContent = `Resign this game as ${cap(g.to_move)}?`;
    setText(buttons.finish, n ? `Finish turn (${n} stone${n > 1 ? 's' : ''})` : 'Finish turn');
    buttons.finish.disabled = !finishAllowed;
    buttons.undo.disabled = !(can && n);
    buttons.clear.disabled = !(can && n);
    buttons.pass.disabled = !(can && !n);
    buttons.resign.disabled = !can;
    // Spectators and uploaded records have nothing to play.
    el.controls.hidden = page.mySides().length === 0;
    let reason = '';
    if (can && n && !b.finish.allowed && b.steps) {
      reason = `Cannot finish yet: ${b.finish.reason || 'the turn cannot end here.'}`;
    } else if (can && !n) {
      reason = 'Click a point: a placement is played at once; a growth stone starts a growth turn, ended with Finish turn.';
    } else if (!can && g.status === 'playing' && !composer.submitting) {
      reason = page.whyNot();
    }
    setText(el.finishReason, reason);
    // Only worth explaining once Black has a group to grow.
    const balance = can && g.balance_available && g.to_move === 'black' &&
      Object.values(g.stones).includes('black');
    el.balance.hidden = !balance;
    el.aiButtons.querySelector('#hint-button').disabled = !can;
  }
}

/** Sets an element's text only when it changes (no needless announcement). */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
