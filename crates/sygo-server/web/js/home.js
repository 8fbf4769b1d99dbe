// The home page: start a game, or upload a record to review it.

import * as api from './api.js';
import { h, cap, setChildren } from './dom.js';
import { copy } from './clipboard.js';

const SQUARE_SIZES = [5, 7, 9, 11, 13, 15, 17, 19];
const HEX_BASES = [3, 4, 5, 6, 7, 8, 9, 10];
const TIMES = [[200, '0.2 s'], [500, '0.5 s'], [1000, '1 s'], [2000, '2 s'], [5000, '5 s'], [10000, '10 s'], [30000, '30 s']];

function sideFieldset(color, defaultKind) {
  const kind = h('select', { id: `${color}-kind`, name: `${color}-kind` },
    h('option', { value: 'human', selected: defaultKind === 'human' ? true : null }, 'A person'),
    h('option', { value: 'ai', selected: defaultKind === 'ai' ? true : null }, 'The AI'));
  const level = h('select', { id: `${color}-level`, name: `${color}-level` },
    ...[1, 2, 3, 4, 5, 6].map((l) => h('option', { value: l, selected: l === 3 ? true : null },
      `Level ${l}${l === 1 ? ' (weakest)' : l === 6 ? ' (strongest)' : ''}`)));
  const time = h('select', { id: `${color}-time`, name: `${color}-time` },
    ...TIMES.map(([ms, label]) => h('option', { value: ms, selected: ms === 1000 ? true : null }, label)));
  const aiOptions = h('div', { class: 'ai-options' },
    h('label', { for: `${color}-level` }, 'Strength '), level,
    h('label', { for: `${color}-time` }, ' Time per turn '), time);
  const update = () => { aiOptions.hidden = kind.value !== 'ai'; };
  kind.addEventListener('change', update);
  update();
  const fs = h('fieldset', { class: `side ${color}` },
    h('legend', {}, h('span', { class: `stone-icon ${color}`, 'aria-hidden': 'true' }), ` ${cap(color)}${color === 'white' ? ' (moves first)' : ''}`),
    h('label', { for: `${color}-kind` }, 'Played by '), kind, aiOptions);
  return {
    fs, kind,
    spec: () => (kind.value === 'ai'
      ? { kind: 'ai', level: Number(level.value), time_ms: Number(time.value) }
      : { kind: 'human' }),
  };
}

function fragmentFor(tokens) {
  const parts = [];
  for (const c of ['black', 'white']) if (tokens[c]) parts.push(`${c}=${encodeURIComponent(tokens[c])}`);
  return parts.length ? '#' + parts.join('&') : '';
}

/** A side's private link: the server's own, told which side it is. */
function sideLink(created, color) {
  const token = created.tokens && created.tokens[color];
  if (!token) return null;
  const server = created.links && created.links[color];
  const path = server || `/game/${created.game.id}#token=${encodeURIComponent(token)}`;
  return location.origin + path + `&side=${color}`;
}

export function showHome(root) {
  const message = h('div', { class: 'message', role: 'alert', id: 'message' });
  const size = h('select', { id: 'size', name: 'size' });
  const variantRadio = (value, label, checked) =>
    h('label', { class: 'radio' }, h('input', {
      type: 'radio', name: 'variant', value, checked: checked ? true : null, onchange: () => fillSizes(),
    }), ` ${label}`);
  const fillSizes = () => {
    const variant = root.querySelector('input[name=variant]:checked').value;
    const opts = variant === 'hexsygo'
      ? HEX_BASES.map((n) => h('option', { value: n, selected: n === 5 ? true : null }, `base ${n} (${3 * n * (n - 1) + 1} cells)`))
      : SQUARE_SIZES.map((n) => h('option', { value: n, selected: n === 9 ? true : null }, `${n}×${n}`));
    setChildren(size, ...opts);
  };
  const black = sideFieldset('black', 'human');
  const white = sideFieldset('white', 'ai');
  const where = h('fieldset', { class: 'where', id: 'where' },
    h('legend', {}, 'Two people'),
    h('label', { class: 'radio' }, h('input', { type: 'radio', name: 'where', value: 'hotseat', checked: true }), ' on this page, taking turns (hot-seat)'),
    h('label', { class: 'radio' }, h('input', { type: 'radio', name: 'where', value: 'online' }), ' online: a private link for each player'));
  const updateWhere = () => { where.hidden = !(black.kind.value === 'human' && white.kind.value === 'human'); };
  black.kind.addEventListener('change', updateWhere);
  white.kind.addEventListener('change', updateWhere);
  const links = h('div', { class: 'links', id: 'links', hidden: true });

  const start = async (e) => {
    e.preventDefault();
    message.textContent = '';
    const variant = root.querySelector('input[name=variant]:checked').value;
    const spec = { variant, size: Number(size.value), komi: 0, black: black.spec(), white: white.spec() };
    let created;
    try {
      created = await api.createGame(spec);
    } catch (err) {
      message.textContent = err.message;
      return;
    }
    const id = created.game.id;
    const online = spec.black.kind === 'human' && spec.white.kind === 'human' &&
      root.querySelector('input[name=where]:checked').value === 'online';
    if (!online) {
      location.assign(`/game/${id}${fragmentFor(created.tokens || {})}`);
      return;
    }
    const row = (label, url, key) => {
      const input = h('input', { type: 'text', readonly: true, value: url, id: `link-${key}`, 'aria-label': label });
      return h('div', { class: 'link-row' },
        h('label', { for: `link-${key}` }, label), input,
        h('button', { type: 'button', onclick: () => copy(input, url) }, 'Copy'),
        h('a', { href: url, target: '_blank', rel: 'noopener' }, 'Open'));
    };
    setChildren(links,
      h('h2', {}, 'Your game is ready'),
      h('p', {}, 'Send each player their private link: whoever has it can move for that side. Keep yours; it is the only way back to your side.'),
      row('Black’s private link', sideLink(created, 'black'), 'black'),
      row('White’s private link', sideLink(created, 'white'), 'white'),
      row('Spectators’ link', `${location.origin}/game/${id}`, 'spectator'));
    links.hidden = false;
    links.scrollIntoView({ block: 'nearest' });
  };

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

  setChildren(root,
    h('div', { class: 'home' },
      h('section', { class: 'intro' },
        h('h1', {}, 'Sygo and Hexsygo'),
        h('p', {}, 'Go variants by Christian Freeling. Captured groups are reversed, not removed. A turn either places one ' +
          'unconnected stone or grows any or all of your groups by one stone each. White moves first.')),
      h('form', { class: 'card new-game', id: 'new-game', onsubmit: start },
        h('h2', {}, 'Start a game'),
        h('fieldset', { class: 'board-choice' }, h('legend', {}, 'Board'),
          variantRadio('sygo', 'Sygo (square)', true), variantRadio('hexsygo', 'Hexsygo (hexagonal)', false),
          h('label', { for: 'size', class: 'size-label' }, 'Size '), size),
        white.fs, black.fs, where,
        h('button', { type: 'submit', class: 'primary', id: 'start-game' }, 'Start game'),
        message, links),
      h('form', { class: 'card upload', id: 'upload', onsubmit: upload },
        h('h2', {}, 'Review a record'),
        h('p', { class: 'small' }, 'Upload a game record (SGF, as sygo writes it) to step through it.'),
        h('label', { for: 'record-file' }, 'Record file '), file,
        h('label', { for: 'record-text', class: 'block' }, 'or paste it here'), pasted,
        h('button', { type: 'submit', id: 'upload-button' }, 'Upload and review'),
        uploadMessage)));
  fillSizes();
  updateWhere();
}
