// The rules asked about a lesson's position, given as a position string
// (docs/position-string.md): the endpoints of docs/web.md under
// /api/position. Nothing is stored on the server.

import { api } from '../api.js';

/** The position as the pages draw it: points, stones, side to move, score. */
export const describe = (position) =>
  api('/api/position', { method: 'POST', body: { position } });

/** A turn in progress: the same answer as a game's POST /steps. */
export const steps = (position, stones) =>
  api('/api/position/steps', { method: 'POST', body: { position, stones } });

/** A whole turn (`D5,F7`, `pass`): its stones, reversals, the position after. */
export const play = (position, turn) =>
  api('/api/position/turns', { method: 'POST', body: { position, turn } });

/**
 * The rules' reason in a refused stone of /steps: the server writes
 * "step 2 (B4): B4 would …"; the reason is what follows the step's number.
 */
export const reasonOf = (message) => message.replace(/^step \d+ \([^)]*\): /, '');
