import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PinwatchError } from '../errors.js';
import { resolveInsideRepo } from './repo-path.js';

let root: string;
let outside: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'pinwatch-repo-path-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'pinwatch-outside-')));
  mkdirSync(join(root, 'real/sub'), { recursive: true });
  writeFileSync(join(root, 'real/sub/f.yaml'), 'x: 1\n');
  symlinkSync(join(root, 'real'), join(root, 'inlink'));
  symlinkSync(outside, join(root, 'outlink'));
  symlinkSync('/etc/passwd', join(root, 'passwd'));
  symlinkSync('loop', join(root, 'loop'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('resolveInsideRepo', () => {
  it.each([
    ['real/sub/f.yaml', 'real/sub/f.yaml'],
    ['./real/sub/f.yaml', 'real/sub/f.yaml'],
    ['inlink/sub/f.yaml', 'real/sub/f.yaml'],
    ['real/missing/new.yaml', 'real/missing/new.yaml'],
    ['real/sub/../sub/f.yaml', null],
  ])('%s → inside', (rel, want) => {
    if (want === null) return expect(() => resolveInsideRepo(root, rel)).toThrow(/goes up with \.\./);
    expect(resolveInsideRepo(root, rel)).toBe(join(root, want));
  });

  it.each([
    ['/etc/passwd', /"\/etc\/passwd" is absolute/],
    ['C:\\x', /is absolute/],
    ['~/x', /starts with ~/],
    ['../x', /goes up with \.\./],
    ['', /is empty/],
    ['outlink/x.yaml', /leads out of the repository through a symlink/],
    ['outlink', /leads out of the repository through a symlink/],
    ['passwd', /leads out of the repository through a symlink/],
    ['loop', /cannot be resolved \(ELOOP\)/],
  ])('%s → path-outside-repo', (rel, message) => {
    let err: unknown;
    try {
      resolveInsideRepo(root, rel);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PinwatchError);
    expect((err as PinwatchError).code).toBe('path-outside-repo');
    expect((err as PinwatchError).message).toMatch(message);
  });
});
