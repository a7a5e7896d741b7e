import { describe, expect, it } from 'vitest';
import { parsePatchLog } from '../../src/git/digest-history.js';
import { pickAnswer } from '../../src/provenance/resolve.js';
import { resolveFromGitTag } from '../../src/provenance/git-tag.js';
import { tagTreeKey } from '../../src/provenance/tag-trees.js';
import { pin, values } from '../support/stale.js';
import { registrySource } from '../../src/provenance/registry.js';
import { resolveFromHistory } from '../../src/provenance/digest-history.js';
import type { ImageSubject } from '../../src/provenance/types.js';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;
const subject = (over: Partial<ImageSubject> = {}): ImageSubject => ({ repository: 'ghcr.io/acme/x', digest: D1, tags: ['v1.6.0'], pins: [], ...over });

describe('parsePatchLog', () => {
  it('reads added and removed digests per file, ignoring header lines', () => {
    const log = [
      `N${'a'.repeat(40)}\0${'1'.repeat(40)} ${'2'.repeat(40)}\x002026-06-22T10:55:37+00:00\0Prepare release v1.5.0\0`,
      'diff --git a/a/values.yaml b/a/values.yaml',
      'index 1..2 100644',
      '--- a/a/values.yaml',
      '+++ b/a/values.yaml',
      '@@ -3 +3 @@',
      `-    image: "x:v1.4.0@${D2}"`,
      `+    image: "x:v1.5.0@${D1}"`,
      'diff --git a/b.tag b/b.tag',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/b.tag',
      '@@ -0,0 +1 @@',
      `+x:v1@${D2}`,
      '',
    ].join('\n');
    const [o] = parsePatchLog(log, 'N');
    expect(o).toMatchObject({ commit: 'a'.repeat(40), parentShas: ['1'.repeat(40), '2'.repeat(40)], subject: 'Prepare release v1.5.0' });
    expect([...o!.added]).toEqual([
      [D1, 'a/values.yaml'],
      [D2, 'b.tag'],
    ]);
    expect([...o!.removed]).toEqual([[D2, ['a/values.yaml']]]);
  });
});

describe('resolveFromHistory', () => {
  const history = (commit: string, parents: string[]) => ({
    found: new Map([[D1, { digest: D1, commit, parentShas: parents, date: '2026-06-22T10:55:37+00:00', subject: 'Prepare release', file: 'v.yaml', movedBy: [] }]]),
    rounds: 1,
    truncated: [],
  });
  const noShallow = { shallow: false, boundary: new Set<string>() };
  it('answers the first parent by default and the commit itself with buildCommit: self', () => {
    expect(resolveFromHistory(subject(), { history: history('c', ['p', 'q']), shallow: noShallow, buildCommit: 'parent', searchedFiles: 1 })).toMatchObject({ answered: true, commit: 'p' });
    expect(resolveFromHistory(subject(), { history: history('c', ['p']), shallow: noShallow, buildCommit: 'self', searchedFiles: 1 })).toMatchObject({ answered: true, commit: 'c' });
  });
  it('refuses at a shallow boundary, a root commit, and a digest-less pin', () => {
    const shallow = { shallow: true, boundary: new Set(['c']) };
    expect(resolveFromHistory(subject(), { history: history('c', []), shallow, buildCommit: 'parent', searchedFiles: 1 }).reason).toContain('shallow clone');
    expect(resolveFromHistory(subject(), { history: history('c', []), shallow: noShallow, buildCommit: 'parent', searchedFiles: 1 }).reason).toContain('root commit');
    expect(resolveFromHistory(subject({ digest: undefined }), { history: history('c', ['p']), shallow: noShallow, buildCommit: 'parent', searchedFiles: 1 }).reason).toBe('no pin of this image stores a digest');
  });
});

describe('resolveFromGitTag', () => {
  const file = 'charts/x/values.yaml';
  const pinned = subject({ pins: [pin(file, 2, `ghcr.io/acme/x:v1.6.0@${D1}`)] });
  const tree = (digest: string) => new Map([[tagTreeKey('sha-tag', file), values('x', 'v1.6.0', digest)]]);
  it('matches a tag or its v-prefixed form when the tag\'s tree pins the digest, and says why not otherwise', () => {
    const tags = new Map([['v1.6.0', 'sha-tag']]);
    expect(resolveFromGitTag(pinned, tags, tree(D1))).toMatchObject({ answered: true, commit: 'sha-tag' });
    expect(resolveFromGitTag({ ...pinned, tags: ['1.6.0'] }, tags, tree(D1))).toMatchObject({ answered: true, evidence: { gitTag: 'v1.6.0' } });
    expect(resolveFromGitTag(subject({ tags: ['pr-12'] }), tags, new Map())).toMatchObject({ answered: false, reason: expect.stringMatching(/^image tag\(s\) pr-12 name no git tag \(searched \{tag\}, v\{tag\}, \{image\}-\{tag\}, \{image\}\/\{tag\}; set provenance.gitTag/) });
  });
  it('refuses a tag whose tree pins another digest, or lacks the pin file', () => {
    const tags = new Map([['v1.6.0', 'sha-tag']]);
    expect(resolveFromGitTag(pinned, tags, tree(D2))).toMatchObject({
      answered: false,
      reason: `git tag v1.6.0 pins ${D2.slice(0, 19)}… in ${file}, not ${D1.slice(0, 19)}…: the tag did not build this image`,
    });
    expect(resolveFromGitTag(pinned, tags, new Map([[tagTreeKey('sha-tag', file), undefined]]))).toMatchObject({ answered: false, reason: expect.stringContaining(`git tag v1.6.0 has no ${file}, not`) });
  });
  it('keeps answering a bare tag pin (no digest to check), saying it is the weakest method', () => {
    const bare = subject({ digest: undefined, pins: [pin(file, 2, 'ghcr.io/acme/x:v1.6.0')] });
    expect(resolveFromGitTag(bare, new Map([['v1.6.0', 'sha-tag']]), new Map())).toMatchObject({ answered: true, commit: 'sha-tag', reason: expect.stringContaining('weakest method') });
  });
  it('never takes the floating tag latest as a git tag, even where a git tag latest exists (gateway has one, older than the images)', () => {
    const tags = new Map([['latest', 'sha-stray'], ['v1.6.0', 'sha-tag']]);
    expect(resolveFromGitTag(subject({ digest: undefined, tags: ['latest'] }), tags, new Map())).toEqual({
      method: 'git-tag',
      answered: false,
      reason: 'image tag latest names no version: a push moves it, so a git tag latest is not taken as its build (one of the image\'s own form, e.g. "{image}-latest", would be)',
    });
    // a git tag of the image's own form, moved with the image, dates it
    expect(resolveFromGitTag(subject({ digest: undefined, tags: ['latest'] }), new Map([...tags, ['x-latest', 'sha-own']]), new Map())).toMatchObject({ answered: true, commit: 'sha-own' });
    // beside a version tag, the version answers
    expect(resolveFromGitTag(subject({ digest: undefined, tags: ['latest', 'v1.6.0'] }), tags, new Map())).toMatchObject({ answered: true, commit: 'sha-tag' });
  });
  it("refuses a tag-only pin's git tag whose tree lacks the image's Dockerfile (loki's 2019 v0.1.0 has no operator/)", () => {
    const tags = new Map([['v0.1.0', 'sha-2019']]);
    const image = subject({ digest: undefined, tags: ['0.1.0'], anchor: 'operator/Dockerfile' });
    expect(resolveFromGitTag(image, tags, new Map([[tagTreeKey('sha-2019', 'operator/Dockerfile'), undefined]]))).toMatchObject({
      answered: false,
      reason: 'git tag v0.1.0 has no operator/Dockerfile, which every build of this image reads: the tag did not build it',
    });
    expect(resolveFromGitTag(image, tags, new Map([[tagTreeKey('sha-2019', 'operator/Dockerfile'), 'FROM scratch\n']]))).toMatchObject({ answered: true, commit: 'sha-2019' });
    // not read (no anchor asked for): answered as before
    expect(resolveFromGitTag(image, tags, new Map())).toMatchObject({ answered: true, commit: 'sha-2019' });
  });
});

describe('registry seam', () => {
  it('answers from the revision a registry reader returns, and reports a failed lookup', async () => {
    const ok = registrySource(async (ref) => ({ commit: 'f00d', commitFrom: 'label', reason: undefined, ref }));
    expect(await ok.resolve(subject())).toMatchObject({ method: 'registry', answered: true, commit: 'f00d', evidence: { ref: `ghcr.io/acme/x@${D1}` } });
    const down = registrySource(async () => {
      throw new Error('unauthorized');
    });
    expect(await down.resolve(subject())).toMatchObject({ answered: false, reason: expect.stringContaining('unauthorized') });
  });
});

describe('pickAnswer', () => {
  it('falls through when the answered commit is not in the clone and marks later steps not needed', () => {
    const p = pickAnswer(
      [
        { method: 'registry', answered: true, commit: 'missing', reason: 'label says missing' },
        { method: 'digest-history', answered: true, commit: 'here', reason: 'introduced by x' },
        { method: 'git-tag', answered: true, commit: 'tag', reason: 'tag' },
      ],
      new Map([['here', 'here'], ['tag', 'tag']]),
    );
    expect(p.commit).toBe('here');
    expect(p.method).toBe('digest-history');
    expect(p.steps[0]).toMatchObject({ answered: false, reason: expect.stringContaining('not in this clone') });
    expect(p.steps[2]).toMatchObject({ answered: false, reason: expect.stringContaining('not needed') });
  });
  it('normalises an abbreviated answer to the full sha', () => {
    const p = pickAnswer([{ method: 'registry', answered: true, commit: 'abc1234', reason: 'label' }], new Map([['abc1234', 'abc1234'.padEnd(40, '0')]]));
    expect(p.commit).toBe('abc1234'.padEnd(40, '0'));
  });
  it('never calls an image current when nothing answers: reason lists every method', () => {
    const p = pickAnswer([{ method: 'git-tag', answered: false, reason: 'no tag' }], new Map());
    expect(p.commit).toBeUndefined();
    expect(p.reason).toBe('git-tag: no tag');
  });
});
