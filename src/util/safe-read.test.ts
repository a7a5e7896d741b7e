import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REPO_FILE_BYTES, readRegularFile } from './safe-read.js';

let dir: string;
const server = createServer();
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pinwatch-safe-read-'));
  writeFileSync(join(dir, 'plain'), 'hello\n');
  writeFileSync(join(dir, 'big'), 'x'.repeat(100));
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  symlinkSync('/dev/zero', join(dir, 'zero'));
  symlinkSync('plain', join(dir, 'link'));
  symlinkSync('loop', join(dir, 'loop'));
  symlinkSync('nowhere', join(dir, 'dangling'));
  await new Promise<void>((resolve) => server.listen(join(dir, 'sock'), resolve));
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('readRegularFile', () => {
  it('reads a regular file', () => {
    expect(readRegularFile(join(dir, 'plain'))).toEqual({ bytes: Buffer.from('hello\n') });
  });

  it('has a 16 MiB default cap', () => {
    expect(MAX_REPO_FILE_BYTES).toBe(16 * 1024 * 1024);
  });

  it.each([
    ['fifo', {}, 'not-a-regular-file', /^a FIFO \(named pipe\), not a regular file; not read$/],
    ['sock', {}, 'not-a-regular-file', /^a socket, not a regular file/],
    ['zero', { followSymlinks: true }, 'not-a-regular-file', /^a character device, not a regular file/],
    ['zero', {}, 'symlink', /^a symlink; not followed$/],
    ['link', {}, 'symlink', /^a symlink; not followed$/],
    ['loop', { followSymlinks: true }, 'symlink', /symlink loop/],
    ['.', {}, 'not-a-regular-file', /^a directory, not a regular file/],
    ['missing', {}, 'unreadable', /^cannot read the file \(ENOENT\)$/],
    // a missing file is told without a thrown error (throwIfNoEntry: false), as before; a path through a file still throws
    ['missing', { followSymlinks: true }, 'unreadable', /^cannot read the file \(ENOENT\)$/],
    ['plain/below', {}, 'unreadable', /^cannot read the file \(ENOTDIR\)$/],
    ['plain/below', { followSymlinks: true }, 'unreadable', /^cannot read the file \(ENOTDIR\)$/],
    ['dangling', { followSymlinks: true }, 'unreadable', /^cannot read the file \(ENOENT\)$/],
    ['dangling', {}, 'symlink', /^a symlink; not followed$/],
    ['big', { maxBytes: 99 }, 'too-large', /^100 bytes is more than the 99-byte limit; not read$/],
  ] as const)('%s %j → %s', (name, options, code, reason) => {
    const r = readRegularFile(join(dir, name), options);
    expect(r).toEqual({ refused: { code, reason: expect.stringMatching(reason) } });
  });

  it.each([0, 1, 4095, 4096, 65_536, 200_001])('reads a %i-byte file exactly, also with the cap at its size (one buffer sized by fstat)', (size) => {
    const file = join(dir, `sized-${size}`);
    const bytes = Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + 7) % 256));
    writeFileSync(file, bytes);
    expect(readRegularFile(file)).toEqual({ bytes });
    expect(readRegularFile(file, { maxBytes: size })).toEqual({ bytes });
    if (size > 0) expect(readRegularFile(file, { maxBytes: size - 1 })).toEqual({ refused: { code: 'too-large', reason: `${size} bytes is more than the ${size - 1}-byte limit; not read` } });
  });

  it('follows a symlink to a regular file when asked', () => {
    expect(readRegularFile(join(dir, 'link'), { followSymlinks: true })).toEqual({ bytes: Buffer.from('hello\n') });
  });

  it('reads a file whose size is not known in advance (procfs reports 0) up to the cap', () => {
    const r = readRegularFile('/proc/self/status', { followSymlinks: true });
    expect('bytes' in r && r.bytes.length > 0).toBe(true);
    expect(readRegularFile('/proc/self/status', { followSymlinks: true, maxBytes: 10 })).toEqual({ refused: { code: 'too-large', reason: 'the file is more than the 10-byte limit; not read' } });
  });
});
