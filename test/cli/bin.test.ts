/** The built command as a user runs it: a process with real pipes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { generateTree } from '../../bench/scan/generate.mjs';

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

  /** The modules a run loads (every ESM load, CommonJS packages by their entry), through a loader hook. */
  function loadedModules(args: string[]): { out: string; modules: string[] } {
    const log = join(dir, `modules-${args[0]}.log`);
    const hook = join(dir, 'hook.mjs');
    const onLoad = `import { appendFileSync } from 'node:fs'; export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`;
    writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(onLoad)}`)});\n`);
    writeFileSync(log, '');
    const r = spawnSync(process.execPath, ['--import', hook, join(process.cwd(), 'bin', 'pinwatch.js'), ...args], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return { out: r.stdout, modules: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
  }
  const has = (modules: string[], part: string) => modules.some((m) => m.includes(part));

  it('loads only what the command needs (issue 15): --version no commander, --help no command body, scan no recipe or findings code', () => {
    const version = loadedModules(['--version']);
    expect(version.out).toMatch(/^\d+\.\d+\.\d+/);
    for (const part of ['/node_modules/commander/', '/node_modules/yaml/', '/dist/cli/program.js', '/dist/cli/commands/']) expect(has(version.modules, part), part).toBe(false);
    expect(version.modules.filter((m) => m.includes('/dist/')).length).toBeLessThanOrEqual(8);

    const help = loadedModules(['--help']);
    expect(help.out).toContain('Usage: pinwatch');
    expect(has(help.modules, '/node_modules/commander/')).toBe(true);
    for (const part of ['/node_modules/yaml/', '/dist/cli/commands/']) expect(has(help.modules, part), part).toBe(false);

    const scan = loadedModules(['scan', '--repo', dir, '--format', 'json']);
    expect(JSON.parse(scan.out).pins.length).toBeGreaterThan(0);
    expect(has(scan.modules, '/dist/cli/commands/scan.js')).toBe(true);
    for (const part of ['/dist/producers/', '/dist/make/', '/dist/stale/', '/dist/provenance/', '/dist/rules/', '/dist/report/findings-', '/dist/cli/commands/check.js']) expect(has(scan.modules, part), part).toBe(false);
  });
});
