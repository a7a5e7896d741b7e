/**
 * The demo end to end: `check` on the embedded demo repo finds the seed's
 * situations exactly — the unshipped fix, the retag-free provenance, and each
 * broken invariant at its place — through the CLI, the library and the bin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildDemoRepo, DASHBOARD_BUILD_MESSAGE } from '../../src/demo/index.js';
import { runCli } from '../support/io.js';

let dir: string;
const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();

beforeAll(() => {
  dir = buildDemoRepo();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface JsonFinding { rule: string; file?: string; line?: number; severity: string }
interface JsonImage { image: string; status: string; builtFrom: { commit: string; method: string } | null; unshipped: { subject: string; pr: number | null; type: string | null }[] }

describe('pinwatch check on the demo', () => {
  it('reports billing-controller stale with the unshipped fix, built from the release-prep parent', async () => {
    const r = await runCli(['--repo', dir, 'check', '--format', 'json']);
    expect(r.err).toBe('');
    const out = JSON.parse(r.out) as { findings: JsonFinding[]; stale: { images: JsonImage[] } };
    const byName = new Map(out.stale.images.map((i) => [i.image, i]));
    const billing = byName.get('billing-controller')!;
    expect(billing.status).toBe('stale');
    expect(billing.builtFrom).toMatchObject({ commit: git('rev-parse', 'v1.0.0^1'), method: 'digest-history' });
    expect(billing.unshipped).toEqual([expect.objectContaining({ pr: 42, type: 'fix', subject: expect.stringContaining('requeue BillingClaim') })]);
    expect(byName.get('backup-strategy-controller')!.unshipped.map((u) => u.pr)).toEqual([43]);
    expect(byName.get('gateway')!.status).toBe('current');
    expect(byName.get('migration-controller')!.status).toBe('unknown');
    // the tag-pinned chart: its tag embeds the commit it was built from; the fix after it is unshipped
    const dashboard = byName.get('dashboard')!;
    expect(dashboard).toMatchObject({ status: 'stale', builtFrom: { commit: git('log', '--format=%H', '-F', '--grep', DASHBOARD_BUILD_MESSAGE), method: 'tag-commit' } });
    expect(dashboard.unshipped).toEqual([expect.objectContaining({ pr: 46, type: 'fix', subject: expect.stringContaining('escape claim names') })]);
    // a fix is unshipped: the default policy fails
    expect(r.code).toBe(1);
  });

  it('puts each broken invariant at its place and nowhere else', async () => {
    const r = await runCli(['--repo', dir, 'check', '--format', 'json']);
    const findings = (JSON.parse(r.out) as { findings: JsonFinding[] }).findings;
    const where = (rule: string) => findings.filter((f) => f.rule === rule).map((f) => `${f.file}:${f.line}`).sort();
    expect(where('first-party-missing-digest')).toEqual(['packages/apps/dashboard/values.yaml:6', 'packages/system/backup-strategy/values.yaml:5', 'packages/system/backup-strategy/values.yaml:7']);
    expect(where('floating-tag')).toEqual(['packages/system/backup-strategy/values.yaml:7']);
    expect(where('repository-multiple-digests')).toEqual(['packages/extra/storage/images/objectstorage-sidecar.tag:1', 'packages/extra/storage/values.yaml:3']);
    expect(where('producer-not-built')).toEqual(['packages/extra/storage/Makefile:4']);
    expect(where('no-producer')).toEqual(['packages/system/backup-strategy/values.yaml:5', 'packages/system/backup-strategy/values.yaml:7']);
    expect(where('stale-image')).toEqual(['packages/apps/dashboard/values.yaml:4', 'packages/system/backup-strategy/values.yaml:3', 'packages/system/billing/values.yaml:4']);
    // the Helm-templated manifest is declared: its template value is not a finding, its refs are pins
    expect(where('invalid-ref')).toEqual([]);
    expect(where('unparsed-file')).toEqual([]);
  });

  it('--fail-on never exits 0; the text report names the unshipped fix', async () => {
    expect((await runCli(['--repo', dir, '--fail-on', 'never', 'check'])).code).toBe(0);
    const text = await runCli(['--repo', dir, 'check']);
    expect(text.out).toContain('billing-controller');
    expect(text.out).toMatch(/fix\s+#42\s+fix\(billing-controller\): requeue BillingClaim/);
  });

  it('--format github annotates the lines and writes a job summary that leads with the stale table', async () => {
    const summary = join(dir, '..', `${dir.split('/').pop()}-summary.md`);
    try {
      const r = await runCli(['--repo', dir, 'check', '--format', 'github'], { env: { GITHUB_STEP_SUMMARY: summary } });
      expect(r.out).toMatch(/^::error file=packages\/system\/billing\/values\.yaml,line=4,title=pinwatch stale-image::/m);
      const md = readFileSync(summary, 'utf8');
      expect(md.indexOf('## pinwatch stale')).toBe(0);
      expect(md).toMatch(/\| `billing-controller` \| stale \|/);
      expect(md).toContain('| fix | #42 | fix(billing-controller): requeue BillingClaim until the ledger is ready (#42) |');
      expect(md).toMatch(/^## pinwatch check: \d+ findings/m);
    } finally {
      rmSync(summary, { force: true });
    }
  });

  it('`pinwatch` with no command runs check', async () => {
    const bare = await runCli(['--repo', dir, '--format', 'json']);
    const viaCheck = await runCli(['--repo', dir, 'check', '--format', 'json']);
    const strip = (s: string) => s.replace(/"timings": \{[^}]*\}/g, '');
    expect(strip(bare.out)).toBe(strip(viaCheck.out));
  });

  it('runs as `node bin/pinwatch.js demo` from a built checkout', () => {
    const bin = join(process.cwd(), 'bin', 'pinwatch.js');
    expect(existsSync(join(process.cwd(), 'dist', 'cli', 'main.js')), 'npm test builds dist/ first').toBe(true);
    const target = join(dir, '..', `${dir.split('/').pop()}-bin`);
    const r = spawnSync(process.execPath, [bin, 'demo', '--dir', target], { encoding: 'utf8' });
    rmSync(target, { recursive: true, force: true });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/billing-controller\s+stale/);
    expect(r.stderr).toContain('built a demo platform monorepo');
  });
});
