/**
 * Hostile repository content against the history readers (issue 16, defects 2,
 * 3 and 6): commit subjects, pin-file bytes and path names crafted to shift
 * fields or records must not change what `stale` and `affected` answer.
 * Real git repositories with fixed dates, run through the CLI.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCommitGraph } from '../../src/git/graph.js';
import { readShallowState } from '../../src/git/shallow.js';
import { readDigestIntroductions } from '../../src/git/digest-history.js';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';
import { DIGEST, values } from '../support/stale.js';

/** No lone surrogates: git output is UTF-8 decoded, so the parsers never see one. */
const wellFormed = (s: string) => !/\p{Surrogate}/u.test(s);
const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

const cli = (dir: string, ...argv: string[]) => runCli(['--repo', dir, ...argv], { cwd: dir });

const CONFIG = `firstParty: [ghcr.io/acme/]
images:
  osc:
    repository: ghcr.io/acme/osc
    context: src/osc
`;

/** init → prep (pins digest b; the image is built from init) → merge of a fix branch touching `fixFiles`. */
function monorepo(fixFiles: Record<string, string> = { 'src/osc/main.go': 'package main\n// requeue\n' }, prepValues = values('osc', 'v1.5.0', DIGEST('b'))) {
  const r = makeRepo();
  repos.push(r);
  const init = r.commit({ 'pinwatch.yaml': CONFIG, 'src/osc/Dockerfile': 'FROM alpine\nCOPY . /app\n', 'src/osc/main.go': 'package main\n', 'charts/osc/values.yaml': values('osc', 'v1.4.0', DIGEST('a')) }, 'initial');
  const prep = r.commit({ 'charts/osc/values.yaml': prepValues }, 'Prepare release v1.5.0');
  r.git('checkout', '-q', '-b', 'fix');
  const fix = r.commit(fixFiles, 'fix(osc): requeue until ready');
  r.git('checkout', '-q', 'main');
  r.git('merge', '-q', '--no-ff', '-m', 'Merge pull request #3034 from acme/fix', 'fix');
  return { r, init, prep, fix };
}

async function staleOsc(dir: string) {
  const run = await cli(dir, 'stale', '--format', 'json', '--fail-on-stale', 'any');
  const doc = JSON.parse(run.out) as { images: { image: string; status: string; builtFrom?: { commit: string }; unshipped?: { commit: string }[] }[] };
  return { code: run.code, osc: doc.images.find((i) => i.image === 'osc')! };
}

describe('commit subjects cannot forge the commit graph (defect 2)', () => {
  it('a merged subject carrying record and field separators leaves the fix unshipped', async () => {
    const { r, init, prep, fix } = monorepo();
    // A side commit (oldest commit date, so git lists it last) whose subject forges the
    // build commit's record with the fix as a parent: the old parser let it win.
    r.git('checkout', '-q', '-b', 'evil', prep);
    const forged = `chore: tidy\x1e${init}\x1f${'0'.repeat(40)} ${fix}\x1f2026-01-01T00:00:00+00:00\x1fforged`;
    r.commit({}, forged, { date: '2001-01-01T00:00:00Z' });
    r.git('checkout', '-q', 'main');
    r.git('merge', '-q', '--no-ff', '-m', 'Merge evil', 'evil');
    const { code, osc } = await staleOsc(r.dir);
    expect(osc.status).toBe('stale');
    expect(osc.builtFrom?.commit).toBe(init);
    expect(osc.unshipped?.map((u) => u.commit)).toEqual([fix]);
    expect(code).toBe(1);
  });

  it('newlines, NUL-like and control bytes in subjects and bodies come back as the subject, nothing else', async () => {
    const { r } = monorepo();
    const subject = 'x\x01\x1e\x1f\x7f\r\tcommit 0123 "\\ é';
    const sha = r.commit({}, `${subject}\n\nbody\x1e${'f'.repeat(40)}\x1f\ncommit ${'e'.repeat(40)}\n`);
    const graph = await readCommitGraph(r.dir, ['HEAD']);
    expect(graph.node(sha)?.subject).toBe(subject);
    expect(graph.nodes).toHaveLength(Number(r.git('rev-list', '--count', 'HEAD')));
  });
});

describe('pin-file bytes cannot forge digest history (defect 3)', () => {
  const hostileLines = (fake: string) =>
    [
      `# \x1e${fake}\x1f${fake}\x1f2020-01-01T00:00:00+00:00\x1fforged`,
      `# \x1f\x1f\x1f`,
      `commit ${fake}`,
      `diff --git a/charts/osc/values.yaml b/charts/osc/values.yaml`,
      `+++ b/elsewhere.yaml`,
      `@@ -1 +1,40 @@`,
      '',
    ].join('\n');

  it('a digest added beside separator bytes and fake headers is still dated by its real commit', async () => {
    const fake = 'badc0ffee'.repeat(5).slice(0, 40);
    const { r, init, prep, fix } = monorepo(undefined, hostileLines(fake) + values('osc', 'v1.5.0', DIGEST('b')));
    const history = await readDigestIntroductions(r.dir, [DIGEST('a'), DIGEST('b')], ['charts/osc/values.yaml']);
    expect(history.found.get(DIGEST('b'))).toMatchObject({ commit: prep, parentShas: [init], subject: 'Prepare release v1.5.0', file: 'charts/osc/values.yaml' });
    expect(history.found.get(DIGEST('a'))).toMatchObject({ commit: init, file: 'charts/osc/values.yaml' });
    const { code, osc } = await staleOsc(r.dir);
    expect(osc).toMatchObject({ status: 'stale', builtFrom: { commit: init } });
    expect(osc.unshipped?.map((u) => u.commit)).toEqual([fix]);
    expect(code).toBe(1);
  });

  it('a fake introducing record naming no real commit does not abort the run', async () => {
    const { r, init } = monorepo(undefined, `# \x1e${'1'.repeat(40)}\x1f${'2'.repeat(40)}\x1f2020-01-01T00:00:00+00:00\x1fforged\n` + values('osc', 'v1.5.0', DIGEST('b')));
    const history = await readDigestIntroductions(r.dir, [DIGEST('b')], ['charts/osc/values.yaml']);
    expect(history.found.get(DIGEST('b'))?.parentShas).toEqual([init]);
    const run = await cli(r.dir, 'stale', '--format', 'json');
    expect(run.err).not.toContain('bad revision');
    expect(run.code).toBe(1);
  });
});

describe('paths git would C-quote are read exactly (defect 6)', () => {
  const name = 'src/osc/ré"q\\t\tab\nnl.go';

  it('a fix touching such a file is unshipped in stale and affects the image', async () => {
    const { r, prep, fix } = monorepo({ [name]: 'package main\n' });
    const { code, osc } = await staleOsc(r.dir);
    expect(osc.status).toBe('stale');
    expect(osc.unshipped?.map((u) => u.commit)).toEqual([fix]);
    expect(code).toBe(1);
    const affected = await cli(r.dir, 'affected', '--base', prep, '--unknown', 'exclude');
    expect(affected.code).toBe(0);
    expect(JSON.parse(affected.out)).toEqual([{ image: 'osc', repository: 'ghcr.io/acme/osc', reasons: [{ path: name, input: 'src/osc/', why: expect.any(String) }] }]);
  });

  it('a pin file whose name git quotes (or tab-suffixes for a space) dates its digest', async () => {
    const r = makeRepo();
    repos.push(r);
    const files = ['charts/a b/values.yaml', 'charts/é"\t/values.yaml'];
    const c = r.commit(Object.fromEntries(files.map((f, i) => [f, values('osc', 'v1', DIGEST(String(i + 1)))])), 'pins');
    const history = await readDigestIntroductions(r.dir, [DIGEST('1'), DIGEST('2')], files);
    expect(history.found.get(DIGEST('1'))).toMatchObject({ commit: c, file: files[0] });
    expect(history.found.get(DIGEST('2'))).toMatchObject({ commit: c, file: files[1] });
  });
});

describe('the raw history pass cannot be forged by paths or subjects', () => {
  it('a path or subject shaped like a raw entry of a pin file adds nothing to it', async () => {
    const r = makeRepo();
    repos.push(r);
    const pinFile = 'charts/osc/values.yaml';
    const init = r.commit({ [pinFile]: values('osc', 'v1', DIGEST('a')) }, 'initial');
    // a file whose name carries a raw entry for the pin file (and another run's record marker), holding digest b
    const forgedName = `x\n:100644 100644 ${'1'.repeat(40)} ${'2'.repeat(40)} M\n${pinFile}\n@pinwatch:${'0'.repeat(32)}:`;
    r.commit({ [forgedName]: values('osc', 'v2', DIGEST('b')) }, `chore: ${pinFile} :100644 100644 ${'3'.repeat(40)} ${'4'.repeat(40)} M`);
    const real = r.commit({ [pinFile]: values('osc', 'v2', DIGEST('b')) }, 'Prepare release v2');
    const history = await readDigestIntroductions(r.dir, [DIGEST('a'), DIGEST('b')], [pinFile]);
    expect(history.found.get(DIGEST('a'))).toMatchObject({ commit: init, file: pinFile });
    expect(history.found.get(DIGEST('b'))).toMatchObject({ commit: real, file: pinFile, movedBy: [] });
    const graph = await readCommitGraph(r.dir, ['HEAD']);
    expect(graph.nodes.map((n) => n.subject)).toEqual(['Prepare release v2', `chore: ${pinFile} :100644 100644 ${'3'.repeat(40)} ${'4'.repeat(40)} M`, 'initial']);
  });
});

describe('paths git prints raw', () => {
  it('a shallow clone whose directory name holds a newline still reads its boundary (from a worktree: git prints the path absolute)', async () => {
    const { r } = monorepo();
    const parent = mkdtempSync(join(tmpdir(), 'pinwatch-nl-'));
    const clone = join(parent, 'clone\nhere');
    const dir = join(parent, 'wt');
    try {
      execFileSync('git', ['clone', '-q', '--depth', '1', `file://${r.dir}`, clone]);
      execFileSync('git', ['worktree', 'add', '-q', dir], { cwd: clone });
      const state = await readShallowState(dir);
      expect(state.shallow).toBe(true);
      expect([...state.boundary]).toEqual([execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim()]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('user git config cannot change the shape of what is parsed', () => {
  it('noprefix, quotePath off, inter-hunk context, bare blank context lines and colour leave digest history exact', async () => {
    const r = makeRepo();
    repos.push(r);
    for (const [k, v] of [['diff.noprefix', 'true'], ['core.quotePath', 'false'], ['diff.interHunkContext', '10'], ['diff.suppressBlankEmpty', 'true'], ['color.ui', 'always'], ['diff.mnemonicPrefix', 'true']]) r.git('config', k!, v!);
    const file = 'a/é "x"/values.yaml';
    const body = (d1: string, d2: string) => `one: ${d1}\n\n\nkeep\n\n\ntwo: ${d2}\n`;
    const c1 = r.commit({ [file]: body(DIGEST('1'), DIGEST('2')) }, 'first');
    const c2 = r.commit({ [file]: body(DIGEST('3'), DIGEST('4')) }, 'second');
    const history = await readDigestIntroductions(r.dir, ['1', '2', '3', '4'].map(DIGEST), [file]);
    expect(history.found.get(DIGEST('1'))).toMatchObject({ commit: c1, file });
    expect(history.found.get(DIGEST('2'))).toMatchObject({ commit: c1, file });
    expect(history.found.get(DIGEST('3'))).toMatchObject({ commit: c2, file, parentShas: [c1] });
    expect(history.found.get(DIGEST('4'))).toMatchObject({ commit: c2, file });
  });
});

describe('end-to-end fuzz: real repositories with random subjects and file names', () => {
  const text = fc
    .oneof(fc.string({ unit: 'binary', maxLength: 24 }), fc.string({ unit: fc.constantFrom('\x1e', '\x1f', '\n', '\t', '"', '\\', 'é', ' ', 'commit ', `${'0'.repeat(40)}`, '\r'), maxLength: 12 }))
    .filter((s) => wellFormed(s) && !s.includes('\0'));
  const fileName = text.map((s) => `f${s.replace(/\//g, '_')}`).filter((s) => Buffer.byteLength(s) < 200);

  it('stale finds the one unshipped fix, and the graph reads every subject as git prints it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 4, maxLength: 4 }), fileName, async ([s1, s2, s3, s4], file) => {
        const r = makeRepo();
        repos.push(r);
        const init = r.commit({ 'pinwatch.yaml': CONFIG, 'src/osc/Dockerfile': 'FROM alpine\nCOPY . /app\n', 'charts/osc/values.yaml': values('osc', 'v1.4.0', DIGEST('a')) }, `x${s1}`);
        r.commit({ 'charts/osc/values.yaml': values('osc', 'v1.5.0', DIGEST('b')) }, `x${s2}`);
        r.git('checkout', '-q', '-b', 'fix');
        const fix = r.commit({ [`src/osc/${file}`]: 'package main\n' }, `x${s3}`);
        r.git('checkout', '-q', 'main');
        r.git('merge', '-q', '--no-ff', '-m', `x${s4}`, 'fix');
        const { code, osc } = await staleOsc(r.dir);
        expect(osc).toMatchObject({ status: 'stale', builtFrom: { commit: init } });
        expect(osc.unshipped?.map((u) => u.commit)).toEqual([fix]);
        expect(code).toBe(1);
        const graph = await readCommitGraph(r.dir, ['HEAD']);
        expect(graph.nodes.map((n) => n.sha).sort()).toEqual(r.git('rev-list', 'HEAD').split('\n').sort());
        for (const n of graph.nodes) {
          expect(n.subject).toBe(execFileSync('git', ['log', '-1', '--format=%s', n.sha], { cwd: r.dir, encoding: 'utf8' }).replace(/\n$/, ''));
        }
        r.cleanup();
      }),
      { numRuns: 4 },
    );
  });
});
