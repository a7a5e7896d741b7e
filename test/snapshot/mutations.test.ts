/**
 * The tree-state snapshot (src/snapshot/) never changes an answer: on the demo
 * repository, after each change of the work tree below (one after another, on
 * top of the snapshot the previous cached run kept), cached `stale` and `check`
 * JSON equal a `--no-cache` run's, and `-v` says which parts were reused (the
 * scan, the build model, each image's build inputs) and, for each part derived
 * again, why (any change that could alter it, and only that part and what
 * depends on its result).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDemoRepo } from '../../src/demo/build.js';
import { runCli } from '../support/io.js';
import { normalize } from '../stale/golden/repos.mjs';

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

const COMMANDS = [
  ['stale', '--format', 'json', '--fail-on-stale', 'never'],
  ['check', '--format', 'json'],
];

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.test', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.test', GIT_AUTHOR_DATE: '2026-08-02T00:00:00Z', GIT_COMMITTER_DATE: '2026-08-02T00:00:00Z' },
  });

const edit = (file: string, from: string | RegExp, to: string) => {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`the test's edit of ${file} changed nothing`);
  writeFileSync(file, next);
};

/** Which parts a cached run reused: the scan, the build model, and the images whose inputs were derived again (all others reused). */
interface Parts {
  scan: boolean;
  model: boolean;
  derived: string[];
  /** When the scan is derived again: whether its walk was reused, and how many files were read and collected again. */
  scanned?: { walk: boolean; files: number };
}

const ALL: Parts = { scan: true, model: true, derived: [] };
const IMAGES = ['backup-strategy-controller', 'billing-controller', 'dashboard', 'gateway', 'multus-cni', 'objectstorage-sidecar'];

interface Mutation {
  name: string;
  apply(dir: string): void;
  /** What the cached stale run after it reuses. */
  parts: Parts;
  /** The config changed: the snapshot is another one (none kept yet), not an invalid one. */
  newConfig?: true;
}

/** Applied in order, each on top of the last; every one is judged against a --no-cache run. */
const MUTATIONS: Mutation[] = [
  { name: 'nothing changed', apply: () => undefined, parts: ALL },
  { name: 'a new file no reader notices, committed', apply: (d) => (writeFileSync(join(d, 'NOTES.txt'), 'notes\n'), git(d, 'add', 'NOTES.txt'), git(d, 'commit', '-qm', 'docs: notes')), parts: ALL },
  { name: 'a file read touched with the same content', apply: (d) => utimesSync(join(d, 'packages/system/billing/values.yaml'), new Date(), new Date()), parts: ALL },
  { name: 'a file read rewritten with the same content (a new inode)', apply: (d) => { const f = join(d, 'packages/system/billing/Makefile'); const text = readFileSync(f); unlinkSync(f); writeFileSync(f, text); }, parts: ALL },
  // the model only checks that the values file a producer writes is a file: a pin edit re-scans, nothing more
  { name: 'a pin file edited', apply: (d) => edit(join(d, 'packages/system/billing/values.yaml'), 'replicas: 2', 'replicas: 3'), parts: { scan: false, model: true, derived: [], scanned: { walk: true, files: 1 } } },
  { name: 'a pin bumped to another tag', apply: (d) => edit(join(d, 'packages/system/gateway/values.yaml'), 'tag: v1.0.0', 'tag: v1.0.10'), parts: { scan: false, model: true, derived: [], scanned: { walk: true, files: 1 } } },
  { name: 'a pin bumped to another digest', apply: (d) => edit(join(d, 'packages/extra/storage/images/objectstorage-sidecar.tag'), /sha256:0090/, 'sha256:1090'), parts: { scan: false, model: true, derived: [], scanned: { walk: true, files: 1 } } },
  // multus's recipe edits this file with a `sed` line filter: the model asks again which lines match, and they are the same
  {
    name: 'a pin bumped in a file a sed line filter edits',
    apply: (d) => edit(join(d, 'packages/system/multus/templates/multus-daemonset-thick.yml'), /multus-cni:v4\.1\.0@sha256:95e0/g, 'multus-cni:v4.1.0@sha256:05e0'),
    parts: { scan: false, model: true, derived: [], scanned: { walk: true, files: 1 } },
  },
  // a matching line more: the producer's write covers other lines (the model), so multus-cni's recipe (its stamps) changed;
  // the walk stats this extraFiles file by name, and its size changed: walked again
  {
    name: 'a line the sed line filter matches added there',
    apply: (d) => appendFileSync(join(d, 'packages/system/multus/templates/multus-daemonset-thick.yml'), '# image: ghcr.io/acme/platform/multus-cni:v4.1.0\n'),
    parts: { scan: false, model: false, derived: ['multus-cni'], scanned: { walk: false, files: 1 } },
  },
  {
    // a new file no recipe reader looks for: the model is kept; the new image has no recipe yet
    name: "a new image's pin: a values file added in a directory the walk saw",
    apply: (d) => {
      mkdirSync(join(d, 'packages/apps/newapp'), { recursive: true });
      writeFileSync(join(d, 'packages/apps/newapp/values.yaml'), 'image: ghcr.io/acme/platform/newapp:v1.0.0@sha256:' + 'a'.repeat(64) + '\n');
    },
    parts: { scan: false, model: true, derived: [], scanned: { walk: false, files: 1 } },
  },
  {
    name: 'a Makefile added beside it that builds the new image',
    apply: (d) => {
      mkdirSync(join(d, 'packages/apps/newapp/images/newapp'), { recursive: true });
      writeFileSync(join(d, 'packages/apps/newapp/images/newapp/Dockerfile'), 'FROM scratch\nCOPY cmd/gateway /gateway\n');
      writeFileSync(join(d, 'packages/apps/newapp/Makefile'), 'include ../../../hack/common-envs.mk\n\nimage:\n\tdocker buildx build -f images/newapp/Dockerfile ../../.. --tag $(REGISTRY)/newapp:$(TAG)\n');
    },
    parts: { scan: false, model: false, derived: ['newapp'] },
  },
  { name: 'a YAML file no glob includes (counted as left out)', apply: (d) => writeFileSync(join(d, 'packages/apps/newapp/extra.yaml'), 'a: 1\n'), parts: { scan: false, model: true, derived: [], scanned: { walk: false, files: 0 } } },
  // the model checks only that the Dockerfile is there: only the image built from it derives its inputs again
  { name: 'a Dockerfile edited', apply: (d) => appendFileSync(join(d, 'packages/apps/dashboard/images/dashboard/Dockerfile'), 'COPY docs /docs\n'), parts: { scan: true, model: true, derived: ['dashboard'] } },
  { name: 'a Go file of one input closure edited (its body)', apply: (d) => appendFileSync(join(d, 'internal/gateway/serve.go'), '\n// a comment\n'), parts: { scan: true, model: true, derived: ['gateway'] } },
  { name: 'a Go file of an input closure edited (a new import)', apply: (d) => edit(join(d, 'cmd/billing-controller/main.go'), 'import "github.com/acme/platform/internal/billing"', 'import (\n\t"github.com/acme/platform/internal/billing"\n\t_ "github.com/acme/platform/internal/gateway"\n)'), parts: { scan: true, model: true, derived: ['billing-controller'] } },
  // internal/billing is read by billing-controller's closure only
  { name: 'a Go file added to a package of the closure', apply: (d) => writeFileSync(join(d, 'internal/billing/extra.go'), 'package billing\n\nimport _ "github.com/acme/platform/internal/backup"\n'), parts: { scan: true, model: true, derived: ['billing-controller'] } },
  // go.mod is read by every Go closure (newapp copies a directory: no Go build; the sidecar's build context holds no
  // go.mod, so the build does not see the repository's: its inputs are its context)
  { name: 'go.mod edited', apply: (d) => appendFileSync(join(d, 'go.mod'), '\n// a comment\n'), parts: { scan: true, model: true, derived: ['backup-strategy-controller', 'billing-controller', 'gateway'] } },
  // the images whose build context is the root look for it; the scan and the model do not
  { name: 'a .dockerignore added to a build context', apply: (d) => writeFileSync(join(d, '.dockerignore'), 'internal/backup\n'), parts: { scan: true, model: true, derived: ['backup-strategy-controller', 'billing-controller', 'gateway', 'newapp'] } },
  { name: 'a .gitignore added', apply: (d) => writeFileSync(join(d, '.gitignore'), '*.log\n'), parts: ALL },
  { name: 'a new Makefile target that builds nothing new', apply: (d) => appendFileSync(join(d, 'packages/apps/dashboard/Makefile'), '\nlint:\n\techo lint\n'), parts: { scan: true, model: false, derived: [] } },
  // every recipe reads its registry from it: each image's request changed (newapp's recipe now tags another repository: no inputs)
  { name: 'an included Makefile edited (another registry: the recipes change)', apply: (d) => appendFileSync(join(d, 'hack/common-envs.mk'), '\nREGISTRY := ghcr.io/acme/elsewhere\n'), parts: { scan: true, model: false, derived: IMAGES } },
  { name: 'pinwatch.yaml changed', apply: (d) => appendFileSync(join(d, 'pinwatch.yaml'), 'exclude:\n  - packages/extra/\n'), parts: { scan: false, model: false, derived: [] }, newConfig: true },
  {
    name: 'a symlink made where a values file is wanted',
    apply: (d) => {
      mkdirSync(join(d, 'packages/apps/linked'), { recursive: true });
      symlinkSync('../dashboard/values.yaml', join(d, 'packages/apps/linked/values.yaml'));
    },
    parts: { scan: false, model: true, derived: [] },
  },
  {
    name: 'the symlink retargeted (now dangling)',
    apply: (d) => {
      unlinkSync(join(d, 'packages/apps/linked/values.yaml'));
      symlinkSync('../nowhere/values.yaml', join(d, 'packages/apps/linked/values.yaml'));
    },
    parts: { scan: false, model: true, derived: [] },
  },
  { name: 'a pin file deleted', apply: (d) => unlinkSync(join(d, 'packages/system/gateway/values.yaml')), parts: { scan: false, model: false, derived: [], scanned: { walk: false, files: 0 } } },
  { name: 'a directory renamed', apply: (d) => renameSync(join(d, 'packages/apps/newapp'), join(d, 'packages/apps/renamed')), parts: { scan: false, model: false, derived: [] } },
  { name: 'a Makefile deleted', apply: (d) => unlinkSync(join(d, 'packages/apps/renamed/Makefile')), parts: { scan: false, model: false, derived: [] } },
  { name: 'a new commit of everything (no tree change)', apply: (d) => (git(d, 'add', '-A'), git(d, 'commit', '-qm', 'feat: everything (#7)')), parts: ALL },
  {
    name: 'a fresh checkout of the same tree (every file and directory new: CI)',
    apply: (d) => {
      for (const top of ['packages', 'hack', 'cmd', 'internal']) rmSync(join(d, top), { recursive: true, force: true });
      git(d, 'checkout', '-q', '--', '.');
    },
    parts: ALL,
  },
  { name: 'a same-size edit right after the run', apply: (d) => edit(join(d, 'packages/system/billing/values.yaml'), 'replicas: 3', 'replicas: 4'), parts: { scan: false, model: true, derived: [], scanned: { walk: true, files: 1 } } },
  { name: 'a new commit that changes a pin file', apply: (d) => (edit(join(d, 'packages/system/billing/values.yaml'), 'replicas: 4', 'replicas: 5'), git(d, 'commit', '-qam', 'fix(billing): replicas (#8)')), parts: { scan: false, model: true, derived: [], scanned: { walk: true, files: 1 } } },
];

/** What `-v` says the cached run reused (src/snapshot/repo.ts notes). */
function partsOf(err: string): Parts & { images: number } {
  const line = /tree snapshot (?:reused|partly reused|not used): scan (reused|derived again), build model (reused|derived again), inputs of (?:\d+ of )?(\d+) image\(s\) reused/.exec(err);
  if (!line) throw new Error(`no snapshot summary in:\n${err}`);
  const derived = [...err.matchAll(/tree snapshot: inputs of (\S+) derived again/g)].map((m) => m[1]!);
  const scanned = /tree snapshot: scan derived again \(.*; (the walk reused|walked again), (\d+) of (\d+) file\(s\) reused(?:, \d+ of \d+ directories listed again \(the rest replayed\))?\)/.exec(err);
  return {
    scan: line[1] === 'reused',
    model: line[2] === 'reused',
    derived: [...new Set(derived)].sort(),
    images: Number(line[3]),
    ...(scanned ? { scanned: { walk: scanned[1] === 'the walk reused', files: Number(scanned[3]) - Number(scanned[2]) } } : {}),
  };
}

async function answer(dir: string, args: string[], cache: boolean): Promise<{ exit: number; answer: unknown; err: string }> {
  const r = await runCli(['--repo', dir, ...args, ...(cache ? ['-v'] : ['--no-cache'])]);
  if (!cache) expect(r.err, `${args[0]} --no-cache`).toBe('');
  return { exit: r.code, answer: normalize(JSON.parse(r.out)), err: r.err };
}

describe('the tree-state snapshot never changes an answer', () => {
  it('after each change of the work tree, cached stale and check equal --no-cache, reusing each part whose reads did not change', async () => {
    const dir = buildDemoRepo(join(mkdtempSync(join(tmpdir(), 'pinwatch-snapshot-')), 'repo'));
    made.push(join(dir, '..'));
    // the first cached run keeps every part
    for (const args of COMMANDS) {
      const cold = await answer(dir, args, true);
      if (args[0] === 'stale') {
        expect(cold.err).toMatch(/tree snapshot not used: scan derived again, build model derived again, inputs of 0 of 6 image\(s\) reused; nothing kept/);
        expect(partsOf(cold.err).derived).toEqual(IMAGES);
        expect(cold.err).toMatch(/tree snapshot: scan derived again \(none kept for this checkout path, config/);
      } else expect(cold.err).toMatch(/tree snapshot reused: scan reused, build model reused, inputs of 6 image\(s\) reused/);
    }
    for (const m of MUTATIONS) {
      m.apply(dir);
      for (const args of COMMANDS) {
        const reference = await answer(dir, args, false);
        const cached = await answer(dir, args, true);
        expect({ exit: cached.exit, answer: cached.answer }, `${m.name}: ${args[0]}`).toEqual({ exit: reference.exit, answer: reference.answer });
        const parts = partsOf(cached.err);
        // stale runs first: check then finds every part stale kept (or reused)
        if (args[0] === 'stale') {
          const seen = { scan: parts.scan, model: parts.model, derived: parts.derived, ...(m.parts.scanned ? { scanned: parts.scanned } : {}) };
          expect(seen, `${m.name}: ${args[0]} -v\n${cached.err}`).toEqual(m.newConfig ? { scan: false, model: false, derived: parts.derived } : m.parts);
          if (m.newConfig) {
            expect(cached.err).toMatch(/tree snapshot: scan derived again \(none kept for this checkout path, config/);
            expect(parts.derived).toHaveLength(parts.images);
          }
          // a part derived again says why: the path that changed, or the upstream result
          if (!parts.scan) expect(cached.err, m.name).toMatch(/tree snapshot: scan derived again \(.+\) from \d+ paths, kept for the next run/);
          if (!parts.model) expect(cached.err, m.name).toMatch(/tree snapshot: build model derived again \(.+\): recipe files (reused|read again from \d+ paths), Makefile side (reused \(.+\)|read again from \d+ paths), kept for the next run/);
        } else expect(cached.err, `${m.name}: check after stale`).toMatch(/tree snapshot reused: scan reused, build model reused, inputs of \d+ image\(s\) reused/);
      }
    }
  }, 400_000);

  it('says why a part was not used: the path that changed and how', async () => {
    const dir = buildDemoRepo(join(mkdtempSync(join(tmpdir(), 'pinwatch-snapshot-why-')), 'repo'));
    made.push(join(dir, '..'));
    const stale = ['stale', '--format', 'json', '--fail-on-stale', 'never'];
    await answer(dir, stale, true);
    unlinkSync(join(dir, 'packages/system/gateway/values.yaml'));
    const gone = (await answer(dir, stale, true)).err;
    expect(gone).toMatch(/tree snapshot: scan derived again \(.*packages\/system\/gateway(\/values\.yaml is gone|: removed entry "values\.yaml"); walked again, \d+ of \d+ file\(s\) reused, 1 of \d+ directories listed again \(the rest replayed\)\)/);
    // the model checks that the file its producer writes exists
    expect(gone).toMatch(/tree snapshot: build model derived again \(.*packages\/system\/gateway\/values\.yaml is gone\)/);
    writeFileSync(join(dir, 'packages/system/gateway/values.yaml'), 'image: ghcr.io/acme/platform/gateway:v9\n');
    expect((await answer(dir, stale, true)).err).toMatch(/tree snapshot: scan derived again \(.*packages\/system\/gateway.*(new entry "values\.yaml"|appeared); walked again/);
    expect((await answer(dir, stale, true)).err).toMatch(/tree snapshot reused: .* paths checked/);
    appendFileSync(join(dir, 'internal/gateway/serve.go'), '\n// a comment\n');
    const edited = (await answer(dir, stale, true)).err;
    expect(edited).toMatch(/tree snapshot partly reused: scan reused, build model reused, inputs of 5 of 6 image\(s\) reused/);
    expect(edited).toMatch(/tree snapshot: inputs of gateway derived again \(.*internal\/gateway\/serve\.go changed \(size \d+ → \d+\)\) from \d+ paths, kept for the next run/);
  }, 120_000);
});
