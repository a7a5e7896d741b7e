/**
 * One derivation run asks the file system each question once (memo.ts), and
 * only while the run is under way: after it, and outside any run, a changed
 * tree is seen as it is.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readOnce, readdirOnce, statOnce, withSourceMemo } from '../../src/sources/memo.js';
import { readSourceAbs } from '../../src/sources/read.js';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })));
function root(): string {
  const r = mkdtempSync(join(tmpdir(), 'pinwatch-memo-'));
  roots.push(r);
  return r;
}

describe('withSourceMemo', () => {
  it('inside a run: one answer per path, even when the tree changes under it', async () => {
    const r = root();
    writeFileSync(join(r, 'go.mod'), 'module a\n');
    await withSourceMemo(r, async () => {
      expect((await statOnce(join(r, 'go.mod')))?.isFile()).toBe(true);
      expect(await statOnce(join(r, 'nope'))).toBeUndefined();
      writeFileSync(join(r, 'nope'), 'x');
      expect(await statOnce(join(r, 'nope'))).toBeUndefined();
      expect(statOnce(join(r, 'go.mod'))).toBe(statOnce(join(r, 'go.mod')));
      expect(readSourceAbs(join(r, 'go.mod'))).toEqual({ text: 'module a\n' });
      writeFileSync(join(r, 'go.mod'), 'module b\n');
      expect(readSourceAbs(join(r, 'go.mod'))).toEqual({ text: 'module a\n' });
      expect((await readdirOnce(r)).map((e) => e.name).sort()).toEqual(['go.mod', 'nope']);
      await expect(readdirOnce(join(r, 'missing'))).rejects.toThrow();
      await expect(readdirOnce(join(r, 'missing'))).rejects.toThrow();
    });
  });

  it('outside a run, and after it: the file system as it is', async () => {
    const r = root();
    await withSourceMemo(r, async () => expect(await statOnce(join(r, 'late'))).toBeUndefined());
    writeFileSync(join(r, 'late'), 'x');
    expect((await statOnce(join(r, 'late')))?.isFile()).toBe(true);
    let reads = 0;
    const read = () => ++reads;
    readOnce(join(r, 'late'), read);
    readOnce(join(r, 'late'), read);
    expect(reads).toBe(2);
    await withSourceMemo(r, async () => {
      readOnce(join(r, 'late'), read);
      readOnce(join(r, 'late'), read);
      // a path of another tree is not shared
      readOnce(join(`${r}-other`, 'late'), read);
      readOnce(join(`${r}-other`, 'late'), read);
    });
    expect(reads).toBe(5);
  });

  it('nested runs of one root share the memo until the outer one ends', async () => {
    const r = root();
    let reads = 0;
    await withSourceMemo(r, async () => {
      await withSourceMemo(r, async () => readOnce(join(r, 'x'), () => ++reads));
      readOnce(join(r, 'x'), () => ++reads);
    });
    readOnce(join(r, 'x'), () => ++reads);
    expect(reads).toBe(2);
  });
});
