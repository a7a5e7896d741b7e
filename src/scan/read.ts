/**
 * Read one file as text, or say why not: too large, unreadable, or binary (NUL
 * bytes). A file that is not UTF-8 is still read: decoded as Latin-1 (one code
 * unit per byte, so offsets are byte offsets and a Latin-1 round trip gives the
 * same bytes back), with a note saying so and the line of the first bad byte.
 * Every reader of a file by its pins' spans decodes it here. Never throws.
 */
import type { PathLike } from 'node:fs';
import { PinwatchError } from '../errors.js';
import { readRegularFile } from '../util/safe-read.js';
import type { SkippedFile } from './types.js';

export const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** A file read as text; `latin1` is set when it is not UTF-8 and was decoded as Latin-1 (code `not-utf8`). */
export interface TextRead {
  text: string;
  latin1?: SkippedFile;
}

export type ReadOutcome = TextRead | { skipped: SkippedFile };

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

function readLatin1(buf: Buffer, file: string): TextRead {
  const bad = firstInvalidUtf8(buf);
  const at = bad === -1 ? '' : ` (byte 0x${buf[bad]!.toString(16).padStart(2, '0')} at offset ${bad})`;
  const latin1: SkippedFile = { file, code: 'not-utf8', reason: `not valid UTF-8${at}; read as Latin-1, so only a text scrape finds its refs; save it as UTF-8` };
  if (bad !== -1) latin1.line = lineAt(buf, bad);
  return { text: buf.toString('latin1'), latin1 };
}

/** `abs` may be a Buffer: a path whose names are not valid UTF-8. Only a regular file is read (util/safe-read.ts). */
export function readTextFile(abs: PathLike, file: string): ReadOutcome {
  const read = readTextBytes(abs, file);
  return 'skipped' in read ? read : decodeText(read.bytes, file);
}

/** The bytes of a file readTextFile would read (only a regular file, at most MAX_FILE_BYTES), or why not. */
export function readTextBytes(abs: PathLike, file: string): { bytes: Buffer } | { skipped: SkippedFile } {
  const read = readRegularFile(abs, { maxBytes: MAX_FILE_BYTES });
  if ('refused' in read) return { skipped: { file, code: read.refused.code, reason: read.refused.reason } };
  return { bytes: read.bytes };
}

/** The bytes of a file as readTextFile reads them: refused when binary (NUL bytes), decoded as Latin-1 when not UTF-8. */
export function decodeText(buf: Buffer, file: string): ReadOutcome {
  const nul = buf.indexOf(0);
  if (nul !== -1) {
    return { skipped: { file, code: 'binary-file', reason: `a NUL byte at offset ${nul}: a binary file, not text`, line: lineAt(buf, nul) } };
  }
  try {
    return { text: decoder.decode(buf) };
  } catch {
    return readLatin1(buf, file);
  }
}

/**
 * The bytes to write for `text` read by readTextFile: UTF-8, or Latin-1 byte for
 * byte when the file was read as Latin-1. Throws when the text holds a character
 * Latin-1 cannot store (the file would change encoding).
 */
export function encodeText(text: string, read: TextRead, file: string): Buffer {
  if (!read.latin1) return Buffer.from(text, 'utf8');
  const wide = text.search(/[^\u0000-\u00ff]/);
  if (wide !== -1) {
    const line = text.slice(0, wide).split('\n').length;
    throw new PinwatchError('not-latin1', `${file} is a Latin-1 file and the new text has ${JSON.stringify(String.fromCodePoint(text.codePointAt(wide)!))} at line ${line}, which Latin-1 cannot store; not writing`, { file, line });
  }
  return Buffer.from(text, 'latin1');
}
