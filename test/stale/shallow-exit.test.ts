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
  it('the full clone answers: the image is stale, exit 1, no refusal', async () => {
    const r = await runCli(['--repo', full, 'stale', '--fail-on-stale', 'any']);
    expect(r.code).toBe(1);
    expect(r.err).not.toMatch(/shallow-clone/);
  });
});
