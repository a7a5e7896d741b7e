/**
 * The build model is kept in two halves (src/producers/repo.ts, src/snapshot/repo.ts):
 * the recipe files of the other kinds (workflows…) and the Makefile side, which
 * takes from them only the make calls they run, each label and line as a
 * placeholder. A workflow edit that moves a make call's lines reads the workflows
 * again and keeps the Makefile side, and the model is still the one a fresh
 * reading gives, labels and lines put back; another make call (new env) reads
 * the Makefile side again; a Makefile edit keeps the recipe files.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/store.js';
import { loadConfig } from '../../src/config/load.js';
import { loadBuildModel } from '../../src/producers/index.js';
import { deriveTree } from '../../src/snapshot/repo.js';

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

const WORKFLOW = '.github/workflows/release.yaml';
const FILES: Record<string, string> = {
  'pinwatch.yaml': 'firstParty:\n  - ghcr.io/acme/\n',
  Makefile: 'REGISTRY ?= docker.io/nobody\nTAG ?= dev\nimage:\n\tdocker build -t $(REGISTRY)/app:$(TAG) app\n',
  'app/Dockerfile': 'FROM alpine\n',
  'deploy/values.yaml': 'image:\n  repository: ghcr.io/acme/app\n  tag: v1\n',
  // a make call into a directory with no Makefile: a problem whose line is the step's
  [WORKFLOW]: 'jobs:\n  r:\n    steps:\n      - env:\n          REGISTRY: ghcr.io/acme\n        run: make image TAG=v1\n      - env:\n          X: y\n        run: make -C elsewhere all\n',
};

/** Write `files` (repo-relative path → text) under `dir`. */
function writeTree(dir: string, files: Record<string, string>): void {
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
}

/** What the model says of the make calls: recipe targets (their labels) and problems with their lines. */
const shown = (m: Awaited<ReturnType<typeof loadBuildModel>>) => ({
  recipes: m.recipes.map((r) => `${r.makefile}:${r.line} ${r.target} ${r.repositories.join(',')}`),
  problems: m.problems.map((p) => `${p.file}:${p.line ?? ''} ${p.code}: ${p.reason}`),
});

describe('the build model in two halves', () => {
  it('a workflow edit that moves its make calls keeps the Makefile side; the model is the fresh one, labels and lines put back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-model-halves-'));
    made.push(dir);
    writeTree(dir, FILES);
    const cache = openCache(dir, { enabled: true, dir: join(dir, '.cache') });
    const config = loadConfig(dir);
    const run = async () => {
      const before = cache.stats().notes.length;
      const derived = await deriveTree(dir, config, { cache });
      const notes = cache.stats().notes.slice(before).join('\n');
      const fresh = await loadBuildModel(dir, config);
      expect(derived.known.model, notes).toEqual(fresh);
      return { model: derived.known.model!, notes };
    };
    const first = await run();
    expect(shown(first.model).recipes).toContain('Makefile:4 image (via .github/workflows/release.yaml:6 jobs.r step 1) ghcr.io/acme/app');
    expect(shown(first.model).problems.some((p) => p.startsWith('.github/workflows/release.yaml:9 followed-make-assumed'))).toBe(true);

    // three lines above the steps, and a step with no make: every make call moves
    const moved = FILES[WORKFLOW]!.replace('    steps:\n', '    # built on tags\n    # and on main\n    steps:\n      - run: echo start\n');
    writeFileSync(join(dir, WORKFLOW), moved);
    const second = await run();
    expect(second.notes).toMatch(/build model derived again \(.*release\.yaml changed.*\): recipe files read again from \d+ paths, Makefile side reused \(the make calls the recipe files run are the same\), kept for the next run/);
    expect(shown(second.model).recipes).toContain('Makefile:4 image (via .github/workflows/release.yaml:9 jobs.r step 2) ghcr.io/acme/app');
    expect(shown(second.model).problems.some((p) => p.startsWith('.github/workflows/release.yaml:12 followed-make-assumed'))).toBe(true);
    expect(JSON.stringify(second.model)).not.toMatch(/release\.yaml:6|\uE000/);

    // the next run holds whole
    const third = await run();
    expect(third.notes).toMatch(/tree snapshot reused: scan reused, build model reused/);

    // another env for a make call: the Makefile side is read again
    writeFileSync(join(dir, WORKFLOW), readFileSync(join(dir, WORKFLOW), 'utf8').replace('REGISTRY: ghcr.io/acme', 'REGISTRY: ghcr.io/other'));
    const fourth = await run();
    expect(fourth.notes).toMatch(/recipe files read again from \d+ paths, Makefile side read again from \d+ paths, kept/);
    expect(shown(fourth.model).recipes).toContain('Makefile:4 image (via .github/workflows/release.yaml:9 jobs.r step 2) ghcr.io/other/app');

    // a Makefile edit: the recipe files are kept
    writeFileSync(join(dir, 'Makefile'), FILES.Makefile!.replace('TAG ?= dev', 'TAG ?= dev\nPLATFORM ?= linux/amd64'));
    const fifth = await run();
    expect(fifth.notes).toMatch(/build model derived again \(.*Makefile changed.*\): recipe files reused, Makefile side read again from \d+ paths/);
    expect(shown(fifth.model).recipes).toContain('Makefile:5 image (via .github/workflows/release.yaml:9 jobs.r step 2) ghcr.io/other/app');
  });

  it("keeps of the git config only its github.com origin (the github context): a CI checkout's new token keeps the model, another origin reads the recipe files again", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-model-origin-'));
    made.push(dir);
    const files: Record<string, string> = {
      'pinwatch.yaml': 'firstParty:\n  - ghcr.io/acme/\n',
      'app/Dockerfile': 'FROM alpine\n',
      'deploy/values.yaml': 'image:\n  repository: ghcr.io/acme/app\n  tag: v1\n',
      '.github/workflows/build.yaml': 'jobs:\n  b:\n    steps:\n      - uses: docker/build-push-action@v6\n        with:\n          context: app\n          tags: ghcr.io/${{ github.repository }}:1\n',
    };
    writeTree(dir, files);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir });
    git('init', '-q');
    git('remote', 'add', 'origin', 'https://github.com/acme/app');
    const cacheDir = mkdtempSync(join(tmpdir(), 'pinwatch-model-origin-cache-'));
    made.push(cacheDir);
    const cache = openCache(dir, { enabled: true, dir: cacheDir });
    const config = loadConfig(dir);
    const run = async () => {
      const before = cache.stats().notes.length;
      const derived = await deriveTree(dir, config, { cache });
      const notes = cache.stats().notes.slice(before).join('\n');
      expect(derived.known.model, notes).toEqual(await loadBuildModel(dir, config));
      return { repositories: derived.known.model!.recipes.map((r) => r.repositories), notes };
    };
    expect((await run()).repositories).toEqual([['ghcr.io/acme/app']]);
    // actions/checkout keeps the job's token in .git/config: every job's file is another (new bytes, a new inode)
    git('config', '--local', 'http.https://github.com/.extraheader', 'AUTHORIZATION: basic job-1');
    const token = await run();
    expect(token.notes).toMatch(/tree snapshot reused: scan reused, build model reused/);
    expect(token.repositories).toEqual([['ghcr.io/acme/app']]);
    // another origin: another github.repository, so the recipe files are read again
    git('remote', 'set-url', 'origin', 'git@github.com:acme/platform.git');
    const origin = await run();
    expect(origin.notes).toMatch(/build model derived again \(.*\.git\/config changed.*\): recipe files read again/);
    expect(origin.repositories).toEqual([['ghcr.io/acme/platform']]);
    // no origin at all: the tag cannot be read
    git('remote', 'remove', 'origin');
    const none = await run();
    expect(none.notes).toMatch(/build model derived again/);
    expect(none.repositories).toEqual([[]]);
  });
});
