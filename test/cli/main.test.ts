import { describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';

describe('pinwatch CLI entry', () => {
  it('prints help with every command and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['check', 'scan', 'lint', 'stale', 'explain', 'affected', 'overlay', 'repin', 'inspect', 'triage', 'demo']) {
      expect(r.out).toMatch(new RegExp(`^\\s+${c}\\b`, 'm'));
    }
  });

  it('--timeout help says what docs/registry.md says: per attempt, the whole body', async () => {
    const r = await runCli(['stale', '--help']);
    const help = r.out.replace(/\s+/g, ' ');
    expect(help).toContain('--timeout <ms> registry timeout in milliseconds, per attempt, covering headers, redirects and the whole body');
    expect(help).not.toContain('per-request');
  });

  it('rejects an unknown command with exit 2 and no stack trace', async () => {
    const r = await runCli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown command 'frobnicate'");
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('rejects an unknown option with exit 2', async () => {
    const r = await runCli(['scan', '--no-such-flag']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--no-such-flag');
  });

  it('rejects a bad --fail-on value with exit 2', async () => {
    const r = await runCli(['--fail-on', 'sometimes', 'scan']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/sometimes/);
  });
});

describe('finding the repository', () => {
  it('without --repo, uses the nearest folder above the working directory that has pinwatch.yaml or .git', async () => {
    const { buildDemoRepo } = await import('../../src/demo/index.js');
    const { rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = buildDemoRepo();
    try {
      const fromSub = await runCli(['scan', '--format', 'json'], { cwd: join(dir, 'packages', 'system') });
      const fromRoot = await runCli(['--repo', dir, 'scan', '--format', 'json']);
      expect(fromSub.code).toBe(0);
      expect(fromSub.out).toBe(fromRoot.out);
      expect(JSON.parse(fromSub.out).pins.some((p: { file: string }) => p.file === 'packages/extra/storage/values.yaml')).toBe(true);
      // an explicit --repo is taken as given
      const explicit = await runCli(['--repo', '.', 'scan', '--format', 'json'], { cwd: join(dir, 'packages', 'system') });
      expect(JSON.parse(explicit.out).pins.every((p: { file: string }) => !p.file.startsWith('packages/'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
