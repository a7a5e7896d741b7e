import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { computeStale, plausiblePicks } from '../../src/stale/history.js';
import { subjectStem } from '../../src/stale/unshipped.js';
import { CommitGraph } from '../../src/git/graph.js';
import { gitStats } from '../../src/git/run.js';
import { loadConfig } from '../../src/config/load.js';
import { buildDemoRepo } from '../../src/demo/build.js';
import { staleReport } from '../../src/stale/repo.js';
import { DIGEST, image, inputs, pin, values } from '../support/stale.js';

const repos: TestRepo[] = [];
const tmp: string[] = [];
afterEach(() => {
  repos.splice(0).forEach((r) => r.cleanup());
  tmp.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});
const NOW = new Date('2026-03-01T00:00:00Z');

/** The first seed's shape: release-prep stamps a digest, a fix PR merges after. */
function seedRepo() {
  const r = makeRepo();
  repos.push(r);
  r.commit({ 'src/osc/main.go': 'package main\n', 'charts/osc/values.yaml': values('osc', 'v1.4.0', DIGEST('a')), 'docs/readme.md': 'x\n' }, 'initial');
  const feat = r.commit({ 'src/osc/main.go': 'package main\n// feature\n' }, 'feat(osc): add bucket status (#10)');
  const prep = r.commit({ 'charts/osc/values.yaml': values('osc', 'v1.5.0', DIGEST('b')) }, 'Prepare release v1.5.0');
  r.git('checkout', '-q', '-b', 'fix-requeue');
  const fix = r.commit({ 'src/osc/main.go': 'package main\n// feature\n// requeue\n' }, 'fix(objectstorage-controller): requeue BucketClaim until backend Bucket is ready');
  r.commit({ 'test/e2e/bucket.bats': 'wait\n' }, 'test(bucket): assert BucketClaim converges');
  r.git('checkout', '-q', 'main');
  r.commit({ 'docs/readme.md': 'y\n' }, 'docs: readme');
  r.git('merge', '-q', '--no-ff', '-m', 'fix(objectstorage-controller): converge BucketClaim readiness (#3034)', 'fix-requeue');
  const merge = r.git('rev-parse', 'HEAD');
  const osc = image('osc', [pin('charts/osc/values.yaml', 2, `ghcr.io/acme/osc:v1.5.0@${DIGEST('b')}`)], inputs('osc', 'src/osc/'));
  return { r, feat, prep, fix, merge, osc };
}

describe('computeStale', () => {
  it('reports the seed shape: built from the release-prep parent, the merged fix unshipped', async () => {
    const { r, feat, prep, fix, osc } = seedRepo();
    const report = await computeStale(r.dir, [osc], { now: NOW, methods: ['digest-history', 'git-tag'] });
    const img = report.images[0]!;
    expect(img.status).toBe('stale');
    expect(img.builtFrom).toMatchObject({ commit: feat, method: 'digest-history' });
    expect(img.provenance[0]!.evidence).toMatchObject({ introducedBy: { commit: prep, subject: 'Prepare release v1.5.0' } });
    expect(img.unshipped).toHaveLength(1);
    expect(img.unshipped[0]).toMatchObject({ commit: fix, pr: 3034, type: 'fix', subject: expect.stringContaining('requeue') });
    expect(img.pins).toEqual([{ file: 'charts/osc/values.yaml', line: 2 }]);
    expect(img.oldestUnshipped?.commit).toBe(fix);
    expect(img.oldestUnshipped!.ageDays).toBeGreaterThan(0);
  });

  it('leaves merges out and takes the PR number from the commit subject first', async () => {
    const { r, osc } = seedRepo();
    r.commit({ 'src/osc/util.go': 'package main\n' }, 'refactor(osc): split util (#77)');
    const report = await computeStale(r.dir, [osc], { now: NOW, methods: ['digest-history'] });
    const subjects = report.images[0]!.unshipped.map((u) => [u.subject, u.pr, u.type]);
    expect(subjects).toEqual([
      ['refactor(osc): split util (#77)', 77, 'refactor'],
      ['fix(objectstorage-controller): requeue BucketClaim until backend Bucket is ready', 3034, 'fix'],
    ]);
  });

  it('says current when no input changed after the build commit, and names the method', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'src/a/main.go': 'a\n', 'src/b/main.go': 'b\n', 'v.yaml': 'x: 1\n' }, 'initial');
    r.commit({ 'v.yaml': `a:\n  image: ghcr.io/acme/a:v1@${DIGEST('1')}\nb:\n  image: ghcr.io/acme/b:v1@${DIGEST('2')}\n` }, 'Prepare release v1');
    r.commit({ 'src/b/main.go': 'b2\n' }, 'fix(b): thing');
    const report = await computeStale(r.dir, [
      image('a', [pin('v.yaml', 2, `ghcr.io/acme/a:v1@${DIGEST('1')}`)], inputs('a', 'src/a/')),
      image('b', [pin('v.yaml', 4, `ghcr.io/acme/b:v1@${DIGEST('2')}`)], inputs('b', 'src/b/')),
    ], { now: NOW, methods: ['digest-history'] });
    expect(report.images.map((i) => [i.image, i.status, i.unshipped.length])).toEqual([
      ['a', 'current', 0],
      ['b', 'stale', 1],
    ]);
  });

  it('sees through a retag promotion: built from the rc prep parent, not the final git tag', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'src/c/main.go': '1\n', 'v.yaml': values('c', 'v1.0.0', DIGEST('0')) }, 'initial');
    const beforeRc = r.commit({ 'src/c/main.go': '2\n' }, 'feat(c): two (#1)');
    r.commit({ 'v.yaml': values('c', 'v1.6.0-rc.4', DIGEST('c')) }, 'Prepare release v1.6.0-rc.4');
    r.git('tag', 'v1.6.0-rc.4');
    const between = r.commit({ 'src/c/main.go': '3\n' }, 'fix(c): merged between rc and final (#5)');
    r.commit({ 'v.yaml': values('c', 'v1.6.0', DIGEST('c')) }, 'Prepare release v1.6.0 (promoted from v1.6.0-rc.4)');
    r.git('tag', 'v1.6.0');
    const c = image('c', [pin('v.yaml', 2, `ghcr.io/acme/c:v1.6.0@${DIGEST('c')}`)], inputs('c', 'src/c/'));
    const report = await computeStale(r.dir, [c], { now: NOW, methods: ['digest-history', 'git-tag'] });
    const img = report.images[0]!;
    expect(img.builtFrom).toMatchObject({ commit: beforeRc, method: 'digest-history' });
    expect(img.status).toBe('stale');
    expect(img.unshipped.map((u) => u.commit)).toEqual([between]);
    // the git tag v1.6.0 contains `between`; the weak method alone would call it current
    expect(r.git('merge-base', '--is-ancestor', between, 'v1.6.0')).toBe('');
    const weak = await computeStale(r.dir, [c], { now: NOW, methods: ['git-tag'] });
    expect(weak.images[0]).toMatchObject({ status: 'current', builtFrom: { method: 'git-tag' } });
    expect(img.provenance[1]!.reason).toContain('not needed');
  });

  it('does not report a fix whose patch was cherry-picked into the build commit history', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'src/d/main.go': 'a\nb\nc\n', 'v.yaml': values('d', 'v1', DIGEST('1')) }, 'initial');
    r.git('branch', 'release-1');
    const picked = r.commit({ 'src/d/main.go': 'a\nB\nc\n' }, 'fix(d): the cherry-picked fix (#8)');
    const other = r.commit({ 'src/d/extra.go': 'x\n' }, 'fix(d): not picked (#9)');
    r.git('checkout', '-q', 'release-1');
    r.git('cherry-pick', picked);
    r.commit({ 'v.yaml': values('d', 'v1.1', DIGEST('d')) }, 'Prepare release v1.1');
    r.git('checkout', '-q', 'main');
    r.git('merge', '-q', '--no-ff', '-m', 'Merge release-1', 'release-1');
    const d = image('d', [pin('v.yaml', 2, `ghcr.io/acme/d:v1.1@${DIGEST('d')}`)], inputs('d', 'src/d/'));
    const report = await computeStale(r.dir, [d], { now: NOW, methods: ['digest-history'] });
    const img = report.images[0]!;
    expect(img.unshipped.map((u) => u.commit)).toEqual([other]);
    expect(img.cherryPicked.map((c) => c.commit)).toEqual([picked]);
  });

  it('finds a cherry-pick whose subject was reworded by its author date, and diffs nothing without a plausible pair', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'src/d/main.go': 'a\nb\nc\n', 'v.yaml': values('d', 'v1', DIGEST('1')) }, 'initial');
    r.git('branch', 'release-1');
    const picked = r.commit({ 'src/d/main.go': 'a\nB\nc\n' }, 'fix(d): the cherry-picked fix (#8)');
    r.git('checkout', '-q', 'release-1');
    r.git('cherry-pick', picked);
    r.git('commit', '-q', '--amend', '-m', 'backport: the fix, reworded');
    r.commit({ 'v.yaml': values('d', 'v1.1', DIGEST('d')) }, 'Prepare release v1.1');
    r.git('checkout', '-q', 'main');
    r.git('merge', '-q', '--no-ff', '-m', 'Merge release-1', 'release-1');
    const d = image('d', [pin('v.yaml', 2, `ghcr.io/acme/d:v1.1@${DIGEST('d')}`)], inputs('d', 'src/d/'));
    const found = await computeStale(r.dir, [d], { now: NOW, methods: ['digest-history'] });
    expect(found.images[0]!.cherryPicked.map((c) => c.commit)).toEqual([picked]);
    expect(found.images[0]!.unshipped).toEqual([]);
    // the same change made again by hand (new subject, new date): not a cherry-pick, and no patch is read for it
    const r2 = makeRepo();
    repos.push(r2);
    r2.commit({ 'src/d/main.go': 'a\nb\nc\n', 'v.yaml': values('d', 'v1', DIGEST('1')) }, 'initial');
    r2.git('branch', 'release-1');
    const fix = r2.commit({ 'src/d/main.go': 'a\nB\nc\n' }, 'fix(d): the fix (#8)', { date: '2026-01-10T00:00:00Z' });
    r2.git('checkout', '-q', 'release-1');
    r2.commit({ 'src/d/main.go': 'a\nB\nc\n' }, 'fix(d): written again on the release branch', { date: '2026-01-11T00:00:00Z' });
    r2.commit({ 'v.yaml': values('d', 'v1.1', DIGEST('d')) }, 'Prepare release v1.1', { date: '2026-01-12T00:00:00Z' });
    r2.git('checkout', '-q', 'main');
    r2.git('merge', '-q', '--no-ff', '-m', 'Merge release-1', 'release-1');
    const before = gitStats.processes;
    const redone = await computeStale(r2.dir, [d], { now: NOW, methods: ['digest-history'] });
    expect(redone.images[0]!.unshipped.map((u) => u.commit)).toEqual([fix]);
    expect(redone.images[0]!.cherryPicked).toEqual([]);
    expect(redone.gitProcesses).toBe(gitStats.processes - before);
    expect(redone.gitProcesses).toBeLessThan(found.gitProcesses); // no diff-tree, no patch-id
  });

  it('finds a backport whose subject and author date both changed, by its subject stem (argo-rollouts: "… (cherry-pick #8 for 1.0) (#12)")', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'src/d/main.go': 'a\nb\nc\n', 'v.yaml': values('d', 'v1', DIGEST('1')) }, 'initial');
    r.git('branch', 'release-1');
    const fix = r.commit({ 'src/d/main.go': 'a\nB\nc\n' }, 'chore: address CVE-2026-1 (#8)', { date: '2026-01-10T00:00:00Z' });
    r.git('checkout', '-q', 'release-1');
    r.commit({ 'src/d/main.go': 'a\nB\nc\n' }, 'chore: address CVE-2026-1 (cherry-pick #8 for 1.0) (#12)', { date: '2026-01-16T00:00:00Z' });
    r.commit({ 'v.yaml': values('d', 'v1.1', DIGEST('d')) }, '[release-1.0] Prepare release v1.1', { date: '2026-01-17T00:00:00Z' });
    r.git('checkout', '-q', 'main');
    r.git('merge', '-q', '--no-ff', '-m', 'Merge release-1', 'release-1');
    const d = image('d', [pin('v.yaml', 2, `ghcr.io/acme/d:v1.1@${DIGEST('d')}`)], inputs('d', 'src/d/'));
    const img = (await computeStale(r.dir, [d], { now: NOW, methods: ['digest-history'] })).images[0]!;
    expect(img.unshipped).toEqual([]);
    expect(img.cherryPicked.map((c) => c.commit)).toEqual([fix]);
  });

  it.each([
    ['chore: Address CVE-2026-35469 (cherry-pick #4814 for 1.9) (#4824)', 'chore: Address CVE-2026-35469'],
    ['chore: Address CVE-2026-35469 (#4814)', 'chore: Address CVE-2026-35469'],
    ['[release-1.9] fix: x (#12)', 'fix: x'],
    ['Automated cherry pick of #123: fix the thing', 'fix the thing'],
    ['fix: handle (nested) parens (#5)', 'fix: handle (nested) parens'],
    ['fix(x): y', 'fix(x): y'],
    ['(#12)', '(#12)'],
  ])('subjectStem(%j) is %j', (subject, stem) => {
    expect(subjectStem(subject)).toBe(stem);
  });

  it('pairs for patch ids only commits with the same paths and the same subject or author date', () => {
    const node = (sha: string, date: string, subject: string) => ({ sha, parents: [], parentShas: [], date, subject });
    const graph = new CommitGraph([
      node('c0', '2026-01-01T00:00:00Z', 'fix: a'), // candidate
      node('p1', '2026-01-01T00:00:00Z', 'backport'), // same date, same paths: pair
      node('p2', '2026-01-02T00:00:00Z', 'fix: a'), // same subject, other paths: no pair
      node('p3', '2026-01-03T00:00:00Z', 'other'), // same paths, neither subject nor date: no pair
      node('c4', '2026-01-04T00:00:00Z', 'feat: huge'), // candidate without partner
      node('p5', '2026-01-04T00:00:00Z', 'feat: huge'), // same subject and date but a merge with no paths
    ]);
    const paths: Record<number, string[]> = { 0: ['b', 'a'], 1: ['a', 'b'], 2: ['a'], 3: ['a', 'b'], 4: ['a', 'z', 'y'], 5: [] };
    const changedOf = (i: number) => paths[i]!;
    const cases: { candidates: number[]; pool: number[]; want: number[] }[] = [
      { candidates: [0], pool: [1, 2, 3], want: [0, 1] },
      { candidates: [0], pool: [2, 3], want: [] },
      { candidates: [4], pool: [1, 2, 3, 5], want: [] },
      { candidates: [0, 4], pool: [], want: [] },
      { candidates: [0, 4], pool: [0, 1], want: [0, 1] },
    ];
    for (const c of cases) {
      const got = plausiblePicks(graph, [c.candidates.map((index) => ({ index, paths: changedOf(index) }))], [c.pool], changedOf);
      expect([...got].sort(), JSON.stringify(c)).toEqual(c.want);
    }
  });

  it('follows a digest that moved between files to its first introduction', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'src/e/main.go': '1\n', 'old/values.yaml': values('e', 'v0', DIGEST('0')) }, 'initial');
    const base = r.commit({ 'src/e/main.go': '2\n' }, 'feat(e): two');
    const prep = r.commit({ 'old/values.yaml': values('e', 'v1', DIGEST('e')) }, 'Prepare release v1');
    r.commit({ 'old/values.yaml': null, 'new/values.yaml': values('e', 'v1', DIGEST('e')) }, 'chore: move chart');
    const e = image('e', [pin('new/values.yaml', 2, `ghcr.io/acme/e:v1@${DIGEST('e')}`)], inputs('e', 'src/e/'));
    const report = await computeStale(r.dir, [e], { now: NOW, methods: ['digest-history'] });
    expect(report.images[0]!.builtFrom?.commit).toBe(base);
    expect(report.images[0]!.provenance[0]!.evidence).toMatchObject({ introducedBy: { commit: prep } });
  });

  it('reports unknown with a reason for each failure while the rest still comes out', async () => {
    const { r, osc } = seedRepo();
    r.write({ 'charts/new/values.yaml': values('new', 'v9', DIGEST('9')) }); // uncommitted: never in history
    const never = image('new', [pin('charts/new/values.yaml', 2, `ghcr.io/acme/new:v9@${DIGEST('9')}`)], inputs('new', 'src/new/'));
    const noDockerfile = image('nodf', [pin('charts/osc/values.yaml', 2, `ghcr.io/acme/nodf:v1.5.0@${DIGEST('b')}`)], {
      ...inputs('nodf'),
      unknownReason: 'Dockerfile images/nodf/Dockerfile does not exist',
    });
    const noRecipe = image('norecipe', [pin('charts/osc/values.yaml', 2, `ghcr.io/acme/norecipe:v1.5.0@${DIGEST('b')}`)], undefined, 'no build recipe tags ghcr.io/acme/norecipe');
    const report = await computeStale(r.dir, [osc, never, noDockerfile, noRecipe], { now: NOW, methods: ['registry', 'digest-history', 'git-tag'] });
    const by = Object.fromEntries(report.images.map((i) => [i.image, i]));
    expect(by.osc!.status).toBe('stale');
    expect(by.new).toMatchObject({ status: 'unknown', reason: expect.stringContaining('never appears in the history') });
    expect(by.new!.provenance.map((s) => s.method)).toEqual(['registry', 'digest-history', 'git-tag']);
    expect(by.new!.provenance[0]!.reason).toContain('--registry');
    expect(by.nodf).toMatchObject({ status: 'unknown', reason: expect.stringContaining('Dockerfile images/nodf/Dockerfile does not exist') });
    expect(by.norecipe).toMatchObject({ status: 'unknown', reason: 'no build recipe tags ghcr.io/acme/norecipe' });
  });

  it('says unknown on a shallow clone whose boundary hides the introduction', async () => {
    const { r, osc } = seedRepo();
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-shallow-'));
    tmp.push(dir);
    execFileSync('git', ['clone', '-q', '--depth', '2', `file://${r.dir}`, dir]);
    const report = await computeStale(dir, [osc], { now: NOW, methods: ['digest-history'] });
    expect(report.shallow).toBe(true);
    expect(report.warnings[0]).toContain('shallow');
    expect(report.images[0]).toMatchObject({ status: 'unknown', reason: expect.stringMatching(/shallow clone.*fetch-depth: 0/) });
  });

  it('runs a constant number of git processes whatever the number of images', async () => {
    const r = makeRepo();
    repos.push(r);
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`src/img${i}/main.go`] = `${i}\n`;
    r.commit(files, 'initial');
    const stamp: Record<string, string> = {};
    for (let i = 0; i < 12; i++) stamp[`charts/img${i}/values.yaml`] = values(`img${i}`, 'v1', DIGEST(i.toString(16)));
    r.commit(stamp, 'Prepare release v1');
    r.git('tag', 'v1'); // git-tag reads every image's pin file at the tag: one cat-file --batch for all
    for (let i = 0; i < 12; i++) r.commit({ [`src/img${i}/main.go`]: `${i}-fixed\n` }, `fix(img${i}): bug (#${100 + i})`);
    const all = Array.from({ length: 12 }, (_, i) => image(`img${i}`, [pin(`charts/img${i}/values.yaml`, 2, `ghcr.io/acme/img${i}:v1@${DIGEST(i.toString(16))}`)], inputs(`img${i}`, `src/img${i}/`)));
    const count = async (n: number) => {
      const before = gitStats.processes;
      const rep = await computeStale(r.dir, all.slice(0, n), { now: NOW, methods: ['digest-history', 'git-tag'] });
      expect(rep.images.every((i) => i.status === 'stale' && i.unshipped.length === 1)).toBe(true);
      expect(rep.images.every((i) => i.provenance[1]!.reason.includes('whose tree pins'))).toBe(true);
      expect(rep.gitProcesses).toBe(gitStats.processes - before);
      return rep.gitProcesses;
    };
    const one = await count(1);
    const twelve = await count(12);
    expect(twelve).toBe(one);
    expect(one).toBeLessThanOrEqual(8); // one raw pass + one cat-file --batch where the digest, graph and changed-paths passes were
  });

  it('a cold run lists the tags once, beside the history pass: before the pin files\' blobs are read, not once the tree is derived', async () => {
    const dir = buildDemoRepo(join(mkdtempSync(join(tmpdir(), 'pinwatch-tags-early-')), 'repo'));
    tmp.push(join(dir, '..'));
    const config = loadConfig(dir);
    expect(config.provenance.methods).toContain('git-tag');
    const trace = join(dir, '..', 'git-trace.txt');
    process.env.GIT_TRACE = trace; // the library's cache is off unless configured: a cold run
    const report = await staleReport(dir, config, { now: NOW }).finally(() => delete process.env.GIT_TRACE);
    expect(report.images.length).toBeGreaterThan(0);
    const asked = readFileSync(trace, 'utf8').split('\n').flatMap((l) => /trace: built-in: git (\S+)/.exec(l)?.[1] ?? []);
    expect(asked.filter((c) => c === 'for-each-ref')).toEqual(['for-each-ref']);
    // the first cat-file is the pin files' blob batch, started once the scan knows the pin files
    expect(asked.indexOf('for-each-ref')).toBeLessThan(asked.indexOf('cat-file'));
  });
});

describe('computeStale when source and pin are committed together', () => {
  it('does not count the commit that introduced the digest as unshipped: the image was built from it', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'images/cilium/Dockerfile': 'FROM cilium:v1.16.1\n', 'values.yaml': values('cilium', '1.16.1', DIGEST('1')) }, 'initial');
    const both = r.commit({ 'images/cilium/Dockerfile': 'FROM cilium:v1.16.2\n', 'values.yaml': values('cilium', '1.16.2', DIGEST('2')) }, 'Update Cilium v1.16.2 (#378)');
    const img = image('cilium', [pin('values.yaml', 2, `ghcr.io/acme/cilium:1.16.2@${DIGEST('2')}`)], inputs('cilium', 'images/cilium/'));
    const current = (await computeStale(r.dir, [img], { now: NOW, methods: ['digest-history'] })).images[0]!;
    expect(current.status).toBe('current');
    expect(current.unshipped).toEqual([]);
    expect(current.builtFrom).toMatchObject({ commit: both, method: 'digest-history' });
    expect(current.provenance[0]!.reason).toContain('which also changes this image\'s build inputs (images/cilium/Dockerfile): built from that commit itself');
    const later = r.commit({ 'images/cilium/Dockerfile': 'FROM cilium:v1.16.2\nRUN fix\n' }, 'fix(cilium): later (#380)');
    const stale = (await computeStale(r.dir, [img], { now: NOW, methods: ['digest-history'] })).images[0]!;
    expect(stale.status).toBe('stale');
    expect(stale.unshipped.map((u) => u.commit)).toEqual([later]);
  });

  it('a release-prep commit that only stamps keeps the parent as the build commit', async () => {
    const { feat, osc, r } = seedRepo();
    const report = await computeStale(r.dir, [osc], { now: NOW, methods: ['digest-history'] });
    expect(report.images[0]!.builtFrom?.commit).toBe(feat);
    expect(report.images[0]!.provenance[0]!.reason).toMatch(/built from its first parent$/);
  });
});

describe('computeStale with a root below the top of the work tree', () => {
  /** The seed's shape, but the platform lives in platform/ of a bigger work tree. */
  function nestedRepo() {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'platform/src/osc/main.go': '1\n', 'platform/charts/osc/values.yaml': values('osc', 'v1.4.0', DIGEST('a')), 'README.md': 'x\n' }, 'initial');
    const built = r.commit({ 'platform/src/osc/main.go': '2\n' }, 'feat(osc): two (#1)');
    r.commit({ 'platform/charts/osc/values.yaml': values('osc', 'v1.5.0', DIGEST('b')) }, 'Prepare release v1.5.0');
    const fix = r.commit({ 'platform/src/osc/main.go': '3\n' }, 'fix(osc): requeue (#2)');
    r.commit({ 'README.md': 'y\n' }, 'docs: outside the root');
    const osc = image('osc', [pin('charts/osc/values.yaml', 2, `ghcr.io/acme/osc:v1.5.0@${DIGEST('b')}`)], inputs('osc', 'src/osc/'));
    return { r, built, fix, osc };
  }

  it('matches changed paths against root-relative inputs, so a merged fix is unshipped (not current)', async () => {
    const { r, built, fix, osc } = nestedRepo();
    const report = await computeStale(join(r.dir, 'platform'), [osc], { now: NOW, methods: ['digest-history'] });
    const img = report.images[0]!;
    expect(img.builtFrom).toMatchObject({ commit: built, method: 'digest-history' });
    expect(img.provenance[0]!.evidence).toMatchObject({ introducedBy: { file: 'charts/osc/values.yaml' }, movedBy: [] });
    expect(img.status).toBe('stale');
    expect(img.unshipped.map((u) => [u.commit, u.paths])).toEqual([[fix, ['src/osc/main.go']]]);
  });

  it('warns that the root is a subdirectory, and does not at the top level', async () => {
    const { r, osc } = nestedRepo();
    const nested = await computeStale(join(r.dir, 'platform'), [osc], { now: NOW, methods: ['digest-history'] });
    expect(nested.warnings.join('\n')).toContain('is the subdirectory platform/ of its git work tree');
    const top = image('osc', [pin('platform/charts/osc/values.yaml', 2, `ghcr.io/acme/osc:v1.5.0@${DIGEST('b')}`)], inputs('osc', 'platform/src/osc/'));
    const atTop = await computeStale(r.dir, [top], { now: NOW, methods: ['digest-history'] });
    expect(atTop.warnings).toEqual([]);
    expect(atTop.images[0]!.unshipped).toHaveLength(1);
  });
});

describe('computeStale errors', () => {
  it('says clearly when the directory is not a git repository', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-nogit-'));
    tmp.push(dir);
    await expect(computeStale(dir, [])).rejects.toMatchObject({ code: 'not-a-git-repo' });
  });
});
