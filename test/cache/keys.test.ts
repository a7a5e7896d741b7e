/**
 * What the cached facts key on, exactly. A scan outcome is kept per file bytes,
 * path, file kind, first-party prefixes (firstParty and the aliases that map to
 * it) and the Chart.yaml beside a values file: changing any one of them misses,
 * changing nothing hits, and a hit answers what a fresh scan does. A Makefile
 * read is revived only while every file answer it got still holds: an edit of
 * an include, or an include candidate that appears, reads again. A kept config
 * is taken only while every path its load read answers the same.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheInfo, openCache, type Cache } from '../../src/cache/index.js';
import { loadConfig } from '../../src/config/load.js';
import { loadConfigKept } from '../../src/config/kept.js';
import { loadMakefile, type MakeReader } from '../../src/make/index.js';
import { scanRepo } from '../../src/scan/index.js';

const temps: string[] = [];
afterEach(() => temps.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'pinwatch-cache-keys-')));
  temps.push(dir);
  write(dir, files);
  return dir;
}
/** A cache folder outside the tree (the scan's walk must not see it appear). */
function cacheOf(dir: string): Cache {
  const c = realpathSync(mkdtempSync(join(tmpdir(), 'pinwatch-cache-keys-c-')));
  temps.push(c);
  return openCache(dir, { enabled: true, dir: c });
}
const config = (lines: string) => `include: ["**/values.yaml", "deploy/*.yaml"]\n${lines}`;
function write(dir: string, files: Record<string, string>): void {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
}

/** Store-level hits and misses, and writes (a Makefile entry found but no longer holding is a hit that writes again). */
const delta = (cache: Cache, before: ReturnType<Cache['stats']>) => {
  const s = cache.stats();
  return { hits: s.hits - before.hits, misses: s.misses - before.misses, writes: s.writes - before.writes };
};

describe('scan outcomes', () => {
  // files of 4 KiB or more are cached (SCAN_CACHE_MIN_BYTES): a comment block makes them so
  const PAD = `${'# padding to the size the scan caches\n'.repeat(120)}`;
  const FILES = {
    'charts/app/values.yaml': `${PAD}image:\n  repository: ghcr.io/acme/app\n  tag: ""\n`,
    'charts/app/Chart.yaml': 'name: app\nappVersion: 1.2.3\n',
    'deploy/a.yaml': `${PAD}spec:\n  image: ghcr.io/acme/api:v1@sha256:${'a'.repeat(64)}\n`,
    'deploy/b.yaml': `${PAD}spec:\n  image: registry.ci.example/acme/api:v1\n`,
    'deploy/small.yaml': 'spec:\n  image: ghcr.io/acme/small:v1\n',
  };

  it('every input of the collector is in the key: one change, one miss; no change, all hits and the same answer', async () => {
    const dir = tree(FILES);
    const cache = cacheOf(dir);
    writeFileSync(join(dir, 'pinwatch.yaml'), config('firstParty: [ghcr.io/acme/]\n'));
    const scan = async () => {
      const before = cache.stats();
      const cached = await scanRepo(dir, loadConfig(dir), { cache });
      const fresh = await scanRepo(dir, loadConfig(dir), { cache: openCache(dir, { enabled: false }) });
      expect(cached).toEqual(fresh);
      return { ...delta(cache, before), result: cached };
    };
    const cold = await scan();
    const cached = cold.result.filesScanned - 1; // deploy/small.yaml is under the size worth caching: never looked up
    expect(cold.misses).toBe(cached);
    expect(cold.result.pins.find((p) => p.file === 'deploy/small.yaml')?.ref.name).toBe('ghcr.io/acme/small');
    expect(cold.result.pins.find((p) => p.file === 'charts/app/values.yaml')?.ref.tag).toBe('1.2.3');
    expect(await scan()).toMatchObject({ hits: cached, misses: 0 });

    const changes: [string, () => void, number][] = [
      ['the bytes of one file', () => write(dir, { 'deploy/a.yaml': FILES['deploy/a.yaml'].replace('v1', 'v2') }), 1],
      ['the Chart.yaml beside a values file', () => write(dir, { 'charts/app/Chart.yaml': 'name: app\nappVersion: 1.2.4\n' }), 1],
      ['the path of a file (same bytes)', () => {
        rmSync(join(dir, 'deploy/b.yaml'));
        write(dir, { 'deploy/c.yaml': FILES['deploy/b.yaml'] });
      }, 1],
      // the config: every file's outcome depends on the first-party prefixes
      ['firstParty', () => writeFileSync(join(dir, 'pinwatch.yaml'), config('firstParty: [ghcr.io/acme/, ghcr.io/other/]\n')), 3],
      ['an alias mapping to a first-party prefix', () => writeFileSync(join(dir, 'pinwatch.yaml'), config('firstParty: [ghcr.io/acme/, ghcr.io/other/]\naliases: {"registry.ci.example/acme/": "ghcr.io/acme/"}\n')), 3],
      // the kind: a file declared in extraFiles is read by the text collector
      ['the file kind (declared extraFiles: text)', () => writeFileSync(join(dir, 'pinwatch.yaml'), config('firstParty: [ghcr.io/acme/, ghcr.io/other/]\naliases: {"registry.ci.example/acme/": "ghcr.io/acme/"}\nextraFiles: [deploy/a.yaml]\n')), 1],
    ];
    for (const [what, change, misses] of changes) {
      change();
      const after = await scan();
      expect({ what, misses: after.misses }).toEqual({ what, misses });
      expect(after.hits, what).toBe(cached - misses);
      expect(await scan(), `${what}, again`).toMatchObject({ misses: 0 });
    }
    // the alias made the CI registry's pin first-party: an answer that changed through the key
    expect((await scan()).result.pins.find((p) => p.file === 'deploy/c.yaml')?.firstParty).toBe(true);
  });

  it('an alias that changes no first-party prefix changes no key', async () => {
    const dir = tree(FILES);
    const cache = cacheOf(dir);
    writeFileSync(join(dir, 'pinwatch.yaml'), config('firstParty: [ghcr.io/acme/]\n'));
    await scanRepo(dir, loadConfig(dir), { cache });
    writeFileSync(join(dir, 'pinwatch.yaml'), config('firstParty: [ghcr.io/acme/]\naliases: {"quay.io/third/": "docker.io/third/"}\n'));
    const before = cache.stats();
    await scanRepo(dir, loadConfig(dir), { cache });
    expect(delta(cache, before)).toEqual({ hits: 3, misses: 0, writes: 0 });
  });
});

describe('Makefile reads', () => {
  const snapshot = (r: MakeReader) => JSON.parse(JSON.stringify({ ...r.db, vars: r.db.vars.names().sort().map((n) => [n, r.db.vars.get(n)]), rules: [...r.db.rules] })) as unknown;

  it('revived while every file answer holds; read again when an include changes or a candidate appears', () => {
    const dir = tree({
      'Makefile': 'include common.mk\n-include local.mk\nTAG ?= dev\nbuild:\n\tdocker build -t $(REGISTRY)/app:$(TAG) .\n%.img: %\n\techo $@\n',
      'common.mk': 'REGISTRY := ghcr.io/acme\n',
    });
    const cache = cacheOf(dir);
    const load = () => {
      const before = cache.stats();
      const cached = loadMakefile(join(dir, 'Makefile'), { root: dir, cache });
      const fresh = loadMakefile(join(dir, 'Makefile'), { root: dir, cache: openCache(dir, { enabled: false }) });
      expect(snapshot(cached)).toEqual(snapshot(fresh));
      return { ...delta(cache, before), reader: cached };
    };
    expect(load()).toMatchObject({ hits: 0, misses: 1, writes: 1 });
    const warm = load();
    expect(warm).toMatchObject({ hits: 1, misses: 0, writes: 0 });
    expect(warm.reader.db.vars.get('REGISTRY')?.value).toBe('ghcr.io/acme');
    expect(warm.reader.db.files).toEqual(['Makefile', 'common.mk']);

    // an included file changes: the kept read no longer holds
    write(dir, { 'common.mk': 'REGISTRY := ghcr.io/elsewhere\n' });
    const edited = load();
    expect(edited).toMatchObject({ hits: 1, writes: 1 }); // found, no longer holding: read again and kept anew
    expect(edited.reader.db.vars.get('REGISTRY')?.value).toBe('ghcr.io/elsewhere');

    // an optional include that did not exist appears
    write(dir, { 'local.mk': 'TAG := local\n' });
    const appeared = load();
    expect(appeared).toMatchObject({ writes: 1 });
    expect(appeared.reader.db.vars.get('TAG')?.value).toBe('local');
    expect(load()).toMatchObject({ hits: 1, misses: 0, writes: 0 });

    // other variables or environment are another key
    const before = cache.stats();
    loadMakefile(join(dir, 'Makefile'), { root: dir, cache, variables: { TAG: 'v1' } });
    loadMakefile(join(dir, 'Makefile'), { root: dir, cache, environment: { TAG: 'v2' } });
    expect(delta(cache, before)).toEqual({ hits: 0, misses: 2, writes: 2 });
    // one kept entry per Makefile and settings: an edit replaced it, the cache did not grow
    expect(cacheInfo(dir, { dir: join(cache.dir!, '..') }).entries).toBe(3);
  });

  it('a revived reader reads on like a fresh one ($(eval) adding rules and recipe lines after the read)', () => {
    const dir = tree({ 'Makefile': 'define RULE\n$(1):\n\techo $(1)\nendef\nall: x\n\techo all\n' });
    const cache = cacheOf(dir);
    loadMakefile(join(dir, 'Makefile'), { root: dir, cache });
    const revived = loadMakefile(join(dir, 'Makefile'), { root: dir, cache });
    expect(cache.stats().hits).toBe(1);
    const fresh = loadMakefile(join(dir, 'Makefile'), { root: dir, cache: openCache(dir, { enabled: false }) });
    for (const r of [revived, fresh]) r.evalText('$(eval $(call RULE,x))\nall:\n\techo more\n', 'Makefile', 7, r.db.vars);
    expect(snapshot(revived)).toEqual(snapshot(fresh));
    expect(revived.db.rules.get('all')?.recipe.map((l) => l.text)).toEqual(fresh.db.rules.get('all')?.recipe.map((l) => l.text));
  });
});

describe('workflow reads', () => {
  const RELEASE = `name: release
on:
  push:
    tags: ['v*']
env:
  REGISTRY: ghcr.io/acme
jobs:
  images:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        include:
          - name: api
            dir: src/api
    steps:
      - uses: docker/build-push-action@v6
        with:
          context: \${{ matrix.dir }}
          tags: \${{ env.REGISTRY }}/\${{ matrix.name }}:\${{ github.sha }}
      - run: |
          docker build -t \${{ env.REGISTRY }}/worker:dev -f src/worker/Dockerfile src/worker
          make -C src/api image REGISTRY=\${{ env.REGISTRY }}
  called:
    uses: ./.github/workflows/build.yml
    with:
      image: ghcr.io/acme/tool
`;
  const BUILD = (dir: string) => `on:
  workflow_call:
    inputs:
      image:
        type: string
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: docker/build-push-action@v6
        with:
          context: ${dir}
          tags: \${{ inputs.image }}:v1
`;
  const FILES = {
    '.github/workflows/release.yml': RELEASE,
    '.github/workflows/build.yml': BUILD('src/tool'),
    'src/api/Dockerfile': 'FROM alpine\n',
    'src/api/Makefile': 'image:\n\tdocker build -t $(REGISTRY)/api:dev .\n',
    'src/worker/Dockerfile': 'FROM alpine\n',
    'src/tool/Dockerfile': 'FROM alpine\n',
  };

  it('a kept read is used only while the called workflows and every tree check answer the same', async () => {
    const { readOtherRecipes } = await import('../../src/producers/kinds.js');
    const { configureCache, cacheFor } = await import('../../src/cache/index.js');
    const dir = tree(FILES);
    const cacheDir = realpathSync(mkdtempSync(join(tmpdir(), 'pinwatch-cache-wf-')));
    temps.push(cacheDir);
    const read = (cached: boolean) => {
      configureCache({ enabled: cached, dir: cacheDir });
      try {
        const problems: unknown[] = [];
        const out = readOtherRecipes(dir, [], problems as never[]);
        return { ...out, problems, stats: cacheFor(dir).stats() };
      } finally {
        configureCache({ enabled: false });
      }
    };
    const same = (when: string) => {
      const fresh = read(false);
      const cached = read(true);
      const { stats: _s, ...answer } = cached;
      const { stats: _f, ...reference } = fresh;
      expect(answer, when).toEqual(reference);
      return { stats: cached.stats, answer };
    };
    const cold = same('cold');
    expect(cold.stats.writes).toBeGreaterThan(0);
    expect(cold.answer.recipes.map((r) => r.repositories).flat().sort()).toEqual(['ghcr.io/acme/api', 'ghcr.io/acme/tool', 'ghcr.io/acme/worker']);
    expect(cold.answer.makes).toHaveLength(1);
    expect(same('warm').stats.writes).toBe(0);

    // a Dockerfile disappears: the tree check answers otherwise, so the kept read does not hold
    rmSync(join(dir, 'src/worker/Dockerfile'));
    const gone = same('a Dockerfile removed');
    expect(gone.stats.writes).toBe(1);
    expect(JSON.stringify(gone.answer.problems)).toContain('recipe-dockerfile-missing');
    // a called workflow changes: its caller is read again (and the new text's only-called answer kept)
    write(dir, { '.github/workflows/build.yml': BUILD('src/api') });
    expect(same('a called workflow edited').stats.writes).toBe(2);
    expect(same('unchanged again').stats.writes).toBe(0);
  });
});

describe('the config', () => {
  /** The kept load and a fresh one, each as its value or its error (code and message), with the store's counts. */
  const both = async (dir: string, cache: Cache, firstParty: string[] = []) => {
    const outcome = async (load: () => unknown) => {
      try {
        return { config: await load() };
      } catch (e) {
        const err = e as { code?: string; message: string };
        return { error: `${err.code}: ${err.message}` };
      }
    };
    const before = cache.stats();
    const kept = await outcome(() => loadConfigKept(dir, { firstParty }, cache));
    const counts = delta(cache, before);
    const notes = cache.stats().notes.slice(before.notes.length);
    // what happened to the kept config: none kept, kept and taken, or kept and read again (said under -v)
    const use = counts.misses > 0 ? 'none kept' : notes.some((n) => n.startsWith('config read again: ')) ? 'read again' : counts.hits > 0 ? 'taken' : 'not asked';
    const fresh = await outcome(() => loadConfig(dir, { firstParty }));
    return { kept, fresh, counts, use };
  };

  it('is kept while every path its load read answers the same: each change below reads again, and answers as a fresh load', async () => {
    const dir = tree({
      'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\nimages:\n  api:\n    repository: ghcr.io/acme/api\n    dockerfile: api/Dockerfile\n',
      'api/Dockerfile': 'FROM scratch\n',
    });
    const outside = tree({ 'Dockerfile': 'FROM scratch\n' });
    const cache = cacheOf(dir);
    const steps: [string, () => void, 'none kept' | 'taken' | 'read again', RegExp?][] = [
      ['first run', () => undefined, 'none kept'],
      ['nothing changed', () => undefined, 'taken'],
      ['the config edited (same size)', () => write(dir, { 'pinwatch.yaml': 'firstParty: [ghcr.io/acmf/]\nimages:\n  api:\n    repository: ghcr.io/acme/api\n    dockerfile: api/Dockerfile\n' }), 'read again'],
      ['nothing changed again', () => undefined, 'taken'],
      ['a second config name appears', () => write(dir, { 'pinwatch.yml': 'firstParty: []\n' }), 'read again', /^config-invalid: pinwatch.yaml and pinwatch.yml are both/],
      // a failed load keeps nothing: the config kept before it holds again
      ['it goes again', () => unlinkSync(join(dir, 'pinwatch.yml')), 'taken'],
      ['the dockerfile the config names becomes a symlink out of the repository', () => {
        rmSync(join(dir, 'api'), { recursive: true });
        symlinkSync(outside, join(dir, 'api'));
      }, 'read again', /^config-invalid: images.api.dockerfile: "api\/Dockerfile" leads out of the repository through a symlink/],
      ['it is a directory again', () => {
        unlinkSync(join(dir, 'api'));
        write(dir, { 'api/Dockerfile': 'FROM scratch\n' });
      }, 'taken'], // a new file of the same type and size: only its place counts, and the kept config (before the failure) holds
      ['no config: the defaults', () => unlinkSync(join(dir, 'pinwatch.yaml')), 'read again'],
      ['a near-miss config name appears', () => write(dir, { '.github/pinwatch.config.yml': 'firstParty: []\n' }), 'read again'],
      ['nothing changed at the end', () => undefined, 'taken'],
    ];
    for (const [what, change, use, error] of steps) {
      change();
      const r = await both(dir, cache);
      expect({ what, kept: r.kept }).toEqual({ what, kept: r.fresh });
      expect({ what, use: r.use }).toEqual({ what, use });
      if (error) expect(r.kept.error, what).toMatch(error);
      else expect(r.kept.config, what).toBeDefined();
    }
    expect((await both(dir, cache)).kept.config).toMatchObject({ origin: { assumed: expect.arrayContaining([expect.stringMatching(/found \.github\/pinwatch\.config\.yml/)]) } });
  });

  it('--first-party prefixes are part of the key; a config reached through a symlink, a --config path or a disabled cache is never kept', async () => {
    const dir = tree({ 'real.yaml': 'firstParty: [ghcr.io/acme/]\n' });
    const cache = cacheOf(dir);
    expect((await both(dir, cache, ['ghcr.io/one/'])).counts).toEqual({ hits: 0, misses: 1, writes: 1 });
    const other = await both(dir, cache, ['ghcr.io/two/']);
    expect(other.counts).toEqual({ hits: 0, misses: 1, writes: 1 });
    expect(other.kept).toEqual(other.fresh);
    expect((other.kept.config as { firstParty: string[] }).firstParty).toEqual(['ghcr.io/two/']);

    symlinkSync('real.yaml', join(dir, 'pinwatch.yaml'));
    for (let i = 0; i < 2; i++) {
      const r = await both(dir, cache);
      expect(r.kept).toEqual(r.fresh);
      expect(r.counts.writes, 'a symlinked config is read every run').toBe(0);
    }
    const before = cache.stats();
    await loadConfigKept(dir, { configPath: join(dir, 'real.yaml') }, cache);
    await loadConfigKept(dir, {}, openCache(dir, { enabled: false }));
    expect(delta(cache, before)).toEqual({ hits: 0, misses: 0, writes: 0 });
  });
});
