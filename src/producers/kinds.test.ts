/**
 * Conformance over every recipe kind: each reader, on a small repository of its
 * kind, finds its files, and yields recipes of its kind with repo-relative
 * paths, a line in the file, and the repository it tags; a new kind adds its
 * fixture here.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../model/index.js';
import { RECIPE_READERS } from './kinds.js';
import type { RecipeKind } from './types.js';

const FIXTURES: Record<Exclude<RecipeKind, 'make'>, { files: Record<string, string>; builds: string[] }> = {
  'github-actions': {
    files: {
      '.github/workflows/release.yaml': 'jobs:\n  a:\n    steps:\n      - uses: docker/build-push-action@v6\n        with:\n          context: app\n          tags: ghcr.io/acme/app:1\n      - run: docker build -t ghcr.io/acme/tool:1 tool\n',
      'app/Dockerfile': 'FROM alpine\n',
      'tool/Dockerfile': 'FROM alpine\n',
    },
    builds: ['ghcr.io/acme/app', 'ghcr.io/acme/tool'],
  },
  bake: {
    files: {
      'docker-bake.hcl': 'variable "REG" {\n  default = "ghcr.io/acme"\n}\ngroup "default" {\n  targets = ["app"]\n}\ntarget "app" {\n  context = "app"\n  tags = ["${REG}/app:latest"]\n}\n',
      'app/Dockerfile': 'FROM alpine\n',
    },
    builds: ['ghcr.io/acme/app'],
  },
  compose: {
    files: {
      'compose.yaml': 'services:\n  app:\n    build:\n      context: app\n    image: ${REG:-ghcr.io/acme}/app:${TAG}\n  db:\n    image: postgres:16\n',
      '.env': 'TAG=1.0\n',
      'app/Dockerfile': 'FROM alpine\n',
    },
    builds: ['ghcr.io/acme/app'],
  },
  goreleaser: {
    files: {
      '.goreleaser.yaml': 'builds:\n  - id: app\n    main: ./cmd/app\ndockers:\n  - image_templates:\n      - "ghcr.io/acme/app:{{ .Version }}"\nkos:\n  - repositories: [ghcr.io/acme/ko]\n    main: ./cmd/app\n',
      Dockerfile: 'FROM alpine\nCOPY app /app\n',
      'cmd/app/main.go': 'package main\n',
    },
    builds: ['ghcr.io/acme/app', 'ghcr.io/acme/ko'],
  },
  skaffold: {
    files: {
      'skaffold.yaml': 'apiVersion: skaffold/v4beta11\nkind: Config\nbuild:\n  artifacts:\n    - image: ghcr.io/acme/web\n      context: web\n    - image: ghcr.io/acme/api\n      ko:\n        main: ./cmd/api\n',
      'web/Dockerfile': 'FROM alpine\n',
      'go.mod': 'module example.com/acme\n',
      'cmd/api/main.go': 'package main\n',
    },
    builds: ['ghcr.io/acme/api', 'ghcr.io/acme/web'],
  },
  cloudbuild: {
    files: {
      'cloudbuild.yaml': "steps:\n  - name: gcr.io/cloud-builders/docker\n    args: ['build', '-t', 'gcr.io/acme/app:$SHORT_SHA', 'app']\n  - name: ghcr.io/ko-build/ko\n    env: ['KO_DOCKER_REPO=gcr.io/acme']\n    args: ['build', '--bare', './cmd/api']\n",
      'app/Dockerfile': 'FROM alpine\n',
      'go.mod': 'module example.com/acme\n',
      'cmd/api/main.go': 'package main\n',
    },
    builds: ['gcr.io/acme', 'gcr.io/acme/app'],
  },
};

describe('every recipe kind conforms to the one BuildRecipe model', () => {
  it('has a fixture for every reader', () => {
    expect(RECIPE_READERS.map((r) => r.kind).sort()).toEqual(Object.keys(FIXTURES).sort());
  });
  for (const reader of RECIPE_READERS) {
    it(reader.kind, () => {
      const fixture = FIXTURES[reader.kind as keyof typeof FIXTURES];
      const root = mkdtempSync(join(tmpdir(), `pinwatch-kind-${reader.kind}-`));
      try {
        for (const [f, text] of Object.entries(fixture.files)) {
          mkdirSync(dirname(join(root, f)), { recursive: true });
          writeFileSync(join(root, f), text);
        }
        const files = reader.find(root, []);
        expect(files.length).toBeGreaterThan(0);
        const problems: Problem[] = [];
        const recipes = files.flatMap((f) => reader.read(root, f, problems));
        expect(problems).toEqual([]);
        expect(recipes.flatMap((r) => r.repositories).sort()).toEqual(fixture.builds);
        for (const r of recipes) {
          expect(r.kind).toBe(reader.kind);
          expect(files).toContain(r.makefile);
          expect(r.line).toBeGreaterThanOrEqual(1);
          expect(r.line).toBeLessThanOrEqual(fixture.files[r.makefile]!.split('\n').length);
          expect(r.target).not.toBe('');
          for (const p of [r.context, r.dockerfile, r.ko?.main ?? '']) expect(p.startsWith('/') || p.startsWith('..')).toBe(false);
          expect(r.command).not.toBe('');
        }
        expect(reader.find(root, [files[0]!])).not.toContain(files[0]);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});
