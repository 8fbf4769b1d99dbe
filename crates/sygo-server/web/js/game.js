// The game page: play, watch or review one game. It holds the game as the
// server last sent it (by answer or by event), the turn being built, the
// position under review, and draws the board and the panel from them.

import * as api from './api.js';
import { h, cap, other, setChildren, listPoints } from './dom.js';
import * as panel from './panel.js';
import { TurnBuilder } from './turn.js';
import { attachKeyboard, KEY_HELP_HEX, KEY_HELP_SQUARE } from './keyboard.js';
import { announce, announceCursor, describeTurn, describeState, resultText } from './announce.js';
import { renderReview, renderMoves } from './review.js';
import { renderAnalysis, hintText, turnStones } from './analysis.js';

/** How long a reversed stone takes to turn over (style.css: .stone.flip). */
const FLIP_MS = 900;

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
    this.tokens = api.tokensFromFragment();
    this.anySide = null; // the side of a `#token=` whose side is not told
    this.game = null;
    this.reviewTurn = null;
    this.reviewGame = null;
    this.builder = new TurnBuilder(id);
    this.hover = null;
    this.armed = null;
    this.cursor = null;
    this.territory = false;
    this.analysis = null;
    this.showOwnership = true;
    this.hint = null;
    this.confirmResign = false;
    this.submitting = false;
    // The reversed stones of a turn that arrives turn over once: the
    // animation runs from flip.start, across redraws, for the position key.
    this.flip = { key: null, start: 0 };
    this.queue = Promise.resolve();
    this.events = null;
  }

  // ---- life cycle ----

  async start() {
    this.buildLayout();
    const turn = new URLSearchParams(location.search).get('turn');
    try {
      const game = await api.getGame(this.id);
      this.onGame(game, { initial: true });
      if (turn !== null && /^\d+$/.test(turn) && Number(turn) < game.turn_number) {
        await this.goTo(Number(turn));
      }
    } catch (e) {
      setChildren(this.root, h('h1', {}, 'Game not found'), h('p', { role: 'alert' }, e.message),
        h('p', {}, h('a', { href: '/games' }, 'See all games')));
      return;
    }
    this.subscribe();
  }

  stop() {
    if (this.events) this.events.close();
    this.events = null;
    this.stopped = true;
  }

  subscribe() {
    if (typeof EventSource === 'undefined') return;
    const es = new EventSource(api.eventsUrl(this.id));
    this.events = es;
    es.addEventListener('game', (e) => {
      let game;
      try {
        game = JSON.parse(e.data);
      } catch (err) {
        return;
      }
      this.enqueue(() => this.onGame(game));
    });
    es.onopen = () => this.setConnection(true);
    es.onerror = () => this.setConnection(false);
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

  live() {
    return this.reviewTurn === null;
  }

  canPlay() {
    const g = this.game;
    return !!g && this.live() && g.status === 'playing' && !g.ai_thinking &&
      g[g.to_move].kind === 'human' && !!this.tokenFor(g.to_move);
  }

  whyNot() {
    const g = this.game;
    if (!this.live()) return 'You are reviewing an earlier position: press ▶| (or End) to return to the game.';
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

  onGame(game, { initial = false } = {}) {
    if (this.stopped) return;
    const prev = this.game;
    if (prev && game.turn_number < prev.turn_number) return; // an older event
    const newTurn = !prev || game.turn_number !== prev.turn_number || game.status !== prev.status;
    this.game = game;
    if (this.board) this.board.setGame(game);
    if (newTurn) {
      if (prev && !initial) {
        const text = describeTurn(game, prev.turn_number === game.turn_number - 1 ? prev.stones : null, this.board.geo.neighbours);
        announce(`${text} ${describeState(game)}`.trim());
        this.el.lastTurnText.textContent = text;
      } else if (game.last_turn) {
        this.el.lastTurnText.textContent = describeTurn(game, null, this.board.geo.neighbours);
      }
      if (prev && !initial) this.startFlip(game);
      this.builder.reset();
      this.hover = null;
      this.armed = null;
      this.hint = null;
      this.analysis = null;
      this.confirmResign = false;
      if (this.reviewTurn !== null && this.reviewTurn >= game.turn_number) this.reviewTurn = null;
      if (prev && !initial) this.message('');
    }
    if (this.canPlay() && !this.builder.steps) this.refreshSteps();
    this.render();
  }

  startFlip(game) {
    this.flip = { key: `${game.id}:${game.shown_turn ?? game.turn_number}`, start: performance.now() };
  }

  async refreshSteps({ onRefuse } = {}) {
    try {
      const answer = await this.builder.refresh();
      if (answer) this.render();
    } catch (e) {
      if (e.status === 422 && this.builder.pending.length) {
        this.message(e.message);
        if (onRefuse) onRefuse();
        else this.builder.pending.pop();
        return this.refreshSteps();
      }
      this.message(e.message);
    }
  }

  // ---- actions ----

  message(text) {
    if (this.el) this.el.message.textContent = text || '';
  }

  onClick(point, pointerType) {
    if (pointerType === 'touch' && this.armed !== point && !this.builder.pending.includes(point)) {
      // First tap previews; a second tap on the same point plays it.
      this.armed = point;
      this.onHover(point);
      return;
    }
    this.armed = null;
    this.enqueue(() => this.activate(point));
  }

  async activate(point) {
    if (!this.canPlay()) {
      this.message(this.whyNot());
      return;
    }
    const b = this.builder;
    const k = b.pending.indexOf(point);
    if (k >= 0) {
      const before = b.pending.slice();
      b.pending.splice(k, 1);
      this.message('');
      announce(`Took back ${point}.`);
      await this.refreshSteps({ onRefuse: () => { b.pending = before.slice(0, k); } });
      return;
    }
    const stones = (b.steps && b.steps.stones) || this.game.stones;
    if (stones[point]) {
      this.message(`${point} is occupied: a turn places stones on vacant points only.`);
      return;
    }
    if (!b.steps) await this.refreshSteps();
    const entry = b.entry(point);
    if (!entry) {
      this.message(`${point} cannot be played now.`);
      return;
    }
    if (entry.refused) {
      this.message(entry.refused);
      announce(entry.refused);
      return;
    }
    if (b.pending.length === 0 && entry.kind === 'placement') {
      await this.submit(point);
      return;
    }
    b.pending.push(point);
    this.message('');
    const rev = entry.reverses && entry.reverses.length ? `, reversing ${listPoints(entry.reverses)}` : '';
    announce(`${entry.kind === 'placement' ? 'Placement' : 'Growth'} ${point}${rev}. ${b.pending.length} pending.`);
    await this.refreshSteps();
  }

  async submit(turn) {
    const g = this.game;
    const color = g.to_move;
    const token = this.tokenFor(color);
    if (!token) {
      this.message(this.whyNot());
      return;
    }
    this.submitting = true;
    this.renderControls();
    try {
      const game = await api.playTurn(this.id, turn, g.turn_number, token);
      if (!this.tokens[color] && this.tokens.any) this.anySide = color;
      this.onGame(game);
    } catch (e) {
      if (e.code === 'not_your_turn' && this.tokens.any && !this.tokens[color]) {
        this.anySide = other(color);
        this.message(`Your link is ${cap(other(color))}'s: it is ${cap(color)}'s turn, wait for your opponent.`);
      } else {
        this.message(e.message);
      }
      if (e.status === 409) {
        try { this.onGame(await api.getGame(this.id)); } catch (_) { /* the message stays */ }
      }
    } finally {
      this.submitting = false;
      this.render();
    }
  }

  finish() {
    this.enqueue(async () => {
      if (!this.canPlay()) return this.message(this.whyNot());
      const b = this.builder;
      if (!b.pending.length) return this.message('No stones to finish: click a point to start a turn.');
      if (!b.finish.allowed) return this.message(b.finish.reason || 'The turn cannot end here.');
      await this.submit(b.text);
    });
  }

  undoStone() {
    this.enqueue(async () => {
      const b = this.builder;
      if (!b.pending.length) return;
      const p = b.pending.pop();
      announce(`Took back ${p}.`);
      this.message('');
      await this.refreshSteps();
    });
  }

  clearTurn() {
    this.enqueue(async () => {
      const b = this.builder;
      if (!b.pending.length) return;
      b.pending = [];
      announce('Turn dropped.');
      await this.refreshSteps();
    });
  }

  pass() {
    this.enqueue(async () => {
      if (!this.canPlay()) return this.message(this.whyNot());
      if (this.builder.pending.length) return this.message('Finish or drop the stones of this turn before passing.');
      await this.submit('pass');
    });
  }

  resign(confirmed) {
    if (!this.canPlay()) return this.message(this.whyNot());
    if (!confirmed) {
      this.confirmResign = true;
      this.renderControls();
      const yes = this.el.controls.querySelector('[data-action="resign-yes"]');
      if (yes) yes.focus();
      return;
    }
    this.confirmResign = false;
    this.enqueue(() => this.submit('resign'));
  }

  onHover(point) {
    this.hover = point;
    if (point === null) this.armed = null;
    this.renderBoard();
    this.renderPreview();
  }

  setCursor(point) {
    this.cursor = point;
    this.hover = point;
    this.renderBoard();
    this.renderPreview();
    announceCursor(this.describePoint(point));
  }

  describePoint(point) {
    const b = this.builder;
    const stones = (this.canPlay() && b.steps && b.steps.stones) || this.shown().stones;
    if (!point) return '';
    const k = b.pending.indexOf(point);
    if (k >= 0) return `${point}: pending stone ${k + 1} of this turn; Enter takes it back.`;
    if (stones[point]) return `${point}: ${stones[point]} stone.`;
    const entry = this.canPlay() ? b.entry(point) : null;
    if (!entry) return `${point}: vacant.`;
    if (entry.refused) return `${point}: vacant; not allowed: ${entry.refused}`;
    const rev = entry.reverses && entry.reverses.length ? `, reversing ${listPoints(entry.reverses)}` : '';
    return `${point}: vacant; ${entry.kind}${rev}.`;
  }

  toggleTerritory(on) {
    this.territory = on === undefined ? !this.territory : on;
    this.el.territoryBox.checked = this.territory;
    this.renderBoard();
    announce(this.territory ? 'Territory shown.' : 'Territory hidden.');
  }

  // ---- review ----

  shown() {
    return this.reviewTurn === null ? this.game : this.reviewGame || this.game;
  }

  goTo(n) {
    return this.enqueue(async () => {
      const total = this.game.turn_number;
      const from = this.reviewTurn ?? total;
      n = Math.max(0, Math.min(total, n));
      if (n === total) {
        this.reviewTurn = null;
        this.reviewGame = null;
      } else {
        const game = await api.getGame(this.id, n);
        this.reviewTurn = n;
        this.reviewGame = game;
      }
      this.hover = null;
      this.analysis = null;
      this.hint = null;
      const g = this.shown();
      if (n === from + 1) this.startFlip(g);
      const text = g.last_turn ? describeTurn(g, null, this.board.geo.neighbours) : 'The empty board.';
      this.el.lastTurnText.textContent = text;
      announce(`Turn ${n} of ${total}. ${text}`);
      const url = new URL(location.href);
      if (this.reviewTurn === null) url.searchParams.delete('turn');
      else url.searchParams.set('turn', String(n));
      history.replaceState(null, '', url);
      if (this.canPlay() && !this.builder.steps) await this.refreshSteps();
      this.render();
    });
  }

  // ---- the AI ----

  askHint() {
    this.enqueue(async () => {
      if (!this.canPlay()) return this.message(this.whyNot());
      this.el.aiOut.textContent = 'The AI is looking for a hint…';
      const result = await api.hint(this.id, this.tokenFor(this.game.to_move), 1000);
      const best = (result.candidates || [])[0];
      this.hint = best ? turnStones(best.turn) : null;
      const text = hintText(result, this.game);
      this.el.aiOut.replaceChildren(h('p', { 'data-hint-text': '' }, text));
      announce(text);
      this.renderBoard();
    });
  }

  analyse() {
    this.enqueue(async () => {
      const shown = this.shown();
      if (!this.live()) return this.message('Analysis is of the current position: return to it (End) first.');
      this.el.aiOut.textContent = 'The AI is analysing the position…';
      const result = await api.analysis(this.id, 1000);
      this.analysis = result;
      renderAnalysis(this.el.aiOut, result, shown, {
        onShow: (stones) => { this.hint = stones; this.renderBoard(); },
      });
      this.el.aiOut.prepend(h('label', { class: 'check' },
        h('input', {
          type: 'checkbox', checked: this.showOwnership ? true : null, 'data-toggle': 'ownership',
          onchange: (e) => { this.showOwnership = e.target.checked; this.renderBoard(); },
        }), ' Show ownership on the board'));
      announce(this.el.aiOut.querySelector('.analysis-summary').textContent);
      this.renderBoard();
    });
  }

  // ---- drawing (the panel: js/panel.js) ----

  buildLayout() { panel.buildLayout(this); }
  renderStatus() { panel.renderStatus(this); }
  renderControls() { panel.renderControls(this); }
  renderPreview() { panel.renderPreview(this); }
  renderLegend(building) { panel.renderLegend(this, building); }
  renderShare() { panel.renderShare(this); }

  render() {
    if (!this.game || !this.el) return;
    const first = !this.board.svg;
    this.board.setGame(this.game);
    if (first || this.keyboardFor !== this.board.svg) {
      this.keyboardFor = this.board.svg;
      this.el.keys.textContent = this.board.geo.hex ? KEY_HELP_HEX : KEY_HELP_SQUARE;
      attachKeyboard(this.board.svg, this.board.geo, {
        getCursor: () => this.cursor,
        setCursor: (p) => this.setCursor(p),
        activate: (p) => this.enqueue(() => this.activate(p)),
        finish: () => this.finish(),
        undo: () => this.undoStone(),
        clear: () => this.clearTurn(),
        pass: () => this.pass(),
        territory: () => this.toggleTerritory(),
        hint: () => this.askHint(),
        analyse: () => this.analyse(),
        where: (p) => announceCursor(this.describePoint(p)),
        prev: () => this.goTo((this.reviewTurn ?? this.game.turn_number) - 1),
        next: () => this.goTo((this.reviewTurn ?? this.game.turn_number) + 1),
        first: () => this.goTo(0),
        last: () => this.goTo(this.game.turn_number),
      });
    }
    this.renderBoard();
    this.renderStatus();
    this.renderControls();
    this.renderPreview();
    const shown = this.shown();
    renderReview(this.el.review, {
      id: this.id, shown: shown.shown_turn ?? shown.turn_number, total: this.game.turn_number, go: (n) => this.goTo(n),
    });
    renderMoves(this.el.moves, {
      turns: this.game.turns || [], shown: shown.shown_turn ?? shown.turn_number, go: (n) => this.goTo(n),
    });
    this.renderShare();
  }

  building() {
    return this.canPlay() && this.builder.steps && this.builder.pending.length > 0;
  }

  renderBoard() {
    if (!this.board.svg) return;
    const shown = this.shown();
    const b = this.builder;
    const building = this.building();
    const playing = this.canPlay() && b.steps;
    const stones = building ? b.steps.stones : shown.stones;
    const last = shown.last_turn;
    const key = `${shown.id}:${shown.shown_turn ?? shown.turn_number}`;
    const elapsed = performance.now() - this.flip.start;
    const flipElapsed = this.flip.key === key && elapsed < FLIP_MS ? elapsed : null;
    let preview = null;
    if (playing && this.hover && !stones[this.hover]) {
      const entry = b.entry(this.hover);
      if (entry) {
        preview = {
          point: this.hover, color: this.game.to_move, kind: entry.kind,
          refused: !!entry.refused, reverses: entry.reverses || [],
        };
      }
    }
    this.board.render({
      stones,
      pending: building ? b.pending : [],
      last: building ? [] : (last && last.stones) || [],
      reversed: building ? b.steps.reversed || [] : (last && last.reversed) || [],
      flipElapsed: building ? null : flipElapsed,
      groups: building ? b.steps.groups : [],
      next: building ? b.steps.next : null,
      showAllowed: building,
      preview,
      territory: this.territory && shown.score ? shown.score.territory : null,
      ownership: this.analysis && this.showOwnership && this.live() ? this.analysis.ownership : null,
      hint: this.hint,
      hintColor: this.game.to_move,
      cursor: this.cursor,
    });
    this.renderLegend(building);
  }

}

