/**
 * Hostile repository contents (a PR branch in CI is untrusted): FIFOs, devices,
 * sockets, symlink loops and symlinks out of the repository at every path
 * pinwatch reads, names that are not UTF-8 or hold a newline, and a config that
 * points at the process environment. The built command runs as a child process
 * under a time cap, so a read that blocks fails the test instead of hanging it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = join(process.cwd(), 'bin', 'pinwatch.js');
const TIME_CAP_MS = 15_000;

interface Run {
  code: number | null;
  out: string;
  err: string;
  timedOut: boolean;
}

/** `node bin/pinwatch.js ARGS`, killed after TIME_CAP_MS. */
function pinwatch(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--max-old-space-size=256', BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, TIME_CAP_MS);
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err, timedOut });
    });
  });
}

const dirs: string[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function repo(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-hostile-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

function git(dir: string, ...args: string[]): void {
  execFileSync('git', args, { cwd: dir, env: { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' }, stdio: 'ignore' });
}

function commitAll(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '-q', '-m', 'tree');
}

function fifo(path: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  execFileSync('mkfifo', [path]);
}

async function socketAt(path: string): Promise<void> {
  mkdirSync(join(path, '..'), { recursive: true });
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
}

interface SkippedJson {
  file: string;
  code: string;
  reason: string;
}

describe('special files at wanted paths: every command completes, each is listed as skipped with a reason', () => {
  async function hostileTree(): Promise<string> {
    const dir = repo({ 'ok/values.yaml': 'image: nginx:1.25\n' });
    fifo(join(dir, 'fifo/values.yaml'));
    await socketAt(join(dir, 'sock/values.yaml'));
    mkdirSync(join(dir, 'zero'));
    symlinkSync('/dev/zero', join(dir, 'zero/values.yaml'));
    mkdirSync(join(dir, 'loop'));
    symlinkSync('values.yaml', join(dir, 'loop/values.yaml'));
    return dir;
  }

  it('scan --format json lists the FIFO, the socket, the /dev/zero symlink and the loop', async () => {
    const dir = await hostileTree();
    const r = await pinwatch(['scan', '--repo', dir, '--format', 'json']);
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as { summary: { pins: number }; skipped: SkippedJson[] };
    expect(json.summary.pins).toBe(1);
    const byFile = Object.fromEntries(json.skipped.map((s) => [s.file, s]));
    expect(byFile['fifo/values.yaml']).toMatchObject({ code: 'not-a-regular-file', reason: expect.stringMatching(/FIFO/) });
    expect(byFile['sock/values.yaml']).toMatchObject({ code: 'not-a-regular-file', reason: expect.stringMatching(/socket/) });
    expect(byFile['zero/values.yaml']).toMatchObject({ code: 'symlink-outside-repo' });
    expect(byFile['loop/values.yaml']).toMatchObject({ code: 'symlink-loop', reason: expect.stringMatching(/loop/) });
  });

  it.each([['lint'], ['check']])('%s completes and names the special files', async (command) => {
    const dir = await hostileTree();
    commitAll(dir);
    const r = await pinwatch([command, '--repo', dir, '--format', 'json']);
    expect(r.timedOut).toBe(false);
    expect(r.err).not.toMatch(/internal error|\n\s+at /);
    expect(r.out).toContain('fifo/values.yaml');
    expect(r.out).toContain('sock/values.yaml');
    expect(r.out).toMatch(/FIFO/);
  });

  it('a declared extraFile that is a FIFO is listed, not read', async () => {
    const dir = repo({ 'pinwatch.yaml': 'extraFiles: [deploy/ds.yml]\n' });
    fifo(join(dir, 'deploy/ds.yml'));
    const r = await pinwatch(['scan', '--repo', dir, '--format', 'json']);
    expect(r.timedOut).toBe(false);
    const json = JSON.parse(r.out) as { skipped: SkippedJson[] };
    expect(json.skipped).toContainEqual(expect.objectContaining({ file: 'deploy/ds.yml', code: 'extra-file-not-a-file', reason: expect.stringMatching(/FIFO/) }));
  });
});

describe('extraFiles through a symlinked directory', () => {
  it('a declared extraFile whose directory leads out of the repository is listed as skipped, not read', async () => {
    const outside = repo({ 'deploy.yml': 'image: ghcr.io/evil/leak:1\n' });
    const dir = repo({ 'pinwatch.yaml': 'extraFiles: [ops/deploy.yml]\n' });
    symlinkSync(outside, join(dir, 'ops'));
    const r = await pinwatch(['scan', '--repo', dir, '--format', 'json']);
    const json = JSON.parse(r.out) as { summary: { pins: number }; skipped: SkippedJson[] };
    expect(json.summary.pins).toBe(0);
    expect(json.skipped).toContainEqual(expect.objectContaining({ file: 'ops/deploy.yml', code: 'path-outside-repo', reason: expect.stringMatching(/symlink leading out of the repository/) }));
  });
});

describe('special files at the paths the config names', () => {
  it('pinwatch.yaml as a FIFO: exit 2 with the reason, no hang', async () => {
    const dir = repo();
    fifo(join(dir, 'pinwatch.yaml'));
    const r = await pinwatch(['scan', '--repo', dir]);
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^pinwatch: \[config-unreadable\] pinwatch.yaml: cannot read the config: a FIFO \(named pipe\), not a regular file/);
  });

  it('baseline: naming a FIFO: lint exits 2 with the reason, no hang', async () => {
    const dir = repo({ 'pinwatch.yaml': 'baseline: ci/base.json\n', 'values.yaml': 'image: nginx:1.25\n' });
    fifo(join(dir, 'ci/base.json'));
    const r = await pinwatch(['lint', '--repo', dir]);
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/ci\/base.json.*FIFO/);
  });

  it.each([
    ['a FIFO', (p: string) => fifo(p)],
    ['a symlink to /dev/zero', (p: string) => symlinkSync('/dev/zero', p)],
  ])('the build entry Makefile as %s: lint completes', async (_name, make) => {
    const dir = repo({ 'values.yaml': 'image: nginx:1.25\n' });
    make(join(dir, 'Makefile'));
    const r = await pinwatch(['lint', '--repo', dir, '--format', 'json']);
    expect(r.timedOut).toBe(false);
    expect(r.err).not.toMatch(/internal error|heap/);
    expect([0, 1]).toContain(r.code);
  });
});

describe('a config that would leak the environment', () => {
  const SECRET = 'pinwatch-test-secret-9f3c1d';

  it('pinwatch.yaml as a symlink to /proc/self/environ is refused, the secret never printed', async () => {
    const dir = repo();
    symlinkSync('/proc/self/environ', join(dir, 'pinwatch.yaml'));
    const r = await pinwatch(['scan', '--repo', dir], { CI_TOKEN: SECRET });
    expect(r.code).toBe(2);
    expect(r.out + r.err).not.toContain(SECRET);
    expect(r.err).toMatch(/^pinwatch: \[path-outside-repo\] pinwatch.yaml: the config leads out of the repository/);
  });

  it('a config that is one long scalar is quoted only by a short escaped excerpt', async () => {
    const dir = repo({ 'pinwatch.yaml': `${'PATH=/usr/bin\u0001'.repeat(10)}CI_TOKEN=${SECRET}\n` });
    const r = await pinwatch(['scan', '--repo', dir]);
    expect(r.code).toBe(2);
    expect(r.err).not.toContain(SECRET);
    expect(r.err).toMatch(/pinwatch.yaml:1: the top level must be a map; saw string "PATH=\/usr\/bin\\u0001.*… \(\d+ characters\)/);
    expect(r.err.length).toBeLessThan(300);
  });
});

describe('names the walk must not lose', () => {
  it('a values file under a directory whose name holds a newline is scanned', async () => {
    const dir = repo({ 'a\nb/values.yaml': 'image: nginx:1.25\n' });
    const r = await pinwatch(['scan', '--repo', dir, '--format', 'json']);
    const json = JSON.parse(r.out) as { pins: { file: string }[]; skipped: SkippedJson[] };
    expect(json.pins.map((p) => p.file)).toEqual(['a\nb/values.yaml']);
    expect(json.skipped).toEqual([]);
  });

  it('a values file under a directory named with byte 0xff is scanned, shown with \\xff', async () => {
    const dir = repo();
    const bad = Buffer.concat([Buffer.from(`${dir}/`), Buffer.from([0x61, 0xff])]);
    mkdirSync(bad);
    writeFileSync(Buffer.concat([bad, Buffer.from('/values.yaml')]), 'image: nginx:1.25\n');
    const r = await pinwatch(['scan', '--repo', dir, '--format', 'json']);
    const json = JSON.parse(r.out) as { pins: { file: string }[]; skipped: SkippedJson[] };
    expect(json.skipped).toEqual([]);
    expect(json.pins.map((p) => p.file)).toEqual(['a\\xff/values.yaml']);
  });
});
