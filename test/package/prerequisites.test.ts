/**
 * `npm test` on a machine without the suite's programs fails in its first second
 * with the one install line (npm's pretest step, and vitest's globalSetup).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const SCRIPT = 'test/support/prerequisites.mjs';
const run = (env: Record<string, string>) => spawnSync(process.execPath, [SCRIPT], { env, encoding: 'utf8' });

describe('the test prerequisites check', () => {
  it('this machine has them all: exit 0, silent', () => {
    const r = run({ PATH: process.env.PATH ?? '' });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });
  it('without them: exit 1 within a second, naming what is missing and the one install line', () => {
    const t0 = Date.now();
    const r = run({ PATH: '/nonexistent', PINWATCH_PREREQ_ROOT: '/nonexistent' });
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^pinwatch tests: missing git, docker-registry, chromium, openssl /);
    expect(r.stderr).toContain('\n    sudo apt-get install -y git docker-registry chromium openssl\n');
  });
  it('git and openssl on PATH, the registry and browser missing: only those two named; the line is the README one', () => {
    const r = spawnSync(process.execPath, ['-e', `import('./${SCRIPT}').then(m => { process.stdout.write(JSON.stringify(m.missingPrerequisites(process.env, '/nonexistent'))) })`], { encoding: 'utf8' });
    expect(JSON.parse(r.stdout)).toEqual(['docker-registry', 'chromium']);
    const readme = readFileSync('README.md', 'utf8').split('\n').slice(0, 25).join('\n');
    expect(readme).toContain('sudo apt-get install -y git docker-registry chromium');
  });
  it('vitest itself refuses before any test file runs when the registry is missing', () => {
    const vitest = 'node_modules/vitest/vitest.mjs';
    const r = spawnSync(process.execPath, [vitest, 'run', 'src/errors.test.ts'], { env: { ...process.env, PINWATCH_PREREQ_ROOT: '/nonexistent' }, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('sudo apt-get install -y git docker-registry chromium');
    expect(r.stdout + r.stderr).not.toMatch(/Tests\s+\d+ passed/);
  });
  it('npm test runs it first (pretest) and vitest runs it before any file (globalSetup)', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.pretest).toBe(`node ${SCRIPT}`);
    expect(readFileSync('vitest.config.ts', 'utf8')).toContain(`globalSetup: ['${SCRIPT}']`);
  });
});
