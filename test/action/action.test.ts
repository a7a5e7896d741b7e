/**
 * The GitHub Action's entry (src/action/main.ts, run by bin/pinwatch-action.js)
 * with the environment a runner provides — GITHUB_WORKSPACE, GITHUB_EVENT_NAME,
 * GITHUB_EVENT_PATH (push and pull_request payloads), GITHUB_OUTPUT,
 * GITHUB_STEP_SUMMARY, INPUT_* — on real git repositories: PR mode, the affected
 * matrix, the annotation cap, the outputs, and the shallow refusal. action.yml's
 * shape is checked against what the entry reads.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runAction, splitArgs, type Env } from '../../src/action/main.js';
import { main } from '../../src/cli/main.js';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { DIGEST } from '../support/stale.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'pinwatch-action-'));
  dirs.push(d);
  return d;
};

let repo: TestRepo;
let baseSha: string;
let prHead: string;
const CONFIG = 'firstParty: [ghcr.io/acme/]\nimages:\n  app:\n    inputs: [src/app/]\n  api:\n    inputs: [src/api/]\n';
const values = (app: string, api: string) => `app:\n  image: ghcr.io/acme/app:v1@${DIGEST(app)}\napi:\n  image: ghcr.io/acme/api:v1@${DIGEST(api)}\n`;

beforeAll(() => {
  repo = makeRepo('pinwatch-action-repo-');
  repo.commit({ 'pinwatch.yaml': CONFIG, 'src/app/main.go': 'package main\n', 'src/api/main.go': 'package main\n', 'charts/values.yaml': values('a', 'b') }, 'initial');
  repo.commit({ 'charts/values.yaml': values('c', 'd') }, 'Prepare release v1.0.0');
  baseSha = repo.commit({ 'src/api/main.go': 'package main\n// fixed\n' }, 'fix(api): close the leak (#11)');
  repo.git('checkout', '-q', '-b', 'pr');
  prHead = repo.commit({ 'src/app/main.go': 'package main\n// feature\n' }, 'feat(app): a new endpoint');
  repo.git('checkout', '-q', 'main');
  repo.git('-c', 'user.name=GitHub', '-c', 'user.email=noreply@github.com', 'merge', '-q', '--no-ff', '-m', 'Merge pr into main', 'pr');
});
afterAll(() => {
  repo.cleanup();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

interface Run {
  code: number;
  out: string;
  outputs: Record<string, string>;
  summary: string;
}

/** The runner's environment for one step: files for outputs and summary, the event payload on disk. */
async function step(workspace: string, eventName: string, payload: object, inputs: Record<string, string>): Promise<Run> {
  const dir = temp();
  const env: Env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
    GITHUB_OUTPUT: join(dir, 'output'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase().replace(/-/g, '_')}`, v])),
  };
  writeFileSync(env.GITHUB_EVENT_PATH!, JSON.stringify(payload));
  writeFileSync(env.GITHUB_OUTPUT!, '');
  writeFileSync(env.GITHUB_STEP_SUMMARY!, '');
  let out = '';
  const code = await runAction(env, { out: (t) => void (out += t), err: (t) => void (out += t), env, cwd: dir }, main);
  return { code, out, outputs: parseOutputs(readFileSync(env.GITHUB_OUTPUT!, 'utf8')), summary: readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8') };
}

/** GITHUB_OUTPUT as the runner reads it: `name<<DELIM` … `DELIM` blocks (the last value wins). */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([\w-]+)<<(\S+)$/.exec(lines[i]!);
    if (!m) continue;
    const end = lines.indexOf(m[2]!, i + 1);
    out[m[1]!] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return out;
}

const pullRequest = () => ({ action: 'synchronize', number: 7, pull_request: { number: 7, base: { ref: 'main', sha: baseSha }, head: { ref: 'pr', sha: prHead } } });

describe('pull_request: check in PR mode', () => {
  it('compares with the base sha: the PR rebuilds app (a notice), api is stale (an error); outputs, summary, SARIF and HTML from one run', async () => {
    const r = await step(repo.dir, 'pull_request', pullRequest(), { command: 'check', sarif: 'pinwatch.sarif', html: 'pinwatch.html', 'fail-on': 'error' });
    expect(r.code).toBe(1);
    expect(r.out).toContain(`running pinwatch check --fail-on error --base ${baseSha} --format github --sarif pinwatch.sarif --html pinwatch.html`);
    expect(r.out).toMatch(/^::notice file=charts\/values\.yaml,line=2,title=pinwatch rebuild-needed::this PR changes the inputs of app: its build must rebuild and repin app/m);
    expect(r.out).toMatch(/^::error file=charts\/values\.yaml,line=4,title=pinwatch stale-image::ghcr\.io\/acme\/api is built from/m);
    expect(r.out).not.toMatch(/stale-image::ghcr\.io\/acme\/app/);
    expect(r.outputs).toMatchObject({ 'stale-count': '1', 'error-count': '1' });
    expect(r.summary).toMatch(/^\| `api` \| stale \|/m);
    const sarif = JSON.parse(readFileSync(join(repo.dir, 'pinwatch.sarif'), 'utf8')) as { version: string; runs: { results: { ruleId: string }[] }[] };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0]!.results.map((x) => x.ruleId)).toEqual(expect.arrayContaining(['stale-image', 'rebuild-needed']));
    expect(readFileSync(join(repo.dir, 'pinwatch.html'), 'utf8')).toMatch(/^<!doctype html>/i);
    rmSync(join(repo.dir, 'pinwatch.sarif'));
    rmSync(join(repo.dir, 'pinwatch.html'));
  });

  it('an input that does not fit the command: an error annotation, exit 2, nothing run', async () => {
    const r = await step(repo.dir, 'pull_request', pullRequest(), { command: 'lint', sarif: 'x.sarif' });
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/^::error title=pinwatch%3A action input::the sarif input works with command: check \(this step runs lint\)$/m);
    expect(r.out).not.toMatch(/running pinwatch/);
  });
});

describe('push: affected builds the matrix', () => {
  it('compares with event.before; affected-matrix is {"include": [...]} for fromJSON', async () => {
    const r = await step(repo.dir, 'push', { ref: 'refs/heads/main', before: baseSha, after: repo.git('rev-parse', 'HEAD'), repository: { default_branch: 'main' } }, { command: 'affected' });
    expect(r.code).toBe(0);
    expect(r.out).toContain(`push: comparing with the previous tip ${baseSha.slice(0, 10)}`);
    expect(JSON.parse(r.outputs['affected-matrix']!)).toEqual({ include: [{ image: 'app', repository: 'ghcr.io/acme/app' }] });
    expect(r.outputs['affected-count']).toBe('1');
  });
  it('a new branch (before is all zeros): compares with origin/<default branch>, said in the log', async () => {
    const r = await step(repo.dir, 'push', { ref: 'refs/heads/x', before: '0'.repeat(40), repository: { default_branch: 'main' } }, { command: 'affected' });
    expect(r.out).toContain('push of a new branch (no previous tip): comparing with origin/main');
    expect(r.code).toBe(2); // this clone has no origin/main: the CLI says so
    expect(r.out).toMatch(/unknown-revision/);
  });
  it('check on push judges the whole branch (no PR mode): app lacks the merged feature', async () => {
    const r = await step(repo.dir, 'push', { ref: 'refs/heads/main', before: baseSha }, { command: 'check', args: '--fail-on-stale any' });
    expect(r.code).toBe(1);
    expect(r.out).not.toMatch(/--base/);
    expect(r.outputs['stale-count']).toBe('2');
  });
});

describe('annotations within GitHub\u2019s limits', () => {
  it('15 errors: 9 annotated, most important first, the tenth says 6 more are in the summary; the summary has all 15', async () => {
    const many = makeRepo('pinwatch-action-many-');
    try {
      const files: Record<string, string> = { 'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\n' };
      for (let i = 0; i < 15; i++) files[`charts/c${String(i).padStart(2, '0')}/values.yaml`] = `image: ghcr.io/acme/c${i}:latest\n`;
      many.commit(files, 'initial');
      const r = await step(many.dir, 'push', { before: '0'.repeat(40) }, { command: 'lint' });
      const errors = r.out.split('\n').filter((l) => l.startsWith('::error '));
      expect(errors).toHaveLength(10);
      expect(errors.slice(0, 9).every((l) => /title=pinwatch [a-z-]+::/.test(l))).toBe(true);
      const firstRules = errors.slice(0, 9).map((l) => /title=pinwatch ([a-z-]+)::/.exec(l)![1]);
      expect(firstRules).toEqual([...firstRules].sort());
      const active = Number(r.outputs['error-count']);
      expect(active).toBeGreaterThanOrEqual(15);
      expect(errors[9]).toBe(`::error title=pinwatch%3A more in the summary::${active - 9} more errors not annotated here (GitHub shows 10 per step): the job summary and the report list them all`);
      for (const kind of ['warning', 'notice']) expect(r.out.split('\n').filter((l) => l.startsWith(`::${kind} `)).length).toBeLessThanOrEqual(10);
      expect((r.summary.match(/ghcr\.io\/acme\/c\d+:latest/g) ?? []).length).toBeGreaterThanOrEqual(15);
    } finally {
      many.cleanup();
    }
  });
});

describe('a shallow checkout', () => {
  let shallow: string;
  beforeAll(() => {
    shallow = join(temp(), 'shallow');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, shallow]);
  });
  it.each([['check'], ['stale'], ['affected']])('%s: refused with the fetch-depth: 0 fix, exit 2, nothing run', async (command) => {
    const r = await step(shallow, 'pull_request', pullRequest(), { command });
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/^::error title=pinwatch%3A shallow checkout::the checkout is shallow.*fetch-depth: 0/m);
    expect(r.out).not.toMatch(/running pinwatch/);
  });
  it('lint reads no history: it runs on a shallow checkout', async () => {
    const r = await step(shallow, 'pull_request', pullRequest(), { command: 'lint' });
    expect(r.out).toMatch(/running pinwatch lint --format github/);
    expect(r.code).not.toBe(2);
  });
});

describe('bin/pinwatch-action.js, the file action.yml runs', () => {
  it('runs the entry with the process environment', () => {
    const dir = temp();
    writeFileSync(join(dir, 'event.json'), JSON.stringify({ before: baseSha }));
    writeFileSync(join(dir, 'out'), '');
    const env = { ...process.env, GITHUB_WORKSPACE: repo.dir, GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: join(dir, 'event.json'), GITHUB_OUTPUT: join(dir, 'out'), INPUT_COMMAND: 'affected' };
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/pinwatch-action.js')], { env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(parseOutputs(readFileSync(join(dir, 'out'), 'utf8'))['affected-matrix']).toBe('{"include":[{"image":"app","repository":"ghcr.io/acme/app"}]}');
  });
});

describe('action.yml', () => {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Record<string, any>;
  it('declares the inputs and outputs of the brief, composite, running the entry with every input passed', () => {
    expect(Object.keys(action.inputs)).toEqual(['command', 'args', 'config', 'fail-on', 'sarif', 'html', 'version']);
    expect(action.inputs.command.default).toBe('check');
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(['stale-count', 'error-count', 'affected-matrix']));
    for (const [name, o] of Object.entries(action.outputs as Record<string, { value: string }>)) expect(o.value).toBe(`\${{ steps.pinwatch.outputs.${name} }}`);
    expect(action.runs.using).toBe('composite');
    const run = (action.runs.steps as { id?: string; env?: Record<string, string>; run?: string }[]).find((s) => s.id === 'pinwatch')!;
    for (const name of Object.keys(action.inputs).filter((n) => n !== 'version')) {
      expect(run.env![`INPUT_${name.toUpperCase().replace(/-/g, '_')}`]).toBe(`\${{ inputs.${name} }}`);
    }
    expect(run.run).toBe('node "$PINWATCH_ACTION_ENTRY"');
    const install = (action.runs.steps as { run?: string }[]).map((s) => s.run ?? '').join('\n');
    expect(install).toContain('PINWATCH_ACTION_ENTRY=$GITHUB_ACTION_PATH/bin/pinwatch-action.js');
    expect(existsSync(join(ROOT, 'bin/pinwatch-action.js'))).toBe(true);
  });
});

describe('splitArgs', () => {
  it.each([
    ['', []],
    ['--fail-on-stale any  --max-age 7', ['--fail-on-stale', 'any', '--max-age', '7']],
    [`--config "my dir/pinwatch.yaml" --base 'origin/main'`, ['--config', 'my dir/pinwatch.yaml', '--base', 'origin/main']],
    ['"a \\"b\\""', ['a "b"']],
    ['$HOME `x`', ['$HOME', '`x`']],
  ])('%j', (text, want) => {
    expect(splitArgs(text)).toEqual(want);
  });
});
