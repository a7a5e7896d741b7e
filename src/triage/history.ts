/**
 * The history of literals, from one first-parent `git log -p --unified=0` pass
 * over the build inputs: which commit introduced a literal and which removed it.
 * Pure: the patch text in (framed by log-parse's nonce and NUL fields, hunks
 * consumed by their line counts), commits with their literal events out, then
 * per literal the introducing and removing commits, by counting occurrences back
 * from HEAD (a move within the window is a remove plus an add: no change).
 */
import { malformed, nonceRecords, readCommitHeader, unquoteCPath } from '../git/log-parse.js';
import { extractLineLiterals, languageOf } from './literals.js';

export interface LiteralEvent {
  value: string;
  file: string;
  /** Line in the new file (`+`) or the old file (`-`). */
  line: number;
  sign: '+' | '-';
}

export interface HistoryCommit {
  sha: string;
  date: string;
  subject: string;
  events: LiteralEvent[];
}

export interface LiteralHistory {
  /** The commit that made the literal exist (for a literal at HEAD, the start of its current life); absent: before the window. */
  introduced?: { commit: string; date: string; subject: string };
  /** For a literal not at HEAD: the commit that removed its last occurrence. */
  removed?: { commit: string; date: string; subject: string; file: string; line: number };
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function patchPath(p: string): string {
  const raw = p.endsWith('\t') ? p.slice(0, -1) : p;
  const path = unquoteCPath(raw);
  return path === '/dev/null' ? path : path.replace(/^[ab]\//, '');
}

/**
 * Parse `git log -p --unified=0 --format=<nonce>COMMIT_FORMAT` output into
 * literal events. `keep(path)` says which files count (the build inputs), and
 * values shorter than `minLength` are dropped early.
 */
export function parseLiteralLog(stdout: string, nonce: string, keep: (path: string) => boolean, minLength: number): HistoryCommit[] {
  const commits: HistoryCommit[] = [];
  for (const r of nonceRecords(stdout, nonce)) {
    const { header, rest } = readCommitHeader(r);
    const commit: HistoryCommit = { sha: header.sha, date: header.date, subject: header.subject, events: [] };
    let oldFile = '';
    let newFile = '';
    let oldLine = 0;
    let newLine = 0;
    let removing = 0;
    let adding = 0;
    let oldLang: ReturnType<typeof languageOf>;
    let newLang: ReturnType<typeof languageOf>;
    let oldKept = false;
    let newKept = false;
    for (const line of rest.split('\n')) {
      if (removing > 0 || adding > 0) {
        const sign = line[0];
        if (sign === '\\') continue;
        if (sign === '-' && removing > 0) {
          removing--;
          if (oldKept && oldLang) for (const v of extractLineLiterals(line.slice(1), oldLang)) if (v.length >= minLength) commit.events.push({ value: v, file: oldFile, line: oldLine, sign: '-' });
          oldLine++;
        } else if (sign === '+' && adding > 0) {
          adding--;
          if (newKept && newLang) for (const v of extractLineLiterals(line.slice(1), newLang)) if (v.length >= minLength) commit.events.push({ value: v, file: newFile, line: newLine, sign: '+' });
          newLine++;
        } else if ((sign === ' ' || sign === undefined) && removing > 0 && adding > 0) {
          removing--;
          adding--;
          oldLine++;
          newLine++;
        } else throw malformed('hunk line', line);
        continue;
      }
      if (line.startsWith('diff --git ')) {
        oldFile = newFile = '';
      } else if (line.startsWith('--- ')) {
        oldFile = patchPath(line.slice(4));
        oldLang = languageOf(oldFile);
        oldKept = oldFile !== '/dev/null' && oldLang !== undefined && keep(oldFile);
      } else if (line.startsWith('+++ ')) {
        newFile = patchPath(line.slice(4));
        newLang = languageOf(newFile);
        newKept = newFile !== '/dev/null' && newLang !== undefined && keep(newFile);
      } else if (line.startsWith('@@ ')) {
        const h = HUNK.exec(line);
        if (!h) throw malformed('hunk header', line);
        oldLine = Number(h[1]);
        removing = h[2] === undefined ? 1 : Number(h[2]);
        newLine = Number(h[3]);
        adding = h[4] === undefined ? 1 : Number(h[4]);
      }
    }
    if (removing > 0 || adding > 0) throw malformed('hunk cut short', r.slice(0, 80));
    commits.push(commit);
  }
  return commits;
}

/**
 * Introduced/removed per literal, walking `commits` newest first from the
 * occurrence counts at HEAD (`headCount`): a commit before which a literal
 * occurs nowhere and after which it does introduced it; one after which it
 * occurs nowhere removed it. Only literals with an event in the window get an entry.
 */
export function literalHistories(commits: readonly HistoryCommit[], headCount: (value: string) => number): Map<string, LiteralHistory> {
  const count = new Map<string, number>();
  const done = new Set<string>();
  const out = new Map<string, LiteralHistory>();
  for (const c of commits) {
    const delta = new Map<string, { add: number; remove: number; removedAt?: LiteralEvent }>();
    for (const e of c.events) {
      if (done.has(e.value)) continue;
      let d = delta.get(e.value);
      if (!d) delta.set(e.value, (d = { add: 0, remove: 0 }));
      if (e.sign === '+') d.add++;
      else {
        d.remove++;
        d.removedAt ??= e;
      }
    }
    for (const [value, d] of delta) {
      if (!count.has(value)) count.set(value, headCount(value));
      const after = count.get(value)!;
      const before = Math.max(0, after - d.add + d.remove);
      count.set(value, before);
      let h = out.get(value);
      if (!h) out.set(value, (h = {}));
      const meta = { commit: c.sha, date: c.date, subject: c.subject };
      if (after === 0 && before > 0 && !h.removed && !h.introduced) h.removed = { ...meta, file: d.removedAt!.file, line: d.removedAt!.line };
      if (after > 0 && before === 0) {
        h.introduced = meta;
        done.add(value);
      }
    }
  }
  return out;
}
