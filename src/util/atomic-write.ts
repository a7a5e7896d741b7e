/**
 * Atomic file writes: write a temp file beside the target, fsync, rename over it.
 * A crash leaves either the old file or the new one, never half of either, and a
 * failed write leaves no temp file behind. Failures are PinwatchErrors naming the
 * target (exit 2), never an internal error about a temp file.
 */
import { closeSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeSync, chmodSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PinwatchError } from '../errors.js';

function existingMode(path: string): number | undefined {
  try {
    const st = statSync(path);
    if (st.isDirectory()) {
      throw new PinwatchError('write-failed', `cannot write ${JSON.stringify(path)}: it is a directory; name a file`);
    }
    return st.mode & 0o7777;
  } catch (e) {
    if (e instanceof PinwatchError) throw e;
    return undefined;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* already gone */
  }
}

export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const mode = existingMode(path);
  const tmp = join(dirname(path), `.${basename(path)}.pinwatch-${process.pid}-${Date.now()}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', mode ?? 0o644);
    writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    if (mode !== undefined) chmodSync(tmp, mode);
    renameSync(tmp, path);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    removeQuietly(tmp);
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? `the folder ${JSON.stringify(dirname(path))} does not exist` : (e as Error).message;
    throw new PinwatchError('write-failed', `cannot write ${JSON.stringify(path)}: ${reason}`, {}, { cause: e });
  }
}
