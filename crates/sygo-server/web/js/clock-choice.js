// The choice of a clock in a form (the home page's "Start a game" and "Post
// a challenge"): none, a preset, or a custom clock with its figures, each
// stating the server's limits (docs/web.md, "Clocks").

import { h } from './dom.js';
import { PRESETS, controlText, customClock } from './clock.js';

/** What each kind of custom clock does, in a sentence. */
const KIND_TEXT = {
  fischer: 'Fischer: each side has the main time, and the increment is added after each of its turns.',
  byoyomi: 'Byo-yomi: after the main time, each turn is played within a period: a turn played within one keeps it ' +
    'whole, each period run through is lost.',
  correspondence: 'Correspondence: each side starts with the days per turn, and each turn adds them, up to the bank.',
};

/**
 * The clock of a new game: none (the default), a preset, or a custom clock
 * of one of the three kinds with its figures, each field stating its
 * limits (the server's, docs/web.md "Clocks"). `value()` is `{clock}`
 * (`null` for none) or `{error, field}` for a figure out of its limits.
 * `prefix` starts every id (the home page has two: "Start a game" with
 * none, "Post a challenge" with `challenge-`); `starts` says when White's
 * clock starts.
 */
export function clockChoice({ prefix = '', starts = 'as soon as the game is made' } = {}) {
  const id = (name) => `${prefix}${name}`;
  const groups = new Map();
  for (const p of PRESETS) {
    if (!groups.has(p.group)) groups.set(p.group, []);
    groups.get(p.group).push(h('option', { value: p.id }, p.label));
  }
  const select = h('select', { id: id('clock'), name: id('clock'), 'aria-describedby': id('clock-note') },
    h('option', { value: 'none', selected: true }, 'No clock'),
    ...[...groups].map(([label, options]) => h('optgroup', { label }, ...options)),
    h('option', { value: 'custom' }, 'Custom…'));
  const kind = h('select', { id: id('clock-kind'), name: id('clock-kind') },
    h('option', { value: 'fischer' }, 'Fischer increment'),
    h('option', { value: 'byoyomi' }, 'Byo-yomi periods'),
    h('option', { value: 'correspondence' }, 'Correspondence'));
  // A figure's field: its label, the input, and its limits in words.
  const figure = (name, label, attrs, limits) => {
    const fid = id(name);
    const input = h('input', { id: fid, name: fid, inputmode: 'decimal', 'aria-describedby': `${fid}-limits`, ...attrs });
    const limitText = h('span', { class: 'limits small', id: `${fid}-limits` }, limits);
    return { input, limitText, row: h('span', { class: 'field figure' }, h('label', { for: fid }, label), input, limitText) };
  };
  const main = figure('clock-main', 'Main time (minutes)', { type: 'number', min: 0, max: 180, step: 'any', value: 10 }, '');
  const increment = figure('clock-increment', 'Increment (seconds)', { type: 'number', min: 0, max: 600, step: 'any', value: 10 },
    '0 to 600 (10 minutes), added after each turn');
  const periods = figure('clock-periods', 'Periods', { type: 'number', min: 1, max: 30, step: 1, value: 5, inputmode: 'numeric' },
    '1 to 30');
  const period = figure('clock-period', 'Each period (seconds)', { type: 'number', min: 5, max: 600, step: 'any', value: 30 },
    '5 to 600 (10 minutes); a turn within a period keeps it');
  const days = h('select', { id: id('clock-days'), name: id('clock-days'), 'aria-describedby': id('clock-days-limits') },
    ...[1, 2, 3, 5, 7, 10, 14].map((d) => h('option', { value: d, selected: d === 3 ? true : null }, `${d} day${d === 1 ? '' : 's'}`)));
  const daysRow = h('span', { class: 'field figure' }, h('label', { for: id('clock-days') }, 'Days per turn'), days,
    h('span', { class: 'limits small', id: id('clock-days-limits') }, '1, 2, 3, 5, 7, 10 or 14'));
  const bank = figure('clock-bank', 'Bank (days)', { type: 'number', min: 1, max: 60, step: 1, value: 6, inputmode: 'numeric' }, '');
  const custom = h('div', { class: 'custom-clock', id: id('custom-clock'), hidden: true },
    h('span', { class: 'field' }, h('label', { for: id('clock-kind') }, 'Kind'), kind),
    main.row, increment.row, periods.row, period.row, daysRow, bank.row);
  const note = h('p', { class: 'small', id: id('clock-note') }, '');
  const show = () => {
    const c = select.value;
    const k = kind.value;
    custom.hidden = c !== 'custom';
    main.row.hidden = k === 'correspondence';
    increment.row.hidden = k !== 'fischer';
    periods.row.hidden = period.row.hidden = k !== 'byoyomi';
    daysRow.hidden = bank.row.hidden = k !== 'correspondence';
    main.limitText.textContent = k === 'fischer' ? '10 seconds (0.17) to 180 (3 hours)' : '0 to 180 (3 hours); 0: byo-yomi from the start';
    bank.limitText.textContent = `From the days per turn (${days.value}) to 60: the most days a side may save up`;
    bank.input.min = days.value;
    const preset = PRESETS.find((p) => p.id === c);
    const about = preset ? `${controlText(preset.clock)}.` : c === 'custom' ? KIND_TEXT[k] : '';
    note.textContent = c === 'none' ? 'No clock: take as long as you like.'
      : `${about} A side that runs out of time loses. White's clock starts ${starts}.`;
  };
  for (const el of [select, kind]) el.addEventListener('change', show);
  days.addEventListener('change', () => {
    // A bank below the new days per turn becomes twice them (at most 60).
    if (!(Number(bank.input.value) >= Number(days.value))) bank.input.value = Math.min(2 * Number(days.value), 60);
    show();
  });
  show();
  const fields = { main: main.input, increment: increment.input, periods: periods.input, period: period.input, days, bank: bank.input };
  const value = () => {
    const c = select.value;
    if (c === 'none') return { clock: null };
    if (c !== 'custom') return { clock: PRESETS.find((p) => p.id === c).clock };
    const read = Object.fromEntries(Object.entries(fields).map(([k, el]) => [k, el.value]));
    const checked = customClock(kind.value, read);
    return checked.error ? { error: `Custom clock: ${checked.error}`, field: fields[checked.field] } : checked;
  };
  const element = h('fieldset', { class: 'clock-choice', id: id('clock-choice') },
    h('legend', {}, 'Clock'),
    h('span', { class: 'field' }, h('label', { for: id('clock') }, 'Time for each side'), select),
    note, custom);
  return { element, value };
}
