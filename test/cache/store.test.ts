/**
 * The persistent cache's store: where it lives (git common dir found without git,
 * worktrees, XDG, PINWATCH_CACHE_DIR), that what was put is what is got, that a
 * torn, foreign or corrupt entry is a miss, that a write error never fails
 * (told once), that version folders are separate and `clearCache` removes them
 * all, and that concurrent writers never leave a reader a partial file.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheFor, cacheInfo, cachePlace, clearCache, configureCache, currentVersionFolder, decodeEntry, encodeEntry, entryPath, findGitCommonDir, openCache, repoFolderName } from '../../src/cache/index.js';
import { makeRepo, type TestRepo } from '../support/repo.js';

const temps: string[] = [];
const repos: TestRepo[] = [];
function temp(): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), 'pinwatch-cache-')));
  temps.push(d);
  return d;
}
function repo(): TestRepo {
  const r = makeRepo('pinwatch-cache-repo-');
  repos.push(r);
  return r;
}
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
  for (const r of repos.splice(0)) r.cleanup();
  configureCache({ enabled: false });
});

describe('where the cache lives', () => {
  it('in the git common dir: a checkout, a subfolder of it, a worktree of it', () => {
    const r = repo();
    r.commit({ 'a.txt': 'a\n' }, 'init');
    const git = realpathSync(join(r.dir, '.git'));
    mkdirSync(join(r.dir, 'sub', 'deeper'), { recursive: true });
    const wt = join(temp(), 'wt');
    r.git('worktree', 'add', '-q', wt);
    for (const start of [r.dir, join(r.dir, 'sub', 'deeper'), wt]) {
      expect(findGitCommonDir(start), start).toBe(git);
      expect(cachePlace(start, { env: {} }), start).toEqual({ dir: join(git, 'pinwatch', 'cache'), source: 'git' });
    }
    // a worktree's .git is a file (gitdir: …) whose git dir names the common dir
    expect(readFileSync(join(wt, '.git'), 'utf8')).toMatch(/^gitdir: /);
  });

  it('outside git: XDG_CACHE_HOME, else ~/.cache, per repository path; none known: no cache', () => {
    const dir = temp();
    const name = repoFolderName(dir);
    expect(findGitCommonDir(dir)).toBeUndefined();
    expect(cachePlace(dir, { env: { XDG_CACHE_HOME: '/x/cache', HOME: '/home/me' } })).toEqual({ dir: join('/x/cache', 'pinwatch', 'repos', name), source: 'xdg' });
    expect(cachePlace(dir, { env: { HOME: '/home/me' } })).toEqual({ dir: join('/home/me', '.cache', 'pinwatch', 'repos', name), source: 'xdg' });
    expect(cachePlace(dir, { env: {} })).toBeUndefined();
    expect(openCache(dir, { enabled: true, env: {} }).enabled).toBe(false);
    expect(repoFolderName(join(dir, 'other'))).not.toBe(name);
  });

  it('PINWATCH_CACHE_DIR overrides both', () => {
    const r = repo();
    expect(cachePlace(r.dir, { env: { PINWATCH_CACHE_DIR: '/ci/cache', XDG_CACHE_HOME: '/x' } })).toEqual({ dir: join('/ci/cache', 'repos', repoFolderName(realpathSync(r.dir))), source: 'env' });
  });
});

describe('entries', () => {
  it('what was put is what is got: bytes, strings, JSON, structured values', () => {
    const dir = temp();
    const c = openCache(dir, { enabled: true, dir: join(dir, 'c') });
    expect(c.dir).toBe(join(dir, 'c', currentVersionFolder()));
    expect(c.get('scan', 'k')).toBeUndefined();
    c.put('scan', 'k', Buffer.from([0, 1, 2, 255]));
    c.put('scan', 'text', 'héllo\n');
    c.putJson('scan', 'json', { a: [1, 'two'], b: null });
    const value = { pins: [{ line: 1, scraped: undefined }], m: new Map([['x', 1]]) };
    c.putValue('scan', 'value', value);
    expect(c.get('scan', 'k')).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(c.get('scan', 'text')!.toString('utf8')).toBe('héllo\n');
    expect(c.getJson('scan', 'json')).toEqual({ a: [1, 'two'], b: null });
    const back = c.getValue<typeof value>('scan', 'value')!;
    expect(back).toEqual(value);
    expect('scraped' in back.pins[0]!).toBe(true);
    // namespaces are separate: the same key in another namespace misses
    expect(c.get('make', 'k')).toBeUndefined();
    // a value is not a plain entry of the same key
    expect(c.get('scan', 'value')).toBeUndefined();
    expect(c.stats()).toMatchObject({ hits: 4, misses: 3, writes: 4 });
    // a second cache on the same folder (the next run) sees them
    expect(openCache(dir, { enabled: true, dir: join(dir, 'c') }).getJson('scan', 'json')).toEqual({ a: [1, 'two'], b: null });
  });

  it('a disabled cache misses and writes nothing', () => {
    const dir = temp();
    const c = openCache(dir, { enabled: false, dir: join(dir, 'c') });
    c.put('scan', 'k', 'v');
    expect(c.get('scan', 'k')).toBeUndefined();
    expect(existsSync(join(dir, 'c'))).toBe(false);
  });

  it('a namespace is a short lowercase word (a programming error otherwise)', () => {
    const dir = temp();
    const c = openCache(dir, { enabled: true, dir: join(dir, 'c') });
    expect(() => c.put('../x', 'k', 'v')).toThrow(/namespace/);
    expect(() => c.get('', 'k')).toThrow(/namespace/);
  });

  const damaged: [string, (file: Buffer, other: Buffer) => Buffer][] = [
    ['torn (cut in the body)', (f) => f.subarray(0, f.length - 3)],
    ['torn (cut in the header)', (f) => f.subarray(0, 20)],
    ['empty', () => Buffer.alloc(0)],
    ['a body byte flipped', (f) => Buffer.from(f.map((b, i) => (i === f.length - 1 ? b ^ 1 : b)))],
    ['a byte appended', (f) => Buffer.concat([f, Buffer.from('x')])],
    ['foreign: another key’s whole entry', (_f, other) => other],
    ['not an entry at all', () => Buffer.from('{"pins": []}\n')],
    ['a header that is not JSON', () => Buffer.from('pinwatch-cache 1\n{nope\nbody')],
  ];
  for (const [what, damage] of damaged) {
    it(`an entry ${what} is a miss, and a new put replaces it`, () => {
      const dir = temp();
      const c = openCache(dir, { enabled: true, dir: join(dir, 'c') });
      c.putJson('scan', 'mine', { answer: 42 });
      c.putJson('scan', 'other', { answer: 'wrong' });
      const file = join(c.dir!, entryPath('scan', 'mine'));
      const other = readFileSync(join(c.dir!, entryPath('scan', 'other')));
      writeFileSync(file, damage(readFileSync(file), other));
      expect(c.getJson('scan', 'mine')).toBeUndefined();
      c.putJson('scan', 'mine', { answer: 42 });
      expect(c.getJson('scan', 'mine')).toEqual({ answer: 42 });
    });
  }

  it('decodeEntry checks namespace, key, size and checksum', () => {
    const e = encodeEntry('scan', 'k', Buffer.from('body'));
    expect(decodeEntry(e, 'scan', 'k')!.toString()).toBe('body');
    expect(decodeEntry(e, 'make', 'k')).toBeUndefined();
    expect(decodeEntry(e, 'scan', 'k2')).toBeUndefined();
  });

  it('a write that fails (the folder cannot be made) is no error: told once, nothing more written, reads still work', () => {
    const dir = temp();
    writeFileSync(join(dir, 'file'), 'a file where the cache folder would be');
    const told: string[] = [];
    const c = openCache(dir, { enabled: true, dir: join(dir, 'file', 'c'), warn: (m) => told.push(m) });
    expect(() => {
      c.put('scan', 'a', 'x');
      c.put('scan', 'b', 'y');
      c.putJson('scan', 'c', {});
    }).not.toThrow();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/cannot be written \(ENOTDIR.*running without writing it/);
    expect(c.stats()).toMatchObject({ writes: 0, writeError: expect.stringMatching(/ENOTDIR/) });
    expect(c.get('scan', 'a')).toBeUndefined();
  });
});

describe('versions, info and clear', () => {
  it('another version’s folder is ignored, counted by info, and removed by clear with this one', () => {
    const dir = temp();
    const root = join(dir, 'c');
    const c = openCache(dir, { enabled: true, dir: root });
    c.put('scan', 'k', 'now');
    // an older pinwatch's entry for the same key, at the same relative path
    const old = join(root, 'v0.0.1', entryPath('scan', 'k'));
    mkdirSync(join(old, '..'), { recursive: true });
    writeFileSync(old, encodeEntry('scan', 'k', Buffer.from('old')));
    writeFileSync(`${old}.123-abcd.tmp`, 'a temp file a killed run left');
    expect(c.get('scan', 'k')!.toString()).toBe('now');
    const info = cacheInfo(dir, { dir: root });
    expect(info.dir).toBe(root);
    expect(info.version).toBe(currentVersionFolder());
    expect(info.versions.map((v) => [v.name, v.entries, v.current])).toEqual(
      [
        ['v0.0.1', 1, false],
        [currentVersionFolder(), 1, true],
      ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
    );
    expect(info.entries).toBe(2);
    expect(info.bytes).toBeGreaterThan(readFileSync(old).length * 2);
    const cleared = clearCache(dir, { dir: root });
    expect(cleared.entries).toBe(2);
    expect(existsSync(root)).toBe(false);
    expect(clearCache(dir, { dir: root })).toMatchObject({ entries: 0, versions: [] });
  });

  it('clearing a git repository’s cache leaves the rest of .git/pinwatch (the write journal) alone', () => {
    const r = repo();
    r.commit({ 'a.txt': 'a\n' }, 'init');
    const c = openCache(r.dir, { enabled: true, env: {} });
    c.put('scan', 'k', 'v');
    writeFileSync(join(r.dir, '.git', 'pinwatch', 'journal.json'), '{}');
    expect(clearCache(r.dir, { env: {} }).entries).toBe(1);
    expect(readdirSync(join(r.dir, '.git', 'pinwatch'))).toEqual(['journal.json']);
    expect(r.git('status', '--porcelain')).toBe('');
  });

  it('cacheFor is disabled until configured, then one cache per root', () => {
    const dir = temp();
    expect(cacheFor(dir).enabled).toBe(false);
    configureCache({ enabled: true, dir: join(dir, 'c') });
    expect(cacheFor(dir).enabled).toBe(true);
    expect(cacheFor(dir)).toBe(cacheFor(join(dir, '.')));
    configureCache({ enabled: false });
    expect(cacheFor(dir).enabled).toBe(false);
  });
});

const dist = new URL('../../dist/cache/store.js', import.meta.url);

describe('concurrent runs', () => {
  it.skipIf(!existsSync(dist))('processes writing the same entries at once: every read is a miss or the whole value', async () => {
    const dir = temp();
    const root = join(dir, 'c');
    const big = 'x'.repeat(300_000);
    const script = `
      const { openCache } = await import(${JSON.stringify(dist.href)});
      const c = openCache('.', { enabled: true, dir: ${JSON.stringify(root)} });
      for (let i = 0; i < 60; i++) for (let k = 0; k < 5; k++) c.putJson('scan', 'k' + k, { k, big: 'x'.repeat(300000), by: process.pid });
      const s = c.stats();
      if (s.writeError) throw new Error(s.writeError);
    `;
    const children = Array.from({ length: 3 }, () => spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] }));
    const exits = children.map((ch) => new Promise<number>((res) => ch.on('exit', (code) => res(code ?? -1))));
    // the reader runs the same build as the writers (a build's entries live in its own version folder)
    const built = (await import(dist.href)) as typeof import('../../src/cache/store.js');
    const reader = built.openCache('.', { enabled: true, dir: root });
    let whole = 0;
    let done = false;
    void Promise.all(exits).then(() => (done = true));
    while (!done) {
      for (let k = 0; k < 5; k++) {
        const v = reader.getJson<{ k: number; big: string }>('scan', `k${k}`);
        if (v === undefined) continue;
        expect(v.k).toBe(k);
        expect(v.big).toBe(big);
        whole++;
      }
      await new Promise((res) => setTimeout(res, 1));
    }
    expect(await Promise.all(exits)).toEqual([0, 0, 0]);
    expect(whole).toBeGreaterThan(0);
    // no temp file is left behind, and each entry is one whole file
    const files = execFileSync('find', [root, '-type', 'f'], { encoding: 'utf8' }).trim().split('\n');
    expect(files).toHaveLength(5);
    for (let k = 0; k < 5; k++) expect(reader.getJson<{ k: number }>('scan', `k${k}`)!.k).toBe(k);
  });
});
