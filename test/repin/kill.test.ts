/**
 * repin is all-or-nothing even under `kill -9`: a real `node bin/pinwatch.js repin`
 * child moving a lockstep pair (packages/app/values.yaml and images/app.tag) is
 * killed at random moments of its life, 100 times; then a plain `pinwatch scan`
 * runs. Every time both files are wholly old or wholly new, no pinwatch temp file
 * or journal is left, and a recovered journal is reported. A second set of kills
 * lands between the two renames for sure (the PINWATCH_TEST_RENAME_PAUSE_MS hook),
 * in addition to the random ones. Needs the built package (npm test builds it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';
import { LOCKSTEP_MAKEFILES } from '../support/lockstep.js';

const APP = 'ghcr.io/acme/app';
const OLD = `sha256:${'a'.repeat(64)}`;
const OLDER = `sha256:${'b'.repeat(64)}`;
const NEW = `sha256:${'c'.repeat(64)}`;
const BIN = join(process.cwd(), 'bin', 'pinwatch.js');
const VALUES = 'packages/app/values.yaml';
const TAG = 'packages/app/images/app.tag';
const TEMP = /\.pinwatch-\d+-[0-9a-f]+\.(tmp|bak)$/;
const LANES = 4;
const RANDOM_KILLS = 100;
const HOOKED_KILLS = 8;

const OLD_FILES = {
  [VALUES]: `app:\n  image: ${APP}:v1.0.0@${OLD}\nbackup:\n  # stamped together with app.image\n  clientImage: ghcr.io/acme/app-legacy:v0.9@${OLDER}\n${'# padding, so writing takes a while\n'.repeat(2000)}`,
  [TAG]: `${APP}:v1.0.0@${OLD}\n`,
};
const NEW_FILES = {
  [VALUES]: OLD_FILES[VALUES].replace(`${APP}:v1.0.0@${OLD}`, `${APP}:v1.1.0@${NEW}`).replace(`ghcr.io/acme/app-legacy:v0.9@${OLDER}`, `${APP}:v1.1.0@${NEW}`),
  [TAG]: `${APP}:v1.1.0@${NEW}\n`,
};

function lockstepRepo(): TestRepo {
  const repo = makeRepo('pinwatch-kill-');
  repo.commit(
    {
      ...LOCKSTEP_MAKEFILES,
      ...OLD_FILES,
    },
    'initial',
  );
  return repo;
}

/** Seeded, so a failure names the run that reproduces it. */
function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

interface Child {
  exited: Promise<number | null>;
  kill(): void;
}

function startRepin(dir: string, env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, [BIN, '--repo', dir, '--first-party', 'ghcr.io/acme/', 'repin', APP, '--to', `${APP}:v1.1.0@${NEW}`], {
    stdio: 'ignore',
    env: { ...process.env, ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { exited, kill: () => void child.kill('SIGKILL') };
}

function tempFiles(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    if (e.name === '.git') return [];
    const path = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? tempFiles(dir, path) : TEMP.test(e.name) ? [path] : [];
  });
}

const journalOf = (dir: string) => join(dir, '.git', 'pinwatch', 'journal.json');

function stateOf(dir: string): 'old' | 'new' | string {
  const v = readFileSync(join(dir, VALUES), 'utf8');
  const t = readFileSync(join(dir, TAG), 'utf8');
  if (v === OLD_FILES[VALUES] && t === OLD_FILES[TAG]) return 'old';
  if (v === NEW_FILES[VALUES] && t === NEW_FILES[TAG]) return 'new';
  return `mixed: values.yaml ${v === OLD_FILES[VALUES] ? 'old' : v === NEW_FILES[VALUES] ? 'new' : `${v.length} bytes of neither`}, app.tag ${JSON.stringify(t)}`;
}

interface Outcome {
  state: string;
  journal: boolean;
  temps: number;
  codes: string[];
}

/** After a kill: a plain `pinwatch scan`, then what it found and what it left. */
async function scanAfter(repo: TestRepo, label: string): Promise<Outcome> {
  const journal = existsSync(journalOf(repo.dir));
  const temps = tempFiles(repo.dir).length;
  const scan = await runCli(['--repo', repo.dir, 'scan', '--format', 'json']);
  expect(scan.code, `${label}: ${scan.err}`).toBe(0);
  const codes = (JSON.parse(scan.out) as { problems: { file: string; code: string }[] }).problems.map((p) => p.code);
  const outcome: Outcome = { state: stateOf(repo.dir), journal, temps, codes };
  expect(outcome.state, label).toMatch(/^(old|new)$/);
  expect(tempFiles(repo.dir), label).toEqual([]);
  expect(existsSync(journalOf(repo.dir)), label).toBe(false);
  if (journal) expect(codes.some((c) => /^interrupted-write-rolled-(forward|back)$/.test(c)), `${label}: the recovery is reported: ${codes.join(', ')}`).toBe(true);
  if (temps > 0) expect(codes.some((c) => /^(interrupted-write-rolled-|stale-temp-removed)/.test(c)), `${label}: the removed temp files are reported`).toBe(true);
  // the next kill starts from the old files again
  repo.write(OLD_FILES);
  return outcome;
}

const repos: TestRepo[] = [];
beforeAll(() => {
  for (let i = 0; i < LANES; i++) repos.push(lockstepRepo());
});
afterAll(() => repos.forEach((r) => r.cleanup()));

describe('repin under kill -9 (real child processes)', () => {
  it(`${RANDOM_KILLS} kills at random moments: after a plain scan, both files are wholly old or wholly new, nothing left behind`, async () => {
    const seed = Number(process.env.PINWATCH_KILL_SEED ?? Date.now() % 1_000_000);
    const random = prng(seed);
    // how long a whole run takes here, with every lane busy, so kill times spread over all of it
    const lifetimes = await Promise.all(
      repos.map(async (repo) => {
        const t0 = Date.now();
        expect(await startRepin(repo.dir).exited).toBe(0);
        expect(stateOf(repo.dir)).toBe('new');
        repo.write(OLD_FILES);
        return Date.now() - t0;
      }),
    );
    const lifetime = Math.max(...lifetimes);

    const outcomes: Outcome[] = [];
    let next = 0;
    await Promise.all(
      repos.map(async (repo) => {
        while (next < RANDOM_KILLS) {
          const n = next++;
          const at = Math.floor(random() * lifetime * 1.25);
          const child = startRepin(repo.dir);
          const timer = setTimeout(() => child.kill(), at);
          await child.exited;
          clearTimeout(timer);
          outcomes.push(await scanAfter(repo, `seed ${seed}, kill ${n} at ${at} ms of ~${lifetime} ms`));
        }
      }),
    );
    expect(outcomes).toHaveLength(RANDOM_KILLS);
    // both ends of the lifetime were hit: some runs killed before writing, some finished
    expect(outcomes.some((o) => o.state === 'old')).toBe(true);
  }, 120_000);

  it(`${HOOKED_KILLS} kills between the two renames: the next scan rolls the repin forward and says so`, async () => {
    const repo = repos[0]!;
    for (let n = 0; n < HOOKED_KILLS; n++) {
      const child = startRepin(repo.dir, { PINWATCH_TEST_RENAME_PAUSE_MS: '20000' });
      // wait until the first rename happened (one file new, the other old), then kill
      for (let waited = 0; ; waited += 10) {
        const first = readFileSync(join(repo.dir, TAG), 'utf8');
        if (first === NEW_FILES[TAG]) break;
        if (waited > 15_000) throw new Error('the child never reached its first rename');
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(readFileSync(join(repo.dir, VALUES), 'utf8')).toBe(OLD_FILES[VALUES]);
      child.kill();
      await child.exited;
      const o = await scanAfter(repo, `hooked kill ${n}`);
      expect(o.journal).toBe(true);
      expect(o.state).toBe('new');
      expect(o.codes).toContain('interrupted-write-rolled-forward');
    }
  }, 120_000);

  it('the recovery is a visible line of the text report', async () => {
    const repo = repos[1]!;
    const child = startRepin(repo.dir, { PINWATCH_TEST_RENAME_PAUSE_MS: '20000' });
    while (readFileSync(join(repo.dir, TAG), 'utf8') !== NEW_FILES[TAG]) await new Promise((r) => setTimeout(r, 10));
    child.kill();
    await child.exited;
    const scan = await runCli(['--repo', repo.dir, 'scan']);
    expect(scan.out).toMatch(/packages\/app\/values\.yaml {2}interrupted-write-rolled-forward: an interrupted write of 2 files \(packages\/app\/images\/app\.tag, packages\/app\/values\.yaml; pinwatch pid \d+\) was completed/);
    expect(stateOf(repo.dir)).toBe('new');
    expect(tempFiles(repo.dir)).toEqual([]);
    repo.write(OLD_FILES);
  });
});
