/**
 * The cache never changes an answer: scan, check and stale JSON on the demo
 * repository (real history, Makefiles with includes, a values file beside a
 * Chart.yaml, tag files, a declared text file) are the same with the cache
 * (cold, warm, after an edit of a pin file and of an included Makefile, after
 * a new commit, after every entry is corrupted) as with --no-cache. The
 * cozystack fixture's stale and check answers, cold and warm, equal the goldens.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDemoRepo } from '../../src/demo/build.js';
import { runCli } from '../support/io.js';
import { GOLDEN_REPOS, goldenArgs, normalize } from '../stale/golden/repos.mjs';

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

const COMMANDS = [
  ['scan', '--format', 'json'],
  ['check', '--format', 'json'],
  ['stale', '--format', 'json', '--fail-on-stale', 'never'],
];

async function answers(dir: string, cache: boolean): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const args of COMMANDS) {
    const r = await runCli(['--repo', dir, ...args, ...(cache ? [] : ['--no-cache'])]);
    expect(r.err, `${args[0]} ${cache ? 'cached' : '--no-cache'}`).toBe('');
    out.push({ exit: r.code, answer: normalize(JSON.parse(r.out)) });
  }
  return out;
}

/** Every entry file under the cache folder. */
function entries(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(join(d, e.name));
    }
  };
  walk(dir);
  return out;
}

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.test', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.test', GIT_AUTHOR_DATE: '2026-08-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-08-01T00:00:00Z' } });

describe('the cache never changes an answer', () => {
  it('on the demo repository: cold, warm, after edits, after a commit, after corrupt entries', async () => {
    const dir = buildDemoRepo(join(mkdtempSync(join(tmpdir(), 'pinwatch-cache-demo-')), 'repo'));
    made.push(join(dir, '..'));
    const cacheDir = join(dir, '.git', 'pinwatch', 'cache');
    const same = async (when: string) => {
      const reference = await answers(dir, false);
      expect(await answers(dir, true), `${when} (first cached run)`).toEqual(reference);
      expect(await answers(dir, true), `${when} (second cached run)`).toEqual(reference);
      return reference;
    };

    // a release workflow too (its builds are checked against the tree: a Dockerfile that appears later)
    mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
    writeFileSync(
      join(dir, '.github/workflows/release.yml'),
      'on: push\njobs:\n  images:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: docker/build-push-action@v6\n        with:\n          context: packages/system/billing\n          tags: ghcr.io/acme/platform/billing-controller:${{ github.sha }}\n      - run: make -C packages/system/billing image TAG=${{ github.sha }}\n',
    );
    // and a pin file large enough for the scan to cache (4 KiB or more)
    const billing = join(dir, 'packages/system/billing/values.yaml');
    writeFileSync(billing, `${'# billing: values the scan caches\n'.repeat(140)}${readFileSync(billing, 'utf8')}`);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'ci: a release workflow');
    expect((await runCli(['--repo', dir, 'cache', 'clear'])).code).toBe(0);
    const before = await same('cold');
    const stored = entries(cacheDir);
    // scan outcomes, Makefile and workflow reads were kept, and the config (config/kept.ts)
    expect(stored.length).toBeGreaterThanOrEqual(8);
    // base-lint: check at HEAD keeps its tree's lint findings for PRs (or that the work tree is not HEAD's tree); tag-history: the demo's tag pins' introductions
    expect(readdirSync(readdirSync(cacheDir).map((v) => join(cacheDir, v))[0]!).sort()).toEqual(['answer', 'answer-picks', 'base-lint', 'config', 'history', 'make', 'scan', 'snapshot', 'tag-history', 'workflow']);

    // an edit of a pin file and of the Makefile include every package reads
    const values = join(dir, 'packages/system/billing/values.yaml');
    writeFileSync(values, readFileSync(values, 'utf8').replace('v1.0.0', 'v1.0.1'));
    const common = join(dir, 'hack/common-envs.mk');
    writeFileSync(common, `${readFileSync(common, 'utf8')}\nREGISTRY := ghcr.io/acme/elsewhere\n`);
    writeFileSync(join(dir, 'packages/system/billing/Dockerfile'), 'FROM scratch\n');
    const edited = await same('after an edit');
    expect(edited).not.toEqual(before);

    // a new commit
    git(dir, 'commit', '-qam', 'fix(billing): bump the controller (#99)');
    await same('after a new commit');

    // every entry corrupted (one byte flipped), truncated or replaced by another's
    const all = entries(cacheDir);
    all.forEach((f, i) => {
      const bytes = readFileSync(f);
      if (i % 3 === 0) writeFileSync(f, bytes.subarray(0, Math.floor(bytes.length / 2)));
      else if (i % 3 === 1) writeFileSync(f, Buffer.from(bytes.map((b, k) => (k === bytes.length - 2 ? b ^ 0x20 : b))));
      else writeFileSync(f, readFileSync(all[(i + 1) % all.length]!));
    });
    await same('after corrupt entries');
    expect(statSync(cacheDir).isDirectory()).toBe(true);
  }, 180_000);

  it('on the cozystack fixture: stale and check, cold and warm, answer as the goldens', async () => {
    const dir = GOLDEN_REPOS.cozystack.make();
    made.push(dir);
    for (const run of ['cold', 'warm']) {
      for (const command of GOLDEN_REPOS.cozystack.commands) {
        const golden = JSON.parse(readFileSync(new URL(`../stale/golden/cozystack.${command}.json`, import.meta.url), 'utf8')) as unknown;
        const r = await runCli(goldenArgs(command, dir).filter((a) => a !== '--no-cache'));
        expect(r.err, `${run} ${command}`).toBe('');
        expect({ exit: r.code, answer: normalize(JSON.parse(r.out)) }, `${run} ${command}`).toEqual(golden);
      }
    }
    expect(entries(join(dir, '.git', 'pinwatch', 'cache')).length).toBeGreaterThan(10);
  }, 180_000);
});
