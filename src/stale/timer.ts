/** Milliseconds per engine phase: `stats.timings` in the JSON report and the benchmark's breakdown. */
import { nowMs } from '../util/clock.js';

export interface PhaseTimer {
  phases: Record<string, number>;
  lap(name: string): void;
}

export function phaseTimer(): PhaseTimer {
  let last = nowMs();
  const phases: Record<string, number> = {};
  return {
    phases,
    lap(name) {
      const now = nowMs();
      phases[name] = Math.round((phases[name] ?? 0) + now - last);
      last = now;
    },
  };
}
