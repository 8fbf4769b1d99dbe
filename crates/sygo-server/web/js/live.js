// Live updates of one game: the server's events (`GET /api/games/{id}/events`,
// an `EventSource`, which reconnects by itself). The page never polls.

import { eventsUrl } from './api.js';

/** The events of a game's stream (docs/web.md; js/game-events.js applies them). */
const KINDS = ['game', 'turn', 'change', 'chat'];

/**
 * Listens to the game `id`: `onEvent(kind, data)` for every event the
 * server sends — the whole game (`game`) at once and whenever a page could
 * not work out the change, then the small events (`turn`, `change`,
 * `chat`) —, `onConnection(ok)` when the stream opens or is lost. Returns
 * a handle with `close()`.
 */
export function subscribe(id, { onEvent, onConnection }) {
  if (typeof EventSource === 'undefined') return { close() {} };
  let es = null;
  let closed = false;
  const open = () => {
    es = new EventSource(eventsUrl(id));
    for (const kind of KINDS) {
      es.addEventListener(kind, (e) => {
        let data;
        try {
          data = JSON.parse(e.data);
        } catch (err) {
          return;
        }
        onEvent(kind, data);
      });
    }
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
