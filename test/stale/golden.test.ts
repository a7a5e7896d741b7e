/**
 * Same answers before and after the performance work (issue 15): the JSON of
 * `stale` and `check` on two synthetic bench histories (one whose releases
 * cherry-pick fixes) and on the shared cozystack fixture must equal what the
 * engine before it answered, recorded in golden/ by golden/record.mjs (version,
 * timings, process counts and ages against the clock left out). A change that
 * is meant to change an answer re-records them and says why in its commit.
 */
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';
import { GOLDEN_REPOS, goldenArgs, normalize } from './golden/repos.mjs';

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('stale and check answer as the engine before issue 15 did', () => {
  for (const [name, { make, commands }] of Object.entries(GOLDEN_REPOS)) {
    it(`on ${name}`, async () => {
      const dir = make();
      made.push(dir);
      for (const command of commands) {
        const golden = JSON.parse(readFileSync(new URL(`./golden/${name}.${command}.json`, import.meta.url), 'utf8')) as { exit: number; answer: unknown };
        const run = await runCli(goldenArgs(command, dir));
        expect(run.err, `${name} ${command}`).toBe('');
        expect({ exit: run.code, answer: normalize(JSON.parse(run.out)) }, `${name} ${command}`).toEqual(golden);
      }
      if (name === 'bench-picks') {
        // the history really has cherry-picks, so the patch-id pass is exercised
        const stale = JSON.parse(readFileSync(new URL('./golden/bench-picks.stale.json', import.meta.url), 'utf8')) as { answer: { images: { cherryPicked: unknown[] }[] } };
        expect(stale.answer.images.some((i) => i.cherryPicked.length > 0)).toBe(true);
      }
    }, 60_000);
  }
});
