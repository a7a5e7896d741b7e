import { describe, expect, it } from 'vitest';
import { dockerignoreEntries } from './dockerignore.js';
import { ignoredBy, inputMatcher, pathIndex } from './matcher.js';
import type { BuildInputs, InputPattern } from './types.js';

const inputs = (patterns: InputPattern[], ignore: string[] = []): BuildInputs => ({ image: 'x', inputs: patterns, ignore, steps: [] });

/** Every pattern kind, with ignores and a re-include: the inputMatcher cases and the path-index table share it. */
const EVERY_KIND: InputPattern[] = [
  { path: 'Dockerfile', kind: 'file', why: 'Dockerfile' },
  { path: 'internal/x/', kind: 'files', why: 'go package' },
  { path: 'patches/', kind: 'tree', why: 'COPY patches' },
  { path: 'maybe', why: 'missing COPY source' },
  { path: 'src/*.go', why: 'COPY glob' },
  { path: 'conf/**/*.yaml', kind: 'glob', why: 'config glob' },
];
const EVERY_KIND_IGNORES = ['patches/**/*.md', '!patches/keep/README.md', 'internal/x/*_test.go'];

describe('inputMatcher', () => {
  const m = inputMatcher(
    inputs(
      EVERY_KIND, EVERY_KIND_IGNORES,
    ),
  );
  const cases: [string, string | undefined][] = [
    ['Dockerfile', 'Dockerfile'],
    ['Dockerfile.bak', undefined],
    ['internal/x/a.go', 'go package'],
    ['internal/x/sub/a.go', undefined],
    ['internal/x/a_test.go', undefined],
    ['internal/xy/a.go', undefined],
    ['./Dockerfile', 'Dockerfile'],
    ['patches/a.diff', 'COPY patches'],
    ['patches/deep/b.diff', 'COPY patches'],
    ['patches/deep/notes.md', undefined],
    ['patches/keep/README.md', 'COPY patches'],
    ['patchesX/a.diff', undefined],
    ['maybe', 'missing COPY source'],
    ['maybe/inside', 'missing COPY source'],
    ['maybe2', undefined],
    ['src/a.go', 'COPY glob'],
    ['src/sub/a.go', undefined],
    ['conf/a/b/c.yaml', 'config glob'],
    ['conf/a/b/c.json', undefined],
  ];
  it.each(cases)('%s → %s', (path, why) => {
    expect(m.match(path)?.why).toBe(why);
  });

  it('a glob matching a directory matches everything below it', () => {
    const g = inputMatcher(inputs([{ path: 'cmd*', why: 'COPY cmd*' }]));
    expect(g.match('cmd-tool/sub/main.go')?.why).toBe('COPY cmd*');
    expect(g.match('other/cmd/x')).toBeUndefined();
  });

  it('a package at the repo root matches only top-level files', () => {
    const root = inputMatcher(inputs([{ path: './', kind: 'files', why: 'root package' }]));
    expect(root.match('main.go')?.why).toBe('root package');
    expect(root.match('./main.go')?.why).toBe('root package');
    expect(root.match('cmd/main.go')).toBeUndefined();
  });

  it('the whole repo as a tree', () => {
    const all = inputMatcher(inputs([{ path: './', kind: 'tree', why: 'COPY . .' }], ['docs']));
    expect(all.match('a/b/c')?.why).toBe('COPY . .');
    expect(all.match('docs/readme.md')).toBeUndefined();
    expect(all.match('docsy/readme.md')?.why).toBe('COPY . .');
  });

  it('is fast: 300 inputs × 100k paths well under a second', () => {
    const many = inputMatcher(
      inputs(
        [...Array.from({ length: 300 }, (_, i): InputPattern => ({ path: `pkg${i}/sub/`, kind: 'files', why: String(i) })), { path: 'a/**/*.txt', kind: 'glob', why: 'g' }],
        ['**/*_test.go'],
      ),
    );
    const paths = Array.from({ length: 100_000 }, (_, i) => `pkg${i % 600}/sub/f${i}.go`);
    const t0 = performance.now();
    let hits = 0;
    for (const p of paths) if (many.match(p)) hits++;
    expect(hits).toBe(50_100);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});

describe('InputMatcher.matching: the paths match() accepts, looked up per pattern', () => {
  // Paths near and far from every pattern kind: prefixes that are not at a segment boundary, `./`, the root, repeats.
  const paths = [
    'Dockerfile', 'Dockerfile.bak', './Dockerfile', 'internal/x/a.go', 'internal/x/sub/a.go', 'internal/x/a_test.go', 'internal/xy/a.go',
    'internal/x', 'patches', 'patches/a.diff', 'patches/deep/b.diff', 'patches/deep/notes.md', 'patches/keep/README.md', 'patchesX/a.diff',
    'patches-old/x', 'maybe', 'maybe/inside', 'maybe2', 'src/a.go', 'src/sub/a.go', 'conf/a/b/c.yaml', 'conf/a/b/c.json', 'main.go',
    'cmd-tool/sub/main.go', 'other/cmd/x', 'docs/readme.md', 'docsy/readme.md', 'a/b/c', 'zz/last', 'A/upper', 'é/accent',
  ];
  const table: [string, InputPattern[], string[]][] = [
    [
      'every kind with ignores and a re-include',
      EVERY_KIND, EVERY_KIND_IGNORES,
    ],
    ['a glob with no static prefix', [{ path: 'cmd*', why: 'COPY cmd*' }], []],
    ['a root package', [{ path: './', kind: 'files', why: 'root package' }], []],
    ['the whole repo as a tree', [{ path: './', kind: 'tree', why: 'COPY . .' }], ['docs']],
    ['nested trees', [{ path: 'internal', kind: 'tree', why: 'a' }, { path: 'internal/x/sub', kind: 'tree', why: 'b' }, { path: './zz/', why: 'c' }], ['internal/x/a_test.go']],
    ['nothing', [], []],
  ];
  it.each(table)('%s', (_name, patterns, ignore) => {
    const m = inputMatcher(inputs(patterns, ignore));
    const index = pathIndex(paths);
    expect(m.matching(index)).toEqual(paths.filter((p) => m.match(p) !== undefined));
    const reversed = [...paths].reverse();
    expect(m.matching(pathIndex(reversed))).toEqual(reversed.filter((p) => m.match(p) !== undefined));
  });

  it('is fast: 300 inputs × 100k paths in milliseconds, the same hits as match()', () => {
    const many = inputMatcher(
      inputs(
        [...Array.from({ length: 300 }, (_, i): InputPattern => ({ path: `pkg${i}/sub/`, kind: 'files', why: String(i) })), { path: 'a/**/*.txt', kind: 'glob', why: 'g' }],
        ['**/*_test.go'],
      ),
    );
    const index = pathIndex(Array.from({ length: 100_000 }, (_, i) => `pkg${i % 600}/sub/f${i}.go`));
    const t0 = performance.now();
    expect(many.matching(index)).toHaveLength(50_100);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});

describe('dockerignoreEntries', () => {
  const text = '# comment\n\n*.md\n!README.md\n/build/\n**/*.log\nsub/../tmp\n  spaced  \n';
  it('anchors patterns at the context and keeps order', () => {
    expect(dockerignoreEntries(text, 'ctx').entries).toEqual(['ctx/*.md', '!ctx/README.md', 'ctx/build', 'ctx/**/*.log', 'ctx/tmp', 'ctx/spaced']);
    expect(dockerignoreEntries(text, '.').entries[0]).toBe('*.md');
  });
  const cases: [string, boolean][] = [
    ['ctx/a.md', true],
    ['ctx/README.md', false],
    ['ctx/sub/a.md', false],
    ['ctx/build/x/y', true],
    ['ctx/deep/er/z.log', true],
    ['ctx/tmp/a', true],
    ['other/a.md', false],
  ];
  it.each(cases)('%s ignored: %s', (path, ignored) => {
    expect(ignoredBy(dockerignoreEntries(text, 'ctx').entries, path)).toBe(ignored);
  });
  it('a re-include under an excluded directory wins when later', () => {
    const { entries } = dockerignoreEntries('vendor\n!vendor/keep.go\n', '.');
    expect(ignoredBy(entries, 'vendor/a.go')).toBe(true);
    expect(ignoredBy(entries, 'vendor/keep.go')).toBe(false);
  });
});
