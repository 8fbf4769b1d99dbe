// Conditional turns on the game page (docs/web.md, "Conditional turns on
// the page"): in a game between two people of which this page plays one
// side, while the other side is to move, the player plans answers in
// advance — "if White plays B2, I answer C2", with follow-ups under each
// line — saved on the server (`PUT /api/games/{id}/conditional`), shown as
// saved (`GET`), cleared (`DELETE`); a plan the rules refuse is not saved,
// and the server's reason is shown (422), the focus on the field it names
// (the error's `branch` and `field`, not its words).
//
// A turn is typed as the protocol writes it (`D4`, a growth turn `D5,F7`,
// `pass`), or clicked on the board: once a field of the plan has been used
// (until the plan is saved), a click (a tap, Enter on the keyboard's
// cursor) on a point writes it into that field, marked, and a second click
// takes it out; the board plays nothing then (it is not this page's turn).
// Otherwise a click says whose turn it is, as ever.
//
// When the other side plays, the answer that fired arrives as any turn does
// (live updates) and the panel shows what is left of the plan (asked again
// at each new turn); a turn the plan did not foresee clears it.

import * as api from './api.js';
import { h, cap, other, setChildren } from './dom.js';
import { announce } from './announce.js';

/** A line of the editor: `{if, then, next: [line…]}` (strings as typed). */
const line = (b = {}) => ({ if: b.if || '', then: b.then || '', next: (b.next || []).map(line) });

/** A turn as the server takes it: upper case, no spaces, `pass` as is. */
function normal(text) {
  const t = String(text || '').trim();
  if (/^pass$/i.test(t)) return 'pass';
  return t.split(',').map((x) => x.trim().toUpperCase()).filter(Boolean).join(',');
}

/** A path of the editor (`[0, 1]`) as people number it ("1.2") and as ids use it ("0-1"). */
const number = (path) => path.map((i) => i + 1).join('.');
const pathId = (path) => path.join('-');

export class Plan {
  /** `page`: the game page (js/game.js). */
  constructor(page) {
    this.page = page;
    this.side = null;
    /** The plan as the server keeps it, and as being edited. */
    this.saved = [];
    this.lines = [];
    this.dirty = false;
    /** The id of the field a board click writes into. */
    this.target = null;
    /** The game state the plan was asked for; answers for an older one are dropped. */
    this.key = null;
    this.gen = 0;
    this.busy = false;
    /** The tree last sent: each branch's path (`"0-1"`) to its line's in
     * the editor. */
    this.sentPaths = null;
    this.build();
  }

  // ---- the elements ----

  build() {
    const el = this.el = {};
    el.intro = h('p', { class: 'small', id: 'plan-intro' });
    el.saved = h('div', { class: 'plan-saved', id: 'plan-saved', role: 'status' });
    el.lines = h('ul', { class: 'plan-lines', id: 'plan-lines', 'aria-label': 'Your planned answers' });
    el.lines.addEventListener('focusin', (e) => {
      if (e.target.matches('input[data-plan-field]')) this.setTarget(e.target.id);
    });
    el.lines.addEventListener('input', (e) => {
      const input = e.target;
      if (!input.matches('input[data-plan-field]')) return;
      const l = this.lineAt(input.dataset.planPath);
      if (l) l[input.dataset.planField] = input.value;
      this.changed();
    });
    el.add = h('button', { type: 'button', id: 'plan-add', onclick: () => this.addLine(null) }, 'Add an answer');
    el.save = h('button', { type: 'button', class: 'primary', id: 'plan-save', onclick: () => this.save() }, 'Save plan');
    el.clear = h('button', { type: 'button', id: 'plan-clear', onclick: () => this.clear() }, 'Clear plan');
    el.unsaved = h('p', { class: 'plan-unsaved small', id: 'plan-unsaved' });
    el.message = h('p', { class: 'form-message', id: 'plan-message', role: 'alert' });
    el.target = h('p', { class: 'plan-target small', id: 'plan-target' });
    // What the last click on the board wrote (also said to screen readers).
    el.said = h('p', { class: 'plan-said', id: 'plan-said' });
    el.help = h('p', { class: 'small', id: 'plan-help' });
    el.editor = h('div', { class: 'plan-editor', id: 'plan-editor', hidden: true },
      el.saved,
      h('h3', { class: 'plan-edit-title' }, 'Edit the plan'),
      el.lines, el.said, el.target,
      h('p', { class: 'plan-buttons' }, el.add, el.save, el.clear),
      el.unsaved, el.message, el.help);
    el.section = h('section', { class: 'plan', id: 'plan', hidden: true, 'aria-labelledby': 'plan-title' },
      h('h2', { id: 'plan-title' }, 'Plan answers (conditional turns)'),
      el.intro, el.editor);
    const panel = this.page.root.querySelector('.panel');
    const after = panel && panel.querySelector('.ai-tools');
    if (after) after.after(el.section);
    else if (panel) panel.append(el.section);
  }

  stop() {
    this.gen++;
    this.key = null;
  }

  // ---- the game changed ----

  /** A game received (an answer, a live update): shown, hidden, asked again. */
  update(game) {
    const page = this.page;
    const sides = game.status === 'playing' && game.source !== 'uploaded' ? page.mySides() : [];
    const side = sides.length === 1 ? sides[0] : null;
    if (!side || !game[other(side)] || game[other(side)].kind !== 'human' || !page.tokenFor(side)) {
      this.el.section.hidden = true;
      this.key = null;
      this.gen++;
      return;
    }
    this.side = side;
    this.el.section.hidden = false;
    const key = `${game.turn_number}:${game.undos || 0}:${game.to_move}`;
    if (key === this.key) return;
    const before = this.key;
    this.key = key;
    this.gen++;
    const dropped = before !== null && this.dirty;
    const them = cap(other(side));
    if (game.to_move === side) {
      this.el.intro.textContent = `It is your turn: play it. While ${them} is to move, you can plan your answers ` +
        'to their turn here, and each is played for you as soon as they play the turn you foresaw.';
      this.el.editor.hidden = true;
      this.setSaved([]);
      if (dropped) this.el.intro.textContent += ' (Your unsaved plan was of the position before.)';
      return;
    }
    this.el.intro.textContent = `While ${them} is to move, plan your answers: if they play a turn you foresee, your ` +
      'answer is played at once, even while you are away. Only you see your plan.';
    this.el.help.textContent = `Write a turn as the board names its points: D4, a growth turn D5,F7, or pass. Or ` +
      `${page.touch ? 'tap' : 'click'} the board: the point goes into the field marked, and ` +
      `${page.touch ? 'tapped' : 'clicked'} again it comes out.`;
    this.el.editor.hidden = false;
    this.el.unsaved.textContent = '';
    this.message(dropped ? 'The game moved on: your unsaved changes were of the position before, and are dropped.' : '');
    this.load();
  }

  /** Asks the server for the side's plan. */
  async load() {
    const gen = this.gen;
    this.el.saved.textContent = 'Loading your plan…';
    try {
      const answer = await api.getConditional(this.page.id, this.page.tokenFor(this.side));
      if (gen !== this.gen) return;
      this.setSaved(answer.tree || []);
    } catch (e) {
      if (gen !== this.gen) return;
      this.el.saved.textContent = '';
      this.message(`Your plan cannot be shown now: ${e.message}`);
    }
  }

  /** The plan as saved; the editor shows it again. */
  setSaved(tree) {
    this.saved = tree.map(line);
    this.lines = tree.map(line);
    this.dirty = false;
    this.target = null;
    this.render();
  }

  // ---- editing ----

  lineAt(id) {
    if (id === undefined || id === null || id === '') return null;
    let list = this.lines, found = null;
    for (const i of String(id).split('-').map(Number)) {
      found = list[i];
      if (!found) return null;
      list = found.next;
    }
    return found;
  }

  /** A new line at the top (`parent` null) or as a follow-up; the focus to
   * its first field. */
  addLine(parent) {
    const list = parent === null ? this.lines : (this.lineAt(parent) || {}).next;
    if (!list) return;
    list.push(line());
    const id = parent === null ? String(list.length - 1) : `${parent}-${list.length - 1}`;
    this.changed();
    this.render();
    const input = document.getElementById(`plan-if-${id}`);
    if (input) input.focus();
  }

  removeLine(id) {
    const parts = id.split('-').map(Number);
    const last = parts.pop();
    const list = parts.length ? (this.lineAt(parts.join('-')) || {}).next : this.lines;
    if (!list) return;
    list.splice(last, 1);
    this.target = null;
    this.changed();
    this.render();
    announce(`Line ${number([...parts, last])} removed.`);
    this.el.add.focus();
  }

  changed() {
    this.dirty = JSON.stringify(this.lines) !== JSON.stringify(this.saved);
    this.renderState();
  }

  setTarget(id) {
    if (id !== this.target) this.el.said.textContent = '';
    this.target = id;
    for (const e of this.el.lines.querySelectorAll('input[data-plan-field]')) {
      e.classList.toggle('plan-field-target', e.id === id);
    }
    this.renderTarget();
  }

  /**
   * A click on the board while it is not this page's turn: the point into
   * the plan's field marked (the one last used, while the plan is being
   * edited). Returns whether the plan took it; if not, the page says whose
   * turn it is, as ever.
   */
  takePoint(point) {
    if (this.el.section.hidden || this.el.editor.hidden || this.busy) return false;
    const input = this.target && document.getElementById(this.target);
    if (!input) return false;
    const stones = normal(input.value).split(',').filter((x) => x && x !== 'pass');
    const at = stones.indexOf(point);
    if (at >= 0) stones.splice(at, 1);
    else stones.push(point);
    input.value = stones.join(',');
    const l = this.lineAt(input.dataset.planPath);
    if (l) l[input.dataset.planField] = input.value;
    this.changed();
    const said = `${point} ${at >= 0 ? 'taken out of' : 'written in'} ${this.fieldName(input)}: ` +
      `${input.value || 'empty'}.`;
    this.page.message('');
    this.el.said.textContent = said;
    announce(said);
    return true;
  }

  /** A field in words: "line 1.2, White's turn". */
  fieldName(input) {
    const path = input.dataset.planPath.split('-').map(Number);
    const them = cap(other(this.side));
    return `line ${number(path)}, ${input.dataset.planField === 'if' ? `${them}'s turn` : 'your answer'}`;
  }

  /** The editor's lines as the server takes them, or null (said, and the
   * focus on the field at fault) when one is half written. Where each
   * branch sent comes from (empty lines are left out) is kept in
   * `sentPaths`, for a refusal that names a branch. */
  collect() {
    const where = new Map();
    const walk = (lines, path, sent) => {
      const out = [];
      for (const [i, l] of lines.entries()) {
        const p = [...path, i];
        const at = [...sent, out.length];
        const next = walk(l.next, p, at);
        if (next === null) return null;
        const when = normal(l.if), then = normal(l.then);
        if (!when && !then && !next.length) continue; // an empty line: left out
        if (!when || !then) {
          const field = !when ? 'if' : 'then';
          this.message(`Line ${number(p)}: write ${!when ? `${cap(other(this.side))}'s turn` : 'your answer'} too.`);
          const input = document.getElementById(`plan-${field}-${pathId(p)}`);
          if (input) input.focus();
          return null;
        }
        where.set(pathId(at), p);
        out.push(next.length ? { if: when, then, next } : { if: when, then });
      }
      return out;
    };
    const tree = walk(this.lines, [], []);
    this.sentPaths = where;
    return tree;
  }

  async save() {
    if (this.busy || this.el.editor.hidden) return;
    this.message('');
    const tree = this.collect();
    if (tree === null) return;
    await this.send(tree.length ? 'PUT' : 'DELETE', tree);
  }

  async clear() {
    if (this.busy || this.el.editor.hidden) return;
    this.message('');
    await this.send('DELETE', []);
  }

  async send(method, tree) {
    const page = this.page;
    const token = page.tokenFor(this.side);
    this.busy = true;
    this.renderState();
    try {
      let saved = [];
      if (method === 'PUT') saved = (await api.putConditional(page.id, token, tree)).tree || [];
      else await api.deleteConditional(page.id, token);
      this.setSaved(saved);
      const said = saved.length ? `Your plan is saved: ${count(saved)}.` : 'Your plan is cleared.';
      this.message('');
      this.el.unsaved.textContent = said;
      announce(said);
    } catch (e) {
      this.message(`Not saved: ${e.message}`);
      if (e.status === 422) this.focusRefused(e.details);
    } finally {
      this.busy = false;
      this.renderState();
    }
  }

  /** The focus on the field a refusal names: the server's error gives the
   * branch sent (`branch`, its index at each level) and the turn at fault
   * (`field`: `if`, `then`, or null for the branch as a whole). */
  focusRefused(details) {
    if (!details || !Array.isArray(details.branch) || !this.sentPaths) return;
    const path = this.sentPaths.get(pathId(details.branch));
    if (!path) return;
    const field = details.field === 'then' ? 'then' : 'if';
    const input = document.getElementById(`plan-${field}-${pathId(path)}`);
    if (input) {
      input.focus();
      input.select();
    }
  }

  message(text) {
    this.el.message.textContent = text || '';
  }

  // ---- drawing ----

  render() {
    this.renderSaved();
    this.el.said.textContent = '';
    const focused = document.activeElement;
    const keep = focused && this.el.lines.contains(focused) ? focused.id || null : null;
    setChildren(this.el.lines, ...this.lines.map((l, i) => this.lineItem(l, [i])));
    if (keep) {
      const again = document.getElementById(keep);
      if (again) again.focus();
    }
    if (this.target && !document.getElementById(this.target)) this.target = null;
    if (this.target) this.setTarget(this.target);
    this.renderState();
  }

  lineItem(l, path) {
    const id = pathId(path);
    const them = cap(other(this.side));
    const field = (kind, label, value) => {
      const inputId = `plan-${kind}-${id}`;
      return h('span', { class: 'plan-field' },
        h('label', { for: inputId }, label),
        h('input', {
          type: 'text', id: inputId, value, 'data-plan-field': kind, 'data-plan-path': id,
          autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false', size: 8,
          placeholder: kind === 'if' ? 'D4' : 'E5',
        }));
    };
    return h('li', { class: 'plan-line', 'data-plan-line': id },
      h('p', { class: 'plan-pair' },
        h('span', { class: 'plan-number', 'aria-hidden': 'true' }, number(path)),
        field('if', path.length > 1 ? `then if ${them} plays` : `If ${them} plays`, l.if),
        field('then', 'you answer', l.then)),
      h('p', { class: 'plan-line-buttons' },
        h('button', {
          type: 'button', 'data-plan-follow': id, 'aria-label': `Add a follow-up to line ${number(path)}`,
          onclick: () => this.addLine(id),
        }, 'Add follow-up'),
        h('button', {
          type: 'button', 'data-plan-remove': id, 'aria-label': `Remove line ${number(path)}`,
          onclick: () => this.removeLine(id),
        }, 'Remove')),
      l.next.length ? h('ul', { class: 'plan-lines' }, ...l.next.map((n, i) => this.lineItem(n, [...path, i]))) : null);
  }

  /** The plan as the server keeps it, each line in words. */
  renderSaved() {
    const them = cap(other(this.side || 'black'));
    const lines = [];
    const walk = (list, said) => {
      for (const b of list) {
        const here = `${said ? `${said}; then if` : 'If'} ${them} plays ${b.if}, you answer ${b.then}`;
        if (b.next.length) walk(b.next, here);
        else lines.push(`${here}.`);
      }
    };
    walk(this.saved, '');
    if (!lines.length) {
      setChildren(this.el.saved, h('p', { class: 'plan-saved-none' }, 'No answers planned.'));
      return;
    }
    setChildren(this.el.saved,
      h('p', {}, `Saved plan (${count(this.saved)}):`),
      h('ul', { class: 'plan-saved-lines' }, ...lines.map((t) => h('li', {}, t))));
  }

  renderState() {
    const el = this.el;
    el.save.disabled = this.busy;
    el.clear.disabled = this.busy || (!this.saved.length && !this.lines.length);
    el.add.disabled = this.busy;
    if (this.dirty) el.unsaved.textContent = 'Unsaved changes: press Save plan to keep them.';
    else if (el.unsaved.textContent.startsWith('Unsaved')) el.unsaved.textContent = '';
    this.renderTarget();
  }

  renderTarget() {
    const input = this.target && document.getElementById(this.target);
    const verb = this.page.touch ? 'Tapping' : 'Clicking';
    this.el.target.textContent = input
      ? `${verb} the board writes into ${this.fieldName(input)}.`
      : `${verb} the board writes into the field you were in last: press Add an answer, or choose a field.`;
  }
}

/** "1 answer", "3 answers": every line of a plan, follow-ups included. */
function count(tree) {
  const n = tree.reduce(function add(acc, b) { return acc + 1 + (b.next || []).reduce(add, 0); }, 0);
  return n === 1 ? '1 answer' : `${n} answers`;
}
