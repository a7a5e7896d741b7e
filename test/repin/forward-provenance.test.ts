/**
 * `repin --only-forward` judges against the build commit `stale` prints: both
 * use the one provenance chain (configured methods, git-tag, the presence
 * check), against a real registry and a real git repository.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/io.js';
import { pushImage, startRegistry, type TestRegistry } from '../support/registry.js';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { loadConfig } from '../../src/config/load.js';
import { gitStats } from '../../src/git/run.js';
import { checkForward } from '../../src/repin/forward.js';
import { scanRepo } from '../../src/scan/repo.js';

let reg: TestRegistry;
const repos: TestRepo[] = [];
let APP = '';
const LABEL = 'org.opencontainers.image.revision';

beforeAll(async () => {
  reg = await startRegistry();
  APP = `${reg.host}/acme/app`;
});

afterAll(async () => {
  await reg?.stop();
  repos.forEach((r) => r.cleanup());
});

const config = (extra = '') => `firstParty: [${reg.host}/acme/]\nimages:\n  app:\n    repository: ${APP}\n    inputs: [src/]\n${extra}`;

function run(repo: TestRepo, ...args: string[]) {
  return runCli(['--repo', repo.dir, ...args, '--no-cache'], { cwd: repo.dir });
}

async function staleBuiltFrom(repo: TestRepo, ...flags: string[]): Promise<{ commit: string; method: string }> {
  const r = await run(repo, '--format', 'json', 'stale', ...flags);
  const images = JSON.parse(r.out).images as { builtFrom: { commit: string; method: string } }[];
  expect(images).toHaveLength(1);
  return images[0]!.builtFrom;
}

async function forward(repo: TestRepo, tag: string): Promise<{ code: number; forward: { decided: boolean; ok: boolean; reason: string; currentCommit?: string; targetCommit?: string } }> {
  const r = await run(repo, '--format', 'json', 'repin', APP, '--to-tag', tag, '--only-forward', '--dry-run');
  expect(r.err).toBe('');
  return { code: r.code, forward: JSON.parse(r.out).forward };
}

/**
 * c0 → c1 → P (pins app:v1.0.0, an unlabelled image) → c3 (git tag v1.0.0, whose
 * tree still pins that digest) → c4. Digest history says "built from c1" (P's
 * parent); git-tag says "built from c3".
 */
async function taggedAfterThePin() {
  const repo = makeRepo('pinwatch-forward-tag-');
  repos.push(repo);
  const c = {} as Record<'c0' | 'c1' | 'p' | 'c3' | 'c4', string>;
  c.c0 = repo.commit({ 'src/main.go': '0\n' }, 'c0');
  c.c1 = repo.commit({ 'src/main.go': '1\n' }, 'c1');
  const rel = await pushImage(reg, 'acme/app', 'v1.0.0', { content: 'rel' });
  c.p = repo.commit({ 'deploy/values.yaml': `app:\n  image: ${APP}:v1.0.0@${rel.digest}\n` }, 'Prepare release v1.0.0');
  c.c3 = repo.commit({ 'src/main.go': '3\n' }, 'feat: after the pin');
  repo.git('tag', 'v1.0.0');
  c.c4 = repo.commit({ 'src/main.go': '4\n' }, 'feat: later');
  await pushImage(reg, 'acme/app', 'at-pin', { labels: { [LABEL]: c.p }, content: 'at-pin' });
  await pushImage(reg, 'acme/app', 'later', { labels: { [LABEL]: c.c4 }, content: 'later' });
  return { repo, c, rel };
}

describe('--only-forward uses the configured provenance methods and git-tag, like stale', () => {
  it('with methods [git-tag, digest-history] both name the git tag commit, and a target between the two is refused', async () => {
    const { repo, c } = await taggedAfterThePin();
    repo.write({ 'pinwatch.yaml': config('provenance:\n  methods: [git-tag, digest-history]\n') });
    // stale (with and without --registry) names c3, the commit of git tag v1.0.0.
    expect(await staleBuiltFrom(repo)).toMatchObject({ commit: c.c3, method: 'git-tag' });
    expect(await staleBuiltFrom(repo, '--registry')).toMatchObject({ commit: c.c3, method: 'git-tag' });
    // The old forward chain (registry, then digest history) judged against c1 and allowed this.
    const back = await forward(repo, 'at-pin');
    expect(back.code).toBe(1);
    expect(back.forward).toMatchObject({ decided: true, ok: false, currentCommit: c.c3, targetCommit: c.p });
    expect(back.forward.reason).toContain(`which does not contain ${c.c3}`);
    expect(back.forward.reason).toContain('git-tag: image tag v1.0.0 names git tag v1.0.0');
    const fwd = await forward(repo, 'later');
    expect(fwd.code).toBe(0);
    expect(fwd.forward).toMatchObject({ decided: true, ok: true, currentCommit: c.c3, targetCommit: c.c4 });
    expect(readFileSync(join(repo.dir, 'deploy/values.yaml'), 'utf8')).toContain(':v1.0.0@');
  });

  it('with the default methods both take digest history (c1), so the same target is allowed', async () => {
    const { repo, c } = await taggedAfterThePin();
    repo.write({ 'pinwatch.yaml': config() });
    expect(await staleBuiltFrom(repo, '--registry')).toMatchObject({ commit: c.c1, method: 'digest-history' });
    const r = await forward(repo, 'at-pin');
    expect(r.code).toBe(0);
    expect(r.forward).toMatchObject({ decided: true, ok: true, currentCommit: c.c1, targetCommit: c.p });
    expect(r.forward.reason).toContain('digest-history: introduced by');
  });

  it('reads history in a constant number of git processes, whatever the number of pinned digests', async () => {
    const { repo } = await taggedAfterThePin();
    repo.write({ 'pinwatch.yaml': config('provenance:\n  methods: [git-tag, digest-history]\n') });
    const later = await pushImage(reg, 'acme/app', 'later', { labels: { [LABEL]: repo.git('rev-parse', 'HEAD') }, content: 'later' });
    const count = async () => {
      const cfg = loadConfig(repo.dir);
      const pins = (await scanRepo(repo.dir, cfg)).pins.filter((p) => p.ref.name === APP);
      const olds = [...new Set(pins.map((p) => p.ref.digest!))];
      const before = gitStats.processes;
      const check = await checkForward(repo.dir, { repository: APP, digest: later.digest, resolvedBy: 'given' }, pins, olds, { config: cfg, registry: {} });
      expect(check).toMatchObject({ decided: true, ok: true });
      return { processes: gitStats.processes - before, digests: olds.length };
    };
    const one = await count();
    const extra = await Promise.all([1, 2, 3].map((i) => pushImage(reg, 'acme/app', `extra-${i}`, { content: `extra-${i}` })));
    repo.commit(Object.fromEntries(extra.map((e, i) => [`deploy/extra-${i}/values.yaml`, `app:\n  image: ${APP}:v1.0.0@${e.digest}\n`])), 'pin three more digests');
    const four = await count();
    expect([one.digests, four.digests]).toEqual([1, 4]);
    expect(four.processes).toBe(one.processes);
  });
});

describe('--only-forward applies the presence check, like stale', () => {
  it('a current image labelled with a commit absent from the clone falls through to digest history', async () => {
    const repo = makeRepo('pinwatch-forward-absent-');
    repos.push(repo);
    repo.write({ 'pinwatch.yaml': config() });
    repo.commit({ 'src/main.go': '0\n' }, 'c0');
    const c1 = repo.commit({ 'src/main.go': '1\n' }, 'c1');
    const ghost = await pushImage(reg, 'acme/app', 'ghost', { labels: { [LABEL]: 'f'.repeat(40) }, content: 'ghost' });
    repo.commit({ 'deploy/values.yaml': `app:\n  image: ${APP}:ghost@${ghost.digest}\n` }, 'pin the ghost');
    const c3 = repo.commit({ 'src/main.go': '3\n' }, 'c3');
    await pushImage(reg, 'acme/app', 'next', { labels: { [LABEL]: c3 }, content: 'next' });
    await pushImage(reg, 'acme/app', 'before', { labels: { [LABEL]: repo.git('rev-parse', 'HEAD~3') }, content: 'before' });
    // stale --registry: the label's commit is not here, so digest history answers c1.
    expect(await staleBuiltFrom(repo, '--registry')).toMatchObject({ commit: c1, method: 'digest-history' });
    // The old chain took the absent label commit and could not decide; now it judges against c1.
    const ok = await forward(repo, 'next');
    expect(ok.code).toBe(0);
    expect(ok.forward).toMatchObject({ decided: true, ok: true, currentCommit: c1, targetCommit: c3 });
    const back = await forward(repo, 'before');
    expect(back.code).toBe(1);
    expect(back.forward).toMatchObject({ decided: true, ok: false, currentCommit: c1 });
    // A target whose only answer is absent cannot be decided: refused, saying why.
    await pushImage(reg, 'acme/app', 'ghost-2', { labels: { [LABEL]: 'f'.repeat(40) }, content: 'ghost-2' });
    const unknown = await forward(repo, 'ghost-2');
    expect(unknown.code).toBe(1);
    expect(unknown.forward.decided).toBe(false);
    expect(unknown.forward.reason).toMatch(/^cannot decide: the build commit of .* is unknown: registry: .*commit ffffffffff is not in this clone/);
  });
});

describe('--only-forward applies stale\'s "source and pin in one commit" rule', () => {
  it('a digest committed with a change to the build inputs was built from that commit, for stale and repin alike', async () => {
    const repo = makeRepo('pinwatch-forward-together-');
    repos.push(repo);
    repo.write({ 'pinwatch.yaml': config() });
    const c0 = repo.commit({ 'src/main.go': '0\n' }, 'c0');
    const hand = await pushImage(reg, 'acme/app', 'hand', { content: 'hand' });
    const together = repo.commit({ 'src/main.go': '1\n', 'deploy/values.yaml': `app:\n  image: ${APP}:hand@${hand.digest}\n` }, 'feat: change and pin a hand-built image');
    await pushImage(reg, 'acme/app', 'from-c0', { labels: { [LABEL]: c0 }, content: 'from-c0' });
    await pushImage(reg, 'acme/app', 'from-together', { labels: { [LABEL]: together }, content: 'from-together' });
    expect(await staleBuiltFrom(repo, '--registry')).toMatchObject({ commit: together, method: 'digest-history' });
    // Judged against the parent (c0), an image built from c0 would pass; it lacks the change, so it is refused.
    const back = await forward(repo, 'from-c0');
    expect(back.code).toBe(1);
    expect(back.forward).toMatchObject({ decided: true, ok: false, currentCommit: together, targetCommit: c0 });
    expect(back.forward.reason).toContain("which also changes this image's build inputs (src/main.go): built from that commit itself");
    const same = await forward(repo, 'from-together');
    expect(same.forward).toMatchObject({ decided: true, ok: true, currentCommit: together });
  });
});
