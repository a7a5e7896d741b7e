import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';
import { DIGEST, values } from '../support/stale.js';

const repos: TestRepo[] = [];
const tmp: string[] = [];
afterEach(() => {
  repos.splice(0).forEach((r) => r.cleanup());
  tmp.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function cli(dir: string, ...argv: string[]) {
  return runCli(['--repo', dir, ...argv], { cwd: dir });
}

const CONFIG = `firstParty: [ghcr.io/acme/]
images:
  osc:
    repository: ghcr.io/acme/osc
    context: src/osc
  gone:
    repository: ghcr.io/acme/gone
    dockerfile: src/gone/Dockerfile
`;

/** A monorepo shaped like the first seed, with a config that declares the images. */
function monorepo() {
  const r = makeRepo();
  repos.push(r);
  r.commit(
    {
      'pinwatch.yaml': CONFIG,
      'src/osc/Dockerfile': 'FROM alpine\nCOPY . /app\n',
      'src/osc/main.go': 'package main\n',
      'src/web/Dockerfile': 'FROM alpine\n',
      'charts/osc/values.yaml': values('osc', 'v1.4.0', DIGEST('a')),
      'charts/orphan/values.yaml': values('orphan', 'v1', DIGEST('e')),
      'charts/gone/values.yaml': values('gone', 'v1', DIGEST('f')),
    },
    'initial',
  );
  const prep = r.commit({ 'charts/osc/values.yaml': values('osc', 'v1.5.0', DIGEST('b')) }, 'Prepare release v1.5.0');
  r.git('checkout', '-q', '-b', 'fix');
  const fix = r.commit({ 'src/osc/main.go': 'package main\n// requeue\n' }, 'fix(osc): requeue until ready');
  r.git('checkout', '-q', 'main');
  r.git('merge', '-q', '--no-ff', '-m', 'Merge pull request #3034 from acme/fix', 'fix');
  return { r, prep, fix };
}

describe('pinwatch stale (CLI)', () => {
  it('prints the JSON report and exits 1 for an unshipped fix', async () => {
    const { r, prep, fix } = monorepo();
    const { code, out } = await cli(r.dir, 'stale', '--format', 'json');
    expect(code).toBe(1);
    const doc = JSON.parse(out);
    const by = Object.fromEntries(doc.images.map((i: { image: string }) => [i.image, i]));
    expect(by.osc).toMatchObject({
      repository: 'ghcr.io/acme/osc',
      status: 'stale',
      builtFrom: { commit: r.git('rev-parse', `${prep}^`), method: 'digest-history' },
      unshipped: [{ commit: fix, subject: 'fix(osc): requeue until ready', pr: 3034, type: 'fix' }],
      pins: [{ file: 'charts/osc/values.yaml', line: 2 }],
    });
    expect(by.osc.oldestUnshipped.ageDays).toBeGreaterThan(0);
    expect(by.orphan).toMatchObject({ status: 'unknown', reason: expect.stringContaining('no build recipe tags ghcr.io/acme/orphan') });
    expect(by.gone).toMatchObject({ status: 'unknown', reason: expect.stringContaining('src/gone/Dockerfile') });
    expect(doc.summary).toEqual({ images: 3, stale: 1, current: 0, unknown: 2 });
  });

  it('honours --fail-on-stale and --max-age', async () => {
    const { r } = monorepo();
    expect((await cli(r.dir, 'stale', '--fail-on-stale', 'never')).code).toBe(0);
    expect((await cli(r.dir, 'stale', '--fail-on-stale', 'any')).code).toBe(1);
    expect((await cli(r.dir, 'stale', '--max-age', '100000')).code).toBe(0);
    expect((await cli(r.dir, 'stale', '--max-age', '0')).code).toBe(1);
    const bad = await cli(r.dir, 'stale', '--fail-on-stale', 'sometimes');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--fail-on-stale must be fix, any, unknown or never');
  });

  it('does not fail on stale without a fix by default', async () => {
    const { r } = monorepo();
    r.commit({ 'src/osc/README.md': 'docs\n' }, 'docs(osc): readme');
    const { code, out } = await cli(r.dir, 'stale', 'osc', '--fail-on-stale', 'fix', '--format', 'json');
    expect(JSON.parse(out).images[0].unshipped).toHaveLength(2);
    expect(code).toBe(1);
  });

  it('writes SARIF with stale-image results located at each pin', async () => {
    const { r } = monorepo();
    const { out } = await cli(r.dir, 'stale', '--format', 'sarif');
    const sarif = JSON.parse(out);
    const results = sarif.runs[0].results as { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[];
    const stale = results.filter((x) => x.ruleId === 'stale-image');
    expect(stale).toHaveLength(1);
    expect(stale[0]!.level).toBe('error');
    expect(stale[0]!.locations[0]!.physicalLocation).toMatchObject({ artifactLocation: { uri: 'charts/osc/values.yaml' }, region: { startLine: 2 } });
    expect(results.filter((x) => x.ruleId === 'stale-unknown')).toHaveLength(2);
  });

  it('prints a text table and markdown', async () => {
    const { r, fix } = monorepo();
    const text = (await cli(r.dir, 'stale')).out;
    // the summary first, then the table
    expect(text).toMatch(/^\d+ image\(s\): \d+ stale, \d+ current, \d+ unknown\n\nIMAGE\s+STATUS\s+BUILT FROM/);
    expect(text).toContain(`${fix.slice(0, 10)} `);
    expect(text).toContain('#3034');
    const md = (await cli(r.dir, 'stale', '--format', 'markdown')).out;
    expect(md).toContain('| `osc` | stale |');
  });
});

describe('pinwatch explain (CLI)', () => {
  it('shows pins, inputs with how they were found, and every provenance step', async () => {
    const { r } = monorepo();
    const { code, out } = await cli(r.dir, 'explain', 'osc');
    expect(code).toBe(0);
    expect(out).toContain('charts/osc/values.yaml:2');
    expect(out).toContain('src/osc/');
    expect(out).toMatch(/digest-history: ANSWERED [0-9a-f]{40} — introduced by [0-9a-f]{10} "Prepare release v1.5.0"/);
    expect(out).toMatch(/git-tag: no — /);
    expect(out).toContain('fix(osc): requeue until ready');
    const json = JSON.parse((await cli(r.dir, 'explain', 'ghcr.io/acme/osc', '--format', 'json')).out);
    expect(json.digests[0].status).toBe('stale');
  });

  it('two repositories with the same short name: explain refuses to guess, stale labels them apart', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit(
      {
        'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\n',
        'a/values.yaml': `app:\n  image: ghcr.io/acme/a/app:v1@${DIGEST('1')}\n`,
        'b/values.yaml': `app:\n  image: ghcr.io/acme/b/app:v2@${DIGEST('2')}\n`,
      },
      'initial',
    );
    const short = await cli(r.dir, 'explain', 'app');
    expect(short.code).toBe(2);
    expect(short.err).toContain('image "app" matches 2 images: ghcr.io/acme/a/app, ghcr.io/acme/b/app; give the full repository');
    const full = await cli(r.dir, 'explain', 'ghcr.io/acme/b/app');
    expect(full.code).toBe(0);
    expect(full.out).toContain('b/values.yaml:2');
    expect(full.out).not.toContain('a/values.yaml');
    const table = (await cli(r.dir, 'stale')).out;
    expect(table).toMatch(/^a\/app\s+unknown/m);
    expect(table).toMatch(/^b\/app\s+unknown/m);
  });

  it('refuses an image that is not pinned, listing the known ones', async () => {
    const { r } = monorepo();
    const { code, err } = await cli(r.dir, 'explain', 'nope');
    expect(code).toBe(2);
    expect(err).toContain('no image "nope" is pinned in this tree');
    expect(err).toContain('osc');
  });

  it('stale refuses an image name that matches nothing instead of an empty success', async () => {
    const { r } = monorepo();
    const bad = await cli(r.dir, 'stale', 'osc', 'nope');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/no image "nope" is pinned in this tree; .*expected one of: .*\bosc\b/);
    const good = await cli(r.dir, 'stale', 'osc', '--format', 'json');
    expect(JSON.parse(good.out).images.map((i: { image: string }) => i.image)).toEqual(['osc']);
  });
});

describe('pinwatch affected (CLI)', () => {
  it('lists images whose inputs changed since the merge base, with reasons', async () => {
    const { r, prep } = monorepo();
    const { code, out, err } = await cli(r.dir, 'affected', '--base', prep, '--unknown', 'exclude');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual([
      { image: 'osc', repository: 'ghcr.io/acme/osc', reasons: [{ path: 'src/osc/main.go', input: 'src/osc/', why: expect.any(String) }] },
    ]);
    expect(err).toContain('orphan');
  });

  it('uses merge-base semantics: changes on the base side do not count', async () => {
    const { r } = monorepo();
    r.git('checkout', '-q', '-b', 'feature');
    r.commit({ 'docs/x.md': 'x\n' }, 'docs: x');
    r.git('checkout', '-q', 'main');
    r.commit({ 'src/osc/main.go': 'package main\n// later on main\n' }, 'fix(osc): later');
    r.git('checkout', '-q', 'feature');
    const { out } = await cli(r.dir, 'affected', '--base', 'main', '--unknown', 'exclude');
    expect(JSON.parse(out)).toEqual([]);
    const safe = JSON.parse((await cli(r.dir, 'affected', '--base', 'main')).out) as { image: string }[];
    expect(safe.map((a) => a.image).sort()).toEqual(['gone', 'orphan']);
  });

  it('refuses on a shallow clone that lacks the base, exit 2, naming fetch-depth', async () => {
    const { r } = monorepo();
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-shallow-'));
    tmp.push(dir);
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${r.dir}`, dir]);
    const base = r.git('rev-list', '--max-parents=0', 'HEAD');
    const { code, err, out } = await cli(dir, 'affected', '--base', base);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/shallow clone.*git fetch --deepen=\d+.*fetch-depth: 0/);
  });

  it('outside a git repository says so, not what git printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-affected-nogit-'));
    tmp.push(dir);
    const { code, err } = await cli(dir, 'affected', '--base', 'HEAD');
    expect(code).toBe(2);
    expect(err).toBe(`pinwatch: [not-a-git-repo] ${dir} is not inside a git repository; this command reads history, so run it in a clone (or pass --repo DIR)\n`);
  });

  it('refuses an unknown base outside a shallow clone', async () => {
    const { r } = monorepo();
    const { code, err } = await cli(r.dir, 'affected', '--base', 'no-such-branch');
    expect(code).toBe(2);
    expect(err).toContain('"no-such-branch" does not name a commit');
  });

  it.each([
    [[], /^error: required option '--base <rev>' not specified\n/], // commander's own usage error, printed by commander
    [['--base', 'HEAD', '--unknown', 'maybe'], /^pinwatch: \[invalid-unknown-mode\] --unknown must be include or exclude, like --unknown exclude; saw "maybe"\n$/],
  ])('affected %j: a flag error, exit 2', async (args, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-affected-flags-'));
    tmp.push(dir);
    const { code, err } = await cli(dir, 'affected', ...args);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });
});
