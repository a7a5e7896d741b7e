import { describe, expect, it } from 'vitest';
import { collectFile } from '../collect/index.js';
import type { FileKind } from '../collect/types.js';
import { compareCopies, type Comparison } from './compare.js';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;

function compare(kind: FileKind, committed: string, artifact: string, ignoreComments = false): Comparison {
  const ctx = { file: 'p/values.yaml', isFirstParty: (r: string) => r.startsWith('ghcr.io/acme/') };
  return compareCopies(
    kind,
    { text: committed, collected: collectFile(kind, committed, ctx) },
    { text: artifact, collected: collectFile(kind, artifact, ctx) },
    { ignoreComments },
  );
}

/** The seed: a bare-tag pin under a suffixed key plus the image: digest differ; nothing else. */
const SEED_COMMITTED = `backupStrategyController:
  # DO NOT hand-edit: packages/core/platform/Makefile stamps this key
  image: "ghcr.io/acme/backupstrategy-controller:v1.6.0@${D1}"
  replicas: 2
  fooClientImage: "reg/x/foo:v1"
`;
const SEED_ARTIFACT = `backupStrategyController:
  # DO NOT hand-edit: packages/core/platform/Makefile stamps this key
  image: "iad.ocir.io/ci/acme/backupstrategy-controller:main@${D2}"
  replicas: 2
  fooClientImage: "reg/x/foo:main"
`;

describe('compareCopies: structural', () => {
  it('the seed: a suffixed bare-tag key and a digest change are refs, not drift', () => {
    const r = compare('yaml', SEED_COMMITTED, SEED_ARTIFACT);
    expect(r).toMatchObject({ refOnly: true, method: 'structural', pinDrift: [], lines: [] });
  });

  it('a config change is drift with the exact line and why it is not a ref', () => {
    const r = compare('yaml', SEED_COMMITTED, SEED_ARTIFACT.replace('replicas: 2', 'replicas: 3'));
    expect(r.refOnly).toBe(false);
    expect(r.lines).toEqual([
      { line: 4, artifactLine: 4, committed: '  replicas: 2', artifact: '  replicas: 3', kind: 'config', reason: 'no image reference on this line' },
    ]);
    expect(r.reason).toBe('1 non-ref line differs');
  });

  it('a comment-only difference is drift by default, with the comment shown', () => {
    const art = SEED_ARTIFACT.replace('stamps this key', 'stamps this key and .migrations.image');
    const r = compare('yaml', SEED_COMMITTED, art);
    expect(r.refOnly).toBe(false);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatchObject({ line: 2, kind: 'comment', artifact: '  # DO NOT hand-edit: packages/core/platform/Makefile stamps this key and .migrations.image' });
    expect(r.reason).toMatch(/^only comments differ \(1 line\)/);
  });

  it('--ignore-comments overlays a comment-only difference and lists the ignored lines', () => {
    const art = SEED_ARTIFACT.replace('  replicas: 2\n', '  replicas: 2 # tuned\n  # a new comment line\n');
    const r = compare('yaml', SEED_COMMITTED, art, true);
    expect(r.refOnly).toBe(true);
    expect(r.lines.map((l) => [l.line, l.artifactLine, l.nearLine, l.kind])).toEqual([
      [4, 4, undefined, 'comment'],
      [undefined, 5, 5, 'comment'],
    ]);
  });

  it('--ignore-comments still reports a config change beside a comment change', () => {
    const art = SEED_ARTIFACT.replace('  replicas: 2\n', '  replicas: 5 # tuned\n');
    const r = compare('yaml', SEED_COMMITTED, art, true);
    expect(r.refOnly).toBe(false);
    expect(r.lines).toMatchObject([{ line: 4, kind: 'config', artifact: '  replicas: 5 # tuned' }]);
  });

  it('a ref moved to another key is drift: the pins do not correspond', () => {
    const a = `a:\n  image: ghcr.io/acme/a:v1@${D1}\n`;
    const b = `a:\n  sidecarImage: ghcr.io/acme/a:v1@${D2}\n`;
    const r = compare('yaml', a, b);
    expect(r.refOnly).toBe(false);
    expect(r.pinDrift.join('\n')).toContain('a.image (line 2');
    expect(r.pinDrift.join('\n')).toContain('a.sidecarImage (artifact line 2');
  });

  it('a different number of pins is drift and says which pin has no counterpart', () => {
    const a = `a:\n  image: ghcr.io/acme/a:v1@${D1}\n`;
    const b = `a:\n  image: ghcr.io/acme/a:v1@${D2}\n  initImage: ghcr.io/acme/init:v1@${D2}\n`;
    const r = compare('yaml', a, b);
    expect(r.refOnly).toBe(false);
    expect(r.pinDrift).toEqual([expect.stringContaining('a.initImage (artifact line 3, ghcr.io/acme/init:v1@')]);
    expect(r.pinDrift[0]).toContain('(1 pins in the checkout, 2 in the artifact)');
    expect(r.lines).toMatchObject([{ artifactLine: 3, kind: 'around-ref' }]);
  });

  it('a different order of pins is drift and says so', () => {
    const a = `x: {image: ghcr.io/acme/a:v1}\ny: {image: ghcr.io/acme/b:v1}\n`;
    const b = `y: {image: ghcr.io/acme/b:v2}\nx: {image: ghcr.io/acme/a:v2}\n`;
    const r = compare('yaml', a, b);
    expect(r.refOnly).toBe(false);
    expect(r.pinDrift).toEqual(['the pins appear in a different order: checkout x.image, y.image; artifact y.image, x.image']);
  });

  it('split maps: repository, tag and digest on their own lines are refs', () => {
    const a = `app:\n  image:\n    registry: ghcr.io\n    repository: acme/app\n    tag: v1.0.0\n    digest: ${D1}\n  replicas: 1\n`;
    const b = `app:\n  image:\n    registry: iad.ocir.io\n    repository: ci/acme/app\n    tag: main\n    digest: ${D2}\n  replicas: 1\n`;
    expect(compare('yaml', a, b)).toMatchObject({ refOnly: true, pinDrift: [] });
  });

  it('a split map that gains a digest field is drift (the stored fields differ)', () => {
    const a = `app:\n  image:\n    repository: ghcr.io/acme/app\n    tag: v1.0.0\n`;
    const b = `app:\n  image:\n    repository: ghcr.io/acme/app\n    tag: v1.0.0\n    digest: ${D2}\n`;
    const r = compare('yaml', a, b);
    expect(r.refOnly).toBe(false);
    expect(r.pinDrift.join(' ')).toMatch(/stores .* in the checkout but .*digest.* in the artifact/);
  });

  it('--x-image= arguments inside a string are refs', () => {
    const a = `args:\n  - --migrate-image=ghcr.io/acme/migrate:v1@${D1}\n  - --verbose\n`;
    const b = `args:\n  - --migrate-image=iad.ocir.io/ci/migrate:main@${D2}\n  - --verbose\n`;
    expect(compare('yaml', a, b)).toMatchObject({ refOnly: true });
  });

  it('text around a ref on the same line is not a ref difference', () => {
    const a = `a:\n  image: ghcr.io/acme/a:v1@${D1}\n`;
    const b = `a:\n  image: 'ghcr.io/acme/a:v2@${D2}'\n`;
    const r = compare('yaml', a, b);
    expect(r.refOnly).toBe(false);
    expect(r.lines).toMatchObject([{ line: 2, kind: 'around-ref', reason: 'the line carries an image reference, but text outside the reference differs' }]);
  });

  it('.tag files: the one ref is the whole difference', () => {
    expect(compare('tag', `ghcr.io/acme/a:v1@${D1}\n`, `iad.ocir.io/ci/a:main@${D2}\n`)).toMatchObject({ refOnly: true });
  });

  it('a value the collector rejects is not a ref, and the line says what the collector said', () => {
    const a = `a:\n  image: ghcr.io/acme/a:v1@${D1}\n`;
    const b = `a:\n  image: ghcr.io/acme/A:v1@${D2}\n`;
    const r = compare('yaml', a, b);
    expect(r.refOnly).toBe(false);
    expect(r.lines).toMatchObject([{ line: 2, kind: 'unrecognised' }]);
    expect(r.lines[0]?.reason).toMatch(/^an image reference is recognised on the checkout side of this line only; the collector did not read it as a ref: .*lowercase/);
  });
});

describe('compareCopies: large files', () => {
  it('drifts without listing when more lines differ than the diff limit', () => {
    const a = Array.from({ length: 600 }, (_, i) => `a${i}: ${i}`).join('\n');
    const b = Array.from({ length: 600 }, (_, i) => `b${i}: ${i}`).join('\n');
    const r = compare('yaml', a, b);
    expect(r.refOnly).toBe(false);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]?.reason).toBe('more than 1000 line edits separate the copies (600 lines in the checkout, 600 in the artifact); not listed one by one');
  });
});

describe('compareCopies: line fallback for files that do not parse', () => {
  const broken = (ref: string, extra = '') => `a:\n  image: ${ref}\n  bad: [unclosed\n${extra}`;

  it('says it fell back, and overlays when only ref lines differ', () => {
    const r = compare('yaml', broken(`ghcr.io/acme/a:v1@${D1}`), broken(`ghcr.io/acme/a:main@${D2}`));
    expect(r.method).toBe('line-fallback');
    expect(r.reason).toMatch(/^the checkout copy did not parse \(.+\): compared line by line$/);
    expect(r.refOnly).toBe(true);
  });

  it('is drift when a line without a recognised ref differs', () => {
    const r = compare('yaml', broken(`ghcr.io/acme/a:v1@${D1}`), broken(`ghcr.io/acme/a:main@${D2}`, 'replicas: 3\n'));
    expect(r).toMatchObject({ method: 'line-fallback', refOnly: false });
    expect(r.lines).toMatchObject([{ artifactLine: 4, artifact: 'replicas: 3', kind: 'unrecognised' }]);
    expect(r.reason).toContain('compared line by line; 1 non-ref line differs');
  });
});
