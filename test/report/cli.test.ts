/** `pinwatch report` usage: --html is required, --format/--output are refused (exit 2, one clear line). */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/io.js';

describe('pinwatch report usage', () => {
  const cases: [string, string[], RegExp][] = [
    ['no --html', ['report'], /^pinwatch: \[missing-option\] report needs --html FILE/],
    ['--format', ['--format', 'json', 'report', '--html', 'x.html'], /^pinwatch: \[unsupported-option\] report takes no --format or --output \(saw --format "json"\)/],
    ['--output', ['--output', 'x.txt', 'report', '--html', 'x.html'], /^pinwatch: \[unsupported-option\] report takes no --format or --output \(saw --output "x.txt"\)/],
  ];
  it.each(cases)('%s → exit 2 with a message', async (_name, argv, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-report-usage-'));
    try {
      const r = await runCli(['--repo', dir, ...argv], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.out).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
