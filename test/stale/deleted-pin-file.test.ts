/**
 * A digest whose first pin file was deleted later, in a commit of its own (a
 * chart replaced by a copy, then removed): the copy is no introduction. Before,
 * the deleted file was not among the files searched (the scan's pin files are
 * the tree's), so the copy dated the image: built after the fixes merged between
 * its first pin and the copy, and `current` though it lacks them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { computeStale, type StaleOptions } from '../../src/stale/history.js';
import { DIGEST, expectCliAgrees, image, inputs, pin, values } from '../support/stale.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));
const NOW = new Date('2026-03-01T00:00:00Z');
const REF = `ghcr.io/acme/c:v1.1.0@${DIGEST('c')}`;
const [A, B, O] = ['charts/a/values.yaml', 'charts/b/values.yaml', 'charts/o/values.yaml'];
const valuesFiles = (p: string) => p.endsWith('/values.yaml');

/** c built from `built`, pinned in chart a by `prep`, fixed by `fix`, copied into chart b by `copy`, chart a deleted by `gone`. */
function deletedRepo() {
  const r = makeRepo();
  repos.push(r);
  r.commit({ 'src/c/main.go': '1\n', 'src/o/main.go': '1\n', [A]: values('c', 'v1.0.0', DIGEST('0')), [O]: values('o', 'v1', DIGEST('e')) }, 'initial');
  const built = r.commit({ 'src/c/main.go': '2\n' }, 'feat(c): two (#1)');
  const prep = r.commit({ [A]: values('c', 'v1.1.0', DIGEST('c')) }, 'Prepare release v1.1.0');
  for (let i = 0; i < 4; i++) r.commit({ 'docs/notes.md': `${i}\n` }, `docs: note ${i}`);
  const fix = r.commit({ 'src/c/main.go': '3\n' }, 'fix(c): merged after the release (#5)');
  const copy = r.commit({ [B]: values('c', 'v1.1.0', DIGEST('c')) }, 'chore: chart b pins the same image');
  for (let i = 4; i < 7; i++) r.commit({ 'docs/notes.md': `${i}\n` }, `docs: note ${i}`);
  const gone = r.commit({ [A]: null }, 'chore: chart a removed');
  r.commit({ 'docs/notes.md': 'last\n' }, 'docs: last note');
  const c = image('c', [pin(B, 2, REF)], inputs('c', 'src/c/'));
  // o's pin came with the first commit: judged beside c, it keeps the window reading to the root
  const o = image('o', [pin(O, 2, `ghcr.io/acme/o:v1@${DIGEST('e')}`)], inputs('o', 'src/o/'));
  return { r, built, prep, fix, copy, gone, c, o };
}

const judge = async (dir: string, images: Parameters<typeof computeStale>[1], options: Partial<StaleOptions> = {}) =>
  (await computeStale(dir, images, { now: NOW, methods: ['digest-history'], pinFiles: [B, O], pinLike: valuesFiles, ...options })).images.find((i) => i.image === 'c')!;

describe('a digest whose first pin file is gone', () => {
  it('is dated by that first pin wherever the window stops: the fix merged before the copy is unshipped', async () => {
    const { r, built, prep, fix, copy, gone, c } = deletedRepo();
    for (const windowStep of [undefined, 1, 2, 5]) {
      const img = await judge(r.dir, [c], windowStep ? { windowStep } : {});
      expect(img.status, `step ${windowStep}`).toBe('stale');
      expect(img.builtFrom?.commit, `step ${windowStep}`).toBe(built);
      expect(img.unshipped.map((u) => u.commit), `step ${windowStep}`).toEqual([fix]);
      expect(img.provenance[0]!.evidence, `step ${windowStep}`).toMatchObject({ introducedBy: { commit: prep, file: A, fileDeletedBy: { commit: gone, subject: 'chore: chart a removed' } }, addedLater: { commit: copy, file: B, as: 'copy' } });
      // the reason says where the file went
      expect(img.provenance[0]!.reason, `step ${windowStep}`).toContain(`in ${A} (deleted since by ${gone.slice(0, 10)} "chore: chart a removed" (`);
    }
  });

  it('gets the same answer judged alone as beside an image whose build is older', async () => {
    const { r, built, c, o } = deletedRepo();
    const alone = await judge(r.dir, [c]);
    expect(alone).toEqual(await judge(r.dir, [c, o]));
    expect(alone.builtFrom?.commit).toBe(built);
  });

  it('is searched only where the scan would read such a file (`pinLike`); without it, as before, the copy dates the image', async () => {
    const { r, copy, c } = deletedRepo();
    for (const options of [{ pinLike: (p: string) => p.endsWith('.tag') }, { pinLike: undefined }]) {
      const img = await judge(r.dir, [c], options);
      expect(img.provenance[0]!.evidence).toMatchObject({ introducedBy: { commit: copy, file: B } });
      expect(img.status).toBe('current');
    }
  });

  it('a chart moved in one commit (deleted where the same commit adds its digests) is still followed as a move, not a copy', async () => {
    const r = makeRepo();
    repos.push(r);
    r.commit({ 'src/c/main.go': '1\n', [A]: values('c', 'v1.0.0', DIGEST('0')) }, 'initial');
    const built = r.commit({ 'src/c/main.go': '2\n' }, 'feat(c): two (#1)');
    const prep = r.commit({ [A]: values('c', 'v1.1.0', DIGEST('c')) }, 'Prepare release v1.1.0');
    const fix = r.commit({ 'src/c/main.go': '3\n' }, 'fix(c): merged after the release (#5)');
    const moved = r.commit({ [A]: null, [B]: values('c', 'v1.1.0', DIGEST('c')) }, 'refactor: move chart a to b');
    const img = await judge(r.dir, [image('c', [pin(B, 2, REF)], inputs('c', 'src/c/'))]);
    expect(img.builtFrom?.commit).toBe(built);
    expect(img.unshipped.map((u) => u.commit)).toEqual([fix]);
    expect(img.provenance[0]!.evidence).toMatchObject({ introducedBy: { commit: prep, file: A }, movedBy: [{ commit: moved, from: [A] }] });
    expect(img.provenance[0]!.evidence).not.toHaveProperty('addedLater');
    expect(img.provenance[0]!.evidence).not.toHaveProperty('introducedBy.fileDeletedBy');
  });

  it('through the CLI: stale, stale c and explain c agree, and a cached run answers as --no-cache', async () => {
    const { r, built, prep, copy } = deletedRepo();
    await expectCliAgrees(r, { built, intro: prep, later: copy, mentions: [`${A} (deleted since by `] });
  });
});
