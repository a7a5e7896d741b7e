/** Every command's --help says which formats it writes (default first) and what its exit codes mean. */
import { describe, expect, it } from 'vitest';
import { COMMAND_EXITS, COMMAND_FORMATS } from '../../src/cli/formats.js';
import { FINDINGS_FORMATS } from '../../src/report/findings-format.js';
import { runCli } from '../support/io.js';

describe('--help', () => {
  it.each(Object.keys(COMMAND_EXITS))('pinwatch %s --help lists its formats and exit codes', async (command) => {
    const r = await runCli([command, '--help']);
    expect(r.code).toBe(0);
    const formats = (COMMAND_FORMATS as Record<string, readonly string[] | undefined>)[command];
    if (formats) expect(r.out).toContain(`Formats (--format): ${formats[0]} (default)`);
    expect(r.out).toMatch(/Exit codes:\n {2}0 .*\n(.*\n)* {2}2 usage, config or runtime error/);
  });
  it('the findings commands offer every findings format', () => {
    expect([...COMMAND_FORMATS.check].sort()).toEqual([...FINDINGS_FORMATS].sort());
    expect([...COMMAND_FORMATS.lint].sort()).toEqual([...FINDINGS_FORMATS].sort());
  });
  it('a format a command does not write is refused, naming the ones it does', async () => {
    const r = await runCli(['--format', 'sarif', 'scan']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\[invalid-format\] --format must be one of text, json for this command; saw "sarif"/);
  });
});
