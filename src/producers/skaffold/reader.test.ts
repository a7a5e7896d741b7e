/**
 * The Skaffold reader, table-driven from Skaffold's docs: multi-document
 * configs, docker/kaniko/ko artifacts with their fields, profiles, requires,
 * the default-repo rewrite, and each problem with file:line.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSkaffold } from '../../collect/index.js';
import type { Problem } from '../../model/index.js';
import { readSkaffold, withDefaultRepo } from './index.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'pinwatch-skaffold-'));
  const files: Record<string, string> = {
    'src/frontend/Dockerfile': 'FROM alpine\n',
    'src/cart/src/Dockerfile': 'FROM alpine\n',
    'src/web/Dockerfile.prod': 'FROM alpine AS base\nFROM base AS prod\n',
    'go.mod': 'module github.com/acme/shop\n',
    'cmd/api/main.go': 'package main\n',
    'tools/skaffold-tools.yaml': 'apiVersion: skaffold/v4beta6\nkind: Config\nbuild:\n  artifacts:\n    - image: ghcr.io/acme/tool\n      context: ../src/frontend\n',
  };
  for (const [f, t] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), t);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function read(text: string, env: Record<string, string> = {}) {
  const problems: Problem[] = [];
  const recipes = readSkaffold(root, 'skaffold.yaml', text, problems, { env: new Map(Object.entries(env)) });
  return { recipes, problems };
}

const MULTI = `apiVersion: skaffold/v4beta11
kind: Config
metadata:
  name: app
build:
  artifacts:
    - image: frontend
      context: src/frontend
    - image: ghcr.io/acme/web
      context: src/web
      docker:
        dockerfile: Dockerfile.prod
        target: prod
        buildArgs:
          VERSION: "1.2"
    - image: ghcr.io/acme/api
      ko:
        main: ./cmd/api
        fromImage: gcr.io/distroless/static
        ldflags: ["-s", "-w"]
profiles:
  - name: gcb
    build:
      artifacts:
        - image: cart
          context: src/cart/src
---
apiVersion: skaffold/v2beta29
kind: Config
build:
  artifacts:
    - image: ghcr.io/acme/java
      jib: {}
---
kind: ConfigMap
apiVersion: v1
`;

describe('skaffold.yaml artifacts as recipes', () => {
  it('reads every document, builder and profile', () => {
    const { recipes, problems } = read(MULTI, { SKAFFOLD_DEFAULT_REPO: 'us-docker.pkg.dev/acme/shop' });
    expect(recipes.map((r) => ({ kind: r.kind, line: r.line, target: r.target, dockerfile: r.dockerfile, context: r.context, stage: r.stage, repositories: r.repositories, profile: r.profile }))).toEqual([
      { kind: 'skaffold', line: 7, target: 'build.artifacts "frontend"', dockerfile: 'src/frontend/Dockerfile', context: 'src/frontend', stage: undefined, repositories: ['us-docker.pkg.dev/acme/shop/frontend'], profile: undefined },
      { kind: 'skaffold', line: 9, target: 'build.artifacts "ghcr.io/acme/web"', dockerfile: 'src/web/Dockerfile.prod', context: 'src/web', stage: 'prod', repositories: ['us-docker.pkg.dev/acme/shop/ghcr_io_acme_web'], profile: undefined },
      { kind: 'skaffold', line: 16, target: 'build.artifacts "ghcr.io/acme/api"', dockerfile: '', context: 'cmd/api', stage: undefined, repositories: ['us-docker.pkg.dev/acme/shop/ghcr_io_acme_api'], profile: undefined },
      { kind: 'skaffold', line: 25, target: 'profiles.gcb.build.artifacts "cart"', dockerfile: 'src/cart/src/Dockerfile', context: 'src/cart/src', stage: undefined, repositories: ['us-docker.pkg.dev/acme/shop/cart'], profile: 'gcb' },
    ]);
    expect(recipes[1]!.command).toBe('skaffold docker: docker build -f Dockerfile.prod --target prod --build-arg VERSION=1.2 -t us-docker.pkg.dev/acme/shop/ghcr_io_acme_web src/web');
    expect(recipes[2]!.ko).toEqual({ main: 'cmd/api', importPath: 'github.com/acme/shop/cmd/api', moduleDir: '.', baseImage: 'gcr.io/distroless/static', ldflags: ['-s', '-w'] });
    expect(problems).toEqual([{ file: 'skaffold.yaml', line: 32, code: 'skaffold-builder-unread', reason: expect.stringContaining('built by jib, which pinwatch does not read'), repository: 'us-docker.pkg.dev/acme/shop/ghcr_io_acme_java' }]);
  });

  it('without a default repo, full names are the repositories and bare names a problem', () => {
    const { recipes, problems } = read(MULTI);
    expect(recipes.map((r) => r.repositories)).toEqual([[], ['ghcr.io/acme/web'], ['ghcr.io/acme/api'], []]);
    expect(problems.filter((p) => p.code === 'skaffold-default-repo-unknown').map((p) => [p.line, p.reason])).toEqual([
      [7, 'artifact frontend is a bare image name: Skaffold pushes it under --default-repo, which the tree does not say; set buildEnv.SKAFFOLD_DEFAULT_REPO in pinwatch.yaml'],
      [25, expect.stringContaining('artifact cart is a bare image name')],
    ]);
    expect(problems.map((p) => p.code)).not.toContain('recipe-untagged');
  });

  it('follows requires: a config of another name, relative to the file', () => {
    const { recipes, problems } = read('apiVersion: skaffold/v4beta11\nkind: Config\nrequires:\n  - path: tools/skaffold-tools.yaml\n  - path: ./missing.yaml\n  - git: { repo: https://github.com/x/y }\n');
    expect(recipes.map((r) => [r.makefile, r.repositories, r.context])).toEqual([['tools/skaffold-tools.yaml', ['ghcr.io/acme/tool'], 'src/frontend']]);
    expect(problems.map((p) => [p.line, p.code])).toEqual([[6, 'skaffold-require-remote'], [5, 'skaffold-require-missing']]);
  });

  const problems: { name: string; text: string; line: number; code: string }[] = [
    { name: 'YAML error', text: 'apiVersion: skaffold/v4\nbuild: [\n', line: 3, code: 'skaffold-yaml-error' },
    { name: 'artifacts not a list', text: 'apiVersion: skaffold/v4beta1\nbuild:\n  artifacts: x\n', line: 3, code: 'skaffold-artifact-unreadable' },
    { name: 'artifact without image', text: 'apiVersion: skaffold/v4beta1\nbuild:\n  artifacts:\n    - context: .\n', line: 4, code: 'skaffold-artifact-unreadable' },
    { name: 'a missing Dockerfile', text: 'apiVersion: skaffold/v4beta1\nbuild:\n  artifacts:\n    - image: ghcr.io/acme/x\n      context: src/none\n', line: 4, code: 'recipe-context-unknown' },
    { name: 'unknown version', text: 'apiVersion: skaffold/v1\nbuild:\n  artifacts: []\n', line: 1, code: 'skaffold-version-unknown' },
    { name: 'a profile patching the build', text: 'apiVersion: skaffold/v4beta1\nprofiles:\n  - name: p\n    patches:\n      - op: replace\n        path: /build/artifacts/0/image\n        value: x\n', line: 5, code: 'skaffold-profile-patch' },
  ];
  for (const c of problems) {
    it(`problem: ${c.name}`, () => {
      const got = read(c.text).problems;
      expect(got.map((p) => [p.file, p.line, p.code])).toContainEqual(['skaffold.yaml', c.line, c.code]);
    });
  }

  it('a YAML file that is no Skaffold config yields nothing and no problem', () => {
    expect(read('apiVersion: v1\nkind: ConfigMap\n')).toEqual({ recipes: [], problems: [] });
    expect(parseSkaffold('apiVersion: v1\n').isSkaffold).toBe(false);
  });
});

describe('Skaffold default-repo rewriting', () => {
  const cases: [string, string, string][] = [
    ['frontend', 'gcr.io/acme', 'gcr.io/acme/frontend'],
    ['gcr.io/k8s-skaffold/example', 'gcr.io/acme', 'gcr.io/acme/gcr.io/k8s-skaffold/example'],
    ['gcr.io/k8s-skaffold/example', 'aws_account_id.dkr.ecr.region.amazonaws.com', 'aws_account_id.dkr.ecr.region.amazonaws.com/gcr_io_k8s-skaffold_example'],
    ['gcr.io/acme/frontend', 'gcr.io/acme', 'gcr.io/acme/frontend'],
    ['cart', 'us-central1-docker.pkg.dev/google-samples/microservices-demo/', 'us-central1-docker.pkg.dev/google-samples/microservices-demo/cart'],
  ];
  for (const [image, repo, want] of cases) it(`${image} under ${repo}`, () => expect(withDefaultRepo(image, repo)).toBe(want));
});
