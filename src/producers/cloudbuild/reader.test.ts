/**
 * The Cloud Build reader, table-driven from the Cloud Build docs: substitutions
 * (user defaults, built-ins, `$$`, braces), steps run by a builder's own
 * entrypoint, `bash -c` and `script:`, `dir:` and `env:`, ko steps, `make`
 * steps followed into the Makefile reader, and each problem with file:line.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../config/defaults.js';
import type { Problem } from '../../model/index.js';
import { readableMarkers } from '../../make/index.js';
import { loadBuildModel } from '../repo.js';
import { isCloudBuildName, readCloudBuild, substituter } from './index.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'pinwatch-cloudbuild-'));
  const files: Record<string, string> = {
    'app/Dockerfile': 'FROM alpine AS build\nFROM alpine AS prod\n',
    'web/Dockerfile': 'FROM alpine\n',
    'go.mod': 'module github.com/acme/shop\n',
    'cmd/api/main.go': 'package main\n',
    'Makefile': 'REGISTRY ?= gcr.io/default\nTAG ?= dev\nimage:\n\tdocker build -t $(REGISTRY)/made:$(TAG) web\n',
  };
  for (const [f, t] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), t);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function read(text: string, env: Record<string, string> = {}) {
  const problems: Problem[] = [];
  const recipes = readCloudBuild(root, 'cloudbuild.yaml', text, problems, { env: new Map(Object.entries(env)) });
  return { recipes, problems };
}

describe('substitutions', () => {
  const cases: [string, string][] = [
    ['gcr.io/$PROJECT_ID/app:$SHORT_SHA', 'gcr.io/acme/app:⟨subst SHORT_SHA⟩'],
    ['${_REGION}-docker.pkg.dev/$PROJECT_ID/x', 'us-central1-docker.pkg.dev/acme/x'],
    ['$_GIT_TAG', '⟨subst _GIT_TAG⟩'],
    ['echo $$HOME $HOME', 'echo $HOME $HOME'],
    ['$_IMAGE', 'override'],
  ];
  for (const [text, want] of cases) {
    it(text, () => {
      const s = substituter(new Map([['_REGION', 'us-central1'], ['_IMAGE', 'default']]), new Map([['PROJECT_ID', 'acme'], ['_IMAGE', 'override']]));
      expect(readableMarkers(s.apply(text))).toBe(want);
    });
  }
  it('says why an unknown is unknown', () => {
    const s = substituter(new Map(), new Map());
    s.apply('$COMMIT_SHA $_TAG');
    expect(s.unknowns.map((u) => [u.name, u.reason])).toEqual([
      ['COMMIT_SHA', expect.stringContaining('set by Cloud Build when the build runs')],
      ['_TAG', '$_TAG has no default under substitutions: (the trigger sets it)'],
    ]);
  });
});

describe('cloudbuild.yaml steps as recipes', () => {
  const CB = `substitutions:
  _REGISTRY: gcr.io/acme
steps:
  - name: gcr.io/cloud-builders/docker
    id: app
    args: ['build', '--target', 'prod', '-t', '\${_REGISTRY}/app:$SHORT_SHA', 'app']
  - name: gcr.io/cloud-builders/docker
    entrypoint: bash
    args:
      - -c
      - |
        docker build -t $_REGISTRY/web:latest .
    dir: web
  - name: ghcr.io/ko-build/ko
    env: ['KO_DOCKER_REPO=$_REGISTRY']
    args: ['build', '-B', './cmd/api']
  - name: gcr.io/cloud-builders/gcloud
    args: ['run', 'deploy', 'x']
  - name: ubuntu
    script: |
      docker buildx build \\
        -t $_REGISTRY/scripted:1 web
`;
  it('reads docker, bash -c, ko and script: steps', () => {
    const { recipes, problems } = read(CB);
    expect(problems).toEqual([]);
    expect(recipes.map((r) => ({ kind: r.kind, line: r.line, target: r.target, context: r.context, stage: r.stage, repositories: r.repositories }))).toEqual([
      { kind: 'cloudbuild', line: 4, target: 'steps[0] "app"', context: 'app', stage: 'prod', repositories: ['gcr.io/acme/app'] },
      { kind: 'cloudbuild', line: 12, target: 'steps[1]', context: 'web', stage: undefined, repositories: ['gcr.io/acme/web'] },
      { kind: 'cloudbuild', line: 14, target: 'steps[2]', context: 'cmd/api', stage: undefined, repositories: ['gcr.io/acme/api'] },
      { kind: 'cloudbuild', line: 21, target: 'steps[4]', context: 'web', stage: undefined, repositories: ['gcr.io/acme/scripted'] },
    ]);
    expect(recipes[2]!.ko?.importPath).toBe('github.com/acme/shop/cmd/api');
  });

  it('a repository that only the trigger knows is a problem that says why', () => {
    const { recipes, problems } = read("steps:\n  - name: gcr.io/cloud-builders/docker\n    args: ['build', '-t', '$_REGISTRY/app', 'app']\n");
    expect(recipes[0]!.repositories).toEqual([]);
    expect(problems).toEqual([{ file: 'cloudbuild.yaml', line: 2, code: 'recipe-tag-unreadable', reason: 'cannot read tag "⟨subst _REGISTRY⟩/app" as an image reference: $_REGISTRY has no default under substitutions: (the trigger sets it)' }]);
    expect(read("steps:\n  - name: gcr.io/cloud-builders/docker\n    args: ['build', '-t', '$_REGISTRY/app', 'app']\n", { _REGISTRY: 'gcr.io/x' }).recipes[0]!.repositories).toEqual(['gcr.io/x/app']);
  });

  const bad: [string, string, number, string][] = [
    ['not YAML', 'steps: [\n', 2, 'cloudbuild-yaml-error'],
    ['no steps', 'images: []\n', 1, 'cloudbuild-unreadable'],
    ['a step without a builder', 'steps:\n  - args: [build]\n', 2, 'cloudbuild-unreadable'],
  ];
  for (const [name, text, line, code] of bad) {
    it(`problem: ${name}`, () => expect(read(text).problems.map((p) => [p.line, p.code])).toEqual([[line, code]]));
  }

  it('finds the file names Cloud Build configs use', () => {
    expect(['cloudbuild.yaml', 'cloudbuild.yml', 'cloudbuild-release.yaml', 'release.cloudbuild.yaml', 'build.yaml', 'mycloudbuild.yaml'].filter(isCloudBuildName)).toEqual(['cloudbuild.yaml', 'cloudbuild.yml', 'cloudbuild-release.yaml', 'release.cloudbuild.yaml']);
  });

  it('a make step is followed into the Makefile with the step env (added beside the plain reading when it tags another repository)', async () => {
    writeFileSync(join(root, 'cloudbuild.yaml'), "steps:\n  - name: gcr.io/cloud-builders/make\n    env: ['REGISTRY=gcr.io/acme']\n    args: ['image', 'TAG=$SHORT_SHA']\n");
    try {
      const model = await loadBuildModel(root, defaultConfig());
      const made = model.recipes.filter((r) => r.makefile === 'Makefile');
      expect(made.map((r) => [r.target, r.repositories])).toEqual([
        ['image', ['gcr.io/default/made']],
        ['image (via cloudbuild.yaml:2 steps[0])', ['gcr.io/acme/made']],
      ]);
    } finally {
      rmSync(join(root, 'cloudbuild.yaml'));
    }
  });
});
