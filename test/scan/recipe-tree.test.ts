/**
 * One tree walk for scan and recipe discovery: walkTree asked for the recipe
 * listing gives exactly what listRecipeTree's own walk gives (vendored trees
 * pruned and listed, `.git` and exclude globs left out, symlinks and special
 * files not listed, directories the scan prunes still listed), and the scan's
 * own answer does not change for asking.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import type { Config } from '../../src/config/types.js';
import { listRecipeTree } from '../../src/scan/recipe-tree.js';
import { scanRepo } from '../../src/scan/repo.js';
import { walkTree } from '../../src/scan/walk.js';
import { treesRemovedAfterEach } from '../support/tree.js';

const tree = treesRemovedAfterEach();

const FILES = {
  Makefile: 'build:\n\tdocker build -t ghcr.io/acme/app .\n',
  'app/values.yaml': 'image: ghcr.io/acme/app:v1\n',
  'app/Dockerfile': 'FROM scratch\n',
  'hack/common.mk': 'X := 1\n',
  'hack/deep/er/docker-bake.hcl': 'target "x" {}\n',
  '.github/workflows/ci.yml': 'on: push\n',
  'vendor/dep/Makefile': 'x:\n',
  'pkg/third_party/lib/Makefile': 'x:\n',
  'third_party/a/b/vendor/Makefile': 'x:\n',
  'node_modules/pkg/values.yaml': 'image: ghcr.io/acme/nm:v1\n',
  'web/node_modules/pkg/Makefile': 'x:\n',
  '.git/config': '[core]\n',
  'sub/.git/HEAD': 'ref: refs/heads/main\n',
  'skip/Makefile': 'x:\n',
  'skip/values.yaml': 'image: ghcr.io/acme/skip:v1\n',
  'globbed/a.tmp': 'tmp\n',
  'globbed/keep.txt': 'keep\n',
  'docs/x.md': '# x\n',
  'link-file': { symlink: 'docs/x.md' },
  'link-dir': { symlink: 'hack' },
  'dangling': { symlink: 'nowhere' },
} as const;

function config(over: Partial<Config> = {}): Config {
  return { ...defaultConfig(), exclude: ['skip/', '**/*.tmp'], ...over };
}

describe('the scan walk records the recipe listing (one walk for scan and recipes)', () => {
  for (const [name, over] of [
    ['default include globs (anywhere)', {}],
    ['include globs under one folder (the scan prunes the rest)', { include: ['app/**/values.yaml'] }],
    ['a user exclude of a folder the recipes list', { exclude: ['skip/', 'docs/', 'hack/**', '**/*.tmp'] }],
    ['no include at all', { include: [] }],
  ] as [string, Partial<Config>][]) {
    it(`equals listRecipeTree: ${name}`, () => {
      const t = tree({ ...FILES });
      execFileSync('mkfifo', [join(t.dir, 'app/fifo')]);
      const c = config(over);
      const shared = walkTree(t.dir, c, { recipeTree: true });
      const alone = listRecipeTree(t.dir, c.exclude);
      expect(shared.recipeTree).toEqual(alone);
      expect(alone.files).toContain('Makefile');
      expect(alone.files.includes('hack/deep/er/docker-bake.hcl')).toBe(!c.exclude.includes('hack/**'));
      expect(alone.files.includes('docs/x.md')).toBe(!c.exclude.includes('docs/'));
      expect(alone.files).not.toContain('link-file');
      expect(alone.files).not.toContain('app/fifo');
      expect(alone.files.some((f) => f.startsWith('skip/') || f.endsWith('.tmp') || f.includes('.git/'))).toBe(false);
      expect(alone.vendored).toEqual(['node_modules/', 'pkg/third_party/', 'third_party/', 'vendor/', 'web/node_modules/']);
      // the scan's own result is the same with and without the listing
      const plain = walkTree(t.dir, c);
      expect(plain.recipeTree).toBeUndefined();
      expect({ files: shared.files, skipped: shared.skipped, excluded: shared.excluded.list() }).toEqual({ files: plain.files, skipped: plain.skipped, excluded: plain.excluded.list() });
    });
  }

  it('names that are not UTF-8: listed as readdir decodes them, and not entered (as listRecipeTree)', () => {
    const t = tree({ Makefile: 'x:\n' });
    const bad = Buffer.from([0x62, 0xff, 0x64]); // "b\xffd"
    const dirBytes = Buffer.concat([Buffer.from(`${t.dir}/`), bad]);
    mkdirSync(dirBytes);
    writeFileSync(Buffer.concat([dirBytes, Buffer.from('/Makefile')]), 'x:\n');
    writeFileSync(Buffer.concat([Buffer.from(`${t.dir}/`), Buffer.from([0x66, 0xfe]), Buffer.from('.mk')]), 'x:\n');
    const c = config();
    expect(walkTree(t.dir, c, { recipeTree: true }).recipeTree).toEqual(listRecipeTree(t.dir, c.exclude));
  });

  it('scanRepo hands it on only when asked, and the scan answer is unchanged', async () => {
    const t = tree({ ...FILES });
    const c = config({ include: ['app/**/values.yaml'] });
    const asked = await scanRepo(t.dir, c, { recipeTree: true });
    const plain = await scanRepo(t.dir, c);
    expect(asked.recipeTree).toEqual(listRecipeTree(t.dir, c.exclude));
    expect(plain.recipeTree).toBeUndefined();
    const { recipeTree: _listed, ...rest } = asked;
    expect(rest).toEqual(plain);
  });
});
