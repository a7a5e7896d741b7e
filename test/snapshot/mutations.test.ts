/**
 * The tree-state snapshot (src/snapshot/) never changes an answer: on the demo
 * repository, after each change of the work tree below (one after another, on
 * top of a snapshot the previous cached run kept), cached `stale` and `check`
 * JSON equal a `--no-cache` run's, and `-v` says whether the snapshot was reused
 * (a change no reader notices) or why not (any change that could alter the
 * derivation).
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

interface Mutation {
  name: string;
  apply(dir: string): void;
  /** The cached run after it reuses the snapshot (true) or derives again (false). */
  reused: boolean;
  /** The config changed: the snapshot is another one (none kept yet), not an invalid one. */
  newConfig?: true;
}

/** Applied in order, each on top of the last; every one is judged against a --no-cache run. */
const MUTATIONS: Mutation[] = [
  { name: 'nothing changed', apply: () => undefined, reused: true },
  { name: 'a new file no reader notices, committed', apply: (d) => (writeFileSync(join(d, 'NOTES.txt'), 'notes\n'), git(d, 'add', 'NOTES.txt'), git(d, 'commit', '-qm', 'docs: notes')), reused: true },
  { name: 'a file read touched with the same content', apply: (d) => utimesSync(join(d, 'packages/system/billing/values.yaml'), new Date(), new Date()), reused: true },
  { name: 'a file read rewritten with the same content (a new inode)', apply: (d) => { const f = join(d, 'packages/system/billing/Makefile'); const text = readFileSync(f); unlinkSync(f); writeFileSync(f, text); }, reused: true },
  { name: 'a pin file edited', apply: (d) => edit(join(d, 'packages/system/billing/values.yaml'), 'replicas: 2', 'replicas: 3'), reused: false },
  { name: 'a pin file edited to another tag', apply: (d) => edit(join(d, 'packages/system/gateway/values.yaml'), 'tag: v1.0.0', 'tag: v1.0.1'), reused: false },
  {
    name: 'a values file added in a directory the walk saw',
    apply: (d) => {
      mkdirSync(join(d, 'packages/apps/newapp'), { recursive: true });
      writeFileSync(join(d, 'packages/apps/newapp/values.yaml'), 'image: ghcr.io/acme/platform/newapp:v1.0.0@sha256:' + 'a'.repeat(64) + '\n');
    },
    reused: false,
  },
  {
    name: 'a Makefile added beside it that builds the new image',
    apply: (d) => {
      mkdirSync(join(d, 'packages/apps/newapp/images/newapp'), { recursive: true });
      writeFileSync(join(d, 'packages/apps/newapp/images/newapp/Dockerfile'), 'FROM scratch\nCOPY cmd/gateway /gateway\n');
      writeFileSync(join(d, 'packages/apps/newapp/Makefile'), 'image:\n\tdocker buildx build -f images/newapp/Dockerfile ../../.. --tag ghcr.io/acme/platform/newapp:$(TAG)\n');
    },
    reused: false,
  },
  { name: 'a YAML file no glob includes (counted as left out)', apply: (d) => writeFileSync(join(d, 'packages/apps/newapp/extra.yaml'), 'a: 1\n'), reused: false },
  { name: 'a Dockerfile edited', apply: (d) => appendFileSync(join(d, 'packages/apps/dashboard/images/dashboard/Dockerfile'), 'COPY docs /docs\n'), reused: false },
  { name: 'a Go file of an input closure edited (a new import)', apply: (d) => edit(join(d, 'cmd/billing-controller/main.go'), 'import "github.com/acme/platform/internal/billing"', 'import (\n\t"github.com/acme/platform/internal/billing"\n\t_ "github.com/acme/platform/internal/gateway"\n)'), reused: false },
  { name: 'a Go file added to a package of the closure', apply: (d) => writeFileSync(join(d, 'internal/billing/extra.go'), 'package billing\n\nimport _ "github.com/acme/platform/internal/backup"\n'), reused: false },
  { name: 'a .dockerignore added to a build context', apply: (d) => writeFileSync(join(d, '.dockerignore'), 'internal/backup\n'), reused: false },
  { name: 'a .gitignore added', apply: (d) => writeFileSync(join(d, '.gitignore'), '*.log\n'), reused: true },
  { name: 'an included Makefile edited', apply: (d) => appendFileSync(join(d, 'hack/common-envs.mk'), '\nREGISTRY := ghcr.io/acme/elsewhere\n'), reused: false },
  { name: 'pinwatch.yaml changed', apply: (d) => appendFileSync(join(d, 'pinwatch.yaml'), 'exclude:\n  - packages/extra/\n'), reused: false, newConfig: true },
  {
    name: 'a symlink made where a values file is wanted',
    apply: (d) => {
      mkdirSync(join(d, 'packages/apps/linked'), { recursive: true });
      symlinkSync('../dashboard/values.yaml', join(d, 'packages/apps/linked/values.yaml'));
    },
    reused: false,
  },
  {
    name: 'the symlink retargeted (now dangling)',
    apply: (d) => {
      unlinkSync(join(d, 'packages/apps/linked/values.yaml'));
      symlinkSync('../nowhere/values.yaml', join(d, 'packages/apps/linked/values.yaml'));
    },
    reused: false,
  },
  { name: 'a pin file deleted', apply: (d) => unlinkSync(join(d, 'packages/system/gateway/values.yaml')), reused: false },
  { name: 'a directory renamed', apply: (d) => renameSync(join(d, 'packages/apps/newapp'), join(d, 'packages/apps/renamed')), reused: false },
  { name: 'a Makefile deleted', apply: (d) => unlinkSync(join(d, 'packages/apps/renamed/Makefile')), reused: false },
  { name: 'a new commit of everything (no tree change)', apply: (d) => (git(d, 'add', '-A'), git(d, 'commit', '-qm', 'feat: everything (#7)')), reused: true },
  {
    name: 'a fresh checkout of the same tree (every file and directory new: CI)',
    apply: (d) => {
      for (const top of ['packages', 'hack', 'cmd', 'internal']) rmSync(join(d, top), { recursive: true, force: true });
      git(d, 'checkout', '-q', '--', '.');
    },
    reused: true,
  },
  { name: 'a same-size edit right after the run', apply: (d) => edit(join(d, 'packages/system/billing/values.yaml'), 'replicas: 3', 'replicas: 4'), reused: false },
  { name: 'a new commit that changes a pin file', apply: (d) => (edit(join(d, 'packages/system/billing/values.yaml'), 'replicas: 4', 'replicas: 5'), git(d, 'commit', '-qam', 'fix(billing): replicas (#8)')), reused: false },
];

async function answer(dir: string, args: string[], cache: boolean): Promise<{ exit: number; answer: unknown; err: string }> {
  const r = await runCli(['--repo', dir, ...args, ...(cache ? ['-v'] : ['--no-cache'])]);
  if (!cache) expect(r.err, `${args[0]} --no-cache`).toBe('');
  return { exit: r.code, answer: normalize(JSON.parse(r.out)), err: r.err };
}

describe('the tree-state snapshot never changes an answer', () => {
  it('after each change of the work tree, cached stale and check equal --no-cache, reusing only when nothing read changed', async () => {
    const dir = buildDemoRepo(join(mkdtempSync(join(tmpdir(), 'pinwatch-snapshot-')), 'repo'));
    made.push(join(dir, '..'));
    // the first cached run keeps a snapshot
    for (const args of COMMANDS) {
      const cold = await answer(dir, args, true);
      expect(cold.err, args[0]).toMatch(args[0] === 'stale' ? /tree snapshot not used \(none kept/ : /tree snapshot reused/);
    }
    for (const m of MUTATIONS) {
      m.apply(dir);
      for (const args of COMMANDS) {
        const reference = await answer(dir, args, false);
        const cached = await answer(dir, args, true);
        expect({ exit: cached.exit, answer: cached.answer }, `${m.name}: ${args[0]}`).toEqual({ exit: reference.exit, answer: reference.answer });
        // stale runs first: check then finds the snapshot stale kept (or reused)
        if (args[0] === 'stale') expect(cached.err, `${m.name}: ${args[0]} -v`).toMatch(m.reused ? /tree snapshot reused/ : m.newConfig ? /tree snapshot not used \(none kept for this config/ : /tree snapshot not used \((?!none kept)[^)]+\)/);
        else expect(cached.err, `${m.name}: check after stale`).toMatch(/tree snapshot reused/);
      }
    }
  }, 300_000);

  it('says why a snapshot was not used: the path that changed and how', async () => {
    const dir = buildDemoRepo(join(mkdtempSync(join(tmpdir(), 'pinwatch-snapshot-why-')), 'repo'));
    made.push(join(dir, '..'));
    const stale = ['stale', '--format', 'json', '--fail-on-stale', 'never'];
    await answer(dir, stale, true);
    unlinkSync(join(dir, 'packages/system/gateway/values.yaml'));
    expect((await answer(dir, stale, true)).err).toMatch(/tree snapshot not used \(.*packages\/system\/gateway(\/values\.yaml is gone|: removed entry "values\.yaml")\)/);
    writeFileSync(join(dir, 'packages/system/gateway/values.yaml'), 'image: ghcr.io/acme/platform/gateway:v9\n');
    expect((await answer(dir, stale, true)).err).toMatch(/tree snapshot not used \(.*packages\/system\/gateway.*(new entry "values\.yaml"|appeared)\)/);
    expect((await answer(dir, stale, true)).err).toMatch(/tree snapshot reused: .* paths checked/);
  }, 120_000);
});
