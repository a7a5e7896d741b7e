import { Ajv } from 'ajv';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config/defaults.js';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/types.js';
import { fileKind } from './kind.js';
import { scanToJson } from '../report/scan-json.js';
import { firstInvalidUtf8, MAX_FILE_BYTES, readTextFile } from './read.js';
import { scanRepo } from './repo.js';
import { walkTree } from './walk.js';

const dirs: string[] = [];
function tree(files: Record<string, string | { symlink: string }>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-walk-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    if (typeof content === 'string') writeFileSync(full, content);
    else symlinkSync(content.symlink, full);
  }
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const config = (over: Partial<Config> = {}): Config => ({ ...defaultConfig(), ...over });

describe('fileKind', () => {
  it.each([
    ['a/images/x.tag', false, 'tag'],
    ['Dockerfile', false, 'dockerfile'],
    ['svc/Dockerfile.alpine', false, 'dockerfile'],
    ['docker/Dockerfile-windows', false, 'dockerfile'],
    ['Dockerfiles/readme.md', false, 'text'],
    ['svc/build.Dockerfile', false, 'dockerfile'],
    ['Containerfile', false, 'dockerfile'],
    ['a/values.yaml', false, 'yaml'],
    ['a/kustomization.yml', false, 'yaml'],
    ['notes.txt', false, 'text'],
    ['chart/templates/ds.yml', true, 'text'],
    ['a/images/x.tag', true, 'text'],
  ] as const)('%s (extra: %s) → %s', (path, extra, kind) => {
    expect(fileKind(path, extra)).toBe(kind);
  });
});

describe('firstInvalidUtf8', () => {
  it.each([
    ['ascii', [0x61, 0x62], -1],
    ['two-byte é', [0xc3, 0xa9], -1],
    ['emoji', [0xf0, 0x9f, 0x98, 0x80], -1],
    ['latin-1 é', [0x61, 0xe9, 0x62], 1],
    ['overlong c0', [0xc0, 0x80], 0],
    ['truncated at end', [0x61, 0xe2, 0x82], 1],
    ['bad continuation', [0xe2, 0x28, 0xa1], 0],
  ])('%s', (_name, bytes, want) => {
    expect(firstInvalidUtf8(new Uint8Array(bytes))).toBe(want);
  });
});

describe('readTextFile', () => {
  it('keeps a BOM, so offsets match the file read as UTF-8', () => {
    const dir = tree({ 'v.yaml': '\uFEFFimage: nginx:1\n' });
    expect(readTextFile(join(dir, 'v.yaml'), 'v.yaml')).toEqual({ text: '\uFEFFimage: nginx:1\n' });
  });

  it('reads a file that is not UTF-8 as Latin-1, byte for byte, and says so with the line of the first bad byte', () => {
    const dir = tree({ 'v.yaml': 'x: 1\n' });
    writeFileSync(join(dir, 'v.yaml'), Buffer.from([0x61, 0x0a, 0x23, 0xe9, 0xff, 0x0a, 0x62]));
    expect(readTextFile(join(dir, 'v.yaml'), 'v.yaml')).toEqual({
      text: 'a\n#\u00e9\u00ff\nb',
      latin1: { file: 'v.yaml', code: 'not-utf8', line: 2, reason: 'not valid UTF-8 (byte 0xe9 at offset 3); read as Latin-1, so only a text scrape finds its refs; save it as UTF-8' },
    });
  });

  it('refuses a file over the size limit', () => {
    const dir = tree({ 'big.yaml': 'a'.repeat(MAX_FILE_BYTES + 1) });
    const r = readTextFile(join(dir, 'big.yaml'), 'big.yaml');
    expect(r).toEqual({ skipped: { file: 'big.yaml', code: 'too-large', reason: expect.stringMatching(/^8388609 bytes is more than the 8388608-byte limit/) } });
  });

  it('says why a missing file cannot be read', () => {
    expect(readTextFile('/nonexistent/pinwatch/v.yaml', 'v.yaml')).toEqual({ skipped: { file: 'v.yaml', code: 'unreadable', reason: 'cannot read the file (ENOENT)' } });
  });
});

describe('walkTree', () => {
  it('reports symlinks by where they lead (one to a file of the repository read there, once), and counts symlinked directories', () => {
    const outside = tree({ 'x.yaml': 'a: 1\n' });
    const dir = tree({
      'real/values.yaml': 'image: nginx:1\n',
      'link/values.yaml': { symlink: '../real/values.yaml' },
      'dangling/values.yaml': { symlink: '../nowhere.yaml' },
      'out/values.yaml': { symlink: join(outside, 'x.yaml') },
      'shared': { symlink: 'real' },
      'notes.txt': { symlink: join(outside, 'x.yaml') },
    });
    const w = walkTree(dir, config());
    expect(w.files.map((f) => f.file)).toEqual(['real/values.yaml']);
    expect(w.skipped.map((s) => [s.file, s.code])).toEqual([
      ['dangling/values.yaml', 'broken-symlink'],
      ['out/values.yaml', 'symlink-outside-repo'],
    ]);
    expect(w.excluded.list()).toContainEqual({ reason: 'symlinked directories (not followed)', count: 1, examples: ['shared -> real'] });
    expect(w.excluded.list()).toContainEqual({ reason: 'symlinks to files of the repository (each target read once, at its own path)', count: 1, examples: ['link/values.yaml -> real/values.yaml'] });
  });

  it.each([(d: string) => d, (d: string) => `${d}/`, (d: string) => `${d}/./`, (d: string) => `${d}//sub/..`, (d: string) => relative(process.cwd(), d) || '.'])(
    'gives each file the path join(root, file) would, however the root is spelled (%#)',
    (spell) => {
      const dir = tree({ 'values.yaml': 'x: 1\n', 'a/b/values.yaml': 'x: 1\n', 'sub/values.yaml': 'x: 1\n' });
      const root = spell(dir);
      const w = walkTree(root, config());
      expect(w.files.map((f) => f.file)).toEqual(['a/b/values.yaml', 'sub/values.yaml', 'values.yaml']);
      expect(w.files.map((f) => f.abs)).toEqual(w.files.map((f) => join(root, ...f.file.split('/'))));
    },
  );

  it('prunes dir/ and dir/** excludes without walking them, and filters files by glob', () => {
    const dir = tree({
      'a/values.yaml': 'x: 1\n',
      'vendor/deep/values.yaml': 'x: 1\n',
      'third_party/x/values.yaml': 'x: 1\n',
      'b/values-test.yaml': 'x: 1\n',
    });
    const w = walkTree(dir, config({ exclude: ['vendor/', 'third_party/**', '**/values-test.yaml'] }));
    expect(w.files.map((f) => f.file)).toEqual(['a/values.yaml']);
    expect(w.excluded.list().map((e) => [e.reason, e.count, e.examples])).toEqual([
      ['exclude "**/values-test.yaml"', 1, ['b/values-test.yaml']],
      ['exclude "third_party/**" (directories pruned)', 1, ['third_party/']],
      ['exclude "vendor/" (directories pruned)', 1, ['vendor/']],
    ]);
  });

  it('walks only below the static bases of the include and extraFiles globs', () => {
    const dir = tree({
      'apps/a/values.yaml': 'x: 1\n',
      'apps/a/extra.yaml': 'x: 1\n',
      'ops/deep/ds.yml': 'x: 1\n',
      'ops/other.yaml': 'x: 1\n',
      'docs/values.yaml': 'x: 1\n',
    });
    const w = walkTree(dir, config({ include: ['apps/**/values.yaml'], extraFiles: ['ops/*/ds.yml'] }));
    expect(w.files.map((f) => [f.file, f.kind])).toEqual([
      ['apps/a/values.yaml', 'yaml'],
      ['ops/deep/ds.yml', 'text'],
    ]);
    // only directories that can hold a wanted file are walked, so docs/ is not even counted
    expect(w.excluded.list()).toEqual([{ reason: 'YAML files matching no include glob (not read)', count: 2, examples: ['apps/a/extra.yaml', 'ops/other.yaml'] }]);
  });

  it('treats charts/ and templates/ specially only beside a Chart.yaml', () => {
    const dir = tree({
      'charts/web/Chart.yaml': 'name: web\n',
      'charts/web/values.yaml': 'x: 1\n',
      'charts/web/charts/dep/values.yaml': 'x: 1\n',
      'templates/values.yaml': 'x: 1\n',
      'other/charts/values.yaml': 'x: 1\n',
    });
    const w = walkTree(dir, config());
    expect(w.files.map((f) => f.file)).toEqual(['charts/web/values.yaml', 'other/charts/values.yaml', 'templates/values.yaml']);
  });
});

describe('scanRepo on the cozystack fixture (hand-checked counts in its README)', () => {
  const fixture = join(process.cwd(), '../shared/fixtures/cozystack-3c780acd4');
  it.skipIf(!existsSync(fixture))('finds 48 first-party and 24 third-party refs with the example config', async () => {
    const cfg = loadConfig(fixture, { configPath: join(process.cwd(), 'docs/examples/cozystack.pinwatch.yaml') });
    const r = await scanRepo(fixture, cfg);
    const first = r.pins.filter((p) => p.firstParty);
    expect(first).toHaveLength(48);
    expect(r.pins.length - first.length).toBe(24);
    const forms = first.reduce<Record<string, number>>((acc, p) => ({ ...acc, [p.form]: (acc[p.form] ?? 0) + 1 }), {});
    expect(forms).toEqual({ 'tag+digest': 45, latest: 2, digest: 1 });
    expect(r.pins.filter((p) => p.file.endsWith('.tag'))).toHaveLength(18);
    expect(r.pins.filter((p) => p.file === 'packages/system/multus/templates/multus-daemonset-thick.yml')).toHaveLength(3);
    expect(r.skipped).toEqual([]);
    const again = await scanRepo(fixture, cfg);
    expect(again.pins).toEqual(r.pins);
    const schema = JSON.parse(readFileSync(join(process.cwd(), 'schemas/scan-output.schema.json'), 'utf8'));
    const validate = new Ajv({ strict: true }).compile(schema);
    expect(validate(scanToJson(r)), JSON.stringify(validate.errors)).toBe(true);
  });
});
