// The AI's view in the page: a hint for the side to move
// (`POST /api/games/{id}/hint`) and the analysis of the position
// (`POST /api/games/{id}/analysis`): win probability, expected score,
// best turns, ownership drawn on the board.

import * as api from './api.js';
import { h, cap, setChildren } from './dom.js';
import { announce } from './announce.js';

const pct = (x) => `${Math.round(x * 100)}%`;
const lead = (x) => (x >= 0 ? '+' : '') + x.toFixed(1);

/** The stones of a turn written `D5,F7`. */
export const turnStones = (turn) =>
  !turn || turn === 'pass' || turn === 'resign' ? [] : turn.split(',').map((x) => x.trim());

/** The analysis as text and a table of the best turns. */
export function renderAnalysis(el, result, game, { onShow }) {
  const mover = cap(game.to_move);
  const rows = (result.candidates || []).slice(0, 6).map((c, i) =>
    h('tr', {},
      h('td', {}, String(i + 1)),
      h('td', {}, h('button', { type: 'button', class: 'linklike', onclick: () => onShow(turnStones(c.turn)) }, c.turn)),
      h('td', {}, pct(c.win_rate)),
      h('td', {}, lead(c.score_lead)),
      h('td', {}, String(c.visits))));
  setChildren(
    el,
    h('p', { class: 'analysis-summary', 'data-analysis': 'summary' },
      `${mover} to move: win probability ${pct(result.win_rate)}, expected score ${lead(result.score_lead)} `,
      `(${result.visits} visits).`),
    rows.length
      ? h('table', { class: 'candidates' },
        h('caption', {}, 'Best turns (click one to show it)'),
        h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'turn'), h('th', {}, 'win'), h('th', {}, 'score'), h('th', {}, 'visits'))),
        h('tbody', {}, ...rows))
      : h('p', {}, 'No candidate turns.'),
    h('p', { class: 'small' }, 'Ownership on the board: a square on each point, black for Black, white for White, larger where surer.'),
  );
}

/** A hint in words. */
export function hintText(result, game) {
  const best = (result.candidates || [])[0];
  if (!best) return 'The AI has no hint.';
  return `Hint for ${cap(game.to_move)}: ${best.turn} (win probability ${pct(best.win_rate)}, expected score ${lead(best.score_lead)}).`;
}

/** Asks the AI for a hint for the side to move (the game page's Hint button, H). */
export function askHint(page) {
  page.enqueue(async () => {
    if (!page.canPlay()) return page.message(page.whyNot());
    // A hint replaces an analysis shown (its ownership and best turns).
    const gen = page.clearAi();
    page.renderBoard();
    page.el.aiOut.textContent = 'The AI is looking for a hint…';
    const result = await api.hint(page.id, page.tokenFor(page.game.to_move), 1000);
    // The position changed meanwhile: the hint was for the one before.
    if (page.aiGen !== gen) return;
    const best = (result.candidates || [])[0];
    page.hint = best ? turnStones(best.turn) : null;
    const text = hintText(result, page.game);
    page.el.aiOut.replaceChildren(h('p', { 'data-hint-text': '' }, text));
    announce(text);
    page.renderBoard();
  });
}

/** Why the shown position cannot be analysed now, or '' when it can. */
export function whyNoAnalysis(page) {
  const g = page.game;
  if (!g) return 'The game is loading.';
  // A game is over only in its last position.
  if (page.live() && g.status === 'over') return 'The game is over in this position: there is nothing to analyse.';
  if (g.ai_thinking) return 'The AI is thinking about its turn in this game: analyse when it has played.';
  if (page.analysing) return 'The AI is already analysing.';
  return '';
}

/** A ticket to follow a search's place in the AI's queue. */
function newTicket() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Says where the search of `ticket` stands in `out` until `stop()`. */
function watchPlace(ticket, out) {
  let timer = null;
  let stopped = false;
  const look = async () => {
    try {
      const place = await api.searchPlace(ticket);
      if (stopped) return;
      out.textContent = place.state === 'waiting'
        ? `Waiting: ${place.ahead} search${place.ahead === 1 ? '' : 'es'} ahead of this one…`
        : 'The AI is analysing the position…';
    } catch (e) {
      // Not yet queued, or already ended: the answer says.
    }
    if (!stopped) timer = setTimeout(look, 500);
  };
  timer = setTimeout(look, 150);
  return { stop() { stopped = true; clearTimeout(timer); } };
}

/** Analyses the position shown (the game page's Analyse button, A). */
export function analyse(page) {
  page.enqueue(async () => {
    const why = whyNoAnalysis(page);
    if (why) return page.message(why);
    const shown = page.shown();
    // An analysis replaces a hint shown (its ghost stones).
    const gen = page.clearAi();
    page.renderBoard();
    const out = page.el.aiOut;
    const ticket = newTicket();
    page.analysing = true;
    page.renderControls();
    out.textContent = 'The AI is analysing the position…';
    const watch = watchPlace(ticket, out);
    let result;
    try {
      result = await api.analysis(page.id, 1000, page.reviewTurn, ticket);
    } catch (e) {
      if (page.aiGen !== gen) return;
      out.replaceChildren(h('p', { 'data-analysis': 'error' }, `No analysis: ${e.message}`));
      announce(`No analysis: ${e.message}`);
      return;
    } finally {
      watch.stop();
      page.analysing = false;
      page.renderControls();
    }
    // The position changed meanwhile: the analysis was of the one before.
    if (page.aiGen !== gen) return;
    page.analysis = result;
    renderAnalysis(out, result, shown, {
      onShow: (stones) => { page.hint = stones; page.renderBoard(); },
    });
    out.prepend(h('label', { class: 'check' },
      h('input', {
        type: 'checkbox', checked: page.showOwnership ? true : null, 'data-toggle': 'ownership',
        onchange: (e) => { page.showOwnership = e.target.checked; page.render(); },
      }), ' Show ownership on the board'));
    announce(out.querySelector('.analysis-summary').textContent);
    page.render();
  });
}
