/**
 * The joined history (src/git/history-join.ts): from kept commit records and the
 * commits git has that they lack, the same commits in the same order with the
 * same records as one plain raw pass — after new commits, a merge of an old
 * side branch (older dates than the kept tip's history), a rewritten tip (the
 * kept tip no longer an ancestor), a kept tip that does not exist, a tampered
 * record, records that end before the walk does, and a shallow clone. And the
 * stale answers on the bench histories are the same from the cache's records,
 * window grown a few commits at a time, as with --no-cache; also in a clone made
 * afresh at another path with the cache restored into it (kept records are the
 * root's place in its work tree, not the folder it is checked out in).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HistoryStream, type HistoryCommit } from '../../src/git/history.js';
import { historyRewriters, JoinedHistory } from '../../src/git/history-join.js';
import { runCli } from '../support/io.js';
import { configureCache } from '../../src/cache/index.js';
import { loadConfig } from '../../src/config/load.js';
import { staleReport } from '../../src/stale/repo.js';
import { GOLDEN_REPOS, normalize } from '../stale/golden/repos.mjs';
import { historyKey } from '../../src/stale/window.js';

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

let clock = Date.parse('2026-01-01T00:00:00Z') / 1000;
function git(dir: string, ...args: string[]): string {
  clock += 3600;
  const at = `${clock} +0000`;
  return execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.test', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.test', GIT_AUTHOR_DATE: at, GIT_COMMITTER_DATE: at },
  }).trim();
}

/** Remove the answers stale/reuse.ts kept (every version folder's `answer` namespace). */
function forgetAnswers(dir: string): void {
  const root = join(dir, '.git', 'pinwatch', 'cache');
  let versions: string[] = [];
  try {
    versions = readdirSync(root);
  } catch {
    return;
  }
  for (const v of versions) rmSync(join(root, v, 'answer'), { recursive: true, force: true });
}

function commit(dir: string, file: string, text: string, message: string): string {
  writeFileSync(join(dir, file), text);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', message);
  return git(dir, 'rev-parse', 'HEAD');
}

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-join-'));
  made.push(dir);
  git(dir, 'init', '-q', '-b', 'main');
  for (let i = 0; i < 30; i++) commit(dir, `f${i % 4}.txt`, `v${i}\n`, `c${i}`);
  return dir;
}

const plain = (dir: string) => HistoryStream.start(dir, ['HEAD']).all();
const keptOf = (records: HistoryCommit[]) => new Map(records.map((c) => [c.sha, c]));

async function joined(dir: string, records: HistoryCommit[], tip: string, lastRead = 0, grow?: number[]) {
  const j = new JoinedHistory(dir, 'HEAD', keptOf(records), tip, lastRead);
  for (const n of grow ?? []) await j.grow(n);
  const all = await j.all();
  return { all, stats: j.stats, processes: j.processes() };
}

describe('the joined history equals one raw pass', () => {
  it('after new commits, a merge of an old side branch, a rewritten tip, a missing tip, a tampered record and records that end early', async () => {
    const dir = repo();
    const before = await plain(dir);
    const tip = before[0]!.sha;
    // an old side branch, merged after new commits on main
    git(dir, 'checkout', '-q', '-b', 'side', before[20]!.sha);
    commit(dir, 'side.txt', 'side\n', 'side work');
    git(dir, 'checkout', '-q', 'main');
    commit(dir, 'f1.txt', 'new\n', 'new on main');
    git(dir, 'merge', '-q', '--no-ff', '-m', 'merge side', 'side');
    const after = await plain(dir);
    const warm = await joined(dir, before, tip, before.length);
    expect(warm.all).toEqual(after);
    expect(warm.stats).toEqual({ kept: before.length, fresh: after.length - before.length });
    expect(warm.processes).toBe(2);

    // the window's first check: where the last run stopped, plus the commits no run had read (3 here)
    const resume = async (records: HistoryCommit[], t: string, lastRead: number) => {
      const j = new JoinedHistory(dir, 'HEAD', keptOf(records), t, lastRead);
      try {
        return await j.resumeAt();
      } finally {
        j.stop();
      }
    };
    expect(await resume(before, tip, before.length)).toBe(after.length);
    expect(await resume(before, tip, 12)).toBe(15);
    // no kept length, or a fall-back to the plain pass: the window checks as a cold run does
    expect(await resume(before, tip, 0)).toBeUndefined();
    expect(await resume(before, 'f'.repeat(40), before.length)).toBeUndefined();

    // grown a little at a time, it stops where asked (pauses at the last run's length) and ends the same
    const stepped = await joined(dir, before, tip, before.length, [1, 2, 5, 40]);
    expect(stepped.all).toEqual(after);

    // records that end before the walk does: the rest is read plainly, from the start
    const partial = await joined(dir, before.slice(0, 10), tip, 10);
    expect(partial.all).toEqual(after);
    expect(partial.stats.fellBack).toMatch(/older than any kept record/);
    expect(partial.processes).toBe(3);

    // a tampered record (another parent): never joined
    const tampered = before.map((c, i) => (i === 5 ? { ...c, parentShas: [before[7]!.sha] } : c));
    const t = await joined(dir, tampered, tip);
    expect(t.all).toEqual(after);
    expect(t.stats.fellBack).toMatch(/has other parents than the walk/);

    // a kept tip that no longer exists (rewritten and collected): read plainly
    const missing = await joined(dir, before, 'f'.repeat(40));
    expect(missing.all).toEqual(after);
    expect(missing.stats.fellBack).toMatch(/could not be read against the kept tip/);

    // the tip rewritten (amended): the kept tip is no ancestor, the records still join
    git(dir, 'commit', '-q', '--amend', '-m', 'merge side (amended)');
    const rewritten = await plain(dir);
    const r = await joined(dir, after, after[0]!.sha, after.length);
    expect(r.all).toEqual(rewritten);
  });

  it('kept records are not trusted where replace refs, grafts or a reftable can show other trees under the same ids', () => {
    const dir = repo();
    const gitDir = join(dir, '.git');
    expect(historyRewriters(dir, {})).toBeUndefined();
    expect(historyRewriters(join(dir, 'sub', 'dir'), {})).toBeUndefined(); // the git dir is found above
    expect(historyRewriters(dir, { GIT_REPLACE_REF_BASE: 'refs/other/' })).toBe('GIT_REPLACE_REF_BASE is set');
    expect(historyRewriters(dir, { GIT_DIR: gitDir })).toBe('GIT_DIR is set');
    const [a, b] = git(dir, 'rev-list', '-2', 'HEAD').split('\n') as [string, string];
    git(dir, 'replace', a, b);
    expect(historyRewriters(dir, {})).toBe('it has replace refs');
    git(dir, 'pack-refs', '--all');
    expect(readdirSync(join(gitDir, 'refs', 'replace'))).toEqual([]);
    expect(historyRewriters(dir, {})).toBe('it has replace refs'); // packed
    git(dir, 'replace', '-d', a);
    expect(historyRewriters(dir, {})).toBeUndefined();
    mkdirSync(join(gitDir, 'info'), { recursive: true });
    writeFileSync(join(gitDir, 'info', 'grafts'), `${a}\n`);
    expect(historyRewriters(dir, {})).toBe('it has info/grafts');
    rmSync(join(gitDir, 'info', 'grafts'));
    mkdirSync(join(gitDir, 'reftable'));
    expect(historyRewriters(dir, {})).toBe('its refs are in a reftable');
    rmSync(join(gitDir, 'reftable'), { recursive: true });
    expect(historyRewriters(mkdtempSync(join(tmpdir(), 'pinwatch-nogit-')), {})).toBe('no git dir found above the root');
  });

  it('stale after a replace ref gives an old commit another tree (same header) answers as --no-cache: no kept record is joined', async () => {
    const dir = GOLDEN_REPOS['bench-plain'].make();
    made.push(dir);
    const args = ['--repo', dir, 'stale', '--format', 'json', '--fail-on-stale', 'never'];
    const run = async (extra: string[]) => {
      const r = await runCli([...args, ...extra]);
      return { answer: normalize(JSON.parse(r.out)), err: r.err };
    };
    await run([]); // fills the cache
    // an old commit replaced by one with the same parents, dates and message over a tree with one more file in
    // img0's sources: it and its child show other raw entries under the same ids, and img0 one more unshipped change
    const old = git(dir, 'log', '-1', '--format=%H', '--skip=1', 'HEAD');
    const fields = git(dir, 'log', '-1', '--format=%an%x00%ae%x00%aD%x00%cn%x00%ce%x00%cD%x00%P%x00%B', old).split('\0');
    const [an, ae, ad, cn, ce, cd, parents, ...body] = fields as string[];
    const index = join(dir, '.git', 'pinwatch-test-index');
    const withIndex = { ...process.env, GIT_INDEX_FILE: index };
    execFileSync('git', ['read-tree', old], { cwd: dir, env: withIndex });
    const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, input: 'replaced\n', encoding: 'utf8' }).trim();
    execFileSync('git', ['update-index', '--add', '--cacheinfo', `100644,${blob},src/img0/pinwatch-replaced.txt`], { cwd: dir, env: withIndex });
    const tree = execFileSync('git', ['write-tree'], { cwd: dir, env: withIndex, encoding: 'utf8' }).trim();
    rmSync(index);
    const replacement = execFileSync('git', ['commit-tree', tree, ...(parents ? parents.split(' ').flatMap((p) => ['-p', p]) : [])], {
      cwd: dir,
      input: body.join('\0'),
      env: { ...process.env, GIT_AUTHOR_NAME: an, GIT_AUTHOR_EMAIL: ae, GIT_AUTHOR_DATE: ad, GIT_COMMITTER_NAME: cn, GIT_COMMITTER_EMAIL: ce, GIT_COMMITTER_DATE: cd },
      encoding: 'utf8',
    }).trim();
    const before = await run(['--no-cache']);
    git(dir, 'replace', old, replacement);
    const warm = await run(['-v']);
    expect(warm.answer).not.toEqual(before.answer); // the replacement changes the answer
    expect(warm.answer).toEqual((await run(['--no-cache'])).answer);
    expect(warm.err).toMatch(/history: no commit records kept or joined: it has replace refs\n/);
    expect(warm.err).not.toMatch(/from kept records/);
  }, 120_000);

  it('in a shallow clone, records kept from the full clone are not joined across its boundary', async () => {
    const dir = repo();
    const full = await plain(dir);
    const shallow = mkdtempSync(join(tmpdir(), 'pinwatch-join-shallow-'));
    made.push(shallow);
    execFileSync('git', ['clone', '-q', '--depth', '5', `file://${dir}`, shallow]);
    const expected = await plain(shallow);
    expect(expected.length).toBe(5);
    const j = await joined(shallow, full, full[0]!.sha, full.length);
    expect(j.all).toEqual(expected);
    expect(j.stats.fellBack).toMatch(/has other parents than the walk/);
  });

  for (const name of ['bench-picks', 'bench-plain'] as const) {
    it(`stale on ${name} answers the same from kept records (cold, warm, after a commit) as with --no-cache`, async () => {
      const dir = GOLDEN_REPOS[name].make();
      made.push(dir);
      const args = ['--repo', dir, 'stale', '--format', 'json', '--fail-on-stale', 'never'];
      const run = async (extra: string[]) => {
        // the kept answer is forgotten: these runs are about the kept history records under it (stale/reuse.ts would answer first)
        forgetAnswers(dir);
        const r = await runCli([...args, ...extra]);
        return { exit: r.code, answer: normalize(JSON.parse(r.out)), err: r.err };
      };
      const reference = await run(['--no-cache']);
      expect((await run([])).answer).toEqual(reference.answer);
      const warm = await run(['-v']);
      expect(warm.answer).toEqual(reference.answer);
      expect(warm.err).toMatch(/history: \d+ commit\(s\) from kept records, 0 read from git\n/);
      // the pin files' digest changes come from the kept entry: no blob is read again
      expect(warm.err).toMatch(/history: [1-9]\d* digest change\(s\) of pin files kept, 0 worked out from blobs\n/);
      commit(dir, 'pinwatch-new.txt', 'one\n', 'chore: one new commit');
      const after = await run(['-v']);
      expect(after.answer).toEqual((await run(['--no-cache'])).answer);
      expect(after.err).toMatch(/history: \d+ commit\(s\) from kept records, 1 read from git\n/);
      expect(after.err).toMatch(/history: [1-9]\d* digest change\(s\) of pin files kept, 0 worked out from blobs\n/);
      // the new commits go into a small delta on top of the entry: the entry itself is not written again
      const historyDir = join(dir, '.git', 'pinwatch', 'cache', readdirSync(join(dir, '.git', 'pinwatch', 'cache'))[0]!, 'history');
      const sizes = () => readdirSync(historyDir).map((f) => statSync(join(historyDir, f)).size).sort((a, b) => a - b);
      const [deltaBytes, entryBytes] = sizes() as [number, number];
      expect(sizes()).toHaveLength(2);
      expect(deltaBytes).toBeLessThan(entryBytes);
      const entry = readdirSync(historyDir).find((f) => statSync(join(historyDir, f)).size === entryBytes)!;
      const entryText = readFileSync(join(historyDir, entry));
      commit(dir, 'pinwatch-new.txt', 'two\n', 'chore: another new commit');
      const second = await run(['-v']);
      expect(second.answer).toEqual((await run(['--no-cache'])).answer);
      expect(second.err).toMatch(/history: \d+ commit\(s\) from kept records, 1 read from git\n/);
      expect(readFileSync(join(historyDir, entry)).equals(entryText)).toBe(true);
      expect(sizes()[0]).toBeGreaterThan(deltaBytes);
    }, 120_000);
  }

  it('kept records are keyed by the root\'s place in its work tree: one key for clones at other paths and worktrees, another for a subdirectory root', () => {
    const dir = repo();
    const elsewhere = mkdtempSync(join(tmpdir(), 'pinwatch-join-elsewhere-'));
    made.push(elsewhere);
    execFileSync('git', ['clone', '-q', dir, join(elsewhere, 'checkout')]);
    mkdirSync(join(dir, 'deploy'));
    const tree = join(elsewhere, 'worktree');
    git(dir, 'worktree', 'add', '-q', '--detach', tree);
    expect(historyKey(join(elsewhere, 'checkout'))).toBe(historyKey(dir));
    expect(historyKey(tree)).toBe(historyKey(dir));
    expect(historyKey(dir, true)).not.toBe(historyKey(dir));
    // a root below the top: raw paths are relative to it, so its records are its own
    expect(historyKey(join(dir, 'deploy'))).not.toBe(historyKey(dir));
    expect(historyKey(join(dir, 'deploy'))).toBe(JSON.stringify(['commits', ['in work tree', 'deploy']]));
    // no work tree found: the real root, as before
    const bare = mkdtempSync(join(tmpdir(), 'pinwatch-join-none-'));
    made.push(bare);
    expect(historyKey(bare)).toBe(JSON.stringify(['commits', realpathSync(bare)]));
    // GIT_WORK_TREE moves git's top: the real root
    process.env.GIT_WORK_TREE = dir;
    try {
      expect(historyKey(join(dir, 'deploy'))).toBe(JSON.stringify(['commits', realpathSync(join(dir, 'deploy'))]));
    } finally {
      delete process.env.GIT_WORK_TREE;
    }
  });

  it('a clone made afresh at another path with the cache restored (a CI workspace whose path changes) joins the kept records and answers as --no-cache', async () => {
    const dir = GOLDEN_REPOS['bench-plain'].make();
    made.push(dir);
    const args = (d: string) => ['--repo', d, 'stale', '--format', 'json', '--fail-on-stale', 'never'];
    const first = await runCli([...args(dir), '-v']);
    expect(first.err).not.toMatch(/from kept records/);
    const elsewhere = mkdtempSync(join(tmpdir(), 'pinwatch-join-moved-'));
    made.push(elsewhere);
    const moved = join(elsewhere, 'checkout');
    execFileSync('git', ['clone', '-q', dir, moved]);
    for (const f of execFileSync('git', ['ls-files', '-z', '--others', '--exclude-standard'], { cwd: dir, encoding: 'utf8' }).split('\0').filter((f) => f && !f.startsWith('.git/'))) {
      mkdirSync(join(moved, f, '..'), { recursive: true });
      cpSync(join(dir, f), join(moved, f));
    }
    cpSync(join(dir, '.git', 'pinwatch'), join(moved, '.git', 'pinwatch'), { recursive: true });
    commit(moved, 'pinwatch-new.txt', 'one\n', 'chore: one new commit');
    const run = async (extra: string[]) => {
      const r = await runCli([...args(moved), ...extra]);
      return { answer: normalize(JSON.parse(r.out)), err: r.err };
    };
    const reference = await run(['--no-cache']);
    const cached = await run(['-v']);
    expect(cached.answer).toEqual(reference.answer);
    // the tree snapshot is the old path's (nothing kept here), the commit records are shared
    expect(cached.err).toMatch(/none kept for this checkout path/);
    expect(cached.err).toMatch(/history: \d+ commit\(s\) from kept records, 1 read from git\n/);
    expect(cached.err).toMatch(/history: [1-9]\d* digest change\(s\) of pin files kept, 0 worked out from blobs\n/);
  }, 120_000);

  it('stale from kept records, the window grown 1, 7 and 40 commits at a time, answers as the whole history does', async () => {
    const dir = GOLDEN_REPOS['bench-picks'].make();
    made.push(dir);
    const config = loadConfig(dir);
    const now = new Date('2026-03-01T00:00:00Z');
    // `after` may be the answer kept before, reused (stale/reuse.ts): `reused` is a per-run stat too
    const strip = (r: Awaited<ReturnType<typeof staleReport>>) => ({ ...r, gitProcesses: 0, timings: {}, history: undefined, reused: undefined });
    const whole = await staleReport(dir, config, { now });
    let after: Awaited<ReturnType<typeof staleReport>>;
    configureCache({ enabled: true, env: {} });
    try {
      await staleReport(dir, config, { now }); // keeps the records
      commit(dir, 'pinwatch-new.txt', 'one\n', 'chore: one new commit');
      after = await staleReport(dir, config, { now });
      for (const step of [1, 7, 40]) {
        const stepped = await staleReport(dir, config, { now, windowStep: step });
        expect(strip(stepped), `step ${step}`).toEqual(strip(after));
        expect(stepped.history, `step ${step}`).toMatchObject({ whole: false });
      }
    } finally {
      configureCache({ enabled: false });
    }
    expect(strip(await staleReport(dir, config, { now }))).toEqual(strip(after));
    expect(whole.images.length).toBeGreaterThan(0);
  }, 120_000);
});
