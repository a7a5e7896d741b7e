/**
 * PR mode, `check --base REV`, on a real git history shaped like a GitHub
 * pull_request run: HEAD is the merge of the PR branch into main. The PR's own
 * commit to app's sources makes app "rebuild needed", never stale; api lacks a fix
 * merged on main, so it is stale; a lint finding main already has is not
 * reported, a new one is. `check --write-baseline` covers stale as well as lint.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
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

  it("a root in a subdirectory: the base's findings are those of the root's folder in the base's tree", async () => {
    const own = makeRepo('pinwatch-pr-sub-');
    try {
      own.commit({ 'sub/pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\n', 'sub/charts/values.yaml': 'image: ghcr.io/acme/web:latest\n', 'other/values.yaml': 'image: ghcr.io/acme/other:latest\n' }, 'initial');
      own.git('branch', 'base');
      own.commit({ 'sub/README.md': 'docs\n', 'sub/charts/extra/values.yaml': 'image: ghcr.io/acme/api:latest\n' }, 'docs');
      const r = await runCli(['--repo', join(own.dir, 'sub'), 'check', '--format', 'json', '--base', 'base', '--no-cache']);
      const doc = JSON.parse(r.out) as Doc;
      const lintOf = (file: string) => (doc.findings as Doc[]).filter((f) => f.file === file && !f.rule.startsWith('stale-'));
      // linted at the top of the base's tree, no fingerprint matched (paths from another root): every finding read as new
      expect(lintOf('charts/values.yaml').length).toBeGreaterThan(0);
      for (const f of lintOf('charts/values.yaml')) expect(f.suppressed).toEqual({ kind: 'baseline', reason: 'already in base' });
      expect(lintOf('charts/extra/values.yaml').map((f) => f.rule)).toContain('floating-tag');
      for (const f of lintOf('charts/extra/values.yaml')) expect(f.suppressed).toBeUndefined();
    } finally {
      own.cleanup();
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

describe("a check at the base keeps its tree's lint findings for a PR against it", () => {
  // a tree as a CI checkout gives it: the config committed, a relative symlink inside the tree, an inline
  // suppression of a stale rule (which a tree linted alone names as an unknown rule), findings of several rules
  const TREE = {
    'pinwatch.yaml': CONFIG,
    'src/app/main.go': 'package main\n',
    'src/api/main.go': 'package main\n',
    'charts/values.yaml': values('a', 'b'),
    'charts/tool/values.yaml': 'image: ghcr.io/acme/tool:v1 # pinwatch-ignore stale-image the tool is built elsewhere\n',
    'charts/web/values.yaml': 'image: ghcr.io/acme/web:latest\n',
  };
  const setUp = () => {
    const own = makeRepo('pinwatch-pr-keep-');
    own.commit(TREE, 'initial');
    own.git('-c', 'core.symlinks=true', 'config', 'core.symlinks', 'true');
    symlinkSync('../web', join(own.dir, 'charts/tool/web'));
    own.git('add', '-A');
    own.git('commit', '-qm', 'a symlink');
    return own;
  };
  const cli = (dir: string, ...args: string[]) => runCli(['--repo', dir, 'check', '--format', 'json', '-v', ...args]);
  const strip = (out: string) => JSON.stringify(JSON.parse(out, (k, v) => (k === 'stats' || k === 'timings' ? undefined : v)));

  it('kept by the run at the base; the PR\'s first run writes no tree out and answers as --no-cache', async () => {
    const own = setUp();
    try {
      const base = own.git('rev-parse', 'HEAD');
      const atBase = await cli(own.dir);
      expect(atBase.err).toMatch(new RegExp(`this tree's lint findings kept for a PR against ${base.slice(0, 10)} \\(its tree will not be written out\\)`));
      // the run after it asks nothing again (kept already)
      expect((await cli(own.dir)).err).not.toMatch(/this tree's lint findings/);
      own.commit({ 'src/app/main.go': 'package main\n// new\n', 'charts/extra/values.yaml': 'image: ghcr.io/acme/web:latest\n' }, 'feat(app): new');
      const pr = await cli(own.dir, '--base', base);
      expect(pr.err).toMatch(/PR base [0-9a-f]{10}: its lint findings kept from an earlier run \(its tree not written out\)/);
      const plain = await cli(own.dir, '--base', base, '--no-cache');
      expect(strip(pr.out)).toBe(strip(plain.out));
      const doc = JSON.parse(pr.out) as Doc;
      expect(doc.pr.onBase).toBeGreaterThan(2);
      // the web chart's finding is on the base; the PR's copy of it at another path is new
      expect((doc.findings as Doc[]).filter((f) => f.file === 'charts/extra/values.yaml' && f.rule === 'floating-tag' && !f.suppressed)).toHaveLength(1);
    } finally {
      own.cleanup();
    }
  });

  const differs: [string, (own: TestRepo) => void, RegExp][] = [
    ['an untracked file', (own) => own.write({ 'notes.txt': 'x\n' }), /a file or folder git does not track is there \(notes\.txt\)/],
    ['an ignored file', (own) => (own.commit({ '.gitignore': 'out/\n' }, 'ignore'), own.write({ 'out/values.yaml': 'image: ghcr.io/acme/x:latest\n' })), /a file or folder git does not track is there \(out\/\)/],
    ['an empty folder', (own) => mkdirSync(join(own.dir, 'charts/empty')), /a file or folder git does not track is there \(charts\/empty\/\)/],
    ['an edited file', (own) => own.write({ 'charts/web/values.yaml': 'image: ghcr.io/acme/web:v2\n' }), /a tracked file differs from HEAD \(charts\/web\/values\.yaml\)/],
    ['a staged file', (own) => (own.write({ 'charts/new/values.yaml': 'image: ghcr.io/acme/new:v1\n' }), own.git('add', '-A')), /a tracked file differs from HEAD \(charts\/new\/values\.yaml\)/],
    ['a file git is told to trust', (own) => (own.write({ 'charts/web/values.yaml': 'image: ghcr.io/acme/web:v2\n' }), own.git('update-index', '--assume-unchanged', 'charts/web/values.yaml')), /git is told to trust charts\/web\/values\.yaml as it is \(assume-unchanged\)/],
    ['an absolute symlink', (own) => (symlinkSync(join(own.dir, 'charts/web'), join(own.dir, 'charts/abs')), own.git('add', '-A'), own.git('commit', '-qm', 'abs')), /the symlink charts\/abs leads out of the tree/],
    ['a symlink leading out', (own) => (symlinkSync('../../elsewhere', join(own.dir, 'charts/out')), own.git('add', '-A'), own.git('commit', '-qm', 'out')), /the symlink charts\/out leads out of the tree \(\.\.\/\.\.\/elsewhere\)/],
  ];
  it.each(differs)('not kept where the work tree is not HEAD\'s tree (%s); the PR run writes the base out', async (_what, change, reason) => {
    const own = setUp();
    try {
      change(own);
      const base = own.git('rev-parse', 'HEAD');
      const atBase = await cli(own.dir);
      expect(atBase.err).toMatch(new RegExp(`this tree's lint findings not kept for a PR against ${base.slice(0, 10)}: `));
      expect(atBase.err).toMatch(reason);
      // remembered for the commit: the next run asks git nothing again
      expect((await cli(own.dir)).err).not.toMatch(/this tree's lint findings/);
      own.git('commit', '-q', '--allow-empty', '-m', 'next');
      const pr = await cli(own.dir, '--base', base);
      expect(pr.err).not.toMatch(/its lint findings kept from an earlier run/);
      expect(strip(pr.out)).toBe(strip((await cli(own.dir, '--base', base, '--no-cache')).out));
      // the PR run wrote the base out and kept what it found in place of the note
      expect((await cli(own.dir, '--base', base)).err).toMatch(/its lint findings kept from an earlier run/);
    } finally {
      own.cleanup();
    }
  });
});
