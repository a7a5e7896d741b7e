/**
 * Atomic file writes: write a temp file beside the target (every byte, looping on
 * short writes), fsync it, rename it over the target, fsync the folder. A crash
 * leaves either the old file or the new one, never half of either; a failed write
 * (disk full, I/O error) removes the temp file, keeps the old file byte for byte
 * and throws a PinwatchError naming the target and the OS error (exit 2).
 * Only a regular file is ever replaced: a symlink, device, FIFO, socket or folder
 * at the target is refused. Temp files are named `.<name>.pinwatch-<pid>-<rand>.tmp`
 * so a later run can recognise and remove a stale one (journal/journal.ts).
 * The `fs` option is a seam for tests (inject a short write or ENOSPC).
 */
import * as nodeFs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { PinwatchError } from '../errors.js';

/** The file system calls the writer makes; tests may replace any of them. */
export interface WriteFs {
  openSync(path: string, flags: string, mode?: number): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  fsyncSync(fd: number): void;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  unlinkSync(path: string): void;
  chmodSync(path: string, mode: number): void;
  lstatSync(path: string): nodeFs.Stats;
}

export const realFs: WriteFs = {
  openSync: (p, f, m) => nodeFs.openSync(p, f, m),
  writeSync: (fd, b, o, l) => nodeFs.writeSync(fd, b, o, l),
  fsyncSync: (fd) => nodeFs.fsyncSync(fd),
  closeSync: (fd) => nodeFs.closeSync(fd),
  renameSync: (a, b) => nodeFs.renameSync(a, b),
  unlinkSync: (p) => nodeFs.unlinkSync(p),
  chmodSync: (p, m) => nodeFs.chmodSync(p, m),
  lstatSync: (p) => nodeFs.lstatSync(p),
};

export interface AtomicWriteOptions {
  /** Replace some file system calls (tests). */
  fs?: Partial<WriteFs>;
}

export function writeFsOf(options: AtomicWriteOptions = {}): WriteFs {
  return { ...realFs, ...options.fs };
}

/** `.<name>.pinwatch-<pid>-<hex>.tmp` (temp) and `.bak` (a journaled write's backup of the old file). */
export const PINWATCH_TEMP_NAME = /^\.(.+)\.pinwatch-(\d+)-([0-9a-f]+)\.(tmp|bak)$/;

export function tempPathFor(path: string, kind: 'tmp' | 'bak' = 'tmp'): string {
  return join(dirname(path), `.${basename(path)}.pinwatch-${process.pid}-${randomBytes(4).toString('hex')}.${kind}`);
}

function kindOf(st: nodeFs.Stats): string {
  if (st.isSymbolicLink()) return 'a symlink';
  if (st.isDirectory()) return 'a directory; name a file';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * The mode of the regular file at `path`, or undefined when nothing is there.
 * Anything else at the path (lstat: a symlink is not followed) is refused.
 */
export function replaceableMode(path: string, fs: WriteFs = realFs): number | undefined {
  let st: nodeFs.Stats;
  try {
    st = fs.lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw writeError(path, e);
  }
  if (!st.isFile()) {
    throw new PinwatchError('write-not-regular-file', `cannot write ${JSON.stringify(path)}: it is ${kindOf(st)}; pinwatch only replaces regular files`);
  }
  return st.mode & 0o7777;
}

/** The PinwatchError for a failed write of `path`: the OS error's code and message, or the missing folder. */
export function writeError(path: string, e: unknown): PinwatchError {
  if (e instanceof PinwatchError) return e;
  const err = e as NodeJS.ErrnoException;
  const reason = err.code === 'ENOENT' ? `the folder ${JSON.stringify(dirname(path))} does not exist` : err.message;
  return new PinwatchError('write-failed', `cannot write ${JSON.stringify(path)}: ${reason}; the old file was kept`, {}, { cause: e });
}

function removeQuietly(fs: WriteFs, path: string): void {
  try {
    fs.unlinkSync(path);
  } catch {
    /* already gone */
  }
}

/** Write every byte to fd: writeSync may write fewer bytes than asked (disk full), so loop; 0 bytes is ENOSPC. */
function writeAll(fs: WriteFs, fd: number, bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) {
    const n = fs.writeSync(fd, bytes, off, bytes.length - off);
    if (!(n > 0)) {
      const e = new Error(`ENOSPC: no space left on device, write (${off} of ${bytes.length} bytes written)`) as NodeJS.ErrnoException;
      e.code = 'ENOSPC';
      throw e;
    }
    off += n;
  }
}

/**
 * Write `data` to a new temp file beside `path`, fsync'ed, with `mode`; returns its
 * path. On any failure the temp file is removed and the error rethrown as is.
 */
export function writeTempFile(path: string, data: string | Uint8Array, mode: number | undefined, fs: WriteFs = realFs, tmp = tempPathFor(path)): string {
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, 'wx', mode ?? 0o644);
    writeAll(fs, fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    fs.fsyncSync(fd);
    const closing = fd;
    fd = undefined;
    fs.closeSync(closing);
    if (mode !== undefined) fs.chmodSync(tmp, mode);
    return tmp;
  } catch (e) {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        /* the write error is the one to report */
      }
    }
    removeQuietly(fs, tmp);
    throw e;
  }
}

/** fsync a folder so a rename in it is durable; file systems that cannot (EINVAL, ENOTSUP) are let be. */
export function fsyncDir(dir: string, fs: WriteFs = realFs): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EISDIR' && code !== 'EBADF') throw e;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const fs = writeFsOf(options);
  const mode = replaceableMode(path, fs);
  let tmp: string | undefined;
  try {
    tmp = writeTempFile(path, data, mode, fs);
    fs.renameSync(tmp, path);
    tmp = undefined;
    fsyncDir(dirname(path), fs);
  } catch (e) {
    if (tmp !== undefined) removeQuietly(fs, tmp);
    throw writeError(path, e);
  }
}
