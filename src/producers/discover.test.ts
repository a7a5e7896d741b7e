import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MakefileCache, memoFileSystem } from './discover.js';
import { repoFileSystem } from '../make/index.js';

describe('memoFileSystem and MakefileCache', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const tmp = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'pinwatch-discover-'));
    dirs.push(d);
    return d;
  };

  it('reads each file and asks each existence once per run', () => {
    const root = tmp();
    const file = path.join(root, 'Makefile');
    writeFileSync(file, 'A := 1\n');
    const fs = memoFileSystem(repoFileSystem(root));
    expect(fs.readFile(file)).toBe('A := 1\n');
    expect(fs.exists(file)).toBe(true);
    expect(fs.exists(path.join(root, 'missing.mk'))).toBe(false);
    writeFileSync(file, 'A := 2\n');
    writeFileSync(path.join(root, 'missing.mk'), '');
    expect(fs.readFile(file)).toBe('A := 1\n');
    expect(fs.exists(path.join(root, 'missing.mk'))).toBe(false);
    unlinkSync(file);
    expect(fs.exists(file)).toBe(true);
    // Outside the repository stays unreadable, as repoFileSystem says.
    expect(memoFileSystem(repoFileSystem(root)).readFile('/etc/hostname')).toBeUndefined();
  });

  it('reads a Makefile with another environment as its own reader, from the same text', () => {
    const root = tmp();
    const file = path.join(root, 'Makefile');
    writeFileSync(file, 'include common.mk\nTAG ?= dev\nall:\n\tdocker build -t $(REGISTRY)/app:$(TAG) .\n');
    writeFileSync(path.join(root, 'common.mk'), 'REGISTRY ?= ghcr.io/acme\n');
    const cache = new MakefileCache(root);
    const plain = cache.get(file);
    const ci = cache.get(file, root, {}, { TAG: 'main', REGISTRY: 'quay.io/acme' });
    expect(ci).not.toBe(plain);
    expect(cache.get(file)).toBe(plain);
    expect(plain.db.vars.get('TAG')?.value).toBe('dev');
    expect(ci.db.vars.get('TAG')?.value).toBe('main');
    expect(plain.db.vars.get('REGISTRY')?.value).toBe('ghcr.io/acme');
    expect(ci.db.vars.get('REGISTRY')?.value).toBe('quay.io/acme');
    expect(ci.db.files).toEqual(['Makefile', 'common.mk']);
  });
});
