import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';
import type { TestRepo } from '../support/repo.js';
import { D1, FILES, packageMakefile, seedRepo } from '../support/seed-tree.js';

interface JsonFinding {
  rule: string;
  severity: string;
  file?: string;
  line?: number;
  pin?: { keyPath?: string };
  suppressed?: { kind: string; reason?: string };
}

const repos: TestRepo[] = [];
afterAll(() => repos.forEach((r) => r.cleanup()));

function repo(extra: Record<string, string | null> = {}): TestRepo {
  const r = seedRepo(extra);
  repos.push(r);
  return r;
}

async function lintJson(dir: string, ...args: string[]) {
  const r = await runCli(['--repo', dir, '--format', 'json', ...args, 'lint']);
  if (r.code === 2) throw new Error(r.err);
  return { code: r.code, report: JSON.parse(r.out) as { findings: JsonFinding[]; summary: Record<string, number>; baseline: unknown } };
}

function byRule(findings: JsonFinding[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of findings) (out[f.rule] ??= []).push(f.pin?.keyPath ? `${f.file}#${f.pin.keyPath}` : `${f.file}:${f.line}`);
  for (const k of Object.keys(out)) out[k]!.sort();
  return out;
}

describe('pinwatch lint on a seed-shaped tree', () => {
  const seed = repo();

  it('fires every rule exactly where it should, and exits 1', async () => {
    const { code, report } = await lintJson(seed.dir);
    expect(code).toBe(1);
    expect(byRule(report.findings)).toEqual({
      'first-party-missing-digest': [`${FILES.bsc}#backupStrategyController.redisBackupClientImage`, `${FILES.mc}#migrationController.image`],
      'floating-tag': [`${FILES.installer}#cozystack.image`, `${FILES.mc}#migrationController.image`],
      'repository-multiple-digests': [`${FILES.swfs}#seaweedfs.cosi.image`, `${FILES.osc}#objectstorage.controller.image`],
      'no-producer': [`${FILES.bsc}#backupStrategyController.redisBackupClientImage`],
      'multiple-producers': [`${FILES.dashboard}#dashboard.image`],
      'lockstep-mismatch': [`${FILES.bsc}#backupStrategyController.chBackupClientImage`],
      'producer-not-built': ['packages/system/kilo/Makefile:3'],
    });
  });

  it('prints text with file:line:col and a summary', async () => {
    const r = await runCli(['--repo', seed.dir, 'lint']);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${FILES.bsc}:3:28: error [first-party-missing-digest] ghcr.io/acme/redis-backup:v1.6.0 is pinned without a digest`);
    // the summary first (under the title), then the findings
    expect(r.out).toMatch(/^pinwatch lint\n\n10 findings: 10 errors, 0 warnings, 0 notes\n/);
  });

  it('--fail-on never exits 0; rule levels from config change severities', async () => {
    expect((await runCli(['--repo', seed.dir, '--fail-on', 'never', 'lint'])).code).toBe(0);
    const relaxed = repo({
      'pinwatch.yaml': [
        'firstParty: [ghcr.io/acme/]',
        'include: ["packages/**/values.yaml"]',
        'rules:',
        ...['first-party-missing-digest', 'floating-tag', 'repository-multiple-digests', 'no-producer', 'multiple-producers', 'lockstep-mismatch'].map((r) => `  ${r}: warning`),
        '  producer-not-built: off',
        '  third-party-missing-digest: note',
        '',
      ].join('\n'),
    });
    const { code, report } = await lintJson(relaxed.dir);
    expect(code).toBe(0);
    expect(report.findings.every((f) => f.severity === 'warning' || f.rule === 'third-party-missing-digest')).toBe(true);
    expect(report.findings.some((f) => f.rule === 'producer-not-built')).toBe(false);
    expect(byRule(report.findings)['third-party-missing-digest']).toEqual([`${FILES.bsc}#backupStrategyController.busybox`]);
    expect((await runCli(['--repo', relaxed.dir, '--fail-on', 'warning', 'lint'])).code).toBe(1);
  });

  it('rejects an unknown format with exit 2', async () => {
    const r = await runCli(['--repo', seed.dir, '--format', 'yaml', 'lint']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--format must be one of text, json, sarif, markdown, github');
  });
});

describe('negative tree', () => {
  it('a tree where every invariant holds has no findings and exits 0', async () => {
    const clean = repo({
      [FILES.bsc]: `backupStrategyController:\n  image: "ghcr.io/acme/bsc:v1.6.0@${D1}"\n  chBackupClientImage: "ghcr.io/acme/platform-migrations:v1.5.0@${D1}"\n`,
      [FILES.platform]: `migrations:\n  image: ghcr.io/acme/platform-migrations:v1.5.0@${D1}\n`,
      [FILES.swfs]: `seaweedfs:\n  cosi:\n    image: ghcr.io/acme/objectstorage-controller:v1.5.0@${D1}\n`,
      [FILES.mc]: `migrationController:\n  image: ghcr.io/acme/migration-controller:v1.6.0@${D1}\n`,
      [FILES.installer]: `cozystack:\n  image: ghcr.io/acme/installer:v1.6.0@${D1}\n`,
      'Makefile': `build:\n${['bsc', 'osc', 'mc', 'dashboard', 'kilo'].map((p) => `\tmake -C packages/system/${p} image\n`).join('')}\tmake -C packages/core/platform image\n\tmake -C packages/core/installer image\n\tmake -C packages/extra/swfs image\n`,
      'packages/core/platform/Makefile': packageMakefile('platform-migrations', '.migrations.image').replace(
        "yq -i '.migrations.image = strenv(IMAGE)' values.yaml",
        "yq -i '.migrations.image = strenv(IMAGE)' values.yaml\n\tIMAGE=\"$(REGISTRY)/platform-migrations:$(IMAGE_TAG)@$$(yq e '.\"containerimage.digest\"' images/platform-migrations.json -r)\" \\\n\t\tyq -i '.backupStrategyController.chBackupClientImage = strenv(IMAGE)' ../../system/bsc/values.yaml",
      ),
      'packages/core/platform/images/platform-migrations/Dockerfile': 'FROM scratch\n',
    });
    const r = await runCli(['--repo', clean.dir, 'lint']);
    expect(r.out).toBe('pinwatch lint\n\nno findings\n');
    expect(r.code).toBe(0);
  });
});

describe('broken build recipes are findings, not crashes', () => {
  it('a malformed Makefile and a producer writing a missing file', async () => {
    const broken = repo({
      'packages/system/broken/Makefile': 'image:\n\tdocker buildx build . --tag ghcr.io/acme/broken:v1\nifeq (a,b\nfoo bar baz\n',
      'packages/system/dashboard/Makefile': `${packageMakefile('dashboard', '.dashboard.image')}\nimage-ghost:\n\tIMAGE=x yq -i '.ghost.image = strenv(IMAGE)' ../ghost/values.yaml\n`,
    });
    const { report } = await lintJson(broken.dir);
    const problems = report.findings.filter((f) => f.rule === 'build-recipe-problem');
    expect(problems.some((f) => f.file === 'packages/system/broken/Makefile' && f.line === 4)).toBe(true);
    expect(problems.some((f) => f.file === 'packages/system/dashboard/Makefile' && f.severity === 'warning')).toBe(true);
    expect(report.findings.filter((f) => f.rule === 'first-party-missing-digest')).toHaveLength(2);
  });
});

describe('suppressions through the CLI', () => {
  it('inline directives suppress and are listed; a reasonless one fails', async () => {
    const r = repo({
      [FILES.mc]: 'migrationController:\n  # pinwatch-ignore floating-tag,first-party-missing-digest dev-only chart (#4262)\n  image: ghcr.io/acme/migration-controller:latest\n',
      [FILES.installer]: `cozystack:\n  image: ghcr.io/acme/installer:latest@${D1} # pinwatch-ignore floating-tag\n`,
    });
    const { report } = await lintJson(r.dir);
    const mc = report.findings.filter((f) => f.file === FILES.mc);
    expect(mc.map((f) => [f.rule, f.suppressed])).toEqual([
      ['first-party-missing-digest', { kind: 'inline', reason: 'dev-only chart (#4262)' }],
      ['floating-tag', { kind: 'inline', reason: 'dev-only chart (#4262)' }],
    ]);
    const inst = report.findings.filter((f) => f.file === FILES.installer).map((f) => [f.rule, f.suppressed?.kind ?? null]);
    expect(inst).toEqual([
      ['suppression-without-reason', null],
      ['floating-tag', 'inline'],
    ]);
  });

  it('a baseline written today makes lint pass; a new violation fails alone', async () => {
    const r = repo();
    const w = await runCli(['--repo', r.dir, 'lint', '--write-baseline']);
    expect(w.code).toBe(0);
    expect(w.err).toContain('wrote 10 findings to the baseline .pinwatch-baseline.json');
    const baseline = JSON.parse(readFileSync(join(r.dir, '.pinwatch-baseline.json'), 'utf8'));
    expect(baseline.findings).toHaveLength(10);

    const clean = await lintJson(r.dir);
    expect(clean.code).toBe(0);
    expect(clean.report.findings.every((f) => f.suppressed?.kind === 'baseline')).toBe(true);
    expect(clean.report.baseline).toMatchObject({ file: '.pinwatch-baseline.json', entries: 10, matched: 10, unused: [] });

    // An unrelated edit shifts every line of the file; a new bare-tag pin appears.
    const text = readFileSync(join(r.dir, FILES.bsc), 'utf8');
    writeFileSync(join(r.dir, FILES.bsc), `# a comment\n\n${text}  newImage: ghcr.io/acme/new:v1\n`);
    const next = await lintJson(r.dir);
    expect(next.code).toBe(1);
    const active = next.report.findings.filter((f) => !f.suppressed);
    expect(active.map((f) => [f.rule, f.pin?.keyPath])).toEqual([
      ['first-party-missing-digest', 'backupStrategyController.newImage'],
      ['no-producer', 'backupStrategyController.newImage'],
    ]);
    const all = await runCli(['--repo', r.dir, '--format', 'json', 'lint', '--no-baseline']);
    expect(all.code).toBe(1);
    expect(JSON.parse(all.out).findings.filter((f: JsonFinding) => !f.suppressed)).toHaveLength(12);
  });

  it('a baseline named by flag must exist; a broken one is a clear error', async () => {
    const r = repo();
    const missing = await runCli(['--repo', r.dir, 'lint', '--baseline', 'nope.json']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('baseline "nope.json" does not exist');
    writeFileSync(join(r.dir, '.pinwatch-baseline.json'), '{"version": 1}');
    const bad = await runCli(['--repo', r.dir, 'lint']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('has no "findings" list');
  });
});

describe('machine formats through the CLI', () => {
  const seed = repo();

  it('sarif has rules, results and fingerprints', async () => {
    const r = await runCli(['--repo', seed.dir, '--format', 'sarif', 'lint']);
    const log = JSON.parse(r.out);
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0].results).toHaveLength(10);
    expect(log.runs[0].results.every((x: any) => x.partialFingerprints['pinwatch/v1'])).toBe(true);
  });

  it('github prints annotations and appends the job summary', async () => {
    const summary = join(seed.dir, 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    const r = await runCli(['--repo', seed.dir, '--format', 'github', 'lint'], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(1);
    expect(r.out).toContain(`::error file=${FILES.mc},line=2,col=10,title=pinwatch floating-tag::ghcr.io/acme/migration-controller%3Alatest`.replace('%3Alatest', ':latest'));
    const md = readFileSync(summary, 'utf8');
    expect(md.startsWith('# earlier step\n## pinwatch lint: 10 findings')).toBe(true);
  });

  it('an unwritable GITHUB_STEP_SUMMARY is a runtime error, not silence', async () => {
    const r = await runCli(['--repo', seed.dir, '--format', 'github', 'lint'], { env: { GITHUB_STEP_SUMMARY: join(seed.dir, 'no/such/dir/summary.md') } });
    expect(r.code).toBe(2);
    expect(r.err).toContain('cannot append to GITHUB_STEP_SUMMARY');
  });

  it('--output writes the report to a file', async () => {
    const r = await runCli(['--repo', seed.dir, '--format', 'markdown', '--output', join(seed.dir, 'out.md'), 'lint']);
    expect(r.out).toBe('');
    expect(readFileSync(join(seed.dir, 'out.md'), 'utf8')).toContain('| Severity | Rule | Location | Message |');
  });
});
