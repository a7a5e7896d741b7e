import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildDemoRepo, DEMO_IMAGES } from '../../src/demo/index.js';

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
