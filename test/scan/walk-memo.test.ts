/**
 * A walk again with the kept tree (src/scan/walk-memo.ts) lists only the
 * directories whose own reads changed and replays the rest: after each change
 * below (one on top of the other), its outputs (files to read, skipped,
 * exclusions with their examples, the recipe listing, extraFiles glob misses)
 * and its record equal a whole walk's, and only the directories named are
 * walked. The changes reach every kind of read a directory makes: its listing,
 * a vendored chart file it reads (a first-party mention), a symlink's target
 * outside it (a file read at its target's path too), a Chart.yaml that changes how its subdirectories are walked.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import type { Config } from '../../src/config/types.js';
import type { WalkNode } from '../../src/scan/walk-memo.js';
import { walkTree, type WalkResult } from '../../src/scan/walk.js';
import { checkRecord, keyOfTouched, recordReadsSync, unchangedSince, type ReadRecord } from '../../src/util/tracked-fs.js';
import { treesRemovedAfterEach } from '../support/tree.js';

const tree = treesRemovedAfterEach();

const FILES = {
  'packages/app/values.yaml': 'image: ghcr.io/acme/app:v1\n',
  'packages/app/Chart.yaml': 'name: app\n',
  'packages/app/templates/deploy.yaml': 'kind: Deployment\n',
  'packages/app/charts/dep/values.yaml': 'image: docker.io/other/dep:v1\n',
  'packages/app/charts/dep/Chart.yaml': 'name: dep\n',
  'packages/db/values.yaml': 'image: ghcr.io/acme/db:v1\n',
  'packages/db/extra.yaml': 'a: 1\n',
  'packages/db/sub/deep/values.yaml': 'image: ghcr.io/acme/deep:v1\n',
  'hack/Makefile': 'x:\n',
  'hack/tools/gen.sh': 'echo\n',
  'vendor/dep/values.yaml': 'image: ghcr.io/acme/vendored:v1\n',
  'node_modules/pkg/values.yaml': 'image: ghcr.io/acme/nm:v1\n',
  'skip/values.yaml': 'image: ghcr.io/acme/skip:v1\n',
  'images/app.tag': 'ghcr.io/acme/app:v1\n',
  'targets/a/file.txt': 'a\n',
  'links/to-target': { symlink: '../targets/a' },
  'links/to-file': { symlink: '../images/app.tag' },
  'links/values.yaml': { symlink: '../packages/db/values.yaml' },
  'targets/b/base.yml': 'image: ghcr.io/acme/base:v1\n',
  'targets/b/other.yml': 'image: ghcr.io/acme/other:v1\n',
  'links/values-base.yaml': { symlink: '../targets/b/base.yml' },
} as const;

const config: Config = { ...defaultConfig(), firstParty: ['ghcr.io/acme/'], exclude: ['skip/'], extraFiles: ['images/*.tag', 'nothing/*.tag'] };

const outputs = (w: WalkResult) => ({ files: w.files, skipped: w.skipped, excluded: w.excluded.list(), recipeTree: w.recipeTree });
const paths = (r: ReadRecord) => r.paths.map((p) => JSON.stringify([p.p, p.l, p.t, p.link, p.list, p.h, p.real])).sort();
const start = () => BigInt(Date.now()) * 1_000_000n;

/** Each change, and the directories (repo-relative, '' the root) a walk with the kept tree must list again after it. */
const CHANGES: [name: string, apply: (dir: string) => void, walked: string[]][] = [
  ['nothing', () => undefined, []],
  ['a YAML file added deep down', (d) => writeFileSync(join(d, 'packages/db/sub/deep/new.yaml'), 'b: 1\n'), ['packages/db/sub/deep']],
  ['a file removed', (d) => unlinkSync(join(d, 'packages/db/extra.yaml')), ['packages/db']],
  ['a directory added with files', (d) => (mkdirSync(join(d, 'packages/new/x'), { recursive: true }), writeFileSync(join(d, 'packages/new/x/values.yaml'), 'image: ghcr.io/acme/new:v1\n')), ['packages', 'packages/new', 'packages/new/x']],
  ['a directory removed', (d) => rmSync(join(d, 'packages/db/sub'), { recursive: true }), ['packages/db']],
  ['a vendored chart file now mentions a first-party prefix (read by the walk)', (d) => appendFileSync(join(d, 'packages/app/charts/dep/values.yaml'), 'sidecar: ghcr.io/acme/side:v1\n'), ['packages/app/charts/dep']],
  ["a symlink's target directory removed (a path outside the link's directory)", (d) => rmSync(join(d, 'targets/a'), { recursive: true }), ['links', 'targets']],
  ['a symlink retargeted', (d) => (unlinkSync(join(d, 'links/to-file')), symlinkSync('../packages', join(d, 'links/to-file'))), ['links']],
  ['a link to a file read at its target retargeted to another file', (d) => (unlinkSync(join(d, 'links/values-base.yaml')), symlinkSync('../targets/b/other.yml', join(d, 'links/values-base.yaml'))), ['links']],
  ['a Chart.yaml removed (templates/ and charts/ are walked otherwise)', (d) => unlinkSync(join(d, 'packages/app/Chart.yaml')), ['packages/app', 'packages/app/charts', 'packages/app/charts/dep', 'packages/app/templates']],
  ['an extraFiles glob matching now', (d) => (mkdirSync(join(d, 'nothing')), writeFileSync(join(d, 'nothing/x.tag'), 'ghcr.io/acme/x:v1\n')), ['', 'nothing']],
  ['a directory renamed', (d) => renameSync(join(d, 'hack/tools'), join(d, 'hack/tooling')), ['hack', 'hack/tooling']],
  ['a FIFO where a file is wanted', (d) => execFileSync('mkfifo', [join(d, 'packages/db/fifo.yaml')]), ['packages/db']],
];

/** Every directory visit of a tree whose reads are its own listing: the visits walked (not replayed) are compared by rel. */
function walkedDirs(root: WalkNode, before: WalkNode | undefined): string[] {
  const out: string[] = [];
  const visit = (node: WalkNode, rel: string, kept: WalkNode | undefined) => {
    if (!kept || node.reads !== kept.reads) out.push(rel);
    for (const part of node.parts) {
      if (!('visit' in part)) continue;
      const was = kept?.parts.find((p) => 'visit' in p && p.visit.rel === part.visit.rel && p.visit.scanned === part.visit.scanned);
      visit(part.node, part.visit.rel, was && 'node' in was ? was.node : undefined);
    }
  };
  visit(root, '', before);
  return [...new Set(out)].sort();
}

describe('the walk kept per directory', () => {
  it('after each change, a walk replaying what held equals a whole walk, and lists only the directories whose reads changed', () => {
    const t = tree({ ...FILES });
    let kept = recordReadsSync(() => walkTree(t.dir, config, { recipeTree: true, keep: true }), start());
    expect(kept.value.tree!.replayed).toBe(0);
    for (const [name, apply, walked] of CHANGES) {
      apply(t.dir);
      const check = checkRecord(kept.record, () => false, t.dir, { all: true });
      const held = new Map((check.holds ? kept.record.paths : check.held!.paths).map((p) => [keyOfTouched(p), p]));
      // a check of every path: what changed and what held, each path once
      if (!check.holds) expect(check.failed!.size + check.held!.paths.length, name).toBe(kept.record.paths.length);
      // the tree as the snapshot keeps it: a structured clone
      const keptRoot = deserialize(serialize(kept.value.tree!.root)) as WalkNode;
      const again = recordReadsSync(() => walkTree(t.dir, config, { recipeTree: true, keep: true, kept: { root: keptRoot, held } }), start());
      const whole = recordReadsSync(() => walkTree(t.dir, config, { recipeTree: true }), start());
      expect(outputs(again.value), name).toEqual(outputs(whole.value));
      expect(paths(again.record), name).toEqual(paths(whole.record));
      expect(unchangedSince(again.record), name).toBe(true);
      const tree = again.value.tree!;
      expect(tree.walked, name).toBe(walked.length);
      expect(walkedDirs(tree.root, keptRoot), name).toEqual(walked);
      kept = again;
    }
  });

  it('a kept tree whose reads did not hold at all (held empty) walks everything again, the same outputs', () => {
    const t = tree({ ...FILES });
    const first = recordReadsSync(() => walkTree(t.dir, config, { recipeTree: true, keep: true }), start());
    const again = walkTree(t.dir, config, { recipeTree: true, keep: true, kept: { root: first.value.tree!.root, held: new Map() } });
    expect(again.tree!.replayed).toBe(0);
    expect(outputs(again)).toEqual(outputs(first.value));
  });

  it('a tree kept by a walk nothing recorded (no reads known) is never replayed', () => {
    const t = tree({ ...FILES });
    const unrecorded = walkTree(t.dir, config, { recipeTree: true, keep: true });
    const { record } = recordReadsSync(() => walkTree(t.dir, config, { recipeTree: true }), start());
    writeFileSync(join(t.dir, 'packages/db/new.yaml'), 'b: 1\n');
    const held = new Map(record.paths.map((p) => [keyOfTouched(p), p]));
    const again = walkTree(t.dir, config, { recipeTree: true, keep: true, kept: { root: unrecorded.tree!.root, held } });
    expect(again.tree!.replayed).toBe(0);
    expect(outputs(again)).toEqual(outputs(walkTree(t.dir, config, { recipeTree: true })));
  });
});
