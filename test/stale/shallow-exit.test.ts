/**
 * Fail safe on a shallow clone: when the boundary leaves images unjudged, stale
 * and check exit 2 with one line saying why and how to deepen — never a green
 * exit, whatever --fail-on-stale says (only the global --fail-on never silences it).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { DIGEST } from '../support/stale.js';

let origin: TestRepo;
let shallow: string;
let full: string;
const tmp: string[] = [];

beforeAll(() => {
  origin = makeRepo('pinwatch-shallow-exit-');
  const values = (d: string) => `image: ghcr.io/acme/app:v1@${DIGEST(d)}\n`;
  origin.commit({ 'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\nimages:\n  app:\n    inputs: [src/app/]\n', 'src/app/main.go': 'package main\n', 'charts/app/values.yaml': values('a') }, 'initial');
  origin.commit({ 'charts/app/values.yaml': values('b') }, 'Prepare release v1.0.0');
  for (let i = 0; i < 4; i++) origin.commit({ 'src/app/main.go': `package main\n// ${i}\n` }, `fix(app): change ${i}`);
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-shallow-exit-clones-'));
  tmp.push(dir);
  shallow = join(dir, 'shallow');
  full = join(dir, 'full');
  execFileSync('git', ['clone', '-q', '--depth', '2', `file://${origin.dir}`, shallow]);
  execFileSync('git', ['clone', '-q', `file://${origin.dir}`, full]);
});
afterAll(() => {
  origin.cleanup();
  tmp.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('a shallow clone that cannot answer', () => {
  it.each([[['stale', '--fail-on-stale', 'any']], [['stale', '--fail-on-stale', 'never']], [['check']], [['check', '--format', 'json']]])('pinwatch %j exits 2 and says why', async (args) => {
    const r = await runCli(['--repo', shallow, ...args]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\[shallow-clone\] 1 of 1 image\(s\) could not be judged in this shallow clone.*fetch-depth: 0/);
  });
  it('the global --fail-on never still silences it (an explicit opt-out)', async () => {
    expect((await runCli(['--repo', shallow, '--fail-on', 'never', 'stale'])).code).toBe(0);
  });
  it('--allow-shallow: no refusal, exit per policy; unknown images fail only under --fail-on-stale unknown', async () => {
    for (const cmd of ['stale', 'check']) {
      const allowed = await runCli(['--repo', shallow, cmd, '--allow-shallow']);
      // check may still fail on lint findings of this small tree; never the refusal's 2
      expect(allowed.code, cmd).toBe(cmd === 'stale' ? 0 : allowed.code === 2 ? -1 : allowed.code);
      expect(allowed.err).not.toMatch(/shallow-clone\]/);
      const strict = await runCli(['--repo', shallow, cmd, '--allow-shallow', '--fail-on-stale', 'unknown']);
      expect(strict.code, cmd).toBe(1);
    }
  });
  it('--fail-on-stale unknown: the unknown image is an error finding in check', async () => {
    const r = await runCli(['--repo', shallow, 'check', '--allow-shallow', '--fail-on-stale', 'unknown', '--format', 'json']);
    const unknown = (JSON.parse(r.out).findings as { rule: string; severity: string }[]).filter((f) => f.rule === 'stale-unknown');
    expect(unknown.map((f) => f.severity)).toEqual(['error']);
  });
  it('text: the shallow warning comes once, first, and no image reason repeats its fix', async () => {
    const r = await runCli(['--repo', shallow, '--fail-on', 'never', 'stale']);
    // the summary, then the shallow warning at once
    expect(r.out.split('\n')[0]).toBe('1 image(s): 0 stale, 0 current, 1 unknown');
    expect(r.out.split('\n')[1]).toMatch(/^warning: the clone is shallow/);
    expect(r.out.match(/fetch-depth: 0/g)).toHaveLength(1);
    expect(r.out).toMatch(/reason: .*shallow clone.*\(see the shallow-clone warning at the top\)/);
  });
  it('the full clone answers: the image is stale, exit 1, no refusal', async () => {
    const r = await runCli(['--repo', full, 'stale', '--fail-on-stale', 'any']);
    expect(r.code).toBe(1);
    expect(r.err).not.toMatch(/shallow-clone/);
  });
});
