// The account page, /account. Signed out: sign in, or create an account
// (the games this browser keeps become the account's). Signed in: who, the
// profile, vacation switched on or off (with what is left of it), the
// password changed, sign out. Both: browser notifications turned on or off
// (js/notify.js). The server's message is shown when it refuses; a form's
// button is disabled while its request runs.

import * as account from './account-state.js';
import * as identity from './identity.js';
import { h, setChildren } from './dom.js';
import { announce } from './announce.js';
import { notificationControl } from './notify.js';
import { formatDays } from './clock.js';

const NAME_RULE = '3 to 20 letters, digits, _ or -, starting with a letter or a digit.';
const PASSWORD_RULE = '8 to 128 characters, not your name.';

export async function showAccount(root) {
  setChildren(root, h('div', { class: 'account-page' }, h('h1', {}, 'Account'), h('p', {}, 'Loading…')));
  const state = await account.ready();
  if (!root.isConnected) return;
  show(root, state, '');
}

/** Draws the page for `state`; `said` is a sentence about what just
 * happened (signed in, out), read out and focused. */
function show(root, state, said) {
  document.title = state.signedIn ? 'Your Sygo account' : 'Sign in to Sygo';
  const page = state.signedIn ? signedIn(root, state) : signedOut(root, state);
  setChildren(root, page);
  if (said) {
    page.querySelector('#account-notice').textContent = said;
    page.querySelector('#account-title').focus();
    announce(state.signedIn ? `${said} Signed in as ${state.account.name}.` : said);
  }
}

/** A labelled input, with its rule said next to it (and read with it). */
function field(id, label, attrs, rule) {
  const input = h('input', {
    id, name: id, spellcheck: 'false', autocapitalize: 'none',
    'aria-describedby': rule ? `${id}-rule` : null, ...attrs,
  });
  return h('div', { class: 'account-field' },
    h('label', { for: id }, label),
    rule ? h('p', { class: 'small rule', id: `${id}-rule` }, rule) : null,
    input);
}

/**
 * Wires a form: on submit, `check()` may say what is missing; else the
 * button is disabled (a second submission is ignored) while `act()` runs.
 * A refusal shows the server's message under the form, and the focus goes
 * to the field it is about.
 */
function wire(form, { button, busyLabel, message, check, act, fieldFor }) {
  let busy = false;
  const label = button.textContent;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (busy) return;
    message.textContent = '';
    const missing = check();
    if (missing) {
      message.textContent = missing.text;
      missing.input.focus();
      return;
    }
    busy = true;
    button.disabled = true;
    button.textContent = busyLabel;
    form.setAttribute('aria-busy', 'true');
    try {
      await act();
    } catch (err) {
      message.textContent = err.message;
      const input = fieldFor(err);
      if (input && input.isConnected) {
        input.focus();
        input.select();
      }
    } finally {
      busy = false;
      button.disabled = false;
      button.textContent = label;
      form.removeAttribute('aria-busy');
    }
  });
}

const games = (n) => (n === 1 ? '1 game' : `${n} games`);

// ---------------------------------------------------------------- signed out

function signedOut(root, state) {
  const kept = identity.list().length;
  const unknown = state.unknown
    ? h('p', { role: 'alert', class: 'message-box' },
      `Whether this browser is signed in cannot be known now: ${state.error} `,
      h('a', { href: '/account' }, 'Try again'))
    : null;
  return h('div', { class: 'account-page' },
    h('h1', { id: 'account-title', tabindex: '-1' }, 'Sign in or create an account'),
    h('p', { id: 'account-notice', role: 'status', class: 'account-notice' }),
    unknown,
    h('p', {}, 'Playing needs no account: this browser remembers your games. An account keeps them on every ' +
      'browser and device you sign in on, and gives you a profile with your games and your record against the AI.'),
    h('p', { class: 'note', id: 'kept-games' }, kept
      ? `${kept === 1 ? 'The game this browser keeps becomes' : `The ${kept} games this browser keeps become`} the ` +
        'account’s when you sign in or create it, and so does every game you start or join while signed in.'
      : 'Every game you start or join while signed in becomes the account’s.'),
    h('div', { class: 'account-forms' },
      authForm(root, {
        key: 'sign-in', title: 'Sign in', button: 'Sign in', busy: 'Signing in…',
        password: 'current-password', create: false,
      }),
      authForm(root, {
        key: 'sign-up', title: 'Create an account', button: 'Create account', busy: 'Creating the account…',
        password: 'new-password', create: true,
      })),
    notificationControl());
}

/** The sign-in form, or the sign-up one (`create`). */
function authForm(root, { key, title, button, busy, password, create }) {
  const nameField = field(`${key}-name`, 'Name', { type: 'text', autocomplete: 'username', maxlength: 20 },
    create ? NAME_RULE : null);
  const passwordField = field(`${key}-password`, 'Password', { type: 'password', autocomplete: password, maxlength: 128 },
    create ? PASSWORD_RULE : null);
  const name = nameField.querySelector('input');
  const pass = passwordField.querySelector('input');
  const submit = h('button', { type: 'submit', class: 'primary', id: `${key}-button` }, button);
  const message = h('p', { class: 'form-message', role: 'alert', id: `${key}-message` });
  const form = h('form', { class: 'card account-form', id: `${key}-form`, 'aria-labelledby': `${key}-title` },
    h('h2', { id: `${key}-title` }, title),
    nameField, passwordField, submit, message);
  wire(form, {
    button: submit, busyLabel: busy, message,
    check: () => (!name.value.trim() ? { text: 'Enter your name.', input: name }
      : !pass.value ? { text: 'Enter your password.', input: pass } : null),
    act: async () => {
      const done = await account.signIn(name.value.trim(), pass.value, { create });
      const n = done.claimed;
      const said = (create ? 'Account created.' : 'Welcome back.') +
        (n ? ` ${games(n)} of this browser ${n === 1 ? 'is' : 'are'} now the account’s.` : '');
      show(root, account.current(), said);
    },
    fieldFor: (err) => (/password/i.test(err.message) && err.status !== 409 ? pass : name),
  });
  return form;
}

// ---------------------------------------------------------------- signed in

function signedIn(root, state) {
  const { name, created } = state.account;
  const since = formatDate(created);
  return h('div', { class: 'account-page' },
    h('h1', { id: 'account-title', tabindex: '-1' }, 'Your account'),
    h('p', { id: 'account-notice', role: 'status', class: 'account-notice' }),
    h('p', { id: 'signed-in-as' }, 'Signed in as ', h('strong', {}, name), since ? `. Member since ${since}.` : '.'),
    h('p', { class: 'account-links' },
      h('a', { href: `/player/${encodeURIComponent(name)}`, class: 'button', id: 'profile-link' }, 'Your profile'),
      h('a', { href: '/', class: 'button' }, 'Your games')),
    h('p', { class: 'small' }, 'The account keeps your games: every browser or device signed in to it shows them on ' +
      'its home page and plays them. Each game you start or join here becomes the account’s.'),
    notificationControl(),
    vacationBox(state.vacation),
    passwordForm(name),
    signOutBox(root));
}

/** A time as the reader writes it, to the minute. */
function formatWhen(ms) {
  const d = new Date(ms);
  if (typeof ms !== 'number' || Number.isNaN(d.getTime())) return '';
  return d.toLocaleString(undefined, { year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** A span of vacation in words: "12 days 3 h", "nothing". */
const vacationSpan = (ms) => (ms > 0 ? formatDays(ms) : 'nothing');

/**
 * Vacation: on or off, since when, what is left of the allowance, and the
 * switch (a click only: it is never switched on otherwise). While on, the
 * clocks of the account's correspondence games stop on its turns.
 */
function vacationBox(vacation) {
  const status = h('p', { id: 'vacation-status', role: 'status' });
  const left = h('p', { class: 'small', id: 'vacation-left' });
  const button = h('button', { type: 'button', id: 'vacation-button' });
  const message = h('p', { class: 'form-message', role: 'alert', id: 'vacation-message' });
  const box = h('section', { class: 'card vacation-box', id: 'vacation-box', 'aria-labelledby': 'vacation-title' },
    h('h2', { id: 'vacation-title' }, 'Vacation'),
    h('p', { class: 'small' }, 'On vacation, the clocks of your correspondence games stop on your turns, and your ' +
      'opponents see that you are away. Live games are not affected. You have 30 days of vacation in any 365; ' +
      'a vacation ends by itself when they are used up, and it is only ever switched on here, by you.'),
    status, left,
    h('p', { class: 'account-buttons' }, button),
    message);
  let current = vacation;
  const draw = () => {
    const v = current;
    if (!v) {
      status.textContent = 'Your vacation cannot be shown now: reload the page.';
      left.textContent = '';
      button.hidden = true;
      return;
    }
    button.hidden = false;
    button.textContent = v.on ? 'End vacation' : 'Go on vacation';
    button.setAttribute('aria-pressed', v.on ? 'true' : 'false');
    button.disabled = !v.on && !(v.left_ms > 0);
    box.toggleAttribute('data-on', !!v.on);
    if (v.on) {
      status.textContent = `You are on vacation since ${formatWhen(v.since_ms)}: the clocks of your correspondence ` +
        'games are stopped on your turns.';
      left.textContent = `It ends by itself on ${formatWhen(v.until_ms)} at the latest, when your vacation is used ` +
        `up (${vacationSpan(v.left_ms)} left).`;
    } else {
      status.textContent = 'You are not on vacation.';
      left.textContent = v.left_ms > 0
        ? `${vacationSpan(v.left_ms)} of vacation left (${vacationSpan(v.used_ms)} taken in the last ${v.window_days} days).`
        : `No vacation left: you have taken ${v.allowance_days} days in the last ${v.window_days}.`;
    }
  };
  button.addEventListener('click', async () => {
    if (!current || button.disabled) return;
    const on = !current.on;
    button.disabled = true;
    message.textContent = '';
    try {
      current = await account.setVacation(on);
      draw();
    } catch (err) {
      message.textContent = err.message;
      draw();
    }
  });
  draw();
  return box;
}

function passwordForm(name) {
  const current = field('current-password', 'Current password', { type: 'password', autocomplete: 'current-password', maxlength: 128 });
  const next = field('new-password', 'New password', { type: 'password', autocomplete: 'new-password', maxlength: 128 }, PASSWORD_RULE);
  const cur = current.querySelector('input');
  const nxt = next.querySelector('input');
  const submit = h('button', { type: 'submit', id: 'password-button' }, 'Change password');
  const message = h('p', { class: 'form-message', role: 'alert', id: 'password-message' });
  const done = h('p', { class: 'form-done', role: 'status', id: 'password-done' });
  const form = h('form', { class: 'card account-form', id: 'password-form', 'aria-labelledby': 'password-title' },
    h('h2', { id: 'password-title' }, 'Change password'),
    // The account's name, for a password manager to file the new password under.
    h('input', { type: 'text', autocomplete: 'username', value: name, readonly: true, hidden: true, 'aria-hidden': 'true', tabindex: '-1' }),
    current, next, submit, message, done);
  wire(form, {
    button: submit, busyLabel: 'Changing…', message,
    check: () => {
      done.textContent = '';
      return !cur.value ? { text: 'Enter your current password.', input: cur }
        : !nxt.value ? { text: 'Enter the new password.', input: nxt } : null;
    },
    act: async () => {
      await account.changePassword(cur.value, nxt.value);
      cur.value = '';
      nxt.value = '';
      done.textContent = 'Your password is changed. Other browsers signed in to this account are signed out.';
    },
    fieldFor: (err) => (err.status === 401 ? cur : nxt),
  });
  return form;
}

function signOutBox(root) {
  const message = h('p', { class: 'form-message', role: 'alert', id: 'sign-out-message' });
  const out = (forgetGames) => async (e) => {
    const buttons = [...e.currentTarget.parentElement.querySelectorAll('button')];
    for (const b of buttons) b.disabled = true;
    message.textContent = '';
    try {
      await account.signOut({ forgetGames });
    } catch (err) {
      message.textContent = err.message;
      for (const b of buttons) b.disabled = false;
      return;
    }
    show(root, account.current(), forgetGames
      ? 'You are signed out, and this browser forgot the account’s games.'
      : 'You are signed out.');
  };
  return h('section', { class: 'card', id: 'sign-out-box', 'aria-labelledby': 'sign-out-title' },
    h('h2', { id: 'sign-out-title' }, 'Sign out'),
    h('p', { class: 'small' }, 'Signed out, this browser still plays the games it keeps. On a computer that others use, ' +
      'sign out and forget the account’s games here: the account keeps them for when you sign in again.'),
    h('p', { class: 'account-buttons' },
      h('button', { type: 'button', id: 'sign-out', onclick: out(false) }, 'Sign out'),
      h('button', { type: 'button', id: 'sign-out-forget', onclick: out(true) }, 'Sign out and forget the account’s games here')),
    message);
}

/** A date as the reader writes it; the server's `created` is a UTC time
 * (`2025-06-01T12:34:56Z`) or Unix time. */
export function formatDate(t) {
  if (t === undefined || t === null || t === '') return '';
  const d = typeof t === 'number' ? new Date(t > 1e12 ? t : t * 1000) : new Date(t);
  if (Number.isNaN(d.getTime())) return String(t);
  return d.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}
