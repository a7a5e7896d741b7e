/**
 * `repin --from-build-metadata FILE…`: the readers of docker buildx, bake and ko
 * output (table-driven), and a real run on the demo repository that repins every
 * image the files name in one go, listing what it could not repin.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoRepo, demoDigest } from '../../src/demo/index.js';
import { mergeBuiltImages, parseBuildMetadata } from '../../src/repin/index.js';
import { runCli } from '../support/io.js';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;

describe('parseBuildMetadata', () => {
  it.each<[string, string, unknown]>([
    ['buildx --metadata-file', JSON.stringify({ 'containerimage.digest': D1, 'image.name': 'ghcr.io/acme/app:v1.2.0,ghcr.io/acme/app:latest', 'buildx.build.ref': 'b/b/x' }), { format: 'buildx', images: [{ repository: 'ghcr.io/acme/app', tag: 'v1.2.0', digest: D1, source: 'm.json' }], unreadable: [] }],
    ['buildx, latest listed first: the version tag wins', JSON.stringify({ 'containerimage.digest': D1, 'image.name': 'ghcr.io/acme/app:latest,ghcr.io/acme/app:v2' }), { images: [{ tag: 'v2' }] }],
    ['buildx, two repositories for one digest', JSON.stringify({ 'containerimage.digest': D1, 'image.name': 'ghcr.io/acme/app:v1,quay.io/acme/app:v1' }), { images: [{ repository: 'ghcr.io/acme/app' }, { repository: 'quay.io/acme/app' }] }],
    ['buildx, not pushed (no digest)', JSON.stringify({ 'image.name': 'ghcr.io/acme/app:v1' }), { images: [], unreadable: [{ source: 'm.json', reason: expect.stringMatching(/no "containerimage.digest"/) }] }],
    [
      'bake: one entry per target, buildx.* settings ignored',
      JSON.stringify({ app: { 'containerimage.digest': D1, 'image.name': 'ghcr.io/acme/app:v1' }, api: { 'containerimage.digest': D2, 'image.name': 'ghcr.io/acme/api:v1' }, 'buildx.build.warnings': [] }),
      { format: 'bake', images: [{ repository: 'ghcr.io/acme/app', source: 'm.json#app' }, { repository: 'ghcr.io/acme/api', digest: D2, source: 'm.json#api' }], unreadable: [] },
    ],
    ['bake, a target built but not pushed', JSON.stringify({ app: { 'image.name': 'ghcr.io/acme/app:v1' } }), { images: [], unreadable: [{ source: 'm.json#app' }] }],
    ['ko --image-refs', `ghcr.io/acme/app@${D1}\n\nghcr.io/acme/api:v3@${D2}\n`, { format: 'ko', images: [{ repository: 'ghcr.io/acme/app', digest: D1, source: 'm.json:1' }, { repository: 'ghcr.io/acme/api', tag: 'v3', source: 'm.json:3' }] }],
    ['ko, a ref without digest', 'ghcr.io/acme/app:v1\n', { images: [], unreadable: [{ source: 'm.json:1', reason: expect.stringMatching(/no @sha256 digest/) }] }],
  ])('%s', (_name, text, want) => {
    expect(parseBuildMetadata(text, 'm.json')).toMatchObject(want as object);
  });

  it.each([
    ['empty', '', /the file is empty/],
    ['broken JSON', '{"image.name": ', /not valid JSON/],
    ['JSON with no results', '{}', /no build results/],
    ['neither JSON nor refs', 'hello world\n', /line 1 is neither JSON nor an image reference/],
  ])('%s: build-metadata-invalid, naming the file and the expected forms', (_name, text, why) => {
    expect(() => parseBuildMetadata(text, 'm.json')).toThrow(expect.objectContaining({ code: 'build-metadata-invalid', file: 'm.json', message: expect.stringMatching(why) }));
    expect(() => parseBuildMetadata(text, 'm.json')).toThrow(/expected docker buildx --metadata-file JSON/);
  });

  it('one repository at two digests across files is a conflict, not a pick', () => {
    const a = parseBuildMetadata(`ghcr.io/acme/app@${D1}\n`, 'a');
    const b = parseBuildMetadata(`ghcr.io/acme/app@${D2}\nghcr.io/acme/api@${D1}\n`, 'b');
    const merged = mergeBuiltImages([a, b]);
    expect(merged.images.map((i) => i.repository)).toEqual(['ghcr.io/acme/api']);
    expect(merged.conflicts).toEqual([{ repository: 'ghcr.io/acme/app', reason: expect.stringMatching(/built at 2 digests/) }]);
  });
});

describe('repin --from-build-metadata on the demo repository', () => {
  const REG = 'ghcr.io/acme/platform';
  let demo: string;
  let files: string;
  beforeAll(() => {
    demo = buildDemoRepo();
    files = mkdtempSync(join(tmpdir(), 'pinwatch-build-metadata-'));
  });
  afterAll(() => [demo, files].forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('repins every image of a buildx file, a bake file and ko refs in one run; an image pinned nowhere is listed, exit 1', async () => {
    const billing = demoDigest('billing rebuilt by CI');
    const backup = demoDigest('backup rebuilt by CI');
    const gateway = demoDigest('gateway rebuilt by CI');
    writeFileSync(join(files, 'billing.json'), JSON.stringify({ 'containerimage.digest': billing, 'image.name': `${REG}/billing-controller:v1.0.1` }));
    writeFileSync(join(files, 'bake.json'), JSON.stringify({ backup: { 'containerimage.digest': backup, 'image.name': `${REG}/backup-strategy-controller:v1.0.1` }, ghost: { 'containerimage.digest': demoDigest('ghost'), 'image.name': `${REG}/never-pinned:v1` } }));
    writeFileSync(join(files, 'ko.txt'), `${REG}/gateway:v1.0.1@${gateway}\n`);
    const r = await runCli(['--repo', demo, 'repin', '--from-build-metadata', join(files, 'billing.json'), join(files, 'bake.json'), join(files, 'ko.txt'), '--format', 'json']);
    const doc = JSON.parse(r.out) as { images: { repository: string }[]; results: { repository: string; written: boolean; leftovers: unknown[] }[]; skipped: { repository?: string; reason: string }[] };
    expect(r.code).toBe(1);
    expect(doc.images.map((i) => i.repository)).toEqual([`${REG}/backup-strategy-controller`, `${REG}/billing-controller`, `${REG}/gateway`, `${REG}/never-pinned`]);
    expect(doc.results.map((x) => [x.repository, x.written, x.leftovers.length])).toEqual([
      [`${REG}/backup-strategy-controller`, true, 0],
      [`${REG}/billing-controller`, true, 0],
      [`${REG}/gateway`, true, 0],
    ]);
    expect(doc.skipped).toEqual([{ repository: `${REG}/never-pinned`, source: expect.stringMatching(/bake\.json#ghost$/), reason: expect.stringMatching(/^\[image-unknown\]/) }]);
    const scan = JSON.parse((await runCli(['--repo', demo, 'scan', '--format', 'json'])).out) as { pins: { repository: string; digest?: string }[] };
    const digestsOf = (name: string) => [...new Set(scan.pins.filter((p) => p.repository === `${REG}/${name}`).map((p) => p.digest))];
    expect(digestsOf('billing-controller')).toEqual([billing]);
    expect(digestsOf('backup-strategy-controller')).toEqual([backup]);
    expect(digestsOf('gateway')).toEqual([gateway]);
    expect(readFileSync(join(demo, 'packages/system/billing/values.yaml'), 'utf8')).toContain(`billing-controller:v1.0.1@${billing}`);
  });

  it('a folder stands for every file in it: a dry run over the three files plans the same three images', async () => {
    const r = await runCli(['--repo', demo, 'repin', '--from-build-metadata', files, '--dry-run', '--format', 'json']);
    const doc = JSON.parse(r.out) as { fromBuildMetadata: string[]; images: unknown[] };
    expect(doc.fromBuildMetadata.map((f) => f.slice(files.length + 1))).toEqual(['bake.json', 'billing.json', 'ko.txt']);
    expect(doc.images).toHaveLength(4);
  });

  it('with IMAGE or --to as well: a usage error, nothing written', async () => {
    const r = await runCli(['--repo', demo, 'repin', 'gateway', '--from-build-metadata', join(files, 'ko.txt')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\[conflicting-options\] --from-build-metadata takes the images and digests from its files; drop IMAGE "gateway"/);
  });
});
