/**
 * Every command that takes IMAGE resolves it by one rule (src/images/resolve.ts):
 * stale, explain and repin print the same error and exit 2 for an ambiguous
 * and for an unknown name, and accept the same full repository.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';
import { makeRepo, type TestRepo } from '../support/repo.js';

const D = (c: string) => `sha256:${c.repeat(64)}`;
let repo: TestRepo;

beforeAll(() => {
  repo = makeRepo('pinwatch-image-arg-');
  repo.commit(
    {
      'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\n',
      'a/values.yaml': `controller:\n  image: ghcr.io/acme/a/controller:v1@${D('1')}\n`,
      'b/values.yaml': `controller:\n  image: ghcr.io/acme/b/controller:v2@${D('2')}\n`,
      'c/values.yaml': `billing:\n  image: ghcr.io/acme/billing:v3@${D('3')}\n`,
    },
    'initial',
  );
});
afterAll(() => repo?.cleanup());

const COMMANDS: [string, string[]][] = [
  ['stale', []],
  ['explain', []],
  ['repin', ['--to', `ghcr.io/acme/billing:v4@${D('4')}`, '--dry-run']],
];

const runWith = (command: string, image: string, extra: string[]) => runCli(['--repo', repo.dir, command, image, ...extra], { cwd: repo.dir });

describe('IMAGE means the same to stale, explain and repin', () => {
  it.each([
    ['controller', 'pinwatch: [image-ambiguous] image "controller" matches 2 images: ghcr.io/acme/a/controller, ghcr.io/acme/b/controller; give the full repository (like ghcr.io/acme/a/controller)\n'],
    ['biling', 'pinwatch: [image-unknown] no image "biling" is pinned in this tree; did you mean "billing"? (expected one of: billing, controller)\n'],
  ])('%s: one error, exit 2, nothing on stdout', async (image, message) => {
    for (const [command, extra] of COMMANDS) {
      const r = await runWith(command, image, extra);
      expect({ command, code: r.code, err: r.err, out: r.out }).toEqual({ command, code: 2, err: message, out: '' });
    }
  });

  it('a full repository (or reference) picks one of the ambiguous images in every command', async () => {
    const stale = await runWith('stale', 'ghcr.io/acme/b/controller:v2', ['--format', 'json']);
    expect(JSON.parse(stale.out).images.map((i: { repository: string }) => i.repository)).toEqual(['ghcr.io/acme/b/controller']);
    const explain = await runWith('explain', 'ghcr.io/acme/b/controller', []);
    expect(explain.code).toBe(0);
    expect(explain.out).toContain('b/values.yaml:2');
    const repin = await runWith('repin', 'ghcr.io/acme/b/controller', ['--to', `ghcr.io/acme/b/controller:v5@${D('5')}`, '--dry-run']);
    expect(repin.err).toBe('');
    expect(repin.out).toContain('b/values.yaml:2');
    expect(repin.out).not.toContain('a/values.yaml');
  });
});
