// The rules tutorial (/learn): the lessons of lessons.json, one step at a
// time. Each step shows its explanation and its position; the learner plays
// the step on the board (tap or click a point, or the keys of keyboard.js).
// Every stone is asked of the server (POST /api/position/steps): a stone the
// rules refuse is refused with the rules' own reason; the finished turn is
// played there too (POST /api/position/turns), and goal.js compares it with
// what the step asks: met, the step is done; missed, the step's hint says
// why. Progress is kept by the browser (progress.js).

import { h, cap, setChildren, listPoints } from '../dom.js';
import { Board } from '../board.js';
import { attachKeyboard } from '../keyboard.js';
import { announce, announceCursor } from '../announce.js';
import { api } from '../api.js';
import * as rules from './rules.js';
import { missedHint } from './goal.js';
import * as progress from './progress.js';

const LESSONS_URL = '/static/js/tutorial/lessons.json';
const STYLE_URL = '/static/tutorial.css';
/** How long a reversed stone takes to turn over (style.css: .stone.flip). */
const FLIP_MS = 900;

const KEYS_SQUARE = 'Keys: arrows move the cursor; Enter or Space plays a stone there (again on a stone of this turn takes it back); ' +
  'F finishes the turn; Backspace takes back the last stone; Escape starts the step again; P passes; ? says where the cursor is.';
const KEYS_HEX = 'Keys: left and right arrows move along a row; Q up-left, E up-right, Z down-left, C down-right; ' +
  'up and down arrows go to the row above or below; Enter or Space plays a stone there (again on a stone of this turn takes it back); ' +
  'F finishes the turn; Backspace takes back the last stone; Escape starts the step again; P passes; ? says where the cursor is.';

/** Shows the tutorial in `root`. */
export async function showLearn(root) {
  const [lessons] = await Promise.all([loadLessons(root), loadStyle()]);
  if (lessons) new LearnPage(root, lessons).start();
}

async function loadLessons(root) {
  try {
    const data = await api(LESSONS_URL);
    return data.lessons;
  } catch (e) {
    setChildren(root, h('h1', {}, 'Learn Sygo'),
      h('p', { role: 'alert' }, `The lessons could not be loaded: ${e.message}`));
    return null;
  }
}

/** The tutorial's own style sheet, loaded before the page is drawn. */
function loadStyle() {
  if (document.getElementById('tutorial-style')) return Promise.resolve();
  return new Promise((resolve) => {
    const link = h('link', { rel: 'stylesheet', href: STYLE_URL, id: 'tutorial-style' });
    link.addEventListener('load', resolve);
    link.addEventListener('error', resolve);
    document.head.append(link);
  });
}

class LearnPage {
  constructor(root, lessons) {
    this.root = root;
    this.lessons = lessons;
    this.progress = progress.load();
    this.li = 0;
    this.si = 0;
    // The step being played: the lesson's position, the stones of the turn
    // (the step's own first), the last /steps answer, the turn once played.
    this.view = null;
    this.pending = [];
    this.given = 0;
    this.answer = null;
    this.played = null;
    this.state = 'loading'; // loading | playing | missed | done | end
    this.busy = false;
    this.seq = 0;
    this.hover = null;
    this.cursor = null;
    this.flipStart = 0;
    this.keyedSvg = null;
  }

  // ---- layout, built once ----

  start() {
    const button = (label, id, onclick, cls) =>
      h('button', { type: 'button', id, class: cls || null, onclick: () => onclick() }, label);
    this.listSummary = h('summary', {});
    this.list = h('ol', {});
    this.heading = h('h1', { id: 'lesson-title', tabindex: '-1' });
    this.where = h('p', { class: 'lesson-where small', id: 'lesson-where' });
    this.text = h('div', { class: 'lesson-text', id: 'lesson-text' });
    this.side = h('p', { class: 'lesson-side', id: 'lesson-side' });
    this.boardBox = h('div', { class: 'learn-board-box' });
    this.board = new Board(this.boardBox, {
      click: (point) => this.tap(point),
      hover: (point) => this.onHover(point),
    });
    this.turnLine = h('p', { class: 'lesson-turn', id: 'lesson-turn', 'aria-live': 'polite' });
    this.score = h('p', { class: 'lesson-score', id: 'lesson-score', hidden: true });
    this.refusal = h('p', { class: 'lesson-refusal', id: 'lesson-refusal', role: 'alert' });
    this.feedback = h('p', { class: 'lesson-feedback', id: 'lesson-feedback', role: 'status' });
    this.buttons = {
      finish: button('Finish turn', 'learn-finish', () => this.finish(), 'primary'),
      undo: button('Undo stone', 'learn-undo', () => this.undo()),
      pass: button('Pass', 'learn-pass', () => this.pass()),
      again: button('Start again', 'learn-again', () => this.open(this.li, this.si)),
      next: button('Next', 'learn-next', () => this.next(), 'primary'),
    };
    this.follows = h('p', { class: 'lesson-follows small', id: 'lesson-follows' });
    this.keys = h('p', { id: 'board-keys', class: 'visually-hidden' });
    this.endBox = h('div', { class: 'learn-end', id: 'learn-end', hidden: true });
    setChildren(this.root,
      h('div', { class: 'learn' },
        h('section', { class: 'learn-text', 'aria-labelledby': 'lesson-title' },
          this.where, this.heading, this.text, this.side),
        h('div', { class: 'learn-board' }, this.boardBox, this.keys),
        h('section', { class: 'learn-panel', 'aria-label': 'Your turn' },
          this.turnLine, this.score,
          h('div', { class: 'lesson-messages' }, this.refusal, this.feedback),
          h('div', { class: 'learn-controls' }, ...Object.values(this.buttons)),
          this.follows),
        this.endBox,
        h('details', { class: 'lesson-list', id: 'lesson-list' }, this.listSummary,
          h('nav', { 'aria-label': 'Lessons' }, this.list),
          h('p', {}, h('button', { type: 'button', class: 'linklike', id: 'learn-reset', onclick: () => this.reset() },
            'Forget my progress and start from the first lesson')))));
    // A lesson's own address, /learn#capture, opens it (also when the
    // address changes under the page).
    window.addEventListener('hashchange', () => {
      const li = this.lessons.findIndex((l) => l.id === this.hashLesson());
      if (li >= 0 && (li !== this.li || this.state === 'end')) this.open(li, 0);
    });
    let li = this.lessons.findIndex((l) => l.id === this.hashLesson());
    let si = 0;
    if (li < 0) {
      li = this.lessons.findIndex((l) => l.id === this.progress.lesson);
      si = li >= 0 ? Math.min(this.progress.step, this.lessons[li].steps.length - 1) : 0;
    }
    if (li < 0) li = Math.max(0, this.lessons.findIndex((l) => !this.isDone(l)));
    this.open(li, si);
  }

  hashLesson() {
    try {
      return decodeURIComponent(location.hash.replace(/^#/, ''));
    } catch (e) {
      return '';
    }
  }

  isDone(lesson) {
    return (this.progress.done[lesson.id] || 0) >= lesson.steps.length;
  }

  renderList() {
    const done = this.lessons.filter((l) => this.isDone(l)).length;
    this.listSummary.textContent = `All lessons (${done} of ${this.lessons.length} done)`;
    setChildren(this.list, ...this.lessons.map((lesson, i) =>
      h('li', {},
        h('button', {
          type: 'button', class: 'lesson-link', 'data-lesson': lesson.id,
          'aria-current': i === this.li && this.state !== 'end' ? 'step' : null,
          onclick: () => { this.list.closest('details').open = false; this.open(i, 0); },
        }, `${i + 1}. ${lesson.title}`, this.isDone(lesson) ? h('span', { class: 'done-mark', 'aria-label': ' (done)' }, ' ✓') : null))));
  }

  // ---- a step ----

  get lesson() { return this.lessons[this.li]; }

  get step() { return this.lesson.steps[this.si]; }

  /** Opens step `si` of lesson `li`, as the lesson sets it. */
  async open(li, si) {
    const seq = ++this.seq;
    this.li = li;
    this.si = si;
    this.state = 'loading';
    this.busy = false;
    this.pending = [...(this.step.pending || [])];
    this.given = this.pending.length;
    this.answer = null;
    this.played = null;
    this.hover = null;
    this.endBox.hidden = true;
    this.root.querySelector('.learn').classList.remove('ended');
    this.progress.lesson = this.lesson.id;
    this.progress.step = si;
    progress.save(this.progress);
    if (location.hash !== `#${this.lesson.id}`) history.replaceState(null, '', `#${this.lesson.id}`);
    const lesson = this.lesson;
    const step = this.step;
    this.where.textContent = `Lesson ${li + 1} of ${this.lessons.length}` +
      (lesson.steps.length > 1 ? ` · step ${si + 1} of ${lesson.steps.length}` : '');
    this.heading.textContent = lesson.title;
    setChildren(this.text, ...step.text.map((t) => h('p', {}, t)));
    this.follows.textContent = `Source: ${step.follows}`;
    this.say('', '');
    this.renderList();
    this.update();
    let view, answer;
    try {
      [view, answer] = await Promise.all([
        rules.describe(step.position), rules.steps(step.position, this.pending)]);
    } catch (e) {
      if (seq === this.seq) this.say(e.message, '');
      return;
    }
    if (seq !== this.seq) return;
    this.view = view;
    this.answer = answer;
    this.board.setGame(view);
    if (this.board.svg !== this.keyedSvg) {
      this.keyedSvg = this.board.svg;
      this.cursor = null;
      this.attachKeys();
    }
    this.keys.textContent = view.variant === 'hexsygo' ? KEYS_HEX : KEYS_SQUARE;
    setChildren(this.side, h('span', { class: `stone-icon ${view.to_move}`, 'aria-hidden': 'true' }),
      ` You play ${cap(view.to_move)}.`);
    this.state = 'playing';
    this.render();
    this.update();
  }

  attachKeys() {
    attachKeyboard(this.board.svg, this.board.geo, {
      getCursor: () => this.cursor,
      setCursor: (point) => {
        this.cursor = point;
        this.render();
        this.describeAt(point);
      },
      activate: (point) => this.tap(point),
      finish: () => this.finish(),
      undo: () => this.undo(),
      clear: () => this.open(this.li, this.si),
      pass: () => this.pass(),
      where: (point) => this.describeAt(point),
    });
  }

  /** What is at a point, for the keyboard's cursor. */
  describeAt(point) {
    const stones = this.shownStones();
    const color = stones[point];
    let text = `${point}: ${color ? `${color} stone` : 'vacant'}`;
    const k = this.pending.indexOf(point);
    if (k >= 0) text += `, stone ${k + 1} of this turn`;
    else if (!color && this.state === 'playing' && this.answer) {
      const entry = this.answer.next[point];
      if (entry && entry.refused) text += `; not allowed: ${entry.refused}`;
      else if (entry) text += `; ${entry.kind}`;
    }
    announceCursor(text);
  }

  shownStones() {
    if (this.played) return this.played.position.stones;
    return (this.answer && this.answer.stones) || (this.view && this.view.stones) || {};
  }

  // ---- the learner's actions ----

  /** A point tapped, clicked or chosen with the keys. */
  async tap(point) {
    // After a try that missed the goal, a tap on the board starts the step
    // again by itself and is the first stone of the new try (the position
    // shown is the one after the try, which the rules are not asked about).
    if (this.state === 'missed' && !this.busy) {
      await this.open(this.li, this.si);
      if (this.state !== 'playing') return;
    }
    if (this.state !== 'playing' || this.busy || !this.answer) return;
    const k = this.pending.indexOf(point);
    if (k >= 0) {
      if (k < this.given) {
        this.say('That stone is part of the lesson: it was played before the step began.', '');
      } else {
        await this.setPending(this.pending.slice(0, k));
      }
      return;
    }
    await this.setPending([...this.pending, point], point);
  }

  undo() {
    if (this.state !== 'playing' || this.busy || this.pending.length <= this.given) return;
    this.setPending(this.pending.slice(0, -1));
  }

  /** The turn so far becomes `stones`, if the rules allow each of them. */
  async setPending(stones, added) {
    const seq = this.seq;
    this.busy = true;
    this.update();
    try {
      const answer = await rules.steps(this.step.position, stones);
      if (seq !== this.seq) return;
      this.pending = stones;
      this.answer = answer;
      this.hover = null;
      this.say('', '');
      if (added) {
        const kind = answer.kinds[answer.kinds.length - 1];
        const rev = answer.reversed.length ? `, reversing ${listPoints(answer.reversed)}` : '';
        announce(`${added}: ${kind}${rev}.`);
      }
      this.render();
      // A placement ends the turn: it is played at once, as in a game.
      if (added && answer.kinds[answer.kinds.length - 1] === 'placement') {
        this.busy = false;
        await this.submit(stones.join(','));
        return;
      }
    } catch (e) {
      if (seq !== this.seq) return;
      this.say(e.status === 422 ? rules.reasonOf(e.message) : e.message, '');
    } finally {
      if (seq === this.seq) {
        this.busy = false;
        this.update();
      }
    }
  }

  async finish() {
    if (this.state !== 'playing' || this.busy || !this.answer) return;
    if (!this.answer.finish.allowed) {
      this.say(this.answer.finish.reason, '');
      return;
    }
    await this.submit(this.pending.join(','));
  }

  async pass() {
    if (this.state !== 'playing' || this.busy) return;
    if (this.pending.length) {
      this.say('Your turn has stones already: take them back (Undo stone) before you pass.', '');
      return;
    }
    await this.submit('pass');
  }

  /** Plays the turn on the server, and compares it with the step's goal. */
  async submit(turn) {
    const seq = this.seq;
    this.busy = true;
    this.update();
    let played;
    try {
      played = await rules.play(this.step.position, turn);
    } catch (e) {
      if (seq === this.seq) {
        this.busy = false;
        this.say(e.status === 422 ? rules.reasonOf(e.message) : e.message, '');
        this.update();
      }
      return;
    }
    if (seq !== this.seq) return;
    this.busy = false;
    const pass = played.turn === 'pass';
    const hint = missedHint(this.step.goal, {
      pass,
      stones: played.stones,
      kinds: pass ? [] : this.answer.kinds,
      allGrown: !pass && this.answer.groups.every((g) => g.status !== 'fresh'),
      reversed: played.reversed,
    });
    this.played = played;
    this.flipStart = performance.now();
    const what = pass ? 'You passed.' : `You played ${listPoints(played.stones)}` +
      (played.reversed.length ? `, reversing ${listPoints(played.reversed)}.` : '.');
    if (hint) {
      this.state = 'missed';
      this.say('', hint, 'hint');
      announce(`${what} ${hint}`);
    } else {
      this.state = 'done';
      const done = this.progress.done[this.lesson.id] || 0;
      this.progress.done[this.lesson.id] = Math.max(done, this.si + 1);
      progress.save(this.progress);
      this.renderList();
      this.say('', this.step.success, 'success');
      announce(`${what} ${this.step.success}`);
    }
    this.render();
    this.update();
    const focus = hint ? this.buttons.again : this.buttons.next;
    focus.focus();
  }

  next() {
    if (this.state !== 'done') return;
    if (this.si + 1 < this.lesson.steps.length) this.open(this.li, this.si + 1);
    else if (this.li + 1 < this.lessons.length) this.open(this.li + 1, 0);
    else this.showEnd();
  }

  showEnd() {
    this.seq++;
    this.state = 'end';
    this.progress.lesson = null;
    this.progress.step = 0;
    progress.save(this.progress);
    this.root.querySelector('.learn').classList.add('ended');
    setChildren(this.endBox,
      h('h1', { id: 'learn-end-title', tabindex: '-1' }, 'You know the rules'),
      h('p', {}, 'That is all of Sygo and Hexsygo: placing, growing, capturing by reversal, suicide, the balance turn, seki and scoring.'),
      h('p', {}, h('a', { href: '/', class: 'button-link primary', id: 'learn-play' }, 'Start a game')),
      h('p', {}, h('button', { type: 'button', id: 'learn-restart', onclick: () => this.open(0, 0) }, 'Go through the lessons again')));
    this.endBox.hidden = false;
    this.renderList();
    this.update();
    this.endBox.querySelector('h1').focus();
  }

  reset() {
    progress.clear();
    this.progress = progress.load();
    this.list.closest('details').open = false;
    this.open(0, 0);
  }

  onHover(point) {
    if (this.hover === point) return;
    this.hover = point;
    if (this.state === 'playing') this.render();
  }

  // ---- drawing ----

  /** The refusal (an alert) and the feedback of the step. */
  say(refusal, feedback, kind) {
    this.refusal.textContent = refusal;
    this.feedback.textContent = feedback;
    this.feedback.dataset.kind = feedback ? kind || '' : '';
  }

  render() {
    if (!this.view || !this.answer) return;
    const color = this.view.to_move;
    if (this.played) {
      const after = this.played.position;
      this.board.render({
        stones: after.stones,
        last: this.played.stones,
        reversed: this.played.reversed,
        flipElapsed: this.played.reversed.length ? performance.now() - this.flipStart : null,
        territory: after.status === 'over' ? after.score.territory : null,
        cursor: this.cursor,
      });
    } else {
      let preview = null;
      const entry = this.hover && this.answer.next[this.hover];
      if (entry && this.state === 'playing') {
        preview = entry.refused
          ? { point: this.hover, refused: entry.refused }
          : { point: this.hover, color, kind: entry.kind, reverses: entry.reverses };
      }
      this.board.render({
        stones: this.answer.stones,
        pending: this.pending,
        reversed: this.answer.reversed,
        groups: this.answer.groups,
        next: this.answer.next,
        showAllowed: this.pending.length > 0,
        preview,
        cursor: this.cursor,
      });
    }
    this.renderTurnLine();
  }

  renderTurnLine() {
    const p = this.pending;
    if (this.played) {
      const t = this.played;
      this.turnLine.textContent = t.turn === 'pass' ? 'You passed.'
        : `You played ${listPoints(t.stones)}` + (t.reversed.length ? `, reversing ${listPoints(t.reversed)}.` : '.');
      if (this.state === 'missed') this.turnLine.textContent += ' Tap a point to try again from the start.';
    } else if (p.length) {
      const given = p.slice(0, this.given);
      const mine = p.slice(this.given);
      const parts = [];
      if (given.length) parts.push(`${listPoints(given)} (played already)`);
      if (mine.length) parts.push(listPoints(mine));
      this.turnLine.textContent = `This turn so far: ${parts.join(', then ')}.` +
        (this.answer.reversed.length ? ` Reversed: ${listPoints(this.answer.reversed)}.` : '');
    } else {
      this.turnLine.textContent = 'Tap a point to play there.';
    }
    const step = this.step;
    const shown = this.played ? this.played.position : this.view;
    if (step.score || step.score_after || shown.status === 'over') {
      const s = shown.score;
      let text = `Count: Black ${s.black}, White ${s.white}`;
      if (shown.status === 'over') {
        text = `Game over. ${text}: ` + (s.black === s.white ? 'a draw.'
          : `${s.black > s.white ? 'Black' : 'White'} wins by ${Math.abs(s.black - s.white)}.`);
      } else {
        text += ' (stones plus territory).';
      }
      this.score.textContent = text;
      this.score.hidden = false;
    } else {
      this.score.hidden = true;
    }
  }

  /** Which buttons may be used now. */
  update() {
    // The page's state, for its style and for tests: loading, playing,
    // missed, done or end; busy while the server is asked.
    const page = this.root.querySelector('.learn');
    page.dataset.state = this.state;
    page.dataset.busy = String(this.busy);
    const b = this.buttons;
    const playing = this.state === 'playing' && !this.busy;
    const ended = this.state === 'end';
    b.finish.disabled = !playing || this.pending.length === 0;
    b.undo.disabled = !playing || this.pending.length <= this.given;
    b.pass.disabled = !playing || this.pending.length > 0;
    b.again.textContent = this.state === 'missed' ? 'Try again' : 'Start again';
    b.again.classList.toggle('primary', this.state === 'missed');
    b.again.disabled = this.state === 'loading';
    const last = this.si + 1 >= this.lesson.steps.length;
    b.next.textContent = !last ? 'Next step'
      : this.li + 1 < this.lessons.length ? `Next lesson: ${this.lessons[this.li + 1].title}` : 'Finish';
    // The buttons stay where they are (disabled when of no use), so that a
    // second tap on Finish turn never lands on another button; Next comes
    // last, once the step is done.
    for (const button of Object.values(b)) button.hidden = ended;
    b.next.hidden = this.state !== 'done';
  }
}
