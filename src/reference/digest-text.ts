/**
 * Digests wherever they stand in a file's text (a pin, a comment, a patch
 * line): what the digest archaeology counts additions and removals on
 * (git/digest-window.ts, git/digest-history.ts) and what a kept answer's
 * check asks of the files new commits change (stale/reuse.ts). The pin files'
 * blobs are searched as bytes (digestsInBytes): the same digests as their
 * decoded text holds, without decoding every version of every pin file.
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

/** Hex digits each algorithm's digest has. */
const HEX_LENGTH: Readonly<Record<string, number>> = { '256': 64, '384': 96, '512': 128 };

/** An ASCII word byte (what `\b` tells apart without the u flag: letters, digits, `_`); any other byte is not. */
const isWordByte = (b: number): boolean => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f;
const isHexByte = (b: number): boolean => (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66);

/**
 * digestsInText of the bytes' UTF-8 text, read from the bytes: `sha` found
 * natively, then the algorithm, the colon, exactly its hex digits and a word
 * boundary on either side checked byte by byte. The same answer as decoding
 * first: every byte of a multi-byte character (or of an invalid sequence,
 * decoded as U+FFFD) is 0x80 or above, a non-word character either way.
 */
export function digestsInBytes(bytes: Buffer): Set<string> {
  const out = new Set<string>();
  for (let at = bytes.indexOf('sha', 0, 'latin1'); at >= 0; at = bytes.indexOf('sha', at + 3, 'latin1')) {
    if (at > 0 && isWordByte(bytes[at - 1]!)) continue;
    if (bytes[at + 6] !== 0x3a) continue; // ':'
    const n = HEX_LENGTH[bytes.toString('latin1', at + 3, at + 6)];
    if (n === undefined) continue;
    const end = at + 7 + n;
    if (end > bytes.length || (end < bytes.length && isWordByte(bytes[end]!))) continue;
    let hex = true;
    for (let i = at + 7; i < end && hex; i++) hex = isHexByte(bytes[i]!);
    if (hex) out.add(bytes.toString('latin1', at, end));
  }
  return out;
}
