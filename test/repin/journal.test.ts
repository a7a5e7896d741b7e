/**
 * The all-or-nothing multi-file write (journal/journal.ts) and its recovery at the
 * start of every scan: a failure part-way leaves every old file; an interrupted
 * journal is rolled forward or back by the next command, which says so; stale
 * pinwatch temp files are removed and reported. Crashed states are built by hand
 * here (the real kills are in kill.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { PinwatchError } from '../../src/errors.js';
import { journalDir, RECOVERY_CODES, tempsInListings, writeFilesTogether } from '../../src/journal/journal.js';
import { isRecoveryNote, isRefProblem } from '../../src/rules/file-rules.js';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';

const APP = 'ghcr.io/acme/app';
const OLD = `sha256:${'a'.repeat(64)}`;
const NEW = `sha256:${'c'.repeat(64)}`;
const A = 'deploy/a/values.yaml';
const B = 'deploy/b/values.yaml';
const oldOf = (f: string) => `# ${f}\nimage: ${APP}:v1.0.0@${OLD}\n`;
const newOf = (f: string) => `# ${f}\nimage: ${APP}:v1.1.0@${NEW}\n`;
const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;
const TEMP = /\.pinwatch-\d+-[0-9a-f]+\.(tmp|bak)$/;

let repo: TestRepo | undefined;
afterEach(() => {
  repo?.cleanup();
  repo = undefined;
});

function twoFiles(): TestRepo {
  repo = makeRepo('pinwatch-journal-');
  repo.commit({ [A]: oldOf(A), [B]: oldOf(B) }, 'initial');
  return repo;
}
const read = (f: string) => readFileSync(join(repo!.dir, f), 'utf8');
const leftovers = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && TEMP.test(e.name) && !join(e.parentPath, e.name).includes('/.git/'))
    .map((e) => e.name);
const deadPid = () => Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
const planned = (dir: string) => [A, B].map((f) => ({ file: f, path: join(dir, f), data: Buffer.from(newOf(f)) }));

describe('writeFilesTogether', () => {
  it('writes every file and leaves no temp file, backup or journal', async () => {
    const r = twoFiles();
    await writeFilesTogether(r.dir, planned(r.dir));
    expect([read(A), read(B)]).toEqual([newOf(A), newOf(B)]);
    expect(leftovers(r.dir)).toEqual([]);
    expect(existsSync(join(await journalDir(r.dir), 'journal.json'))).toBe(false);
  });

  it('disk full on the second temp file: throws write-failed naming it, both old files intact, nothing left', async () => {
    const r = twoFiles();
    let writes = 0;
    const err = await writeFilesTogether(r.dir, planned(r.dir), {
      fs: {
        writeSync: (fd, b, o, l) => {
          if (++writes < 2) return execWrite(fd, b, o, l);
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        },
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PinwatchError);
    expect((err as PinwatchError).code).toBe('write-failed');
    expect((err as Error).message).toMatch(/cannot write ".*deploy\/b\/values\.yaml": ENOSPC: no space left on device/);
    expect([read(A), read(B)]).toEqual([oldOf(A), oldOf(B)]);
    expect(leftovers(r.dir)).toEqual([]);
    expect(existsSync(join(await journalDir(r.dir), 'journal.json'))).toBe(false);
  });

  it('a rename failing after the first file was replaced puts the first back', async () => {
    const r = twoFiles();
    let renames = 0;
    const err = await writeFilesTogether(r.dir, planned(r.dir), {
      fs: {
        renameSync: (a, b) => {
          if (++renames === 2) throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
          renameSync(a, b);
        },
      },
    }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/EIO/);
    expect([read(A), read(B)]).toEqual([oldOf(A), oldOf(B)]);
    expect(leftovers(r.dir)).toEqual([]);
  });

  it('journals under the git dir of a worktree (git rev-parse --absolute-git-dir)', async () => {
    const r = twoFiles();
    const wt = join(r.dir, '..', `${r.dir.split('/').pop()}-wt`);
    r.git('worktree', 'add', '-q', wt);
    try {
      expect(await journalDir(wt)).toBe(join(r.dir, '.git', 'worktrees', wt.split('/').pop()!, 'pinwatch'));
    } finally {
      r.git('worktree', 'remove', '--force', wt);
    }
  });
});

const execWrite = (fd: number, b: Uint8Array, o: number, l: number): number => writeSync(fd, b, o, l);

/** A journal as a killed run leaves it, with the temp files and backups it names. */
async function crashed(dir: string, state: 'prepared' | 'committing', renamed: string[], options: { dropTemp?: string } = {}): Promise<void> {
  const pid = deadPid();
  const entries = [A, B].map((f, i) => ({
    file: f,
    target: join(dir, f),
    temp: join(dir, f, '..', `.values.yaml.pinwatch-${pid}-0000000${i}.tmp`),
    backup: join(dir, f, '..', `.values.yaml.pinwatch-${pid}-1000000${i}.bak`),
    oldHash: sha(oldOf(f)),
    newHash: sha(newOf(f)),
  }));
  for (const e of entries) {
    writeFileSync(e.temp, newOf(e.file));
    linkSync(e.target, e.backup);
  }
  for (const e of entries) if (renamed.includes(e.file)) renameSync(e.temp, e.target);
  for (const e of entries) if (options.dropTemp === e.file && existsSync(e.temp)) execFileSync('rm', [e.temp]);
  const jd = await journalDir(dir);
  mkdirSync(jd, { recursive: true });
  writeFileSync(join(jd, 'journal.json'), JSON.stringify({ version: 1, pid, state, entries }));
}

interface ScanJson {
  problems: { file: string; code: string; reason: string }[];
}

describe('recovery at the start of any command', () => {
  it.each([
    ['scan', ['scan', '--format', 'json']],
    ['lint', ['lint', '--format', 'json']],
    ['check', ['check', '--format', 'json']],
    ['stale', ['stale', '--format', 'json']],
    ['repin --dry-run', ['repin', APP, '--to', `${APP}:v1.2.0@${NEW}`, '--dry-run', '--format', 'json']],
  ])('%s: a committing journal with the first file replaced is rolled forward, and said', async (_, args) => {
    const r = twoFiles();
    await crashed(r.dir, 'committing', [A]);
    const run = await runCli(['--repo', r.dir, ...args]);
    expect(run.code, run.err).not.toBe(2);
    expect([read(A), read(B)]).toEqual([newOf(A), newOf(B)]);
    expect(leftovers(r.dir)).toEqual([]);
    expect(existsSync(join(await journalDir(r.dir), 'journal.json'))).toBe(false);
    expect(run.out).toMatch(/interrupted-write-rolled-forward/);
    expect(run.out).toMatch(/an interrupted write of 2 files \(deploy\/a\/values\.yaml, deploy\/b\/values\.yaml; pinwatch pid \d+\) was completed/);
  });

  it('stale with an answer kept: the look for temp files starts beside the journal\'s recovery, and a temp the journal completed is not said removed again', async () => {
    const r = twoFiles();
    r.commit({ 'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\n' }, 'config');
    const first = await runCli(['--repo', r.dir, 'stale', '--format', 'json', '--fail-on-stale', 'never', '-v']);
    expect(first.err).toMatch(/answer not reused: none kept/);
    await crashed(r.dir, 'committing', [A]);
    const stale = `deploy/a/.values.yaml.pinwatch-${deadPid()}-deadbeef.tmp`;
    writeFileSync(join(r.dir, stale), newOf(A));
    const run = await runCli(['--repo', r.dir, 'stale', '--format', 'json', '--fail-on-stale', 'never', '-v']);
    expect(run.code, run.err).toBe(0);
    const notes = (JSON.parse(run.out) as { notes: string[] }).notes;
    expect(notes.filter((n) => /interrupted-write-rolled-forward/.test(n))).toHaveLength(2);
    // B's temp was listed while the journal renamed it into place: only the dead run's own temp is said removed
    expect(notes.filter((n) => /stale-temp-removed/.test(n))).toEqual([`${stale}: stale-temp-removed: removed ${stale}, a temp file left by an interrupted pinwatch write (pid ${stale.split('-')[1]}); the file it was for was not changed by it`]);
    expect([read(A), read(B)]).toEqual([newOf(A), newOf(B)]);
    expect(leftovers(r.dir)).toEqual([]);
  });

  it("stale with an answer kept and its tree's walk unchanged: a dead run's temp file is found in the walk's listings (no git look), removed and said, and the answer derived again", async () => {
    const r = twoFiles();
    // out/: a folder the scan does not walk (excluded), where a report may be written
    r.commit({ 'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\nexclude: [out/]\n', 'out/README.md': 'reports\n' }, 'config');
    const stale = ['stale', '--format', 'json', '--fail-on-stale', 'never', '-v'];
    await runCli(['--repo', r.dir, ...stale]);
    const reused = await runCli(['--repo', r.dir, ...stale]);
    const quiet = JSON.parse(reused.out) as { stats: { reused?: unknown; gitProcesses: number } };
    expect(quiet.stats.reused, reused.err).toBeDefined();
    // a reused answer's run starts no `git ls-files --others`: its temp files are looked for in the walk's listings
    expect(quiet.stats.gitProcesses).toBe(3);
    const dead = deadPid();
    const temp = `deploy/a/.values.yaml.pinwatch-${dead}-deadbeef.tmp`;
    // in the folder the scan does not walk: only a git look finds it
    const outside = `out/.report.html.pinwatch-${dead}-0badcafe.tmp`;
    writeFileSync(join(r.dir, temp), newOf(A));
    writeFileSync(join(r.dir, outside), '<html>');
    const run = await runCli(['--repo', r.dir, ...stale]);
    expect(run.code, run.err).toBe(0);
    const json = JSON.parse(run.out) as { notes: string[]; stats: { reused?: unknown } };
    expect(json.notes.filter((n) => /stale-temp-removed/.test(n))).toEqual([`${temp}: stale-temp-removed: removed ${temp}, a temp file left by an interrupted pinwatch write (pid ${dead}); the file it was for was not changed by it`]);
    expect(json.stats.reused).toBeUndefined();
    expect(run.err).toMatch(/tree snapshot not used: a killed run's temp files were removed in this run/);
    expect(existsSync(join(r.dir, temp))).toBe(false);
    expect(existsSync(join(r.dir, outside))).toBe(true);
    // the walk changed (a new values file, not committed: a commit would add the temp file to git): git is asked, and
    // finds the one in the excluded folder
    mkdirSync(join(r.dir, 'deploy/c'));
    writeFileSync(join(r.dir, 'deploy/c/values.yaml'), oldOf('deploy/c/values.yaml'));
    const looked = await runCli(['--repo', r.dir, ...stale]);
    expect((JSON.parse(looked.out) as { notes: string[] }).notes.filter((n) => /stale-temp-removed/.test(n))).toEqual([`${outside}: stale-temp-removed: removed ${outside}, a temp file left by an interrupted pinwatch write (pid ${dead}); the file it was for was not changed by it`]);
    expect(existsSync(join(r.dir, outside))).toBe(false);
  });

  it('a prepared journal (nothing replaced yet) is rolled back: old files, temps and backups removed, said', async () => {
    const r = twoFiles();
    await crashed(r.dir, 'prepared', []);
    const run = await runCli(['--repo', r.dir, 'scan', '--format', 'json']);
    const problems = (JSON.parse(run.out) as ScanJson).problems;
    expect(problems.map((p) => [p.file, p.code])).toEqual([
      [A, 'interrupted-write-rolled-back'],
      [B, 'interrupted-write-rolled-back'],
    ]);
    expect([read(A), read(B)]).toEqual([oldOf(A), oldOf(B)]);
    expect(leftovers(r.dir)).toEqual([]);
  });

  it('a committing journal whose pending temp file is gone is rolled back from the backups', async () => {
    const r = twoFiles();
    await crashed(r.dir, 'committing', [A], { dropTemp: B });
    const run = await runCli(['--repo', r.dir, 'scan', '--format', 'json']);
    expect((JSON.parse(run.out) as ScanJson).problems.map((p) => p.code)).toContain('interrupted-write-rolled-back');
    expect([read(A), read(B)]).toEqual([oldOf(A), oldOf(B)]);
    expect(leftovers(r.dir)).toEqual([]);
  });

  it('a file edited since the crash is left as it is and reported as a conflict', async () => {
    const r = twoFiles();
    await crashed(r.dir, 'committing', [A], { dropTemp: B });
    writeFileSync(join(r.dir, A), 'hand edit\n');
    const run = await runCli(['--repo', r.dir, 'scan', '--format', 'json']);
    const problems = (JSON.parse(run.out) as ScanJson).problems;
    expect(problems.find((p) => p.file === A)?.code).toBe('interrupted-write-conflict');
    expect(read(A)).toBe('hand edit\n');
    expect(read(B)).toBe(oldOf(B));
  });

  it('stale pinwatch temp files of a dead process are removed and reported; a live process’s are kept', async () => {
    const r = twoFiles();
    const stale = `deploy/a/.values.yaml.pinwatch-${deadPid()}-deadbeef.tmp`;
    const live = `deploy/b/.values.yaml.pinwatch-${process.ppid}-cafe0001.tmp`;
    writeFileSync(join(r.dir, stale), newOf(A));
    writeFileSync(join(r.dir, live), newOf(B));
    const run = await runCli(['--repo', r.dir, 'scan']);
    expect(run.out).toMatch(new RegExp(`${stale.replace(/\./g, '\\.')} {2}stale-temp-removed: removed ${stale.replace(/\./g, '\\.')}, a temp file left by an interrupted pinwatch write`));
    expect(existsSync(join(r.dir, stale))).toBe(false);
    expect(existsSync(join(r.dir, live))).toBe(true);
    expect([read(A), read(B)]).toEqual([oldOf(A), oldOf(B)]);
  });
});

describe('tempsInListings: the temp files among directory listings (the walk of a tree check)', () => {
  it.each<[string, [string, string[]][], string[]]>([
    ['none', [['/r', ['values.yaml/f', 'deploy/d']]], []],
    ['at the root and below, sorted', [['/r/deploy/a', ['.values.yaml.pinwatch-12-ab.tmp/f', 'values.yaml/f']], ['/r', ['.pinwatch.yaml.pinwatch-3-0f.bak/f']]], ['.pinwatch.yaml.pinwatch-3-0f.bak', 'deploy/a/.values.yaml.pinwatch-12-ab.tmp']],
    ['a directory or a link by that name is no temp file', [['/r', ['.x.pinwatch-1-ab.tmp/d', '.y.pinwatch-1-ab.tmp/l']]], []],
    ['names that only look alike', [['/r', ['x.pinwatch-1-ab.tmp/f', '.x.pinwatch-ab-1.tmp/f', '.x.pinwatch-1-ab.txt/f']]], []],
    ['a name that is not UTF-8 (kept as NUL and base64)', [['/r', ['\0LnguGluLnBpbndhdGNoLTEtYWIudG1w/f']]], []],
    ['a listing outside the root', [['/elsewhere', ['.x.pinwatch-1-ab.tmp/f']]], []],
    ['the same listing twice', [['/r', ['.x.pinwatch-1-ab.tmp/f']], ['/r', ['.x.pinwatch-1-ab.tmp/f']]], ['.x.pinwatch-1-ab.tmp']],
  ])('%s', (_what, listings, want) => {
    expect(tempsInListings('/r', listings)).toEqual(want);
  });
});

describe('a journal of a run that is still alive', () => {
  it('is left alone and reported; a repin meanwhile refuses (exit 2) and writes nothing', async () => {
    const r = twoFiles();
    const jd = await journalDir(r.dir);
    mkdirSync(jd, { recursive: true });
    const entries = [A, B].map((f) => ({ file: f, target: join(r.dir, f), temp: `${join(r.dir, f)}.x`, backup: `${join(r.dir, f)}.y`, oldHash: sha(oldOf(f)), newHash: sha(newOf(f)) }));
    // this test process stands for the live writer
    writeFileSync(join(jd, 'journal.json'), JSON.stringify({ version: 1, pid: process.pid, state: 'committing', entries }));
    const scan = await runCli(['--repo', r.dir, 'scan', '--format', 'json']);
    expect((JSON.parse(scan.out) as ScanJson).problems.map((p) => p.code)).toEqual(['interrupted-write-in-progress']);
    const run = await runCli(['--repo', r.dir, 'repin', APP, '--to', `${APP}:v1.1.0@${NEW}`]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/^pinwatch: \[write-in-progress\] another pinwatch run is writing files of this repository/);
    expect([read(A), read(B)]).toEqual([oldOf(A), oldOf(B)]);
    expect(existsSync(join(jd, 'journal.json'))).toBe(true);
  });
});

describe('recovery notes in lint and check: notes, not findings', () => {
  it('every RECOVERY_CODES code is a recovery note for the rules (not an invalid-ref, not an unparsed-file)', () => {
    for (const code of RECOVERY_CODES) {
      expect(isRecoveryNote({ code }), code).toBe(true);
      expect(isRefProblem({ code, file: 'f', reason: 'r' }), code).toBe(false);
    }
    expect(isRecoveryNote({ code: 'invalid-ref' })).toBe(false);
  });

  it.each([
    ['lint', ['lint']],
    ['lint json', ['lint', '--format', 'json']],
    ['check', ['check']],
    ['check json', ['check', '--format', 'json']],
  ])('%s --fail-on warning after a recovery: exit 0, the recovery said once as a note', async (_, args) => {
    const r = twoFiles();
    r.commit({ 'pinwatch.yaml': 'firstParty: []\n', Makefile: 'build:\n\t@true\n' }, 'config');
    await crashed(r.dir, 'committing', [A]);
    const run = await runCli(['--repo', r.dir, '--fail-on', 'warning', ...args]);
    expect(run.code, run.out + run.err).toBe(0);
    expect([read(A), read(B)]).toEqual([newOf(A), newOf(B)]);
    expect(run.out).not.toMatch(/invalid-ref/);
    const said = run.out.match(new RegExp(`${A.replace(/\./g, '\\.')}: interrupted-write-rolled-forward: an interrupted write of 2 files`, 'g')) ?? [];
    // the JSON of check carries stale's own notes too (its stale block)
    if (!args.includes('json')) expect(said).toHaveLength(1);
    if (args.includes('json')) {
      const body = JSON.parse(run.out) as { findings: { rule: string }[]; notes: string[] };
      expect(body.findings.map((f) => f.rule)).not.toContain('invalid-ref');
      expect(body.notes.filter((n) => n.includes('interrupted-write-rolled-forward'))).toHaveLength(2);
    }
  });
});
