import { describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';

describe('pinwatch CLI entry', () => {
  it('prints help with every command and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['check', 'scan', 'lint', 'stale', 'explain', 'affected', 'overlay', 'repin', 'inspect', 'demo']) {
      expect(r.stdout).toMatch(new RegExp(`^\\s+${c}\\b`, 'm'));
    }
  });

  it('rejects an unknown command with exit 2 and no stack trace', async () => {
    const r = await runCli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('rejects an unknown option with exit 2', async () => {
    const r = await runCli(['scan', '--no-such-flag']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--no-such-flag');
  });

  it('rejects a bad --fail-on value with exit 2', async () => {
    const r = await runCli(['--fail-on', 'sometimes', 'scan']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sometimes/);
  });
});
