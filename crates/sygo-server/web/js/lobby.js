// The lobby on the home page (docs/web.md, "Lobby"): the open challenges,
// kept live by the server's events (`GET /api/lobby/events`, an
// EventSource), each with who posted it (name and rating), the board, the
// colours, the clock, rated or not and the rating range, and **Accept** (a
// guest is offered to sign in); one's own with **Withdraw**. A challenge
// accepted opens its game: the accepter's page keeps the token the server
// gives it; the poster's page learns of it from the lobby (its challenge
// "accepted", with the game) and asks the server for the account's sides
// (`GET /api/account`) before it opens the game — or, when the player is
// typing, says so with a link to it. Then the form to post a challenge
// (signed in), and the games being played now, to watch.
//
// The lists are updated in place: an item whose challenge (or game) did not
// change is kept as it is, so that the focus on its button, and a message
// under it, stay.

import * as api from './api.js';
import * as identity from './identity.js';
import * as account from './account-state.js';
import { h, cap, setChildren } from './dom.js';
import { announce } from './announce.js';
import { controlText } from './clock.js';
import { clockChoice } from './clock-choice.js';
import { boardName, sizeOptions } from './boards.js';
import { ratingElement } from './ratings.js';

/** The lowest and highest rating a challenge may ask for (the server's). */
const RATING_LIMITS = [0, 5000];

const sameName = (a, b) => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

/** The name of the account signed in, or null. */
function myName() {
  const s = account.current();
  return s && s.signedIn ? s.account.name : null;
}

/** Who may accept, in words: "Ratings 1400 to 1600", "Any rating". */
function rangeText(c) {
  const lo = c.min_rating;
  const hi = c.max_rating;
  if (lo != null && hi != null) return `Ratings ${lo} to ${hi}`;
  if (lo != null) return `Ratings from ${lo}`;
  if (hi != null) return `Ratings up to ${hi}`;
  return 'Any rating';
}

/** The colours, as the reader sees them. */
function colorText(c, mine, me) {
  if (c.color === 'random') return 'Colours drawn at random';
  if (mine) return `You play ${cap(c.color)}`;
  const you = me ? `; you play ${cap(c.color === 'black' ? 'white' : 'black')}` : '';
  return `${c.from.name} plays ${cap(c.color)}${you}`;
}

/**
 * Keeps `list`'s children as `items` (`[{key, sig, make}]`, in order): an
 * element whose `sig` is unchanged is kept (never moved if already in
 * place, so that it keeps the focus), a new or changed one is made.
 */
function reconcile(list, items, kept) {
  const next = new Map();
  items.forEach((item, i) => {
    const old = kept.get(item.key);
    const el = old && old.sig === item.sig ? old.el : item.make();
    next.set(item.key, { sig: item.sig, el });
    const at = list.children[i];
    if (at !== el) list.insertBefore(el, at || null);
  });
  for (const [key, { el }] of kept) {
    if (!next.has(key) || next.get(key).el !== el) el.remove();
  }
  while (list.children.length > items.length) list.lastElementChild.remove();
  kept.clear();
  for (const [k, v] of next) kept.set(k, v);
}

/** Whether the player is typing (a text field has the focus): the page
 * does not leave it by itself then. */
function typing() {
  const el = document.activeElement;
  if (!el) return false;
  if (el.tagName === 'TEXTAREA' || el.isContentEditable) return true;
  return el.tagName === 'INPUT' && !['button', 'submit', 'reset', 'checkbox', 'radio', 'file', 'range', 'color'].includes(el.type);
}

/**
 * The lobby's three parts for the home page: `challenges` (the open
 * challenges, live), `post` (the form, or a link to sign in), `playing`
 * (the games being played now). The live updates start at once.
 */
export function lobbySections() {
  const challengeList = h('ul', { class: 'challenges', id: 'challenges', 'aria-labelledby': 'lobby-title' });
  const status = h('p', { class: 'lobby-status', id: 'lobby-status', role: 'status' }, 'Loading the lobby…');
  const connection = h('p', { class: 'connection', id: 'lobby-connection', hidden: true },
    'The lobby’s live updates are interrupted: reconnecting…');
  const notice = h('div', { class: 'accepted-notice', id: 'accepted-notice', role: 'alert', hidden: true });
  // A refusal about a challenge that has gone from the list since.
  const lobbyMessage = h('p', { class: 'form-message', id: 'lobby-message', role: 'alert' });
  const guestNote = h('p', { class: 'small', id: 'lobby-guest', hidden: true },
    'Sign in to accept a challenge or post your own: ', h('a', { href: '/account', id: 'lobby-sign-in' }, 'sign in or create an account'), '.');
  const challenges = h('section', { class: 'card lobby', id: 'lobby', 'aria-labelledby': 'lobby-title' },
    h('h2', { id: 'lobby-title' }, 'Lobby: open challenges'),
    h('p', { class: 'small' }, 'Accept a challenge to start a game against the player who posted it. A rating with a ' +
      '“?” is provisional: its player has few rated games yet.'),
    notice, connection, status, challengeList, lobbyMessage, guestNote);

  const playingList = h('ul', { class: 'playing-list', id: 'playing-list', 'aria-labelledby': 'playing-title' });
  const playingNone = h('p', { id: 'playing-none' }, 'No game is being played right now.');
  const playing = h('section', { class: 'card playing', id: 'playing', 'aria-labelledby': 'playing-title' },
    h('h2', { id: 'playing-title' }, 'Games being played now'),
    h('p', { class: 'small' }, 'The games in progress that moved in the last 15 minutes: watch one.'),
    playingNone, playingList);

  const post = h('section', { class: 'card post-challenge-card', id: 'post-challenge-card', 'aria-labelledby': 'post-challenge-title' },
    h('h2', { id: 'post-challenge-title' }, 'Post a challenge'), h('p', {}, 'Loading…'));

  // What this page knows: the last lobby received, the elements shown, a
  // message by challenge, and the challenges of one's own seen open here.
  let latest = { challenges: [], playing: [] };
  let received = false;
  const shownChallenges = new Map();
  const shownPlaying = new Map();
  const messages = new Map();
  const seenOpen = new Set();
  const handled = new Set();
  let lastCount = null;

  const setMessage = (id, text) => {
    if (text) messages.set(id, text);
    else messages.delete(id);
    const el = challengeList.querySelector(`[data-challenge-message="${CSS.escape(id)}"]`);
    if (el) el.textContent = text || '';
  };

  // ---------------------------------------------------------- a challenge

  const accept = async (c, button) => {
    if (button.disabled) return;
    button.disabled = true;
    button.textContent = 'Accepting…';
    setMessage(c.id, '');
    lobbyMessage.textContent = '';
    let answer;
    try {
      answer = await api.acceptChallenge(c.id);
    } catch (err) {
      button.disabled = false;
      button.textContent = 'Accept';
      if (challengeList.querySelector(`[data-challenge="${CSS.escape(c.id)}"]`)) setMessage(c.id, err.message);
      else lobbyMessage.textContent = `${c.from.name}’s challenge: ${err.message}`;
      return;
    }
    // This browser keeps the side it plays; the game page plays it.
    identity.remember(answer.game, { [answer.color]: answer.token });
    announce(`Challenge accepted: you play ${cap(answer.color)}. Opening the game…`);
    location.assign(`/game/${encodeURIComponent(answer.game)}`);
  };

  const withdraw = async (c, button) => {
    if (button.disabled) return;
    button.disabled = true;
    button.textContent = 'Withdrawing…';
    setMessage(c.id, '');
    try {
      await api.withdrawChallenge(c.id);
    } catch (err) {
      button.disabled = false;
      button.textContent = 'Withdraw';
      setMessage(c.id, err.message);
      return;
    }
    latest = { ...latest, challenges: latest.challenges.filter((x) => x.id !== c.id) };
    render();
    status.textContent = 'Your challenge is withdrawn.';
  };

  const challengeItem = (c) => {
    const me = myName();
    const mine = sameName(c.from.name, me);
    const toMe = !mine && c.to && sameName(c.to, me);
    const accepted = c.state === 'accepted';
    const board = boardName(c);
    const profile = (name) => h('a', { href: `/player/${encodeURIComponent(name)}`, class: 'player-link' }, name);
    let who;
    if (mine) {
      who = [h('strong', {}, c.to ? `Your challenge to ${c.to}` : 'Your challenge'), ' ', ratingElement(c.from.rating)];
    } else if (toMe) {
      who = [h('strong', { class: 'direct' }, profile(c.from.name), ' challenges you'), ' ', ratingElement(c.from.rating)];
    } else {
      who = [profile(c.from.name), ' ', ratingElement(c.from.rating)];
    }
    const term = (key, text) => h('li', { 'data-term': key }, text);
    const terms = h('ul', { class: 'challenge-terms' },
      term('board', board),
      term('color', colorText(c, mine, me)),
      term('clock', c.clock ? controlText(c.clock) : 'No clock'),
      c.komi ? term('komi', `Komi ${c.komi}`) : null,
      term('rated', c.rated ? 'Rated' : 'Not rated'),
      term('range', rangeText(c)),
      accepted && c.accepted_by ? term('accepted', ['Accepted by ', profile(c.accepted_by)]) : null);
    let action;
    const label = `${mine ? 'your' : `${c.from.name}’s`} challenge: ${board}`;
    if (mine && accepted) {
      action = h('a', { href: `/game/${encodeURIComponent(c.game)}`, class: 'button primary', 'data-go': c.game },
        'Accepted: go to the game');
    } else if (mine) {
      const b = h('button', {
        type: 'button', 'data-withdraw': c.id, 'aria-label': `Withdraw ${label}`,
        onclick: () => withdraw(c, b),
      }, 'Withdraw');
      action = b;
    } else if (me) {
      const b = h('button', {
        type: 'button', class: 'primary', 'data-accept': c.id, 'aria-label': `Accept ${label}`,
        onclick: () => accept(c, b),
      }, 'Accept');
      action = b;
    } else {
      action = h('a', { href: '/account', class: 'button', 'data-sign-in-to-accept': c.id }, 'Sign in to accept');
    }
    return h('li', {
      class: `challenge${mine ? ' mine' : ''}${toMe ? ' to-me' : ''}${accepted ? ' accepted' : ''}`,
      'data-challenge': c.id, 'data-from': c.from.name, 'data-state': c.state,
      'data-mine': mine ? 'true' : null, 'data-direct': c.to ? 'true' : null,
    },
    h('div', { class: 'challenge-text' }, h('p', { class: 'challenge-who' }, ...who), terms),
    h('p', { class: 'challenge-actions' }, action),
    h('p', { class: 'challenge-message form-message', role: 'alert', 'data-challenge-message': c.id }, messages.get(c.id) || ''));
  };

  // ---------------------------------------------------------- the poster's game

  /** One's challenge accepted while this page watched: the account's sides
   * asked again (the new game's token with them), then the game opened, or
   * offered when the player is typing. */
  const accepted = async (c) => {
    if (handled.has(c.game)) return;
    handled.add(c.game);
    const href = `/game/${encodeURIComponent(c.game)}`;
    const by = c.accepted_by ? `${c.accepted_by} accepted your challenge` : 'Your challenge was accepted';
    setChildren(notice, h('p', {}, h('strong', {}, `${by}.`), ' Opening the game…'));
    notice.hidden = false;
    await account.refresh();
    if (typing()) {
      setChildren(notice,
        h('p', {}, h('strong', {}, `${by} — `),
          h('a', { href, class: 'button primary', id: 'accepted-go' }, 'go to the game')));
      document.title = `${by} — Sygo`;
      return;
    }
    location.assign(href);
  };

  // ---------------------------------------------------------- drawing

  /** Who plays a side of a game being played (`{kind, name | level}`), in words. */
  const whoText = (w) => {
    if (w && w.kind === 'account') return w.name;
    if (w && w.kind === 'ai') return `the AI (level ${w.level})`;
    return 'a guest';
  };

  /** The same, an account's name linking to its profile. */
  const whoElement = (w) => (w && w.kind === 'account'
    ? h('a', { href: `/player/${encodeURIComponent(w.name)}`, class: 'player-link', 'data-player': w.name }, w.name)
    : whoText(w));

  const playingItem = (g) => {
    const board = boardName(g);
    const kept = identity.tokensFor(g.id);
    const yours = !!(kept.black || kept.white);
    const bits = [`${g.turns} turn${g.turns === 1 ? '' : 's'}`, g.rated ? 'Rated' : 'Not rated',
      g.clock ? controlText(g.clock) : 'No clock'];
    const white = whoText(g.white);
    const black = whoText(g.black);
    return h('li', { class: 'playing-game', 'data-playing': g.id },
      h('div', { class: 'playing-text' },
        h('p', {}, h('strong', {}, board), ` · ${bits.join(' · ')}`),
        h('p', { class: 'playing-who' }, whoElement(g.white), ' (White) against ', whoElement(g.black), ' (Black)')),
      h('a', {
        href: `/game/${encodeURIComponent(g.id)}`, class: 'button', 'data-watch': g.id,
        'aria-label': `${yours ? 'Open your game' : 'Watch'}: ${white} against ${black}, ${board}`,
      }, yours ? 'Open your game' : 'Watch'));
  };

  function render() {
    const me = myName();
    const list = latest.challenges || [];
    for (const c of list) {
      if (!sameName(c.from.name, me)) continue;
      if (c.state === 'open') seenOpen.add(c.id);
      else if (c.state === 'accepted' && c.game && seenOpen.has(c.id)) accepted(c);
    }
    // Challenges for this player first, then in the server's order (oldest first).
    const rank = (c) => (c.to && sameName(c.to, me) ? 0 : 1);
    const ordered = list.map((c, i) => [c, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map(([c]) => c);
    reconcile(challengeList, ordered.map((c) => ({
      key: c.id, sig: JSON.stringify([c, me]), make: () => challengeItem(c),
    })), shownChallenges);
    for (const id of [...messages.keys()]) if (!list.some((c) => c.id === id)) messages.delete(id);
    const open = list.filter((c) => c.state === 'open' && !sameName(c.from.name, me)).length;
    const yoursOpen = list.filter((c) => c.state === 'open' && sameName(c.from.name, me)).length;
    const count = `${open}:${yoursOpen}`;
    if (count !== lastCount) {
      lastCount = count;
      const others = open === 0 ? 'No open challenge from another player right now.'
        : open === 1 ? '1 open challenge.' : `${open} open challenges.`;
      const own = yoursOpen ? ` ${yoursOpen === 1 ? 'Your challenge waits' : `Your ${yoursOpen} challenges wait`} for a player.` : '';
      status.textContent = received ? others + own : 'Loading the lobby…';
    }
    guestNote.hidden = !!me || !received;
    const games = latest.playing || [];
    reconcile(playingList, games.map((g) => ({ key: g.id, sig: JSON.stringify(g), make: () => playingItem(g) })), shownPlaying);
    playingNone.hidden = games.length > 0;
    playingNone.textContent = received ? 'No game is being played right now.' : 'Loading…';
  }

  const take = (data) => {
    if (!data || !Array.isArray(data.challenges)) return;
    latest = data;
    received = true;
    lastCount = null;
    render();
  };

  // ---------------------------------------------------------- live

  account.ready().then((state) => {
    setChildren(post, ...postForm(state, (c) => {
      // Shown at once; the lobby's next event says the same.
      seenOpen.add(c.id);
      latest = { ...latest, challenges: [...latest.challenges.filter((x) => x.id !== c.id), c] };
      lastCount = null;
      render();
    }));
    render();
    listen();
  });
  account.onChange(() => render());

  function listen() {
    if (typeof EventSource === 'undefined') {
      // No live updates: asked again every ten seconds.
      const ask = () => api.getLobby().then(take, () => {});
      ask();
      const timer = setInterval(() => (challenges.isConnected ? ask() : clearInterval(timer)), 10000);
      return;
    }
    const es = new EventSource(api.lobbyEventsUrl());
    es.addEventListener('lobby', (e) => {
      if (!challenges.isConnected) {
        es.close();
        return;
      }
      let data;
      try {
        data = JSON.parse(e.data);
      } catch (err) {
        return;
      }
      take(data);
    });
    es.onopen = () => { connection.hidden = true; };
    es.onerror = () => { connection.hidden = false; };
    window.addEventListener('pagehide', () => es.close(), { once: true });
    // Back from the browser's cache: listen again.
    window.addEventListener('pageshow', (e) => {
      if (e.persisted && challenges.isConnected) listen();
    }, { once: true });
  }

  return { challenges, post, playing };
}

// ---------------------------------------------------------------- the form

/**
 * The form to post a challenge (signed in): the board, the poster's
 * colour, the clock (as "Start a game" offers it), rated, a rating range,
 * and the name of the only player who may accept (a direct challenge).
 * Signed out: a link to sign in. `posted(challenge)` is told of each
 * challenge posted. Returns the section's children.
 */
function postForm(state, posted) {
  const title = h('h2', { id: 'post-challenge-title' }, 'Post a challenge');
  if (!state.signedIn) {
    return [title, h('p', {}, 'Signed in, you can post a challenge for anyone (or one player) to accept: ',
      h('a', { href: '/account', id: 'post-sign-in' }, 'sign in or create an account'), '.')];
  }
  const size = h('select', { id: 'challenge-size', name: 'challenge-size' });
  const form = h('form', { class: 'post-challenge', id: 'post-challenge', novalidate: true, 'aria-labelledby': 'post-challenge-title' });
  const variant = () => form.querySelector('input[name=challenge-variant]:checked').value;
  const fillSizes = () => setChildren(size, ...sizeOptions(variant()));
  const variantRadio = (value, label, checked) =>
    h('label', { class: 'radio' }, h('input', {
      type: 'radio', name: 'challenge-variant', value, checked: checked ? true : null, onchange: fillSizes,
    }), ` ${label}`);
  const field = (id, text, control) => h('span', { class: 'field' }, h('label', { for: id }, text), control);
  const color = h('select', { id: 'challenge-color', name: 'challenge-color' },
    h('option', { value: 'random', selected: true }, 'Drawn at random'),
    h('option', { value: 'black' }, 'Black'),
    h('option', { value: 'white' }, 'White (moves first)'));
  const clock = clockChoice({ prefix: 'challenge-', starts: 'as soon as the challenge is accepted' });
  const rated = h('input', { type: 'checkbox', id: 'challenge-rated', name: 'challenge-rated', checked: true });
  const ratingInput = (id) => h('input', {
    type: 'number', id, name: id, min: RATING_LIMITS[0], max: RATING_LIMITS[1], step: 1, inputmode: 'numeric',
    placeholder: 'any', 'aria-describedby': 'challenge-range-limits',
  });
  const minRating = ratingInput('challenge-min-rating');
  const maxRating = ratingInput('challenge-max-rating');
  const opponent = h('input', {
    type: 'text', id: 'challenge-opponent', name: 'challenge-opponent', maxlength: 20, autocomplete: 'off',
    spellcheck: 'false', autocapitalize: 'none', 'aria-describedby': 'challenge-opponent-rule',
  });
  const button = h('button', { type: 'submit', class: 'primary', id: 'post-challenge-button' }, 'Post challenge');
  const message = h('p', { class: 'form-message', role: 'alert', id: 'post-challenge-message' });
  const done = h('p', { class: 'form-done', role: 'status', id: 'post-challenge-done' });

  setChildren(form,
    h('fieldset', { class: 'board-choice' }, h('legend', {}, 'Board'),
      h('span', { class: 'variants' },
        variantRadio('sygo', 'Sygo (square)', true), variantRadio('hexsygo', 'Hexsygo (hexagonal)', false)),
      field('challenge-size', 'Size', size)),
    h('p', { class: 'option-row' }, field('challenge-color', 'You play', color)),
    clock.element,
    h('fieldset', { class: 'rating-choice' }, h('legend', {}, 'Rating'),
      h('label', { class: 'check', for: 'challenge-rated' }, rated, ' Rated: the result changes both players’ ratings'),
      h('span', { class: 'range-row' },
        h('span', { class: 'field' }, h('label', { for: 'challenge-min-rating' }, 'Lowest rating'), minRating),
        h('span', { class: 'field' }, h('label', { for: 'challenge-max-rating' }, 'Highest rating'), maxRating)),
      h('span', { class: 'limits small', id: 'challenge-range-limits' },
        'Who may accept, by their rating in the board’s family: 0 to 5000; leave empty for anyone.')),
    h('p', { class: 'opponent-row' },
      h('label', { for: 'challenge-opponent' }, 'Only for the player named (optional)'),
      opponent,
      h('span', { class: 'small', id: 'challenge-opponent-rule' }, 'A direct challenge: only they see it and may accept it. ' +
        'Leave empty for anyone.')),
    button, message, done);
  fillSizes();

  /** The rating fields read: `{min, max}` or `{error, field}`. */
  const range = () => {
    const read = (input, what) => {
      const v = input.value.trim();
      if (v === '') return { value: undefined };
      const n = Number(v);
      if (!Number.isInteger(n) || n < RATING_LIMITS[0] || n > RATING_LIMITS[1]) {
        return { error: `The ${what} rating: a whole number from 0 to 5000, or empty for any.`, field: input };
      }
      return { value: n };
    };
    const lo = read(minRating, 'lowest');
    if (lo.error) return lo;
    const hi = read(maxRating, 'highest');
    if (hi.error) return hi;
    if (lo.value !== undefined && hi.value !== undefined && lo.value > hi.value) {
      return { error: 'The lowest rating is above the highest.', field: minRating };
    }
    return { min: lo.value, max: hi.value };
  };

  let busy = false;
  form.addEventListener('input', () => { done.textContent = ''; });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (busy) return;
    message.textContent = '';
    done.textContent = '';
    const chosen = clock.value();
    const r = range();
    const fault = chosen.error ? chosen : r.error ? r : null;
    if (fault) {
      message.textContent = fault.error;
      if (fault.field) fault.field.focus();
      return;
    }
    const terms = {
      variant: variant(), size: Number(size.value), color: color.value, rated: rated.checked,
      clock: chosen.clock || undefined, min_rating: r.min, max_rating: r.max,
      opponent: opponent.value.trim() || undefined,
    };
    busy = true;
    button.disabled = true;
    button.textContent = 'Posting…';
    form.setAttribute('aria-busy', 'true');
    try {
      const c = await api.postChallenge(terms);
      posted(c);
      done.textContent = c.to
        ? `Your challenge to ${c.to} is posted: they see it in their lobby until they accept it (or you withdraw it).`
        : 'Your challenge is posted: it is in the lobby above until someone accepts it (or you withdraw it).';
      opponent.value = '';
    } catch (err) {
      message.textContent = err.message;
      const at = err.status === 404 || /yourself|player/i.test(err.message) ? opponent
        : /rating/i.test(err.message) ? minRating : null;
      if (at) at.focus();
    } finally {
      busy = false;
      button.disabled = false;
      button.textContent = 'Post challenge';
      form.removeAttribute('aria-busy');
    }
  });
  return [title,
    h('p', { class: 'small' }, 'Anyone signed in sees it in the lobby and may accept it (or only the player you name); ' +
      'the game starts between the two of you as soon as it is accepted. It stays open an hour, a week with a ' +
      'correspondence clock.'),
    form];
}
