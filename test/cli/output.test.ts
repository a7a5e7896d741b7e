/**
 * Where the CLI's reports go (src/cli/output.ts): `--output -` is stdout, the job
 * summary has one policy for every command (an unwritable GITHUB_STEP_SUMMARY
 * fails the run, as test/lint/lint-cli.test.ts checks for lint), and the version comes from package.json.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { runCli } from '../support/io.js';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;
const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-output-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/** A repo with one floating first-party pin: lint has a finding to report. */
function lintRepo(): string {
  return tree({ 'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\n', 'deploy/values.yaml': 'image: ghcr.io/acme/app:latest\n' });
}

describe('--output', () => {
  it('- writes the report to stdout, the same bytes as without --output, and creates no file named "-"', async () => {
    const repo = lintRepo();
    const plain = await runCli(['--repo', repo, '--format', 'json', 'scan'], { cwd: repo });
    const dash = await runCli(['--repo', repo, '--format', 'json', '--output', '-', 'scan'], { cwd: repo });
    expect(dash.code).toBe(0);
    expect(dash.out).toBe(plain.out);
    expect(JSON.parse(dash.out).pins).toHaveLength(1);
    expect(existsSync(join(repo, '-'))).toBe(false);
  });

  it('FILE writes the report there and nothing to stdout', async () => {
    const repo = lintRepo();
    const r = await runCli(['--repo', repo, '--format', 'json', '--output', 'scan.json', 'scan'], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    expect(JSON.parse(readFileSync(join(repo, 'scan.json'), 'utf8')).pins).toHaveLength(1);
  });
});

describe('GITHUB_STEP_SUMMARY: one policy for every command', () => {
  const unwritable = (dir: string) => join(dir, 'no', 'such', 'dir', 'summary.md');

  it('overlay: an unwritable job summary fails the run (exit 2) instead of a warning', async () => {
    const root = tree({ 'packages/a/values.yaml': `image: ghcr.io/acme/app:v1@${D1}\n` });
    const from = tree({ 'packages/a/values.yaml': `image: iad.ocir.io/ci/app:main@${D2}\n` });
    const r = await runCli(['--repo', root, '--format', 'github', 'overlay', '--from', from, '--dry-run'], { env: { GITHUB_STEP_SUMMARY: unwritable(root) }, cwd: root });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^pinwatch: \[step-summary-unwritable\] cannot append to GITHUB_STEP_SUMMARY ".*summary\.md": /);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('overlay: a relative GITHUB_STEP_SUMMARY is taken from the working directory, as for lint and check', async () => {
    const root = tree({ 'packages/a/values.yaml': `image: ghcr.io/acme/app:v1@${D1}\n` });
    const from = tree({ 'packages/a/values.yaml': `image: iad.ocir.io/ci/app:main@${D2}\n` });
    const cwd = tree({});
    const r = await runCli(['--repo', root, '--format', 'github', 'overlay', '--from', from, '--dry-run'], { env: { GITHUB_STEP_SUMMARY: 'summary.md' }, cwd });
    expect(r.code).toBe(0);
    expect(readFileSync(join(cwd, 'summary.md'), 'utf8')).toContain('## pinwatch overlay');
  });
});

describe('the version', () => {
  it('--version prints the version in package.json', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${PACKAGE_VERSION}\n`);
  });

  it('SARIF names pinwatch at the package.json version', async () => {
    const repo = lintRepo();
    const r = await runCli(['--repo', repo, '--format', 'sarif', '--fail-on', 'never', 'lint'], { cwd: repo });
    expect(r.code).toBe(0);
    const driver = JSON.parse(r.out).runs[0].tool.driver;
    expect(driver.name).toBe('pinwatch');
    expect(driver.version).toBe(PACKAGE_VERSION);
  });
});

describe('a mistyped flag or command', () => {
  it('gets three lines (the error, the suggestion, where help is), not the whole help', async () => {
    for (const argv of [['lint', '--fial-on', 'error'], ['lnt']]) {
      const r = await runCli(argv);
      expect(r.code).toBe(2);
      const lines = r.err.trim().split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[1]).toMatch(/Did you mean (--fail-on|lint)\?/);
      expect(lines[2]).toMatch(/pinwatch <command> --help/);
    }
  });
});

describe('the default command', () => {
  it("takes check's own flags with no command named (pinwatch --fail-on-stale any was 'unknown option')", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-default-'));
    execFileSync('git', ['init', '-q', dir]);
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '-q', '--allow-empty', '-m', 'initial'], { cwd: dir });
    const r = await runCli(['--fail-on-stale', 'never', '--format', 'json', '--no-baseline'], { cwd: dir });
    expect(r.err).not.toMatch(/unknown option/);
    expect(JSON.parse(r.out).title).toBe('pinwatch check');
  });
});
