/**
 * Object-store lookups batched into one process each: which commit shas exist
 * (`git cat-file --batch-check`), and the contents of many `REV:PATH` blobs
 * (`git cat-file --batch`).
 */
import { git, runGit, runGitBytes } from './run.js';

/** Input sha (full or abbreviated) → full commit sha, for those that name a commit here. */
export async function existingCommits(repo: string, shas: string[]): Promise<Map<string, string>> {
  const present = new Map<string, string>();
  // Only hex names are asked: a name holding a newline or space (a label from a registry) would shift the answers.
  const asked = [...new Set(shas)].filter((s) => /^[0-9a-f]{4,64}$/i.test(s));
  if (asked.length === 0) return present;
  const out = await git(repo, ['cat-file', '--batch-check=%(objectname) %(objecttype)'], { input: `${asked.join('\n')}\n` });
  const lines = out.split('\n');
  asked.forEach((sha, i) => {
    const line = lines[i] ?? '';
    if (line.endsWith(' commit')) present.set(sha, line.split(' ')[0]!);
  });
  return present;
}

/** A found object's header line: `<sha> <type> <size>` (specs echoed with `missing`/`ambiguous` never match). */
const BATCH_HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) ([a-z]+) (\d+)$/;

/**
 * `git cat-file --batch` output for `asked` (one answer per spec, in order):
 * framed by the byte counts in each header, so no content byte can shift it.
 * Specs that name no blob map to undefined.
 */
export function parseBatchBlobs(buf: Buffer, asked: string[]): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  let at = 0;
  for (const spec of asked) {
    const eol = buf.indexOf(0x0a, at);
    if (eol < 0) break;
    const m = BATCH_HEADER.exec(buf.subarray(at, eol).toString('utf8'));
    at = eol + 1;
    if (!m) continue; // "<spec> missing" / "ambiguous": no content follows
    const size = Number(m[3]);
    if (m[2] === 'blob') out.set(spec, buf.subarray(at, at + size).toString('utf8'));
    at += size + 1;
  }
  return out;
}

/** Resolve a revision to a commit sha, or undefined when it does not exist here. */
export async function resolveCommit(repo: string, rev: string): Promise<string | undefined> {
  const r = await runGit(repo, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/**
 * `resolveCommit` plus where `repo` sits in its work tree, in the same single
 * `rev-parse`: `prefix` is '' at the top level, `packages/system/` in a
 * subdirectory, undefined outside a work tree (or when git cannot say).
 */
export async function resolveCommitAndPrefix(repo: string, rev: string): Promise<{ commit?: string; prefix?: string }> {
  const r = await runGit(repo, ['rev-parse', '--show-prefix', '--verify', '--quiet', `${rev}^{commit}`]);
  if (r.code !== 0 && r.code !== 1) return {};
  return parsePrefixAndCommit(r.stdout, r.code === 0);
}

/** `rev-parse --show-prefix --verify REV`: the prefix is printed raw (it may hold newlines); the sha, when verified, is the last line. */
export function parsePrefixAndCommit(stdout: string, verified: boolean): { commit?: string; prefix: string } {
  const text = stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout;
  if (!verified) return { prefix: text };
  const nl = text.lastIndexOf('\n');
  const commit = text.slice(nl + 1).trim();
  return { prefix: nl < 0 ? '' : text.slice(0, nl), ...(commit ? { commit } : {}) };
}

/**
 * The text of each `REV:PATH` blob (paths from the top of the work tree), in one
 * `git cat-file --batch`. A spec that names no blob (no such file at REV, a
 * directory, a spec containing a newline) maps to undefined.
 */
export async function readBlobs(repo: string, specs: string[]): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  const asked = [...new Set(specs)].filter((s) => !s.includes('\n'));
  for (const s of specs) out.set(s, undefined);
  if (asked.length === 0) return out;
  const r = await runGitBytes(repo, ['cat-file', '--batch'], { input: `${asked.join('\n')}\n` });
  for (const [spec, text] of parseBatchBlobs(r.stdout, asked)) out.set(spec, text);
  return out;
}

/** What an abbreviated object name is in this repository: one commit, several objects, or none. */
export type Abbreviation = { commit: string } | { ambiguous: true } | { absent: true };

/**
 * Resolve abbreviated commit names (4–64 hex) in one `git cat-file --batch-check`:
 * each is asked as `<abbrev>^{commit}` (a unique commit, even where a tree or blob
 * shares the prefix) and as `<abbrev>` (which tells "ambiguous" from "missing").
 * Only a prefix that names exactly one commit resolves.
 */
export async function resolveAbbreviations(repo: string, abbrevs: string[]): Promise<Map<string, Abbreviation>> {
  const out = new Map<string, Abbreviation>();
  const asked = [...new Set(abbrevs)].filter((s) => /^[0-9a-f]{4,64}$/.test(s));
  if (asked.length === 0) return out;
  const input = asked.flatMap((a) => [`${a}^{commit}`, a]).join('\n');
  const lines = (await git(repo, ['cat-file', '--batch-check=%(objectname) %(objecttype)'], { input: `${input}\n` })).split('\n');
  asked.forEach((abbrev, i) => {
    const peeled = lines[2 * i] ?? '';
    const plain = lines[2 * i + 1] ?? '';
    const m = /^([0-9a-f]{40}|[0-9a-f]{64}) commit$/.exec(peeled);
    if (m && m[1]!.startsWith(abbrev)) out.set(abbrev, { commit: m[1]! });
    else if (plain === `${abbrev} ambiguous`) out.set(abbrev, { ambiguous: true });
    else out.set(abbrev, { absent: true });
  });
  return out;
}
