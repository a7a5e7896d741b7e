/** `--registry` end to end: a real registry (docker-registry on loopback) names the build commit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { pushImage, startRegistry, type TestRegistry } from '../support/registry.js';
import { computeStale } from '../../src/stale/history.js';
import { image, inputs, pin } from '../support/stale.js';

let reg: TestRegistry;
const repos: TestRepo[] = [];
beforeAll(async () => {
  reg = await startRegistry();
});
afterAll(async () => {
  repos.forEach((r) => r.cleanup());
  await reg?.stop();
});

describe('registry provenance', () => {
  it('answers from the revision label before digest history, and falls back when the label names an unknown commit', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'src/app/main.go': '1\n' }, 'initial');
    const built = r.commit({ 'src/app/main.go': '2\n' }, 'feat(app): two');
    const after = r.commit({ 'src/app/main.go': '3\n' }, 'fix(app): three');
    const labelled = await pushImage(reg, 'team/app', 'v1', { labels: { 'org.opencontainers.image.revision': built } });
    const unknownCommit = await pushImage(reg, 'team/other', 'v1', { labels: { 'org.opencontainers.image.revision': 'f'.repeat(40) }, content: 'other' });
    const appRef = `${reg.host}/team/app:v1@${labelled.digest}`;
    const otherRef = `${reg.host}/team/other:v1@${unknownCommit.digest}`;
    r.commit({ 'v.yaml': `app:\n  image: ${appRef}\nother:\n  image: ${otherRef}\n` }, 'pin the images (hand-edited, after the fix)');
    const report = await computeStale(
      r.dir,
      [image('app', [pin('v.yaml', 2, appRef)], inputs('app', 'src/app/')), image('other', [pin('v.yaml', 4, otherRef)], inputs('other', 'src/app/'))],
      { methods: ['registry', 'digest-history'], registry: {}, now: new Date('2026-03-01T00:00:00Z') },
    );
    const [app, other] = report.images;
    expect(app).toMatchObject({ status: 'stale', builtFrom: { commit: built, method: 'registry' } });
    expect(app!.unshipped.map((u) => u.commit)).toEqual([after]);
    expect(app!.provenance[1]!.reason).toContain('not needed');
    // the label names a commit this clone does not have: digest history answers instead
    expect(other!.builtFrom?.method).toBe('digest-history');
    expect(other!.provenance[0]).toMatchObject({ method: 'registry', answered: false, reason: expect.stringContaining('not in this clone') });
  });
});
