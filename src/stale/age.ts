/** An unshipped commit's age: the one place the clock enters stale's answer (a kept answer's reuse recomputes it). */
import type { StaleImage, UnshippedCommit } from './types.js';

const DAY_MS = 86_400_000;

/** Whole days from `date` (ISO 8601) to `now`: an unshipped commit's age. */
export const ageDays = (now: Date, date: string): number => Math.floor((now.getTime() - Date.parse(date)) / DAY_MS);

/** The oldest of `unshipped` (the first of equal dates, in list order), dated and aged at `now`; undefined for none. */
export function oldestOf(unshipped: readonly UnshippedCommit[], now: Date): StaleImage['oldestUnshipped'] {
  const oldest = unshipped.reduce<UnshippedCommit | undefined>((o, c) => (!o || Date.parse(c.date) < Date.parse(o.date) ? c : o), undefined);
  return oldest ? { commit: oldest.commit, date: oldest.date, ageDays: ageDays(now, oldest.date) } : undefined;
}

/** Kept images with their oldest unshipped commit aged at `now` (a kept answer's ages are those of the run that kept it). */
export const agedAt = (images: readonly StaleImage[], now: Date): StaleImage[] =>
  images.map((i) => (i.oldestUnshipped ? { ...i, oldestUnshipped: { ...i.oldestUnshipped, ageDays: ageDays(now, i.oldestUnshipped.date) } } : i));
