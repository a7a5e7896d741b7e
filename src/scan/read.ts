/**
 * Read one file as UTF-8 text, or say why not: too large, unreadable, binary
 * (NUL bytes), or not UTF-8 (with the line of the first bad byte). Never throws.
 */
import { readFileSync } from 'node:fs';
import type { SkippedFile } from './types.js';

export const MAX_FILE_BYTES = 8 * 1024 * 1024;

export type ReadOutcome = { text: string } | { skipped: SkippedFile };

/** Offset of the first byte that is not part of a well-formed UTF-8 sequence. */
export function firstInvalidUtf8(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i]!;
    const len = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len === 0 || i + len > buf.length) return i;
    for (let k = 1; k < len; k++) if ((buf[i + k]! & 0xc0) !== 0x80) return i;
    i += len;
  }
  return -1;
}

function lineAt(buf: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (buf[i] === 0x0a) line++;
  return line;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function readTextFile(abs: string, file: string): ReadOutcome {
  let buf: Buffer;
  try {
    buf = readFileSync(abs);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return { skipped: { file, code: 'unreadable', reason: `cannot read the file (${err.code ?? err.message})` } };
  }
  if (buf.length > MAX_FILE_BYTES) {
    return { skipped: { file, code: 'too-large', reason: `${buf.length} bytes is more than the ${MAX_FILE_BYTES}-byte limit for a ref-bearing file` } };
  }
  const nul = buf.indexOf(0);
  if (nul !== -1) {
    return { skipped: { file, code: 'binary-file', reason: `a NUL byte at offset ${nul}: a binary file, not text`, line: lineAt(buf, nul) } };
  }
  try {
    return { text: decoder.decode(buf) };
  } catch {
    const bad = firstInvalidUtf8(buf);
    const at = bad === -1 ? '' : ` (byte 0x${buf[bad]!.toString(16).padStart(2, '0')} at offset ${bad})`;
    return { skipped: { file, code: 'not-utf8', reason: `not valid UTF-8${at}; save it as UTF-8`, line: bad === -1 ? undefined : lineAt(buf, bad) } };
  }
}
