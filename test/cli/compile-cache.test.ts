/**
 * The compile cache (src/cli/compile-cache.ts): where it is, its entries' bytes,
 * what is pruned, and the chunk loader in real Node processes (real V8 code
 * caches: kept, used, refused for another source or other V8 flags), then the
 * bin with it on, off and unwritable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileCachePlace, decodeCompileEntry, encodeCompileEntry, entriesToPrune, folderIsOwn, MAX_ENTRIES } from '../../src/cli/compile-cache.js';
import { buildDemoRepo } from '../../src/demo/build.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pinwatch-compile-cache-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('compileCachePlace', () => {
  it.each([
    ['the default: XDG_CACHE_HOME', { XDG_CACHE_HOME: '/x', HOME: '/h' }, { dir: '/x/pinwatch/compile', source: 'xdg' }],
    ['HOME when XDG_CACHE_HOME is unset', { HOME: '/h' }, { dir: '/h/.cache/pinwatch/compile', source: 'xdg' }],
    ['HOME when XDG_CACHE_HOME is relative (the XDG spec: ignored)', { XDG_CACHE_HOME: 'rel', HOME: '/h' }, { dir: '/h/.cache/pinwatch/compile', source: 'xdg' }],
    ['PINWATCH_COMPILE_CACHE, a folder', { PINWATCH_COMPILE_CACHE: '/c', HOME: '/h' }, { dir: '/c', source: 'env' }],
    ['PINWATCH_COMPILE_CACHE empty: the default', { PINWATCH_COMPILE_CACHE: '', HOME: '/h' }, { dir: '/h/.cache/pinwatch/compile', source: 'xdg' }],
    ['PINWATCH_COMPILE_CACHE=0', { PINWATCH_COMPILE_CACHE: '0', HOME: '/h' }, { off: 'PINWATCH_COMPILE_CACHE=0' }],
    ['PINWATCH_COMPILE_CACHE=off', { PINWATCH_COMPILE_CACHE: 'OFF', HOME: '/h' }, { off: 'PINWATCH_COMPILE_CACHE=OFF' }],
    ['PINWATCH_COMPILE_CACHE=false', { PINWATCH_COMPILE_CACHE: 'false' }, { off: 'PINWATCH_COMPILE_CACHE=false' }],
    ['PINWATCH_COMPILE_CACHE relative', { PINWATCH_COMPILE_CACHE: 'cache', HOME: '/h' }, { off: 'PINWATCH_COMPILE_CACHE is not an absolute path (cache)' }],
    ["Node's own switch", { NODE_DISABLE_COMPILE_CACHE: '1', PINWATCH_COMPILE_CACHE: '/c' }, { off: 'NODE_DISABLE_COMPILE_CACHE is set' }],
    ['no folder known', {}, { off: 'neither XDG_CACHE_HOME nor HOME is set' }],
  ])('%s', (_what, env, want) => {
    expect(compileCachePlace(env)).toEqual(want);
  });
});

describe('folderIsOwn', () => {
  const dirOf = (uid: number, mode: number) => ({ isDirectory: () => true, uid, mode: 0o040000 | mode });
  it.each([
    ['none yet (made 0700 when written)', undefined, 1000, true],
    ["the user's own, 0700", dirOf(1000, 0o700), 1000, true],
    ["the user's own, 0755", dirOf(1000, 0o755), 1000, true],
    ["the user's own, writable by its group", dirOf(1000, 0o775), 1000, false],
    ["the user's own, writable by anyone", dirOf(1000, 0o777), 1000, false],
    ["another user's", dirOf(0, 0o700), 1000, false],
    ['a file', { isDirectory: () => false, uid: 1000, mode: 0o100600 }, 1000, false],
    ['no user ids (Windows): a directory', dirOf(0, 0o777), undefined, true],
  ])('%s', (_what, st, uid, want) => {
    expect(folderIsOwn(st, uid)).toBe(want);
  });
});

describe('an entry', () => {
  const source = createHash('sha1').update('exports.v = 1;').digest();
  const data = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7) & 0xff));
  const sha1 = (b: Uint8Array) => createHash('sha1').update(b).digest();
  const entry = encodeCompileEntry(source, data, sha1);

  it('gives back the data for its source', () => {
    expect(decodeCompileEntry(entry, source, sha1)).toEqual(data);
  });

  it.each([
    ['another source', (e: Buffer) => e, createHash('sha1').update('exports.v = 2;').digest()],
    ['cut short', (e: Buffer) => e.subarray(0, e.length - 1), source],
    ['only a header', (e: Buffer) => e.subarray(0, 64), source],
    ['one byte of the data changed', (e: Buffer) => Buffer.concat([e.subarray(0, e.length - 1), Buffer.from([e[e.length - 1]! ^ 1])]), source],
    ['one byte of the data changed, its length kept', (e: Buffer) => Buffer.concat([e.subarray(0, e.length - 150), Buffer.from([e[e.length - 150]! ^ 0x80]), e.subarray(e.length - 149)]), source],
    ["one byte of the data's sha1 changed", (e: Buffer) => Buffer.concat([e.subarray(0, 44), Buffer.from([e[44]! ^ 1]), e.subarray(45)]), source],
    ['longer', (e: Buffer) => Buffer.concat([e, Buffer.from([0])]), source],
    ['another format (the first, with a crc32)', (e: Buffer) => Buffer.concat([Buffer.from('pinwatch-v8-cache 1\n'), e.subarray(20)]), source],
    ['empty', () => Buffer.alloc(0), source],
  ])('is refused when %s', (_what, change, asked) => {
    expect(decodeCompileEntry(change(entry), asked, sha1)).toBeUndefined();
  });
});

describe('entriesToPrune', () => {
  it.each([
    ['under the bound: none', [{ name: 'a', mtimeMs: 1 }], 2, []],
    ['at the bound: none', [{ name: 'a', mtimeMs: 1 }, { name: 'b', mtimeMs: 2 }], 2, []],
    ['over: the oldest', [{ name: 'new', mtimeMs: 9 }, { name: 'old', mtimeMs: 1 }, { name: 'mid', mtimeMs: 5 }], 1, ['old', 'mid']],
    ['a tie: by name', [{ name: 'b', mtimeMs: 1 }, { name: 'a', mtimeMs: 1 }, { name: 'c', mtimeMs: 3 }], 2, ['a']],
  ])('%s', (_what, entries, max, want) => {
    expect(entriesToPrune(entries, max)).toEqual(want);
  });
});

/**
 * A bundle of three chunks as rolldown writes them (`require("./x.cjs")`, a
 * cycle between two of them, a built-in), loaded by the built chunkLoader in a
 * process of its own: what the entry computed, and the loader's counts after its
 * entries were written.
 */
describe('the chunk loader (dist/cli/compile-cache.js, real V8 code caches)', () => {
  let bundle: string;
  let cache: string;
  const loaderUrl = new URL('../../dist/cli/compile-cache.js', import.meta.url).href;
  const run = (nodeFlags: string[] = [], flagsKey = 'k', cacheDir = cache) => {
    const script = `import { chunkLoader, compileCacheStats } from ${JSON.stringify(loaderUrl)};
import { createRequire } from 'node:module';
const load = chunkLoader(${JSON.stringify(cacheDir)}, ${JSON.stringify(flagsKey)}, createRequire(import.meta.url));
const entry = load(${JSON.stringify(join(bundle, 'entry.cjs'))});
process.on('exit', () => console.log(JSON.stringify({ value: entry.value(), file: entry.file, ...compileCacheStats() })));`;
    const r = spawnSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return JSON.parse(r.stdout) as { value: string; file: string; used: number; missed: number; rejected: number; written: number; marked: boolean };
  };
  const nodeRequire = () => {
    const r = spawnSync(process.execPath, ['-e', `const e = require(${JSON.stringify(join(bundle, 'entry.cjs'))}); console.log(JSON.stringify({ value: e.value(), file: e.file }))`], { encoding: 'utf8' });
    return JSON.parse(r.stdout) as { value: string; file: string };
  };

  beforeAll(() => {
    bundle = join(dir, 'bundle');
    cache = join(dir, 'cache');
    mkdirSync(bundle);
    writeFileSync(join(bundle, 'entry.cjs'), `"use strict";\nconst other = require("./other-AbC123.cjs");\nconst { basename } = require("node:path");\nexports.early = "entry-early";\nexports.value = () => ["entry", other.value(), other.sawEntry].join(" ");\nexports.file = basename(__filename) + " " + (module.exports === exports);\n`);
    writeFileSync(join(bundle, 'other-AbC123.cjs'), `"use strict";\nconst entry = require("./entry.cjs");\nexports.sawEntry = "early" in entry ? "entry-done" : "entry-partial";\nconst label = "other-1";\nexports.value = () => label;\n`);
  });

  it('runs the chunks as Node would (a sibling, a built-in, a cycle between two chunks); the first run only marks the folder, the next keeps an entry per chunk, the one after uses them', () => {
    const want = nodeRequire();
    expect(want).toEqual({ value: 'entry other-1 entry-partial', file: 'entry.cjs true' });
    expect(run()).toEqual({ ...want, used: 0, missed: 2, rejected: 0, written: 0, marked: true });
    expect(readdirSync(cache)).toEqual([expect.stringMatching(/^ran-[0-9a-f]{40}$/)]);
    expect(run()).toEqual({ ...want, used: 0, missed: 2, rejected: 0, written: 2, marked: false });
    expect(readdirSync(cache)).toHaveLength(3);
    expect(run()).toEqual({ ...want, used: 2, missed: 0, rejected: 0, written: 0, marked: false });
  });

  it('compiles a chunk whose source changed from source, even at the same length (V8 itself compares the length alone)', () => {
    run();
    run();
    expect(run()).toMatchObject({ used: 2 });
    const other = join(bundle, 'other-AbC123.cjs');
    const was = readFileSync(other, 'utf8');
    writeFileSync(other, was.replace('"other-1"', '"other-2"'));
    try {
      expect(run()).toMatchObject({ value: 'entry other-2 entry-partial', used: 1, missed: 1, written: 1 });
      expect(run()).toMatchObject({ value: 'entry other-2 entry-partial', used: 2, missed: 0, written: 0 });
    } finally {
      writeFileSync(other, was);
    }
    expect(run()).toMatchObject({ value: 'entry other-1 entry-partial', missed: 1 });
  });

  it('takes an entry that is not whole as none kept, and writes it again', () => {
    run();
    expect(run()).toMatchObject({ used: 2 });
    for (const name of readdirSync(cache).filter((n) => !n.startsWith('ran-'))) {
      const bytes = readFileSync(join(cache, name));
      bytes[bytes.length - 1] ^= 0xff;
      writeFileSync(join(cache, name), bytes);
    }
    expect(run()).toMatchObject({ value: 'entry other-1 entry-partial', used: 0, missed: 2, written: 2 });
    expect(run()).toMatchObject({ used: 2 });
  });

  it('counts an entry V8 refuses (made under other V8 flags, the same name) as refused, and runs the chunk compiled from source', () => {
    run();
    expect(run()).toMatchObject({ used: 2 });
    expect(run(['--stack-size=900'])).toMatchObject({ value: 'entry other-1 entry-partial', used: 0, rejected: 2, written: 2 });
    // a name per set of flags: runs under two sets do not overwrite each other's entries (and each set has its first run)
    expect(run(['--stack-size=900'], 'k --stack-size=900')).toMatchObject({ missed: 2, written: 0, marked: true });
    expect(run(['--stack-size=900'], 'k --stack-size=900')).toMatchObject({ missed: 2, written: 2 });
    expect(run(['--stack-size=900'], 'k --stack-size=900')).toMatchObject({ used: 2 });
    expect(run([], 'k')).toMatchObject({ rejected: 2 });
  });

  it('runs as without a cache when its folder cannot be written, quietly: a file in its place (required as Node requires), a folder below that file (compiled, nothing kept)', () => {
    const blocked = join(dir, 'blocked');
    writeFileSync(blocked, 'not a folder');
    expect(run([], 'k', blocked)).toEqual({ value: 'entry other-1 entry-partial', file: 'entry.cjs true', used: 0, missed: 0, rejected: 0, written: 0, marked: false });
    expect(run([], 'k', join(blocked, 'compile'))).toEqual({ value: 'entry other-1 entry-partial', file: 'entry.cjs true', used: 0, missed: 2, rejected: 0, written: 0, marked: false });
    expect(readFileSync(blocked, 'utf8')).toBe('not a folder');
  });

  it.skipIf(process.getuid === undefined)('reads and writes nothing in a folder others can write (they could choose the bytecode): the chunks are required as Node requires them', () => {
    const open = join(dir, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    for (let i = 0; i < 3; i++) expect(run([], 'k', open)).toEqual({ value: 'entry other-1 entry-partial', file: 'entry.cjs true', used: 0, missed: 0, rejected: 0, written: 0, marked: false });
    expect(readdirSync(open)).toEqual([]);
  });

  it(`keeps at most ${MAX_ENTRIES} entries, removing the least recently written`, () => {
    const full = join(dir, 'full');
    mkdirSync(full);
    for (let i = 0; i < MAX_ENTRIES + 3; i++) {
      const f = join(full, `old-${String(i).padStart(4, '0')}`);
      writeFileSync(f, '');
      utimesSync(f, 1_000_000 + i, 1_000_000 + i);
    }
    expect(run([], 'k', full)).toMatchObject({ written: 0, marked: true });
    expect(run([], 'k', full)).toMatchObject({ written: 2 });
    const left = readdirSync(full);
    expect(left).toHaveLength(MAX_ENTRIES);
    // the six oldest went (3 over, and room for the mark and the 2 written); those three stayed
    for (let i = 0; i < 6; i++) expect(left).not.toContain(`old-${String(i).padStart(4, '0')}`);
    expect(left).toContain('old-0006');
    expect(left.filter((n) => !n.startsWith('old-'))).toHaveLength(3);
    expect(run([], 'k', full)).toMatchObject({ used: 2 });
  });
});

describe('bin/pinwatch.js with the compile cache', () => {
  const bin = join(process.cwd(), 'bin', 'pinwatch.js');
  const pinwatch = (args: string[], compileCache: string) => {
    const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, PINWATCH_COMPILE_CACHE: compileCache } });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

  it('keeps the chunks a run compiled (from the second run on), and gives the same output with them, without them and with the cache off', () => {
    const demo = buildDemoRepo(join(dir, 'demo'));
    const cc = join(dir, 'bin-cache');
    const args = ['stale', '--repo', demo, '--format', 'json', '--fail-on-stale', 'never', '--no-cache'];
    const off = pinwatch(args, '0');
    expect(off.code).toBe(0);
    expect(existsSync(cc)).toBe(false);
    const first = pinwatch(args, cc);
    expect(readdirSync(cc)).toHaveLength(1); // the mark alone
    const second = pinwatch(args, cc);
    const kept = readdirSync(cc);
    // the entry chunk and the command's: a dozen or more
    expect(kept.length).toBeGreaterThan(10);
    const third = pinwatch(args, cc);
    expect(readdirSync(cc)).toEqual(kept);
    // another command keeps entries of its own (the functions its runs compile), the first of its runs already
    const scan = pinwatch(['scan', '--repo', demo, '--format', 'json', '--no-cache'], cc);
    expect(scan.code).toBe(0);
    const withScan = readdirSync(cc);
    expect(withScan.length).toBeGreaterThan(kept.length + 5);
    pinwatch(args, cc);
    expect(readdirSync(cc)).toEqual(withScan);
    for (const r of [first, second, third]) {
      expect(r.code).toBe(0);
      expect(r.err).toBe('');
      const strip = (out: string) => ({ ...(JSON.parse(out) as object), stats: undefined });
      expect(strip(r.out)).toEqual(strip(off.out));
    }
  });

  it('leaves --version alone (nothing kept) and turns off quietly when its folder cannot be made', () => {
    const cc = join(dir, 'version-cache');
    const v = pinwatch(['--version'], cc);
    expect(v.out).toMatch(/^\d+\.\d+\.\d+/);
    expect(existsSync(cc)).toBe(false);
    const blocked = join(dir, 'bin-blocked');
    writeFileSync(blocked, '');
    const r = pinwatch(['--help'], join(blocked, 'compile'));
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toContain('Usage: pinwatch');
  });
});
