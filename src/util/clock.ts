/**
 * A monotonic clock in milliseconds, for the timings a run reports
 * (`stats.timings`) and paces itself by (turns.ts): `process.hrtime`, which
 * needs no module. The global `performance` loads Node's perf_hooks on first
 * use (about 1.5 ms of a run that reuses its answer whole, for a subtraction).
 */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
