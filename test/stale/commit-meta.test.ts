import { describe, expect, it } from 'vitest';
import { conventionalType, fixReason, prNumber } from '../../src/stale/commit-meta.js';

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

describe('conventionalType: an "Area: subject" prefix is not a type', () => {
  it.each([
    ['Images: bump kubeovn to v1.13.2', undefined],
    ['kubevirt: update to v1.3', undefined],
    ['[kubevirt] fix: thing', undefined],
    ['Docs: a capitalised known type', 'docs'],
    ['hotfix(api): urgent', 'hotfix'],
    ['deps: bump x', 'deps'],
  ])('%s → %s', (subject, type) => expect(conventionalType(subject)).toBe(type));
});

describe('fixReason', () => {
  const msg = (message: string, trailers: [string, string][] = []) => ({ message, trailers: trailers.map(([key, value]) => ({ key, value })) });
  it.each([
    ['fix(x): y', undefined, undefined, 'type fix'],
    ['bugfix: y', undefined, undefined, 'type bugfix'],
    ['feat: y', undefined, undefined, undefined],
    ['Images: fix the requeue', undefined, undefined, undefined],
    ['Images: bump', msg('Images: bump\n\nFixes: #12\n', [['Fixes', '#12']]), undefined, 'trailer Fixes: #12'],
    ['Images: bump', msg('Images: bump\n\nChangelog: fixed\n', [['Changelog', 'fixed']]), undefined, 'trailer Changelog: fixed'],
    ['Images: bump', msg('Images: bump\n\nChangelog: added\n', [['Changelog', 'added']]), undefined, undefined],
    ['Images: bump', msg('Images: bump\n\nSigned-off-by: a <a@b>\n', [['Signed-off-by', 'a <a@b>']]), undefined, undefined],
    ['controller: Fix requeue', undefined, /^\w+: [Ff]ix\b/m, 'stale.fixPattern ^\\w+: [Ff]ix\\b'],
    ['controller: bump', msg('controller: bump\n\n[bugfix] the requeue\n'), /^\[bugfix\]/m, 'stale.fixPattern ^\\[bugfix\\]'],
    ['controller: bump', msg('controller: bump\n\nnothing here\n'), /^\[bugfix\]/m, undefined],
  ])('%s (%o, %s) → %s', (subject, message, pattern, why) => expect(fixReason(subject, message, pattern)).toBe(why));
});
