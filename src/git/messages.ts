/**
 * Commit messages for a set of commits, in one `git log --no-walk` process: the
 * full message and git's own reading of its trailers (`%(trailers:only,unfold)`:
 * `Fixes: #12`, `Changelog: fixed`). Records start with a per-run nonce and their
 * fields are NUL-terminated (git refuses a NUL in a message), so no message byte
 * can start, end or forge a record (see log-parse.ts).
 */
import { git } from './run.js';
import { checkSha, malformed, newNonce, nonceRecords } from './log-parse.js';

export interface CommitMessage {
  /** The raw message, subject included. */
  message: string;
  /** Trailers as git parses them, in order. */
  trailers: { key: string; value: string }[];
}

export function parseMessages(stdout: string, nonce: string): Map<string, CommitMessage> {
  const out = new Map<string, CommitMessage>();
  for (const record of nonceRecords(stdout, nonce)) {
    const fields = record.split('\0');
    // sha, message, trailers, then what follows the last NUL: git's newline between records
    if (fields.length !== 4 || !/^\n?$/.test(fields[3]!)) throw malformed('commit message record', record.slice(0, 80));
    const trailers = fields[2]!.split('\n').flatMap((line) => {
      const colon = line.indexOf(':');
      return colon > 0 ? [{ key: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() }] : [];
    });
    out.set(checkSha(fields[0]!), { message: fields[1]!, trailers });
  }
  return out;
}

/** Message and trailers of each commit in `shas` (none asked: no process). */
export async function readCommitMessages(repo: string, shas: string[]): Promise<Map<string, CommitMessage>> {
  const asked = [...new Set(shas)];
  if (asked.length === 0) return new Map();
  const nonce = newNonce();
  const out = await git(repo, ['log', '--no-walk=unsorted', '--stdin', '--no-show-signature', `--format=${nonce}%H%x00%B%x00%(trailers:only,unfold)%x00`], { input: `${asked.join('\n')}\n` });
  return parseMessages(out, nonce);
}
