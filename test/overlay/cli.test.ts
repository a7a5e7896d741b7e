import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-overlay-cli-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

function cli(args: string[], env: Record<string, string> = {}) {
  return runCli(args, { env, cwd: '/' });
}

const committed = (replicas = 2) => `app:\n  image: ghcr.io/acme/app:v1@${D1}\n  replicas: ${replicas}\n`;
const fresh = (replicas = 2) => `app:\n  image: iad.ocir.io/ci/app:main@${D2}\n  replicas: ${replicas}\n`;

function fixture() {
  const root = tree({ 'packages/ok/values.yaml': committed(), 'packages/cfg/values.yaml': committed(), 'packages/own/values.yaml': committed() });
  const from = tree({ 'packages/ok/values.yaml': fresh(), 'packages/cfg/values.yaml': fresh(3), 'packages/own/values.yaml': fresh() });
  return { root, from };
}

describe('pinwatch overlay', () => {
  it('text: per-file lines with the drifted line, and the summary line last', async () => {
    const { root, from } = fixture();
    const r = await cli(['--repo', root, 'overlay', '--from', from, '--owned', '["packages/own"]']);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('overlaid=1 same=0 skipped=1 drift=1 failed=0 missing-in-artifact=0 new-in-artifact=0');
    expect(r.out).toContain('drift     packages/cfg/values.yaml: 1 non-ref line differs');
    expect(r.out).toContain('line 3 `replicas: 2` → `replicas: 3`: no image reference on this line');
    expect(r.out).toContain('skipped   packages/own/values.yaml: owned by another job (--owned packages/own)');
    expect(readFileSync(join(root, 'packages/ok/values.yaml'), 'utf8')).toBe(fresh());
  });

  it('skip flags are repeatable and accept JSON arrays and plain lists alike', async () => {
    const { root, from } = fixture();
    const r = await cli(['--repo', root, '--format', 'json', 'overlay', '--from', from, '--built', '["packages/ok"]', '--built', 'packages/cfg', '--touched', 'packages/own other/dir']);
    const json = JSON.parse(r.out);
    expect(json.summary).toMatchObject({ skipped: 3, overlaid: 0, drift: 0 });
    expect(json.files.map((f: { skip: { set: string } }) => f.skip.set).sort()).toEqual(['built', 'built', 'touched']);
  });

  it('--fail-on-drift exits 1 when a file drifted', async () => {
    const { root, from } = fixture();
    expect((await cli(['--repo', root, 'overlay', '--from', from, '--fail-on-drift'])).code).toBe(1);
  });

  it('a missing --from DIR is a clear no-op, exit 0', async () => {
    const { root } = fixture();
    const r = await cli(['--repo', root, 'overlay', '--from', join(root, 'nope'), '--fail-on-drift']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`no artifact tree at ${join(root, 'nope')}: nothing to overlay`);
    expect(readFileSync(join(root, 'packages/ok/values.yaml'), 'utf8')).toBe(committed());
  });

  it('--dry-run prints a unified diff and writes nothing', async () => {
    const { root, from } = fixture();
    const r = await cli(['--repo', root, 'overlay', '--from', from, '--dry-run']);
    expect(r.out).toContain('--- a/packages/ok/values.yaml');
    expect(r.out).toContain(`+  image: iad.ocir.io/ci/app:main@${D2}`);
    expect(r.out).not.toContain('+++ b/packages/cfg/values.yaml');
    expect(readFileSync(join(root, 'packages/ok/values.yaml'), 'utf8')).toBe(committed());
  });

  it('json: the report with summary and every file', async () => {
    const { root, from } = fixture();
    const r = await cli(['--repo', root, '--format', 'json', 'overlay', '--from', from, '--dry-run']);
    const json = JSON.parse(r.out);
    expect(json.summary).toEqual({ overlaid: 2, same: 0, skipped: 0, drift: 1, failed: 0, missingInArtifact: 0, newInArtifact: 0 });
    expect(json.files.find((f: { file: string }) => f.file === 'packages/cfg/values.yaml')).toMatchObject({
      status: 'drift',
      method: 'structural',
      lines: [{ line: 3, committed: '  replicas: 2', artifact: '  replicas: 3', kind: 'config' }],
    });
  });

  it('github: annotations on drifted lines, and the job summary appended to GITHUB_STEP_SUMMARY', async () => {
    const { root, from } = fixture();
    const summary = join(tree({ 'summary.md': '# before\n' }), 'summary.md');
    const r = await cli(['--repo', root, '--format', 'github', 'overlay', '--from', from], { GITHUB_STEP_SUMMARY: summary });
    expect(r.out).toContain('::warning file=packages/cfg/values.yaml,line=3,title=overlay drift%3A committed refs kept::line 3 `replicas: 2` → `replicas: 3`: no image reference on this line');
    const md = readFileSync(summary, 'utf8');
    expect(md.startsWith('# before\n## pinwatch overlay')).toBe(true);
    expect(md).toContain('- `packages/cfg/values.yaml`: 1 non-ref line differs');
    expect(md).toContain('  - line 3 `replicas: 2` → `replicas: 3`: no image reference on this line');
    expect(md).toContain('| 2 | 0 | 0 | 1 | 0 | 0 | 0 |');
  });

  it('markdown to stdout names the drifted files', async () => {
    const { root, from } = fixture();
    const r = await cli(['--repo', root, '--format', 'markdown', 'overlay', '--from', from, '--dry-run']);
    expect(r.out).toContain('### Drift: committed refs kept (1)');
    expect(r.out).toContain('**1 file kept committed refs**');
  });

  it('usage errors exit 2 with a clear message', async () => {
    const { root, from } = fixture();
    expect((await cli(['--repo', root, 'overlay'])).err).toMatch(/^pinwatch: \[missing-option\] overlay needs --from DIR/);
    const bad = await cli(['--repo', root, 'overlay', '--from', from, '--built', '["a"']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^pinwatch: \[invalid-dir-list\] --built looks like a JSON array but does not parse/);
    expect((await cli(['--repo', root, '--format', 'sarif', 'overlay', '--from', from])).code).toBe(2);
  });
});
