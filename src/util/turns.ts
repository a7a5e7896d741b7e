/**
 * Turns of the event loop during long synchronous work (the recipe model, the
 * build-input derivation): git processes started beside it (stale's pin-file
 * blobs through `cat-file --batch`) write into pipes, which only drain when the
 * loop turns; without a turn they stall on a full pipe until the work ends.
 * `turns()` gives a function to await between steps: a real turn at most every
 * `everyMs` of work, a resolved promise otherwise (a tree of thousands of
 * Makefiles does not pay a turn for each).
 */
import { nowMs } from './clock.js';

export function turns(everyMs = 5): () => Promise<void> {
  let last = nowMs();
  return () => {
    const now = nowMs();
    if (now - last < everyMs) return Promise.resolve();
    last = now;
    return new Promise((resolve) => setImmediate(resolve));
  };
}
