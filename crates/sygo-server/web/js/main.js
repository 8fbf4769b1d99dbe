// Routing between the pages: / (home), /games (the list), /game/{id},
// /learn (the rules tutorial), /account (sign in, the account),
// /player/{name} (a profile), /ratings (the leaderboard).

import * as account from './account-state.js';
import { showHome } from './home.js';
import { showGames } from './games.js';
import { showGame } from './game.js';
import { showLearn } from './tutorial/learn.js';
import { showAccount } from './account.js';
import { showPlayer } from './player.js';
import { showRatings } from './ratings.js';
import * as notify from './notify.js';

/** A part of the path, decoded (as it is when it cannot be). */
function decoded(part) {
  try {
    return decodeURIComponent(part);
  } catch (e) {
    return part;
  }
}

function route() {
  const root = document.getElementById('app');
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const m = /^\/game\/([^/]+)$/.exec(path);
  const player = /^\/player\/([^/]+)$/.exec(path);
  for (const a of document.querySelectorAll('header nav a')) {
    const current = a.getAttribute('href') === path || (path === '/' && a.getAttribute('href') === '/');
    if (current) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (m) {
    document.title = `Sygo game ${decodeURIComponent(m[1])}`;
    showGame(root, decodeURIComponent(m[1]));
  } else if (player) {
    const name = decoded(player[1]);
    document.title = `${name} — Sygo player`;
    showPlayer(root, name);
  } else if (path === '/account') {
    document.title = 'Your Sygo account';
    showAccount(root);
  } else if (path === '/ratings') {
    document.title = 'Ratings — Sygo';
    showRatings(root);
  } else if (path === '/learn') {
    document.title = 'Learn Sygo';
    showLearn(root);
  } else if (path === '/games') {
    document.title = 'Sygo games';
    showGames(root);
  } else {
    document.title = 'Sygo';
    showHome(root);
  }
}

// Signed in or not, asked once per page load: the header's link, and the
// account's games kept by this browser (js/account-state.js).
account.ready();
route();
// The games waiting for this player and the challenges to them, on every
// page: the header, the title, the favicon, notifications (js/notify.js).
notify.start();

// A link with a side's secret opened on the page already shown (only its
// fragment differs, so the browser does not load it): load it, so that the
// game page takes the secret (js/identity.js).
window.addEventListener('hashchange', () => {
  if (/(^|[#&])(token|black|white)=/.test(location.hash)) location.reload();
});
