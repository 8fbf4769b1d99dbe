// The chat of a game between two people (docs/web.md, "Etiquette"): the
// lines (`chat` in the game's JSON: its last 100; **Earlier lines** asks
// for those before, `GET …/chat?before=N`), each shown as text (never as HTML),
// a field and Send for a player (`POST …/chat`, with the side's token; the
// server's refusal shown under it), read-only for spectators. A player may
// mute the other side: its lines are hidden, on this browser, for this game
// (kept in localStorage under `sygo.muted`, the games' ids). A line of the
// other side's is announced politely (a live region of its own); one's own
// are not.

import * as api from './api.js';
import { h, cap, other, setChildren } from './dom.js';

/** The longest line the server takes. */
const MAX_CHARS = 500;
const MUTED_KEY = 'sygo.muted';

/** The games whose other side this browser muted. */
function mutedGames() {
  try {
    const ids = JSON.parse(localStorage.getItem(MUTED_KEY) || '[]');
    return Array.isArray(ids) ? ids.filter((x) => typeof x === 'string') : [];
  } catch (e) {
    return [];
  }
}

function keepMuted(id, muted) {
  try {
    const ids = mutedGames().filter((x) => x !== id);
    if (muted) ids.push(id);
    localStorage.setItem(MUTED_KEY, JSON.stringify(ids.slice(-500)));
  } catch (e) {
    // No storage (a private window): muted for this page only.
  }
}

/** "14:05", the time of a line in the browser's time zone. */
function clockTime(at) {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

export class Chat {
  /** `page`: the game page (js/game.js); `el`: the chat's section. */
  constructor(page, el) {
    this.page = page;
    this.el = el;
    /** The lines shown, by number. */
    this.shown = new Map();
    this.muted = mutedGames().includes(page.id);
    this.sending = false;
    this.started = false;
    this.list = h('ol', { class: 'chat-lines', id: 'chat-lines', 'aria-label': 'Chat', 'aria-live': 'off' });
    this.earlier = h('button', { type: 'button', class: 'chat-earlier', id: 'chat-earlier', hidden: true,
      onclick: () => this.loadEarlier() }, 'Earlier lines');
    this.earlierNote = h('p', { class: 'chat-earlier-note small', id: 'chat-earlier-note', role: 'status' });
    this.loading = false;
    /** The side this page writes for, and the other, as last drawn. */
    this.who = { side: null, them: null };
    this.empty = h('p', { class: 'chat-empty small', id: 'chat-empty' }, 'No chat yet.');
    this.muteBox = h('input', { type: 'checkbox', id: 'chat-mute', onchange: (e) => this.setMute(e.target.checked) });
    this.muteText = h('span', {}, 'Mute');
    this.mute = h('label', { class: 'check chat-mute', id: 'chat-mute-label' }, this.muteBox, ' ', this.muteText);
    this.mutedNote = h('p', { class: 'chat-muted-note small', id: 'chat-muted-note', hidden: true });
    this.input = h('input', {
      type: 'text', id: 'chat-input', maxlength: MAX_CHARS, autocomplete: 'off',
      'aria-describedby': 'chat-help chat-error',
    });
    this.send = h('button', { type: 'submit', id: 'chat-send' }, 'Send');
    this.error = h('p', { class: 'chat-error', id: 'chat-error', role: 'alert' });
    this.form = h('form', { class: 'chat-form', id: 'chat-form', onsubmit: (e) => { e.preventDefault(); this.submit(); } },
      h('label', { for: 'chat-input', class: 'chat-label' }, 'Your message'),
      h('div', { class: 'chat-row' }, this.input, this.send),
      h('p', { class: 'small chat-help', id: 'chat-help' },
        `Up to ${MAX_CHARS} characters, seen by your opponent and by spectators.`),
      this.error);
    this.readOnly = h('p', { class: 'small', id: 'chat-read-only', hidden: true }, 'The players’ chat: only they can write.');
    this.live = h('div', { class: 'visually-hidden', id: 'chat-announce', 'aria-live': 'polite', 'aria-atomic': 'true' });
    setChildren(el, h('h2', { id: 'chat-title' }, 'Chat'), this.mute, this.mutedNote, this.earlier,
      this.earlierNote, this.list, this.empty, this.readOnly, this.form, this.live);
  }

  /** The side this page writes for: the one it plays in a game between
   * two people, or null (spectators, a page playing both sides). */
  side() {
    const page = this.page;
    const sides = page.mySides();
    return sides.length === 1 && page.tokenFor(sides[0]) ? sides[0] : null;
  }

  /** Shows the lines of `game` not shown yet (lines are only ever added). */
  update(game) {
    const people = game.source === 'played' && game.black.kind === 'human' && game.white.kind === 'human';
    const lines = game.chat || [];
    const side = people ? this.side() : null;
    this.el.hidden = !people || (!side && !lines.length);
    if (this.el.hidden) return;
    const them = side ? other(side) : null;
    this.who = { side, them };
    const atEnd = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 8;
    let added = false;
    for (const line of lines) {
      if (this.shown.has(line.number)) continue;
      this.list.append(this.item(line));
      added = true;
      // The other side's new lines are read out; one's own, and those
      // there when the page opened, are not.
      if (this.started && side && line.color === them && !this.muted) this.say(`${cap(them)} says: ${line.text}`);
    }
    this.started = true;
    if (added && (atEnd || lines[lines.length - 1].color === side)) this.list.scrollTop = this.list.scrollHeight;
    this.form.hidden = !side;
    this.readOnly.hidden = !!side;
    this.mute.hidden = !side;
    if (side) this.muteText.textContent = `Mute ${cap(them)}`;
    this.muteBox.checked = this.muted;
    this.renderMuted(them);
    this.renderEarlier();
  }

  /** A line as the list shows it (kept in `shown`). */
  item(line) {
    const { side, them } = this.who;
    const who = h('strong', { class: 'chat-who' });
    who.textContent = line.color === side ? 'You' : cap(line.color);
    const text = h('span', { class: 'chat-text' });
    text.textContent = line.text; // text, never HTML
    const li = h('li', { class: `chat-line ${line.color}`, 'data-chat': line.number, 'data-color': line.color },
      h('span', { class: `stone-icon ${line.color}`, 'aria-hidden': 'true' }), ' ', who, ': ', text,
      h('time', { class: 'small chat-at', datetime: line.at }, ` ${clockTime(line.at)}`));
    li.hidden = this.muted && line.color === them;
    this.shown.set(line.number, li);
    return li;
  }

  /** The number of the first line shown (Infinity for none). */
  firstShown() {
    return Math.min(...this.shown.keys());
  }

  /** **Earlier lines** while lines before the first shown are left. */
  renderEarlier() {
    const first = this.firstShown();
    const left = Number.isFinite(first) ? first - 1 : 0;
    this.earlier.hidden = left <= 0;
    this.earlier.textContent = left === 1 ? 'Earlier lines (1 more)' : `Earlier lines (${left} more)`;
  }

  /** The lines before the first shown, asked of the server (as many as a
   * game's JSON carries), put above it; the list keeps its place. */
  async loadEarlier() {
    const first = this.firstShown();
    if (this.loading || !Number.isFinite(first) || first <= 1) return;
    this.loading = true;
    this.earlier.disabled = true;
    this.earlierNote.textContent = 'Loading earlier lines…';
    try {
      const answer = await api.chatLines(this.page.id, first);
      const lines = (answer.chat || []).filter((l) => l.number < first && !this.shown.has(l.number));
      const height = this.list.scrollHeight;
      const top = this.list.firstChild;
      for (const line of lines) this.list.insertBefore(this.item(line), top);
      this.list.scrollTop += this.list.scrollHeight - height;
      this.earlierNote.textContent = lines.length === 1 ? '1 earlier line shown.' : `${lines.length} earlier lines shown.`;
      this.renderMuted(this.who.them);
    } catch (e) {
      this.earlierNote.textContent = `The earlier lines cannot be shown now: ${e.message}`;
    } finally {
      this.loading = false;
      this.earlier.disabled = false;
      this.renderEarlier();
      // The button gone with the last of them: the focus to the list's first line.
      if (this.earlier.hidden && (document.activeElement === document.body || document.activeElement === this.earlier)) {
        const firstLine = this.list.firstElementChild;
        if (firstLine) {
          firstLine.tabIndex = -1;
          firstLine.focus();
        }
      }
    }
  }

  renderMuted(them) {
    const hidden = them ? [...this.shown.values()].filter((li) => li.dataset.color === them).length : 0;
    const muted = this.muted && !!them;
    this.mutedNote.hidden = !muted;
    this.mutedNote.textContent = muted
      ? `${cap(them)} is muted: ${hidden} line${hidden === 1 ? '' : 's'} hidden.` : '';
    const visible = [...this.shown.values()].some((li) => !li.hidden);
    this.empty.hidden = visible;
    this.empty.textContent = this.shown.size ? 'No line to show.' : 'No chat yet.';
  }

  /** Hides or shows the other side's lines, and remembers it. */
  setMute(muted) {
    const side = this.side();
    if (!side) return;
    this.muted = muted;
    keepMuted(this.page.id, muted);
    const them = other(side);
    for (const li of this.shown.values()) li.hidden = muted && li.dataset.color === them;
    this.renderMuted(them);
  }

  /** Sends the line typed; the server's refusal is shown under the field. */
  async submit() {
    if (this.sending) return;
    const page = this.page;
    const side = this.side();
    if (!side) return;
    const text = this.input.value.trim();
    if (!text) {
      this.error.textContent = 'Write something first.';
      this.input.focus();
      return;
    }
    this.sending = true;
    this.send.disabled = true;
    this.error.textContent = '';
    try {
      const game = await api.chat(page.id, text, page.tokenFor(side));
      this.input.value = '';
      // The line at once; the page's state comes with the live update.
      this.update(game);
    } catch (e) {
      this.error.textContent = e.message;
    } finally {
      this.sending = false;
      this.send.disabled = false;
      const a = document.activeElement;
      if (!a || a === document.body || a === this.send) this.input.focus();
    }
  }

  /** Reads a line out, politely (cleared first, so that a repeated line is read again). */
  say(text) {
    this.live.textContent = '';
    setTimeout(() => { this.live.textContent = text; }, 20);
  }
}
