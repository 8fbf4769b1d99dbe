// An uploaded record beyond its main line, on the game page: the players'
// names and the game's information, the comment of the node shown, and the
// variations (`GET /api/games/{id}/record/tree` in parts, `…/record/node?node=`):
// where the node shown has alternatives, a button for each, steps along a
// variation, and the way back to the main line.
//
// Everything from the record (names, comments, node names) is shown as
// text (textContent, through h()), never as HTML.

import { h, setChildren } from './dom.js';
import { recordTree, recordNode } from './api.js';
import { announce } from './announce.js';

/** The record part of the game page; only for an uploaded game. */
export class RecordTree {
  constructor(page) {
    this.page = page;
    this.tree = null; // {nodes}, every part fetched once
    this.players = null;
    this.el = null;
  }

  /** Whether the page shows an uploaded record. */
  active() {
    return !!(this.page.game && this.page.game.record);
  }

  /** Fetches the tree once, part after part (an uploaded record never changes). */
  async load() {
    if (!this.active() || this.tree) return;
    const nodes = [];
    let from = 0;
    while (from !== null && from !== undefined) {
      const part = await recordTree(this.page.id, from);
      nodes.push(...part.nodes);
      from = part.next;
    }
    this.tree = { nodes };
  }

  /** The elements, made once: the players under the status, the comment and variations above the review. */
  elements() {
    if (this.el) return this.el;
    const page = this.page;
    this.players = h('div', { class: 'record-players', id: 'record-players' });
    page.el.status.after(this.players);
    const comment = h('p', { class: 'record-comment', id: 'record-comment' });
    const variations = h('div', { class: 'record-variations', id: 'record-variations' });
    this.el = h('section', { class: 'record', id: 'record', 'aria-label': 'The record' },
      h('h2', {}, 'Comment'), comment, variations);
    page.el.review.before(this.el);
    this.comment = comment;
    this.variations = variations;
    return this.el;
  }

  /** The tree node shown: the variation's, or the main line's at the turn shown. */
  current() {
    const page = this.page;
    if (!this.tree) return null;
    const nodes = this.tree.nodes;
    if (page.variation) return nodes[page.variation.node] || null;
    const turn = page.shown().shown_turn ?? page.game.turn_number;
    let found = null;
    for (const n of nodes) if (n.main_line && n.turn_number === turn) found = n;
    return found;
  }

  render() {
    if (!this.active()) return;
    this.elements();
    const page = this.page;
    const g = page.game;
    const r = g.record;
    const name = (c) => (g[c] && g[c].name) || r[c];
    const parts = [];
    if (name('black') || name('white')) {
      parts.push(h('p', { class: 'names', id: 'names' },
        h('span', { class: 'stone-icon black', 'aria-hidden': 'true' }), ' ',
        h('strong', { 'data-name': 'black' }, name('black') || 'Black'), ' (Black) against ',
        h('span', { class: 'stone-icon white', 'aria-hidden': 'true' }), ' ',
        h('strong', { 'data-name': 'white' }, name('white') || 'White'), ' (White)'));
    }
    const info = [r.game_name, r.event, r.place, r.date].filter((x) => x);
    if (info.length) parts.push(h('p', { class: 'game-info small', id: 'game-info' }, info.join(' · ')));
    setChildren(this.players, ...parts);

    const node = this.current();
    let text = null;
    if (page.variation) text = page.variation.comment;
    else {
      const turn = page.shown().shown_turn ?? g.turn_number;
      const c = (r.comments || []).find((x) => x.turn === turn);
      text = c ? c.comment : null;
    }
    this.comment.textContent = text || 'No comment here.';
    this.comment.classList.toggle('none', !text);
    this.renderVariations(node);
  }

  renderVariations(node) {
    const page = this.page;
    const nodes = this.tree ? this.tree.nodes : [];
    const parts = [];
    const v = page.variation;
    if (v) {
      parts.push(h('p', { class: 'variation-where', id: 'variation-where' },
        `In a variation, turn ${v.turn_number}${v.last_turn ? `: ${v.last_turn.description}` : ''}`,
        v.name ? ` (${v.name})` : ''));
      const next = v.children[0];
      parts.push(h('div', { class: 'variation-steps', role: 'group', 'aria-label': 'Step along the variation' },
        h('button', { type: 'button', class: 'variation-step', 'data-variation': 'back', onclick: () => this.back() }, '◀ Back'),
        h('button', {
          type: 'button', class: 'variation-step', 'data-variation': 'next', disabled: next ? null : true,
          onclick: () => this.next(),
        }, 'Next ▶'),
        h('button', { type: 'button', class: 'variation-step', 'data-variation': 'main', onclick: () => this.toMainLine() },
          'Back to the main line')));
    }
    const children = node ? node.children.map((i) => nodes[i]) : [];
    if (children.length > 1) {
      parts.push(h('p', { class: 'small' }, `The record has ${children.length} turns from here:`));
      parts.push(h('ul', { class: 'variation-list', id: 'variation-list' },
        ...children.map((child, i) => h('li', {},
          h('button', {
            type: 'button', class: 'variation', 'data-node': child.id,
            onclick: () => this.enter(child.id),
          },
          `${i + 1}. ${child.turn ? child.turn.description : 'A node without a turn.'}`,
          child.main_line ? ' (main line)' : '',
          child.name ? ` — ${child.name}` : '')))));
    }
    setChildren(this.variations, ...parts);
  }

  /** Shows node number `number`: the main line's turn, or a variation's node. */
  enter(number) {
    const page = this.page;
    const node = this.tree && this.tree.nodes[number];
    if (node && node.main_line) return page.goTo(node.turn_number);
    return page.enqueue(async () => {
      const at = await recordNode(page.id, number);
      at.shown_turn = at.turn_number;
      if (page.reviewTurn === null) page.reviewTurn = page.game.turn_number;
      page.variation = at;
      page.clearAi();
      page.startFlip({ id: `${page.id}:${number}`, shown_turn: at.turn_number });
      const words = at.last_turn ? at.last_turn.description : 'The start.';
      page.el.lastTurnText.textContent = words;
      announce(`Variation, turn ${at.turn_number}. ${words}${at.comment ? ` Comment: ${at.comment}` : ''}`);
      const focused = document.activeElement && this.el.contains(document.activeElement);
      page.render();
      // The button pressed may be gone: the keyboard's focus stays in the
      // variation's controls.
      if (focused && !this.el.contains(document.activeElement)) {
        const again = this.el.querySelector('[data-variation="next"]:not([disabled])') ||
          this.el.querySelector('[data-variation="back"]');
        if (again) again.focus();
      }
    });
  }

  /** One node back along the variation (to the main line at its fork). */
  back() {
    const v = this.page.variation;
    if (!v) return;
    this.enter(v.parent_node ?? 0);
  }

  /** One node on along the variation (its first child). */
  next() {
    const v = this.page.variation;
    if (v && v.children[0]) this.enter(v.children[0].node);
  }

  /** Back to the main line, at the turn where the variation left it. */
  toMainLine() {
    const page = this.page;
    const v = page.variation;
    if (!v) return;
    // The main line's node the variation left it at: its nearest ancestor
    // on the main line.
    const nodes = this.tree.nodes;
    let at = nodes[v.node];
    while (at && !at.main_line) at = at.parent === null ? null : nodes[at.parent];
    page.goTo(at ? at.turn_number : 0);
  }
}
