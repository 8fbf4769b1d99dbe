// The turn being built on the page, stone by stone. The server says what
// each stone does (`POST /api/games/{id}/steps`): which steps may follow,
// which groups are fresh, grown or frozen, whether the turn may finish.

import { steps } from './api.js';

export class TurnBuilder {
  constructor(gameId) {
    this.gameId = gameId;
    this.pending = [];
    this.steps = null;
    this.seq = 0;
  }

  /** Forgets the turn (a new position arrived). */
  reset() {
    this.pending = [];
    this.steps = null;
    this.seq++;
  }

  /**
   * Asks the server about the pending stones. Resolves to the answer, or to
   * null if a newer request or a reset overtook this one. A refused stone
   * rejects with the ApiError (422 `illegal`, its number in the message).
   */
  async refresh() {
    const seq = ++this.seq;
    const answer = await steps(this.gameId, this.pending.slice());
    if (seq !== this.seq) return null;
    this.steps = answer;
    return answer;
  }

  /** The step the point would be: `{kind, reverses}` or `{refused}`. */
  entry(point) {
    return this.steps && this.steps.next ? this.steps.next[point] || null : null;
  }

  get finish() {
    return (this.steps && this.steps.finish) || { allowed: false, reason: null };
  }

  /** The turn as the protocol writes it: `D5,F7`. */
  get text() {
    return this.pending.join(',');
  }
}
