import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { computeStale } from '../../src/stale/history.js';
import { formatStaleText } from '../../src/report/stale-text.js';
import { formatStaleMarkdown } from '../../src/report/stale-markdown.js';
import { DIGEST, image, inputs, pin, values } from '../support/stale.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));
const NOW = new Date('2026-03-01T00:00:00Z');
const short = (d: string) => `${d.slice(0, 19)}…`;

/** A release v1.0.0 that pinned DIGEST('2'), tagged; a fix after it; `root` prefixes every path. */
function taggedRelease(root = '') {
  const r = makeRepo();
  repos.push(r);
  r.commit({ [`${root}src/x/main.go`]: '1\n', [`${root}packages/x/values.yaml`]: values('x', 'v0.9.0', DIGEST('0')) }, 'initial');
  const built = r.commit({ [`${root}src/x/main.go`]: '2\n' }, 'feat(x): two (#1)');
  const prep = r.commit({ [`${root}packages/x/values.yaml`]: values('x', 'v1.0.0', DIGEST('2')) }, 'Prepare release v1.0.0');
  r.git('tag', 'v1.0.0');
  const fix = r.commit({ [`${root}src/x/main.go`]: '3\n' }, 'fix(x): after the release (#2)');
  return { r, built, prep, fix };
}
const pinOf = (digest: string, tag = 'v1.0.0') => image('x', [pin('packages/x/values.yaml', 2, `ghcr.io/acme/x:${tag}@${digest}`)], inputs('x', 'src/x/'));

describe('git-tag provenance checks the tag against the pinned digest', () => {
  it('an uncommitted hand edit to a digest the tag never pinned is unknown, with the reason', async () => {
    const { r } = taggedRelease();
    r.write({ 'packages/x/values.yaml': values('x', 'v1.0.0', DIGEST('1')) });
    const report = await computeStale(r.dir, [pinOf(DIGEST('1'))], { now: NOW, methods: ['digest-history', 'git-tag'] });
    const img = report.images[0]!;
    expect(img.status).toBe('unknown');
    expect(img.builtFrom).toBeUndefined();
    expect(img.provenance[0]).toMatchObject({ method: 'digest-history', answered: false, reason: expect.stringContaining('never appears in the history') });
    const refusal = `git tag v1.0.0 pins ${short(DIGEST('2'))} in packages/x/values.yaml, not ${short(DIGEST('1'))}: the tag did not build this image`;
    expect(img.provenance[1]).toMatchObject({ method: 'git-tag', answered: false, reason: refusal });
    expect(img.reason).toContain(refusal);
  });

  it('names the digests the tag pins under the name the pins are written with (an `aliases` prefix: jaeger’s cr.jaegertracing.io)', async () => {
    const r = makeRepo();
    repos.push(r);
    const mirrored = (tag: string, digest: string) => `controller:\n  image: "cr.example.io/acme/x:${tag}@${digest}"\n`;
    r.commit({ 'src/x/main.go': '1\n', 'packages/x/values.yaml': mirrored('v1.0.0', DIGEST('2')) }, 'Prepare release v1.0.0');
    r.git('tag', 'v1.0.0');
    r.write({ 'packages/x/values.yaml': mirrored('v1.0.0', DIGEST('1')) });
    const x = { ...image('x', [pin('packages/x/values.yaml', 2, `cr.example.io/acme/x:v1.0.0@${DIGEST('1')}`)], inputs('x', 'src/x/')), repository: 'ghcr.io/acme/x' };
    const img = (await computeStale(r.dir, [x], { now: NOW, methods: ['git-tag'] })).images[0]!;
    expect(img.provenance[0]!.reason).toBe(`git tag v1.0.0 pins ${short(DIGEST('2'))} in packages/x/values.yaml, not ${short(DIGEST('1'))}: the tag did not build this image`);
  });

  it('accepts the tag when its tree pins the digest (git-tag alone answers the committed pin)', async () => {
    const { r, prep, fix } = taggedRelease();
    const report = await computeStale(r.dir, [pinOf(DIGEST('2'))], { now: NOW, methods: ['git-tag'] });
    const img = report.images[0]!;
    expect(img.builtFrom).toMatchObject({ commit: prep, method: 'git-tag' });
    expect(img.provenance[0]!.reason).toContain(`whose tree pins ${short(DIGEST('2'))}`);
    expect(img.unshipped.map((u) => u.commit)).toEqual([fix]);
  });

  it('reads the tag tree relative to a root below the top of the work tree', async () => {
    const { r, prep } = taggedRelease('platform/');
    const ok = await computeStale(join(r.dir, 'platform'), [pinOf(DIGEST('2'))], { now: NOW, methods: ['git-tag'] });
    expect(ok.images[0]!.builtFrom).toMatchObject({ commit: prep, method: 'git-tag' });
    const refused = await computeStale(join(r.dir, 'platform'), [pinOf(DIGEST('1'))], { now: NOW, methods: ['git-tag'] });
    expect(refused.images[0]!.provenance[0]!.reason).toContain(`pins ${short(DIGEST('2'))} in packages/x/values.yaml`);
  });

  it('says so when the tag has no such pin file, and still answers a bare-tag pin (weakest method)', async () => {
    const { r, prep } = taggedRelease();
    const moved = image('x', [pin('charts/x/values.yaml', 2, `ghcr.io/acme/x:v1.0.0@${DIGEST('1')}`)], inputs('x', 'src/x/'));
    const gone = await computeStale(r.dir, [moved], { now: NOW, methods: ['git-tag'] });
    expect(gone.images[0]!.provenance[0]!.reason).toBe(`git tag v1.0.0 has no charts/x/values.yaml, not ${short(DIGEST('1'))}: the tag did not build this image`);
    const bare = image('x', [pin('packages/x/values.yaml', 2, 'ghcr.io/acme/x:v1.0.0')], inputs('x', 'src/x/'));
    const weak = await computeStale(r.dir, [bare], { now: NOW, methods: ['digest-history', 'git-tag'] });
    expect(weak.images[0]!.builtFrom).toMatchObject({ commit: prep, method: 'git-tag' });
    expect(weak.images[0]!.provenance[1]!.reason).toContain('weakest method');
  });
});

describe('stale text and markdown list the stronger methods that failed', () => {
  /** The digest was built and pinned on a release branch (tagged), never merged; the main tree is hand-edited to it. */
  function releaseBranchPin() {
    const { r } = taggedRelease();
    r.git('checkout', '-q', '-b', 'release-1.1', 'v1.0.0');
    r.commit({ 'packages/x/values.yaml': values('x', 'v1.1.0', DIGEST('1')) }, 'Prepare release v1.1.0');
    r.git('tag', 'v1.1.0');
    const tagCommit = r.git('rev-parse', 'HEAD');
    r.git('checkout', '-q', 'main');
    r.write({ 'packages/x/values.yaml': values('x', 'v1.1.0', DIGEST('1')) });
    return { r, tagCommit };
  }

  it('shows digest-history: no — why, above the git-tag answer', async () => {
    const { r, tagCommit } = releaseBranchPin();
    const report = await computeStale(r.dir, [pinOf(DIGEST('1'), 'v1.1.0')], { now: NOW, methods: ['digest-history', 'git-tag'] });
    expect(report.images[0]).toMatchObject({ status: 'stale', builtFrom: { commit: tagCommit, method: 'git-tag' } });
    const text = formatStaleText(report);
    const lines = text.split('\n');
    const failed = lines.findIndex((l) => l.startsWith('  digest-history: no — '));
    expect(lines[failed]).toBe(`  digest-history: no — digest ${short(DIGEST('1'))} never appears in the history of the 1 pin file(s)`);
    expect(lines[failed + 1]).toMatch(/^ {2}git-tag: image tag v1\.1\.0 names git tag v1\.1\.0, whose tree pins/);
    const md = formatStaleMarkdown(report);
    expect(md).toContain(`Stronger methods that did not answer:\n\n- digest-history: digest ${short(DIGEST('1'))} never appears`);
  });

  it('lists nothing extra when the first method answered', async () => {
    const { r } = taggedRelease();
    const report = await computeStale(r.dir, [pinOf(DIGEST('2'))], { now: NOW, methods: ['digest-history', 'git-tag'] });
    expect(report.images[0]).toMatchObject({ status: 'stale', builtFrom: { method: 'digest-history' } });
    expect(formatStaleText(report)).not.toContain(': no — ');
    expect(formatStaleMarkdown(report)).not.toContain('Stronger methods');
  });
});
