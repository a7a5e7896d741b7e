/**
 * The tree-state snapshot is only as sound as its record: every read of the
 * derivation (scan, collectors, recipe readers, Makefiles, build inputs) must go
 * through src/util/tracked-fs.ts. No module of those folders takes a value from
 * node:fs or node:fs/promises itself (type-only imports are fine), so a new
 * reader cannot read past the record; and a recording sees each kind of access.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as tracked from '../../src/util/tracked-fs.js';
import { readRegularText } from '../../src/util/safe-read.js';

const SRC = new URL('../../src/', import.meta.url).pathname;
/** The folders the snapshot's derivation runs in. */
const DERIVATION = ['scan', 'collect', 'producers', 'make', 'sources', 'images', 'dockerfile', 'shell', 'snapshot'];
/**
 * Files that may import node:fs: the worker pool checks its own built file; safe-read notes its reads
 * (noteRead); atomic-write only writes; the snapshot (check.ts) resolves the root for its key and asks whether it is a directory.
 */
const ALLOWED = new Set(['scan/pool.ts', 'util/safe-read.ts', 'util/tracked-fs.ts', 'util/atomic-write.ts', 'snapshot/check.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []));
}

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('every read of the derivation is recorded', () => {
  it('no derivation module reads the file system but through util/tracked-fs.ts', () => {
    const offenders: string[] = [];
    for (const file of [...DERIVATION.flatMap((d) => sources(join(SRC, d))), ...sources(join(SRC, 'util'))]) {
      const rel = relative(SRC, file);
      if (ALLOWED.has(rel)) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(/^import\s+(type\s+)?[^;]*?from\s+'node:fs(\/promises)?';/gm)) {
        if (!m[1]) offenders.push(`${rel}: ${m[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("the build model's and the inputs' readers use a stat for a path's type only (their records are checked with typeOnlyStats)", () => {
    const STAT_FIELDS = /\.(?:mtime|ctime|atime|birthtime)(?:Ms|Ns)?\b|\.(?:ino|nlink|blksize|uid|gid|rdev|mode)\b|\b(?:st|stat|stats|lst|target|opened)\??\.size\b/;
    const offenders: string[] = [];
    for (const file of ['producers', 'make', 'sources', 'dockerfile', 'images', 'shell'].flatMap((d) => sources(join(SRC, d)))) {
      const rel = relative(SRC, file);
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // the parsed-Go-file memo: consulted only while nothing records (closure.ts readGoFile)
          if (rel === 'sources/go/closure.ts' && /goFileCache|hit\.mtimeMs/.test(line)) return;
          if (STAT_FIELDS.test(line)) offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });

  it('a recording sees reads, listings, stats, missing paths, symlinks and realpaths, and a change of each breaks it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-tracked-'));
    made.push(dir);
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    writeFileSync(join(dir, 'sub/b.txt'), 'b\n');
    symlinkSync('a.txt', join(dir, 'link'));
    const { record } = await tracked.recordReads(async () => {
      tracked.readFileSync(join(dir, 'a.txt'), 'utf8');
      readRegularText(join(dir, 'sub/b.txt'));
      tracked.readdirSync(join(dir, 'sub'), { withFileTypes: true });
      tracked.existsSync(join(dir, 'missing'));
      tracked.statSync(join(dir, 'link'));
      tracked.realpathSync(join(dir, 'link'));
      await tracked.readdir(dir);
    });
    const never = () => false;
    expect(new Set(record.paths.map((p) => relative(dir, p.p)))).toEqual(new Set(['a.txt', 'sub/b.txt', 'sub', 'missing', 'link', '']));
    expect(tracked.checkRecord(record, never).holds).toBe(true);
    // written just now: racy, so each read file was hashed and each listing is listed again
    expect(record.paths.filter((p) => p.h !== undefined).map((p) => relative(dir, p.p)).sort()).toEqual(['a.txt', 'sub/b.txt']);
    const breaks: [string, () => void, RegExp][] = [
      ['a read file edited', () => writeFileSync(join(dir, 'a.txt'), 'A\n'), /a\.txt changed/],
      ['a file read by descriptor edited', () => writeFileSync(join(dir, 'sub/b.txt'), 'bb\n'), /b\.txt changed/],
      ['a listed directory gains an entry', () => writeFileSync(join(dir, 'sub/c.txt'), ''), /sub: new entry "c\.txt"/],
      ['a missing path appears', () => writeFileSync(join(dir, 'missing'), ''), /missing appeared/],
      ['a symlink retargeted', () => (rmSync(join(dir, 'link')), symlinkSync('sub/b.txt', join(dir, 'link'))), /link/],
    ];
    for (const [what, change, why] of breaks) {
      const { record: fresh } = await tracked.recordReads(async () => {
        tracked.readFileSync(join(dir, 'a.txt'));
        readRegularText(join(dir, 'sub/b.txt'));
        tracked.readdirSync(join(dir, 'sub'));
        tracked.existsSync(join(dir, 'missing'));
        tracked.statSync(join(dir, 'link'));
      });
      expect(tracked.checkRecord(fresh, never).holds, what).toBe(true);
      change();
      const check = tracked.checkRecord(fresh, never);
      expect(check.holds, what).toBe(false);
      expect(check.reason, what).toMatch(why);
    }
  });

  it('a directory listed again reads its names as recorded: bytes that are not UTF-8, a real U+FFFD and a leading BOM alike (and `listings` gives them)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-tracked-names-'));
    made.push(dir);
    const sub = join(dir, 'names');
    mkdirSync(sub);
    const names: [string, Buffer][] = [
      ['plain', Buffer.from('values.yaml')],
      ['not UTF-8 (0xff)', Buffer.from([0x76, 0xff, 0x2e, 0x79])],
      ['a real U+FFFD', Buffer.from('b\uFFFD.yaml')],
      ['a leading BOM', Buffer.from('\uFEFFc.yaml')],
    ];
    for (const [, name] of names) writeFileSync(Buffer.concat([Buffer.from(`${sub}/`), name]), 'x\n');
    // recorded as the walk lists (bytes), at a start long before: the listing's stat is trusted until it changes
    const { record } = await tracked.recordReads(async () => void tracked.readdirWalkSync(sub, { withFileTypes: true, encoding: 'buffer' }), BigInt(Date.now() - 10_000) * 1_000_000n);
    const recorded = record.paths.find((p) => p.p === sub)!.list!;
    expect(recorded).toContain(`\0${Buffer.from([0x76, 0xff, 0x2e, 0x79]).toString('base64')}/f`);
    expect(recorded).toEqual(expect.arrayContaining(['values.yaml/f', 'b\uFFFD.yaml/f', '\uFEFFc.yaml/f']));
    for (const [what, name] of names) {
      // the directory's stat changes (an entry added and taken out again): it is listed again, and holds
      writeFileSync(join(sub, 'tmp'), '');
      rmSync(join(sub, 'tmp'));
      const check = tracked.checkRecord(record, () => false, undefined, { listings: true });
      expect(check.holds, `${what}: ${check.reason}`).toBe(true);
      expect(check.stats.listed, what).toBe(1);
      expect(check.listings, what).toEqual([[sub, recorded]]);
      // renamed: the listing differs, said with the name as the record has it
      const path = Buffer.concat([Buffer.from(`${sub}/`), name]);
      renameSync(path, join(sub, 'renamed'));
      expect(tracked.checkRecord(record, () => false).reason, what).toMatch(/names: (new|removed) entry/);
      renameSync(join(sub, 'renamed'), path);
    }
  });

  it('a realpath answer holds by the types of the directories above it, and a directory made a symlink breaks it', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'pinwatch-tracked-real-')));
    made.push(dir);
    mkdirSync(join(dir, 'a/b'), { recursive: true });
    mkdirSync(join(dir, 'elsewhere/b'), { recursive: true });
    writeFileSync(join(dir, 'a/b/f.txt'), 'f\n');
    writeFileSync(join(dir, 'elsewhere/b/f.txt'), 'f\n');
    // only the file is in the record: the directories above it are not
    const { record } = await tracked.recordReads(async () => void tracked.realpathSync(join(dir, 'a/b/f.txt')), BigInt(Date.now() - 10_000) * 1_000_000n);
    expect(record.paths.map((p) => relative(dir, p.p))).toEqual(['a/b/f.txt']);
    const lstats: tracked.LstatMemo = new Map();
    expect(tracked.checkRecord(record, () => false, dir, { lstats }).holds).toBe(true);
    // the directories were asked by lstat (no realpath), through the run's memo
    expect([...lstats.keys()].map((k) => relative(dir, k)).sort()).toEqual(['a', 'a/b', 'a/b/f.txt']);
    renameSync(join(dir, 'a'), join(dir, 'a-was'));
    symlinkSync('elsewhere', join(dir, 'a'));
    expect(tracked.checkRecord(record, () => false, dir).reason).toMatch(/a\/b\/f\.txt now resolves to .*elsewhere\/b\/f\.txt/);
  });

  it('a content question holds while its answer does: asked again where the stat differs, never by hash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-tracked-query-'));
    made.push(dir);
    const file = join(dir, 'daemonset.yml');
    writeFileSync(file, 'a: 1\nimage: x@sha256:00\n');
    const firstImage = (path: string) => {
      const read = readRegularText(path, { followSymlinks: true });
      return 'text' in read ? String(read.text.split('\n').findIndex((l) => l.startsWith('image:'))) : '-';
    };
    const { record } = await tracked.recordReads(async () => tracked.contentQuery(file, 'first-image', '', () => firstImage(file), (a) => a), BigInt(Date.now() - 10_000) * 1_000_000n);
    expect(record.paths.find((p) => p.p === file)).toMatchObject({ q: ['first-image\0\0' + '1'] });
    expect(record.paths.find((p) => p.p === file)?.h).toBeUndefined();
    const queries = { 'first-image': (path: string) => firstImage(path) };
    // another digest on the same line: the answer is the same
    writeFileSync(file, 'a: 1\nimage: x@sha256:11111\n');
    expect(tracked.checkRecord(record, () => false, undefined, { queries }).holds).toBe(true);
    // without an evaluator the change counts
    expect(tracked.checkRecord(record, () => false).reason).toMatch(/daemonset\.yml changed/);
    writeFileSync(file, 'a: 1\nb: 2\nimage: x@sha256:00\n');
    expect(tracked.checkRecord(record, () => false, undefined, { queries }).reason).toMatch(/daemonset\.yml changed \(what its first-image question reads of it\)/);
  });

  it('a walk listing takes an entry the caller calls harmless; any other listing does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-tracked-walk-'));
    made.push(dir);
    mkdirSync(join(dir, 'w'));
    mkdirSync(join(dir, 's'));
    const { record } = await tracked.recordReads(async () => {
      tracked.readdirWalkSync(join(dir, 'w'), { withFileTypes: true, encoding: 'buffer' });
      tracked.readdirSync(join(dir, 's'));
    });
    const txtOnly: tracked.HarmlessEntry = (_d, name, type) => type === 'f' && name.endsWith('.txt');
    writeFileSync(join(dir, 'w/notes.txt'), '');
    expect(tracked.checkRecord(record, txtOnly).holds).toBe(true);
    writeFileSync(join(dir, 'w/values.yaml'), '');
    expect(tracked.checkRecord(record, txtOnly).reason).toMatch(/w: new entry "values\.yaml"/);
    rmSync(join(dir, 'w/values.yaml'));
    writeFileSync(join(dir, 's/notes.txt'), '');
    expect(tracked.checkRecord(record, txtOnly).reason).toMatch(/s: new entry "notes\.txt"/);
  });
});

describe('a record that holds is handed back with today\'s stats only when that pays', () => {
  it('one directory listed again: not rewritten; more than REFRESH_LISTINGS, or a file hashed again: rewritten, and then lstat-only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-tracked-refresh-'));
    made.push(dir);
    const dirs = Array.from({ length: tracked.REFRESH_LISTINGS + 2 }, (_, i) => join(dir, `d${i}`));
    for (const d of dirs) mkdirSync(d);
    writeFileSync(join(dir, 'f.yaml'), 'a: 1\n');
    // recorded as if later than every stat here, so none is racy
    const start = BigInt(Date.now() + 10_000) * 1_000_000n;
    const { record } = await tracked.recordReads(async () => {
      for (const d of dirs) tracked.readdirWalkSync(d, { withFileTypes: true, encoding: 'buffer' });
      tracked.readFileSync(join(dir, 'f.yaml'), 'utf8');
    }, start);
    const txt: tracked.HarmlessEntry = (_d, name) => name.endsWith('.txt');
    const quiet = tracked.checkRecord(record, txt);
    expect([quiet.holds, quiet.stats.listed, quiet.stats.hashed, quiet.refreshed]).toEqual([true, 0, 0, undefined]);

    writeFileSync(join(dirs[0]!, 'notes.txt'), '');
    const one = tracked.checkRecord(record, txt);
    expect([one.holds, one.stats.listed, one.refreshed]).toEqual([true, 1, undefined]);

    for (const d of dirs) writeFileSync(join(d, 'notes.txt'), '');
    // the racy rule: stats (ctime too) within 2 s of a check are not trusted, so the refreshed record would list them again
    await new Promise((r) => setTimeout(r, 2_100));
    const many = tracked.checkRecord(record, txt);
    expect([many.holds, many.stats.listed]).toEqual([true, dirs.length]);
    expect(many.refreshed).toBeDefined();
    const after = tracked.checkRecord(many.refreshed!, txt);
    expect([after.holds, after.stats.listed, after.refreshed]).toEqual([true, 0, undefined]);

    // the same content written again: hashed again, holds, rewritten
    writeFileSync(join(dir, 'f.yaml'), 'a: 1\n', { flag: 'w' });
    const hashed = tracked.checkRecord(record, txt);
    expect([hashed.holds, hashed.stats.hashed > 0]).toEqual([true, true]);
    expect(hashed.refreshed).toBeDefined();
  });

  it('a fresh checkout (every stat new, past the plain lstats a check tries): each file hashed again, and a changed one still found, first or last', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-tracked-fresh-'));
    made.push(dir);
    const files = Array.from({ length: 100 }, (_, i) => join(dir, `f${String(i).padStart(3, '0')}.yaml`));
    for (const f of files) writeFileSync(f, `a: ${f}\n`);
    const start = BigInt(Date.now() + 10_000) * 1_000_000n;
    const { record } = await tracked.recordReads(async () => {
      for (const f of files) tracked.readFileSync(f, 'utf8');
    }, start);
    const none: tracked.HarmlessEntry = () => false;
    expect(tracked.checkRecord(record, none).stats.hashed).toBe(0);
    // a checkout afresh: the same contents, every file a new inode
    const rewrite = (changed?: string) => {
      for (const f of files) {
        rmSync(f);
        writeFileSync(f, f === changed ? 'a: changed\n' : `a: ${f}\n`);
      }
    };
    rewrite();
    const fresh = tracked.checkRecord(record, none, undefined, { all: true });
    expect([fresh.holds, fresh.stats.hashed]).toEqual([true, files.length]);
    for (const changed of [files[0]!, files[files.length - 1]!]) {
      rewrite(changed);
      const check = tracked.checkRecord(record, none, undefined, { all: true });
      expect(check.holds).toBe(false);
      expect([...check.failed!]).toEqual([changed]);
    }
  });
});

describe('an answer reused from the source memo is in the record of whoever reused it', () => {
  it("a second image's recording holds the go.mod the first image's read put in the memo, and an edit of it breaks both", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-memo-'));
    made.push(dir);
    writeFileSync(join(dir, 'go.mod'), 'module example.test/m\n');
    mkdirSync(join(dir, 'pkg'));
    const { withSourceMemo, statOnce, readdirOnce } = await import('../../src/sources/memo.js');
    const { readSourceAbs } = await import('../../src/sources/read.js');
    const ask = async () => {
      readSourceAbs(join(dir, 'go.mod'));
      await statOnce(join(dir, 'pkg'));
      await readdirOnce(join(dir, 'pkg'));
    };
    const records = await withSourceMemo(dir, async () => {
      const first = await tracked.recordReads(ask);
      const second = await tracked.recordReads(ask);
      return [first.record, second.record];
    });
    const never = () => false;
    for (const record of records) {
      const gomod = record.paths.find((d) => d.p === join(dir, 'go.mod'));
      expect(gomod?.h, 'the content hash of go.mod').toMatch(/^[0-9a-f]{64}$/);
      expect(record.paths.find((d) => d.p === join(dir, 'pkg'))?.list).toEqual([]);
      expect(tracked.checkRecord(record, never).holds).toBe(true);
    }
    // the second recording read nothing itself: everything came from the memo
    expect(records[1]!.paths.map((d) => d.p).sort()).toEqual(records[0]!.paths.map((d) => d.p).sort());
    writeFileSync(join(dir, 'go.mod'), 'module example.test/other\n');
    for (const record of records) expect(tracked.checkRecord(record, never).reason).toMatch(/go\.mod changed/);
  });

  it('an answer the memo made while nothing recorded makes a recording that reuses it unusable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-memo-'));
    made.push(dir);
    writeFileSync(join(dir, 'go.mod'), 'module example.test/m\n');
    const { withSourceMemo } = await import('../../src/sources/memo.js');
    const { readSourceAbs } = await import('../../src/sources/read.js');
    const record = await withSourceMemo(dir, async () => {
      readSourceAbs(join(dir, 'go.mod'));
      return (await tracked.recordReads(async () => readSourceAbs(join(dir, 'go.mod')))).record;
    });
    expect(record.unusable).toMatch(/before the recording started/);
    expect(tracked.checkRecord(record, () => false).holds).toBe(false);
  });

  it('a file only stat\'d holds by its type alone under typeOnlyStats, by its size too without', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-typeonly-'));
    made.push(dir);
    writeFileSync(join(dir, 'Dockerfile'), 'FROM scratch\n');
    const { record } = await tracked.recordReads(async () => void tracked.statSync(join(dir, 'Dockerfile')).isFile());
    writeFileSync(join(dir, 'Dockerfile'), 'FROM scratch\nCOPY . /\n');
    expect(tracked.checkRecord(record, () => false).reason).toMatch(/Dockerfile changed \(size 13 → 22\)/);
    expect(tracked.checkRecord(record, () => false, undefined, { typeOnlyStats: true }).holds).toBe(true);
    rmSync(join(dir, 'Dockerfile'));
    mkdirSync(join(dir, 'Dockerfile'));
    expect(tracked.checkRecord(record, () => false, undefined, { typeOnlyStats: true }).reason).toMatch(/Dockerfile changed \(its type\)/);
  });
});
