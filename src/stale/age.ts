/** An unshipped commit's age: the one place the clock enters stale's answer (a kept answer's reuse recomputes it). */

const DAY_MS = 86_400_000;

/** Whole days from `date` (ISO 8601) to `now`: an unshipped commit's age. */
export const ageDays = (now: Date, date: string): number => Math.floor((now.getTime() - Date.parse(date)) / DAY_MS);
