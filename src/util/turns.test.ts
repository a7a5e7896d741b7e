import { describe, expect, it } from 'vitest';
import { turns } from './turns.js';

/** Whether awaiting `step()` let the event loop run an immediate queued before it. */
async function turned(step: () => Promise<void>): Promise<boolean> {
  let ran = false;
  setImmediate(() => (ran = true));
  await step();
  const seen = ran;
  await new Promise((r) => setImmediate(r));
  return seen;
}

describe('turns', () => {
  it('turns the event loop once the interval has passed since the last turn, not before', async () => {
    const busy = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    const turn = turns(300);
    expect(await turned(turn)).toBe(false); // just made: no work done yet
    busy(320);
    expect(await turned(turn)).toBe(true);
    expect(await turned(turn)).toBe(false); // right after a turn
    expect(await turned(turns(0))).toBe(true);
  });
});
