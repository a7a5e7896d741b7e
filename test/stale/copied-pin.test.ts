/**
 * A digest copied into a second pin file (a new chart pinning the same image)
 * is no introduction: the image is dated by its first pin, wherever the history
 * window stops and whatever other images are judged beside it. Before this was
 * so, the window took the copy (the newest addition) as the introduction when
 * nothing else kept it reading: the image was said to be built after the fixes
 * merged between its first pin and the copy, and `current`.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { computeStale } from '../../src/stale/history.js';
import { DIGEST, expectCliAgrees, image, inputs, pin, values } from '../support/stale.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));
const NOW = new Date('2026-03-01T00:00:00Z');
const REF = `ghcr.io/acme/c:v1.1.0@${DIGEST('c')}`;
const [A, B, O] = ['charts/a/values.yaml', 'charts/b/values.yaml', 'charts/o/values.yaml'];

/** c built from `built`, pinned in chart a by `prep`, fixed by `fix`, then copied into chart b (filler commits between). */
function copiedRepo() {
  const r = makeRepo();
  repos.push(r);
  r.commit({ 'src/c/main.go': '1\n', 'src/o/main.go': '1\n', [A]: values('c', 'v1.0.0', DIGEST('0')), [O]: values('o', 'v1', DIGEST('e')) }, 'initial');
  const built = r.commit({ 'src/c/main.go': '2\n' }, 'feat(c): two (#1)');
  const prep = r.commit({ [A]: values('c', 'v1.1.0', DIGEST('c')) }, 'Prepare release v1.1.0');
  for (let i = 0; i < 6; i++) r.commit({ 'docs/notes.md': `${i}\n` }, `docs: note ${i}`);
  const fix = r.commit({ 'src/c/main.go': '3\n' }, 'fix(c): merged after the release (#5)');
  for (let i = 6; i < 9; i++) r.commit({ 'docs/notes.md': `${i}\n` }, `docs: note ${i}`);
  const copy = r.commit({ [B]: values('c', 'v1.1.0', DIGEST('c')) }, 'chore: a second chart pins the same image');
  r.commit({ 'docs/notes.md': 'last\n' }, 'docs: last note');
  const c = image('c', [pin(A, 2, REF), pin(B, 2, REF)], inputs('c', 'src/c/'));
  // o's pin came with the first commit: judged beside c, it keeps the window reading to the root
  const o = image('o', [pin(O, 2, `ghcr.io/acme/o:v1@${DIGEST('e')}`)], inputs('o', 'src/o/'));
  return { r, built, prep, fix, copy, c, o };
}

const entryOf = (report: Awaited<ReturnType<typeof computeStale>>, name: string) => report.images.find((i) => i.image === name)!;

/**
 * `images` judged with the window grown `steps` commits at a time (undefined: as a
 * run grows it), `pinFiles` searched besides their pins: c is stale, built from
 * `built`, its digest introduced by `intro` in `file`, `unshipped` its unshipped commits.
 */
async function expectDated(dir: string, images: Parameters<typeof computeStale>[1], steps: (number | undefined)[], want: { built: string; intro: string; file: string; unshipped: string[] }, pinFiles?: string[]) {
  for (const windowStep of steps) {
    const img = entryOf(await computeStale(dir, images, { now: NOW, methods: ['digest-history'], ...(pinFiles ? { pinFiles } : {}), ...(windowStep ? { windowStep } : {}) }), 'c');
    expect(img.status, `step ${windowStep}`).toBe('stale');
    expect(img.builtFrom?.commit, `step ${windowStep}`).toBe(want.built);
    expect(img.provenance[0]!.evidence, `step ${windowStep}`).toMatchObject({ introducedBy: { commit: want.intro, file: want.file } });
    expect(img.unshipped.map((u) => u.commit), `step ${windowStep}`).toEqual(want.unshipped);
  }
}

describe('a digest copied into a second pin file', () => {
  it('is dated by its first pin wherever the window stops: the fix merged before the copy is unshipped', async () => {
    const { r, built, prep, fix, copy, c } = copiedRepo();
    await expectDated(r.dir, [c], [undefined, 1, 2, 5], { built, intro: prep, file: A, unshipped: [fix] });
    // the copy is named as looked past
    const step = entryOf(await computeStale(r.dir, [c], { now: NOW, methods: ['digest-history'] }), 'c').provenance[0]!;
    expect(step.evidence).toMatchObject({ addedLater: { commit: copy, file: B, as: 'copy', others: 0 } });
    expect(step.reason).toContain(`, later copied by ${copy.slice(0, 10)} "chore: a second chart pins the same image" (`);
    expect(step.reason).toContain(`) into ${B}; built from its first parent`);
  });

  it('gets the same answer judged alone as beside an image whose build is older', async () => {
    const { r, built, c, o } = copiedRepo();
    const alone = entryOf(await computeStale(r.dir, [c], { now: NOW, methods: ['digest-history'] }), 'c');
    const beside = entryOf(await computeStale(r.dir, [c, o], { now: NOW, methods: ['digest-history'] }), 'c');
    expect(alone).toEqual(beside);
    expect(alone.builtFrom?.commit).toBe(built);
  });

  it('is dated by its first pin when that file has moved on to another digest since, judged alone', async () => {
    const { r, built, prep, fix } = copiedRepo();
    r.commit({ [A]: values('c', 'v1.2.0', DIGEST('d')) }, 'chore: chart a pins a newer build');
    const only = image('c', [pin(B, 2, REF)], inputs('c', 'src/c/'));
    // chart a pins another image now (c at the newer digest), not judged here: searched as one of the scan's pin files
    await expectDated(r.dir, [only], [undefined, 1, 3], { built, intro: prep, file: A, unshipped: [fix] }, [A, B, O]);
  });

  it('is a copy too when the commit copying it also edits the file it came from', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'src/c/main.go': '1\n', [A]: 'x: 1\n' }, 'initial');
    const built = r.commit({ 'src/c/main.go': '2\n' }, 'feat(c): two');
    const prep = r.commit({ [A]: values('c', 'v1.1.0', DIGEST('c')) }, 'Prepare release v1.1.0');
    const fix = r.commit({ 'src/c/main.go': '3\n' }, 'fix(c): later');
    // chart a keeps the digest and gains a comment; chart b gets the digest: read from chart a's old blob in that commit
    r.commit({ [A]: `# pinned for the release\n${values('c', 'v1.1.0', DIGEST('c'))}`, [B]: values('c', 'v1.1.0', DIGEST('c')) }, 'chore: chart b pins c too');
    const c = image('c', [pin(A, 3, REF), pin(B, 2, REF)], inputs('c', 'src/c/'));
    await expectDated(r.dir, [c], [undefined, 1], { built, intro: prep, file: A, unshipped: [fix] });
  });

  it('is a copy too below a root that is a subdirectory of the work tree', async () => {
    const r = makeRepo();
    repos.push(r);
    const under = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([k, v]) => [`deploy/${k}`, v]));
    r.commit(under({ 'src/c/main.go': '1\n', [A]: 'x: 1\n' }), 'initial');
    const built = r.commit(under({ 'src/c/main.go': '2\n' }), 'feat(c): two');
    const prep = r.commit(under({ [A]: values('c', 'v1.1.0', DIGEST('c')) }), 'Prepare release v1.1.0');
    const fix = r.commit(under({ 'src/c/main.go': '3\n' }), 'fix(c): later');
    r.commit(under({ [B]: values('c', 'v1.1.0', DIGEST('c')) }), 'chore: chart b pins c too');
    const c = image('c', [pin(A, 2, REF), pin(B, 2, REF)], inputs('c', 'src/c/'));
    await expectDated(join(r.dir, 'deploy'), [c], [undefined, 1], { built, intro: prep, file: A, unshipped: [fix] });
  });

  it('is a copy too when the file it came from has a newline in its name (asked by no name: taken to hold it)', async () => {
    const r = makeRepo();
    repos.push(r);
    const odd = 'charts/a\nb/values.yaml';
    r.commit({ 'src/c/main.go': '1\n' }, 'initial');
    const built = r.commit({ 'src/c/main.go': '2\n' }, 'feat(c): two');
    const prep = r.commit({ [odd]: values('c', 'v1.1.0', DIGEST('c')) }, 'Prepare release v1.1.0');
    const fix = r.commit({ 'src/c/main.go': '3\n' }, 'fix(c): later');
    r.commit({ [B]: values('c', 'v1.1.0', DIGEST('c')) }, 'chore: chart b pins c too');
    const c = image('c', [pin(odd, 2, REF), pin(B, 2, REF)], inputs('c', 'src/c/'));
    await expectDated(r.dir, [c], [undefined, 1], { built, intro: prep, file: odd, unshipped: [fix] });
  });

  it('still dates a digest first pinned in two files at once by that commit', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'src/c/main.go': '1\n', [A]: 'x: 1\n' }, 'initial');
    const built = r.commit({ 'src/c/main.go': '2\n' }, 'feat(c): two');
    const both = r.commit({ [A]: values('c', 'v1.1.0', DIGEST('c')), [B]: values('c', 'v1.1.0', DIGEST('c')) }, 'Prepare release v1.1.0');
    const fix = r.commit({ 'src/c/main.go': '3\n' }, 'fix(c): later');
    const c = image('c', [pin(A, 2, REF), pin(B, 2, REF)], inputs('c', 'src/c/'));
    await expectDated(r.dir, [c], [undefined, 1], { built, intro: both, file: A, unshipped: [fix] });
  });

  it('keeps which files held the digest with the history: a warm run reads no blob again and answers the same', async () => {
    const { r, built, prep, copy } = copiedRepo();
    await expectCliAgrees(r, { built, intro: prep, later: copy });
  });
});
