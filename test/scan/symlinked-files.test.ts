/**
 * A wanted symlink to a regular file of the repository is read at its target's
 * path, once however many links (and the walk itself) lead there: knative
 * links `config/core/300-resources/*.yaml` into `vendor/knative.dev/…` and
 * `ko resolve -R -f config/` reads through them. A link out of the repository,
 * into `.git/` or `node_modules/`, or to something that is no regular file is
 * still listed as skipped with its reason, and its target is never read.
 */
import { describe, expect, it } from 'vitest';
import { runCli, SHA, treesRemovedAfterEach } from '../support/tree.js';

const tree = treesRemovedAfterEach();

interface ScanJson {
  pins: { file: string; line: number; repository: string }[];
  skipped: { file: string; code: string; reason: string }[];
  excluded: { reason: string; count: number; examples: string[] }[];
}

async function scanJson(dir: string): Promise<ScanJson> {
  const r = await runCli(['scan', '--repo', dir, '--format', 'json', '--no-cache'], dir);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as ScanJson;
}

const CONFIG = 'firstParty: [ghcr.io/acme/]\ninclude: ["config/**/*.yaml", "**/values.yaml"]\n';
const LINKED = 'kind: Image\nspec:\n  image: ghcr.io/acme/queue:v1.2.0@' + SHA('a') + '\n';

describe('symlinks to files of the repository', () => {
  it('a link to a file no include glob reads: its pins are found at the target, once for two links, and lint is quiet', async () => {
    const t = tree({
      'pinwatch.yaml': CONFIG,
      'vendor/caching/config/image.yaml': LINKED,
      'config/core/300-imagecache.yaml': { symlink: '../../vendor/caching/config/image.yaml' },
      'config/post/imagecache.yaml': { symlink: '../../vendor/caching/config/image.yaml' },
    });
    const json = await scanJson(t.dir);
    expect(json.pins.map((p) => [p.file, p.line, p.repository])).toEqual([['vendor/caching/config/image.yaml', 3, 'ghcr.io/acme/queue']]);
    expect(json.skipped).toEqual([]);
    expect(json.excluded).toContainEqual({
      reason: 'symlinks to files of the repository (each target read once, at its own path)',
      count: 2,
      examples: ['config/core/300-imagecache.yaml -> vendor/caching/config/image.yaml', 'config/post/imagecache.yaml -> vendor/caching/config/image.yaml'],
    });
    const lint = await runCli(['lint', '--repo', t.dir, '--no-cache'], t.dir);
    expect(lint.out).not.toMatch(/unparsed-file/);
  });

  it('a link to a file the walk reads anyway: its pins once, at the target', async () => {
    const t = tree({
      'pinwatch.yaml': CONFIG,
      'config/base/image.yaml': LINKED,
      'config/core/image.yaml': { symlink: '../base/image.yaml' },
    });
    const json = await scanJson(t.dir);
    expect(json.pins.map((p) => p.file)).toEqual(['config/base/image.yaml']);
    expect(json.skipped).toEqual([]);
  });

  it('a link chosen as a values file is read as one (the kind follows the link’s name)', async () => {
    const t = tree({
      'pinwatch.yaml': CONFIG,
      'common/app-values.txt': 'image:\n  repository: ghcr.io/acme/app\n  tag: v2.0.0\n',
      'charts/app/values.yaml': { symlink: '../../common/app-values.txt' },
    });
    const json = await scanJson(t.dir);
    expect(json.pins.map((p) => [p.file, p.repository])).toEqual([['common/app-values.txt', 'ghcr.io/acme/app']]);
  });

  it.each([
    ['into .git/', '../../.git/config', 'symlink', /, into \.git\/ \(never read\); not followed$/],
    ['into node_modules/', '../../node_modules/x/values.yaml', 'symlink', /, into node_modules\/ \(never read\); not followed$/],
    ['to a path that does not exist', '../../nowhere.yaml', 'broken-symlink', /does not exist/],
  ])('a link %s is skipped with its reason, its target not read', async (_name, target, code, reason) => {
    const t = tree({
      'pinwatch.yaml': CONFIG,
      'node_modules/x/values.yaml': 'image: ghcr.io/acme/secret:v1\n',
      '.git/config': '[remote]\n  url = https://user:token@example.com/x\n',
      'config/core/link.yaml': { symlink: target },
    });
    const json = await scanJson(t.dir);
    expect(json.pins).toEqual([]);
    expect(json.skipped).toEqual([expect.objectContaining({ file: 'config/core/link.yaml', code, reason: expect.stringMatching(reason) })]);
  });
});
