/**
 * Framing for git output that carries repository content (subjects, paths, file
 * bytes). No separator that content can hold is ever trusted:
 * - fields git prints from a format are NUL-terminated (`%x00`, `-z`): git
 *   refuses a NUL in a commit message and truncates a crafted one at it, and
 *   paths cannot hold one;
 * - records that carry file content (`log -p`) or NUL-separated path lists
 *   start with a per-run random nonce (128 bits): a repository cannot contain
 *   what did not exist when it was written;
 * - every fixed field (sha, parents) is checked, and output that does not
 *   have the expected shape is an error, never a guess.
 * Paths outside `-z` output (patch headers) are C-quoted by git and decoded here.
 */
import { randomBytes } from 'node:crypto';
import { PinwatchError } from '../errors.js';

/** A fresh record marker for one git run: printable, so it survives `--format`. */
export function newNonce(): string {
  return `@pinwatch:${randomBytes(16).toString('hex')}:`;
}

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export function malformed(what: string, found: string): PinwatchError {
  const shown = found.length > 80 ? `${found.slice(0, 80)}…` : found;
  return new PinwatchError('git-output', `unexpected git output (${what}): found ${JSON.stringify(shown)}; expected the format pinwatch asked for`);
}

export function checkSha(s: string, what = 'commit sha'): string {
  if (!SHA.test(s)) throw malformed(what, s);
  return s;
}

/** `%P`: space-separated parent shas, '' for a root commit. */
export function checkParents(s: string): string[] {
  if (s === '') return [];
  return s.split(' ').map((p) => checkSha(p, 'parent sha'));
}


/**
 * Records of output whose every record starts with `nonce` (`--format=<nonce>…`).
 * Anything before the first marker is an error: git prints nothing there.
 */
export function nonceRecords(stdout: string, nonce: string): string[] {
  if (stdout === '') return [];
  const parts = stdout.split(nonce);
  if (parts[0] !== '') throw malformed('text before the first record', parts[0]!);
  return parts.slice(1);
}

/**
 * The header fields of a commit: `%H%x00%P%x00%aI%x00%s%x00` (the last NUL is
 * git's `-z` terminator or ours). Returns the fields and the text after them.
 */
export interface CommitHeader {
  sha: string;
  parentShas: string[];
  date: string;
  subject: string;
}

export const COMMIT_FORMAT = '%H%x00%P%x00%aI%x00%s%x00';

/** The first `count` NUL-terminated fields of `text`, and where the rest starts; a missing NUL is a malformed header. */
export function nulFields(text: string, count: number): { fields: string[]; at: number } {
  const fields: string[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const nul = text.indexOf('\0', at);
    if (nul < 0) throw malformed('commit header', text);
    fields.push(text.slice(at, nul));
    at = nul + 1;
  }
  return { fields, at };
}

/** Read one COMMIT_FORMAT header at the start of `text`; `rest` is what follows its last NUL. */
export function readCommitHeader(text: string): { header: CommitHeader; rest: string } {
  const { fields, at } = nulFields(text, 4);
  const [sha, parents, date, subject] = fields as [string, string, string, string];
  // The date is not checked: git prints `%aI` itself for a commit whose author date it cannot
  // parse (a crafted or corrupt object), and that must not stop the run; its NUL keeps it in place.
  return { header: { sha: checkSha(sha), parentShas: checkParents(parents), date, subject }, rest: text.slice(at) };
}

/** `git log -z --format=COMMIT_FORMAT` (no diff): a fixed four fields per commit. */
export function parseCommitLog(stdout: string): CommitHeader[] {
  const out: CommitHeader[] = [];
  let rest = stdout;
  while (rest !== '') {
    // `-z` ends each commit with one more NUL after our last field.
    const r = readCommitHeader(rest);
    out.push(r.header);
    rest = r.rest.startsWith('\0') ? r.rest.slice(1) : r.rest;
  }
  return out;
}

/**
 * `git log -z --name-only --format=<nonce>%H` (one record per commit): the sha,
 * then NUL, then (when the commit changes anything) a newline and the paths,
 * each NUL-terminated. Paths may hold any byte but NUL, the nonce excepted.
 */
export function parseNameOnlyLog(stdout: string, nonce: string): { sha: string; paths: string[] }[] {
  return nonceRecords(stdout, nonce).map((r) => {
    const nul = r.indexOf('\0');
    if (nul < 0) throw malformed('commit sha', r);
    const sha = checkSha(r.slice(0, nul));
    const body = r.slice(nul + 1);
    if (body === '') return { sha, paths: [] };
    if (!body.startsWith('\n') || !body.endsWith('\0')) throw malformed('path list', body);
    return { sha, paths: body.slice(1, -1).split('\0') };
  });
}

/** `-z` path output (`diff --name-only -z`, `ls-files -z`): NUL-terminated paths. */
export function nulTerminated(stdout: string): string[] {
  if (stdout === '') return [];
  if (!stdout.endsWith('\0')) throw malformed('NUL-terminated list', stdout);
  return stdout.slice(0, -1).split('\0');
}

const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * A path as git prints it outside `-z` output: bare, or C-quoted (`"…"` with
 * `\t`, `\n`, `\"`, `\\`, `\ooo` octal bytes…) when it holds a byte that needs it.
 */
export function unquoteCPath(s: string): string {
  if (!s.startsWith('"')) return s;
  if (s.length < 2 || !s.endsWith('"')) throw malformed('quoted path', s);
  const body = s.slice(1, -1);
  const parts: Buffer[] = [];
  let at = 0;
  for (const m of body.matchAll(/\\([0-3][0-7]{2}|.)|[^\\"]+/gsy)) {
    if (m.index !== at) break;
    at += m[0].length;
    const e = m[1];
    if (e === undefined) parts.push(Buffer.from(m[0], 'utf8'));
    else if (e.length === 3) parts.push(Buffer.from([parseInt(e, 8)]));
    else if (e in C_ESCAPES) parts.push(Buffer.from([C_ESCAPES[e]!]));
    else throw malformed('quoted path', s);
  }
  if (at !== body.length) throw malformed('quoted path', s);
  return Buffer.concat(parts).toString('utf8');
}
