/**
 * The container image recipe (Dockerfile + docker/pinwatch.sh). No hadolint here:
 * the Dockerfile is read with pinwatch's own Dockerfile reader and its shape
 * checked (the rules hadolint would apply that matter for this file), the
 * entrypoint script is run for real on a checkout owned by another user (what a CI
 * runner mounts), and the image is built only where a Docker engine answers.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { lexDockerfile, parseDockerfile } from '../../src/dockerfile/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TEXT = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the Dockerfile', () => {
  const parsed = parseDockerfile(TEXT);
  const lexed = lexDockerfile(TEXT);
  const final = parsed.stages[parsed.stages.length - 1]!;
  const finalInstructions = lexed.instructions.filter((i) => i.line >= final.line);

  it('parses without problems: a build stage and a node-slim runtime stage (not distroless: pinwatch runs git)', () => {
    expect(parsed.problems).toEqual([]);
    expect(parsed.stages.map((s) => s.name ?? null)).toEqual(['build', null]);
    for (const s of parsed.stages) expect(s.base).toMatch(/^node:20[\w.-]*-slim(@sha256:[0-9a-f]{64})?$/);
  });
  it('ENTRYPOINT is the exec form ["pinwatch"], the default command check, and the script is installed as pinwatch', () => {
    const get = (k: string) => finalInstructions.filter((i) => i.keyword === k).map((i) => i.args.trim());
    expect(get('ENTRYPOINT').map((a) => JSON.parse(a) as unknown)).toEqual([['pinwatch']]);
    expect(get('CMD').map((a) => JSON.parse(a) as unknown)).toEqual([['check']]);
    const copies = final.ops.filter((o) => o.op === 'copy');
    expect(copies.some((c) => c.sources.includes('docker/pinwatch.sh') && c.dest === '/usr/local/bin/pinwatch')).toBe(true);
  });
  it('apt-get: --no-install-recommends, git installed, lists removed in the same RUN (hadolint DL3015, DL3009)', () => {
    const runs = parsed.stages.flatMap((s) => s.ops.filter((o) => o.op === 'run'));
    const apt = runs.filter((r) => /apt-get install/.test(r.command));
    expect(apt.length).toBeGreaterThan(0);
    for (const r of apt) {
      expect(r.command).toMatch(/apt-get install -y --no-install-recommends/);
      expect(r.command).toMatch(/\bgit\b/);
      expect(r.command).toMatch(/rm -rf \/var\/lib\/apt\/lists\/\*/);
    }
    // npm ci before the sources are copied: the prepare script must not run there
    expect(runs.find((r) => /npm ci/.test(r.command))?.command).toMatch(/--ignore-scripts/);
  });
  it('every COPY source exists, is not left out by .dockerignore, and every --from names a stage', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
    for (const stage of parsed.stages) {
      for (const op of stage.ops) {
        if (op.op !== 'copy') continue;
        if (op.from) {
          expect(parsed.stages.map((s) => s.name)).toContain(op.from);
          continue;
        }
        for (const src of op.sources) {
          expect(existsSync(join(ROOT, src)), src).toBe(true);
          expect(ignored.filter((p) => src === p || src.startsWith(`${p}/`)), src).toEqual([]);
        }
      }
    }
  });
  it('WORKDIRs are absolute and no instruction uses :latest', () => {
    for (const i of lexed.instructions.filter((x) => x.keyword === 'WORKDIR')) expect(i.args.trim()).toMatch(/^\//);
    expect(TEXT).not.toMatch(/:latest\b/);
  });
});

describe('docker/pinwatch.sh, the entrypoint', () => {
  const script = join(ROOT, 'docker/pinwatch.sh');
  it('is executable POSIX sh (dash parses it)', () => {
    expect(readFileSync(script, 'utf8').split('\n')[0]).toBe('#!/bin/sh');
    expect(spawnSync('sh', ['-n', script]).status).toBe(0);
    expect(execFileSync('sh', [script, '--version'], { env: { ...process.env, PINWATCH_HOME: ROOT }, encoding: 'utf8' }).trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
  it.runIf(process.getuid?.() === 0)('a checkout owned by another user (a CI mount): git alone refuses it, pinwatch through the entrypoint reads its history', () => {
    const repo = mkdtempSync(join(tmpdir(), 'pinwatch-entrypoint-'));
    dirs.push(repo);
    const git = (args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' } });
    git(['init', '-q']);
    writeFileSync(join(repo, 'values.yaml'), `image: ghcr.io/acme/app:v1@sha256:${'a'.repeat(64)}\n`);
    git(['add', '.']);
    git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'initial']);
    execFileSync('chown', ['-R', '12345:12345', repo]);
    const env = { ...process.env, PINWATCH_HOME: ROOT, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
    const plain = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: repo, env, encoding: 'utf8' });
    expect(plain.status).not.toBe(0);
    expect(plain.stderr).toMatch(/dubious ownership/);
    const r = spawnSync('sh', [script, 'stale', '--first-party', 'ghcr.io/acme/', '--format', 'json'], { cwd: repo, env, encoding: 'utf8' });
    expect(r.stderr).not.toMatch(/dubious|not-a-git-repo/);
    const report = JSON.parse(r.stdout) as { head: string; images: { repository: string }[] };
    expect(report.head).toMatch(/^[0-9a-f]{40}$/);
    expect(report.images.map((i) => i.repository)).toEqual(['ghcr.io/acme/app']);
  });
});

const engine = spawnSync('docker', ['info'], { timeout: 10_000 }).status === 0;
describe('the image', () => {
  it.runIf(engine)('builds where a Docker engine exists, and its entrypoint answers --version', { timeout: 600_000 }, () => {
    execFileSync('docker', ['build', '-q', '-t', 'pinwatch:test', ROOT], { stdio: 'pipe' });
    expect(execFileSync('docker', ['run', '--rm', 'pinwatch:test', '--version'], { encoding: 'utf8' }).trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
