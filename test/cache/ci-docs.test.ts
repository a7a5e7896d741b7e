/**
 * The CI examples keep the folder the cache really uses: pr-check.yml restores
 * `.git/pinwatch/cache` with actions/cache after the checkout (key on branch and
 * commit, restore keys on the branch), gitlab-ci.yml caches the same path.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cachePlace } from '../../src/cache/index.js';
import { makeRepo } from '../support/repo.js';

type Doc = Record<string, any>;
const load = (name: string) => parse(readFileSync(new URL(`../../docs/ci/${name}`, import.meta.url), 'utf8')) as Doc;
const repo = makeRepo('pinwatch-cache-ci-');
afterAll(() => repo.cleanup());

describe('the CI examples cache the folder pinwatch uses', () => {
  const used = relative(realpathSync(repo.dir), cachePlace(repo.dir, { env: {} })!.dir);

  it('is .git/pinwatch/cache in a checkout', () => {
    expect(used).toBe(join('.git', 'pinwatch', 'cache'));
  });

  it('pr-check.yml: actions/cache after the checkout, keyed on branch and commit, restoring the branch', () => {
    const steps = (load('pr-check.yml').jobs.pinwatch.steps as Doc[]);
    const checkout = steps.findIndex((s) => /^actions\/checkout@/.test(s.uses ?? ''));
    const cache = steps.findIndex((s) => /^actions\/cache@/.test(s.uses ?? ''));
    const pinwatch = steps.findIndex((s) => /\/pinwatch@/.test(s.uses ?? ''));
    expect(checkout).toBeGreaterThanOrEqual(0);
    expect(cache).toBeGreaterThan(checkout);
    expect(pinwatch).toBeGreaterThan(cache);
    const w = steps[cache]!.with as Doc;
    expect(w.path).toBe(used);
    expect(w.key).toMatch(/\$\{\{ github\.sha \}\}$/);
    expect(String(w['restore-keys']).trim().split('\n')[0]).toBe(String(w.key).replace('${{ github.sha }}', ''));
    // a PR's first job restores its base branch's (main's `check` kept its tree's lint findings there)
    expect(String(w['restore-keys']).trim().split('\n')[1]?.trim()).toBe('pinwatch-${{ github.base_ref }}-');
  });

  it('gitlab-ci.yml: the job caches the same path, with a branch key and the default branch as fallback', () => {
    const job = load('gitlab-ci.yml').pinwatch as Doc;
    expect(job.cache).toMatchObject({ key: 'pinwatch-$CI_COMMIT_REF_SLUG', fallback_keys: ['pinwatch-$CI_DEFAULT_BRANCH'], paths: [used] });
  });
});
