/**
 * `aliases` where an image is named or moved: an IMAGE argument under an alias
 * prefix names the canonical image (resolveImage, stale, explain, repin); repin
 * moves a pin under the alias prefix too, keeping that pin's own registry prefix
 * (only tag and digest change); overlay takes a freshly built ref under the CI
 * alias over the canonical pin, and with aliases configured calls a pin that
 * became another image drift.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { defaultConfig } from '../../src/config/defaults.js';
import type { Config } from '../../src/config/types.js';
import { resolveImage } from '../../src/images/resolve.js';
import { repin, repinExitCode } from '../../src/repin/index.js';
import { runOverlay } from '../../src/overlay/index.js';
import { runCli } from '../support/io.js';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { DIGEST } from '../support/stale.js';

const OLD = DIGEST('a');
const NEW = DIGEST('c');
const ALIASES = { 'ci.acme.test/builds/': 'ghcr.io/acme/' };
const config = (extra: Partial<Config> = {}): Config => ({ ...defaultConfig(), firstParty: ['ghcr.io/acme/'], aliases: ALIASES, ...extra });

const repos: TestRepo[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('resolveImage with aliases', () => {
  const images = [{ image: 'app', repository: 'ghcr.io/acme/app' }, { image: 'web', repository: 'ghcr.io/acme/web' }];
  it.each([
    ['ci.acme.test/builds/app', 'ghcr.io/acme/app'],
    ['ci.acme.test/builds/app:main@' + NEW, 'ghcr.io/acme/app'],
    ['ghcr.io/acme/web', 'ghcr.io/acme/web'],
    ['app', 'ghcr.io/acme/app'],
  ])('%s → %s', (query, repository) => {
    expect(resolveImage(query, images, { aliases: ALIASES }).repository).toBe(repository);
  });
  it('without aliases the alias repository names nothing', () => {
    expect(() => resolveImage('ci.acme.test/builds/app', images)).toThrow(/no image "ci.acme.test\/builds\/app" is pinned/);
  });
});

describe('repin with aliases', () => {
  const tree = () => {
    const r = makeRepo('pinwatch-repin-aliases-');
    repos.push(r);
    r.commit(
      {
        'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\naliases:\n  "ci.acme.test/builds/": "ghcr.io/acme/"\n',
        'deploy/values.yaml': `app:\n  image: "ghcr.io/acme/app:v1.0.0@${OLD}"\n  e2e:\n    image: "ci.acme.test/builds/app:v1.0.0@${OLD}"\nweb:\n  image: "ghcr.io/acme/web:v1@${OLD}"\n`,
        'images/app.tag': `ci.acme.test/builds/app:v1.0.0@${OLD}\n`,
      },
      'initial',
    );
    return r;
  };

  it('moves the pins under the alias prefix too, each keeping its own registry prefix', async () => {
    const r = tree();
    const result = await repin({ root: r.dir, config: config(), image: 'app', to: `ghcr.io/acme/app:v1.1.0@${NEW}` });
    expect(repinExitCode(result)).toBe(0);
    expect(result.repository).toBe('ghcr.io/acme/app');
    expect(result.changes.map((c) => [c.file, c.line, c.to])).toEqual([
      ['deploy/values.yaml', 2, `ghcr.io/acme/app:v1.1.0@${NEW}`],
      ['deploy/values.yaml', 4, `ci.acme.test/builds/app:v1.1.0@${NEW}`],
      ['images/app.tag', 1, `ci.acme.test/builds/app:v1.1.0@${NEW}`],
    ]);
    expect(readFileSync(join(r.dir, 'deploy/values.yaml'), 'utf8')).toBe(
      `app:\n  image: "ghcr.io/acme/app:v1.1.0@${NEW}"\n  e2e:\n    image: "ci.acme.test/builds/app:v1.1.0@${NEW}"\nweb:\n  image: "ghcr.io/acme/web:v1@${OLD}"\n`,
    );
    expect(result.leftovers).toEqual([]);
  });

  it('takes the image and --to under the alias (a CI build-metadata ref), through the CLI', async () => {
    const r = tree();
    const run = await runCli(['--repo', r.dir, 'repin', 'ci.acme.test/builds/app', '--to', `ci.acme.test/builds/app:v1.1.0@${NEW}`]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(r.dir, 'images/app.tag'), 'utf8')).toBe(`ci.acme.test/builds/app:v1.1.0@${NEW}\n`);
    expect(readFileSync(join(r.dir, 'deploy/values.yaml'), 'utf8')).toContain(`image: "ghcr.io/acme/app:v1.1.0@${NEW}"`);
    // another image under the alias prefix is still refused
    const bad = await runCli(['--repo', r.dir, 'repin', 'app', '--to', `ci.acme.test/builds/web:v2@${NEW}`]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('repin-repository-mismatch');
  });

  it('without aliases the alias pins are another repository and stay', async () => {
    const r = tree();
    const result = await repin({ root: r.dir, config: config({ aliases: {} }), image: 'ghcr.io/acme/app', to: `ghcr.io/acme/app:v1.1.0@${NEW}` });
    expect(result.changes.map((c) => c.line)).toEqual([2]);
    expect(readFileSync(join(r.dir, 'images/app.tag'), 'utf8')).toBe(`ci.acme.test/builds/app:v1.0.0@${OLD}\n`);
  });
});

describe('overlay with aliases', () => {
  const tree = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-overlay-aliases-'));
    dirs.push(dir);
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), text);
    }
    return dir;
  };
  const opts = (root: string, from: string, c: Config) => ({ root, from, config: c, skip: { built: [], touched: [], owned: [] }, dryRun: false, ignoreComments: false });

  it('a fresh ref under the CI alias overlays the canonical pin, also in a file read as text', () => {
    const root = tree({ 'deploy/values.yaml': `app:\n  image: "ghcr.io/acme/app:v1.0.0@${OLD}"\n`, 'hack/e2e.env': `APP_IMAGE=ghcr.io/acme/app:v1.0.0@${OLD}\n` });
    const from = tree({ 'deploy/values.yaml': `app:\n  image: "ci.acme.test/builds/app:main@${NEW}"\n`, 'hack/e2e.env': `APP_IMAGE=ci.acme.test/builds/app:main@${NEW}\n` });
    const report = runOverlay(opts(root, from, config({ extraFiles: ['hack/e2e.env'] })));
    expect(report.files.map((f) => [f.file, f.status])).toEqual([['deploy/values.yaml', 'overlaid'], ['hack/e2e.env', 'overlaid']]);
    expect(readFileSync(join(root, 'hack/e2e.env'), 'utf8')).toBe(`APP_IMAGE=ci.acme.test/builds/app:main@${NEW}\n`);
  });

  it('with aliases configured, a pin that became another image is drift, named', () => {
    const root = tree({ 'deploy/values.yaml': `app:\n  image: "ghcr.io/acme/app:v1.0.0@${OLD}"\n` });
    const from = tree({ 'deploy/values.yaml': `app:\n  image: "ci.acme.test/builds/web:main@${NEW}"\n` });
    const report = runOverlay(opts(root, from, config()));
    expect(report.files[0]).toMatchObject({ status: 'drift' });
    expect(report.files[0]!.reason).toContain('app.image (line 2) is ghcr.io/acme/app in the checkout but ci.acme.test/builds/web in the artifact (line 2), which no aliases entry makes the same image');
    expect(readFileSync(join(root, 'deploy/values.yaml'), 'utf8')).toContain('ghcr.io/acme/app:v1.0.0');
    // a third-party pin moved to a mirror stays a ref difference
    const root3 = tree({ 'deploy/values.yaml': `redis:\n  image: "docker.io/library/redis:7@${OLD}"\n` });
    const from3 = tree({ 'deploy/values.yaml': `redis:\n  image: "mirror.gcr.io/library/redis:7@${NEW}"\n` });
    expect(runOverlay(opts(root3, from3, config())).files[0]).toMatchObject({ status: 'overlaid' });
  });
});

describe('stale and explain name the image by its alias repository', () => {
  it('stale ci.acme.test/builds/app reports ghcr.io/acme/app', async () => {
    const r = makeRepo('pinwatch-stale-aliases-');
    repos.push(r);
    r.commit({ 'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\naliases:\n  "ci.acme.test/builds/": "ghcr.io/acme/"\nimages:\n  app: { repository: ghcr.io/acme/app, inputs: ["src/**"], derive: false }\n', 'src/main.go': 'package main\n' }, 'initial');
    r.commit({ 'deploy/values.yaml': `app:\n  image: "ghcr.io/acme/app:v1@${OLD}"\n` }, 'pin');
    const stale = await runCli(['--repo', r.dir, 'stale', 'ci.acme.test/builds/app', '--format', 'json']);
    expect(stale.code).toBe(0);
    expect(JSON.parse(stale.out).images.map((i: { repository: string }) => i.repository)).toEqual(['ghcr.io/acme/app']);
    const explain = await runCli(['--repo', r.dir, 'explain', 'ci.acme.test/builds/app:main', '--format', 'json']);
    expect(explain.code).toBe(0);
    expect(explain.out).toContain('"ghcr.io/acme/app"');
  });
});
