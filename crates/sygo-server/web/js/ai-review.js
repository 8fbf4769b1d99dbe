// The AI's review of the game in the page (docs/web.md, review): the
// "Review with the AI" button (`POST /api/games/{id}/review`), where the
// review stands (queued, its progress), the graph (js/graph.js), the AI's
// view of the turn shown in words, its best turn and its ownership for the
// board (js/board-view.js), and the record with the review to download.
//
// Progress comes by polling `GET /api/games/{id}/review?from=N` once a
// second while the review waits or runs (only the positions not yet held
// are sent); a new turn or an undo in the game reads it whole again.

import * as api from './api.js';
import { h, setChildren } from './dom.js';
import { announce } from './announce.js';
import { renderGraph, positionWords } from './graph.js';

const POLL_MS = 1000;

export class AiReview {
  /** `page`: the game page (js/game.js); its `el.aiReview` is filled here. */
  constructor(page) {
    this.page = page;
    this.status = null; // the last answer, without its positions
    this.positions = new Map(); // turn → reviewed position
    this.points = [];
    this.timer = null;
    this.stopped = false;
    const el = page.el.aiReview;
    this.button = h('button', { type: 'button', id: 'review-button', onclick: () => this.request() }, 'Review with the AI');
    // Not a live region: the progress changes every second; the queueing
    // and the end are announced instead.
    this.statusText = h('p', { class: 'review-status', id: 'review-status' });
    this.graph = h('div', { class: 'review-graph', id: 'review-graph' });
    this.atTurn = h('p', { class: 'review-at-turn', id: 'review-at-turn' });
    this.ownershipBox = h('input', {
      type: 'checkbox', id: 'review-ownership', checked: page.showOwnership ? true : null,
      onchange: (e) => {
        page.showOwnership = e.target.checked;
        page.renderBoard();
        announce(page.showOwnership ? 'Ownership shown.' : 'Ownership hidden.');
      },
    });
    this.ownershipLabel = h('label', { class: 'check' }, this.ownershipBox, ' Show the AI\'s ownership');
    this.download = h('a', {
      class: 'download', id: 'review-download', href: `${api.recordUrl(page.id)}?analysis=1`,
      download: `sygo-${page.id}-review.sgf`,
    }, 'Download the record with the review (SGF)');
    setChildren(el,
      h('h2', {}, 'The AI\'s review'),
      h('div', { class: 'review-row' }, this.button, this.ownershipLabel),
      this.statusText, this.graph, this.atTurn, this.download);
  }

  /** Reads where the review stands (all of it when `whole`). */
  async refresh(whole = false) {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const from = whole ? 0 : this.known();
    let answer;
    try {
      answer = await api.getReview(this.page.id, from);
    } catch (e) {
      this.statusText.textContent = `The review cannot be read: ${e.message}`;
      this.schedule();
      return;
    }
    if (whole) this.positions.clear();
    for (const p of answer.positions) this.positions.set(p.turn, p);
    this.points = answer.points;
    const before = this.status && this.status.status;
    this.status = answer;
    if (answer.status === 'done' && (before === 'running' || before === 'queued')) {
      announce(`The AI's review is done: ${answer.positions_done} positions.`);
      if (!whole) return this.refresh(true);
    }
    this.schedule();
    this.render();
    this.page.renderBoard();
  }

  /** Positions held from the start without a gap. */
  known() {
    let n = 0;
    while (this.positions.has(n)) n++;
    return n;
  }

  schedule() {
    clearTimeout(this.timer);
    const s = this.status && this.status.status;
    if (!this.stopped && (s === 'queued' || s === 'running')) {
      this.timer = setTimeout(() => this.refresh(), POLL_MS);
    }
  }

  /** The game changed (a turn, an undo): the review is read again. */
  onGameChanged() {
    if (this.status && this.status.status !== 'none') this.refresh(true);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Asks for the review (the button). */
  async request() {
    this.button.disabled = true;
    try {
      const answer = await api.requestReview(this.page.id);
      this.status = answer;
      announce('The AI\'s review is queued.');
    } catch (e) {
      this.statusText.textContent = `No review: ${e.message}`;
      this.button.disabled = false;
      return;
    }
    this.render();
    this.refresh();
  }

  /** The reviewed position after `turn` turns of the main line, if any
   * (none while a record's variation is shown: only the main line is
   * reviewed). */
  at(turn) {
    if (this.page.variation) return null;
    return this.positions.get(turn) || null;
  }

  /** The stones of the AI's best turn at `turn` (none where not reviewed). */
  bestAt(turn) {
    const p = this.at(turn);
    return p && p.best && p.best !== 'pass' ? p.best.split(',') : [];
  }

  /** The ownership at `turn` by point name, if reviewed. */
  ownershipAt(turn) {
    const p = this.at(turn);
    if (!p || !p.ownership) return null;
    const map = {};
    this.points.forEach((name, i) => { map[name] = p.ownership[i]; });
    return map;
  }

  /** Draws the review's part of the page for the turn shown. */
  render() {
    const st = this.status;
    const page = this.page;
    const shown = page.shownTurn();
    const total = page.game.turn_number;
    const s = st ? st.status : 'none';
    const done = st ? st.positions_done : 0;
    const all = st ? st.positions_total : total + 1;
    let label = 'Review with the AI';
    let text = 'The AI analyses every position of the game in the background; you may leave the page meanwhile.';
    if (s === 'queued') {
      label = 'Review queued';
      const ahead = st.queue_position;
      text = `Queued: ${ahead} review${ahead === 1 ? '' : 's'} ahead of this one.`;
    } else if (s === 'running') {
      label = 'Reviewing…';
      text = `The AI is reviewing: ${done} of ${all} positions.`;
    } else if (s === 'done') {
      label = done >= all ? 'Reviewed' : 'Review the new turns';
      text = done >= all
        ? `Reviewed: ${all} positions, ${st.visits_per_position} visits each.`
        : `Reviewed: ${done} of ${all} positions; the new turns are not.`;
    }
    setText(this.button, label);
    this.button.disabled = s === 'queued' || s === 'running' || (s === 'done' && done >= all);
    setText(this.statusText, text);
    const positions = [...this.positions.values()].filter((p) => p.turn <= total).sort((a, b) => a.turn - b.turn);
    this.graph.hidden = positions.length === 0;
    if (positions.length) {
      keepFocusOn(this.graph, () => renderGraph(this.graph, {
        positions, total, shown, select: (turn) => page.goTo(turn),
      }));
    }
    const p = this.at(shown);
    setText(this.atTurn, p ? `At turn ${shown}: ${positionWords(p)}` : '');
    this.download.hidden = done === 0;
    this.ownershipLabel.hidden = positions.length === 0 && !page.analysis;
    this.ownershipBox.checked = page.showOwnership;
  }
}

/** Redraws and gives the focus back to the graph if it had it. */
function keepFocusOn(container, draw) {
  const had = container.contains(document.activeElement);
  const slider = draw();
  if (had && slider) slider.focus();
}

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
