import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildDemoRepo, DASHBOARD_BUILD_MESSAGE, DEMO_IMAGES } from '../../src/demo/index.js';
import { fillCommitRefs } from '../../src/demo/build.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();

describe('demo repository', () => {
  it('is reproducible: two builds give the same commit ids', () => {
    const a = buildDemoRepo();
    const b = buildDemoRepo();
    dirs.push(a, b);
    expect(git(a, 'rev-parse', 'HEAD')).toBe(git(b, 'rev-parse', 'HEAD'));
    expect(git(a, 'rev-parse', 'v1.0.0')).toBe(git(b, 'rev-parse', 'v1.0.0'));
  });

  it('reproduces the seed: the fix lands three days after the release pin', () => {
    const dir = buildDemoRepo();
    dirs.push(dir);
    const log = git(dir, 'log', '--format=%ad %s', '--date=short').split('\n');
    expect(log).toContain('2026-06-22 Prepare release v1.0.0');
    expect(log).toContain('2026-06-25 fix(billing-controller): requeue BillingClaim until the ledger is ready (#42)');
    const values = readFileSync(join(dir, 'packages/system/billing/values.yaml'), 'utf8');
    expect(values).toContain(DEMO_IMAGES.billingV10);
    // the fix is not an ancestor of the release tag
    const fix = git(dir, 'log', '--format=%H', '--grep', '#42');
    expect(() => git(dir, 'merge-base', '--is-ancestor', fix, 'v1.0.0')).toThrow();
  });

  it('refuses a folder that already has files', () => {
    const dir = buildDemoRepo();
    dirs.push(dir);
    expect(() => buildDemoRepo(dir)).toThrow(/empty folder/);
  });
});

describe('demo story commit references', () => {
  it('fills {{commit8:<message>}} with the earlier commit\'s short sha, and refuses a commit that does not exist yet', () => {
    const shas = new Map([['feat: a', '0123456789abcdef0123456789abcdef01234567']]);
    expect(fillCommitRefs('tag: v20260702-{{commit8:feat: a}}\n', shas)).toBe('tag: v20260702-01234567\n');
    expect(() => fillCommitRefs('{{commit8:feat: later}}', shas)).toThrow(/names a commit "feat: later" before it exists/);
  });

  it('stamps the dashboard tag with the commit the dashboard is built from', () => {
    const dir = buildDemoRepo();
    dirs.push(dir);
    const built = git(dir, 'log', '--format=%H', '-F', '--grep', DASHBOARD_BUILD_MESSAGE);
    expect(readFileSync(join(dir, 'packages/apps/dashboard/values.yaml'), 'utf8')).toContain(`tag: v20260702-${built.slice(0, 8)}\n`);
  });
});
