/**
 * repin and inspect against a real registry: --to-tag resolves the digest,
 * --only-forward compares build commits from image labels with git ancestry,
 * and `pinwatch inspect` prints digest, platforms, labels and the commit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/io.js';
import type { TestRegistry } from '../support/registry.js';
import { pushImage, startRegistry } from '../support/registry.js';
import type { TestRepo } from '../support/repo.js';
import { makeRepo } from '../support/repo.js';

let reg: TestRegistry;
let repo: TestRepo;
const commits: Record<string, string> = {};
const digests: Record<string, string> = {};
let APP = '';

beforeAll(async () => {
  reg = await startRegistry();
  APP = `${reg.host}/acme/app`;
  repo = makeRepo('pinwatch-repin-reg-');
  commits.c0 = repo.commit({ 'src/main.go': 'package main // 0\n' }, 'c0');
  commits.c1 = repo.commit({ 'src/main.go': 'package main // 1\n' }, 'c1');
  commits.c2 = repo.commit({ 'src/main.go': 'package main // 2\n' }, 'c2');
  for (const [tag, commit] of [['v0', commits.c0], ['v1', commits.c1], ['v2', commits.c2]] as const) {
    digests[tag] = (await pushImage(reg, 'acme/app', tag, { labels: { 'org.opencontainers.image.revision': commit! }, content: tag })).digest;
  }
  digests.nolabel = (await pushImage(reg, 'acme/app', 'nolabel', { content: 'nolabel' })).digest;
  digests.elsewhere = (await pushImage(reg, 'acme/app', 'elsewhere', { labels: { 'org.opencontainers.image.revision': 'e'.repeat(40) }, content: 'e' })).digest;
});

afterAll(async () => {
  await reg?.stop();
  repo?.cleanup();
});

function pinTree(): void {
  repo.write({ 'deploy/values.yaml': `app:\n  image: ${APP}:v1@${digests.v1}  # current\n`, 'images/app.tag': `${APP}:v1@${digests.v1}\n` });
}

function run(args: string[], env: Record<string, string> = {}) {
  return runCli(args, { env, cwd: repo.dir });
}

describe('repin with a registry', () => {
  it('--to-tag resolves the digest through the registry', async () => {
    pinTree();
    const r = await run(['repin', APP, '--to-tag', 'v2', '--no-cache']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('digest resolved through the registry');
    expect(readFileSync(join(repo.dir, 'deploy/values.yaml'), 'utf8')).toBe(`app:\n  image: ${APP}:v2@${digests.v2}  # current\n`);
    expect(readFileSync(join(repo.dir, 'images/app.tag'), 'utf8')).toBe(`${APP}:v2@${digests.v2}\n`);
  });

  it('--only-forward accepts a descendant build commit', async () => {
    pinTree();
    const r = await run(['repin', APP, '--to-tag', 'v2', '--only-forward', '--no-cache']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/--only-forward: ok/);
  });

  it('--only-forward refuses an image built from an older commit and writes nothing', async () => {
    pinTree();
    const r = await run(['repin', APP, '--to-tag', 'v0', '--only-forward', '--no-cache']);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`does not contain ${commits.c1}`);
    expect(readFileSync(join(repo.dir, 'images/app.tag'), 'utf8')).toBe(`${APP}:v1@${digests.v1}\n`);
  });

  it('--only-forward says clearly when it cannot decide', async () => {
    pinTree();
    const noLabel = await run(['repin', APP, '--to-tag', 'nolabel', '--only-forward', '--no-cache']);
    expect(noLabel.code).toBe(1);
    expect(noLabel.out).toMatch(/refused \(cannot decide\): cannot decide: .*has no org\.opencontainers\.image\.revision label/);
    const foreign = await run(['repin', APP, '--to-tag', 'elsewhere', '--only-forward', '--no-cache']);
    expect(foreign.code).toBe(1);
    expect(foreign.out).toMatch(/refused \(cannot decide\): cannot decide: the build commit of .* is unknown: registry: .* names eeeeeeeeee, but commit eeeeeeeeee is not in this clone/);
    expect(readFileSync(join(repo.dir, 'images/app.tag'), 'utf8')).toBe(`${APP}:v1@${digests.v1}\n`);
  });
});

describe('--only-forward falls back to digest history for an unlabelled current image', () => {
  it('takes the parent of the commit that introduced the digest as its build commit', async () => {
    repo.commit({ 'deploy/values.yaml': `app:\n  image: ${APP}:nolabel@${digests.nolabel}\n`, 'images/app.tag': null }, 'Prepare release: pin nolabel');
    // Built from c2 (the parent of the pinning commit): v2 (c2) is forward, v0 (c0) is not.
    const back = await run(['repin', APP, '--to-tag', 'v0', '--only-forward', '--no-cache']);
    expect(back.code).toBe(1);
    expect(back.out).toContain(`does not contain ${commits.c2}`);
    const fwd = await run(['repin', APP, '--to-tag', 'v2', '--only-forward', '--no-cache']);
    expect(fwd.code).toBe(0);
    expect(fwd.out).toMatch(/--only-forward: ok: .*sha256:[0-9a-f]{12}… digest-history: introduced by [0-9a-f]{10} "Prepare release: pin nolabel"/);
  });
});

describe('pinwatch inspect', () => {
  it('prints digest, platform, labels and the commit, as text and json', async () => {
    const text = await run(['inspect', `${APP}:v1`, '--no-cache']);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`Digest:     ${digests.v1}`);
    expect(text.out).toContain('Platforms:  linux/amd64');
    expect(text.out).toContain(`Commit:     ${commits.c1} (from the label)`);
    expect(text.out).toContain(`org.opencontainers.image.revision=${commits.c1}`);
    const json = await run(['--format', 'json', 'inspect', `${APP}@${digests.v1}`, '--no-cache']);
    expect(JSON.parse(json.out)).toMatchObject({ digest: digests.v1, commit: commits.c1, commitFrom: 'label', platforms: ['linux/amd64'] });
  });

  it('an unknown tag is a clear one-line error, exit 2', async () => {
    const r = await run(['inspect', `${APP}:missing`, '--no-cache']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^pinwatch: \[manifest-unknown\] GET http:\/\/127\.0\.0\.1:\d+\/v2\/acme\/app\/manifests\/missing answered HTTP 404 \(MANIFEST_UNKNOWN/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });
});
