// The game page's etiquette (docs/web.md, "Etiquette"): abort a game
// before one's first turn (confirmed, js/confirm.js); between two people on
// their own pages, ask the other to take back one's last turn, and accept
// or decline such a request; once the game is over, a rematch with colours
// swapped (offered, accepted, then both pages go to it); the page's
// presence (a heartbeat every 20 s, "closing" as the page is left) and the
// other side's, shown. The chat is js/chat.js.
//
// Everything is drawn from the game as the server last sent it (its
// `undo_request`, `undo_declined`, `rematch`, `connected`), by an answer
// or a live update: a request declined is not offered again in the same
// state of the game, after a reload or a restart too.
// The buttons sit under the bar's other lines, so that nothing above them
// moves when they come and go; they are made once and only shown, hidden or
// enabled afterwards. The line above them (a `role="status"`) says what
// stands: a request to answer, one's own waiting, and how it ended.

import * as api from './api.js';
import * as identity from './identity.js';
import { h, cap, other, setChildren } from './dom.js';
import { askConfirm } from './confirm.js';

/** How often an open page says so (the server shows a side gone 45 s after). */
const HEARTBEAT_MS = 20000;

export class Etiquette {
  /** `page`: the game page (js/game.js); `el`: its elements (`etiquette`, `presence`). */
  constructor(page, el) {
    this.page = page;
    this.el = el;
    /** A request of this page's is running. */
    this.busy = false;
    /** This page's undo request, seen standing: `{turn, undos}`. */
    this.asked = null;
    /** What the last request or answer ended with, until the next turn. */
    this.said = '';
    /** This page offered a rematch: it goes to the rematch when it starts. */
    this.wantRematch = false;
    this.going = false;
    /** The sides seen connected while this page is open. */
    this.seen = { black: false, white: false };
    this.presenceTokens = [];
    this.notice = h('p', { class: 'etiquette-notice', id: 'etiquette-notice', role: 'status', tabindex: '-1' });
    const button = (id, text, cls, onclick) =>
      h('button', { type: 'button', id, 'data-action': id, class: cls, onclick }, text);
    this.buttons = {
      undoAccept: button('undo-accept', 'Accept', 'primary', () => this.answerUndo(true)),
      undoDecline: button('undo-decline', 'Decline', '', () => this.answerUndo(false)),
      rematchAccept: button('rematch-accept', 'Accept the rematch', 'primary', () => this.rematch()),
      rematchGo: button('rematch-go', 'Go to the rematch', 'primary', () => this.goToRematch()),
      abort: button('abort-button', 'Abort game', 'danger', () => this.abort()),
      undoRequest: button('undo-request-button', 'Ask to take back', '', () => this.requestUndo()),
      rematch: button('rematch-button', 'Rematch (colours swapped)', '', () => this.rematch()),
      rematchWithdraw: button('rematch-withdraw', 'Withdraw the offer', '', () => this.withdrawRematch()),
    };
    // A spectator's way to the rematch.
    this.watchRematch = h('a', { class: 'button', id: 'rematch-watch', hidden: true }, 'Watch the rematch');
    const b = this.buttons;
    this.answers = h('div', { class: 'etiquette-row', role: 'group', 'aria-label': 'Your answer' },
      b.undoAccept, b.undoDecline, b.rematchAccept, b.rematchGo, this.watchRematch);
    this.actions = h('div', { class: 'etiquette-row', role: 'group', 'aria-label': 'Etiquette' },
      b.abort, b.undoRequest, b.rematch, b.rematchWithdraw);
    setChildren(el.etiquette, this.notice, this.answers, this.actions);
  }

  // ---- who ----

  /** The one side this page plays in a game between two people on their
   * own pages (not against the AI, not hot-seat), or null. */
  onlineSide() {
    const page = this.page;
    const g = page.game;
    if (!g || g.source !== 'played' || g.black.kind !== 'human' || g.white.kind !== 'human') return null;
    const sides = page.mySides();
    return sides.length === 1 && page.tokenFor(sides[0]) ? sides[0] : null;
  }

  /** A side of this page's that has not played a turn (it may abort), or null. */
  abortSide() {
    const page = this.page;
    const g = page.game;
    if (!g || g.status !== 'playing' || g.source !== 'played') return null;
    const played = new Set((g.turns || []).map((t) => t.color));
    return page.mySides().find((c) => !played.has(c) && page.tokenFor(c)) || null;
  }

  // ---- the game from the server ----

  /** A new state of the game (`prev`: the one before, null at first):
   * how this page's undo request ended; the rematch this page offered,
   * started. Called by the page before it redraws. */
  onGame(prev, game) {
    const undos = (x) => x.undos || 0;
    if (prev && (prev.turn_number !== game.turn_number || undos(prev) !== undos(game) ||
      prev.status !== game.status)) this.said = '';
    const side = this.onlineSide();
    const req = game.undo_request;
    if (side && req && req.by === side) {
      this.asked = { turn: req.turn_number, undos: undos(game) };
    } else if (this.asked && side) {
      const them = cap(other(side));
      if (undos(game) > this.asked.undos) {
        this.said = `${them} accepted: your last turn is taken back. It is your turn again.`;
      } else if (game.turn_number === this.asked.turn && game.status === 'playing') {
        this.said = `${them} declined: your last turn stands.`;
      }
      this.asked = null;
    }
    const r = game.rematch || {};
    const mine = this.page.mySides();
    // The other side's offer withdrawn.
    const was = (prev && prev.rematch) || {};
    if (prev && was.offered_by && !r.offered_by && !r.game && mine.length === 1 && was.offered_by !== mine[0]) {
      this.said = `${cap(was.offered_by)} withdrew the rematch offer.`;
    }
    if (r.offered_by && mine.length === 1 && r.offered_by === mine[0]) this.wantRematch = true;
    if (r.game && this.wantRematch && !this.going && prev) this.goToRematch();
  }

  // ---- drawing ----

  render() {
    const page = this.page;
    const g = page.game;
    if (!g) return;
    const b = this.buttons;
    const mine = page.mySides();
    const side = this.onlineSide();
    let notice = '';

    b.abort.hidden = !this.abortSide();

    // Undo requests: between two people on their own pages, without a clock.
    const asking = !!side && g.status === 'playing' && !g.clock;
    const req = asking ? g.undo_request : null;
    const turns = g.turns || [];
    const last = turns[turns.length - 1];
    const theirs = !!req && req.by === other(side) && req.turn_number === g.turn_number;
    const pending = !!req && req.by === side;
    // A request of this side's declined in this state (kept by the server,
    // across reloads and restarts): not made again.
    const d = g.undo_declined;
    const declined = !!d && !!side && d.by === side && d.turn_number === g.turn_number &&
      (d.undos || 0) === (g.undos || 0);
    b.undoRequest.hidden = !(asking && !req && last && last.color === side && !declined);
    b.undoAccept.hidden = !theirs;
    b.undoDecline.hidden = !theirs;
    if (theirs) {
      const what = last && last.color === req.by ? ` (${last.description})` : '';
      notice = `${cap(req.by)} asks to take back their last turn${what}.`;
    } else if (pending) {
      notice = `You asked ${cap(other(side))} to take back your last turn: waiting for the answer.`;
    } else if (asking && declined && !this.said) {
      notice = `${cap(other(side))} declined to take back your last turn: it stands.`;
    }

    // The rematch, once the game is over (or aborted).
    const over = g.status !== 'playing' && g.source === 'played';
    const r = g.rematch || {};
    const offeredByMe = !!r.offered_by && mine.length === 1 && r.offered_by === mine[0];
    const offeredToMe = !!r.offered_by && mine.length > 0 && !mine.includes(r.offered_by);
    b.rematch.hidden = !(over && mine.length && !r.game && !offeredByMe && !offeredToMe);
    b.rematchAccept.hidden = !(over && !r.game && offeredToMe);
    b.rematchWithdraw.hidden = !(over && !r.game && offeredByMe);
    b.rematchGo.hidden = !(over && r.game && mine.length);
    this.watchRematch.hidden = !(over && r.game && !mine.length);
    if (r.game) this.watchRematch.setAttribute('href', `/game/${encodeURIComponent(r.game)}`);
    if (over && !notice) {
      if (this.going) notice = 'Going to the rematch…';
      else if (r.game) notice = mine.length ? 'The rematch has started.' : 'This game has a rematch.';
      else if (offeredByMe) notice = `Rematch offered — waiting for ${cap(other(mine[0]))} to accept.`;
      else if (offeredToMe) {
        const you = mine.length === 1 ? `: you would play ${cap(r.offered_by)}` : '';
        notice = `${cap(r.offered_by)} offers a rematch, colours swapped${you}.`;
      }
    }
    for (const x of Object.values(b)) x.disabled = this.busy || this.going;
    if (!notice) notice = this.said;
    if (this.notice.textContent !== notice) this.notice.textContent = notice;
    this.notice.hidden = !notice;
    this.answers.hidden = [...this.answers.children].every((x) => x.hidden);
    this.actions.hidden = [...this.actions.children].every((x) => x.hidden);
    this.renderPresence();
  }

  /** The other side's presence, in a game between two people online. */
  renderPresence() {
    const el = this.el.presence;
    const g = this.page.game;
    const side = this.onlineSide();
    if (!side) {
      el.hidden = true;
      return;
    }
    const them = other(side);
    const on = !!(g.connected && g.connected[them]);
    if (on) this.seen[them] = true;
    let text;
    if (on) text = `${cap(them)} is connected.`;
    else if (this.seen[them]) text = `${cap(them)} has left the game (disconnected).`;
    else text = `${cap(them)} is not connected.`;
    el.hidden = false;
    el.dataset.connected = String(on);
    if (el.textContent.slice(2) !== text) {
      // A filled or a hollow dot, besides the words (not colour alone).
      setChildren(el, h('span', { class: 'presence-dot', 'aria-hidden': 'true' }, on ? '●' : '○'), ' ', text);
    }
  }

  // ---- actions ----

  /** Runs `fn` in the page's queue, with the buttons disabled meanwhile;
   * an error goes to the message area. */
  act(fn) {
    const page = this.page;
    return page.enqueue(async () => {
      this.busy = true;
      this.render();
      try {
        await fn();
        page.message('');
      } catch (e) {
        page.message(e.message || String(e));
        // A stale page (409): shows the game as it is.
        if (e.status === 409) {
          try { page.onGame(await api.getGame(page.id)); } catch (_) { /* the message stays */ }
        }
      } finally {
        this.busy = false;
        page.render();
        this.keepFocus();
      }
    });
  }

  /** A button pressed that is now hidden hands the focus to the notice. */
  keepFocus() {
    const a = document.activeElement;
    const lost = !a || a === document.body || (this.el.etiquette.contains(a) && (a.hidden || a.disabled));
    if (lost && this.notice.textContent) this.notice.focus();
  }

  /** Ends the game with no result, after a confirmation. */
  abort() {
    const page = this.page;
    const side = this.abortSide();
    if (!side) return page.message('A game is aborted only before your first turn: resign instead.');
    askConfirm({
      id: 'confirm-abort',
      question: 'Abort this game?',
      detail: 'It ends with no result: nobody wins, and no rating changes. This cannot be taken back.',
      yes: 'Yes, abort',
    }).then((ok) => {
      if (!ok) return;
      this.act(async () => {
        const token = page.tokenFor(this.abortSide() || side);
        page.onGame(await api.abort(page.id, token));
        this.said = 'You aborted the game: no result, and no rating changes.';
      });
    });
  }

  /** Asks the other person to take back this side's last turn. */
  requestUndo() {
    const page = this.page;
    this.act(async () => {
      const side = this.onlineSide();
      if (!side) return;
      page.onGame(await api.undoRequest(page.id, page.game.turn_number, page.tokenFor(side)));
    });
  }

  /** Accepts or declines the other side's undo request. */
  answerUndo(accept) {
    const page = this.page;
    this.act(async () => {
      const side = this.onlineSide();
      if (!side) return;
      const game = await api.undoAnswer(page.id, accept, page.tokenFor(side));
      page.onGame(game);
      const them = cap(other(side));
      this.said = accept ? `You accepted: ${them}'s last turn is taken back.` : `You declined: ${them}'s turn stands.`;
    });
  }

  /**
   * Offers a rematch, or accepts the other side's (against the AI it starts
   * at once); a page playing both sides offers with one and accepts with the
   * other. Once it starts, the page keeps its sides' secrets and goes there.
   */
  rematch() {
    const page = this.page;
    this.act(async () => {
      const sides = page.mySides();
      const seats = {};
      let started = false;
      for (const c of sides) {
        const answer = await api.rematch(page.id, page.tokenFor(c));
        if (answer && answer.game) {
          seats[c] = answer;
          started = true;
        }
      }
      if (!started) {
        // Offered: the other side's page shows the offer; this one goes to
        // the rematch when it starts (its game in a live update).
        this.wantRematch = true;
        page.onGame(await api.getGame(page.id));
        return;
      }
      for (const c of sides) {
        if (!seats[c]) seats[c] = await api.getRematch(page.id, page.tokenFor(c));
      }
      this.enter(Object.values(seats));
    });
  }

  /** Withdraws this page's rematch offer (before the other side accepts it). */
  withdrawRematch() {
    const page = this.page;
    this.act(async () => {
      const side = page.mySides().find((c) => page.game.rematch && page.game.rematch.offered_by === c);
      if (!side) return;
      this.wantRematch = false;
      page.onGame(await api.withdrawRematch(page.id, page.tokenFor(side)));
      this.said = 'You withdrew your rematch offer.';
    });
  }

  /** Goes to the rematch that started: each side's seat there asked for. */
  goToRematch() {
    const page = this.page;
    if (this.going) return;
    this.going = true;
    this.act(async () => {
      try {
        const seats = [];
        for (const c of page.mySides()) seats.push(await api.getRematch(page.id, page.tokenFor(c)));
        this.enter(seats);
      } catch (e) {
        this.going = false;
        throw e;
      }
    });
  }

  /** Keeps the secrets of the rematch's sides and opens it. */
  enter(seats) {
    if (!seats.length) return;
    const id = seats[0].game;
    const tokens = {};
    for (const s of seats) if (s.game === id) tokens[s.color] = s.token;
    identity.remember(id, tokens);
    this.going = true;
    this.render();
    location.assign(`/game/${encodeURIComponent(id)}`);
  }

  // ---- presence ----

  /** Says the page is open now and every 20 s, and that it closes as it is
   * left (`pagehide`: a `keepalive` request, which outlives the page). */
  startPresence() {
    const page = this.page;
    if (!page.game || page.game.source !== 'played') return;
    const tokens = page.mySides().map((c) => page.tokenFor(c)).filter((t) => t);
    this.presenceTokens = [...new Set(tokens)];
    if (!this.presenceTokens.length) return;
    const send = (present, keepalive) => {
      for (const t of this.presenceTokens) api.presence(page.id, present, t, keepalive).catch(() => {});
    };
    const beat = () => {
      clearInterval(this.timer);
      send(true, false);
      this.timer = setInterval(() => send(true, false), HEARTBEAT_MS);
    };
    this.onHide = () => {
      clearInterval(this.timer);
      send(false, true);
    };
    // Back from the browser's cache of pages: open again.
    this.onShow = (e) => { if (e.persisted && !page.stopped) beat(); };
    addEventListener('pagehide', this.onHide);
    addEventListener('pageshow', this.onShow);
    beat();
  }

  stop() {
    clearInterval(this.timer);
    if (this.onHide) {
      removeEventListener('pagehide', this.onHide);
      removeEventListener('pageshow', this.onShow);
      this.onHide();
      this.onHide = null;
    }
  }
}
