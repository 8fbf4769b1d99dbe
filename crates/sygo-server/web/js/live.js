// Live updates of one game: the server's events (`GET /api/games/{id}/events`,
// an `EventSource`, which reconnects by itself). The page never polls.

import { eventsUrl } from './api.js';

/**
 * Listens to the game `id`: `onGame(game)` for every game the server sends
 * (at once, then after every change), `onConnection(ok)` when the stream
 * opens or is lost. Returns a handle with `close()`.
 */
export function subscribe(id, { onGame, onConnection }) {
  if (typeof EventSource === 'undefined') return { close() {} };
  let es = null;
  let closed = false;
  const open = () => {
    es = new EventSource(eventsUrl(id));
    es.addEventListener('game', (e) => {
      let game;
      try {
        game = JSON.parse(e.data);
      } catch (err) {
        return;
      }
      onGame(game);
    });
    es.onopen = () => onConnection(true);
    es.onerror = () => onConnection(false);
  };
  // A page left keeps its connection open a while in some browsers, and a
  // site has few connections: close it as the page goes, open it again if
  // the page comes back from the browser's cache.
  const hide = () => { if (es) es.close(); };
  const show = (e) => { if (e.persisted && !closed) open(); };
  window.addEventListener('pagehide', hide);
  window.addEventListener('pageshow', show);
  open();
  return {
    close() {
      closed = true;
      hide();
      window.removeEventListener('pagehide', hide);
      window.removeEventListener('pageshow', show);
    },
  };
}
