import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolvesInside } from '../util/repo-path.js';
import { diskFileSystem, repoFileSystem } from './index.js';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A jail with `repo/` and `outside/`, symlinks in the repo pointing in and out (files and directories, existing and dangling). */
function jail(): { root: string; outside: string } {
  const top = mkdtempSync(join(tmpdir(), 'pinwatch-make-fs-'));
  dirs.push(top);
  const root = join(top, 'repo');
  const outside = join(top, 'outside');
  mkdirSync(join(root, 'hack/deep'), { recursive: true });
  mkdirSync(join(outside, 'dir'), { recursive: true });
  writeFileSync(join(root, 'Makefile'), 'all:\n');
  writeFileSync(join(root, 'hack/common.mk'), 'X = 1\n');
  writeFileSync(join(root, 'hack/deep/more.mk'), 'Y = 1\n');
  writeFileSync(join(outside, 'secret.mk'), 'SECRET = 1\n');
  writeFileSync(join(outside, 'dir/other.mk'), 'O = 1\n');
  symlinkSync(join(outside, 'secret.mk'), join(root, 'hack/out.mk'));
  symlinkSync(join(outside, 'dir'), join(root, 'outdir'));
  symlinkSync('common.mk', join(root, 'hack/in.mk'));
  symlinkSync('hack', join(root, 'indir'));
  symlinkSync(join(outside, 'nowhere.mk'), join(root, 'hack/dangling-out.mk'));
  symlinkSync('../outdir/other.mk', join(root, 'hack/via-outdir.mk'));
  return { root, outside };
}

describe('repoFileSystem: only what resolves inside the repository (one realpath per directory)', () => {
  const paths = [
    'Makefile',
    'hack/common.mk',
    'hack/deep/more.mk',
    'hack/out.mk',
    'hack/in.mk',
    'hack/dangling-out.mk',
    'hack/via-outdir.mk',
    'hack/missing.mk',
    'outdir/other.mk',
    'outdir/missing.mk',
    'indir/common.mk',
    'indir/deep/more.mk',
    'indir/out.mk',
    'nodir/x.mk',
    'hack',
    '.',
  ];
  it('answers every path as realpath containment and the disk do, asked twice (the memo keeps the answer)', () => {
    const { root } = jail();
    const fs = repoFileSystem(root);
    const rootReal = realpathSync(root);
    for (let round = 0; round < 2; round++) {
      for (const p of paths) {
        const abs = join(root, p);
        const inside = resolvesInside(rootReal, abs);
        expect([p, fs.readFile(abs)]).toEqual([p, inside ? diskFileSystem.readFile(abs) : undefined]);
        expect([p, fs.exists(abs)]).toEqual([p, inside && diskFileSystem.exists(abs)]);
      }
    }
  });

  it('a symlink out of the repository is unreadable, one that stays inside is read', () => {
    const { root } = jail();
    const fs = repoFileSystem(root);
    expect(fs.readFile(join(root, 'hack/out.mk'))).toBeUndefined();
    expect(fs.readFile(join(root, 'outdir/other.mk'))).toBeUndefined();
    expect(fs.exists(join(root, 'outdir/other.mk'))).toBe(false);
    expect(fs.readFile(join(root, 'hack/in.mk'))).toBe('X = 1\n');
    expect(fs.readFile(join(root, 'indir/deep/more.mk'))).toBe('Y = 1\n');
  });
});
