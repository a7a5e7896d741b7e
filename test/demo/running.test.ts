/** The demo's running cluster: billing-controller still runs v0.9.0, older than its v1.0.0 pin; `demo` shows it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { buildDemoRepo, writeDemoPods } from '../../src/demo/index.js';
import { runCli } from '../support/io.js';

let dir: string;
beforeAll(() => {
  dir = buildDemoRepo();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('demo running', () => {
  it('billing-controller runs an older build than its pin: it lacks #37 (in the pin) and #42 (merged since)', async () => {
    const pods = writeDemoPods(dir);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })).toBe('');
    const run = await runCli(['--repo', dir, '--format', 'json', 'running', '--pods', pods]);
    expect(run.code).toBe(1);
    const doc = JSON.parse(run.out) as { containers: { container: string; status: string; firstParty: boolean; lacks: { pr: number }[]; lacksVsPin: { pr: number }[] }[] };
    const billing = doc.containers.find((c) => c.container === 'manager')!;
    expect(billing.status).toBe('older');
    expect(billing.lacksVsPin.map((l) => l.pr)).toEqual([37]);
    expect(billing.lacks.map((l) => l.pr).sort()).toEqual([37, 42]);
    expect(doc.containers.find((c) => c.container === 'gateway')!.status).toBe('as-pinned');
    expect(doc.containers.find((c) => c.container === 'cache')!.firstParty).toBe(false);
  });

  it('pinwatch demo shows the running view after check', async () => {
    const target = join(mkdtempSync(join(tmpdir(), 'pinwatch-demo-run-')), 'demo');
    try {
      const run = await runCli(['demo', '--dir', target]);
      expect(run.code).toBe(0);
      expect(run.out).toMatch(/billing-controller runs a build older than the pin's build [0-9a-f]{10}: it lacks 1 commit\(s\) the pinned build has, 2 that HEAD has/);
      expect(run.err).toContain('what the demo cluster runs');
    } finally {
      rmSync(join(target, '..'), { recursive: true, force: true });
    }
  });
});

describe('report --html --pods', () => {
  it('adds the running view: billing-controller older, with the commit the pin has', async () => {
    const { readFileSync } = await import('node:fs');
    const pods = writeDemoPods(dir);
    const html = join(dir, '..', `${dir.split('/').pop()}-report.html`);
    try {
      const run = await runCli(['--repo', dir, 'report', '--html', html, '--pods', pods]);
      expect(run.code).toBe(1);
      const page = readFileSync(html, 'utf8');
      expect(page).toContain('<h2 id="running-h">What the cluster runs</h2>');
      expect(page).toMatch(/billing-controller-6b7f9c5d4-q2x7z\/manager<\/code><\/th><td><code>billing-controller<\/code><\/td><td><span class="badge status-stale">older<\/span>/);
      expect(page).toContain('feat(billing-controller): report ledger lag as a metric (#37)');
      const without = await runCli(['--repo', dir, 'report', '--html', html]);
      expect(without.code).toBe(1);
      expect(readFileSync(html, 'utf8')).not.toContain('What the cluster runs');
    } finally {
      rmSync(html, { force: true });
    }
  });
});
