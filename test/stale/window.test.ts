/**
 * The bounded history window (src/stale/window.ts): wherever the walk could be
 * stopped, the answer is the one the whole history gives. The bench histories
 * (releases stamping digests, release branches cherry-picking fixes, merges
 * with skewed dates) are judged with the window grown a few commits at a time,
 * so every early stopping point is tried, and compared with the default run;
 * the walk must really stop before the end of history.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { staleReport } from '../../src/stale/repo.js';
import { GOLDEN_REPOS, fromStream } from './golden/repos.mjs';

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const NOW = new Date('2026-03-01T00:00:00Z');

describe('the history window', () => {
  for (const name of ['bench-picks', 'bench-plain'] as const) {
    it(`answers on ${name} as the whole history does, wherever it stops`, async () => {
      const dir = GOLDEN_REPOS[name].make();
      made.push(dir);
      const config = loadConfig(dir);
      const strip = (r: Awaited<ReturnType<typeof staleReport>>) => ({ ...r, gitProcesses: 0, timings: {}, history: undefined });
      const whole = await staleReport(dir, config, { now: NOW });
      expect(whole.images.some((i) => i.status === 'stale')).toBe(true);
      for (const step of [1, 7, 40]) {
        const stepped = await staleReport(dir, config, { now: NOW, windowStep: step });
        expect(strip(stepped), `step ${step}`).toEqual(strip(whole));
        // bench-plain's oldest digests came in with the first images: its root is a build, all is read
        if (name === 'bench-picks') expect(stepped.history, `step ${step}`).toMatchObject({ whole: false });
      }
    }, 120_000);
  }

  it('judges only as much history as settles the answer, not all the pin-file prefetch read ahead', async () => {
    // 2,500 commits, every image built from the last 100: the prefetch parses them all (it reads up to 4,096 ahead)
    const dir = fromStream({ images: 6, commits: 2500, releaseEvery: 50, releasesFrom: 2400 });
    made.push(dir);
    const config = loadConfig(dir);
    const report = await staleReport(dir, config, { now: NOW });
    expect(report.images.length).toBe(6);
    expect(report.history).toMatchObject({ whole: false });
    expect(report.history!.commits).toBeLessThanOrEqual(1024);
    const strip = (r: Awaited<ReturnType<typeof staleReport>>) => ({ ...r, gitProcesses: 0, timings: {}, history: undefined });
    expect(strip(await staleReport(dir, config, { now: NOW, windowStep: 97 }))).toEqual(strip(report));
  }, 120_000);
});
