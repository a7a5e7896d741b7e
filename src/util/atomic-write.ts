/**
 * Atomic file writes: write a temp file beside the target, fsync, rename over it.
 * A crash leaves either the old file or the new one, never half of either.
 */
import { closeSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeSync, chmodSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const tmp = join(dirname(path), `.${basename(path)}.pinwatch-${process.pid}-${Date.now()}.tmp`);
  let mode: number | undefined;
  try {
    mode = statSync(path).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  const fd = openSync(tmp, 'w', mode ?? 0o644);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      /* best effort */
    }
    throw e;
  }
  closeSync(fd);
  if (mode !== undefined) chmodSync(tmp, mode);
  renameSync(tmp, path);
}
