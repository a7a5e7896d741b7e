/**
 * Around every recipe kind: files a build arg reads become inputs (Make's
 * `$(shell cat …)`, a workflow's `$(cat …)`), and vendored trees are not read
 * for recipes or producers.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config/defaults.js';
import { deriveBuildInputs } from '../sources/index.js';
import { filesRead } from './build-command.js';
import { loadBuildModel } from './repo.js';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })));

function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'pinwatch-recipe-inputs-'));
  roots.push(root);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
  return root;
}

describe('filesRead: the files a build-arg value reads', () => {
  const cases: [string, string[]][] = [
    ['$(cat .go-version)', ['.go-version']],
    ['`cat VERSION`', ['VERSION']],
    ['$(< .nvmrc)', ['.nvmrc']],
    ['$(head -n1 versions/go)', ['versions/go']],
    ["$(tr -d '\\n' < .go-version)", ['.go-version']],
    ['$(cat a b | sort)', ['a', 'b']],
    ['$(git rev-parse HEAD)', []],
    ['$(cat $FILE)', []],
    ['plain', []],
  ];
  for (const [value, want] of cases) it(value, () => expect(filesRead(value)).toEqual(want));
});

describe('build args that read files', () => {
  it('Make $(shell cat …) and a workflow run: $(cat …) make the file an input of the image', async () => {
    const root = repo({
      Dockerfile: 'FROM golang:1.22\nARG GO_VERSION\nCOPY main.go /src/\n',
      'main.go': 'package main\n',
      '.go-version': '1.22\n',
      'tools/.node-version': '20\n',
      Makefile: 'GO_VERSION := $(shell cat .go-version)\nbuild:\n\tdocker build --build-arg GO_VERSION=$(GO_VERSION) -t ghcr.io/acme/x:1 .\n',
      '.github/workflows/b.yml': 'jobs:\n  a:\n    steps:\n      - run: |\n          cd tools\n          docker build --build-arg "NODE=$(cat .node-version)" --build-arg "M=$(cat missing)" -t ghcr.io/acme/y:1 ..\n',
    });
    const model = await loadBuildModel(root, defaultConfig());
    expect(model.recipes.map((r) => [r.repositories[0], r.inputs])).toEqual([
      ['ghcr.io/acme/x', [{ path: '.go-version', kind: 'file', why: 'build arg GO_VERSION reads it (Makefile:3)', arg: 'GO_VERSION' }]],
      [
        'ghcr.io/acme/y',
        [
          { path: 'tools/.node-version', kind: 'file', why: 'build arg NODE reads it (.github/workflows/b.yml:6)', arg: 'NODE' },
          { path: 'tools/missing', kind: 'file', why: 'build arg M reads it (.github/workflows/b.yml:6)', arg: 'M' },
        ],
      ],
    ]);
    expect(model.problems.map((p) => [p.file, p.line, p.code])).toEqual([['.github/workflows/b.yml', 6, 'recipe-arg-file-missing']]);
    const inputs = await deriveBuildInputs(root, { image: 'x', recipe: model.recipes[0]! });
    expect(inputs.inputs.map((i) => [i.path, i.why])).toContainEqual(['.go-version', 'build arg GO_VERSION reads it (Makefile:3)']);
    expect(inputs.steps).toContain('.go-version: build arg GO_VERSION reads it (Makefile:3)');
  });

  it('a build arg the Dockerfile declares no ARG for reads no input (kind passes GO_VERSION to every image)', async () => {
    const make = (dir: string) => `build:\n\tdocker build --build-arg GO_VERSION=$(shell cat .go-version) -t ghcr.io/acme/${dir}:1 ${dir}\n`;
    const root = repo({
      'uses/Dockerfile': 'FROM alpine\nFROM golang:1.22 AS build\nARG GO_VERSION\nRUN echo $GO_VERSION\nFROM alpine\nCOPY --from=build /x /x\n',
      'global/Dockerfile': 'ARG GO_VERSION=1.22\nFROM golang:${GO_VERSION}\n',
      'ignores/Dockerfile': 'FROM gcr.io/distroless/static\nCOPY x /x\n',
      'ignores/x': '1\n',
      '.go-version': '1.22\n',
      Makefile: `${make('uses')}${make('global').replace('build:', 'build2:')}${make('ignores').replace('build:', 'build3:')}`,
    });
    const model = await loadBuildModel(root, { ...defaultConfig(), buildEntry: 'none' });
    const derived = await Promise.all(['uses', 'global', 'ignores'].map((dir) => deriveBuildInputs(root, { image: dir, recipe: model.recipes.find((r) => r.repositories[0] === `ghcr.io/acme/${dir}`)! })));
    expect(derived.map((d) => d.inputs.some((i) => i.path === '.go-version'))).toEqual([true, true, false]);
    expect(derived[2]!.steps).toContain('.go-version: build arg GO_VERSION reads it (Makefile:6), but ignores/Dockerfile declares no ARG GO_VERSION (BuildKit ignores it): no input');
    expect(derived[2]!.inputs.map((i) => i.path)).toEqual(['ignores/Dockerfile', 'ignores/x']);
  });
});

describe('the default build entry', () => {
  it('a root Makefile without `build` is an assumption note, not a missing target; an explicit entry still is one', async () => {
    const root = repo({ Makefile: 'apply:\n\tdocker build -t ghcr.io/acme/a:1 .\n', Dockerfile: 'FROM alpine\n' });
    const assumed = await loadBuildModel(root, defaultConfig());
    expect(assumed.problems.map((p) => [p.file, p.code])).toEqual([['Makefile', 'build-entry-assumed']]);
    expect(assumed.recipes.map((r) => r.repositories[0])).toEqual(['ghcr.io/acme/a']);
    const explicit = await loadBuildModel(root, { ...defaultConfig(), buildEntry: 'Makefile:release' });
    expect(explicit.problems.map((p) => [p.file, p.code])).toEqual([['Makefile', 'build-target-missing']]);
  });
});

describe('buildEnv on the Make side', () => {
  it("is make's environment: a Makefile's ko build under buildEnv.KO_DOCKER_REPO names its repository (tektoncd/pipeline)", async () => {
    const root = repo({
      Makefile: 'apply:\n\tko build -B ./cmd/app\n',
      'go.mod': 'module example.com/acme\n\ngo 1.22\n',
      'cmd/app/main.go': 'package main\n\nfunc main() {}\n',
    });
    const config = { ...defaultConfig(), buildEntry: 'Makefile:apply' };
    const without = await loadBuildModel(root, config);
    expect(without.problems.map((p) => p.code)).toEqual(['ko-docker-repo-unknown']);
    const withEnv = await loadBuildModel(root, { ...config, buildEnv: { KO_DOCKER_REPO: 'ghcr.io/acme' } });
    expect(withEnv.problems).toEqual([]);
    expect(withEnv.recipes.map((r) => r.repositories)).toEqual([['ghcr.io/acme/app']]);
  });
});

describe('vendored trees', () => {
  it('vendor/, third_party/ and node_modules/ are not read for recipes or producers, and are listed', async () => {
    const build = 'build:\n\tdocker build -t ghcr.io/acme/v:1 .\n';
    const root = repo({
      'Makefile': 'build:\n\tdocker build -t ghcr.io/acme/app:1 .\n',
      Dockerfile: 'FROM alpine\n',
      'vendor/github.com/x/Makefile': build,
      'vendor/github.com/x/docker-bake.hcl': 'target "v" {\n  tags = ["ghcr.io/acme/v"]\n}\n',
      'third_party/y/compose.yaml': 'services:\n  v:\n    build: .\n    image: ghcr.io/acme/v\n',
      'node_modules/z/.goreleaser.yml': 'dockers:\n  - image_templates: [ghcr.io/acme/v]\n',
      'src/third_party_ok/Makefile': 'build:\n\tdocker build -t ghcr.io/acme/ok:1 .\n',
    });
    const model = await loadBuildModel(root, defaultConfig());
    expect(model.recipes.flatMap((r) => r.repositories).sort()).toEqual(['ghcr.io/acme/app', 'ghcr.io/acme/ok']);
    expect(model.vendored).toEqual(['node_modules/', 'third_party/', 'vendor/']);
  });
});
