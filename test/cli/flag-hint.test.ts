/**
 * Library errors name no CLI flag (issue 9): the library throws a domain code and
 * message, and the CLI adds the flag that sets that input (src/cli/flag-hint.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import { PinwatchError } from '../../src/errors.js';
import { readShallowState } from '../../src/git/shallow.js';
import { scanRepo } from '../../src/scan/index.js';
import { computeStale } from '../../src/stale/index.js';
import { describeWithFlagHint, flagHint } from '../../src/cli/flag-hint.js';

const tmp: string[] = [];
afterEach(() => {
  for (const d of tmp.splice(0)) rmSync(d, { recursive: true, force: true });
});

function noGit(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-flag-hint-'));
  tmp.push(dir);
  return dir;
}

async function thrown(p: Promise<unknown>): Promise<PinwatchError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(PinwatchError);
  return e as PinwatchError;
}

describe('library errors: domain wording, no flag names', () => {
  it.each([
    ['scanRepo on a missing root', () => scanRepo(join(noGit(), 'nope'), defaultConfig()), 'repo-not-found', /is not a directory$/],
    ['readShallowState outside git', () => readShallowState(noGit()), 'not-a-git-repo', /is not inside a git repository; this command reads history, so run it in a clone$/],
    ['computeStale outside git', () => computeStale(noGit(), []), 'not-a-git-repo', /is not inside a git repository; stale reads history, so run it in a clone$/],
  ] as const)('%s', async (_name, call, code, message) => {
    const e = await thrown(call());
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.message).not.toMatch(/--/);
  });
});

describe('the CLI adds the flag hint', () => {
  it.each([
    ['repo-not-found', 'repository root "x" is not a directory', 'repository root "x" is not a directory; expected --repo DIR'],
    ['not-a-git-repo', '/x is not inside a git repository; run it in a clone', '/x is not inside a git repository; run it in a clone (or pass --repo DIR)'],
    ['token-error', 'refusing … plain-http token realm; list its host in insecureRegistries if that is intended', 'refusing … plain-http token realm; list its host in insecureRegistries if that is intended (pinwatch.yaml insecureRegistries, or --insecure-registry HOST)'],
    ['token-error', 'token endpoint answered 500', 'token endpoint answered 500'],
    ['config-invalid', 'bad', 'bad'],
  ])('%s: %s', (code, message, shown) => {
    expect(describeWithFlagHint(new PinwatchError(code as ConstructorParameters<typeof PinwatchError>[0], message))).toBe(shown);
  });

  it('keeps the location first', () => {
    expect(describeWithFlagHint(new PinwatchError('repo-not-found', 'repository root "x" is not a directory', { file: 'f', line: 2 }))).toBe('f:2: repository root "x" is not a directory; expected --repo DIR');
    expect(flagHint('toString')).toBeUndefined();
  });
});
