/** A hostile baseline: outside the repository, through a symlink, or not JSON — never quoted, never followed out. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tmp(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-baseline-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const PASSWD_LIKE = 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n';

describe('lint with a hostile baseline', () => {
  it('baseline: /etc/passwd is a config error at its line, and nothing of the file is quoted', async () => {
    const dir = tmp({ 'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\nbaseline: /etc/passwd\n', 'values.yaml': 'image: nginx:1.25\n' });
    const r = await runCli(['lint', '--repo', dir]);
    expect(r.code).toBe(2);
    expect(r.err).toBe('pinwatch: [config-invalid] pinwatch.yaml:2: baseline: "/etc/passwd" is absolute; expected a path inside the repository, relative to its root\n');
  });

  it('the default baseline as a symlink out of the repository is refused', async () => {
    const outside = tmp({ 'passwd': PASSWD_LIKE });
    const dir = tmp({ 'values.yaml': 'image: nginx:1.25\n' });
    symlinkSync(join(outside, 'passwd'), join(dir, '.pinwatch-baseline.json'));
    const r = await runCli(['lint', '--repo', dir]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^pinwatch: \[path-outside-repo\] .pinwatch-baseline.json: baseline ".pinwatch-baseline.json" leads out of the repository through a symlink/);
    expect(r.err).not.toContain('root:');
  });

  it('a baseline that is not JSON is reported by line, without an excerpt of it', async () => {
    const dir = tmp({ '.pinwatch-baseline.json': PASSWD_LIKE, 'values.yaml': 'image: nginx:1.25\n' });
    const r = await runCli(['lint', '--repo', dir]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^pinwatch: \[baseline-invalid\] .pinwatch-baseline.json: baseline is not JSON \(a syntax error/);
    expect(r.err).not.toContain('root');
  });
});
