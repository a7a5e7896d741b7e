/**
 * Provenance for tag pins on real git histories: tag-commit (tags that embed a
 * commit), tag-history (the commit that stamped the tag into a recipe-stamped
 * pin) and git tags in other forms; one batch of git processes for any number of images.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { computeStale } from '../../src/stale/history.js';
import { gitStats } from '../../src/git/run.js';
import { resolveAbbreviations } from '../../src/git/objects.js';
import { embeddedCommit } from '../../src/provenance/tag-commit.js';
import { tagRulesOf } from '../../src/provenance/sources.js';
import { defaultConfig } from '../../src/config/defaults.js';
import { image, inputs, pin } from '../support/stale.js';
import type { StaleImageInput } from '../../src/stale/types.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));
const NOW = new Date('2026-03-01T00:00:00Z');
const TAG_METHODS = ['digest-history', 'tag-commit', 'tag-history', 'git-tag'] as const;

const tagValues = (name: string, tag: string) => `controller:\n  image: "ghcr.io/acme/${name}:${tag}"\n`;
const xImage = (tag: string, extra: Partial<StaleImageInput> = {}) => ({ ...image('x', [pin('charts/x/values.yaml', 2, `ghcr.io/acme/x:${tag}`)], inputs('x', 'src/x/')), ...extra });

function repo() {
  const r = makeRepo();
  repos.push(r);
  return r;
}

describe('embeddedCommit (the default schemes)', () => {
  it.each([
    ['v20260820-69b56db7', '69b56db7'],
    ['v20260810-7619858115-master', '7619858115'],
    ['v20260810-7619858115-1.36', '7619858115'],
    ['v20260210-new-1.15', undefined],
    ['sha-1a2b3c4', '1a2b3c4'],
    ['main-1a2b3c4d', '1a2b3c4d'],
    ['1.2.3-g1a2b3c4', '1a2b3c4'],
    ['v1.2.3-28-g66a760794-dirty', '66a760794'],
    ['0123456789abcdef0123456789abcdef01234567', '0123456789abcdef0123456789abcdef01234567'],
    ['abc1234', 'abc1234'],
    ['v1.2.3', undefined],
    ['v1.2.3-rc.1', undefined],
    ['sha-1a2b3c', undefined], // 6 hex: too short to be taken for a commit
    ['latest', undefined],
    ['1.2.3-G1A2B3C4', undefined],
  ])('%s → %s', (tag, commit) => expect(embeddedCommit(tag)).toBe(commit));

  it('tries a configured pattern (group "commit") first, then the defaults', () => {
    const custom = /^build\.(?<commit>[0-9a-f]{4,})\.x$/;
    expect(embeddedCommit('build.abcd.x', custom)).toBe('abcd');
    expect(embeddedCommit('sha-1a2b3c4', custom)).toBe('1a2b3c4');
  });
});

describe('tag-commit provenance', () => {
  it('resolves each scheme to the commit it names; the fix after it is unshipped', async () => {
    const r = repo();
    r.commit({ 'src/x/main.go': '1\n', 'charts/x/values.yaml': tagValues('x', 'v0') }, 'initial');
    const built = r.commit({ 'src/x/main.go': '2\n' }, 'feat(x): two (#1)');
    const fix = r.commit({ 'src/x/main.go': '3\n' }, 'fix(x): three (#2)');
    for (const tag of [`v20260820-${built.slice(0, 8)}`, `sha-${built.slice(0, 7)}`, `main-${built.slice(0, 8)}`, `1.2.3-g${built.slice(0, 7)}`, built]) {
      r.write({ 'charts/x/values.yaml': tagValues('x', tag) });
      const img = (await computeStale(r.dir, [xImage(tag)], { now: NOW, methods: [...TAG_METHODS] })).images[0]!;
      expect(img.builtFrom, tag).toMatchObject({ commit: built, method: 'tag-commit' });
      expect(img.status).toBe('stale');
      expect(img.unshipped.map((u) => u.commit)).toEqual([fix]);
      expect(img.provenance.find((s) => s.method === 'tag-commit')!.reason).toContain('can be rebuilt');
    }
  });

  it('says when the embedded abbreviation names no commit here, and a tag that embeds none', async () => {
    const r = repo();
    r.commit({ 'src/x/main.go': '1\n', 'charts/x/values.yaml': tagValues('x', 'sha-1234567') }, 'initial');
    const absent = (await computeStale(r.dir, [xImage('sha-1234567')], { now: NOW, methods: ['tag-commit'] })).images[0]!;
    expect(absent.status).toBe('unknown');
    expect(absent.reason).toContain('tag-commit: tag sha-1234567 embeds 1234567, which names no commit of this repository');
    const none = (await computeStale(r.dir, [xImage('v1.2.3')], { now: NOW, methods: ['tag-commit'] })).images[0]!;
    expect(none.reason).toContain('tag(s) v1.2.3 embed no commit: they match no default scheme');
  });

  it('refuses an ambiguous abbreviation (several objects share it) in the one batch', async () => {
    const r = repo();
    r.commit({ 'src/x/main.go': '1\n' }, 'initial');
    // enough blobs that two share a 4-hex prefix (blobs 195 and 389: 6bb2…), written by one git process
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`blobs/${i}`] = `${i}\n`;
    r.write(files);
    const shas = execFileSync('git', ['hash-object', '-w', '--stdin-paths'], { cwd: r.dir, input: Object.keys(files).join('\n'), encoding: 'utf8' }).trim().split('\n');
    const seen = new Map<string, number>();
    for (const s of shas) seen.set(s.slice(0, 4), (seen.get(s.slice(0, 4)) ?? 0) + 1);
    const shared = [...seen].find(([, n]) => n > 1)![0];
    const head = r.git('rev-parse', 'HEAD');
    const got = await resolveAbbreviations(r.dir, [shared, head.slice(0, 7), 'fffffff']);
    expect(got.get(shared)).toEqual({ ambiguous: true });
    expect(got.get(head.slice(0, 7))).toEqual({ commit: head });
    expect(got.get('fffffff')).toEqual({ absent: true });
    const custom = /^b-(?<commit>[0-9a-f]{4})$/;
    const img = (await computeStale(r.dir, [xImage(`b-${shared}`)], { now: NOW, methods: ['tag-commit'], tagRules: { tagCommitPattern: custom } })).images[0]!;
    expect(img.reason).toContain(`tag b-${shared} embeds ${shared}, which is ambiguous here`);
  });
});

describe('tag-history provenance', () => {
  /** A recipe stamps x's tag at "Release v1.1.0"; y gets the same tag later by hand in the same file. */
  function stampedRepo() {
    const r = repo();
    const two = (x: string, y: string) => `controller:\n  image: "ghcr.io/acme/x:${x}"\nother:\n  image: "ghcr.io/acme/y:${y}"\n`;
    r.commit({ 'src/x/main.go': '1\n', 'charts/x/values.yaml': two('v1.0.0', 'v1.0.0') }, 'initial');
    const built = r.commit({ 'src/x/main.go': '2\n' }, 'feat(x): two (#1)');
    const stamp = r.commit({ 'charts/x/values.yaml': two('v1.1.0', 'v1.0.0') }, 'Release v1.1.0');
    r.commit({ 'charts/x/values.yaml': two('v1.1.0', 'v1.1.0') }, 'chore: y to v1.1.0 by hand');
    const fix = r.commit({ 'src/x/main.go': '3\n' }, 'fix(x): three (#2)');
    const x = (stamped: boolean) => xImage('v1.1.0', stamped ? { stamped: [{ file: 'charts/x/values.yaml', line: 2, by: 'Makefile:release' }] } : {});
    return { r, built, stamp, fix, x };
  }

  it('takes the parent of the commit that stamped the tag into THIS pin, and says it is weaker than a digest', async () => {
    const { r, built, stamp, fix, x } = stampedRepo();
    const img = (await computeStale(r.dir, [x(true)], { now: NOW, methods: [...TAG_METHODS] })).images[0]!;
    expect(img.builtFrom).toMatchObject({ commit: built, method: 'tag-history' });
    const step = img.provenance.find((s) => s.method === 'tag-history')!;
    expect(step.evidence).toMatchObject({ introducedBy: { commit: stamp, subject: 'Release v1.1.0' }, tag: 'v1.1.0', stampedBy: 'Makefile:release' });
    expect(step.reason).toMatch(/^tag v1\.1\.0 introduced by [0-9a-f]{10} "Release v1\.1\.0" .* which Makefile:release stamps; built from its first parent; weaker than a digest/);
    expect(img.unshipped.map((u) => u.commit)).toEqual([fix]);
  });

  it('does not answer when no recipe stamps the pin: a hand edit of a tag says nothing about the build', async () => {
    const { r, x } = stampedRepo();
    const img = (await computeStale(r.dir, [x(false)], { now: NOW, methods: ['tag-history'] })).images[0]!;
    expect(img.status).toBe('unknown');
    expect(img.reason).toContain('tag-history: no build recipe or declared producer stamps a tagged pin of this image');
  });

  it('says when the tag never entered the pin file, and moves to the stamping commit when it also changes the inputs', async () => {
    const r = repo();
    r.commit({ 'src/x/main.go': '1\n', 'charts/x/values.yaml': tagValues('x', 'v1') }, 'initial');
    const both = r.commit({ 'src/x/main.go': '2\n', 'charts/x/values.yaml': tagValues('x', 'v2') }, 'Bump x to v2 with its source');
    const stamped = [{ file: 'charts/x/values.yaml', line: 2, by: 'Makefile:image' }];
    const img = (await computeStale(r.dir, [xImage('v2', { stamped })], { now: NOW, methods: ['tag-history'] })).images[0]!;
    expect(img).toMatchObject({ status: 'current', builtFrom: { commit: both, method: 'tag-history' } });
    expect(img.provenance[0]!.reason).toContain('which also changes this image\'s build inputs (src/x/main.go): built from that commit itself; weaker than a digest');
    r.write({ 'charts/x/values.yaml': tagValues('x', 'v3') });
    const never = (await computeStale(r.dir, [xImage('v3', { stamped })], { now: NOW, methods: ['tag-history'] })).images[0]!;
    expect(never.reason).toContain('tag-history: tag v3: it never appears in the history of charts/x/values.yaml');
  });

  it.each(['main', 'latest', 'nightly'])('does not date a channel tag (%s) by the commit that stamped it: each push moves it', async (tag) => {
    const r = repo();
    r.commit({ 'src/x/main.go': '1\n', 'charts/x/values.yaml': tagValues('x', 'v1') }, 'initial');
    r.commit({ 'charts/x/values.yaml': tagValues('x', tag) }, `x to ${tag}`);
    r.commit({ 'src/x/main.go': '2\n' }, 'fix(x): two (#1)');
    const stamped = [{ file: 'charts/x/values.yaml', line: 2, by: 'Makefile:set-image' }];
    const img = (await computeStale(r.dir, [xImage(tag, { stamped })], { now: NOW, methods: ['tag-history'] })).images[0]!;
    expect(img.status).toBe('unknown');
    expect(img.reason).toContain(`tag-history: tag ${tag} names a channel, not a build`);
    // a version stamped the same way is dated by its stamp
    r.commit({ 'charts/x/values.yaml': tagValues('x', 'v2') }, 'x to v2');
    const v2 = (await computeStale(r.dir, [xImage('v2', { stamped })], { now: NOW, methods: ['tag-history'] })).images[0]!;
    expect(v2.status).toBe('current');
  });
});

describe('git-tag provenance with other tag forms', () => {
  function tagged(gitTag: string, name = 'controller') {
    const r = repo();
    r.commit({ 'src/x/main.go': '1\n', 'charts/x/values.yaml': tagValues(name, 'v0') }, 'initial');
    const built = r.commit({ 'src/x/main.go': '2\n' }, 'feat(x): two (#1)');
    r.git('tag', gitTag);
    const fix = r.commit({ 'src/x/main.go': '3\n' }, 'fix(x): three (#2)');
    return { r, built, fix };
  }
  const ctrl = (tag: string, name = 'controller') => image(name, [pin('charts/x/values.yaml', 2, `ghcr.io/acme/${name}:${tag}`)], inputs(name, 'src/x/'));

  it.each([
    ['controller-v1.15.1', 'v1.15.1'],
    ['controller/v1.2.3', 'v1.2.3'],
    ['v1.2.3', '1.2.3'],
  ])('finds git tag %s for image tag %s by the default search', async (gitTag, tag) => {
    const { r, built, fix } = tagged(gitTag);
    const img = (await computeStale(r.dir, [ctrl(tag)], { now: NOW, methods: [...TAG_METHODS] })).images[0]!;
    expect(img.builtFrom).toMatchObject({ commit: built, method: 'git-tag' });
    expect(img.provenance.at(-1)!.evidence).toEqual({ gitTag });
    expect(img.unshipped.map((u) => u.commit)).toEqual([fix]);
  });

  it('uses provenance.gitTag and an image\'s own gitTag (from pinwatch.yaml), and names the forms searched when none matches', async () => {
    const { r, built } = tagged('release-1.2.3');
    const config = defaultConfig();
    const none = (await computeStale(r.dir, [ctrl('1.2.3')], { now: NOW, methods: ['git-tag'], tagRules: tagRulesOf(config) })).images[0]!;
    expect(none.reason).toContain('image tag(s) 1.2.3 name no git tag (searched {tag}, v{tag}, {image}-{tag}, {image}/{tag}');
    config.provenance.gitTag = 'release-{tag}';
    const byTemplate = (await computeStale(r.dir, [ctrl('1.2.3')], { now: NOW, methods: ['git-tag'], tagRules: tagRulesOf(config) })).images[0]!;
    expect(byTemplate.builtFrom).toMatchObject({ commit: built, method: 'git-tag' });
    const own = defaultConfig();
    own.images = { ctl: { repository: 'ghcr.io/acme/controller', gitTag: 'release-{tag}' } };
    const byImage = (await computeStale(r.dir, [ctrl('1.2.3')], { now: NOW, methods: ['git-tag'], tagRules: tagRulesOf(own) })).images[0]!;
    expect(byImage.builtFrom).toMatchObject({ commit: built, method: 'git-tag' });
  });
});

describe('tag methods cost a constant number of git processes', () => {
  it('is the same for 1 and 12 images (tag-commit, tag-history and git-tag all run)', async () => {
    const r = repo();
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`src/img${i}/main.go`] = `${i}\n`;
    r.commit(files, 'initial');
    const built = r.git('rev-parse', 'HEAD');
    const stamp: Record<string, string> = {};
    for (let i = 0; i < 12; i++) stamp[`charts/img${i}/values.yaml`] = tagValues(`img${i}`, i % 2 ? `v1-${i}` : `sha-${built.slice(0, 7)}`);
    r.commit(stamp, 'Release v1');
    for (let i = 0; i < 12; i++) r.commit({ [`src/img${i}/main.go`]: `${i}-fixed\n` }, `fix(img${i}): bug (#${100 + i})`);
    const all = Array.from({ length: 12 }, (_, i) => {
      const tag = i % 2 ? `v1-${i}` : `sha-${built.slice(0, 7)}`;
      return { ...image(`img${i}`, [pin(`charts/img${i}/values.yaml`, 2, `ghcr.io/acme/img${i}:${tag}`)], inputs(`img${i}`, `src/img${i}/`)), stamped: [{ file: `charts/img${i}/values.yaml`, line: 2, by: 'Makefile:release' }] };
    });
    const count = async (n: number) => {
      const before = gitStats.processes;
      const rep = await computeStale(r.dir, all.slice(0, n), { now: NOW, methods: [...TAG_METHODS] });
      expect(rep.images.every((i) => i.status === 'stale' && i.unshipped.length === 1)).toBe(true);
      expect(new Set(rep.images.map((i) => i.builtFrom!.method))).toEqual(new Set(n === 1 ? ['tag-commit'] : ['tag-commit', 'tag-history']));
      return gitStats.processes - before;
    };
    const one = await count(1);
    expect(await count(12)).toBe(one);
  });
});

describe('tag-only pins of one repository at different tags', () => {
  it('are separate images (one per tag), each with its own build commit', async () => {
    const r = repo();
    r.commit({ 'src/x/main.go': '1\n' }, 'initial');
    const old = r.commit({ 'src/x/main.go': '2\n' }, 'feat(x): two (#1)');
    const fix = r.commit({ 'src/x/main.go': '3\n' }, 'fix(x): three (#2)');
    const tags = [`v20260101-${old.slice(0, 10)}-1.32`, `v20260102-${fix.slice(0, 10)}-master`];
    r.commit({ 'jobs.yaml': `a:\n  image: ghcr.io/acme/x:${tags[0]}\nb:\n  image: ghcr.io/acme/x:${tags[1]}\n` }, 'chore: bump jobs');
    const img = image('x', [pin('jobs.yaml', 2, `ghcr.io/acme/x:${tags[0]}`), pin('jobs.yaml', 4, `ghcr.io/acme/x:${tags[1]}`)], inputs('x', 'src/x/'));
    const rep = await computeStale(r.dir, [img], { now: NOW, methods: [...TAG_METHODS] });
    expect(rep.images.map((i) => [i.tags, i.status, i.builtFrom?.commit, i.unshipped.map((u) => u.commit)])).toEqual([
      [[tags[0]], 'stale', old, [fix]],
      [[tags[1]], 'current', fix, []],
    ]);
  });
});

describe('tag-history leaves digest pins to digest-history', () => {
  it('does not answer from the tag when the pin stores a digest that history never saw', async () => {
    const r = repo();
    r.commit({ 'src/x/main.go': '1\n', 'charts/x/values.yaml': tagValues('x', 'v1') }, 'initial');
    r.commit({ 'charts/x/values.yaml': tagValues('x', 'v2') }, 'Release v2');
    const digest = `sha256:${'9'.repeat(64)}`;
    const img = { ...image('x', [pin('charts/x/values.yaml', 2, `ghcr.io/acme/x:v2@${digest}`)], inputs('x', 'src/x/')), stamped: [{ file: 'charts/x/values.yaml', line: 2, by: 'Makefile:image' }] };
    const got = (await computeStale(r.dir, [img], { now: NOW, methods: ['digest-history', 'tag-history'] })).images[0]!;
    expect(got.status).toBe('unknown');
    expect(got.provenance[1]!.reason).toBe('the pins store a digest, whose history digest-history reads (a tag can be rebuilt under the same name)');
  });
});
