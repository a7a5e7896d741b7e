/**
 * Every command's `--help` ends with one example, and the example is true: each
 * flag it uses is one that command (or the global options) accepts.
 */
import { describe, expect, it } from 'vitest';
import { COMMAND_EXAMPLES } from '../../src/cli/formats.js';
import { runCli } from '../support/io.js';

describe('the example under each command\'s --help', () => {
  for (const [command, example] of Object.entries(COMMAND_EXAMPLES)) {
    it(`${command}: printed, and uses only flags the command has`, async () => {
      const help = await runCli([command, '--help']);
      expect(help.code).toBe(0);
      expect(help.out).toContain(`Example:\n  ${example}`);
      const global = await runCli(['--help']);
      const invocation = example.slice(example.indexOf(`pinwatch ${command}`));
      const flags = [...invocation.matchAll(/(?:^|\s)(--[a-z][a-z-]*)/g)].map((m) => m[1]!);
      for (const flag of flags) expect(`${help.out}\n${global.out}`, `${command} ${flag}`).toContain(flag);
    });
  }

  it('the check for flags is not vacuous: a made-up flag is not in the help', async () => {
    const help = await runCli(['stale', '--help']);
    expect(help.out).not.toContain('--fail-on-nothing');
  });
});
