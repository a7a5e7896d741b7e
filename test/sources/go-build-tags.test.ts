/**
 * Build constraints for a build whose `-tags` are known (sigstore/rekor: `go build ./cmd/rekor-server`
 * with no tags compiles no `//go:build e2e` file, so the packages only such files import are no inputs).
 * Anything that can add tags the line does not show (GOFLAGS in an ENV or ARG, `-tags $TAGS`) keeps them;
 * a file one build leaves out and another compiles stays an input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildRecipe } from '../../src/producers/types.js';
import { deriveBuildInputs, inputMatcher } from '../../src/sources/index.js';
import { makeTree, type Tree } from '../support/tree.js';

const dockerfile = (run: string, before = '') => `FROM golang:1.22 AS build\nWORKDIR /src\n${before}COPY . .\nRUN ${run}\nFROM scratch\nCOPY --from=build /out /out\n`;

const TREE: Record<string, string> = {
  'go.mod': 'module example.com/r\n\ngo 1.22\n',
  'go.sum': '',
  'cmd/server/main.go': 'package main\n\nimport _ "example.com/r/pkg/types"\n\nfunc main() {}\n',
  'pkg/types/types.go': 'package types\n',
  'pkg/types/e2e.go': '//go:build e2e\n\npackage types\n\nimport _ "example.com/r/pkg/e2eutil"\n',
  'pkg/types/linux.go': '//go:build linux\n\npackage types\n\nimport _ "example.com/r/pkg/onlinux"\n',
  'pkg/e2eutil/util.go': 'package e2eutil\n',
  'pkg/onlinux/l.go': 'package onlinux\n',
  'plain/Dockerfile': dockerfile('go build -o /out/server ./cmd/server'),
  'tagged/Dockerfile': dockerfile('go build -tags e2e -o /out/server ./cmd/server'),
  'goflags/Dockerfile': dockerfile('go build -o /out/server ./cmd/server', 'ENV GOFLAGS=-tags=e2e\n'),
  'two/Dockerfile': dockerfile('go build -o /out/server ./cmd/server && go build -tags=e2e -o /out/e2e ./cmd/server'),
};

let tree: Tree;
beforeAll(() => {
  tree = makeTree(TREE);
});
afterAll(() => tree.cleanup());

const recipe = (dir: string): BuildRecipe => ({ makefile: 'Makefile', target: 'image', line: 1, dockerfile: `${dir}/Dockerfile`, context: '.', repositories: ['ghcr.io/acme/r'], stamps: [], command: `docker build -f ${dir}/Dockerfile .` });
const SOURCES = ['pkg/types/types.go', 'pkg/types/e2e.go', 'pkg/types/linux.go', 'pkg/e2eutil/util.go', 'pkg/onlinux/l.go'];

async function compiled(dir: string): Promise<{ hits: string[]; steps: string[] }> {
  const r = await deriveBuildInputs(tree.dir, { image: 'r', recipe: recipe(dir) });
  expect(r.unknownReason).toBeUndefined();
  const m = inputMatcher(r);
  return { hits: SOURCES.filter((p) => m.match(p)), steps: r.steps };
}

describe('Go build constraints for a build whose -tags are known', () => {
  it('no -tags: a custom tag does not hold, a platform tag may', async () => {
    const { hits, steps } = await compiled('plain');
    expect(hits).toEqual(['pkg/types/types.go', 'pkg/types/linux.go', 'pkg/onlinux/l.go']);
    expect(steps).toContain('pkg/types/e2e.go: //go:build e2e does not hold for a build with no -tags; not compiled');
  });

  it.each([
    ['-tags e2e', 'tagged'],
    ['GOFLAGS set by an ENV', 'goflags'],
    ['another build of the image setting it', 'two'],
  ])('%s: the e2e file and what it imports are inputs', async (_name, dir) => {
    expect((await compiled(dir)).hits).toEqual(SOURCES);
  });
});
