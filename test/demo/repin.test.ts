/** repin on the demo repo, by the short names stale and explain print. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildDemoRepo, demoDigest } from '../../src/demo/index.js';
import { runCli } from '../support/io.js';

let dir: string;
beforeAll(() => {
  dir = buildDemoRepo();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NEW = demoDigest('objectstorage-sidecar v1.0.1');

describe('pinwatch repin on the demo', () => {
  it('takes the short name, and a dry run changes nothing on disk', async () => {
    const before = readFileSync(join(dir, 'packages/system/billing/values.yaml'), 'utf8');
    const r = await runCli(['--repo', dir, 'repin', 'billing-controller', '--to', `ghcr.io/acme/platform/billing-controller:v1.0.1@${demoDigest('billing v1.0.1')}`, '--dry-run']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('+  image: "ghcr.io/acme/platform/billing-controller:v1.0.1@');
    expect(readFileSync(join(dir, 'packages/system/billing/values.yaml'), 'utf8')).toBe(before);
  });

  it('moves every pin of a repository pinned at two digests, in both files, and nothing else', async () => {
    const r = await runCli(['--repo', dir, 'repin', 'objectstorage-sidecar', '--to', `ghcr.io/acme/platform/objectstorage-sidecar:v1.0.1@${NEW}`]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const diff = execFileSync('git', ['diff', '--numstat'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').sort();
    expect(diff).toEqual(['1\t1\tpackages/extra/storage/images/objectstorage-sidecar.tag', '1\t1\tpackages/extra/storage/values.yaml']);
    expect(readFileSync(join(dir, 'packages/extra/storage/images/objectstorage-sidecar.tag'), 'utf8')).toBe(`ghcr.io/acme/platform/objectstorage-sidecar:v1.0.1@${NEW}\n`);
    const lint = await runCli(['--repo', dir, 'lint', '--format', 'json']);
    const rules = (JSON.parse(lint.out) as { findings: { rule: string }[] }).findings.map((f) => f.rule);
    expect(rules).not.toContain('repository-multiple-digests');
    expect(rules).not.toContain('lockstep-mismatch');
  });

  it('refuses a name that no pin carries, with exit 2', async () => {
    const r = await runCli(['--repo', dir, 'repin', 'no-such-image', '--to', `ghcr.io/acme/platform/no-such-image:v1@${NEW}`, '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^pinwatch: \[image-unknown\] no image "no-such-image" is pinned in this tree/);
  });
});
