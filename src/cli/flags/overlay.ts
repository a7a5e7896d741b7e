/**
 * The skip-set flags of `overlay`: `--built`, `--touched`, `--owned`. Each is
 * repeatable and takes a JSON array (a CI matrix) or a comma/space/newline
 * separated list; together they become the library's SkipSets.
 */
import { PinwatchError } from '../../errors.js';
import { normaliseDir, type SkipSets } from '../../overlay/index.js';

export interface SkipSetFlags {
  built?: string[];
  touched?: string[];
  owned?: string[];
}

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
      throw new PinwatchError('invalid-dir-list', `${flag} looks like a JSON array but does not parse (${(e as Error).message}); saw ${JSON.stringify(value)}; expected ["dir/a","dir/b"] or dir/a,dir/b`);
    }
    if (!Array.isArray(items) || items.some((i) => typeof i !== 'string')) {
      throw new PinwatchError('invalid-dir-list', `${flag} must be a JSON array of strings; saw ${JSON.stringify(value)}; expected ["dir/a","dir/b"] or dir/a,dir/b`);
    }
  } else {
    items = text.split(/[\s,]+/);
  }
  return (items as string[]).map(normaliseDir).filter((d) => d !== '');
}

export function skipSets(flags: SkipSetFlags): SkipSets {
  return {
    built: (flags.built ?? []).flatMap((v) => parseDirList(v, '--built')),
    touched: (flags.touched ?? []).flatMap((v) => parseDirList(v, '--touched')),
    owned: (flags.owned ?? []).flatMap((v) => parseDirList(v, '--owned')),
  };
}
