/** The built command as a user runs it: a process with real pipes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { generateTree } from '../../bench/scan/generate.mjs';
import { buildDemoRepo } from '../../src/demo/build.js';
import { execFileSync } from 'node:child_process';

let dir: string;
beforeAll(() => {
  // big enough that the report takes many pipe buffers
  dir = mkdtempSync(join(tmpdir(), 'pinwatch-bin-'));
  generateTree(dir, 300);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bin/pinwatch.js', () => {
  it('stops quietly when the reader closes the pipe early (pinwatch scan | head -1)', async () => {
    const child = spawn(process.execPath, [join(process.cwd(), 'bin', 'pinwatch.js'), '--repo', dir, '--first-party', 'ghcr.io/acme/', 'scan', '--format', 'json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    expect(code).toBe(0);
  });

  /**
   * What a run loads, through a loader hook and CommonJS's compile step: the files (every ESM
   * load, every CommonJS module compiled: the bundle's chunks are CommonJS) and, for each chunk
   * of the bundle (dist/bundle/, what bin/pinwatch.js runs), the modules in it: the sources its
   * source map lists, as absolute paths.
   */
  function loadedModules(args: string[], preload?: string): { out: string; files: string[]; esm: string[]; modules: string[] } {
    const log = join(dir, `modules-${args[0]}.log`);
    const hook = join(dir, 'hook.mjs');
    const onLoad = `import { appendFileSync } from 'node:fs'; export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, 'E ' + url + '\\n'); return next(url, context); }`;
    const onCompile = `const compile = Module.prototype._compile; Module.prototype._compile = function (content, filename) { appendFileSync(${JSON.stringify(log)}, 'C ' + pathToFileURL(filename).href + '\\n'); return compile.call(this, content, filename); };`;
    writeFileSync(hook, `import { register } from 'node:module';\nimport Module from 'node:module';\nimport { appendFileSync } from 'node:fs';\nimport { pathToFileURL } from 'node:url';\n${onCompile}\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(onLoad)}`)});\n`);
    writeFileSync(log, '');
    // with the compile cache off the chunks are required as Node requires them, so its compile step sees each one
    // (the same chunks as with the cache on: src/cli/start.ts; test/cli/compile-cache.test.ts)
    const env = { ...process.env, PINWATCH_COMPILE_CACHE: '0' };
    const r = spawnSync(process.execPath, ['--import', hook, ...(preload ? ['--import', preload] : []), join(process.cwd(), 'bin', 'pinwatch.js'), ...args], { encoding: 'utf8', env });
    expect(r.status, r.stderr).toBe(0);
    const lines = readFileSync(log, 'utf8').split('\n').filter((l) => l.slice(2).startsWith('file:'));
    // the entry chunk is imported (the ESM hook sees it) and compiled (CommonJS): once
    const files = [...new Set(lines.map((l) => fileURLToPath(l.slice(2))))];
    const esm = lines.filter((l) => l.startsWith('E ')).map((l) => fileURLToPath(l.slice(2)));
    const modules = files.flatMap((f) => {
      if (!f.includes(`${sep}dist${sep}bundle${sep}`)) return [f];
      if (basename(f).startsWith('rolldown-runtime-')) return []; // the bundler's own helpers: no source, no map
      // a facade chunk (only the imports of the chunks a dynamic import needs) has no module of its own and no map
      if (!existsSync(`${f}.map`) && readFileSync(f, 'utf8').split('\n').every((l) => /^(require\("[^"]+"\);)?$/.test(l))) return [];
      const map = JSON.parse(readFileSync(`${f}.map`, 'utf8')) as { sources: string[] };
      return map.sources.map((s) => resolve(dirname(f), s));
    });
    return { out: r.stdout, files, esm, modules };
  }
  const has = (modules: string[], part: string) => modules.some((m) => m.includes(part));

  /** Node's own modules a run loads (process.moduleLoadList at exit), with no loader hook (a hook's thread loads worker_threads). */
  function builtinsLoaded(args: string[]): string[] {
    const log = join(dir, `builtins-${args[0]}.log`);
    const preload = join(dir, 'builtins.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(log)}, process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join('\\n')));\n`);
    // the compile cache on (src/cli/compile-cache.ts): its loader adds node:vm and node:crypto (its sha1s)
    const env = { ...process.env, PINWATCH_COMPILE_CACHE: join(dir, 'compile-cache') };
    const r = spawnSync(process.execPath, ['--require', preload, join(process.cwd(), 'bin', 'pinwatch.js'), ...args], { encoding: 'utf8', env });
    expect(r.status, r.stderr).toBe(0);
    return readFileSync(log, 'utf8').split('\n');
  }

  it('runs the bundle: every pinwatch module it loads comes from a dist/bundle/ chunk, none from dist/cli/ or node_modules/', () => {
    const scan = loadedModules(['scan', '--repo', dir, '--format', 'json']);
    const bundle = scan.files.filter((f) => f.includes('/dist/bundle/'));
    expect(bundle.length).toBeGreaterThan(0);
    // the chunks are CommonJS, required from the CommonJS bin (bin/package.json): Node 20's ESM loader costs ~0.4 ms
    // per module where require costs a tenth of that (rolldown.config.mjs), and a run loads 20 to 60 chunks; the
    // entry chunk goes through no ESM load either (the bin does here only because a loader hook is registered)
    expect(scan.esm.filter((f) => f.includes('/dist/bundle/'))).toEqual([]);
    expect(scan.files).toContain(join(process.cwd(), 'bin', 'pinwatch.js'));
    expect(scan.files).toContain(join(process.cwd(), 'dist', 'bundle', 'pinwatch.cjs'));
    expect(scan.files.filter((f) => !f.includes('/dist/bundle/') && !f.endsWith('/bin/pinwatch.js') && f !== join(dir, 'hook.mjs'))).toEqual([]);
    // the modules in the chunks are the TypeScript sources and the bundled dependencies
    expect(has(scan.modules, '/src/cli/main.ts')).toBe(true);
    expect(has(scan.modules, '/node_modules/commander/')).toBe(true);
    expect(scan.modules.filter((m) => !m.endsWith('/bin/pinwatch.js') && m !== join(dir, 'hook.mjs') && !m.includes('/src/') && !m.includes('/node_modules/'))).toEqual([]);
  });

  it('loads only what the command needs (issue 15): --version no commander, --help no command body, scan no recipe or findings code', () => {
    const version = loadedModules(['--version']);
    expect(version.out).toMatch(/^\d+\.\d+\.\d+/);
    for (const part of ['/node_modules/commander/', '/node_modules/yaml/', '/src/cli/program.ts', '/src/cli/commands/']) expect(has(version.modules, part), part).toBe(false);
    // the start chunk (start.ts, tiering.ts, compile-cache.ts) and the entry's
    expect(version.modules.filter((m) => m.includes('/src/')).length).toBeLessThanOrEqual(11);
    expect(version.files.filter((f) => f.includes('/dist/bundle/')).length).toBeLessThanOrEqual(6);

    const help = loadedModules(['--help']);
    expect(help.out).toContain('Usage: pinwatch');
    expect(has(help.modules, '/node_modules/commander/')).toBe(true);
    for (const part of ['/node_modules/yaml/', '/src/cli/commands/']) expect(has(help.modules, part), part).toBe(false);

    const scan = loadedModules(['scan', '--repo', dir, '--format', 'json']);
    expect(JSON.parse(scan.out).pins.length).toBeGreaterThan(0);
    expect(has(scan.modules, '/src/cli/commands/scan.ts')).toBe(true);
    for (const part of ['/src/producers/', '/src/make/', '/src/stale/', '/src/provenance/', '/src/rules/', '/src/report/findings-', '/src/cli/commands/check.ts']) expect(has(scan.modules, part), part).toBe(false);
  });

  it("starts no ESM loader (a CommonJS bin requiring CommonJS chunks), loads Node's worker_threads only when scan workers are asked for (src/scan/pool.ts), and node:v8 not for --version (src/cli/tiering.ts)", () => {
    const scan = builtinsLoaded(['scan', '--repo', dir, '--format', 'json']);
    expect(scan).toContain('child_process');
    expect(scan).toContain('v8'); // the tiering flag was set
    expect(scan).not.toContain('worker_threads');
    expect(scan).not.toContain('internal/modules/esm/loader');
    const stale = builtinsLoaded(['stale', '--repo', buildDemoRepo(join(dir, 'demo-builtins')), '--format', 'json', '--fail-on-stale', 'never']);
    expect(stale).toContain('child_process');
    expect(stale).not.toContain('internal/modules/esm/loader');
    const version = builtinsLoaded(['--version']);
    expect(version).toContain('fs');
    expect(version).not.toContain('v8');
  });

  it('a stale run that reuses the answer kept by the run before loads no scan, recipe, image or history-engine code (issue 15)', () => {
    const demo = buildDemoRepo(join(dir, 'demo'));
    const args = ['stale', '--repo', demo, '--format', 'json', '--fail-on-stale', 'never'];
    const filled = loadedModules(args);
    expect((JSON.parse(filled.out) as { stats: { reused?: unknown } }).stats.reused).toBeUndefined();
    expect(has(filled.modules, '/src/scan/repo.ts')).toBe(true);
    writeFileSync(join(demo, 'NOTES.txt'), 'notes\n');
    const env = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.test', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.test', GIT_AUTHOR_DATE: '2026-09-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-09-01T00:00:00Z' };
    execFileSync('git', ['-c', 'commit.gpgsign=false', 'add', 'NOTES.txt'], { cwd: demo, env });
    execFileSync('git', ['-c', 'commit.gpgsign=false', 'commit', '-qm', 'docs: notes'], { cwd: demo, env });
    const reused = loadedModules(args);
    const answer = JSON.parse(reused.out) as { stats: { reused?: { newCommits: number } }; images: unknown[] };
    expect(answer.stats.reused?.newCommits).toBe(1);
    expect(answer.images.length).toBeGreaterThan(0);
    expect(has(reused.modules, '/src/snapshot/check.ts')).toBe(true);
    for (const part of ['/src/scan/repo.ts', '/src/collect/', '/src/producers/repo.ts', '/src/make/', '/src/images/', '/src/sources/derive.ts', '/src/stale/history.ts', '/src/stale/judge.ts', '/src/provenance/', '/node_modules/diff/']) expect(has(reused.modules, part), part).toBe(false);
    // nor Node's modules only other paths use: node:os (a temp dir, the home directory), perf_hooks (timings come from
    // process.hrtime: src/util/clock.ts), zlib (the compile cache checks its entries with the sha1 it loads crypto for);
    // run three times, so the compile cache marks its folder, writes its entries, and then loads the chunks with them
    for (let run = 0; run < 3; run++) {
      const builtins = builtinsLoaded(args);
      for (const builtin of ['os', 'perf_hooks', 'zlib', 'worker_threads']) expect(builtins, `run ${run + 1}: ${builtin}`).not.toContain(builtin);
      expect(builtins).toContain('vm'); // the compile cache's loader ran
    }
    // the config kept by the run before (config/kept.ts): neither the loader nor the yaml package is loaded
    expect(has(reused.modules, '/src/config/kept.ts')).toBe(true);
    for (const part of ['/src/config/load.ts', '/node_modules/yaml/']) expect(has(reused.modules, part), part).toBe(false);
    // check shares the kept answer: it lints the kept scan and model, and judges nothing
    const check = loadedModules(['check', '--repo', demo, '--format', 'json', '--fail-on', 'never']);
    expect((JSON.parse(check.out) as { stale: { stats: { reused?: { newCommits: number } } } }).stale.stats.reused?.newCommits).toBe(1);
    for (const part of ['/src/images/', '/src/sources/derive.ts', '/src/stale/history.ts', '/src/stale/judge.ts', '/src/provenance/']) expect(has(check.modules, part), part).toBe(false);

    // a commit editing one image's Go source: that image judged again alone, on the kept scan and model; the
    // scan's collectors, the recipe readers, the yaml package and the registry client are loaded only to derive them
    appendFileSync(join(demo, 'internal/billing/ledger.go'), '// the ledger\n');
    execFileSync('git', ['-c', 'commit.gpgsign=false', 'commit', '-qam', 'fix(billing): the ledger'], { cwd: demo, env });
    const touched = loadedModules(args);
    const again = JSON.parse(touched.out) as { stats: { reused?: { newCommits: number; judged?: string[] } } };
    expect(again.stats.reused?.judged).toEqual(['billing-controller']);
    for (const part of ['/src/stale/judge.ts', '/src/stale/partial.ts', '/src/images/images.ts', '/src/sources/go/']) expect(has(touched.modules, part), part).toBe(true);
    for (const part of ['/src/scan/repo.ts', '/src/collect/', '/src/producers/repo.ts', '/src/make/', '/src/registry/', '/src/config/load.ts', '/node_modules/yaml/']) expect(has(touched.modules, part), part).toBe(false);
  });

  it('an internal error under PINWATCH_DEBUG prints a stack that names src/ files and lines (source maps); without it, no stack', () => {
    // a stdout whose write throws (not EPIPE): the one way from outside to make the command itself fail unexpectedly
    const broken = join(dir, 'broken-stdout.mjs');
    writeFileSync(broken, "process.stdout.write = () => { throw new Error('stdout broke'); };\n");
    const bin = join(process.cwd(), 'bin', 'pinwatch.js');
    const args = ['--import', broken, bin, 'scan', '--repo', dir];
    const debug = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, PINWATCH_DEBUG: '1' } });
    expect(debug.status).toBe(2);
    expect(debug.stderr).toContain('pinwatch: internal error: stdout broke');
    const frames = debug.stderr.split('\n').filter((l) => /^\s+at /.test(l));
    expect(frames.length).toBeGreaterThan(2);
    expect(debug.stderr).toMatch(/\/src\/cli\/context\.ts:\d+:\d+/);
    expect(debug.stderr).toMatch(/\/src\/cli\/commands\/scan\.ts:\d+:\d+/);
    expect(debug.stderr).not.toContain('/dist/bundle/');
    const plain = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, PINWATCH_DEBUG: '' } });
    expect(plain.status).toBe(2);
    expect(plain.stderr).toBe('pinwatch: internal error: stdout broke\n');
  });
});
