// Whether a finished turn does what a lesson's step asks ("goal" in
// lessons.json), judged from what the server said about the turn: its
// stones, the kind of each and the groups' status when it ended
// (POST /api/position/steps), and the stones it reversed
// (POST /api/position/turns). The rules stay on the server: this only
// compares answers with the lesson's conditions. tests/server/lessons.rs
// judges the lessons' answers and misses by the same conditions, with the
// rules library.

/**
 * A finished turn: `{pass, stones, kinds, allGrown, reversed}` — the turn's
 * stones in order (the step's own pending stones first), "growth" or
 * "placement" for each, whether every one of the mover's groups had grown
 * (or was frozen by a capture) when it ended, the stones it reversed.
 */

/** Whether the turn meets one condition of a goal. */
export function meets(condition, turn) {
  const kinds = turn.kinds;
  if ('kind' in condition) {
    switch (condition.kind) {
      case 'pass': return turn.pass;
      case 'placement': return kinds.length === 1 && kinds[0] === 'placement';
      case 'growth': return kinds.length > 0 && kinds.every((k) => k === 'growth');
      case 'balance':
        return kinds.length >= 2 && kinds[kinds.length - 1] === 'placement' &&
          kinds.slice(0, -1).every((k) => k === 'growth');
      default: return false;
    }
  }
  if ('grows' in condition) return kinds.includes('growth') === condition.grows;
  if ('stones' in condition) {
    const want = new Set(condition.stones);
    const got = new Set(turn.stones);
    return want.size === got.size && [...want].every((p) => got.has(p));
  }
  if ('some_of' in condition) return condition.some_of.some((p) => turn.stones.includes(p));
  if ('reverses' in condition) return condition.reverses.every((p) => turn.reversed.includes(p));
  if ('all_grown' in condition) return turn.allGrown === condition.all_grown;
  return false;
}

/** The hint of the first condition the turn misses; null when it meets them all. */
export function missedHint(goal, turn) {
  for (const condition of goal) {
    if (!meets(condition, turn)) return condition.hint;
  }
  return null;
}
