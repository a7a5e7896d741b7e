import { describe, expect, it } from 'vitest';
import { fileReadingCommand, goInvocations, simpleCommandWords } from './command.js';
import { parseGoMod } from './gomod.js';
import { buildableWith, evalGoBuild, readGoSource } from './gosource.js';

describe('readGoSource', () => {
  it('reads single, grouped, named, dot and blank imports and stops at declarations', () => {
    const src = [
      '// Copyright',
      'package main // trailing',
      '',
      'import "fmt"',
      'import (',
      '\t"os"',
      '\tfoo "example.com/m/internal/foo" // comment',
      '\t. "example.com/m/dot"',
      '\t_ "example.com/m/blank"',
      '\t/* "example.com/m/commented" */',
      '\t`example.com/m/raw`',
      ')',
      'import "C"',
      '',
      'func main() {',
      '\t_ = "example.com/m/not-an-import"',
      '}',
      'import "example.com/m/late"',
    ].join('\n');
    const info = readGoSource(src);
    expect(info.packageName).toBe('main');
    expect(info.imports).toEqual(['fmt', 'os', 'example.com/m/internal/foo', 'example.com/m/dot', 'example.com/m/blank', 'example.com/m/raw']);
    expect(info.buildable).toBe(true);
  });

  const constraints: [string, boolean][] = [
    ['//go:build ignore\n\npackage x', false],
    ['//go:build !ignore\n\npackage x', true],
    ['//go:build linux && ignore\n\npackage x', false],
    ['//go:build linux || ignore\n\npackage x', true],
    ['//go:build tools\n\npackage x', true],
    ['// +build ignore\n\npackage x', false],
    ['// +build linux,ignore darwin\n\npackage x', true],
    ['// +build linux\n// +build ignore\n\npackage x', false],
    ['package x\n//go:build ignore\n', true],
  ];
  it.each(constraints)('%j buildable: %s', (src, buildable) => {
    expect(readGoSource(src).buildable).toBe(buildable);
  });

  it('collects //go:embed patterns', () => {
    const info = readGoSource('package x\nimport "embed"\n//go:embed templates/* "a b.txt"\n//go:embed all:static\nvar fs embed.FS\n');
    expect(info.embeds).toEqual(['templates/*', 'a b.txt', 'all:static']);
  });

  it('three-valued build expressions', () => {
    expect(evalGoBuild('(linux || darwin) && !ignore')).toBeUndefined();
    expect(evalGoBuild('ignore || (ignore && x)')).toBe(false);
  });

  // a build whose -tags are known (rekor: `go build ./cmd/rekor-server` compiles no `//go:build e2e` file)
  const withTags: [string, string[] | undefined, boolean][] = [
    ['//go:build e2e\n\npackage x', [], false],
    ['//go:build e2e\n\npackage x', ['e2e'], true],
    ['//go:build e2e\n\npackage x', undefined, true],
    ['//go:build !e2e\n\npackage x', [], true],
    ['//go:build linux && !e2e\n\npackage x', ['e2e'], false],
    ['//go:build linux\n\npackage x', [], true],
    ['//go:build go1.21 && (amd64 || arm64)\n\npackage x', [], true],
    ['//go:build goexperiment.rangefunc\n\npackage x', [], true],
    ['//go:build integration || e2e\n\npackage x', ['netgo'], false],
    ['// +build e2e,linux\n\npackage x', [], false],
    ['// +build e2e\n// +build linux\n\npackage x', ['e2e'], true],
    ['package x\n', [], true],
  ];
  it.each(withTags)('%j with -tags %j: buildable %s', (src, tags, buildable) => {
    expect(buildableWith(readGoSource(src), tags && new Set(tags))).toBe(buildable);
  });
});

describe('parseGoMod', () => {
  it('reads module and replace directives in both forms', () => {
    const mod = parseGoMod('module example.com/m // c\n\ngo 1.22\nreplace example.com/a => ./a\nreplace (\n\texample.com/b v1.0.0 => ../b\n\texample.com/c => example.com/c2 v1.2.0\n)\n');
    expect(mod.module).toBe('example.com/m');
    expect(mod.replaces.map((r) => [r.from, r.to, r.local])).toEqual([
      ['example.com/a', './a', true],
      ['example.com/b', '../b', true],
      ['example.com/c', 'example.com/c2', false],
    ]);
  });
});

describe('goInvocations', () => {
  const cases: [string, string, { verb: string; cwd: string; packages: string[] }[]][] = [
    ['CGO_ENABLED=0 GOOS=$TARGETOS go build -o /out ./cmd/x', '/src', [{ verb: 'build', cwd: '/src', packages: ['./cmd/x'] }]],
    ['go mod download && go build -ldflags "-s -w" -trimpath -o /b/c ./controller/cmd && go build -o /b/s ./sidecar/cmd', '/w', [
      { verb: 'build', cwd: '/w', packages: ['./controller/cmd'] },
      { verb: 'build', cwd: '/w', packages: ['./sidecar/cmd'] },
    ]],
    ['cd cmd/x && go build', '/src', [{ verb: 'build', cwd: '/src/cmd/x', packages: ['.'] }]],
    ['go build -C tools -o /t ./gen/...', '/src', [{ verb: 'build', cwd: '/src/tools', packages: ['./gen/...'] }]],
    ['go install example.com/tool@v1.2.3', '/', [{ verb: 'install', cwd: '/', packages: ['example.com/tool@v1.2.3'] }]],
    ['/usr/local/go/bin/go build -tags=netgo cmd/x/main.go cmd/x/flags.go', '/w', [{ verb: 'build', cwd: '/w', packages: ['cmd/x/main.go', 'cmd/x/flags.go'] }]],
    ['go test ./... ; go vet ./...', '/', []],
    ['echo "go build ./nope"', '/', []],
  ];
  it.each(cases)('%s', (command, workdir, expected) => {
    expect(goInvocations(command, workdir).map(({ verb, cwd, packages }) => ({ verb, cwd, packages }))).toEqual(expected);
  });

  it.each<[string, string[] | undefined]>([
    ['go build ./cmd/x', []],
    ['go build -tags=netgo,osusergo ./cmd/x', ['netgo', 'osusergo']],
    ['go build -tags "a b" ./cmd/x', ['a', 'b']],
    ['go build -tags $TAGS ./cmd/x', undefined],
    ['GOFLAGS=-tags=e2e go build ./cmd/x', undefined],
    ['export GOFLAGS="-tags=e2e" && go build ./cmd/x', undefined],
  ])('%s sets tags %j', (command, tags) => {
    expect(goInvocations(command, '/src')[0]!.tags).toEqual(tags);
  });

  it('splits on operators but not inside quotes', () => {
    expect(simpleCommandWords("a 'b && c' | d; e").map((c) => c.words)).toEqual([['a', 'b && c'], ['d'], ['e']]);
  });

  it('keeps $(…) whole: a substitution is a nested command, not a split point', () => {
    // The old splitter cut at `(` and `)`: it saw `go build -o /out/$` and `./cmd/x` as two commands (packages ['.']).
    const command = 'go build -o /out/$(basename $(pwd)) -ldflags "-X main.v=$(git describe --tags)" ./cmd/x > /log 2>&1';
    expect(simpleCommandWords(command)).toEqual([
      { words: ['pwd'], nested: true },
      { words: ['basename', '$(pwd)'], nested: true },
      { words: ['git', 'describe', '--tags'], nested: true },
      { words: ['go', 'build', '-o', '/out/$(basename $(pwd))', '-ldflags', '-X main.v=$(git describe --tags)', './cmd/x'], nested: false },
    ]);
    expect(goInvocations(command, '/src').map(({ cwd, packages }) => ({ cwd, packages }))).toEqual([{ cwd: '/src', packages: ['./cmd/x'] }]);
    expect(goInvocations('X=$(cd /tmp && pwd) go build ./cmd/y', '/src').map((g) => g.cwd)).toEqual(['/src']);
  });
});

describe('fileReadingCommand', () => {
  const cases: [string, string | undefined][] = [
    ['apk add --no-cache make git', undefined],
    ['go mod download && go build ./cmd/x', undefined],
    ['make generate', 'make generate'],
    ['CGO_ENABLED=0 go generate ./...', 'go generate ./...'],
    ['./hack/build.sh x', './hack/build.sh x'],
    ['sh -c "go build ./x"', 'sh -c go build ./x'],
    ['git apply /patches/*.diff', undefined],
    ['V=$(make -s version) go build ./x', 'make -s version'],
    ["echo '$(make x)' && go build ./x", undefined],
  ];
  it.each(cases)('%s → %s', (command, expected) => {
    expect(fileReadingCommand(command)).toBe(expected);
  });
});
