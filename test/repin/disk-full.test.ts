/**
 * repin on a full disk: deploy/ is a 64 KiB tmpfs holding a 40 KB values.yaml, so
 * its temp copy cannot be written in full. repin must exit 2 with one line naming
 * the file and ENOSPC, keep every old file byte for byte and leave no temp file
 * (it used to rename the short temp file over values.yaml and exit 0). Needs
 * `mount -t tmpfs` (root); where that is not permitted the test is skipped and its
 * name says why. The same failure is injected through the writer's `fs` seam in
 * src/util/atomic-write.test.ts and test/repin/journal.test.ts, which always run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';

const APP = 'ghcr.io/acme/app';
const OLD = `sha256:${'a'.repeat(64)}`;
const NEW = `sha256:${'c'.repeat(64)}`;

function mountTmpfs(dir: string, size: string): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Whether this machine lets the test mount a tmpfs, and why not. */
const cannotMount: string | undefined = (() => {
  const probe = mkdtempSync(join(tmpdir(), 'pinwatch-mount-probe-'));
  try {
    mountTmpfs(probe, '64k');
    execFileSync('umount', [probe]);
    return undefined;
  } catch (e) {
    return String((e as { stderr?: Buffer }).stderr ?? (e as Error).message).trim().split('\n')[0] || 'mount failed';
  } finally {
    rmdirSync(probe);
  }
})();

let repo: TestRepo | undefined;
let mounted: string | undefined;
afterEach(() => {
  if (mounted) execFileSync('umount', [mounted]);
  mounted = undefined;
  repo?.cleanup();
  repo = undefined;
});

const padding = '# padding so the temp copy does not fit\n'.repeat(1000);
const values = `app:\n  image: ${APP}:v1.0.0@${OLD}\n${padding}`;
const tag = `${APP}:v1.0.0@${OLD}\n`;

describe(`repin on a full disk${cannotMount ? ` (SKIPPED: mount -t tmpfs is not permitted here: ${cannotMount})` : ''}`, () => {
  it.skipIf(cannotMount !== undefined)('exits 2 with one line naming the file and ENOSPC; every old file intact; no temp file left', async () => {
    repo = makeRepo('pinwatch-diskfull-');
    repo.commit({ 'images/app.tag': tag, 'pinwatch.yaml': 'include: ["deploy/values.yaml", "images/*.tag"]\n' }, 'initial');
    const deploy = join(repo.dir, 'deploy');
    mkdirSync(deploy);
    mountTmpfs(deploy, '64k');
    mounted = deploy;
    writeFileSync(join(deploy, 'values.yaml'), values);
    expect(values.length).toBeGreaterThan(32 * 1024);

    const r = await runCli(['--repo', repo.dir, 'repin', APP, '--to', `${APP}:v1.1.0@${NEW}`]);
    expect(r.code).toBe(2);
    const lines = r.err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/cannot write ".*deploy\/values\.yaml": ENOSPC: no space left on device/);
    expect(lines[0]).not.toMatch(/\bat .*\.js/);
    expect(readFileSync(join(deploy, 'values.yaml'), 'utf8')).toBe(values);
    expect(readFileSync(join(repo.dir, 'images', 'app.tag'), 'utf8')).toBe(tag);
    expect(readdirSync(deploy)).toEqual(['values.yaml']);
    expect(readdirSync(join(repo.dir, 'images'))).toEqual(['app.tag']);
  });

  it.skipIf(cannotMount !== undefined)('a single file on the full disk: the same, and a plain scan afterwards reports nothing to recover', async () => {
    repo = makeRepo('pinwatch-diskfull-one-');
    repo.commit({ 'pinwatch.yaml': 'include: ["deploy/values.yaml"]\n' }, 'initial');
    const deploy = join(repo.dir, 'deploy');
    mkdirSync(deploy);
    mountTmpfs(deploy, '64k');
    mounted = deploy;
    writeFileSync(join(deploy, 'values.yaml'), values);
    const r = await runCli(['--repo', repo.dir, 'repin', APP, '--to', `${APP}:v1.1.0@${NEW}`]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^pinwatch: \[write-failed\] .*cannot write ".*deploy\/values\.yaml": ENOSPC/);
    expect(readFileSync(join(deploy, 'values.yaml'), 'utf8')).toBe(values);
    expect(readdirSync(deploy)).toEqual(['values.yaml']);
    const scan = await runCli(['--repo', repo.dir, 'scan', '--format', 'json']);
    expect((JSON.parse(scan.out) as { problems: unknown[] }).problems).toEqual([]);
  });
});
