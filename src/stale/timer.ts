/** Milliseconds per engine phase: `stats.timings` in the JSON report and the benchmark's breakdown. */

export interface PhaseTimer {
  phases: Record<string, number>;
  lap(name: string): void;
}

export function phaseTimer(): PhaseTimer {
  let last = performance.now();
  const phases: Record<string, number> = {};
  return {
    phases,
    lap(name) {
      const now = performance.now();
      phases[name] = Math.round((phases[name] ?? 0) + now - last);
      last = now;
    },
  };
}
