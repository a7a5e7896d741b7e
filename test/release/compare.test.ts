/**
 * `pinwatch compare --from DIR`, the promotion verifier, on real trees: a correct
 * promotion (tag strings only) passes; a rebuilt image (a digest differs) and a
 * config drift (a non-ref line differs) fail, each named per file, in every format.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from '../support/io.js';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;
const R = 'ghcr.io/acme';
const dirs: string[] = [];

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-compare-'));
  dirs.push(dir);
  const all: Record<string, string> = { 'pinwatch.yaml': `firstParty:\n  - ${R}\n`, ...files };
  for (const [f, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const values = (tag: string, digest: string, replicas = 2) => `app:\n  replicas: ${replicas}\n  image:\n    repository: ${R}/app\n    tag: ${tag}\n    digest: ${digest}\n`;
const tagFile = (tag: string, digest: string) => `${R}/api:${tag}@${digest}\n`;
const rc = () => tree({ 'deploy/values.yaml': values('v1.0.0-rc.1', D1), 'images/api.tag': tagFile('v1.0.0-rc.1', D1), 'docs/values.yaml': 'x: 1\n' });

async function compareWith(from: string, mine: string, format = 'json') {
  return runCli(['compare', '--from', from, '--format', format], { cwd: mine });
}

describe('compare', () => {
  it('a promotion that changed only tag strings is tags-only, exit 0', async () => {
    const before = rc();
    const after = tree({ 'deploy/values.yaml': values('v1.0.0', D1), 'images/api.tag': tagFile('v1.0.0', D1), 'docs/values.yaml': 'x: 1\n' });
    const r = await compareWith(before, after);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.version).toBe(1);
    const byFile = Object.fromEntries(doc.files.map((f: { file: string; status: string }) => [f.file, f.status]));
    expect(byFile).toEqual({ 'deploy/values.yaml': 'tags-only', 'images/api.tag': 'tags-only', 'docs/values.yaml': 'same' });
    expect(doc.files.find((f: { file: string }) => f.file === 'deploy/values.yaml').refs).toEqual([
      { keyPath: 'app.image', from: `${R}/app:v1.0.0-rc.1@${D1}`, to: `${R}/app:v1.0.0@${D1}` },
    ]);
  });

  it('a rebuilt image (another digest) is digests, exit 1 unless --allow-digests', async () => {
    const before = rc();
    const after = tree({ 'deploy/values.yaml': values('v1.0.0', D2), 'images/api.tag': tagFile('v1.0.0', D1), 'docs/values.yaml': 'x: 1\n' });
    const r = await compareWith(before, after);
    expect(r.code).toBe(1);
    const f = JSON.parse(r.out).files.find((x: { file: string }) => x.file === 'deploy/values.yaml');
    expect(f.status).toBe('digests');
    expect(f.reason).toContain(`digest ${D1} → ${D2}`);
    const text = await compareWith(before, after, 'text');
    expect(text.out).toMatch(/^digests +deploy\/values\.yaml/m);
    const allowed = await runCli(['compare', '--from', before, '--allow-digests'], { cwd: after });
    expect(allowed.code).toBe(0);
  });

  it('a config drift names the line, exit 1 unless --allow-drift; github annotates it', async () => {
    const before = rc();
    const after = tree({ 'deploy/values.yaml': values('v1.0.0', D1, 3), 'images/api.tag': tagFile('v1.0.0', D1), 'docs/values.yaml': 'x: 1\n' });
    const r = await compareWith(before, after);
    expect(r.code).toBe(1);
    const f = JSON.parse(r.out).files.find((x: { file: string }) => x.file === 'deploy/values.yaml');
    expect(f.status).toBe('drift');
    expect(f.drift.join('\n')).toContain('replicas: 3');
    const gh = await compareWith(before, after, 'github');
    expect(gh.out).toMatch(/^::error file=deploy\/values\.yaml::drift: /m);
    const md = await compareWith(before, after, 'markdown');
    expect(md.out).toContain('| `deploy/values.yaml` | drift |');
    expect((await runCli(['compare', '--from', before, '--allow-drift'], { cwd: after })).code).toBe(0);
  });

  it('a missing --from tree is exit 2 with the reason', async () => {
    const after = rc();
    const r = await runCli(['compare', '--from', join(after, 'nope')], { cwd: after });
    expect(r.code).toBe(2);
    expect(r.out).toContain('nothing to compare');
  });
});
