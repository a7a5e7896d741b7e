/**
 * A digest taken out of its pin and put back later by hand (a rollback that is
 * no `git revert`: "pin v1.1.0 again, v1.2.0 broke upgrades") is dated by its
 * first addition, not by its return. Before this was so, the window took the
 * return for the introduction: the image was said to be built after every fix
 * merged before the rollback, and `current`, also with the whole history read
 * (the first addition lies in the history every build shares).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { filler, makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';
import { computeStale } from '../../src/stale/history.js';
import { DIGEST, image, inputs, pin, values } from '../support/stale.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));
const NOW = new Date('2026-03-01T00:00:00Z');
const [A, O] = ['charts/a/values.yaml', 'charts/o/values.yaml'];
const REF = `ghcr.io/acme/c:v1.1.0@${DIGEST('c')}`;
const c = image('c', [pin(A, 2, REF)], inputs('c', 'src/c/'));

const CONFIG = 'firstParty: [ghcr.io/acme/]\nimages:\n  c:\n    repository: ghcr.io/acme/c\n    context: src/c\n';
const rollback = (r: TestRepo) => r.commit({ [A]: values('c', 'v1.1.0', DIGEST('c')) }, 'chore: pin c v1.1.0 again, v1.2.0 broke upgrades');

/**
 * c built from `built`, pinned by `prep`, fixed by `fix`, bumped away by `bump`
 * (and `more` bumps), put back by `back` (`rollback`; not with `noBack`); `gap`
 * filler commits after `prep`; `config`: a pinwatch.yaml for the CLI.
 */
function returnedRepo(opts: { more?: number; gap?: number; noBack?: boolean; config?: boolean } = {}) {
  const r = makeRepo();
  repos.push(r);
  r.commit({ 'src/c/main.go': '1\n', 'src/o/main.go': '1\n', [O]: 'x: 1\n', ...(opts.config ? { 'pinwatch.yaml': CONFIG, 'src/c/Dockerfile': 'FROM alpine\nCOPY . /app\n' } : {}) }, 'initial');
  const built = r.commit({ 'src/c/main.go': '2\n' }, 'feat(c): two (#1)');
  const prep = r.commit({ [A]: values('c', 'v1.1.0', DIGEST('c')) }, 'Prepare release v1.1.0');
  // o: pinned after c, so its build is younger than c's first pin and keeps nothing older in view
  r.commit({ [O]: values('o', 'v1', DIGEST('e')) }, 'chore: pin o');
  if (opts.gap) filler(r, opts.gap);
  const fix = r.commit({ 'src/c/main.go': '3\n' }, 'fix(c): merged after the release (#5)');
  const bump = r.commit({ [A]: values('c', 'v1.2.0', DIGEST('d')) }, 'Prepare release v1.2.0');
  for (let i = 0; i < (opts.more ?? 0); i++) r.commit({ [A]: values('c', `v1.${3 + i}.0`, DIGEST(String(i + 1))) }, `Prepare release v1.${3 + i}.0`);
  for (let i = 0; i < 3; i++) r.commit({ 'docs/notes.md': `${i}\n` }, `docs: note ${i}`);
  const back = opts.noBack ? undefined : rollback(r);
  const o = image('o', [pin(O, 2, `ghcr.io/acme/o:v1@${DIGEST('e')}`)], inputs('o', 'src/o/'));
  return { r, built, prep, fix, bump, back, o };
}

const entryOf = (report: Awaited<ReturnType<typeof computeStale>>, name: string) => report.images.find((i) => i.image === name)!;

/** c judged (with `beside`) is stale, built from `built`, its digest introduced by `prep` and put back by `back`, `fix` unshipped. */
async function expectFirstAddition(dir: string, beside: Parameters<typeof computeStale>[1], want: { built: string; prep: string; fix: string; back?: string }) {
  const entry = entryOf(await computeStale(dir, [c, ...beside], { now: NOW, methods: ['digest-history'] }), 'c');
  expect(entry.status).toBe('stale');
  expect(entry.builtFrom?.commit).toBe(want.built);
  expect(entry.provenance[0]!.evidence).toMatchObject({ introducedBy: { commit: want.prep, file: A }, addedLater: { commit: want.back, file: A, as: 'return', others: 0 } });
  expect(entry.provenance[0]!.reason).toContain(`, later put back, after it was taken out, by ${want.back!.slice(0, 10)} "chore: pin c v1.1.0 again, v1.2.0 broke upgrades"`);
  expect(entry.unshipped.map((u) => u.commit)).toEqual([want.fix]);
  return entry;
}

describe('a digest taken out of its pin and put back by hand', () => {
  it('is dated by its first addition, judged alone and beside another image: the fix merged before the rollback is unshipped', async () => {
    const { r, built, prep, fix, back, o } = returnedRepo();
    const alone = await expectFirstAddition(r.dir, [], { built, prep, fix, back });
    expect(await expectFirstAddition(r.dir, [o], { built, prep, fix, back })).toEqual(alone);
  });

  it('names a git revert back to it as a revert (dated by its first addition, as before)', async () => {
    const { r, built, prep, fix, bump } = returnedRepo({ noBack: true });
    r.git('revert', '--no-edit', bump);
    const revert = r.git('rev-parse', 'HEAD');
    const step = entryOf(await computeStale(r.dir, [c], { now: NOW, methods: ['digest-history'] }), 'c');
    expect([step.status, step.builtFrom?.commit, step.unshipped.map((u) => u.commit)]).toEqual(['stale', built, [fix]]);
    expect(step.provenance[0]!.evidence).toMatchObject({ introducedBy: { commit: prep }, addedLater: { commit: revert, as: 'revert', others: 0 } });
    expect(step.provenance[0]!.reason).toContain(`, later reverted back to by ${revert.slice(0, 10)} "Revert \"Prepare release v1.2.0\""`);
  });

  it('names an addition of it on another line of history (a release branch merged) as one', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'src/c/main.go': '1\n', [A]: 'x: 1\n' }, 'initial');
    r.commit({ 'src/c/main.go': '2\n' }, 'feat(c): two');
    r.git('checkout', '-q', '-b', 'release-1.1');
    const rel = r.commit({ [A]: values('c', 'v1.1.0', DIGEST('c')) }, 'Prepare release v1.1.0');
    r.git('checkout', '-q', 'main');
    r.commit({ 'docs/a.md': '1\n' }, 'docs: a');
    const onMain = r.commit({ [A]: values('c', 'v1.1.0', DIGEST('c')) }, 'chore: pin c v1.1.0 on main');
    r.git('merge', '-q', '--no-ff', '-m', 'Merge branch release-1.1', 'release-1.1');
    const step = entryOf(await computeStale(r.dir, [c], { now: NOW, methods: ['digest-history'] }), 'c').provenance[0]!;
    // git's topological order puts the merged branch's commit after main's: main's addition is the introduction (as before)
    expect(step.evidence).toMatchObject({ introducedBy: { commit: onMain }, addedLater: { commit: rel, as: 'again', others: 0 } });
    expect(step.reason).toContain(`, also added by ${rel.slice(0, 10)} "Prepare release v1.1.0" (`);
    expect(step.reason).toContain(`) to ${A} on another line of history; built from its first parent`);
  });

  it('is dated by its first addition when it comes back several bumps later', async () => {
    const { r, built, prep, fix, back } = returnedRepo({ more: 3 });
    await expectFirstAddition(r.dir, [], { built, prep, fix, back });
  });

  it('is dated by its first addition when that lies beyond the first 1,024 commits the walk checks (read on until found)', async () => {
    const { r, built, prep, fix, back } = returnedRepo({ gap: 1100 });
    await expectFirstAddition(r.dir, [], { built, prep, fix, back });
  }, 60_000);

  it('answers the same warm (the rollback pushed on top of a cached run) as with --no-cache, through the CLI', async () => {
    const { r, built, prep } = returnedRepo({ noBack: true, config: true });
    const run = (...extra: string[]) => runCli(['--repo', r.dir, 'stale', '--format', 'json', '--fail-on-stale', 'never', ...extra], { cwd: r.dir });
    type Doc = { images: { image: string; status: string; builtFrom?: { commit: string } }[]; stats?: unknown };
    const entry = (out: string) => (JSON.parse(out) as Doc).images.find((i) => i.image === 'c')!;
    const strip = (out: string) => ({ ...(JSON.parse(out) as Doc), stats: undefined });
    // the cache filled while c pins v1.2.0, built after the fix: current
    expect(entry((await run()).out)).toMatchObject({ status: 'current' });
    const back = rollback(r);
    const warm = await run();
    expect(entry(warm.out)).toMatchObject({ status: 'stale', builtFrom: { commit: built } });
    expect(strip(warm.out)).toEqual(strip((await run('--no-cache')).out));
    // explain says which addition dated it and which it looked past
    const explained = await runCli(['--repo', r.dir, 'explain', 'c'], { cwd: r.dir });
    expect(explained.out).toContain(`introduced by ${prep.slice(0, 10)} "Prepare release v1.1.0"`);
    expect(explained.out).toContain(`later put back, after it was taken out, by ${back.slice(0, 10)}`);
  });
});
