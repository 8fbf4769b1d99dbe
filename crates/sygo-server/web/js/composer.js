// The turn composer: the turn being built on the game page, stone by stone
// (its model, the pending stones and the server's answer about them, is
// `TurnBuilder` in js/turn.js), the preview of the point under the pointer
// or the cursor, and the actions that end in a submission: a stone added or
// taken back, finish, pass, resign (with its confirmation).
//
// Every action runs through the page's queue (`page.enqueue`), one after
// the other, so that a click during a request waits for it.

import * as api from './api.js';
import { cap, other, listPoints } from './dom.js';
import { TurnBuilder } from './turn.js';
import { announce } from './announce.js';

export class Composer {
  /** `page`: the game page (js/game.js). */
  constructor(page) {
    this.page = page;
    this.builder = new TurnBuilder(page.id);
    /** The point whose step is previewed (pointer or keyboard cursor). */
    this.hover = null;
    /** A touch's first tap: the point previewed, played by a second tap. */
    this.armed = null;
    this.submitting = false;
    this.confirmResign = false;
  }

  /** Forgets the turn being built (a new position arrived). */
  reset() {
    this.builder.reset();
    this.hover = null;
    this.armed = null;
    this.confirmResign = false;
  }

  get pending() {
    return this.builder.pending;
  }

  /** Whether stones of a turn are pending (and the page may play). */
  building() {
    return this.page.canPlay() && !!this.builder.steps && this.builder.pending.length > 0;
  }

  /** Asks the server about the pending stones and redraws. */
  async refreshSteps({ onRefuse } = {}) {
    const page = this.page;
    try {
      const answer = await this.builder.refresh();
      if (answer) page.render();
    } catch (e) {
      if (e.status === 422 && this.builder.pending.length) {
        page.message(e.message);
        if (onRefuse) onRefuse();
        else this.builder.pending.pop();
        return this.refreshSteps();
      }
      page.message(e.message);
    }
  }

  // ---- input ----

  /** A click or tap on a point of the board. */
  onClick(point, pointerType) {
    if (pointerType === 'touch' && this.armed !== point && !this.builder.pending.includes(point)) {
      // First tap previews; a second tap on the same point plays it.
      this.armed = point;
      this.onHover(point);
      return;
    }
    this.armed = null;
    this.page.enqueue(() => this.activate(point));
  }

  /** The pointer over a point (or off the board: null). */
  onHover(point) {
    this.hover = point;
    if (point === null) this.armed = null;
    this.page.renderBoard();
    this.page.renderPreview();
  }

  // ---- actions ----

  /** Places or adds a stone at `point`, or takes a pending one back. */
  async activate(point) {
    const page = this.page;
    if (!page.canPlay()) {
      page.message(page.whyNot());
      return;
    }
    const b = this.builder;
    const k = b.pending.indexOf(point);
    if (k >= 0) {
      const before = b.pending.slice();
      b.pending.splice(k, 1);
      page.message('');
      announce(`Took back ${point}.`);
      await this.refreshSteps({ onRefuse: () => { b.pending = before.slice(0, k); } });
      return;
    }
    const stones = (b.steps && b.steps.stones) || page.game.stones;
    if (stones[point]) {
      page.message(`${point} is occupied: a turn places stones on vacant points only.`);
      return;
    }
    if (!b.steps) await this.refreshSteps();
    const entry = b.entry(point);
    if (!entry) {
      page.message(`${point} cannot be played now.`);
      return;
    }
    if (entry.refused) {
      page.message(entry.refused);
      announce(entry.refused);
      return;
    }
    if (b.pending.length === 0 && entry.kind === 'placement') {
      await this.submit(point);
      return;
    }
    b.pending.push(point);
    page.message('');
    const rev = entry.reverses && entry.reverses.length ? `, reversing ${listPoints(entry.reverses)}` : '';
    announce(`${entry.kind === 'placement' ? 'Placement' : 'Growth'} ${point}${rev}. ${b.pending.length} pending.`);
    await this.refreshSteps();
  }

  /** Sends `turn` (`D5,F7`, `pass`, `resign`) for the side to move. */
  async submit(turn) {
    const page = this.page;
    const g = page.game;
    const color = g.to_move;
    const token = page.tokenFor(color);
    if (!token) {
      page.message(page.whyNot());
      return;
    }
    this.submitting = true;
    page.renderControls();
    try {
      const game = await api.playTurn(page.id, turn, g.turn_number, token);
      if (!page.tokens[color] && page.tokens.any) page.anySide = color;
      page.onGame(game);
    } catch (e) {
      if (e.code === 'not_your_turn' && page.tokens.any && !page.tokens[color]) {
        page.anySide = other(color);
        page.message(`Your link is ${cap(other(color))}'s: it is ${cap(color)}'s turn, wait for your opponent.`);
      } else {
        page.message(e.message);
      }
      if (e.status === 409) {
        try { page.onGame(await api.getGame(page.id)); } catch (_) { /* the message stays */ }
      }
    } finally {
      this.submitting = false;
      page.render();
    }
  }

  finish() {
    const page = this.page;
    page.enqueue(async () => {
      if (!page.canPlay()) return page.message(page.whyNot());
      const b = this.builder;
      if (!b.pending.length) return page.message('No stones to finish: click a point to start a turn.');
      if (!b.finish.allowed) return page.message(b.finish.reason || 'The turn cannot end here.');
      await this.submit(b.text);
    });
  }

  undoStone() {
    this.page.enqueue(async () => {
      const b = this.builder;
      if (!b.pending.length) return;
      const p = b.pending.pop();
      announce(`Took back ${p}.`);
      this.page.message('');
      await this.refreshSteps();
    });
  }

  clearTurn() {
    this.page.enqueue(async () => {
      const b = this.builder;
      if (!b.pending.length) return;
      b.pending = [];
      announce('Turn dropped.');
      await this.refreshSteps();
    });
  }

  pass() {
    const page = this.page;
    page.enqueue(async () => {
      if (!page.canPlay()) return page.message(page.whyNot());
      if (this.builder.pending.length) return page.message('Finish or drop the stones of this turn before passing.');
      await this.submit('pass');
    });
  }

  /** Resign: the first press asks for confirmation, `confirmed` resigns. */
  resign(confirmed) {
    const page = this.page;
    if (!page.canPlay()) return page.message(page.whyNot());
    if (!confirmed) {
      this.confirmResign = true;
      page.renderControls();
      page.controls.focus('resign-yes');
      return;
    }
    this.confirmResign = false;
    page.enqueue(() => this.submit('resign'));
  }

  cancelResign() {
    this.confirmResign = false;
    this.page.renderControls();
    this.page.controls.focus('resign');
  }

  // ---- what the preview says ----

  /** The step previewed on the board, or null. */
  preview() {
    const page = this.page;
    const b = this.builder;
    if (!(page.canPlay() && b.steps) || !this.hover) return null;
    const stones = this.building() ? b.steps.stones : page.shown().stones;
    if (stones[this.hover]) return null;
    const entry = b.entry(this.hover);
    if (!entry) return null;
    return {
      point: this.hover, color: page.game.to_move, kind: entry.kind,
      refused: !!entry.refused, reverses: entry.reverses || [],
    };
  }

  /** The previewed step in words: `{text, kind}` (kind: growth, placement, refused). */
  previewText() {
    const page = this.page;
    const b = this.builder;
    if (!this.hover || !page.canPlay() || !b.steps) return null;
    const stones = b.steps.stones || page.game.stones;
    if (stones[this.hover]) return null;
    const entry = b.entry(this.hover);
    if (!entry) return null;
    if (entry.refused) return { text: `${this.hover}: not allowed. ${entry.refused}`, kind: 'refused' };
    const rev = entry.reverses && entry.reverses.length ? `, reversing ${listPoints(entry.reverses)}` : '';
    const kind = entry.kind === 'placement'
      ? (b.pending.length ? 'a placement (it ends the turn)' : 'a placement (played at once)')
      : (b.pending.length ? 'a growth step' : 'a growth step (starts a growth turn)');
    return { text: `${this.hover}: ${kind}${rev}.`, kind: entry.kind };
  }

  /** What is at `point`, for the keyboard cursor. */
  describePoint(point) {
    const page = this.page;
    const b = this.builder;
    const stones = (page.canPlay() && b.steps && b.steps.stones) || page.shown().stones;
    if (!point) return '';
    const k = b.pending.indexOf(point);
    if (k >= 0) return `${point}: pending stone ${k + 1} of this turn; Enter takes it back.`;
    if (stones[point]) return `${point}: ${stones[point]} stone.`;
    const entry = page.canPlay() ? b.entry(point) : null;
    if (!entry) return `${point}: vacant.`;
    if (entry.refused) return `${point}: vacant; not allowed: ${entry.refused}`;
    const rev = entry.reverses && entry.reverses.length ? `, reversing ${listPoints(entry.reverses)}` : '';
    return `${point}: vacant; ${entry.kind}${rev}.`;
  }
}
