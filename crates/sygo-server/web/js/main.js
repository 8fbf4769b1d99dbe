// Routing between the pages: / (home), /games (the list), /game/{id},
// /learn (the rules tutorial).

import { showHome } from './home.js';
import { showGames } from './games.js';
import { showGame } from './game.js';
import { showLearn } from './tutorial/learn.js';

function route() {
  const root = document.getElementById('app');
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const m = /^\/game\/([^/]+)$/.exec(path);
  for (const a of document.querySelectorAll('header nav a')) {
    const current = a.getAttribute('href') === path || (path === '/' && a.getAttribute('href') === '/');
    if (current) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (m) {
    document.title = `Sygo game ${decodeURIComponent(m[1])}`;
    showGame(root, decodeURIComponent(m[1]));
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

route();

// A link with a side's secret opened on the page already shown (only its
// fragment differs, so the browser does not load it): load it, so that the
// game page takes the secret (js/identity.js).
window.addEventListener('hashchange', () => {
  if (/(^|[#&])(token|black|white)=/.test(location.hash)) location.reload();
});
