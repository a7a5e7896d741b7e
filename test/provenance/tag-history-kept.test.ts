/**
 * Tag introductions kept between runs (src/provenance/tag-history.ts
 * readTagHistory, cache namespace `tag-history`): after each change below, one
 * on top of the other, the answer read with the cache equals the one read
 * without it, and the cache's note says whether only the new commits were read.
 * The file gains comment lines holding the tag: candidates that do not put it
 * into the pin, which push the real introduction towards the MAX_CANDIDATES cut.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cacheFor, configureCache } from '../../src/cache/index.js';
import { gitStats } from '../../src/git/run.js';
import type { ShallowState } from '../../src/git/shallow.js';
import { readTagHistory } from '../../src/provenance/tag-history.js';
import type { ImageSubject } from '../../src/provenance/types.js';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { pin } from '../support/stale.js';

const repos: TestRepo[] = [];
const dirs: string[] = [];
afterEach(() => configureCache({ enabled: false }));
afterAll(() => (repos.forEach((r) => r.cleanup()), dirs.forEach((d) => rmSync(d, { recursive: true, force: true }))));

const FILE = 'charts/x/values.yaml';
const values = (tag: string, notes: number) => `controller:\n  image: "ghcr.io/acme/x:${tag}"\n${Array.from({ length: notes }, (_, i) => `# ${tag} note ${i}\n`).join('')}`;
const subject = (tag: string): ImageSubject => ({ repository: 'ghcr.io/acme/x', tags: [tag], pins: [pin(FILE, 2, `ghcr.io/acme/x:${tag}`)], stamped: [{ file: FILE, line: 2, by: 'Makefile:release' }] });
const NOT_SHALLOW: ShallowState = { shallow: false, boundary: new Set() };

/** A repository and a cache folder of its own, removed after the tests. */
function fresh(): { r: TestRepo; cacheDir: string } {
  const r = makeRepo();
  repos.push(r);
  const cacheDir = mkdtempSync(join(tmpdir(), 'pinwatch-tag-kept-'));
  dirs.push(cacheDir);
  return { r, cacheDir };
}

/** The answer for x at HEAD with the cache (this run's notes: configureCache opens the cache afresh) and without it. */
async function both(r: TestRepo, cacheDir: string, tag: string) {
  const head = r.git('rev-parse', 'HEAD');
  configureCache({ enabled: false });
  const plain = (await readTagHistory(r.dir, [subject(tag)], head, '', NOT_SHALLOW)).values().next().value;
  configureCache({ enabled: true, dir: cacheDir });
  const before = gitStats.processes;
  const kept = (await readTagHistory(r.dir, [subject(tag)], head, '', NOT_SHALLOW)).values().next().value;
  return { plain, kept, notes: cacheFor(r.dir).stats().notes, processes: gitStats.processes - before };
}

describe('tag introductions kept between runs', () => {
  it('equal a read without the cache after every change; only the commits since are read when they are one line', async () => {
    const { r, cacheDir } = fresh();
    r.commit({ 'src/x/main.go': '1\n', [FILE]: values('v0', 0) }, 'initial');
    const stamp = r.commit({ [FILE]: values('v1', 0) }, 'Release v1');
    r.commit({ [FILE]: values('v1', 2) }, 'docs: two notes');

    const steps: { name: string; apply: () => void; want: { found?: string; tried?: number }; read: RegExp | 'kept' | 'none' }[] = [
      { name: 'the first run', apply: () => undefined, want: { found: stamp }, read: 'none' },
      { name: 'no new commit', apply: () => undefined, want: { found: stamp }, read: 'kept' },
      { name: 'a commit to a source', apply: () => r.commit({ 'src/x/main.go': '2\n' }, 'feat(x): two'), want: { found: stamp }, read: /only the commits since read/ },
      // each commit adding notes is one candidate: the stamp is now the sixth, the last one checked
      { name: 'four more notes', apply: () => ['a', 'b', 'c', 'd'].forEach((n, i) => r.commit({ [FILE]: values('v1', 3 + i) }, `docs: ${n}`)), want: { found: stamp }, read: /only the commits since read/ },
      { name: 'one more note: the stamp is the seventh candidate, past the cut', apply: () => r.commit({ [FILE]: values('v1', 7) }, 'docs: e'), want: { tried: 6 }, read: /only the commits since read/ },
      {
        name: 'a merge of a side branch',
        apply: () => {
          r.git('checkout', '-qb', 'side');
          r.commit({ 'src/x/side.go': 'side\n' }, 'feat(x): side');
          r.git('checkout', '-q', 'main');
          r.commit({ 'src/x/main.go': '3\n' }, 'feat(x): three');
          r.git('merge', '-q', '--no-ff', '-m', 'Merge side', 'side');
        },
        want: { tried: 6 },
        read: /not taken from [0-9a-f]{10}: [0-9a-f]{10} has 2 parents/,
      },
      { name: 'stamped again', apply: () => (r.commit({ [FILE]: values('v0', 0) }, 'Revert to v0'), r.commit({ [FILE]: values('v1', 0) }, 'Release v1 again')), want: { found: 'HEAD' }, read: /only the commits since read/ },
    ];
    for (const step of steps) {
      step.apply();
      const { plain, kept, notes: all, processes } = await both(r, cacheDir, 'v1');
      expect(kept, step.name).toEqual(plain);
      if (step.want.found) expect(plain, step.name).toMatchObject({ commit: step.want.found === 'HEAD' ? r.git('rev-parse', 'HEAD') : step.want.found, tag: 'v1', stampedBy: 'Makefile:release' });
      else expect(plain, step.name).toEqual({ none: `tag v1: ${step.want.tried} commit(s) add it to ${FILE}, none into this pin` });
      const fresh = all.filter((n) => n.startsWith('tag history'));
      if (step.read === 'kept') {
        expect(fresh, step.name).toEqual([expect.stringMatching(/^tag history: 1 image\(s\)' tag introductions kept at [0-9a-f]{10}$/)]);
        expect(processes, `${step.name}: git asked`).toBe(0);
      } else if (step.read === 'none') expect(fresh, step.name).toEqual([]);
      else expect(fresh.join('\n'), step.name).toMatch(step.read);
    }
  }, 60_000);

  it('keeps nothing for a shallow clone, nor for a HEAD given by name', async () => {
    const { r, cacheDir } = fresh();
    r.commit({ 'src/x/main.go': '1\n', [FILE]: values('v0', 0) }, 'initial');
    r.commit({ [FILE]: values('v1', 0) }, 'Release v1');
    const head = r.git('rev-parse', 'HEAD');
    configureCache({ enabled: true, dir: cacheDir });
    await readTagHistory(r.dir, [subject('v1')], head, '', { shallow: true, boundary: new Set() });
    await readTagHistory(r.dir, [subject('v1')], 'HEAD', '', NOT_SHALLOW);
    await readTagHistory(r.dir, [subject('v1')], head, '', NOT_SHALLOW);
    expect(cacheFor(r.dir).stats().notes.filter((n) => n.startsWith('tag history'))).toEqual([]);
  });
  it('a cat-file that dies mid-pass is the run\'s failure, never an answer, and nothing is kept', async () => {
    const { r, cacheDir } = fresh();
    r.commit({ 'src/x/main.go': '1\n', [FILE]: values('v0', 0) }, 'initial');
    const stamp = r.commit({ [FILE]: values('v1', 0) }, 'Release v1');
    const head = r.git('rev-parse', 'HEAD');
    // a git whose cat-file --batch reads one request and dies; every other command is git's own
    const bin = join(cacheDir, 'bin');
    mkdirSync(bin);
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nif [ "$1" = "cat-file" ] && [ "$2" = "--batch" ]; then read line; exit 3; fi\nexec "${real}" "$@"\n`);
    chmodSync(join(bin, 'git'), 0o755);
    configureCache({ enabled: true, dir: cacheDir });
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    try {
      await expect(readTagHistory(r.dir, [subject('v1')], head, '', NOT_SHALLOW)).rejects.toThrow(/cat-file --batch ended before answering/);
    } finally {
      process.env.PATH = path;
    }
    configureCache({ enabled: true, dir: cacheDir });
    const answer = (await readTagHistory(r.dir, [subject('v1')], head, '', NOT_SHALLOW)).values().next().value;
    expect(answer).toMatchObject({ commit: stamp });
    expect(cacheFor(r.dir).stats().notes.filter((n) => n.startsWith('tag history'))).toEqual([]);
  });
});
