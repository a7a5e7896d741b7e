/**
 * A digest whose first pin file no longer pins it: the file was deleted later,
 * in a commit of its own (a chart replaced by a copy, then removed), or edited
 * so that it pins no first-party image (a chart that serves another image now,
 * or none). The copy is no introduction. Before, such a file was not among the
 * files searched (the scan's pin files are the tree's, and those that pin
 * something now): the copy dated the image, built after the fixes merged between
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

/** How chart a stops pinning c, the commit's subject, the evidence key naming it and the reason's words. */
const LEAVES = [
  { how: 'deleted', content: null, subject: 'chore: chart a removed', key: 'fileDeletedBy', words: 'deleted since' },
  { how: 'edited to pin a third-party image', content: 'controller:\n  image: "docker.io/library/nginx:1.27"\n', subject: 'chore: chart a serves nginx now', key: 'takenOutBy', words: 'taken out of it since' },
  { how: 'edited to pin nothing', content: 'controller:\n  replicas: 1\n', subject: 'chore: chart a has no image of its own', key: 'takenOutBy', words: 'taken out of it since' },
] as const;
type Leave = (typeof LEAVES)[number];

/** c built from `built`, pinned in chart a by `prep`, fixed by `fix`, copied into chart b by `copy`; `left`: chart a stops pinning it. */
function formerRepo(leave: Leave = LEAVES[0]) {
  const r = makeRepo();
  repos.push(r);
  r.commit({ 'src/c/main.go': '1\n', 'src/o/main.go': '1\n', [A]: values('c', 'v1.0.0', DIGEST('0')), [O]: values('o', 'v1', DIGEST('e')) }, 'initial');
  const built = r.commit({ 'src/c/main.go': '2\n' }, 'feat(c): two (#1)');
  const prep = r.commit({ [A]: values('c', 'v1.1.0', DIGEST('c')) }, 'Prepare release v1.1.0');
  for (let i = 0; i < 4; i++) r.commit({ 'docs/notes.md': `${i}\n` }, `docs: note ${i}`);
  const fix = r.commit({ 'src/c/main.go': '3\n' }, 'fix(c): merged after the release (#5)');
  const copy = r.commit({ [B]: values('c', 'v1.1.0', DIGEST('c')) }, 'chore: chart b pins the same image');
  for (let i = 4; i < 7; i++) r.commit({ 'docs/notes.md': `${i}\n` }, `docs: note ${i}`);
  const left = r.commit({ [A]: leave.content }, leave.subject);
  r.commit({ 'docs/notes.md': 'last\n' }, 'docs: last note');
  const c = image('c', [pin(B, 2, REF)], inputs('c', 'src/c/'));
  // o's pin came with the first commit: judged beside c, it keeps the window reading to the root
  const o = image('o', [pin(O, 2, `ghcr.io/acme/o:v1@${DIGEST('e')}`)], inputs('o', 'src/o/'));
  return { r, built, prep, fix, copy, left, c, o };
}

const judge = async (dir: string, images: Parameters<typeof computeStale>[1], options: Partial<StaleOptions> = {}) =>
  (await computeStale(dir, images, { now: NOW, methods: ['digest-history'], pinFiles: [B, O], pinLike: valuesFiles, ...options })).images.find((i) => i.image === 'c')!;

describe.each(LEAVES)('a digest whose first pin file was $how', (leave) => {
  it('is dated by that first pin wherever the window stops: the fix merged before the copy is unshipped', async () => {
    const { r, built, prep, fix, copy, left, c } = formerRepo(leave);
    for (const windowStep of [undefined, 1, 2, 5]) {
      const img = await judge(r.dir, [c], windowStep ? { windowStep } : {});
      expect(img.status, `step ${windowStep}`).toBe('stale');
      expect(img.builtFrom?.commit, `step ${windowStep}`).toBe(built);
      expect(img.unshipped.map((u) => u.commit), `step ${windowStep}`).toEqual([fix]);
      expect(img.provenance[0]!.evidence, `step ${windowStep}`).toMatchObject({ introducedBy: { commit: prep, file: A, [leave.key]: { commit: left, subject: leave.subject } }, addedLater: { commit: copy, file: B, as: 'copy' } });
      // the reason says why the file pins it no more
      expect(img.provenance[0]!.reason, `step ${windowStep}`).toContain(`in ${A} (${leave.words} by ${left.slice(0, 10)} "${leave.subject}" (`);
    }
  });

  it('gets the same answer judged alone as beside an image whose build is older', async () => {
    const { r, built, c, o } = formerRepo(leave);
    const alone = await judge(r.dir, [c]);
    expect(alone).toEqual(await judge(r.dir, [c, o]));
    expect(alone.builtFrom?.commit).toBe(built);
  });

  it('is searched only where the scan would read such a file (`pinLike`); without it, as before, the copy dates the image', async () => {
    const { r, copy, c } = formerRepo(leave);
    for (const options of [{ pinLike: (p: string) => p.endsWith('.tag') }, { pinLike: undefined }]) {
      const img = await judge(r.dir, [c], options);
      expect(img.provenance[0]!.evidence).toMatchObject({ introducedBy: { commit: copy, file: B } });
      expect(img.status).toBe('current');
    }
  });

  it('through the CLI: stale, stale c and explain c agree, and a cached run answers as --no-cache', async () => {
    const { r, built, prep, copy } = formerRepo(leave);
    await expectCliAgrees(r, { built, intro: prep, later: copy, mentions: [`${A} (${leave.words} by `] });
  });
});

/** c built from `built`, its digest first pinned in chart a by `prep`, fixed by `fix` (nothing after). */
function releasedInA() {
  const r = makeRepo();
  repos.push(r);
  r.commit({ 'src/c/main.go': '1\n', [A]: values('c', 'v1.0.0', DIGEST('0')) }, 'initial');
  const built = r.commit({ 'src/c/main.go': '2\n' }, 'feat(c): two (#1)');
  const prep = r.commit({ [A]: values('c', 'v1.1.0', DIGEST('c')) }, 'Prepare release v1.1.0');
  const fix = r.commit({ 'src/c/main.go': '3\n' }, 'fix(c): merged after the release (#5)');
  return { r, built, prep, fix };
}

describe('a digest moved between pin files in one commit', () => {
  it.each([
    { how: 'the chart deleted where the same commit adds its digests elsewhere', left: null, key: 'fileDeletedBy' },
    { how: 'the pin edited out of chart a where the same commit adds it to chart b', left: 'controller:\n  replicas: 1\n', key: 'takenOutBy' },
  ])('$how: followed as a move, not a copy', async ({ left, key }) => {
    const { r, built, prep, fix } = releasedInA();
    const moved = r.commit({ [A]: left, [B]: values('c', 'v1.1.0', DIGEST('c')) }, 'refactor: move the controller from chart a to b');
    const img = await judge(r.dir, [image('c', [pin(B, 2, REF)], inputs('c', 'src/c/'))]);
    expect(img.builtFrom?.commit).toBe(built);
    expect(img.unshipped.map((u) => u.commit)).toEqual([fix]);
    expect(img.provenance[0]!.evidence).toMatchObject({ introducedBy: { commit: prep, file: A }, movedBy: [{ commit: moved, from: [A] }] });
    expect(img.provenance[0]!.evidence).not.toHaveProperty('addedLater');
    expect(img.provenance[0]!.evidence).not.toHaveProperty(`introducedBy.${key}`);
  });
});

describe('a digest put back in a file it was moved from later', () => {
  /**
   * cozystack's grafana: the digest introduced in the old chart's tag file, taken out there, put
   * back by a later release, then the chart moved (the old file deleted where the same commit adds
   * the digest to the new one). The move is followed, and the release that put it back is its return.
   */
  function movedAfterReturn() {
    const r = makeRepo();
    repos.push(r);
    const [OLD, NEW] = ['extra/g/images/g.tag', 'system/g/images/g.tag'];
    const tag = (d: string) => `ghcr.io/acme/g:v1@${d}\n`;
    r.commit({ 'src/g/main.go': '1\n', 'src/o/main.go': '1\n', [OLD]: tag(DIGEST('0')), [O]: values('o', 'v1', DIGEST('e')) }, 'initial');
    const built = r.commit({ 'src/g/main.go': '2\n' }, 'feat(g): two (#1)');
    const prep = r.commit({ [OLD]: tag(DIGEST('c')) }, 'Prepare release v1.1.0');
    const fix = r.commit({ 'src/g/main.go': '3\n' }, 'fix(g): merged after the release (#5)');
    r.commit({ [OLD]: tag(DIGEST('1')) }, 'chore: try a build of main');
    for (let i = 0; i < 3; i++) r.commit({ 'docs/notes.md': `${i}\n` }, `docs: note ${i}`);
    const back = r.commit({ [OLD]: tag(DIGEST('c')) }, 'Prepare release v1.2.0 (the v1.1.0 image again)');
    const moved = r.commit({ [OLD]: null, [NEW]: tag(DIGEST('c')) }, 'refactor: move chart g from extra to system');
    r.commit({ 'docs/notes.md': 'last\n' }, 'docs: last note');
    const g = image('g', [pin(NEW, 1, `ghcr.io/acme/g:v1@${DIGEST('c')}`)], inputs('g', 'src/g/'));
    const o = image('o', [pin(O, 2, `ghcr.io/acme/o:v1@${DIGEST('e')}`)], inputs('o', 'src/o/'));
    return { r, built, prep, fix, back, moved, g, o, NEW };
  }

  // (the return is seen where the walk reads the commit that took the digest out: always among the newest 1,024, docs/stale.md)
  it('is dated by its first pin, judged alone or beside an older build, with or without the deleted-file search', async () => {
    const { r, built, prep, fix, back, moved, g, o, NEW } = movedAfterReturn();
    for (const images of [[g], [g, o]]) {
      for (const pinLike of [(p: string) => p.endsWith('.tag') || p.endsWith('/values.yaml'), undefined]) {
        const img = (await computeStale(r.dir, images, { now: NOW, methods: ['digest-history'], pinFiles: images.length === 1 ? [NEW] : [NEW, O], ...(pinLike ? { pinLike } : {}) })).images.find((i) => i.image === 'g')!;
        const at = `${images.length} image(s), ${pinLike ? 'pinLike' : 'no pinLike'}`;
        expect(img.builtFrom?.commit, at).toBe(built);
        expect(img.unshipped.map((u) => u.commit), at).toEqual([fix]);
        // the move is followed as a move, not called a deletion and a copy
        expect(img.provenance[0]!.evidence, at).toMatchObject({ introducedBy: { commit: prep }, movedBy: [{ commit: moved }] });
        expect(img.provenance[0]!.evidence, at).not.toHaveProperty('introducedBy.fileDeletedBy');
        expect(img.provenance[0]!.reason, at).not.toContain(`introduced by ${back.slice(0, 10)}`);
      }
    }
  });
});

describe('a digest its first pin file holds again', () => {
  it('names no commit that took it out: the file holds it again (here in a comment, as another pin would)', async () => {
    const { r, built, prep, fix } = releasedInA();
    r.commit({ [B]: values('c', 'v1.1.0', DIGEST('c')) }, 'chore: chart b pins the same image');
    const out = r.commit({ [A]: 'controller:\n  replicas: 1\n' }, 'chore: chart a has no image of its own');
    r.commit({ [A]: `controller:\n  replicas: 1\n# c was ${DIGEST('c')}\n` }, 'docs: chart a says which image it served');
    const img = await judge(r.dir, [image('c', [pin(B, 2, REF)], inputs('c', 'src/c/'))]);
    expect(img.builtFrom?.commit).toBe(built);
    expect(img.unshipped.map((u) => u.commit)).toEqual([fix]);
    expect(img.provenance[0]!.evidence).toMatchObject({ introducedBy: { commit: prep, file: A } });
    expect(img.provenance[0]!.evidence).not.toHaveProperty('introducedBy.takenOutBy');
    expect(img.provenance[0]!.reason).not.toContain(out.slice(0, 10));
  });
});
