// The game page: play, watch or review one game. It holds the game as the
// server last sent it (by an answer or a live update), who this page plays,
// the position under review, and draws everything from them. Its parts:
//
//   js/layout.js     the page's elements and the board
//   js/board-view.js what the board shows now; js/board.js draws it
//   js/composer.js   the turn being built, taps and clicks, its preview,
//                    submission, pass, resign, take back (js/confirm.js)
//   js/controls.js   the buttons; js/status.js whose turn, scores, legend
//   js/live.js       live updates (EventSource), applied by js/game-events.js
//   js/clock.js      both sides' clocks, ticking, and the tab's title
//   js/review.js, js/analysis.js   review; hints and analyses
//   js/ai-review.js  the AI's review of the whole game (js/graph.js)
//   js/conditional.js  answers planned while the other side is to move
//   js/etiquette.js  abort, undo requests, rematch, presence; js/chat.js

import * as api from './api.js';
import * as identity from './identity.js';
import * as account from './account-state.js';
import { h, cap, other, setChildren } from './dom.js';
import { buildLayout, buildBoard } from './layout.js';
import { boardView, shownStones } from './board-view.js';
import { Composer } from './composer.js';
import { Controls } from './controls.js';
import { renderStatus, renderPreview, renderLegend } from './status.js';
import { subscribe } from './live.js';
import { applyEvent } from './game-events.js';
import { attachKeyboard, KEY_HELP_HEX, KEY_HELP_SQUARE } from './keyboard.js';
import { announce, announceCursor, describeTurn, describeState, resultText } from './announce.js';
import * as review from './review.js';
import * as analysis from './analysis.js';
import { RecordTree } from './record-tree.js';
import { AiReview } from './ai-review.js';
import { Clocks } from './clock.js';
import { Plan } from './conditional.js';
import { Etiquette } from './etiquette.js';
import { Chat } from './chat.js';

/** What an uploaded record's page offers: nobody plays it. */
export const UPLOADED = 'An uploaded record: step through it, or ask the AI to review it.';

/** Shows the game `id` in `root`; returns a function that stops its updates. */
export function showGame(root, id) {
  const page = new GamePage(root, id);
  page.start();
  return () => page.stop();
}

class GamePage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    // The sides this page plays: what this browser remembers, and a link's
    // secret (js/identity.js), read in start().
    this.tokens = { black: null, white: null, any: null };
    this.anySide = null; // the side of a `#token=` whose side is not told
    this.game = null;
    this.reviewTurn = null;
    this.reviewGame = null;
    // A node of an uploaded record's variation, when one is shown
    // (js/record-tree.js).
    this.variation = null;
    this.record = new RecordTree(this);
    this.composer = new Composer(this);
    this.cursor = null;
    this.territory = false;
    this.analysis = null;
    this.showOwnership = true;
    this.hint = null;
    // The reversed stones of a turn that arrives turn over once: the
    // animation runs from flip.start, across redraws, for the position key.
    this.flip = { key: null, start: 0 };
    this.queue = Promise.resolve();
    this.updates = null;
    /** Whether the page is used by touch (a coarse pointer): the hints say "tap". */
    this.touch = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  }

  // ---- life cycle ----

  async start() {
    this.el = buildLayout(this);
    this.board = buildBoard(this);
    this.controls = new Controls(this, this.el);
    this.clocks = new Clocks(this, this.el.clocks);
    this.aiReview = new AiReview(this);
    this.plan = new Plan(this);
    this.etiquette = new Etiquette(this, this.el);
    this.chat = new Chat(this, this.el.chat);
    const turn = new URLSearchParams(location.search).get('turn');
    // The account signed in may hold sides of this game that this browser
    // has not kept yet (js/account-state.js): they are kept first.
    await account.ready();
    const mine = await identity.tokensForPage(this.id);
    this.tokens = mine.tokens;
    account.claimMissing(this.id, this.tokens);
    try {
      const game = await api.getGame(this.id);
      this.onGame(game, { initial: true });
      if (game.record) {
        await this.record.load();
        this.render();
      }
      if (turn !== null && /^\d+$/.test(turn) && Number(turn) < game.turn_number) {
        await this.goTo(Number(turn));
      }
    } catch (e) {
      setChildren(this.root, h('h1', {}, 'Game not found'), h('p', { role: 'alert' }, e.message),
        h('p', {}, h('a', { href: '/games' }, 'See all games')));
      return;
    }
    if (mine.notice) this.message(mine.notice);
    this.etiquette.startPresence();
    this.aiReview.refresh(true);
    this.updates = subscribe(this.id, {
      onEvent: (kind, data) => this.enqueue(() => this.onEvent(kind, data)),
      onConnection: (ok) => this.setConnection(ok),
    });
  }

  stop() {
    if (this.updates) this.updates.close();
    this.updates = null;
    if (this.aiReview) this.aiReview.stop();
    if (this.clocks) this.clocks.stop();
    if (this.plan) this.plan.stop();
    if (this.etiquette) this.etiquette.stop();
    this.stopped = true;
  }

  setConnection(ok) {
    if (!this.el) return;
    this.el.connection.textContent = ok ? '' : 'Connection lost: reconnecting…';
    this.el.connection.hidden = ok;
  }

  /** Runs page actions one after the other (clicks during a request wait). */
  enqueue(fn) {
    this.queue = this.queue.then(fn).catch((e) => this.message(e.message || String(e)));
    return this.queue;
  }

  // ---- who may play ----

  tokenFor(color) {
    if (this.tokens[color]) return this.tokens[color];
    if (this.tokens.any && this.anySide !== other(color)) return this.tokens.any;
    return null;
  }

  /** The sides this page plays. */
  mySides() {
    const g = this.game;
    const sides = [];
    for (const c of ['black', 'white']) {
      if (g[c].kind !== 'human') continue;
      if (this.tokens[c]) sides.push(c);
      else if (this.tokens.any && this.anySide !== other(c)) {
        const otherHuman = g[other(c)].kind === 'human';
        if (!otherHuman || this.anySide === c) sides.push(c);
        else if (this.anySide === null) sides.push(c); // unknown until a move tells
      }
    }
    return sides;
  }

  /** Whether the live game is shown (not an earlier position). */
  live() {
    return this.reviewTurn === null;
  }

  /** Whether this page may move now, for the side to move. */
  canPlay() {
    const g = this.game;
    return !!g && this.live() && g.status === 'playing' && !g.ai_thinking &&
      g[g.to_move].kind === 'human' && !!this.tokenFor(g.to_move);
  }

  /**
   * Whether this page may take back a turn (docs/web.md, undo): `offered`
   * (against the AI, or playing both sides of a game between two people),
   * `allowed` now, the `reason` when not, and the tokens to send.
   */
  undoOffer() {
    const g = this.game;
    const sides = this.mySides();
    const no = (offered, reason) => ({ offered, allowed: false, reason });
    if (!g || g.status !== 'playing' || !sides.length) return no(false, this.whyNot());
    if (g.clock) return no(false, 'Undo is not offered in a game with a clock: a turn played stands.');
    const ai = ['black', 'white'].find((c) => g[c].kind === 'ai');
    let token = null, other = null, mine = null;
    if (ai) {
      mine = sides[0];
      token = this.tokenFor(mine);
    } else if (this.tokens.black && this.tokens.white) {
      token = this.tokens[g.to_move];
      other = this.tokens[g.to_move === 'black' ? 'white' : 'black'];
    } else {
      return no(false, 'Undo is not offered in a game between two people online: after your turn, ask your opponent to take it back.');
    }
    if (!this.live()) return no(true, 'Return to the game (▶|) to take back a turn.');
    const turns = g.turns || [];
    // Against the AI: the player's last turn (and the AI's answer after it).
    const has = mine ? turns.some((t) => t.color === mine) : turns.length > 0;
    if (!has) return no(true, 'There is no turn of yours to take back yet.');
    return { offered: true, allowed: true, reason: '', token, other };
  }

  /** Why this page may not move now, in words. */
  whyNot() {
    const g = this.game;
    if (this.game.source === 'uploaded') return UPLOADED;
    if (!this.live()) {
      return `You are reviewing an earlier position: ${this.touch ? 'tap ▶|' : 'press ▶| (or End)'} to return to the game.`;
    }
    if (g.status !== 'playing') return `The game is over: ${resultText(g)}.`;
    if (g[g.to_move].kind === 'ai') return `It is ${cap(g.to_move)}'s turn: the AI is playing it.`;
    if (!this.tokenFor(g.to_move)) {
      return this.mySides().length
        ? `It is ${cap(g.to_move)}'s turn: wait for your opponent.`
        : 'You are watching: only the players, with their private links, can move.';
    }
    return '';
  }

  // ---- the game from the server ----

  /**
   * A live update (js/live.js): applied to the game this page has
   * (js/game-events.js); one that does not follow on from it (a turn
   * missed) makes the page fetch the game.
   */
  async onEvent(kind, data) {
    if (this.stopped) return;
    const applied = applyEvent(this.game, kind, data);
    if (applied.game) {
      this.onGame(applied.game);
    } else if (applied.fetch) {
      let game;
      try {
        game = await api.getGame(this.id);
      } catch (_) {
        return; // the connection's state is shown; the next event tries again
      }
      this.onGame(game);
    }
  }

  onGame(game, { initial = false } = {}) {
    if (this.stopped) return;
    const prev = this.game;
    // An older state (events may arrive late): states are ordered by the
    // count of undos, then the number of turns.
    const undos = (x) => x.undos || 0;
    if (prev && (undos(game) < undos(prev) ||
      (undos(game) === undos(prev) && game.turn_number < prev.turn_number))) return;
    const newTurn = !prev || game.turn_number !== prev.turn_number || game.status !== prev.status ||
      undos(game) !== undos(prev);
    this.game = game;
    this.board.setGame(game);
    this.etiquette.onGame(prev, game);
    this.chat.update(game);
    if (newTurn) {
      if (prev && !initial) {
        const text = describeTurn(game);
        announce(`${text} ${describeState(game)}`.trim());
        this.el.lastTurnText.textContent = text;
      } else if (game.last_turn) {
        this.el.lastTurnText.textContent = describeTurn(game);
      }
      if (prev && !initial) this.startFlip(game);
      this.composer.reset();
      // A hint or an analysis was of the position before: gone with it.
      this.clearAi();
      if (this.reviewTurn !== null && this.reviewTurn >= game.turn_number) this.reviewTurn = null;
      if (prev && !initial) this.message('');
      if (prev && !initial) this.aiReview.onGameChanged();
    }
    if (this.canPlay() && !this.composer.builder.steps) this.composer.refreshSteps();
    // The clocks count from this state's deadline (js/clock.js).
    this.clocks.update(game);
    this.render();
    // The answers planned for the other side's turn (js/conditional.js).
    this.plan.update(game);
  }

  startFlip(game) {
    this.flip = { key: `${game.id}:${game.shown_turn ?? game.turn_number}`, start: performance.now() };
  }

  /** The number of turns of the position shown. */
  shownTurn() {
    const shown = this.shown();
    return shown.shown_turn ?? shown.turn_number;
  }

  /** The position shown: the live game, or the one under review. */
  shown() {
    if (this.variation) return this.variation;
    return this.reviewTurn === null ? this.game : this.reviewGame || this.game;
  }

  // ---- small actions ----

  message(text) {
    if (this.el) this.el.message.textContent = text || '';
  }

  /**
   * Forgets the AI's hint and analysis (their words, their marks on the
   * board) when the position shown changes or the game ends; an answer
   * still on its way for the old position is dropped (`aiGen`). Returns the
   * new generation.
   */
  clearAi() {
    this.aiGen = (this.aiGen || 0) + 1;
    this.hint = null;
    this.analysis = null;
    if (this.el) this.el.aiOut.replaceChildren();
    return this.aiGen;
  }

  setCursor(point) {
    this.cursor = point;
    this.composer.hover = point;
    this.renderBoard();
    this.renderPreview();
    announceCursor(this.composer.describePoint(point));
  }

  toggleTerritory(on) {
    this.territory = on === undefined ? !this.territory : on;
    this.el.territoryBox.checked = this.territory;
    this.renderBoard();
    announce(this.territory ? 'Territory shown.' : 'Territory hidden.');
  }

  // ---- review and the AI (js/review.js, js/analysis.js) ----

  goTo(n) { return review.goTo(this, n); }
  askHint() { analysis.askHint(this); }
  analyse() { analysis.analyse(this); }

  // ---- drawing ----

  renderControls() { this.controls.render(); }
  renderPreview() { renderPreview(this); }

  render() {
    if (!this.game || !this.el) return;
    this.board.setGame(this.game);
    if (this.keyboardFor !== this.board.svg) {
      this.keyboardFor = this.board.svg;
      this.el.keys.textContent = this.board.geo.hex ? KEY_HELP_HEX : KEY_HELP_SQUARE;
      const c = this.composer;
      attachKeyboard(this.board.svg, this.board.geo, {
        getCursor: () => this.cursor,
        setCursor: (p) => this.setCursor(p),
        activate: (p) => this.enqueue(() => c.activate(p)),
        finish: () => c.finish(),
        undo: () => c.undoStone(),
        clear: () => c.clearTurn(),
        pass: () => c.pass(),
        territory: () => this.toggleTerritory(),
        hint: () => this.askHint(),
        analyse: () => this.analyse(),
        where: (p) => announceCursor(c.describePoint(p)),
        prev: () => (this.variation ? this.record.back()
          : this.goTo((this.reviewTurn ?? this.game.turn_number) - 1)),
        next: () => (this.variation ? this.record.next()
          : this.goTo((this.reviewTurn ?? this.game.turn_number) + 1)),
        first: () => this.goTo(0),
        last: () => this.goTo(this.game.turn_number),
      });
    }
    this.renderBoard();
    if (!this.drawn) {
      // The first render of the game (docs/performance.md measures it).
      this.drawn = true;
      performance.mark('sygo:board-drawn');
    }
    renderStatus(this);
    this.renderControls();
    this.renderPreview();
    const shown = this.shown();
    const shownTurn = shown.shown_turn ?? shown.turn_number;
    // In a variation no main-line turn is shown: ◀ ▶ step along the variation.
    const v = this.variation;
    const variation = v ? {
      turn: shownTurn, hasNext: !!v.children[0],
      back: () => this.record.back(), next: () => this.record.next(),
    } : null;
    keepFocus(this.el.review, () => review.renderReview(this.el.review, {
      id: this.id, shown: shownTurn, total: this.game.turn_number, go: (n) => this.goTo(n), variation,
    }));
    keepFocus(this.el.moves, () => review.renderMoves(this.el.moves, {
      turns: this.game.turns || [], shown: v ? null : shownTurn, go: (n) => this.goTo(n),
    }));
    if (this.record.active()) keepFocus(this.record.elements(), () => this.record.render());
    this.aiReview.render();
    this.etiquette.render();
  }

  /** Only the preview of the point under the pointer (a hover, a tap). */
  renderHover() {
    if (!this.board.svg) return;
    this.board.drawPreview(this.composer.preview(), shownStones(this));
    this.renderPreview();
  }

  renderBoard() {
    if (!this.board.svg) return;
    this.boardViewShown = boardView(this);
    this.board.render(this.boardViewShown);
    renderLegend(this, this.composer.building());
  }
}

/**
 * Redraws a container with `draw` and gives the keyboard's focus back to the
 * element that had it, found again by its id, `data-review` or `data-turn`
 * (a redrawn button is a new element: without this, focus would fall to
 * the page).
 */
function keepFocus(container, draw) {
  const focused = document.activeElement;
  if (!focused || !container.contains(focused)) return draw();
  const keys = ['id', 'data-review', 'data-action', 'data-variation', 'data-path'];
  const key = keys.find((k) => focused.hasAttribute(k));
  const item = focused.closest('[data-turn]');
  draw();
  let again = null;
  if (key) again = container.querySelector(`[${key}="${CSS.escape(focused.getAttribute(key))}"]`);
  else if (item) {
    const li = container.querySelector(`[data-turn="${CSS.escape(item.dataset.turn)}"]`);
    again = li && li.querySelector('button');
  }
  if (again && !again.disabled) again.focus();
}
