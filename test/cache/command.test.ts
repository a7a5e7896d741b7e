/**
 * `pinwatch cache info|clear`, `--no-cache` and PINWATCH_NO_CACHE through the
 * CLI: where the cache is and what it holds, clearing it (and saying so), that
 * neither switch writes anything (nor the registry's digest cache), and that a
 * cache folder that cannot be written never fails a command (told once under -v).
 */
import { Ajv } from 'ajv';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';
import { pushImage, startRegistry, type TestRegistry } from '../support/registry.js';
import { makeRepo, type TestRepo } from '../support/repo.js';

const validate = new Ajv({ strict: true, allErrors: true }).compile(JSON.parse(readFileSync(new URL('../../schemas/cache-output.schema.json', import.meta.url), 'utf8')) as object);
function expectSchema(doc: unknown): void {
  expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
}

const repos: TestRepo[] = [];
const temps: string[] = [];
afterEach(() => {
  repos.splice(0).forEach((r) => r.cleanup());
  temps.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});
function repo(): TestRepo {
  const r = makeRepo('pinwatch-cache-cli-');
  // 4 KiB or more: a file the scan caches (SCAN_CACHE_MIN_BYTES)
  r.commit({ 'deploy/values.yaml': `${'# a values file the scan caches\n'.repeat(140)}app:\n  image: ghcr.io/acme/app:v1\n`, 'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\n' }, 'init');
  repos.push(r);
  return r;
}
function temp(): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), 'pinwatch-cache-cli-t-')));
  temps.push(d);
  return d;
}

describe('pinwatch cache', () => {
  it('info says where the cache is and what it holds; clear removes it and says what it removed', async () => {
    const r = repo();
    const dir = join(realpathSync(r.dir), '.git', 'pinwatch', 'cache');
    const empty = await runCli(['--repo', r.dir, 'cache', 'info']);
    expect(empty).toMatchObject({ code: 0, err: '' });
    expect(empty.out).toContain(`cache:   ${dir} (in the git dir)`);
    expect(empty.out).toMatch(/caching: on\n/);
    expect(empty.out).toMatch(/holds: {3}0 entries, 0 B\n/);

    expect((await runCli(['--repo', r.dir, 'scan'])).code).toBe(0);
    const info = await runCli(['--repo', r.dir, '--format', 'json', 'cache', 'info']);
    const doc = JSON.parse(info.out) as { dir: string; source: string; enabled: boolean; entries: number; bytes: number; versionFolder: string; versions: { name: string; current: boolean }[] };
    expectSchema(doc);
    expect(doc).toMatchObject({ version: 1, action: 'info', dir, source: 'git', enabled: true, entries: 1 });
    expect(doc.bytes).toBeGreaterThan(0);
    expect(doc.versionFolder).toMatch(/^v0\.\d+\.\d+/);
    expect(doc.versions).toEqual([expect.objectContaining({ name: doc.versionFolder, current: true })]);
    expect(validate({ ...doc, entries: -1 }), 'a mutated document fails the schema').toBe(false);

    const clear = await runCli(['--repo', r.dir, 'cache', 'clear']);
    expect(clear).toMatchObject({ code: 0, err: '' });
    expect(clear.out).toMatch(new RegExp(`^removed ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 1 entry, \\d+(\\.\\d)? (B|KB) \\(1 version folder\\)\\n$`));
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(join(r.dir, '.git', 'pinwatch'))).toBe(true);
    const again = await runCli(['--repo', r.dir, 'cache', 'clear']);
    expect(again.out).toBe(`nothing to remove: ${dir} holds no cache\n`);
    const json = await runCli(['--repo', r.dir, '--format', 'json', 'cache', 'clear']);
    expectSchema(JSON.parse(json.out));
    expect(JSON.parse(json.out)).toMatchObject({ action: 'clear', removed: false, entries: 0 });
  });

  it('-v says what the run found in the cache and wrote; without -v nothing', async () => {
    const r = repo();
    const first = await runCli(['--repo', r.dir, '-v', 'scan']);
    expect(first.err).toMatch(/^pinwatch: cache: 0 found, 1 not found, 1 written \(.*\.git\/pinwatch\/cache\/v[^)]*\)$/m);
    const second = await runCli(['--repo', r.dir, '--verbose', 'scan']);
    expect(second.err).toMatch(/^pinwatch: cache: 1 found, 0 not found, 0 written /m);
    expect((await runCli(['--repo', r.dir, 'scan'])).err).toBe('');
    expect((await runCli(['--repo', r.dir, '-v', '--no-cache', 'scan'])).err).not.toMatch(/cache:/);
  });

  it('an unknown action is a usage error naming the two', async () => {
    const r = await runCli(['cache', 'prune']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/value 'prune' is invalid for argument 'action'. Allowed choices are info, clear/);
  });

  it('outside git: the user cache dir by repository path; with no HOME either, there is none and nothing is cached', async () => {
    const tree = temp();
    writeFileSync(join(tree, 'values.yaml'), `${'# a values file the scan caches\n'.repeat(140)}image: ghcr.io/acme/app:v1\n`);
    const home = temp();
    expect((await runCli(['--repo', tree, 'scan'], { env: { HOME: home } })).code).toBe(0);
    const info = JSON.parse((await runCli(['--repo', tree, '--format', 'json', 'cache', 'info'], { env: { HOME: home } })).out) as { dir: string; source: string; entries: number };
    expectSchema(info);
    expect(info).toMatchObject({ source: 'xdg', entries: 1 });
    expectSchema(JSON.parse((await runCli(['--repo', tree, '--no-cache', '--format', 'json', 'cache', 'info'])).out));
    expect(info.dir.startsWith(join(home, '.cache', 'pinwatch', 'repos'))).toBe(true);
    const none = await runCli(['--repo', tree, 'cache', 'info']);
    expect(none.out).toMatch(/^no cache folder is known for this repository: .*; nothing is cached\ncompile: off \(neither XDG_CACHE_HOME nor HOME is set\)\n$/);
  });
});

describe('--no-cache and PINWATCH_NO_CACHE', () => {
  for (const [how, args, env] of [
    ['--no-cache before the command', ['--no-cache', 'scan'], {}],
    ['--no-cache after the command', ['scan', '--no-cache'], {}],
    ['PINWATCH_NO_CACHE=1', ['scan'], { PINWATCH_NO_CACHE: '1' }],
  ] as const) {
    it(`${how}: nothing is written`, async () => {
      const r = repo();
      expect((await runCli(['--repo', r.dir, ...args], { env })).code).toBe(0);
      expect(existsSync(join(r.dir, '.git', 'pinwatch', 'cache'))).toBe(false);
    });
  }

  it("cache info shows the compile cache (the command's own, not the repository's): its folder and entries, or why there is none; cache clear leaves it", async () => {
    const r = repo();
    const cc = temp();
    writeFileSync(join(cc, 'a'.repeat(40)), 'x'.repeat(10));
    writeFileSync(join(cc, `ran-${'b'.repeat(40)}`), ''); // the first run's mark: not an entry
    const env = { PINWATCH_COMPILE_CACHE: cc };
    const on = await runCli(['--repo', r.dir, 'cache', 'info'], { env });
    expect(on.out).toContain(`compile: ${cc}: 1 entry, 10 B (V8's bytecode of pinwatch's own code, for every repository; cache clear leaves it)\n`);
    const json = JSON.parse((await runCli(['--repo', r.dir, '--format', 'json', 'cache', 'info'], { env })).out) as { compileCache: unknown };
    expectSchema(json);
    expect(json.compileCache).toEqual({ dir: cc, entries: 1, bytes: 10 });
    expect((await runCli(['--repo', r.dir, 'cache', 'clear'], { env })).code).toBe(0);
    expect(readdirSync(cc)).toHaveLength(2);

    const off = await runCli(['--repo', r.dir, '--format', 'json', 'cache', 'info'], { env: { PINWATCH_COMPILE_CACHE: '0' } });
    expectSchema(JSON.parse(off.out));
    expect((JSON.parse(off.out) as { compileCache: unknown }).compileCache).toEqual({ dir: null, off: 'PINWATCH_COMPILE_CACHE=0', entries: 0, bytes: 0 });
    expect((await runCli(['--repo', r.dir, 'cache', 'info'])).out).toContain('compile: off (neither XDG_CACHE_HOME nor HOME is set)\n');
    if (process.getuid) {
      chmodSync(cc, 0o777);
      expect((await runCli(['--repo', r.dir, 'cache', 'info'], { env })).out).toContain(`compile: off (${cc} is not this user's own, or others can write it)\n`);
    }
  });

  it('cache info says caching is off, and by what', async () => {
    const r = repo();
    expect((await runCli(['--repo', r.dir, 'cache', 'info'], { env: { PINWATCH_NO_CACHE: '1' } })).out).toMatch(/caching: off \(PINWATCH_NO_CACHE\)\n/);
    expect((await runCli(['--repo', r.dir, '--no-cache', 'cache', 'info'])).out).toMatch(/caching: off \(--no-cache\)\n/);
    expect((await runCli(['--repo', r.dir, 'cache', 'info'], { env: { PINWATCH_NO_CACHE: '0' } })).out).toMatch(/caching: on\n/);
  });

  it('a cache folder that cannot be written: the command answers as without it; -v says so once', async () => {
    const r = repo();
    const blocker = join(temp(), 'a-file');
    writeFileSync(blocker, 'not a folder');
    const env = { PINWATCH_CACHE_DIR: blocker };
    const plain = await runCli(['--repo', r.dir, '--no-cache', '--format', 'json', 'scan']);
    const quiet = await runCli(['--repo', r.dir, '--format', 'json', 'scan'], { env });
    expect(quiet).toEqual(plain);
    const verbose = await runCli(['--repo', r.dir, '-v', 'scan'], { env });
    expect(verbose.code).toBe(0);
    expect(verbose.err.match(/cannot be written/g)).toHaveLength(1);
    expect(verbose.err).toMatch(/pinwatch: the cache in .*a-file.* cannot be written \(ENOTDIR.*\); running without writing it\n/);
  });
});

describe('--no-cache turns off the registry digest cache too', () => {
  let reg: TestRegistry;
  let ref = '';
  beforeAll(async () => {
    reg = await startRegistry();
    ref = `${reg.host}/acme/app@${(await pushImage(reg, 'acme/app', 'v1', { content: 'v1' })).digest}`;
  });
  afterAll(async () => reg?.stop());

  it('inspect writes digest bodies to PINWATCH_CACHE_DIR, and none with --no-cache or PINWATCH_NO_CACHE', async () => {
    const r = repo();
    for (const [args, env] of [
      [['--no-cache', 'inspect', ref], {}],
      [['inspect', ref], { PINWATCH_NO_CACHE: '1' }],
    ] as const) {
      const dir = temp();
      const run = await runCli(['--repo', r.dir, ...args], { env: { PINWATCH_CACHE_DIR: dir, ...env } });
      expect(run.code, run.err).toBe(0);
      expect(readdirSync(dir)).toEqual([]);
    }
    const dir = temp();
    expect((await runCli(['--repo', r.dir, 'inspect', ref], { env: { PINWATCH_CACHE_DIR: dir } })).code).toBe(0);
    expect(readdirSync(dir)).toContain('sha256');
  });
});
