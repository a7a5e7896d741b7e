/**
 * The long-lived `cat-file --batch` reader (git/history.ts BlobBatch): blobs of
 * every size come back whole and in order, however git's output is chunked (a
 * megabyte blob arrives in many pipe reads, which are joined once, not per
 * chunk), with a missing id and a non-blob answered undefined between them.
 * A real repository.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BlobBatch } from '../../src/git/history.js';
import { makeRepo, type TestRepo } from '../support/repo.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

/** Deterministic text of `n` bytes, with newlines and multi-byte characters (a header must never be found inside it). */
function text(n: number, seed: number): string {
  let s = '';
  for (let i = 0; s.length < n; i++) s += `line ${seed}-${i} é ${'x'.repeat((i * 7 + seed) % 90)}\n${i % 13 === 0 ? `${'0'.repeat(40)} blob 12\n` : ''}`;
  return s;
}

describe('BlobBatch', () => {
  it('reads small, huge and absent objects, asked together and one after another, each exactly', async () => {
    const r = makeRepo();
    repos.push(r);
    const files: Record<string, string> = { 'a.txt': 'small\n', 'empty.txt': '', 'big.yaml': text(1_100_000, 1), 'mid.yaml': text(200_000, 2), 'big2.yaml': text(700_000, 3) };
    r.commit(files, 'files');
    const id = (path: string) => r.git('rev-parse', `HEAD:${path}`).trim();
    const ids = Object.fromEntries(Object.keys(files).map((f) => [f, id(f)]));
    const tree = r.git('rev-parse', 'HEAD^{tree}').trim();
    const batch = new BlobBatch(r.dir);
    try {
      // all at once: the answers of several blobs share chunks, and a huge one spans many
      const order = ['big.yaml', 'a.txt', 'mid.yaml', 'empty.txt', 'big2.yaml'];
      const missing = 'f'.repeat(40);
      const asked = [...order.map((f) => batch.read(ids[f]!)), batch.read(missing), batch.read(tree), batch.read(ids['big.yaml']!)];
      const got = await Promise.all(asked);
      expect(got.slice(0, order.length)).toEqual(order.map((f) => files[f]));
      expect(got[order.length]).toBeUndefined();
      expect(got[order.length + 1]).toBeUndefined(); // a tree is not a blob
      expect(got[order.length + 2]).toBe(files['big.yaml']);
      // then one at a time, each asked once the one before is answered
      const single = new BlobBatch(r.dir);
      try {
        for (const f of ['big2.yaml', 'a.txt', 'big.yaml', 'empty.txt', 'mid.yaml']) expect(await single.read(ids[f]!)).toBe(files[f]);
        expect(await single.read(missing)).toBeUndefined();
        expect(await single.read(ids['a.txt']!)).toBe('small\n');
      } finally {
        single.close();
      }
    } finally {
      batch.close();
    }
  });
  it('starts no process for a read asked after close (a late prefetch), and answers it undefined', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'a.txt': 'small\n' }, 'files');
    const id = r.git('rev-parse', 'HEAD:a.txt').trim();
    const unused = new BlobBatch(r.dir);
    unused.close(); // closed before any read, as explain does when the image is unknown
    expect(await unused.read(id)).toBeUndefined();
    expect(unused.running).toBe(false);
    const used = new BlobBatch(r.dir);
    expect(await used.read(id)).toBe('small\n');
    used.close();
    expect(await used.read(id)).toBe('small\n'); // answered before close: still the answer
    expect(await used.read('f'.repeat(40))).toBeUndefined();
  });
});
