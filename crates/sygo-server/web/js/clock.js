// Game clocks (docs/web.md, "Clocks"): the time controls offered when a
// game is started (the home page's presets and a custom clock, with the
// server's limits), the time left in words, and the game page's two clocks.
//
// The server sends a game's clock with every state: each side's time as of
// the end of its last turn, and for the side whose time runs its deadline
// (`deadline_ms`) with the server's time (`now_ms`). The page counts down
// from the deadline with its own clock corrected by `now_ms - Date.now()`
// at receipt, so a page whose clock is wrong still shows the server's time.
// A correspondence clock stopped by its player's vacation (`paused`, the
// time left frozen in `paused_left_ms`, no deadline) is shown "On vacation"
// and is not counted down; a side on vacation says until when at the
// latest (`vacation_until_ms`: its allowance used up).
// One timer, set for the moment the shown time changes next, writes only
// the text that changed (nothing is measured: no layout is forced), and
// stops once the game is over or the page is left.

import { h, cap, setChildren } from './dom.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The limits of `POST /api/games` (docs/web.md, "Clocks"). */
export const LIMITS = {
  mainMaxMs: 3 * HOUR,
  fischerMainMinMs: 10 * SECOND,
  incrementMaxMs: 10 * MINUTE,
  periods: [1, 30],
  periodMs: [5 * SECOND, 10 * MINUTE],
  days: [1, 2, 3, 5, 7, 10, 14],
  bankMaxDays: 60,
};

/** The clocks offered on the home page, by the value of their option. */
export const PRESETS = [
  { group: 'Live', id: 'fischer-5-5', label: '5 min + 5 s a turn', clock: { kind: 'fischer', main_ms: 5 * MINUTE, increment_ms: 5 * SECOND } },
  { group: 'Live', id: 'fischer-10-10', label: '10 min + 10 s a turn', clock: { kind: 'fischer', main_ms: 10 * MINUTE, increment_ms: 10 * SECOND } },
  { group: 'Live', id: 'fischer-30-30', label: '30 min + 30 s a turn', clock: { kind: 'fischer', main_ms: 30 * MINUTE, increment_ms: 30 * SECOND } },
  { group: 'Live', id: 'byoyomi-10-5x30', label: 'Byo-yomi: 10 min, then 5 × 30 s', clock: { kind: 'byoyomi', main_ms: 10 * MINUTE, periods: 5, period_ms: 30 * SECOND } },
  { group: 'Correspondence', id: 'days-1', label: '1 day a turn (bank of 2 days)', clock: { kind: 'correspondence', days_per_turn: 1, bank_days: 2 } },
  { group: 'Correspondence', id: 'days-3', label: '3 days a turn (bank of 6 days)', clock: { kind: 'correspondence', days_per_turn: 3, bank_days: 6 } },
  { group: 'Correspondence', id: 'days-7', label: '7 days a turn (bank of 14 days)', clock: { kind: 'correspondence', days_per_turn: 7, bank_days: 14 } },
];

// ---------------------------------------------------------------- words

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const pad = (n) => String(n).padStart(2, '0');

/**
 * A live time: "4:05", "1:02:03"; whole seconds rounded up, so that "0:00"
 * is the end (a clock showing 0:01 still has time).
 */
export function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / SECOND));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}

/** A correspondence time: "2 days 3 h", "5 h 12 min", then "42:10" in the last hour. */
export function formatDays(ms) {
  if (ms < HOUR) return formatClock(ms);
  const minutes = Math.floor(ms / MINUTE);
  const days = Math.floor(minutes / (24 * 60));
  const hours = Math.floor((minutes % (24 * 60)) / 60);
  if (days) return hours ? `${plural(days, 'day')} ${hours} h` : plural(days, 'day');
  return `${hours} h ${minutes % 60} min`;
}

/** A span of time in words for the controls: "30 s", "10 min", "1 h 30 min", "90 s". */
export function spanText(ms) {
  if (ms % MINUTE) return `${ms / SECOND} s`;
  const minutes = ms / MINUTE;
  if (minutes < 60) return `${minutes} min`;
  return minutes % 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes / 60} h`;
}

/** A time control in words: "10 min + 5 s a turn", "Byo-yomi: 10 min, then 5 × 30 s". */
export function controlText(c) {
  if (c.kind === 'fischer') {
    return c.increment_ms ? `${spanText(c.main_ms)} + ${spanText(c.increment_ms)} a turn` : `${spanText(c.main_ms)} in all, no increment`;
  }
  if (c.kind === 'byoyomi') {
    const periods = `${c.periods} × ${spanText(c.period_ms)}`;
    return c.main_ms ? `Byo-yomi: ${spanText(c.main_ms)}, then ${periods}` : `Byo-yomi: ${periods}`;
  }
  if (c.kind === 'correspondence') {
    return `Correspondence: ${plural(c.days_per_turn, 'day')} a turn, a bank of at most ${plural(c.bank_days, 'day')}`;
  }
  return 'A clock';
}

/** Whether a control is live (counted in seconds) rather than correspondence. */
const isLive = (c) => c.kind !== 'correspondence';

/** The first turn's time, said when an online game is made (its clock runs from then). */
export function firstTurnText(c) {
  if (c.kind === 'fischer') return formatClock(c.main_ms);
  if (c.kind === 'byoyomi') return c.main_ms ? `${formatClock(c.main_ms)} and ${c.periods} × ${formatClock(c.period_ms)}` : `${c.periods} × ${formatClock(c.period_ms)}`;
  return formatDays(c.days_per_turn * DAY);
}

// ---------------------------------------------------------------- the form

/**
 * Checks a custom clock's figures (`fields`: main minutes, increment
 * seconds, periods, period seconds, days, bank days as strings, by kind).
 * Returns `{clock}` or `{error, field}` with the limit broken, in words.
 */
export function customClock(kind, f) {
  const num = (v) => (String(v).trim() === '' ? NaN : Number(v));
  if (kind === 'correspondence') {
    const days = num(f.days);
    const bank = num(f.bank);
    if (!LIMITS.days.includes(days)) return { field: 'days', error: 'Days per turn: 1, 2, 3, 5, 7, 10 or 14.' };
    if (!Number.isInteger(bank) || bank < days || bank > LIMITS.bankMaxDays) {
      return { field: 'bank', error: `The bank: whole days, from the days per turn (${days}) to ${LIMITS.bankMaxDays}.` };
    }
    return { clock: { kind, days_per_turn: days, bank_days: bank } };
  }
  const main = num(f.main);
  const mainMs = Math.round(main * MINUTE);
  const minMain = kind === 'fischer' ? LIMITS.fischerMainMinMs : 0;
  if (!Number.isFinite(main) || mainMs < minMain || mainMs > LIMITS.mainMaxMs) {
    return {
      field: 'main',
      error: kind === 'fischer'
        ? 'Main time: from 10 seconds (0.17 min) to 180 minutes.'
        : 'Main time: from 0 to 180 minutes.',
    };
  }
  if (kind === 'fischer') {
    const inc = num(f.increment);
    if (!Number.isFinite(inc) || inc < 0 || inc * SECOND > LIMITS.incrementMaxMs) {
      return { field: 'increment', error: 'Increment: from 0 to 600 seconds (10 minutes).' };
    }
    return { clock: { kind, main_ms: mainMs, increment_ms: Math.round(inc * SECOND) } };
  }
  const periods = num(f.periods);
  if (!Number.isInteger(periods) || periods < LIMITS.periods[0] || periods > LIMITS.periods[1]) {
    return { field: 'periods', error: 'Periods: a whole number from 1 to 30.' };
  }
  const period = num(f.period);
  const periodMs = Math.round(period * SECOND);
  if (!Number.isFinite(period) || periodMs < LIMITS.periodMs[0] || periodMs > LIMITS.periodMs[1]) {
    return { field: 'period', error: 'Each period: from 5 to 600 seconds (10 minutes).' };
  }
  return { clock: { kind: 'byoyomi', main_ms: mainMs, periods, period_ms: periodMs } };
}

// ---------------------------------------------------------------- a side's time

/**
 * What a side's clock shows at the server's time `now`: `{time, extra,
 * left}`, `left` the milliseconds of the figure shown (main time, the
 * current byo-yomi period, days), `total` the milliseconds to its deadline
 * (for the running side whose clock runs), `byoyomi` once in its periods,
 * `out` when its time ran out, `paused` when it is the side to move but its
 * clock is stopped by its vacation (its time left frozen, nothing counts).
 */
export function sideTime(game, color, now) {
  const clock = game.clock;
  const c = clock.control;
  const side = clock[color];
  const last = game.last_turn;
  const out = game.status === 'over' && !!last && last.kind === 'timeout' && last.color === color;
  const paused = !out && !!clock.paused && clock.running === color;
  const running = !paused && clock.running === color && clock.deadline_ms != null;
  let total;
  if (out) total = 0;
  else if (running) total = Math.max(0, clock.deadline_ms - now);
  else total = null;
  if (c.kind === 'byoyomi') {
    const pms = c.period_ms;
    let main = side.left_ms;
    let periods = side.periods;
    if (total !== null) {
      const inPeriods = periods * pms;
      if (total > inPeriods) main = total - inPeriods;
      else {
        main = 0;
        periods = out ? 0 : Math.max(1, Math.ceil(total / pms));
      }
    }
    if (main > 0) {
      return { time: formatClock(main), extra: `+ ${periods} × ${formatClock(pms)}`, left: main, total, out };
    }
    const current = total === null ? pms : out ? 0 : total - (periods - 1) * pms;
    // The period counting down is the time shown; the periods left (that
    // one included) under it. The length of a period is in the control's line.
    const extra = out ? '' : periods === 1 ? 'byo-yomi: last period' : `byo-yomi: ${periods} × ${formatClock(pms)}`;
    return { time: formatClock(current), extra, left: current, total, byoyomi: true, periods, out };
  }
  const frozen = paused && typeof clock.paused_left_ms === 'number' ? clock.paused_left_ms : side.left_ms;
  const left = total === null ? frozen : total;
  if (c.kind === 'correspondence') return { time: formatDays(left), extra: '', left, total, out, paused };
  return { time: formatClock(left), extra: c.increment_ms ? `+ ${formatClock(c.increment_ms)} a turn` : '', left, total, out };
}

/** Whether the figure shown is low: under 10 s live, under 12 hours by correspondence. */
const isLow = (c, t) => (isLive(c) ? t.left < 10 * SECOND : t.left < 12 * HOUR);

/** The times at which the side to move hears how long it has left (to its deadline). */
const thresholds = (c) => (isLive(c)
  ? [[MINUTE, '1 minute left'], [10 * SECOND, '10 seconds left']]
  : [[DAY, '1 day left'], [HOUR, '1 hour left']]);

// ---------------------------------------------------------------- the game page

/** The game page's clocks (`page`: js/game.js; `el`: their container). */
export class Clocks {
  constructor(page, el) {
    this.page = page;
    this.el = el;
    this.timer = null;
    this.offset = 0; // server's time − this page's time
    this.sides = null;
    this.spoken = null; // { key, done: Set } of the thresholds said for this turn
    this.title = null; // { state, board }: the tab's title without the time
  }

  /** The page's own clock corrected to the server's. */
  now() {
    return Date.now() + this.offset;
  }

  /** A new state of the game from the server. */
  update(game) {
    const clock = game.clock;
    if (!clock) {
      this.stopTimer();
      this.el.hidden = true;
      this.renderTitle();
      return;
    }
    if (typeof clock.now_ms === 'number') this.offset = clock.now_ms - Date.now();
    if (!this.sides) this.build();
    this.el.hidden = false;
    const names = (c) => {
      const p = game[c];
      const mine = this.page.mySides().includes(c) && this.page.mySides().length === 1 ? ' (you)' : '';
      return p.kind === 'ai' ? `${cap(c)} (AI)${mine}` : `${cap(c)}${mine}`;
    };
    for (const c of ['black', 'white']) setText(this.sides[c].name, names(c));
    setText(this.control, controlText(clock.control));
    // The thresholds already passed when a turn's clock is first seen are
    // not said: only those crossed while the page counts.
    const key = `${game.turn_number}:${game.undos || 0}:${clock.running}`;
    if (!this.spoken || this.spoken.key !== key) {
      const first = clock.running ? sideTime(game, clock.running, this.now()) : null;
      const total = first && first.total !== null ? first.total : Infinity;
      this.spoken = {
        key,
        done: new Set(thresholds(clock.control).filter(([at]) => total <= at).map(([at]) => at)),
        periods: first && first.byoyomi ? first.periods : null,
      };
    }
    this.tick();
  }

  build() {
    const side = (c) => {
      const time = h('span', { class: 'clock-time', id: `clock-${c}-time`, role: 'timer', 'aria-atomic': 'true' });
      const name = h('span', { class: 'clock-name' });
      const extra = h('span', { class: 'clock-extra small', id: `clock-${c}-extra` });
      const state = h('span', { class: 'clock-state', id: `clock-${c}-state` });
      const box = h('div', { class: `clock ${c}`, 'data-clock': c, id: `clock-${c}` },
        h('span', { class: 'clock-who' }, h('span', { class: `stone-icon ${c}`, 'aria-hidden': 'true' }), ' ', name),
        time, extra, state);
      return { box, time, name, extra, state };
    };
    this.sides = { black: side('black'), white: side('white') };
    this.control = h('p', { class: 'clock-control small', id: 'clock-control' });
    // What is said about the clock: at thresholds only, never each second.
    this.live = h('p', { class: 'visually-hidden', id: 'clock-announce', 'aria-live': 'polite', 'aria-atomic': 'true' });
    setChildren(this.el,
      h('div', { class: 'clock-pair' }, this.sides.black.box, this.sides.white.box),
      this.control, this.live);
  }

  /** Redraws the clocks and the title, and sets the timer for the next change. */
  tick() {
    this.stopTimer();
    const game = this.page.game;
    if (this.stopped || !game || !game.clock || !this.sides) return;
    const clock = game.clock;
    const now = this.now();
    let next = null;
    for (const c of ['black', 'white']) {
      const t = sideTime(game, c, now);
      const s = this.sides[c];
      const running = clock.running === c && !t.out && !t.paused;
      const away = !t.out && !!clock[c] && !!clock[c].on_vacation;
      const low = (running || t.out) && isLow(clock.control, t);
      // When the vacation ends by itself at the latest.
      const until = away && typeof clock[c].vacation_until_ms === 'number'
        ? `until ${formatUntil(clock[c].vacation_until_ms)}` : '';
      setText(s.time, t.time);
      setText(s.extra, t.paused ? `clock stopped${until ? ` ${until}` : ''}`
        : away && until ? `on vacation ${until}` : t.extra);
      const state = t.out ? '⚑ Out of time'
        : t.paused ? '‖ On vacation'
          : running && low ? '⚠ Low time'
            : running ? '▶ Running'
              : away ? '‖ On vacation' : '';
      setText(s.state, state);
      setFlag(s.box, 'data-running', running);
      setFlag(s.box, 'data-paused', !!t.paused);
      setFlag(s.box, 'data-vacation', away);
      setFlag(s.box, 'data-low', low);
      setFlag(s.box, 'data-out', t.out);
      if (running) {
        this.speak(c, t, clock.control);
        if (t.total > 0) next = t.total;
      }
    }
    this.renderTitle();
    if (next !== null && game.status === 'playing') {
      // The moment the shown second (or minute) changes, a few ms after.
      const delay = (next % SECOND) + 20;
      this.timer = window.setTimeout(() => this.tick(), Math.min(SECOND, Math.max(50, delay)));
    }
  }

  /** Says, politely, a threshold the running side's time has just crossed. */
  speak(color, t, control) {
    const page = this.page;
    if (!page.tokenFor(color) || page.game[color].kind !== 'human') return;
    const you = page.mySides().length === 1;
    const said = [];
    if (t.byoyomi && t.periods !== this.spoken.periods) {
      this.spoken.periods = t.periods;
      const left = t.periods === 1 ? 'the last period' : `${t.periods} periods of ${spanText(control.period_ms)} left`;
      said.push(`${you ? 'You are' : `${cap(color)} is`} in byo-yomi: ${left}.`);
    }
    const done = this.spoken.done;
    let crossed = '';
    for (const [at, words] of thresholds(control)) {
      if (t.total <= at && !done.has(at)) {
        done.add(at);
        crossed = words;
      }
    }
    if (crossed) said.push(`${you ? 'You have' : `${cap(color)} has`} ${crossed}.`);
    if (said.length) this.live.textContent = said.join(' ');
  }

  /**
   * The tab's title, `state · board` ("White to move · Sygo, 9×9"); while it
   * is this browser's turn in a game with a clock, the time left first:
   * "(0:42) Your turn — Sygo, 9×9".
   */
  setTitle(state, board) {
    this.title = { state, board };
    this.renderTitle();
  }

  renderTitle() {
    if (!this.title) return;
    const page = this.page;
    const g = page.game;
    const { state, board } = this.title;
    let title = `${state} · ${board}`;
    if (g && g.clock && g.status === 'playing' && g.clock.running === g.to_move &&
      g[g.to_move].kind === 'human' && page.tokenFor(g.to_move)) {
      const t = sideTime(g, g.to_move, this.now());
      const turn = page.mySides().length === 1 ? 'Your turn' : `${cap(g.to_move)} to move`;
      title = `(${t.time}) ${turn} — ${board}`;
    }
    if (document.title !== title) document.title = title;
  }

  stopTimer() {
    if (this.timer !== null) window.clearTimeout(this.timer);
    this.timer = null;
  }

  /** The page is left. */
  stop() {
    this.stopTimer();
    this.stopped = true;
  }
}

/** "3 Jul, 14:05": when a vacation ends, in the browser's language. */
function formatUntil(ms) {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString(undefined, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });
}

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

function setFlag(el, name, on) {
  if (el.hasAttribute(name) !== !!on) el.toggleAttribute(name, !!on);
}
