// The turn composer: the turn being built on the game page, stone by stone
// (its model, the pending stones and the server's answer about them, is
// `TurnBuilder` in js/turn.js), the preview of the point under the pointer
// or the cursor, and the actions that end in a submission: a stone added or
// taken back, finish, pass (warned when it ends the game), resign (any time,
// confirmed), take back a turn.
//
// Input: a mouse click plays at once (the hover showed the preview); a
// double click's second click is ignored. A finger's tap previews (the
// point is "armed": a ghost stone, its effect in words); a second tap on it
// or the Play button under the board plays it. On a big board the first tap
// also zooms the view onto that part of the board (js/board.js), so that a
// point is hit surely; "Whole board" zooms out.
//
// Every action runs through the page's queue (`page.enqueue`), one after
// the other, so that a click during a request waits for it.

import * as api from './api.js';
import { cap, other, listPoints } from './dom.js';
import { TurnBuilder } from './turn.js';
import { announce, resultText } from './announce.js';
import { askConfirm } from './confirm.js';
import { isBig } from './board.js';

/** A second tap sooner than this after the first is a jitter, not a yes. */
const SECOND_TAP_MS = 250;

export class Composer {
  /** `page`: the game page (js/game.js). */
  constructor(page) {
    this.page = page;
    this.builder = new TurnBuilder(page.id);
    /** The point whose step is previewed (pointer or keyboard cursor). */
    this.hover = null;
    /** A touch's first tap: the point previewed, played by a second tap. */
    this.armed = null;
    this.armedAt = 0;
    this.submitting = false;
  }

  /** Forgets the turn being built (a new position arrived). */
  reset() {
    this.builder.reset();
    this.hover = null;
    this.armed = null;
    if (this.page.board && this.page.board.zoomed) this.page.board.zoomTo(null);
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

  /** A click or tap on a point of the board (`count`: the click's number in a double click). */
  onClick(point, pointerType, count = 1) {
    const page = this.page;
    if (pointerType !== 'touch') {
      if (count > 1) return; // a double click plays once
      this.armed = null;
      page.enqueue(() => this.activate(point));
      return;
    }
    const b = this.builder;
    const stones = (b.steps && b.steps.stones) || page.shown().stones;
    // What a tap cannot preview is said at once: not this page's turn, an
    // occupied point; a pending stone is taken back.
    if (!page.canPlay() || (stones[point] && !b.pending.includes(point)) || b.pending.includes(point)) {
      this.armed = null;
      page.enqueue(() => this.activate(point));
      return;
    }
    const board = page.board;
    if (isBig(page.game) && !board.zoomed) {
      // A tap on the whole big board only zooms and previews: never plays.
      board.zoomTo(point);
      this.armed = null;
    }
    if (this.armed !== point) {
      this.armed = point;
      this.armedAt = performance.now();
      page.message('');
      this.onHover(point);
      page.renderControls();
      return;
    }
    if (performance.now() - this.armedAt < SECOND_TAP_MS) return;
    this.playArmed();
  }

  /** Plays the previewed point (the Play button, a second tap). */
  playArmed() {
    const point = this.armed;
    if (!point) return;
    this.armed = null;
    this.page.enqueue(() => this.activate(point));
  }

  /** The whole board again after a zoom. */
  zoomOut() {
    this.page.board.zoomTo(null);
    this.page.renderControls();
  }

  /** The pointer over a point (or off the board: null). */
  onHover(point) {
    this.hover = point;
    if (point === null) this.armed = null;
    this.page.renderHover();
  }

  // ---- actions ----

  /** Places or adds a stone at `point`, or takes a pending one back. */
  async activate(point) {
    const page = this.page;
    if (!page.canPlay()) {
      // Not this page's turn: the point may go into a planned answer
      // (js/conditional.js).
      if (page.plan && page.plan.takePoint(point)) return;
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
      // The answer is the turn's event, applied as a live update is (the
      // game fetched if it does not follow on).
      const event = await api.playTurn(page.id, turn, g.turn_number, token);
      if (!page.tokens[color] && page.tokens.any) page.anySide = color;
      await page.onEvent('turn', event);
    } catch (e) {
      let text = e.message;
      if (e.code === 'not_your_turn' && page.tokens.any && !page.tokens[color]) {
        page.anySide = other(color);
        text = `Your link is ${cap(other(color))}'s: it is ${cap(color)}'s turn, wait for your opponent.`;
      }
      if (e.status === 409) {
        // A stale page (the game moved on) or a second submission: the turn
        // was not played; the page shows the game as it is now.
        try { page.onGame(await api.getGame(page.id)); } catch (_) { /* the message stays */ }
        const g2 = page.game;
        text = g2.status !== 'playing'
          ? `Not played: the game is over (${resultText(g2)}).`
          : 'Not played: the game had moved on (another turn came first). The board now shows it as it is.';
      }
      page.message(text);
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

  /** Pass; when the opponent has just passed, a pass ends the game: confirmed first, with the score it ends with. */
  pass() {
    const page = this.page;
    page.enqueue(async () => {
      if (!page.canPlay()) return page.message(page.whyNot());
      if (this.builder.pending.length) return page.message('Finish or drop the stones of this turn before passing.');
      const g = page.game;
      if (g.last_turn && g.last_turn.turn === 'pass') {
        const ok = await askConfirm({
          id: 'confirm-pass',
          question: `${cap(g.last_turn.color)} has just passed: a pass now ends the game.`,
          detail: endingText(g),
          yes: 'Pass and end the game',
        });
        if (!ok) return;
      }
      await this.submit('pass');
    });
  }

  /** The token this page resigns with: its side, or the side to move when it plays both. */
  resignToken() {
    const page = this.page;
    const sides = page.mySides();
    if (!sides.length) return null;
    const side = sides.length === 2 ? page.game.to_move : sides[0];
    return page.tokenFor(side) || page.tokens.any;
  }

  /** Resign, at any time (also while the opponent or the AI is to move), after a confirmation. */
  resign() {
    const page = this.page;
    const g = page.game;
    const token = this.resignToken();
    if (!token || g.status !== 'playing') return page.message(page.whyNot() || 'There is no game to resign here.');
    const sides = page.mySides();
    const side = sides.length === 2 ? g.to_move : sides[0];
    // A link whose side is not known yet: the server knows it by its token.
    const unknown = page.tokens.any && !page.tokens.black && !page.tokens.white && page.anySide === null &&
      sides.length === 2;
    askConfirm({
      id: 'confirm-resign',
      question: unknown ? 'Resign this game, as the side of your link?' : `Resign this game as ${cap(side)}?`,
      detail: unknown ? 'Your opponent wins. This cannot be taken back.' : `${cap(other(side))} wins. This cannot be taken back.`,
      yes: 'Yes, resign',
    }).then((ok) => {
      if (!ok) return;
      page.enqueue(async () => {
        try {
          page.onGame(await api.resign(page.id, token));
          page.message('');
        } catch (e) {
          page.message(e.message);
        }
      });
    });
  }

  /** Takes back the last turn (hot-seat) or the player's turn and the AI's answer. */
  takeBack() {
    const page = this.page;
    page.enqueue(async () => {
      const offer = page.undoOffer();
      if (!offer.allowed) return page.message(offer.reason);
      try {
        const game = await api.undo(page.id, page.game.turn_number, offer.token, offer.other);
        page.onGame(game);
        announce(`Taken back. ${cap(game.to_move)} to move.`);
      } catch (e) {
        if (e.status === 409) {
          try { page.onGame(await api.getGame(page.id)); } catch (_) { /* the message stays */ }
        }
        page.message(e.message);
      }
    });
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
      armed: this.armed === this.hover,
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
    const armed = this.armed === this.hover;
    // A placement after growth stones is the balance turn's last stone: it
    // is added to the turn, which Finish turn then plays.
    const last = entry.kind === 'placement' && b.pending.length > 0;
    let then = '';
    if (armed) then = ` Tap ${this.hover} again, or press Play, to ${last ? 'add it' : 'play it'}.`;
    if (last) then += ' Then press Finish turn to play the turn.';
    const rev = entry.reverses && entry.reverses.length ? `, reversing ${listPoints(entry.reverses)}` : '';
    const kind = entry.kind === 'placement'
      ? (last ? "a placement, the balance turn's last stone" : (armed ? 'a placement' : 'a placement (played at once)'))
      : (b.pending.length ? 'a growth step' : 'a growth step (starts a growth turn)');
    return { text: `${this.hover}: ${kind}${rev}.${then}`, kind: entry.kind };
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

/** What a pass that ends the game gives: the area count and the result. */
function endingText(game) {
  const score = game.score || { black: 0, white: 0 };
  const komi = game.komi ? `, komi ${game.komi}` : '';
  const result = score.result ? resultText({ result: score.result }) : 'a result by the score';
  return `The game ends with the area count Black ${score.black}, White ${score.white}${komi} ` +
    `(stones plus surrounded points): ${result}.`;
}
