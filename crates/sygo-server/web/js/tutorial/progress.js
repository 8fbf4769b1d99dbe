// The learner's progress through the lessons, kept by the browser
// (localStorage): how many steps of each lesson are done, and where they
// were. Nothing of it goes to the server. A browser that keeps nothing
// (private windows, storage turned off) just starts at the first lesson.

const KEY = 'sygo.learn';

/** `{done: {lessonId: stepsDone}, lesson: id | null, step: n}`. */
export function load() {
  const fresh = { done: {}, lesson: null, step: 0 };
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || 'null');
    if (!saved || typeof saved !== 'object') return fresh;
    const done = {};
    if (saved.done && typeof saved.done === 'object') {
      for (const [id, n] of Object.entries(saved.done)) {
        if (Number.isInteger(n) && n > 0) done[id] = n;
      }
    }
    return {
      done,
      lesson: typeof saved.lesson === 'string' ? saved.lesson : null,
      step: Number.isInteger(saved.step) && saved.step >= 0 ? saved.step : 0,
    };
  } catch (e) {
    return fresh;
  }
}

export function save(progress) {
  try {
    localStorage.setItem(KEY, JSON.stringify(progress));
  } catch (e) {
    // Storage full or refused: the lessons work on without it.
  }
}

export function clear() {
  try {
    localStorage.removeItem(KEY);
  } catch (e) {
    // Nothing kept, nothing to clear.
  }
}
