/**
 * PR mode, `check --base REV`, on a real git history shaped like a GitHub
 * pull_request run: HEAD is the merge of the PR branch into main. The PR's own
 * commit to app's sources makes app "rebuild needed", never stale; api lacks a fix
 * merged on main, so it is stale; a lint finding main already has is not
 * reported, a new one is. `check --write-baseline` covers stale as well as lint.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { DIGEST } from '../support/stale.js';

type Doc = Record<string, any>;
let repo: TestRepo;
let prCommit: string;
let apiFix: string;

const CONFIG = 'firstParty: [ghcr.io/acme/]\nimages:\n  app:\n    inputs: [src/app/]\n  api:\n    inputs: [src/api/]\n';
const values = (app: string, api: string) => `app:\n  image: ghcr.io/acme/app:v1@${DIGEST(app)}\napi:\n  image: ghcr.io/acme/api:v1@${DIGEST(api)}\n`;

beforeAll(() => {
  repo = makeRepo('pinwatch-pr-mode-');
  repo.commit({ 'pinwatch.yaml': CONFIG, 'src/app/main.go': 'package main\n', 'src/api/main.go': 'package main\n', 'charts/values.yaml': values('a', 'b') }, 'initial');
  repo.commit({ 'charts/values.yaml': values('c', 'd'), 'charts/tool/values.yaml': 'image: ghcr.io/acme/tool:v1\n' }, 'Prepare release v1.0.0');
  apiFix = repo.commit({ 'src/api/main.go': 'package main\n// fixed\n' }, 'fix(api): close the leak (#11)');
  repo.git('checkout', '-q', '-b', 'pr');
  prCommit = repo.commit({ 'src/app/main.go': 'package main\n// new feature\n', 'charts/extra/values.yaml': 'image: ghcr.io/acme/web:latest\n' }, 'feat(app): a new endpoint');
  repo.git('checkout', '-q', 'main');
  // what actions/checkout gives a pull_request run: the merge of the PR into its base
  repo.git('-c', 'user.name=GitHub', '-c', 'user.email=noreply@github.com', 'merge', '-q', '--no-ff', '-m', 'Merge 1a2b into main', 'pr');
  repo.git('branch', '-f', 'base', 'main~1');
});
afterAll(() => repo.cleanup());

const check = async (...args: string[]) => {
  const r = await runCli(['--repo', repo.dir, 'check', '--format', 'json', ...args]);
  return { ...r, doc: JSON.parse(r.out) as Doc };
};
const image = (doc: Doc, name: string) => (doc.stale.images as Doc[]).find((i) => i.image === name)!;
const active = (doc: Doc, rule: string) => (doc.findings as Doc[]).filter((f) => f.rule === rule && !f.suppressed);

describe('check --base REV (PR mode)', () => {
  it('without --base the PR commit counts as unshipped: app is stale (the bug PR mode fixes)', async () => {
    const { doc } = await check('--fail-on-stale', 'any');
    expect(image(doc, 'app').status).toBe('stale');
    expect(image(doc, 'app').unshipped.map((u: Doc) => u.commit)).toEqual([prCommit]);
    expect(doc.pr).toBeUndefined();
  });

  it('the PR changes app: rebuild needed, not stale; api lacks a fix merged on the base: stale, an error', async () => {
    const { doc, code } = await check('--base', 'base', '--fail-on-stale', 'any');
    expect(code).toBe(1);
    const app = image(doc, 'app');
    expect(app.status).toBe('current');
    expect(app.unshipped).toEqual([]);
    expect(app.rebuild.map((u: Doc) => [u.commit, u.subject])).toEqual([[prCommit, 'feat(app): a new endpoint']]);
    const api = image(doc, 'api');
    expect(api.status).toBe('stale');
    expect(api.unshipped.map((u: Doc) => u.commit)).toEqual([apiFix]);
    expect(api.rebuild).toEqual([]);
    expect(active(doc, 'rebuild-needed')).toEqual([
      expect.objectContaining({ severity: 'note', file: 'charts/values.yaml', line: 2, message: expect.stringMatching(/^this PR changes the inputs of app: its build must rebuild and repin app \(1 commit\(s\): [0-9a-f]{10} feat\(app\): a new endpoint\)$/) }),
    ]);
    expect(active(doc, 'stale-image').map((f) => [f.severity, f.evidence.repository])).toEqual([['error', 'ghcr.io/acme/api']]);
    expect(doc.pr).toMatchObject({ base: 'base', commit: repo.git('rev-parse', 'base'), prCommits: 2, rebuild: ['app'] });
    expect(doc.stale.base).toEqual({ rev: 'base', commit: repo.git('rev-parse', 'base'), prCommits: 2 });
  });

  it("lint: a finding the base's tree has is not reported (suppressed, already in base), the PR's new one is", async () => {
    const { doc } = await check('--base', 'base');
    const redis = (doc.findings as Doc[]).filter((f) => f.file === 'charts/tool/values.yaml' && !f.rule.startsWith('stale-'));
    expect(redis.length).toBeGreaterThan(0);
    for (const f of redis) expect(f.suppressed).toEqual({ kind: 'baseline', reason: 'already in base' });
    const nginx = (doc.findings as Doc[]).filter((f) => f.file === 'charts/extra/values.yaml' && !f.rule.startsWith('stale-'));
    expect(nginx.map((f) => f.rule)).toContain('floating-tag');
    for (const f of nginx) expect(f.suppressed).toBeUndefined();
    expect(doc.pr.onBase).toBe((doc.findings as Doc[]).filter((f) => f.suppressed?.reason === 'already in base').length);
    expect(doc.pr.onBase).toBeGreaterThanOrEqual(redis.length);
    // no file was written, nothing left in the repository
    expect(repo.git('status', '--porcelain')).toBe('');
    expect(repo.git('worktree', 'list').split('\n')).toHaveLength(1);
  });

  it('text: the PR section comes first and says what the PR must rebuild', async () => {
    const r = await runCli(['--repo', repo.dir, 'check', '--base', 'base']);
    const lines = r.out.split('\n');
    // the summary first, saying what PR mode leaves out; then the PR section before the stale table
    expect(lines[0]).toMatch(/^check: \d+ errors?, \d+ warnings?, \d+ notes? in all$/);
    expect(r.out).toMatch(/\n {2}not reported: \d+ lint finding\(s\) already in base \(PR mode\)\n/);
    const pr = lines.findIndex((l) => /^== This pull request, against base \([0-9a-f]{10}\): 2 commit\(s\) of its own$/.test(l));
    expect(pr).toBeGreaterThan(0);
    expect(pr).toBeLessThan(lines.findIndex((l) => l.startsWith('== Merged but not shipped')));
    expect(r.out).toMatch(/this PR changes the inputs of app: its build must rebuild and repin app/);
    expect(r.out).toMatch(/lint finding\(s\) already in base are not reported/);
  });

  it("the base's lint findings are kept by its commit: a rerun writes no tree out, answers as --no-cache, and leaves no cache folder for the temp tree", async () => {
    // its own repository: a values file over 4 KiB (the size the scan keeps an outcome for) in the base's tree
    const own = makeRepo('pinwatch-pr-kept-');
    const xdg = mkdtempSync(join(tmpdir(), 'pinwatch-pr-xdg-'));
    try {
      const big = `${'# tool values\n'.repeat(400)}image: ghcr.io/acme/tool:v1\n`;
      own.commit({ 'pinwatch.yaml': CONFIG, 'src/app/main.go': 'package main\n', 'src/api/main.go': 'package main\n', 'charts/values.yaml': values('a', 'b'), 'charts/tool/values.yaml': big }, 'initial');
      own.git('branch', 'base');
      own.commit({ 'src/app/main.go': 'package main\n// new\n', 'charts/extra/values.yaml': 'image: ghcr.io/acme/web:latest\n' }, 'feat(app): new');
      const env = { ...process.env, XDG_CACHE_HOME: xdg };
      const run = (...extra: string[]) => runCli(['--repo', own.dir, 'check', '--format', 'json', '--base', 'base', '-v', ...extra], { env });
      const [first, second, plain] = [await run(), await run(), await run('--no-cache')];
      const strip = (out: string) => JSON.stringify(JSON.parse(out, (k, v) => (k === 'stats' || k === 'timings' ? undefined : v)));
      expect(first.err).not.toMatch(/PR base [0-9a-f]{10}: its lint findings kept/);
      expect(second.err).toMatch(/PR base [0-9a-f]{10}: its lint findings kept from an earlier run \(its tree not written out\)/);
      expect(strip(second.out)).toBe(strip(first.out));
      expect(strip(second.out)).toBe(strip(plain.out));
      expect((JSON.parse(second.out) as Doc).pr.onBase).toBeGreaterThan(0);
      // the exported tree had no cache of its own (a folder keyed by a temp path, never read again)
      expect(existsSync(join(xdg, 'pinwatch'))).toBe(false);
    } finally {
      own.cleanup();
      rmSync(xdg, { recursive: true, force: true });
    }
  });

  it('a base that does not exist: exit 2, naming it and the fetch', async () => {
    const r = await runCli(['--repo', repo.dir, 'check', '--base', 'origin/nope']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\[unknown-revision\] base "origin\/nope" does not name a commit here.*git fetch origin origin\/nope/);
  });
});

describe('check --write-baseline', () => {
  it('records lint and stale findings; the next check reports none of them and exits 0', async () => {
    const w = await runCli(['--repo', repo.dir, 'check', '--write-baseline', 'pw-baseline.json', '--fail-on-stale', 'any']);
    expect(w.code).toBe(0);
    expect(w.err).toMatch(/wrote \d+ findings \(\d+ stale\) to the baseline pw-baseline\.json/);
    const baseline = JSON.parse(readFileSync(join(repo.dir, 'pw-baseline.json'), 'utf8')) as Doc;
    expect((baseline.findings as Doc[]).filter((e) => e.rule === 'stale-image').map((e) => e.repository).sort()).toEqual(['ghcr.io/acme/api', 'ghcr.io/acme/app']);
    const after = await check('--baseline', 'pw-baseline.json', '--fail-on-stale', 'any');
    expect(after.code).toBe(0);
    expect((after.doc.findings as Doc[]).filter((f) => !f.suppressed && f.severity !== 'note')).toEqual([]);
  });
});
