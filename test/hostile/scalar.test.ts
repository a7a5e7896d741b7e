/**
 * A 4.4 MB YAML scalar where an image ref is expected (issue 16, defect 14): the
 * reference grammar's regexp used to overflow the stack, and invalid-ref said
 * only "Maximum call stack size exceeded". Now a length guard answers first.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';
import { makeRepo } from '../support/repo.js';

describe('a huge scalar in an image field', () => {
  const repo = makeRepo('pinwatch-scalar-');
  afterAll(() => repo.cleanup());

  it('is an invalid-ref finding at file:line saying how long it is, not a stack overflow', async () => {
    const huge = 'a-'.repeat(2_200_000);
    repo.commit({ 'values.yaml': `image: ${huge}\n` }, 'huge scalar');
    const run = await runCli(['lint'], { cwd: repo.dir });
    expect(run.err).not.toContain('internal error');
    expect(run.out).not.toContain('Maximum call stack');
    const line = run.out.split('\n').find((l) => l.includes('warning [invalid-ref]'));
    expect(line).toBe(`values.yaml:1:8: warning [invalid-ref] image: an image reference must not be longer than 1024 characters; this one has ${huge.length}; saw "${'a-'.repeat(32)}…"`);
    // The 4.4 MB value is not echoed back.
    expect(run.out.length).toBeLessThan(10_000);
  });
});
