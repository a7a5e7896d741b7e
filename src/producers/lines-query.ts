/**
 * The lines a `sed -i` line filter edits in a file: read once per model build
 * (EditedFiles), and the content question the build model's record keeps for
 * them (util/tracked-fs.ts contentQuery) with its evaluator, which the
 * tree-state snapshot's check asks again (snapshot/check.ts) without loading
 * the recipe readers.
 */
import { readRegularText, type ReadRefusal } from '../util/safe-read.js';

/**
 * The lines of files `sed -i` edits, read once per model build (`producerFor`'s `edited`): a followed walk reads
 * the same target's writes once per CI-step environment, and the tree does not change while pinwatch reads it.
 */
export class EditedFiles {
  private readonly lines = new Map<string, { lines: string[] } | { refused: ReadRefusal }>();

  read(abs: string): { lines: string[] } | { refused: ReadRefusal } {
    let r = this.lines.get(abs);
    if (!r) {
      const read = readRegularText(abs, { followSymlinks: true });
      this.lines.set(abs, (r = 'text' in read ? { lines: read.text.split(/\r?\n/) } : read));
    }
    return r;
  }

  private readonly matches = new Map<string, number[]>();

  /** The 1-based numbers of `lines` (the lines of `abs`) that match every filter, kept per file and filters (regexes without a lastIndex state). */
  matching(abs: string, lines: readonly string[], filters: readonly RegExp[]): number[] {
    const key = filters.every((f) => !f.global && !f.sticky) ? `${abs}\0${filters.map((f) => `${f.flags}/${f.source}`).join('\0')}` : undefined;
    const kept = key === undefined ? undefined : this.matches.get(key);
    if (kept) return kept.slice();
    const out: number[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      let all = true;
      for (const f of filters) {
        if (!f.test(line)) {
          all = false;
          break;
        }
      }
      if (all) out.push(i + 1);
    }
    if (key !== undefined) this.matches.set(key, out.slice());
    return out;
  }
}

/** The content question editedLines asks (util/tracked-fs.ts contentQuery). */
export const LINES_QUERY = 'sed-lines';

/** The lines of `abs` matching every filter (undefined: none), or why it was not read. */
export function linesMatching(abs: string, filters: RegExp[], edited = new EditedFiles()): { lines?: number[] } | { refused: string } {
  const read = edited.read(abs);
  if (!('lines' in read)) return { refused: read.refused.reason };
  const out = edited.matching(abs, read.lines, filters);
  return out.length > 0 ? { lines: out } : {};
}

/** LINES_QUERY asked again (a snapshot check): `args` as editedLines gave it. */
export function linesQueryAnswer(abs: string, args: string): string {
  const filters = (JSON.parse(args) as [string, string][]).map(([source, flags]) => new RegExp(source, flags));
  return JSON.stringify(linesMatching(abs, filters));
}

