import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PINWATCH_TEMP_NAME, writeFileAtomic } from './atomic-write.js';
import { PinwatchError } from '../errors.js';

const dirs: string[] = [];
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'pinwatch-atomic-'));
  dirs.push(d);
  return d;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('writeFileAtomic', () => {
  it('replaces the content and keeps the file mode', () => {
    const d = scratch();
    const f = join(d, 'values.yaml');
    writeFileSync(f, 'old\n');
    chmodSync(f, 0o640);
    writeFileAtomic(f, 'new\n');
    expect(readFileSync(f, 'utf8')).toBe('new\n');
    expect(statSync(f).mode & 0o777).toBe(0o640);
    expect(readdirSync(d)).toEqual(['values.yaml']);
  });

  it('names the missing folder and leaves nothing behind', () => {
    const d = scratch();
    expect(() => writeFileAtomic(join(d, 'nope', 'x.json'), '{}')).toThrow(/cannot write ".*nope\/x\.json": the folder ".*nope" does not exist/);
    expect(readdirSync(d)).toEqual([]);
  });

  it('refuses a directory as the target, leaving it untouched and no temp file', () => {
    const d = scratch();
    mkdirSync(join(d, 'out'));
    expect(() => writeFileAtomic(join(d, 'out'), '{}')).toThrow(/is a directory/);
    expect(readdirSync(d)).toEqual(['out']);
    expect(statSync(join(d, 'out')).isDirectory()).toBe(true);
  });
});

describe('writeFileAtomic: a short or failed write never replaces the old file', () => {
  const oldBytes = 'app:\n  image: ghcr.io/acme/app:v1@sha256:' + 'a'.repeat(64) + '\n';
  const newBytes = 'app:\n  image: ghcr.io/acme/app:v2@sha256:' + 'c'.repeat(64) + '\n';

  it('loops on partial writes (a write may take fewer bytes than asked)', () => {
    const d = scratch();
    const f = join(d, 'values.yaml');
    writeFileSync(f, oldBytes);
    const calls: number[] = [];
    writeFileAtomic(f, newBytes, { fs: { writeSync: (fd, b, o, l) => (calls.push(l), writeSync(fd, b, o, Math.min(l, 7))) } });
    expect(readFileSync(f, 'utf8')).toBe(newBytes);
    expect(calls.length).toBeGreaterThan(1);
    expect(readdirSync(d)).toEqual(['values.yaml']);
  });

  it.each([
    ['a write that takes 0 bytes (disk full)', (fd: number, b: Uint8Array, o: number, l: number) => (o === 0 ? writeSync(fd, b, o, Math.min(l, 10)) : 0)],
    [
      'ENOSPC on the second write',
      (fd: number, b: Uint8Array, o: number, l: number) => {
        if (o === 0) return writeSync(fd, b, o, Math.min(l, 10));
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    ],
  ])('%s: throws write-failed naming the file and ENOSPC, keeps the old bytes, leaves no temp file', (_, writeSyncFake) => {
    const d = scratch();
    const f = join(d, 'values.yaml');
    writeFileSync(f, oldBytes);
    let err: unknown;
    try {
      writeFileAtomic(f, newBytes, { fs: { writeSync: writeSyncFake } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PinwatchError);
    expect((err as PinwatchError).code).toBe('write-failed');
    expect((err as Error).message).toMatch(/^cannot write ".*values\.yaml": ENOSPC: no space left on device/);
    expect((err as Error).message).not.toMatch(/\n/);
    expect(readFileSync(f, 'utf8')).toBe(oldBytes);
    expect(readdirSync(d)).toEqual(['values.yaml']);
  });

  it('a failed rename or fsync removes the temp file too', () => {
    const d = scratch();
    const f = join(d, 'values.yaml');
    writeFileSync(f, oldBytes);
    const eio = () => {
      throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    };
    expect(() => writeFileAtomic(f, newBytes, { fs: { fsyncSync: eio } })).toThrow(/EIO/);
    expect(() => writeFileAtomic(f, newBytes, { fs: { renameSync: eio } })).toThrow(/EIO/);
    expect(readFileSync(f, 'utf8')).toBe(oldBytes);
    expect(readdirSync(d)).toEqual(['values.yaml']);
  });

  it('names its temp file recognisably: .<name>.pinwatch-<pid>-<hex>.tmp', () => {
    const d = scratch();
    const f = join(d, 'values.yaml');
    let seen = '';
    writeFileAtomic(f, newBytes, { fs: { renameSync: (a, b) => ((seen = a), renameSync(a, b)) } });
    expect(seen.slice(d.length + 1)).toMatch(new RegExp(`^\\.values\\.yaml\\.pinwatch-${process.pid}-[0-9a-f]+\\.tmp$`));
    expect(PINWATCH_TEMP_NAME.test(seen.slice(d.length + 1))).toBe(true);
  });
});

describe('writeFileAtomic replaces only a regular file', () => {
  it('refuses a symlink: the link stays a link and the file it points to is untouched', () => {
    const d = scratch();
    const outside = scratch();
    writeFileSync(join(outside, 'secret'), 'keep me\n');
    symlinkSync(join(outside, 'secret'), join(d, 'report.json'));
    expect(() => writeFileAtomic(join(d, 'report.json'), '{}\n')).toThrow(/cannot write ".*report\.json": it is a symlink; pinwatch only replaces regular files/);
    expect(lstatSync(join(d, 'report.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(outside, 'secret'), 'utf8')).toBe('keep me\n');
    expect(readdirSync(d)).toEqual(['report.json']);
  });

  it('refuses a FIFO (as it refuses /dev/stdout, a device): the node is not replaced', () => {
    const d = scratch();
    execFileSync('mkfifo', [join(d, 'pipe')]);
    let err: unknown;
    try {
      writeFileAtomic(join(d, 'pipe'), '{}\n');
    } catch (e) {
      err = e;
    }
    expect((err as PinwatchError).code).toBe('write-not-regular-file');
    expect((err as Error).message).toMatch(/it is a FIFO/);
    expect(lstatSync(join(d, 'pipe')).isFIFO()).toBe(true);
    expect(readdirSync(d)).toEqual(['pipe']);
  });
});
