/**
 * What the history pass reads of pin-file blobs is kept whole: the changes the
 * prefetch read ahead of where the first run's window settled are kept with the
 * history as well as those the analysis used (stale/window.ts keepReadChanges), so
 * the next full judgement, which checks first where the last run's pass stopped (a
 * pin bump: is the new digest a return?), reads only the new commits' blobs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { filler, makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';
import { normalize } from './golden/repos.mjs';
import { DIGEST, values } from '../support/stale.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));
const A = 'charts/a/values.yaml';
const CONFIG = 'firstParty: [ghcr.io/acme/]\nimages:\n  c:\n    repository: ghcr.io/acme/c\n    context: src/c\n';

describe('the digest changes a run read are kept for the next', () => {
  it('a pin bump on top of a kept run reads the blobs of its own commit alone, and answers as --no-cache', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'pinwatch.yaml': CONFIG, 'src/c/Dockerfile': 'FROM alpine\nCOPY . /app\n', 'src/c/main.go': '1\n' }, 'initial');
    // three versions of the pin file, then more commits than the window's first check takes (1,024)
    for (const [tag, d] of [['v0.1.0', 'a'], ['v0.2.0', 'b'], ['v0.3.0', 'e']] as const) r.commit({ [A]: values('c', tag, DIGEST(d)) }, `Prepare release ${tag}`);
    filler(r, 1100);
    r.commit({ 'src/c/main.go': '2\n' }, 'feat(c): two (#1)');
    r.commit({ [A]: values('c', 'v1.0.0', DIGEST('c')) }, 'Prepare release v1.0.0');
    const run = async (cache: boolean) => {
      const out = await runCli(['--repo', r.dir, 'stale', '--format', 'json', '--fail-on-stale', 'never', ...(cache ? ['-v'] : ['--no-cache'])], { cwd: r.dir });
      return { answer: normalize(JSON.parse(out.out)), err: out.err, reads: /history: (\d+) digest change\(s\) of pin files kept, (\d+) worked out from blobs/.exec(out.err) };
    };
    await run(true);
    r.commit({ [A]: values('c', 'v1.1.0', DIGEST('d')) }, 'Prepare release v1.1.0');
    const bumped = await run(true);
    expect(bumped.err).toMatch(/answer not reused: [0-9a-f]{10} changes charts\/a\/values\.yaml, a pin file of c, adding or taking out a digest judged/);
    // what the first run read of the pin file was kept; only the bump's own change is worked out from blobs
    // (on the build before: 1 kept, the one the first window used, and 5 worked out)
    expect(bumped.reads?.slice(1).map(Number)).toEqual([5, 1]);
    expect(bumped.answer).toEqual((await run(false)).answer);
  }, 60_000);
});
