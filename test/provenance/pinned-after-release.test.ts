/**
 * A digest pinned after its release (jaegertracing/jaeger: the release workflow builds `jaeger:2.19.0` at git
 * tag v2.19.0; days later Renovate pins `2.19.0@sha256:…` into the examples). No recipe stamps that pin, so
 * digest history's answer (the pinning commit's parent) is only the newest commit the image can be built from:
 * the fix merged between the release and the pin is not in the image. The build is the git tag.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { computeStale } from '../../src/stale/history.js';
import { DIGEST, image, inputs, pin, values } from '../support/stale.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));
const NOW = new Date('2026-03-01T00:00:00Z');
const D = DIGEST('a');

/** src/x at the release (git tag `tag`), a fix after it, the bot's pin, a fix after the pin. */
function releasedThenPinned(tag = 'v1.1.0') {
  const r = makeRepo();
  repos.push(r);
  r.commit({ 'src/x/main.go': '1\n', 'deploy/values.yaml': values('x', '1.0.0', DIGEST('0')) }, 'initial');
  const release = r.commit({ 'src/x/main.go': '2\n' }, 'Prepare release v1.1.0 (#10)');
  r.git('tag', tag);
  const between = r.commit({ 'src/x/main.go': '3\n' }, 'fix(x): after the release (#11)');
  r.commit({ 'deploy/values.yaml': values('x', '1.1.0', D) }, 'chore(deps): update x to v1.1.0 (#12)');
  const after = r.commit({ 'src/x/main.go': '4\n' }, 'fix(x): after the pin (#13)');
  return { r, release, between, after };
}

const x = (extra: object = {}) => ({ ...image('x', [pin('deploy/values.yaml', 2, `ghcr.io/acme/x:1.1.0@${D}`)], inputs('x', 'src/x/')), ...extra });

describe('a digest pinned after its release', () => {
  it('is built from the git tag its tag names when no recipe stamps the pin: the fix between release and pin is unshipped', async () => {
    const { r, release, between, after } = releasedThenPinned();
    const img = (await computeStale(r.dir, [x()], { now: NOW })).images[0]!;
    expect(img.builtFrom).toMatchObject({ commit: release, method: 'git-tag' });
    expect(img.unshipped.map((u) => u.commit)).toEqual([after, between]);
    const byMethod = Object.fromEntries(img.provenance.map((s) => [s.method, s]));
    expect(byMethod['digest-history']).toMatchObject({ answered: false });
    expect(byMethod['digest-history']!.reason).toMatch(/no recipe or producer stamps this pin, so it was pinned after the build .*: [0-9a-f]{10} is only the newest commit it can have been built from, and git tag v1\.1\.0 is older$/);
    expect(byMethod['git-tag']!.reason).toContain('image tag 1.1.0 names git tag v1.1.0, which');
  });

  it('keeps digest history’s answer when a recipe stamps the pin (the build and the pin are one job)', async () => {
    const { r, between, after } = releasedThenPinned();
    const img = (await computeStale(r.dir, [x({ stamped: [{ file: 'deploy/values.yaml', line: 2, by: 'Makefile:release' }] })], { now: NOW })).images[0]!;
    expect(img.builtFrom).toMatchObject({ commit: between, method: 'digest-history' });
    expect(img.unshipped.map((u) => u.commit)).toEqual([after]);
  });

  it('keeps digest history’s answer when the tag is no ancestor of it (a release branch), or names no git tag', async () => {
    const { r, between, after } = releasedThenPinned('v9.9.9');
    const img = (await computeStale(r.dir, [x()], { now: NOW })).images[0]!;
    expect(img.builtFrom).toMatchObject({ commit: between, method: 'digest-history' });
    expect(img.unshipped.map((u) => u.commit)).toEqual([after]);

    const side = releasedThenPinned('v0.0.1');
    side.r.git('checkout', '-q', '-b', 'release-1.1', side.release);
    side.r.commit({ 'src/x/patch.go': 'p\n' }, 'Release branch fix');
    side.r.git('tag', 'v1.1.0');
    side.r.git('checkout', '-q', 'main');
    const onBranch = (await computeStale(side.r.dir, [x()], { now: NOW })).images[0]!;
    expect(onBranch.builtFrom).toMatchObject({ commit: side.between, method: 'digest-history' });
  });
});
