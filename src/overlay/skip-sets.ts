/**
 * The skip sets of `overlay`: directories rebuilt by the PR (--built), edited by
 * it (--touched) or owned by another job (--owned). Each flag takes a JSON array
 * (a CI matrix) or a comma/space/newline separated list.
 */
import { PinwatchError } from '../errors.js';
import type { SkipSet } from './types.js';

export interface SkipSets {
  built: string[];
  touched: string[];
  owned: string[];
}

const SET_ORDER: SkipSet[] = ['built', 'touched', 'owned'];

/** Parse one flag value: `["a","b"]`, `a,b`, `a b`, or one dir per line. Dirs are normalised (no ./, no trailing /). */
export function parseDirList(value: string | undefined, flag: string): string[] {
  if (value === undefined) return [];
  const text = value.trim();
  if (text === '') return [];
  let items: unknown[];
  if (text.startsWith('[')) {
    try {
      items = JSON.parse(text) as unknown[];
    } catch (e) {
      throw new PinwatchError('usage', `${flag} looks like a JSON array but does not parse (${(e as Error).message}); saw ${JSON.stringify(value)}; expected ["dir/a","dir/b"] or dir/a,dir/b`);
    }
    if (!Array.isArray(items) || items.some((i) => typeof i !== 'string')) {
      throw new PinwatchError('usage', `${flag} must be a JSON array of strings; saw ${JSON.stringify(value)}`);
    }
  } else {
    items = text.split(/[\s,]+/);
  }
  return (items as string[]).map(normaliseDir).filter((d) => d !== '');
}

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
