/**
 * The tag pass read as git writes it (git/tag-history.ts readTagAdditions with
 * `enough`, git/digest-history.ts streamPatchLog): the commits found before git
 * is stopped are the newest of what the whole pass finds, in its order, and the
 * pass stops (git is not left running, nothing older is parsed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTagAdditions } from '../../src/git/tag-history.js';
import { gitStats } from '../../src/git/run.js';
import { makeRepo, type TestRepo } from '../support/repo.js';

let repo: TestRepo;
const adds: string[] = [];

const bundle = (tag: string, filler: number) => `${'# filler line\n'.repeat(filler)}image: ghcr.io/acme/app:${tag}\n`;

beforeAll(() => {
  repo = makeRepo('pinwatch-tag-additions-');
  repo.commit({ 'manifests/install.yaml': bundle('v1', 10), 'README.md': 'x\n' }, 'initial');
  // the tag set, moved away, set again: each setting is an addition, newest first
  for (let i = 0; i < 6; i++) {
    adds.push(repo.commit({ 'manifests/install.yaml': bundle('latest', 10 + i) }, `set latest ${i}`));
    repo.commit({ 'manifests/install.yaml': bundle(`v${i + 2}`, 10 + i) }, `release v${i + 2}`);
    repo.commit({ 'README.md': `${i}\n` }, `docs ${i}`);
  }
  adds.push(repo.commit({ 'manifests/install.yaml': bundle('latest', 20) }, 'set latest again'));
  adds.reverse();
});
afterAll(() => repo.cleanup());

describe('readTagAdditions: stopped once the caller has enough', () => {
  it('without `enough`: every addition, newest first', async () => {
    const all = await readTagAdditions(repo.dir, ['latest'], ['manifests/install.yaml']);
    expect(all.map((o) => o.commit)).toEqual(adds);
    expect(all[0]!.addedTo.get('latest')).toEqual(['manifests/install.yaml']);
  });

  it.each([1, 2, 5])('stopped after %i: the newest %i of the whole pass, in its order', async (n) => {
    const all = await readTagAdditions(repo.dir, ['latest'], ['manifests/install.yaml']);
    const before = gitStats.processes;
    let asked = 0;
    const some = await readTagAdditions(repo.dir, ['latest'], ['manifests/install.yaml'], 'HEAD', (found) => {
      asked++;
      return found.length >= n;
    });
    expect(gitStats.processes - before).toBe(1);
    expect(some.map((o) => [o.commit, o.date, o.subject, [...o.addedTo]])).toEqual(all.slice(0, n).map((o) => [o.commit, o.date, o.subject, [...o.addedTo]]));
    // asked once per addition found, never past the n-th: nothing older was parsed into an answer
    expect(asked).toBe(n);
  });

  it('an `enough` never satisfied reads to the end: the same as without one', async () => {
    const all = await readTagAdditions(repo.dir, ['latest'], ['manifests/install.yaml']);
    const streamed = await readTagAdditions(repo.dir, ['latest'], ['manifests/install.yaml'], 'HEAD', () => false);
    expect(streamed.map((o) => o.commit)).toEqual(all.map((o) => o.commit));
  });

  it('a revision git does not know: a git-failed error, never a partial answer', async () => {
    await expect(readTagAdditions(repo.dir, ['latest'], ['manifests/install.yaml'], 'nope', () => false)).rejects.toThrow(/git log -p failed \(exit 128\)/);
  });
});
