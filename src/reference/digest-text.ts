/**
 * Digests wherever they stand in a file's text (a pin, a comment, a patch
 * line): what the digest archaeology counts additions and removals on
 * (git/digest-window.ts, git/digest-history.ts) and what a kept answer's
 * check asks of the files new commits change (stale/reuse.ts).
 */

/** `sha256:`, `sha384:` or `sha512:` and its hex, as a word. */
const DIGEST_IN_TEXT = /\b(sha256:[0-9a-f]{64}|sha384:[0-9a-f]{96}|sha512:[0-9a-f]{128})\b/g;

/** Every digest the text holds, in order of appearance (repeats kept). */
export function digestsInLine(text: string): string[] {
  return [...text.matchAll(DIGEST_IN_TEXT)].map((m) => m[1]!);
}

/** The digests a text holds, each once. */
export function digestsInText(text: string): Set<string> {
  return new Set(digestsInLine(text));
}
