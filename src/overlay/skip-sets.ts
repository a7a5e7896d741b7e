/**
 * The skip sets of `overlay`: directories rebuilt by the PR (--built), edited by
 * it (--touched) or owned by another job (--owned), and which set skips a file.
 * The CLI parses the flags into SkipSets (src/cli/flags/overlay.ts).
 */
import type { SkipSet } from './types.js';

export interface SkipSets {
  built: string[];
  touched: string[];
  owned: string[];
}

const SET_ORDER: SkipSet[] = ['built', 'touched', 'owned'];

export function normaliseDir(dir: string): string {
  let d = dir.trim().replace(/\\/g, '/');
  while (d.startsWith('./')) d = d.slice(2);
  return d.replace(/\/+$/, '');
}

/** The first set (built, touched, owned) holding a directory that contains `file` (or is it). */
export function findSkip(file: string, sets: SkipSets): { set: SkipSet; dir: string } | undefined {
  for (const set of SET_ORDER) {
    for (const given of sets[set]) {
      const dir = normaliseDir(given);
      if (dir === '' || dir === '.' || file === dir || file.startsWith(`${dir}/`)) return { set, dir: dir || '.' };
    }
  }
  return undefined;
}

const SET_REASON: Record<SkipSet, string> = {
  built: 'rebuilt by this PR: its own refs are authoritative',
  touched: 'edited by this PR: its committed refs are its intent',
  owned: 'owned by another job',
};

export function skipReason(skip: { set: SkipSet; dir: string }): string {
  return `${SET_REASON[skip.set]} (--${skip.set} ${skip.dir})`;
}
