/**
 * Terminal output through the CLI (issue 14 item 7): colour only on a TTY and as
 * NO_COLOR / FORCE_COLOR say, lines cut or wrapped at the TTY's width (COLUMNS or
 * the terminal), full width into a pipe or a file, --quiet and --verbose, and no
 * progress drawn on a stderr that is not a TTY. Real seed repository, the CLI in-process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectStyle, textWidth, truncate, wrap, table } from '../../src/report/style.js';
import { withProgress } from '../../src/cli/terminal.js';
import { runCli } from '../support/io.js';
import { seedRepo } from '../support/seed-tree.js';

const repo = seedRepo();
afterAll(() => repo.cleanup());

const ESC = '\u001b[';
const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
const widest = (s: string) => Math.max(0, ...plain(s).split('\n').map(textWidth));

describe('detectStyle: colour and width from the environment and the terminal', () => {
  it.each([
    ['a TTY', {}, true, 120, { color: true, width: 120 }],
    ['a pipe', {}, false, undefined, { color: false }],
    ['NO_COLOR on a TTY', { NO_COLOR: '1' }, true, 80, { color: false, width: 80 }],
    ['an empty NO_COLOR is unset', { NO_COLOR: '' }, true, 80, { color: true, width: 80 }],
    ['FORCE_COLOR=1 into a pipe (colour, still full width)', { FORCE_COLOR: '1' }, false, undefined, { color: true }],
    ['FORCE_COLOR=3 beats NO_COLOR', { FORCE_COLOR: '3', NO_COLOR: '1' }, true, 80, { color: true, width: 80 }],
    ['FORCE_COLOR=0 on a TTY', { FORCE_COLOR: '0' }, true, 80, { color: false, width: 80 }],
    ['FORCE_COLOR=false on a TTY', { FORCE_COLOR: 'false' }, true, 80, { color: false, width: 80 }],
    ['TERM=dumb', { TERM: 'dumb' }, true, 80, { color: false, width: 80 }],
    ['COLUMNS beats the terminal', { COLUMNS: '100' }, true, 200, { color: true, width: 100 }],
    ['COLUMNS is ignored in a pipe', { COLUMNS: '100' }, false, undefined, { color: false }],
    ['a tiny width is raised to 40', { COLUMNS: '10' }, true, undefined, { color: true, width: 40 }],
    ['a TTY of unknown width', {}, true, undefined, { color: true }],
  ])('%s', (_, env, isTTY, columns, want) => {
    expect(detectStyle(env, { isTTY, ...(columns ? { columns } : {}) })).toEqual(want);
  });
});

describe('truncate, wrap and table', () => {
  it.each([
    ['abcdef', 10, 'abcdef'],
    ['abcdefghijkl', 10, 'abcdefghi…'],
    ['日本語のテキスト', 7, '日本語…'],
    ['exactly10!', 10, 'exactly10!'],
  ])('truncate(%j, %i) = %j', (text, width, want) => {
    expect(truncate(text, width)).toBe(want);
    expect(textWidth(truncate(text, width))).toBeLessThanOrEqual(width);
  });
  it('wrap breaks at spaces with the continuation indented, and cuts a word longer than a line', () => {
    expect(wrap('a.yaml:1: error [r] one two three four five', 20, 4)).toEqual(['a.yaml:1: error [r]', '    one two three', '    four five']);
    expect(wrap(`x ${'y'.repeat(30)}`, 12, 2)).toEqual(['x', '  yyyyyyyyy…']);
  });
  it('a table over the width shrinks its first column, cutting cells with …', () => {
    const rows = [['IMAGE', 'STATUS'], ['a-very-long-image-name-indeed', 'stale'], ['short', 'current']];
    expect(table(rows, { color: false, width: 20 })).toEqual(['IMAGE         STATUS', 'a-very-long…  stale', 'short         current']);
    expect(table(rows)).toEqual(['IMAGE                          STATUS', 'a-very-long-image-name-indeed  stale', 'short                          current']);
  });
});

describe('pinwatch check on a fake TTY', () => {
  it('a 60-column TTY: summary first, colour, no line wider than 60; the same run piped is plain and wider', async () => {
    const tty = await runCli(['--repo', repo.dir, 'check'], { tty: { columns: 60 } });
    const piped = await runCli(['--repo', repo.dir, 'check']);
    expect(tty.code).toBe(piped.code);
    expect(tty.out).toContain(ESC);
    expect(piped.out).not.toContain('\u001b');
    expect(plain(tty.out).split('\n')[0]).toMatch(/^check: \d+ errors?, \d+ warnings?, \d+ notes? in all$/);
    expect(piped.out.split('\n')[0]).toBe(plain(tty.out).split('\n')[0]);
    expect(widest(tty.out)).toBeLessThanOrEqual(60);
    expect(widest(piped.out)).toBeGreaterThan(60);
    expect(plain(tty.out)).toContain('…');
  });

  it('COLUMNS sets the width; NO_COLOR turns colour off on the TTY', async () => {
    const r = await runCli(['--repo', repo.dir, 'check'], { tty: { columns: 200 }, env: { COLUMNS: '72', NO_COLOR: '1' } });
    expect(r.out).not.toContain('\u001b');
    expect(widest(r.out)).toBeLessThanOrEqual(72);
  });

  it('FORCE_COLOR colours a pipe; json never has colour', async () => {
    expect((await runCli(['--repo', repo.dir, 'lint'], { env: { FORCE_COLOR: '1' } })).out).toContain(ESC);
    const json = await runCli(['--repo', repo.dir, '--format', 'json', 'check'], { tty: { columns: 60 }, env: { FORCE_COLOR: '1' } });
    expect(json.out).not.toContain('\u001b');
    JSON.parse(json.out);
  });

  it('--output FILE is plain and full width even on a colour TTY', async () => {
    const file = join(repo.dir, 'out.txt');
    await runCli(['--repo', repo.dir, '--output', file, 'check'], { tty: { columns: 60 }, env: { FORCE_COLOR: '1' } });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('\u001b');
    expect(widest(text)).toBeGreaterThan(60);
  });

  it('--quiet prints the summary only, with the same exit code; --verbose lists more', async () => {
    const normal = await runCli(['--repo', repo.dir, 'check']);
    const quiet = await runCli(['--repo', repo.dir, '--quiet', 'check']);
    const verbose = await runCli(['--repo', repo.dir, 'check', '--verbose']);
    expect(quiet.code).toBe(normal.code);
    expect(verbose.code).toBe(normal.code);
    expect(quiet.out.split('\n')[0]).toBe(normal.out.split('\n')[0]);
    expect(quiet.out).not.toContain('== ');
    expect(quiet.out.split('\n').length).toBeLessThan(12);
    expect(verbose.out.split('\n').length).toBeGreaterThanOrEqual(normal.out.split('\n').length);
    expect(verbose.err).toMatch(/pinwatch: check: reading the history: \d+\.\ds/);
    expect(normal.err).not.toMatch(/reading the history/);
    const lintQuiet = await runCli(['--repo', repo.dir, 'lint', '-q']);
    expect(lintQuiet.out).toMatch(/^pinwatch lint\n\n\d+ findings?: /);
    expect(lintQuiet.out).not.toMatch(/: error \[/);
  });

  it('--quiet with --verbose is a usage error', async () => {
    const r = await runCli(['--repo', repo.dir, '--quiet', '--verbose', 'check']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\[conflicting-options\] --quiet and --verbose/);
  });

  it('no progress drawn on a stderr that is not a TTY', async () => {
    const r = await runCli(['--repo', repo.dir, 'check'], { tty: { columns: 80 } });
    expect(r.err).not.toContain('\r');
  });
});

describe('withProgress', () => {
  const ctx = (stderrIsTTY: boolean, detail: 'quiet' | 'normal' | 'verbose' = 'normal') => {
    const err: string[] = [];
    return { err, ctx: { global: { repo: '/r', firstParty: [], detail }, io: { out: () => {}, err: (t: string) => void err.push(t), env: {}, cwd: '/', stderrIsTTY } } };
  };
  const slow = () => new Promise<number>((r) => setTimeout(() => r(7), 1300));

  it('work over a second on a TTY stderr: one line redrawn, erased at the end', async () => {
    const { err, ctx: c } = ctx(true);
    expect(await withProgress(c, 'check: reading the history', slow)).toBe(7);
    expect(err[0]).toMatch(/^\r\u001b\[2Kpinwatch: check: reading the history… 1s$/);
    expect(err.at(-1)).toBe('\r\u001b[2K');
  });

  it('nothing on a stderr that is not a TTY, nor under --quiet, nor for quick work', async () => {
    for (const [tty, detail, work] of [[false, 'normal', slow], [true, 'quiet', slow], [true, 'normal', async () => 7]] as const) {
      const { err, ctx: c } = ctx(tty, detail);
      await withProgress(c, 'x', work);
      expect(err).toEqual([]);
    }
  });
});
