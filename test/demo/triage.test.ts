/** The demo's failing e2e lane, triaged: two skew lines (a driver the build lacks, a message a fix removed), one current image, one unmatched error. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildDemoRepo, DEMO_LOG_FILE } from '../../src/demo/index.js';
import { runCli } from '../support/io.js';

let dir: string;
beforeAll(() => {
  dir = buildDemoRepo();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('pinwatch triage on the demo', () => {
  it('leaves the work tree clean (the log is untracked and excluded)', () => {
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })).toBe('');
  });

  it('judges the failing lane: Redis refused by a build lacking #43, billing giving up with a message #42 removed, the gateway current', async () => {
    const r = await runCli(['--repo', dir, 'triage', join(dir, DEMO_LOG_FILE), '--format', 'json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.out);
    expect(doc.summary).toEqual({ lines: 5, matched: 3, skew: 2, noSkew: 1, unknown: 1, unlisted: 1 });
    const byLine = new Map(doc.lines.map((l: { lineNumber: number }) => [l.lineNumber, l]));
    const redis = byLine.get(2) as any;
    expect(redis.verdict).toBe('skew');
    expect(redis.matches[0]).toMatchObject({ file: 'internal/backup/dispatch.go', atHead: true, images: [{ name: 'backup-strategy-controller', standing: 'skew' }] });
    expect(redis.matches[0].images[0].lacks).toEqual([expect.objectContaining({ pr: 43, mentions: ['Redis'] })]);
    const billing = byLine.get(3) as any;
    expect(billing.verdict).toBe('skew');
    expect(billing.matches[0]).toMatchObject({ file: 'internal/billing/ledger.go', atHead: false, removed: { subject: expect.stringContaining('(#42)') } });
    expect((byLine.get(4) as any).verdict).toBe('no-skew');
    expect((byLine.get(1) as any).verdict).toBe('unknown');
  });

  it('the demo command shows the triage after check', async () => {
    const target = `${dir}-cmd`;
    try {
      const r = await runCli(['demo', '--dir', target]);
      expect(r.code).toBe(0);
      expect(r.err).toContain("triage of the failing e2e lane's log");
      expect(r.out).toMatch(/pinwatch triage: 5 line\(s\) read, 3 matched a source literal: 2 skew, 1 no-skew, 1 unknown/);
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });
});
