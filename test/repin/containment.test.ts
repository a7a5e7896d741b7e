/**
 * Writes stay inside the repository: repin does not write a declared extra file
 * reached through a symlinked folder that leads out of the repository, and
 * `lint --write-baseline` refuses a baseline path outside it (../, absolute).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';

const APP = 'ghcr.io/acme/app';
const OLD = `sha256:${'a'.repeat(64)}`;
const NEW = `sha256:${'c'.repeat(64)}`;

let repo: TestRepo | undefined;
const dirs: string[] = [];
afterEach(() => {
  repo?.cleanup();
  repo = undefined;
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});
const outsideDir = () => {
  const d = realpathSync(mkdtempSync(join(tmpdir(), 'pinwatch-outside-')));
  dirs.push(d);
  return d;
};

describe('repin never writes through a symlinked folder leading out of the repository', () => {
  it('an extraFiles entry under such a folder is refused (or not read), and the outside file is untouched', async () => {
    const outside = outsideDir();
    mkdirSync(join(outside, 'tpl'));
    const outsideText = `image: ${APP}:v1.0.0@${OLD}\n`;
    writeFileSync(join(outside, 'tpl', 'deploy.yaml'), outsideText);
    repo = makeRepo('pinwatch-contain-');
    repo.commit({ 'deploy/values.yaml': `app:\n  image: ${APP}:v1.0.0@${OLD}\n`, 'pinwatch.yaml': 'extraFiles: ["deploy/tpl/deploy.yaml"]\n' }, 'initial');
    symlinkSync(join(outside, 'tpl'), join(repo.dir, 'deploy', 'tpl'));
    const r = await runCli(['--repo', repo.dir, 'repin', APP, '--to', `${APP}:v1.1.0@${NEW}`]);
    expect(readFileSync(join(outside, 'tpl', 'deploy.yaml'), 'utf8')).toBe(outsideText);
    expect(r.out + r.err).toMatch(/(outside|out of) the repository/);
    if (r.code === 2) {
      // refused before any write: the file inside is untouched too
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(readFileSync(join(repo.dir, 'deploy', 'values.yaml'), 'utf8')).toContain(OLD);
    }
  });
});

describe('lint --write-baseline writes only inside the repository', () => {
  const seed = { 'values.yaml': `image: ${APP}:latest\n` };

  it.each([
    ['configured as ../x', (outside: string) => ({ config: `baseline: ../${outside.split('/').pop()}/baseline.json\n`, args: [] as string[] })],
    ['configured as an absolute path', (outside: string) => ({ config: `baseline: ${join(outside, 'baseline.json')}\n`, args: [] as string[] })],
    ['given as an absolute path', (outside: string) => ({ config: '', args: [join(outside, 'baseline.json')] })],
    ['given as ../x', (outside: string) => ({ config: '', args: [`../${outside.split('/').pop()}/baseline.json`] })],
  ])('%s: refused with exit 2 and one line, nothing written', async (_, setup) => {
    const outside = outsideDir();
    // the repository sits beside `outside` so ../<name> reaches it
    const { config, args } = setup(outside);
    const root = join(outside, '..', `${outside.split('/').pop()}-repo`);
    mkdirSync(root);
    dirs.push(root);
    writeFileSync(join(root, 'values.yaml'), seed['values.yaml']);
    if (config) writeFileSync(join(root, 'pinwatch.yaml'), config);
    const r = await runCli(['--repo', root, 'lint', '--write-baseline', ...args]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(outside, 'baseline.json'))).toBe(false);
  });

  it('a repo-relative baseline is still written', async () => {
    repo = makeRepo('pinwatch-baseline-ok-');
    repo.commit(seed, 'initial');
    mkdirSync(join(repo.dir, 'lint'));
    const r = await runCli(['--repo', repo.dir, 'lint', '--write-baseline', 'lint/baseline.json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(repo.dir, 'lint', 'baseline.json'), 'utf8'))).toHaveProperty('findings');
  });
});
