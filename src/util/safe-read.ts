/**
 * The one safe reader of repository files: only a regular file is read (a FIFO
 * would block forever, /dev/zero would never end, a socket cannot be read), it
 * is opened with O_NONBLOCK and, unless asked, O_NOFOLLOW, checked again with
 * fstat after opening (no swap between the check and the read), and read up to
 * a size cap, never trusting the size the file claims. Never throws.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type PathLike, type Stats } from 'node:fs';
import { lstatSync, noteRead, statSync } from './tracked-fs.js';

/** Default cap on a file pinwatch reads from a repository (config, baseline, Makefiles, ref-bearing files). */
export const MAX_REPO_FILE_BYTES = 16 * 1024 * 1024;

export interface ReadRefusal {
  /** `not-a-regular-file`, `symlink`, `too-large` or `unreadable`. */
  code: 'not-a-regular-file' | 'symlink' | 'too-large' | 'unreadable';
  reason: string;
}

export type SafeRead = { bytes: Buffer } | { refused: ReadRefusal };

export interface SafeReadOptions {
  /** Largest size read; default MAX_REPO_FILE_BYTES. */
  maxBytes?: number;
  /** Follow a symlink at the last component (default false: a symlink is refused). */
  followSymlinks?: boolean;
}

/** What a non-regular file is, for messages. */
export function fileTypeName(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSymbolicLink()) return 'a symlink';
  return 'not a regular file';
}

const notRegular = (st: Stats): { refused: ReadRefusal } => ({
  refused: { code: 'not-a-regular-file', reason: `${fileTypeName(st)}, not a regular file; not read` },
});

const tooLarge = (size: number | undefined, max: number): { refused: ReadRefusal } => ({
  refused: { code: 'too-large', reason: `${size === undefined ? 'the file' : `${size} bytes`} is more than the ${max}-byte limit; not read` },
});

function unreadable(e: unknown): { refused: ReadRefusal } {
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'ELOOP') return { refused: { code: 'symlink', reason: 'a symlink (or a symlink loop); not followed' } };
  return { refused: { code: 'unreadable', reason: `cannot read the file (${err.code ?? err.message})` } };
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** Read `path` if it is a regular file of at most `maxBytes`; else say why not. */
export function readRegularFile(path: PathLike, options: SafeReadOptions = {}): SafeRead {
  const max = options.maxBytes ?? MAX_REPO_FILE_BYTES;
  const follow = options.followSymlinks ?? false;
  let st: Stats | undefined;
  try {
    // a missing file (ENOENT) is common: told without the cost of a thrown error (about 10–20 µs each); others still throw
    st = follow ? statSync(path, { throwIfNoEntry: false }) : lstatSync(path, { throwIfNoEntry: false });
  } catch (e) {
    return unreadable(e);
  }
  if (st === undefined) return unreadable({ code: 'ENOENT' });
  if (st.isSymbolicLink()) return { refused: { code: 'symlink', reason: 'a symlink; not followed' } };
  if (!st.isFile()) return notRegular(st);
  if (st.size > max) return tooLarge(st.size, max);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NONBLOCK | (follow ? 0 : NOFOLLOW));
  } catch (e) {
    return unreadable(e);
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) return notRegular(opened);
    // sized by what fstat says plus one byte, so the end is seen without a second buffer; read on while the file says more (it may grow)
    let buf = Buffer.allocUnsafe(Math.min(opened.size + 1, max + 1));
    let total = 0;
    for (;;) {
      if (total === buf.length) {
        const grown = Buffer.allocUnsafe(Math.min(buf.length + 64 * 1024, max + 1));
        buf.copy(grown, 0, 0, total);
        buf = grown;
      }
      const n = readSync(fd, buf, total, buf.length - total, null);
      if (n === 0) break;
      total += n;
      if (total > max) return tooLarge(undefined, max);
    }
    const bytes = buf.subarray(0, total);
    noteRead(path, bytes);
    return { bytes };
  } catch (e) {
    return unreadable(e);
  } finally {
    closeSync(fd);
  }
}

/** Like readRegularFile, decoded as UTF-8 (invalid bytes become U+FFFD). */
export function readRegularText(path: PathLike, options: SafeReadOptions = {}): { text: string } | { refused: ReadRefusal } {
  const r = readRegularFile(path, options);
  return 'bytes' in r ? { text: r.bytes.toString('utf8') } : r;
}
