import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config/index.js';
import { runOverlay, type OverlayOptions } from './repo.js';
import type { OverlayFileResult } from './types.js';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-overlay-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

function options(root: string, from: string, extra: Partial<OverlayOptions> = {}): OverlayOptions {
  const config = { ...defaultConfig(), firstParty: ['ghcr.io/acme/'] };
  return { root, from, config, skip: { built: [], touched: [], owned: [] }, dryRun: false, ignoreComments: false, ...extra };
}

const byFile = (files: OverlayFileResult[]) => Object.fromEntries(files.map((f) => [f.file, f]));

const SEED = (image: string, client: string, replicas = 2, comment = 'stamped by packages/core/platform/Makefile') => `backupStrategyController:
  # DO NOT hand-edit: ${comment}
  image: "${image}"
  replicas: ${replicas}
  redisBackupClientImage: "${client}"
`;
const COMMITTED = SEED(`ghcr.io/acme/backupstrategy-controller:v1.6.0@${D1}`, 'ghcr.io/acme/redis-backup:v1.6.0');
const FRESH = SEED(`iad.ocir.io/ci/acme/backupstrategy-controller:main@${D2}`, 'iad.ocir.io/ci/acme/redis-backup:main');

describe('runOverlay', () => {
  it('classifies every file and writes only the ref-only ones', () => {
    const root = tree({
      'packages/system/bsc/values.yaml': COMMITTED,
      'packages/system/same/values.yaml': `a:\n  image: ghcr.io/acme/a:v1@${D1}\n`,
      'packages/system/cfg/values.yaml': COMMITTED,
      'packages/system/cmt/values.yaml': COMMITTED,
      'packages/system/gone/values.yaml': COMMITTED,
      'packages/system/tagged/images/x.tag': `ghcr.io/acme/x:v1@${D1}\n`,
    });
    const from = tree({
      'packages/system/bsc/values.yaml': FRESH,
      'packages/system/same/values.yaml': `a:\n  image: ghcr.io/acme/a:v1@${D1}\n`,
      'packages/system/cfg/values.yaml': SEED(`iad.ocir.io/ci/acme/backupstrategy-controller:main@${D2}`, 'ghcr.io/acme/redis-backup:main', 3),
      'packages/system/cmt/values.yaml': SEED(`iad.ocir.io/ci/acme/backupstrategy-controller:main@${D2}`, 'ghcr.io/acme/redis-backup:main', 2, 'stamped by hack/stamp.sh'),
      'packages/system/new/values.yaml': FRESH,
      'packages/system/tagged/images/x.tag': `iad.ocir.io/ci/x:main@${D2}\n`,
    });
    const report = runOverlay(options(root, from));
    const f = byFile(report.files);
    expect(report.summary).toEqual({ overlaid: 2, same: 1, skipped: 0, drift: 2, failed: 0, missingInArtifact: 1, newInArtifact: 1 });
    expect(f['packages/system/bsc/values.yaml']).toMatchObject({ status: 'overlaid', method: 'structural', pins: 2 });
    expect(readFileSync(join(root, 'packages/system/bsc/values.yaml'), 'utf8')).toBe(FRESH);
    expect(f['packages/system/tagged/images/x.tag']).toMatchObject({ status: 'overlaid', kind: 'tag' });
    expect(readFileSync(join(root, 'packages/system/tagged/images/x.tag'), 'utf8')).toBe(`iad.ocir.io/ci/x:main@${D2}\n`);
    expect(f['packages/system/same/values.yaml']?.status).toBe('same');
    expect(f['packages/system/cfg/values.yaml']).toMatchObject({
      status: 'drift',
      lines: [{ line: 4, committed: '  replicas: 2', artifact: '  replicas: 3', kind: 'config', reason: 'no image reference on this line' }],
    });
    expect(readFileSync(join(root, 'packages/system/cfg/values.yaml'), 'utf8')).toBe(COMMITTED);
    expect(f['packages/system/cmt/values.yaml']).toMatchObject({ status: 'drift', lines: [{ line: 2, kind: 'comment', artifact: '  # DO NOT hand-edit: stamped by hack/stamp.sh' }] });
    expect(readFileSync(join(root, 'packages/system/cmt/values.yaml'), 'utf8')).toBe(COMMITTED);
    expect(f['packages/system/gone/values.yaml']?.status).toBe('missing-in-artifact');
    expect(f['packages/system/new/values.yaml']?.status).toBe('new-in-artifact');
    expect(() => readFileSync(join(root, 'packages/system/new/values.yaml'))).toThrow();
  });

  it('--ignore-comments overlays a comment-only difference', () => {
    const artifact = SEED(`iad.ocir.io/ci/acme/backupstrategy-controller:main@${D2}`, 'ghcr.io/acme/redis-backup:main', 2, 'stamped by hack/stamp.sh');
    const root = tree({ 'p/values.yaml': COMMITTED });
    const from = tree({ 'p/values.yaml': artifact });
    const report = runOverlay(options(root, from, { ignoreComments: true }));
    expect(report.files[0]).toMatchObject({ status: 'overlaid', lines: [{ line: 2, kind: 'comment' }] });
    expect(readFileSync(join(root, 'p/values.yaml'), 'utf8')).toBe(artifact);
  });

  it('skips the --built, --touched and --owned sets, each with its reason, before comparing', () => {
    const files = { 'packages/a/values.yaml': COMMITTED, 'packages/b/values.yaml': COMMITTED, 'packages/c/x/values.yaml': COMMITTED, 'packages/d/values.yaml': COMMITTED };
    const root = tree(files);
    const from = tree(Object.fromEntries(Object.keys(files).map((k) => [k, FRESH])));
    const skip = { built: ['packages/a'], touched: ['packages/b/'], owned: ['./packages/c'] };
    const report = runOverlay(options(root, from, { skip }));
    const f = byFile(report.files);
    expect(f['packages/a/values.yaml']).toMatchObject({ status: 'skipped', skip: { set: 'built', dir: 'packages/a' }, reason: 'rebuilt by this PR: its own refs are authoritative (--built packages/a)' });
    expect(f['packages/b/values.yaml']).toMatchObject({ status: 'skipped', skip: { set: 'touched', dir: 'packages/b' }, reason: 'edited by this PR: its committed refs are its intent (--touched packages/b)' });
    expect(f['packages/c/x/values.yaml']).toMatchObject({ status: 'skipped', skip: { set: 'owned', dir: 'packages/c' } });
    expect(f['packages/d/values.yaml']?.status).toBe('overlaid');
    expect(report.summary.skipped).toBe(3);
    expect(readFileSync(join(root, 'packages/a/values.yaml'), 'utf8')).toBe(COMMITTED);
  });

  it('a missing --from is a no-op with a clear message', () => {
    const root = tree({ 'p/values.yaml': COMMITTED });
    const report = runOverlay(options(root, join(root, 'no-such-dir')));
    expect(report.noArtifact).toBe(`no artifact tree at ${join(root, 'no-such-dir')}: nothing to overlay; every file keeps its committed refs`);
    expect(report.files).toEqual([]);
    expect(readFileSync(join(root, 'p/values.yaml'), 'utf8')).toBe(COMMITTED);
  });

  it('an unparsable file falls back to a line comparison and says so', () => {
    const broken = (ref: string) => `a:\n  image: ${ref}\n  extra: [unclosed\n`;
    const root = tree({ 'p/values.yaml': broken(`ghcr.io/acme/a:v1@${D1}`) });
    const from = tree({ 'p/values.yaml': broken(`ghcr.io/acme/a:main@${D2}`) });
    const report = runOverlay(options(root, from));
    expect(report.files[0]).toMatchObject({ status: 'overlaid', method: 'line-fallback' });
    expect(report.files[0]?.reason).toMatch(/did not parse .*compared line by line/);
  });

  it('a binary or unreadable copy fails that file only, with the reason', () => {
    const bin = Buffer.from([0x61, 0x00, 0x62]);
    const root = tree({ 'p/values.yaml': COMMITTED, 'q/values.yaml': COMMITTED, 'r/values.yaml': COMMITTED, 's/values.yaml': bin });
    const from = tree({ 'p/values.yaml': bin, 'q/values.yaml': FRESH, 'r/values.yaml': FRESH, 's/values.yaml': bin });
    chmodSync(join(from, 'q/values.yaml'), 0o000);
    const unreadable = process.getuid?.() !== 0; // root reads anything; the folder case below fails for root too
    const report = runOverlay(options(root, from));
    const f = byFile(report.files);
    expect(f['p/values.yaml']).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^the artifact copy cannot be compared: a NUL byte at offset 1/) });
    if (unreadable) expect(f['q/values.yaml']).toMatchObject({ status: 'failed', reason: 'the artifact copy cannot be compared: cannot read the file (EACCES)' });
    expect(f['r/values.yaml']?.status).toBe('overlaid');
    expect(f['s/values.yaml']?.status).toBe('same'); // identical bytes, text or not
    chmodSync(join(from, 'q/values.yaml'), 0o644);
  });

  it('--dry-run writes nothing and carries a unified diff of each overlaid file', () => {
    const root = tree({ 'p/values.yaml': COMMITTED });
    const from = tree({ 'p/values.yaml': FRESH });
    const report = runOverlay(options(root, from, { dryRun: true }));
    expect(report.files[0]?.status).toBe('overlaid');
    expect(readFileSync(join(root, 'p/values.yaml'), 'utf8')).toBe(COMMITTED);
    const patch = report.files[0]?.patch ?? '';
    expect(patch).toContain('--- a/p/values.yaml');
    expect(patch).toContain('+++ b/p/values.yaml');
    expect(patch).toContain(`-  image: "ghcr.io/acme/backupstrategy-controller:v1.6.0@${D1}"`);
    expect(patch).toContain('+  redisBackupClientImage: "iad.ocir.io/ci/acme/redis-backup:main"');
    expect(patch).not.toContain('-  replicas');
  });

  it('writes atomically: no temp files are left and the file mode is kept', () => {
    const root = tree({ 'p/values.yaml': COMMITTED });
    chmodSync(join(root, 'p/values.yaml'), 0o640);
    const from = tree({ 'p/values.yaml': FRESH });
    runOverlay(options(root, from));
    expect(readdirSync(join(root, 'p'))).toEqual(['values.yaml']);
    expect(readFileSync(join(root, 'p/values.yaml'), 'utf8')).toBe(FRESH);
    expect(statSync(join(root, 'p/values.yaml')).mode & 0o777).toBe(0o640);
  });

  it('--at maps the artifact root onto a checkout subdirectory', () => {
    const root = tree({ 'packages/system/x/values.yaml': COMMITTED, 'other/values.yaml': COMMITTED });
    const from = tree({ 'system/x/values.yaml': FRESH });
    const report = runOverlay(options(root, from, { at: 'packages' }));
    expect(report.files.map((f) => [f.file, f.status])).toEqual([['packages/system/x/values.yaml', 'overlaid']]);
    expect(readFileSync(join(root, 'packages/system/x/values.yaml'), 'utf8')).toBe(FRESH);
  });

  it('leaves vendored charts out and counts them', () => {
    const chart = { 'c/Chart.yaml': 'name: c\n', 'c/values.yaml': COMMITTED, 'c/charts/dep/values.yaml': COMMITTED };
    const root = tree(chart);
    const from = tree({ ...chart, 'c/values.yaml': FRESH, 'c/charts/dep/values.yaml': FRESH });
    const report = runOverlay(options(root, from));
    expect(report.files.map((f) => f.file)).toEqual(['c/values.yaml']);
    const vendored = report.excluded.find((e) => e.reason.includes('vendored'));
    expect(vendored?.examples).toContain('c/charts/dep/values.yaml');
  });
});

describe('runOverlay: odd files', () => {
  it('a symlinked file fails with the reason and nothing is written through it', () => {
    const root = tree({ 'p/real.yaml': COMMITTED, 'q/values.yaml': COMMITTED });
    symlinkSync('../p/real.yaml', join(root, 'q/values.yaml.tmp'));
    rmSync(join(root, 'q/values.yaml'));
    symlinkSync('values.yaml.tmp', join(root, 'q/values.yaml'));
    const from = tree({ 'q/values.yaml': FRESH });
    const report = runOverlay(options(root, from));
    expect(report.files).toMatchObject([{ file: 'q/values.yaml', status: 'failed', reason: expect.stringMatching(/^the checkout copy is a symlink to "values.yaml.tmp"/) }]);
    expect(readFileSync(join(root, 'p/real.yaml'), 'utf8')).toBe(COMMITTED);
  });
});
