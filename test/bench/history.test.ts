/**
 * The stale benches' synthetic history generator (bench/stale/history.mjs):
 * structure only, never time. The streams the answers test
 * (test/stale/golden.test.ts) was recorded on stay byte for byte the same, and
 * `releasesFrom` (bench/limits.mjs's "images built from the last 500 commits")
 * makes the same commits every time, touches no pin file before it and
 * restamps every image after it.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { staleHistoryStream } from '../../bench/stale/history.mjs';

const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() };
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function repoOf(stream: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-history-'));
  made.push(dir);
  execFileSync('git', ['init', '-q', '-b', 'main', dir], { env: ENV });
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: stream, env: ENV, maxBuffer: 1 << 28 });
  return dir;
}
const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, env: ENV, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('bench/stale/history.mjs', () => {
  it.each([
    // the answers test's two histories (test/stale/golden/repos.mjs) and stale-bench's default
    [{ images: 12, commits: 400, releaseEvery: 60, picks: true }, 'ace73bad3991abc04f551001584786df500f75bcc148f2f88fdd1e3e9b2d7a1f'],
    [{ images: 20, commits: 300, releaseEvery: 100 }, 'cab81cefe8e540ba9e96ed6b1fe9f3e184bc9b7a9d12db649442aa7b2f1d2aa8'],
    [{}, '8afde5d2b9f3e8fbaff360231f8b03ba8359d332bfe2df2d7b674f5b4ad352d6'],
  ])('stream %j is the one the answers were recorded on', (options, hash) => {
    expect(sha256(staleHistoryStream(options))).toBe(hash);
  });

  it('releasesFrom: same commit ids twice, no pin file touched before it, every image restamped after it', () => {
    const options = { images: 6, commits: 600, releaseEvery: 50, releasesFrom: 500 };
    const a = repoOf(staleHistoryStream(options));
    const b = repoOf(staleHistoryStream(options));
    expect(git(a, 'rev-parse', 'main')).toBe(git(b, 'rev-parse', 'main'));
    const commits = Number(git(a, 'rev-list', '--count', 'main'));
    expect(commits).toBeGreaterThanOrEqual(600);
    // commits that touch a pin file, oldest first: the initial images, then only releases in the last 100 or so
    const touching = git(a, 'log', '--reverse', '--format=%H %s', 'main', '--', 'charts').split('\n');
    expect(touching[0]).toMatch(/ initial images$/);
    const releases = touching.slice(1);
    expect(releases.length).toBeGreaterThan(0);
    expect(releases.every((l) => / Prepare release v0\.\d+\.0$/.test(l))).toBe(true);
    const tail = new Set(git(a, 'rev-list', '--max-count', String(commits - 500), 'main').split('\n'));
    expect(releases.every((l) => tail.has(l.split(' ')[0]))).toBe(true);
    // the first release stamps every image
    const firstRelease = releases[0].split(' ')[0];
    const stamped = git(a, 'diff-tree', '--no-commit-id', '--name-only', '-r', firstRelease).split('\n');
    expect(stamped.sort()).toEqual(Array.from({ length: options.images }, (_, i) => `charts/img${i}/values.yaml`).sort());
  });
});
