// The home page: your games (the ones this browser plays in, with whose turn
// it is and a way back in as the player), the lobby (the open challenges,
// live, to accept; a challenge posted; js/lobby.js), start a game in one of
// the three ways to play (against the AI, two people on this device, online
// with a friend by link), the games being played now, or upload a record to
// review it.

import * as api from './api.js';
import * as identity from './identity.js';
import * as account from './account-state.js';
import { h, cap, other, setChildren } from './dom.js';
import { copy } from './clipboard.js';
import { resultText } from './announce.js';
import { thumbnail } from './thumbnail.js';
import { controlText, firstTurnText } from './clock.js';
import { clockChoice } from './clock-choice.js';
import { boardName, sizeOptions } from './boards.js';
import { lobbySections } from './lobby.js';

const TIMES = [[200, '0.2 s'], [500, '0.5 s'], [1000, '1 s'], [2000, '2 s'], [5000, '5 s'], [10000, '10 s'], [30000, '30 s']];

/** A fresh id for a creation request: the server gives the same game to a
 * repeated request with the same id (a double click, a retry). */
function newRequestId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function showHome(root) {
  const yours = h('section', { class: 'card your-games', id: 'your-games', hidden: true, 'aria-labelledby': 'your-games-title' });
  const lobby = lobbySections();
  setChildren(root,
    h('div', { class: 'home' },
      h('section', { class: 'intro' },
        h('h1', {}, 'Sygo and Hexsygo'),
        h('p', {}, 'Go variants by Christian Freeling. Captured groups are reversed, not removed. A turn either places one ' +
          'unconnected stone or grows any or all of your groups by one stone each. White moves first.'),
        h('p', {}, 'New to the game? ', h('a', { href: '/learn', id: 'learn-link' }, 'Learn the rules'), ' in a few minutes, by playing them.')),
      yours,
      lobby.challenges,
      lobby.post,
      newGameForm(),
      lobby.playing,
      uploadForm()));
  showYourGames(yours);
  // Back on the tab (after playing in another one): whose turn may have changed.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && yours.isConnected) showYourGames(yours);
  });
}

// ---------------------------------------------------------------- your games

/** Who plays what in a game, as this browser sees it. */
function describe(g, mine) {
  const sides = ['black', 'white'].filter((c) => mine[c]);
  const ai = (c) => `the AI (level ${g[c].level})`;
  let who;
  if (sides.length === 2) who = 'Two people on this device (hot-seat)';
  else if (sides.length === 1) {
    const opp = other(sides[0]);
    who = `You play ${cap(sides[0])} against ${g[opp].kind === 'ai' ? ai(opp) : 'a person online'}`;
  } else if (g.black.kind === 'ai' && g.white.kind === 'ai') who = `The AI against itself (levels ${g.black.level} and ${g.white.level})`;
  else who = 'You are watching';
  let status, yourTurn = false;
  if (g.status === 'aborted') status = 'Game aborted: no result.';
  else if (g.status !== 'playing') status = `Game over: ${resultText(g)}.`;
  else if (mine[g.to_move] && g[g.to_move].kind === 'human') {
    yourTurn = true;
    status = sides.length === 2 ? `Your turn: ${cap(g.to_move)} to move.` : 'Your turn.';
  } else if (g[g.to_move].kind === 'ai') status = `${cap(g.to_move)} (the AI) to move${g.ai_thinking ? ': thinking…' : '.'}`;
  else status = `${cap(g.to_move)} to move: waiting for your opponent.`;
  return { who, status, yourTurn, sides };
}

async function showYourGames(section) {
  // Signed in, the account's games from its other devices are kept first.
  const state = await account.ready();
  const remembered = identity.list();
  if (!remembered.length) {
    section.hidden = true;
    return;
  }
  const title = h('h2', { id: 'your-games-title' }, 'Your games');
  const keep = identity.persistent() ? null : h('p', { class: 'note' },
    'This browser does not keep your games once the tab is closed (a private window?): keep the links of your games.');
  section.hidden = false;
  if (!section.firstChild) setChildren(section, title, h('p', {}, 'Loading your games…'));
  let answer;
  try {
    answer = await api.chosenGames(remembered.map((r) => r.id));
  } catch (e) {
    setChildren(section, title, keep, h('p', { role: 'alert' }, `Your games cannot be shown now: ${e.message}`));
    return;
  }
  const byId = new Map(answer.games.map((g) => [g.id, g]));
  const rows = remembered.filter((r) => byId.has(r.id)).map((r) => {
    const g = byId.get(r.id);
    return { g, mine: r, ...describe(g, r) };
  });
  const rank = (x) => (x.yourTurn ? 0 : x.g.status === 'playing' ? 1 : 2);
  rows.sort((a, b) => rank(a) - rank(b) || String(b.g.updated).localeCompare(String(a.g.updated)));

  const item = (x) => {
    const g = x.g;
    const over = g.status !== 'playing';
    const href = `/game/${g.id}`;
    return h('li', {
      class: `my-game${x.yourTurn ? ' your-turn' : ''}${over ? ' over' : ''}`,
      'data-game': g.id, 'data-status': over ? 'over' : x.yourTurn ? 'your-turn' : 'waiting',
    },
    h('a', { href, class: 'thumb-link', tabindex: '-1', 'aria-hidden': 'true' },
      thumbnail(g.position, `${boardName(g)} after ${g.turns} turns`)),
    h('div', { class: 'my-game-text' },
      h('p', { class: 'my-game-title' }, h('strong', {}, boardName(g)), ` · ${g.turns} turn${g.turns === 1 ? '' : 's'}`),
      h('p', { class: 'my-game-who' }, x.who),
      h('p', { class: `my-game-status${x.yourTurn ? ' your-turn-text' : ''}`, 'data-my-status': '' }, x.status),
      h('p', { class: 'my-game-actions' },
        h('a', { href, class: `button${x.yourTurn ? ' primary' : ''}`, 'data-open': g.id },
          over ? 'Review' : x.yourTurn ? 'Play your turn' : x.sides.length ? 'Open' : 'Watch'),
        over ? h('button', {
          type: 'button', 'data-forget': g.id, 'aria-label': `Forget the game ${boardName(g)} (${g.id})`,
          onclick: () => { identity.forget(g.id); showYourGames(section); },
        }, 'Forget') : null)));
  };

  const missing = remembered.filter((r) => !byId.has(r.id)).map((r) =>
    h('li', { class: 'my-game missing', 'data-game': r.id, 'data-status': 'missing' },
      h('div', { class: 'my-game-text' },
        h('p', {}, `Game ${r.id} is no longer on this server.`),
        h('button', { type: 'button', 'data-forget': r.id, onclick: () => { identity.forget(r.id); showYourGames(section); } }, 'Forget'))));

  const turns = rows.filter((x) => x.yourTurn);
  const playing = rows.filter((x) => x.g.status === 'playing');
  let banner = null;
  if (turns.length) {
    banner = h('p', { class: 'continue', id: 'continue' },
      h('strong', {}, turns.length === 1 ? 'It is your turn in a game. ' : `It is your turn in ${turns.length} games. `),
      h('a', { href: `/game/${turns[0].g.id}`, class: 'button primary', id: 'continue-link' }, 'Continue your game'));
  } else if (playing.length) {
    banner = h('p', { class: 'continue', id: 'continue' },
      h('a', { href: `/game/${playing[0].g.id}`, class: 'button', id: 'continue-link' }, 'Continue your game'));
  }
  setChildren(section, title, keep, banner,
    h('ul', { class: 'my-games', id: 'my-games' }, ...rows.map(item), ...missing),
    state.signedIn
      ? h('p', { class: 'small', id: 'games-kept-by' }, `Your account, ${state.account.name}, keeps these games: every ` +
        'browser or device signed in to it shows them.')
      : h('p', { class: 'small', id: 'games-kept-by' }, 'This browser remembers the games it plays in, with the secret of ' +
        'your side, so that you can come back to them without an account. Another browser or device does not know them: ',
      h('a', { href: '/account', id: 'games-sign-in' }, 'sign in'), ' to have them on each of yours.'));
}

// ---------------------------------------------------------------- a new game

function newGameForm() {
  const message = h('div', { class: 'message', role: 'alert', id: 'message' });
  const size = h('select', { id: 'size', name: 'size' });
  const variantRadio = (value, label, checked) =>
    h('label', { class: 'radio' }, h('input', {
      type: 'radio', name: 'variant', value, checked: checked ? true : null, onchange: () => fillSizes(),
    }), ` ${label}`);
  // The page checks the figures itself (a custom clock's, with its limits in
  // words), so the browser's own checks, blind to hidden fields, are off.
  const form = h('form', { class: 'card new-game', id: 'new-game', novalidate: true });
  const fillSizes = () => {
    const variant = form.querySelector('input[name=variant]:checked').value;
    setChildren(size, ...sizeOptions(variant));
  };

  // The three ways to play, all visible from the start.
  const way = (value, title, text, checked) =>
    h('label', { class: 'way', for: `mode-${value}` },
      h('input', { type: 'radio', name: 'mode', id: `mode-${value}`, value, checked: checked ? true : null }),
      h('span', { class: 'way-text' }, h('strong', {}, title), h('span', { class: 'small' }, text)));
  const ways = h('fieldset', { class: 'ways', id: 'ways' },
    h('legend', {}, 'How to play'),
    way('ai', 'Against the AI', 'You play one side, the AI the other.', true),
    way('hotseat', 'Two people on this device', 'Hot-seat: take turns at this screen.', false),
    way('online', 'Online with a friend', 'You get a link to send them; each plays from their own device.', false));

  const mySide = h('select', { id: 'my-side', name: 'my-side' });
  const level = h('select', { id: 'ai-level', name: 'ai-level' },
    ...[1, 2, 3, 4, 5, 6].map((l) => h('option', { value: l, selected: l === 3 ? true : null },
      `Level ${l}${l === 1 ? ' (weakest)' : l === 6 ? ' (strongest)' : ''}`)));
  const time = h('select', { id: 'ai-time', name: 'ai-time' },
    ...TIMES.map(([ms, label]) => h('option', { value: ms, selected: ms === 1000 ? true : null }, label)));
  // Each label with its select (side by side, one a line on a phone).
  const field = (id, text, select) => h('span', { class: 'field' }, h('label', { for: id }, text), select);
  const sideRow = h('p', { class: 'option-row', id: 'side-row' }, field('my-side', 'You play', mySide));
  const aiRow = h('p', { class: 'option-row', id: 'ai-row' },
    field('ai-level', 'The AI’s strength', level), field('ai-time', 'Time per turn', time));

  const mode = () => form.querySelector('input[name=mode]:checked').value;
  const fillSides = () => {
    const m = mode();
    const chosen = mySide.value || 'black';
    const opts = [['black', 'Black'], ['white', 'White (moves first)']];
    if (m === 'ai') opts.push(['none', 'Neither: watch the AI play itself']);
    setChildren(mySide, ...opts.map(([v, label]) => h('option', { value: v, selected: v === chosen ? true : null }, label)));
    sideRow.hidden = m === 'hotseat';
    aiRow.hidden = m !== 'ai';
  };

  const clock = clockChoice();

  const links = h('div', { class: 'links', id: 'links', hidden: true });
  const startButton = h('button', { type: 'submit', class: 'primary', id: 'start-game' }, 'Start game');
  // One request id per game asked for: kept while the form is unchanged
  // (a retry gets the same game), new once a game is made or a choice changes.
  let requestId = newRequestId();
  let busy = false;
  form.addEventListener('change', (e) => {
    if (e.target && e.target.name === 'mode') fillSides();
    requestId = newRequestId();
  });
  // A figure typed into a custom clock is a change too (before its `change`).
  form.addEventListener('input', () => { requestId = newRequestId(); });

  const spec = () => {
    const m = mode();
    const variant = form.querySelector('input[name=variant]:checked').value;
    const person = { kind: 'human' };
    const ai = { kind: 'ai', level: Number(level.value), time_ms: Number(time.value) };
    const sides = m !== 'ai' ? { black: person, white: person }
      : mySide.value === 'black' ? { black: person, white: ai }
        : mySide.value === 'white' ? { black: ai, white: person }
          : { black: ai, white: ai };
    const spec = { variant, size: Number(size.value), komi: 0, ...sides, request_id: requestId };
    const chosen = clock.value();
    if (chosen.error) return chosen;
    if (chosen.clock) spec.clock = chosen.clock;
    return spec;
  };

  const start = async (e) => {
    e.preventDefault();
    if (busy) return; // a second click while the first is on its way
    busy = true;
    startButton.disabled = true;
    startButton.textContent = 'Starting…';
    message.textContent = '';
    const m = mode();
    const mine = mySide.value;
    const asked = spec();
    if (asked.error) {
      // A custom clock's figure out of its limits: said, and its field focused.
      message.textContent = asked.error;
      if (asked.field) asked.field.focus();
      busy = false;
      startButton.disabled = false;
      startButton.textContent = 'Start game';
      return;
    }
    let created;
    try {
      created = await api.createGame(asked);
    } catch (err) {
      message.textContent = err.message;
      busy = false;
      startButton.disabled = false;
      startButton.textContent = 'Start game';
      return;
    }
    const id = created.game.id;
    const tokens = created.tokens || {};
    // This browser keeps the secrets of the sides it plays: both in
    // hot-seat, its own online (the friend's goes in their link).
    identity.remember(id, m === 'online' ? { [mine]: tokens[mine] } : tokens);
    if (m !== 'online') {
      location.assign(`/game/${id}`);
      return;
    }
    requestId = newRequestId();
    busy = false;
    startButton.disabled = false;
    startButton.textContent = 'Start game';
    showLinks(links, created, mine);
  };
  form.addEventListener('submit', start);

  setChildren(form,
    h('h2', {}, 'Start a game'),
    ways,
    h('fieldset', { class: 'board-choice' }, h('legend', {}, 'Board'),
      h('span', { class: 'variants' },
        variantRadio('sygo', 'Sygo (square)', true), variantRadio('hexsygo', 'Hexsygo (hexagonal)', false)),
      h('span', { class: 'field' }, h('label', { for: 'size' }, 'Size'), size)),
    sideRow, aiRow,
    clock.element,
    startButton,
    message, links);
  fillSizes();
  fillSides();
  return form;
}

/** A side's private link: the server's own (the secret in the fragment,
 * which never reaches the server), told which side it is. */
function sideLink(created, color) {
  const token = created.tokens && created.tokens[color];
  if (!token) return null;
  const path = (created.links && created.links[color]) || `/game/${created.game.id}#token=${encodeURIComponent(token)}`;
  return location.origin + path + `&side=${color}`;
}

/** After an online game is made: the friend's link to send, the way in for
 * oneself, the spectators' link. */
function showLinks(links, created, mine) {
  const id = created.game.id;
  const friend = other(mine);
  const row = (label, url, key) => {
    const input = h('input', { type: 'text', readonly: true, value: url, id: `link-${key}`, 'aria-label': label });
    return h('div', { class: 'link-row' },
      h('label', { for: `link-${key}` }, label), input,
      h('button', { type: 'button', onclick: () => copy(input, url) }, 'Copy'));
  };
  setChildren(links,
    h('h2', {}, 'Your game is ready'),
    h('p', {}, `You play ${cap(mine)}. Send this link to your friend: it lets whoever has it play ${cap(friend)}, so send it to them alone.`),
    created.game.clock ? h('p', { class: 'note', id: 'clock-started' }, `${controlText(created.game.clock.control)}. The clock runs ` +
      `from now: White, who moves first, has ${firstTurnText(created.game.clock.control)} for the first turn.`) : null,
    row(`${cap(friend)}’s link, for your friend`, sideLink(created, friend), friend),
    h('p', {}, h('a', { href: `/game/${id}`, class: 'button primary', id: 'go-to-game' }, `Go to the game as ${cap(mine)}`)),
    h('p', { class: 'small' }, 'This browser remembers your side: the home page brings you back to the game.'),
    row('Spectators’ link (watching only)', `${location.origin}/game/${id}`, 'spectator'),
    h('details', {},
      h('summary', {}, `Your own link (${cap(mine)}), to play from another device`),
      row(`${cap(mine)}’s link`, sideLink(created, mine), mine)));
  links.hidden = false;
  links.scrollIntoView({ block: 'nearest' });
}

// ---------------------------------------------------------------- a record

function uploadForm() {
  const file = h('input', { type: 'file', id: 'record-file', accept: '.sgf,application/x-go-sgf,text/plain' });
  const pasted = h('textarea', { id: 'record-text', rows: 4, placeholder: '(;GM[400]…)' });
  const uploadMessage = h('div', { class: 'message', role: 'alert', id: 'upload-message' });
  const upload = async (e) => {
    e.preventDefault();
    uploadMessage.textContent = '';
    let text = pasted.value.trim();
    if (file.files && file.files[0]) text = await file.files[0].text();
    if (!text) {
      uploadMessage.textContent = 'Choose a record file or paste a record first.';
      return;
    }
    try {
      const created = await api.uploadRecord(text);
      location.assign(`/game/${created.game.id}`);
    } catch (err) {
      uploadMessage.textContent = err.message;
    }
  };
  return h('form', { class: 'card upload', id: 'upload', onsubmit: upload },
    h('h2', {}, 'Review a record'),
    h('p', { class: 'small' }, 'Upload a game record (SGF, as sygo writes it) to step through it.'),
    h('label', { for: 'record-file', class: 'block' }, 'Record file'), file,
    h('label', { for: 'record-text', class: 'block' }, 'or paste it here'), pasted,
    h('button', { type: 'submit', id: 'upload-button' }, 'Upload and review'),
    uploadMessage);
}
