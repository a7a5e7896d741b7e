/**
 * A tag-pinned repository through `lint` as text: the findings of a rule come as one
 * group with the fix hint printed once, and a rule the repository turns off in
 * `rules:` leaves no trace (no finding, no hint, no count).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

function tagPinned(rules = '') {
  const r = makeRepo();
  repos.push(r);
  const values = (n: number) => `app:\n  image: ghcr.io/acme/app${n}:v20260101-abcdef${n}\n`;
  r.commit({ Makefile: 'build:\n\t@true\n', 'pinwatch.yaml': `firstParty: [ghcr.io/acme/]\n${rules}`, 'a/values.yaml': values(1), 'b/values.yaml': values(2), 'c/values.yaml': values(3) }, 'initial');
  return r;
}

describe('lint text on a tag-pinned repository', () => {
  it('groups the missing-digest findings under one header with the hint once', async () => {
    const r = tagPinned();
    const { out } = await runCli(['--repo', r.dir, 'lint'], { cwd: r.dir });
    expect(out).toContain('[first-party-missing-digest] 3 errors\n  fix: ');
    expect(out.match(/fix: Have the producer stamp/g)).toHaveLength(1);
    expect(out.match(/error \[first-party-missing-digest\]/g)).toHaveLength(3);
  });

  it('a rule set to off in rules: is gone from the text entirely', async () => {
    const r = tagPinned('rules:\n  first-party-missing-digest: off\n  no-producer: off\n');
    const { out, code } = await runCli(['--repo', r.dir, 'lint'], { cwd: r.dir });
    expect(out).not.toContain('first-party-missing-digest');
    expect(out).not.toContain('no-producer');
    expect(out).not.toContain('Have the producer stamp');
    expect(out.trimEnd().split('\n').at(-1)).toBe('no findings');
    expect(code).toBe(0);
  });
});
