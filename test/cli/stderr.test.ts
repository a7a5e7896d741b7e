/**
 * The commands' own stderr lines carry repository text (file names, config
 * values, reasons) and pass through terminalSafe like formatter output: an ESC
 * or CR from the repository appears as a visible escape, never raw (issue 16).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';

const ESC = '\x1b]0;owned\x07\x1b[2J\rFORGED';
const SHOWN = '\\x1b]0;owned\\x07\\x1b[2J\\rFORGED';
// eslint-disable-next-line no-control-regex
const RAW = /[\x00-\x09\x0b-\x1f\x7f]/;

let repo: TestRepo | undefined;
afterEach(() => {
  repo?.cleanup();
  repo = undefined;
});

describe('stderr lines of the commands', () => {
  it('lint --write-baseline names a file with ESC/CR escaped', async () => {
    repo = makeRepo('pinwatch-stderr-');
    repo.commit({ 'pinwatch.yaml': 'firstParty: []\n', Makefile: 'build:\n\t@true\n' }, 'initial');
    const r = await runCli(['--repo', repo.dir, 'lint', '--write-baseline', `b${ESC}.json`]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`to the baseline b${SHOWN}.json`);
    expect(r.err).not.toMatch(RAW);
  });

  it('affected names an unknown build input from pinwatch.yaml with ESC/CR escaped', async () => {
    repo = makeRepo('pinwatch-stderr-');
    const dockerfile = `src/${ESC}/Dockerfile`;
    repo.commit(
      {
        'pinwatch.yaml': `firstParty:\n  - ghcr.io/acme/\nimages:\n  app:\n    repository: ghcr.io/acme/app\n    dockerfile: ${JSON.stringify(dockerfile)}\n`,
        Makefile: 'build:\n\t@true\n',
        'deploy/values.yaml': `image: ghcr.io/acme/app:v1@sha256:${'a'.repeat(64)}\n`,
      },
      'initial',
    );
    repo.commit({ 'deploy/other.txt': 'x\n' }, 'change');
    const r = await runCli(['--repo', repo.dir, 'affected', '--base', 'HEAD~1']);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`Dockerfile src/${SHOWN}/Dockerfile does not exist`);
    expect(r.err).not.toMatch(RAW);
  });

  it('a usage error from the option parser shows the argument escaped', async () => {
    const r = await runCli(['scan', `--nope${ESC}`]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--nope${SHOWN}`);
    expect(r.err).not.toMatch(RAW);
  });

  it('no command writes to stderr but through say() (src/cli/stderr.ts) or terminalSafe', () => {
    const dir = join(process.cwd(), 'src/cli/commands');
    const direct = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').map((line, i) => ({ at: `${f}:${i + 1}`, line })))
      .filter(({ line }) => /\bio\.err\(/.test(line) && !/\bio\.err\(`[^`$]*\$\{terminalSafe\([^`]*`\)/.test(line))
      .map(({ at }) => at);
    expect(direct).toEqual([]);
  });
});
