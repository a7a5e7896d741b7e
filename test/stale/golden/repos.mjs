// The repositories the answers test (test/stale/golden.test.ts) judges, made
// the same way every time (fixed dates and identities, so fixed commit ids):
// two synthetic bench histories (bench/stale/history.mjs, one with release
// branches that cherry-pick fixes) and the shared cozystack fixture committed
// with docs/examples/cozystack.pinwatch.yaml. record.mjs writes the golden
// answers from a given pinwatch build.
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleHistoryStream } from '../../../bench/stale/history.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURE = join(ROOT, '..', 'shared', 'fixtures', 'cozystack-3c780acd4');
const ENV = { ...process.env, GIT_AUTHOR_NAME: 'Golden', GIT_AUTHOR_EMAIL: 'golden@example.test', GIT_COMMITTER_NAME: 'Golden', GIT_COMMITTER_EMAIL: 'golden@example.test', GIT_AUTHOR_DATE: '2026-01-05T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-05T00:00:00Z', GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() };

/** A synthetic bench history (bench/stale/history.mjs with `options`) in a new repository. */
export function fromStream(options) {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-golden-'));
  execFileSync('git', ['init', '-q', '-b', 'main', dir], { env: ENV });
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: staleHistoryStream(options), env: ENV, maxBuffer: 1 << 28 });
  execFileSync('git', ['reset', '-q', '--hard', 'main'], { cwd: dir, env: ENV });
  return dir;
}

function cozystack() {
  if (!existsSync(join(FIXTURE, 'packages'))) throw new Error(`the cozystack fixture is missing: expected ${FIXTURE}`);
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-golden-coz-'));
  cpSync(FIXTURE, dir, { recursive: true });
  cpSync(join(ROOT, 'docs', 'examples', 'cozystack.pinwatch.yaml'), join(dir, 'pinwatch.yaml'));
  const git = (...args) => execFileSync('git', args, { cwd: dir, env: ENV });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'cozystack at 3c780acd4 (fixture)');
  return dir;
}

/** name → how to make it, and the commands whose JSON answers are compared. */
export const GOLDEN_REPOS = {
  'bench-picks': { make: () => fromStream({ images: 12, commits: 400, releaseEvery: 60, picks: true }), commands: ['stale', 'check'] },
  'bench-plain': { make: () => fromStream({ images: 20, commits: 300, releaseEvery: 100 }), commands: ['stale', 'check'] },
  cozystack: { make: cozystack, commands: ['stale', 'check'] },
};

/** The arguments of one command, JSON out, no cache, never failing on staleness. */
export function goldenArgs(command, dir) {
  return [command, '--repo', dir, '--format', 'json', '--no-cache', ...(command === 'stale' ? ['--fail-on-stale', 'never'] : [])];
}

/** The answer without what varies run to run: version, timings, process counts, ages against the clock. */
export function normalize(json) {
  const strip = (v) => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object') {
      const out = {};
      for (const [k, x] of Object.entries(v)) if (!['version', 'stats', 'timings', 'gitProcesses', 'ageDays', 'generatedAt'].includes(k)) out[k] = strip(x);
      return out;
    }
    return v;
  };
  return strip(json);
}
