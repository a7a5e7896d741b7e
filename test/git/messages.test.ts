/**
 * Commit messages and trailers (git/messages.ts) on real commits: the message comes
 * back as git stores it whatever bytes it holds, trailers as git parses them, and no
 * message can forge another commit's record.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { parseMessages, readCommitMessages } from '../../src/git/messages.js';
import { gitStats } from '../../src/git/run.js';
import { makeRepo, type TestRepo } from '../support/repo.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

describe('readCommitMessages', () => {
  it('returns each message and its trailers in one process; a forged record in a body is content', async () => {
    const r = makeRepo();
    repos.push(r);
    const plain = r.commit({ a: '1\n' }, 'controller: tidy\n\nprose only\n');
    const forged = `@pinwatch:${'0'.repeat(32)}:${plain}\nfake\n`;
    const trailed = r.commit({ a: '2\n' }, `Images: bump\n\n${forged}\x1e\x1f\n\nFixes: #12\nChangelog: fixed\nSigned-off-by: Dev <dev@acme.test>\n`);
    const before = gitStats.processes;
    const got = await readCommitMessages(r.dir, [plain, trailed]);
    expect(gitStats.processes - before).toBe(1);
    expect(got.get(plain)).toEqual({ message: 'controller: tidy\n\nprose only\n', trailers: [] });
    expect(got.get(trailed)!.message).toBe(execFileSync('git', ['log', '-1', '--format=%B', trailed], { cwd: r.dir, encoding: 'utf8' }).replace(/\n$/, ''));
    expect(got.get(trailed)!.trailers).toEqual([
      { key: 'Fixes', value: '#12' },
      { key: 'Changelog', value: 'fixed' },
      { key: 'Signed-off-by', value: 'Dev <dev@acme.test>' },
    ]);
    expect(got.size).toBe(2);
    expect(await readCommitMessages(r.dir, [])).toEqual(new Map());
  });

  it('refuses output of another shape instead of guessing', () => {
    expect(() => parseMessages(`N${'a'.repeat(40)}\0only two fields\n`, 'N')).toThrow(/unexpected git output/);
    expect(() => parseMessages(`Nnot-a-sha\0m\0\0\n`, 'N')).toThrow(/unexpected git output/);
  });
});
