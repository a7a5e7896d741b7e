import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { computeAffected, deepenHint, generationsBackFromHead } from '../../src/affected/affected.js';
import { DIGEST, image, inputs, pin, values } from '../support/stale.js';

const repos: TestRepo[] = [];
const tmp: string[] = [];
afterEach(() => {
  repos.splice(0).forEach((r) => r.cleanup());
  tmp.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('generationsBackFromHead', () => {
  it.each([
    ['HEAD~5', 5],
    ['HEAD~', 1],
    ['HEAD^', 1],
    ['HEAD^1', 1],
    ['HEAD^2', 1],
    ['HEAD^0', 0],
    ['HEAD^^', 2],
    ['HEAD~3^2~2', 6],
    ['@~4', 4],
    ['HEAD', undefined],
    ['origin/main', undefined],
    ['HEAD~2..', undefined],
    ['main~3', undefined],
  ])('%s → %s', (rev, back) => {
    expect(generationsBackFromHead(rev)).toBe(back);
  });
  it('keeps the generic hint for other revisions and for a depth already deep enough', () => {
    expect(deepenHint('origin/main', 3)).toContain('git fetch --deepen=50 origin, repeat as needed');
    expect(deepenHint('HEAD~2', 5)).toContain('repeat as needed');
    expect(deepenHint('HEAD~5', 2)).toBe('"HEAD~5" is 5 commit(s) back from HEAD, so the clone needs a depth of 6: git fetch --deepen=4 origin (or actions/checkout with fetch-depth: 6), or clone full history (fetch-depth: 0)');
  });
});

describe('affected --base HEAD~N on a shallow clone', () => {
  it('names the exact depth, and the suggested fetch makes it answer', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'src/x/main.go': '0\n', 'v.yaml': values('x', 'v1', DIGEST('1')) }, 'initial');
    for (let i = 1; i <= 5; i++) r.commit({ [i === 2 ? 'src/x/main.go' : `docs/${i}.md`]: `${i}\n` }, `commit ${i}`);
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-affected-shallow-'));
    tmp.push(dir);
    execFileSync('git', ['clone', '-q', '--depth', '2', `file://${r.dir}`, dir]);
    const x = image('x', [pin('v.yaml', 2, `ghcr.io/acme/x:v1@${DIGEST('1')}`)], inputs('x', 'src/x/'));
    const refusal = computeAffected(dir, 'HEAD~4', [x]);
    await expect(refusal).rejects.toMatchObject({ code: 'shallow-clone' });
    await expect(refusal).rejects.toThrow(/depth 2: .*"HEAD~4" is 4 commit\(s\) back from HEAD, so the clone needs a depth of 5: git fetch --deepen=3 origin \(or actions\/checkout with fetch-depth: 5\)/);
    // a non-HEAD-relative base keeps the generic hint
    await expect(computeAffected(dir, r.git('rev-list', '--max-parents=0', 'HEAD'), [x])).rejects.toThrow(/git fetch --deepen=50 origin, repeat as needed/);
    // one short of the hint is still refused, with the remaining deepening counted from the new depth
    execFileSync('git', ['fetch', '-q', '--deepen=2', 'origin'], { cwd: dir });
    await expect(computeAffected(dir, 'HEAD~4', [x])).rejects.toThrow(/depth 4: .*git fetch --deepen=1 origin/);
    execFileSync('git', ['fetch', '-q', '--deepen=1', 'origin'], { cwd: dir });
    const result = await computeAffected(dir, 'HEAD~4', [x]);
    expect(result.affected.map((a) => a.image)).toEqual(['x']);
  });

  it("says no depth helps when HEAD's first-parent line ends at a root commit inside the clone", async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'src/x/main.go': '0\n' }, 'old history 1');
    r.commit({ 'src/x/main.go': '1\n' }, 'old history 2');
    r.commit({ 'src/x/main.go': '2\n' }, 'old history 3');
    r.git('checkout', '-q', '--orphan', 'fresh');
    r.commit({ 'src/x/main.go': 'new\n' }, 'fresh root');
    r.git('merge', '-q', '--no-ff', '--allow-unrelated-histories', '-s', 'ours', '-m', 'merge old history', 'main');
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-affected-root-'));
    tmp.push(dir);
    execFileSync('git', ['clone', '-q', '--depth', '2', '--branch', 'fresh', `file://${r.dir}`, dir]);
    const x = image('x', [pin('v.yaml', 2, `ghcr.io/acme/x:v1@${DIGEST('1')}`)], inputs('x', 'src/x/'));
    await expect(computeAffected(dir, 'HEAD~3', [x])).rejects.toMatchObject({
      code: 'unknown-revision',
      message: expect.stringMatching(/"HEAD~3" is 3 commit\(s\) back from HEAD, but HEAD's first-parent line ends at the root commit [0-9a-f]{10} after 2 commit\(s\): no depth of clone has it/),
    });
    // through the second parent the old history is only cut off: deepening does bring it in
    await expect(computeAffected(dir, 'HEAD^2~1', [x])).rejects.toMatchObject({ code: 'shallow-clone', message: expect.stringContaining('needs a depth of 3: git fetch --deepen=1 origin') });
    execFileSync('git', ['fetch', '-q', '--deepen=1', 'origin'], { cwd: dir });
    expect((await computeAffected(dir, 'HEAD^2~1', [x])).mergeBase).toBe(r.git('rev-parse', 'main~1'));
  });
});

