import { describe, expect, it } from 'vitest';
import { conventionalType, prNumber } from '../../src/stale/commit-meta.js';

describe('prNumber', () => {
  it.each([
    ['fix(objectstorage-controller): converge BucketClaim readiness (#3034)', 3034],
    ['Merge pull request #2792 from cozystack/fix-ready', 2792],
    ['feat: a (#1) and b (#22)', 22],
    ['fix: no number', undefined],
    ['fix: issue #12 mentioned, not a PR', undefined],
    ['Revert "feat(x): y (#40)" (#41)', 41],
  ])('%s → %s', (subject, pr) => expect(prNumber(subject)).toBe(pr));
});

describe('conventionalType', () => {
  it.each([
    ['fix(objectstorage): emit a Warning event', 'fix'],
    ['feat!: drop v1', 'feat'],
    ['refactor(backups)!: rename', 'refactor'],
    ['Fix(ui): capitalised', 'fix'],
    ['Prepare release v1.5.0', undefined],
    ['fix:missing space', undefined],
    ['Merge pull request #1 from x/y', undefined],
  ])('%s → %s', (subject, type) => expect(conventionalType(subject)).toBe(type));
});
