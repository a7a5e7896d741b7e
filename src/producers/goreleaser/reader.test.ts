import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../model/index.js';
import { deriveBuildInputs } from '../../sources/index.js';
import { readGoreleaser } from './reader.js';
import { findGoreleaserFiles } from '../finders.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'pinwatch-goreleaser-'));
  const files: Record<string, string> = {
    'go.mod': 'module example.com/acme\n\ngo 1.22\n',
    'go.sum': '',
    'cmd/app/main.go': 'package main\n\nimport _ "example.com/acme/internal/x"\n\nfunc main() {}\n',
    'cmd/tool/main.go': 'package main\n\nfunc main() {}\n',
    'internal/x/x.go': 'package x\n',
    'internal/unused/u.go': 'package unused\n',
    Dockerfile: 'FROM alpine AS release\nCOPY app /usr/bin/app\nCOPY config.yaml /etc/app/\n',
    'config.yaml': 'a: 1\n',
  };
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FILE = '.goreleaser.yaml';
function read(text: string) {
  const problems: Problem[] = [];
  return { recipes: readGoreleaser(root, FILE, text, problems), problems };
}

const CONFIG = `project_name: acme
builds:
  - id: app
    main: ./cmd/app
  - id: tool
    main: ./cmd/tool/main.go
dockers:
  - id: app-amd64
    ids: [app]
    image_templates:
      - "ghcr.io/acme/{{ .ProjectName }}:{{ .Version }}-amd64"
      - "ghcr.io/acme/{{ .ProjectName }}:latest"
    build_flag_templates:
      - "--platform=linux/amd64"
      - "--build-arg=VERSION={{ .Version }}"
      - "--target=release"
      - "--label=org.opencontainers.image.version={{ .Version }}"
    extra_files:
      - config.yaml
dockers_v2:
  - ids: [tool]
    images: ["ghcr.io/acme/tool", "docker.io/acme/tool"]
    tags: ["{{ .Tag }}"]
    platforms: [linux/amd64, linux/arm64]
    build_args:
      MODE: prod
kos:
  - build: app
    repositories: [ghcr.io/acme/app-ko]
    tags: ["{{ .Tag }}", latest]
`;

describe('readGoreleaser', () => {
  it('dockers, dockers_v2 and kos: repositories, Dockerfile, flags, inputs (config, extra files, Go mains of their builds)', () => {
    const { recipes, problems } = read(CONFIG);
    expect(recipes.map((r) => [r.target, r.line, r.dockerfile, r.context, r.stage, r.repositories])).toEqual([
      ['dockers[0] (app-amd64)', 8, 'Dockerfile', '.', 'release', ['ghcr.io/acme/acme']],
      ['dockers_v2[0]', 21, 'Dockerfile', '.', undefined, ['ghcr.io/acme/tool', 'docker.io/acme/tool']],
      ['kos[0]', 28, '', '.', undefined, ['ghcr.io/acme/app-ko']],
    ]);
    expect(recipes[0]!.inputs).toEqual([
      { path: '.goreleaser.yaml', kind: 'file', why: 'goreleaser config of dockers[0] (app-amd64)' },
      { path: 'config.yaml', why: 'extra_files of dockers[0] (app-amd64) (.goreleaser.yaml:19)' },
      { path: 'cmd/app', go: true, why: 'go build cmd/app (.goreleaser.yaml:3, binary of dockers[0] (app-amd64))' },
    ]);
    expect(recipes[1]!.inputs!.at(-1)).toMatchObject({ path: 'cmd/tool', go: true });
    expect(recipes[2]!.inputs!.at(-1)).toMatchObject({ path: 'cmd/app', go: true });
    expect(recipes[0]!.command).toBe("goreleaser dockers[0] (app-amd64): docker buildx build --file Dockerfile --target release --build-arg VERSION=⟨tmpl .Version⟩ --platform linux/amd64 --tag ghcr.io/acme/acme:⟨tmpl .Version⟩-amd64 --tag ghcr.io/acme/acme:latest '<goreleaser context>'");
    // VERSION={{ .Version }} is known at release time only: the Dockerfile's ARG VERSION has no value here, no problem
    expect(problems).toEqual([]);
  });

  it('a template in an image name, an unknown build id, a ko image with no repository are problems', () => {
    const { recipes, problems } = read('builds:\n  - id: a\ndockers:\n  - ids: [nope]\n    image_templates: ["{{ .Env.REGISTRY }}/app:1"]\nkos:\n  - main: ./cmd/tool\n');
    expect(recipes.map((r) => r.repositories)).toEqual([[], []]);
    expect(problems.map((p) => [p.line, p.code])).toEqual([[4, 'goreleaser-build-unknown'], [4, 'recipe-tag-unreadable'], [7, 'recipe-tag-unreadable']]);
    expect(problems[2]!.reason).toContain('KO_DOCKER_REPO');
  });

  it('reads builds and dockers through YAML merge keys (flux2: `- <<: &build_defaults` holding binary and main)', () => {
    const text = 'builds:\n  - <<: &build_defaults\n      binary: flux\n      main: ./cmd/flux\n    id: linux\n  - <<: *build_defaults\n    id: darwin\n    main: ./cmd/other\nx-docker: &docker\n  image_templates: ["ghcr.io/acme/flux:{{ .Tag }}"]\ndockers:\n  - <<: *docker\n    ids: [linux]\n  - <<: *docker\n    ids: [darwin]\n';
    const { recipes, problems } = read(text);
    expect(problems).toEqual([]);
    expect(recipes.map((r) => [r.repositories, r.inputs!.at(-1)])).toEqual([
      [['ghcr.io/acme/flux'], { path: 'cmd/flux', go: true, why: 'go build cmd/flux (.goreleaser.yaml:2, binary of dockers[0])' }],
      [['ghcr.io/acme/flux'], { path: 'cmd/other', go: true, why: 'go build cmd/other (.goreleaser.yaml:6, binary of dockers[1])' }],
    ]);
  });

  it('finds .goreleaser.yml / goreleaser.yaml files', () => {
    writeFileSync(join(root, '.goreleaser.yml'), CONFIG);
    mkdirSync(join(root, '.github/workflows'), { recursive: true });
    writeFileSync(join(root, '.github/workflows/goreleaser.yml'), 'jobs: {}\n');
    expect(findGoreleaserFiles(root, [])).toEqual(['.goreleaser.yml']);
  });

  it('derives inputs: the Dockerfile, the config, extra files, and the Go import closure of the binary (not other packages)', async () => {
    const recipe = read(CONFIG).recipes[0]!;
    const got = await deriveBuildInputs(root, { image: 'acme', recipe });
    expect(got.unknownReason).toBeUndefined();
    const paths = got.inputs.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['Dockerfile', '.goreleaser.yaml', 'config.yaml', 'cmd/app/', 'internal/x/', 'go.mod', 'go.sum']));
    expect(paths).not.toContain('internal/unused/');
    expect(paths).not.toContain('cmd/tool/');
    const ko = await deriveBuildInputs(root, { image: 'app-ko', recipe: read(CONFIG).recipes[2]! });
    expect(ko.inputs.map((i) => i.path).sort()).toEqual(['.goreleaser.yaml', 'cmd/app/', 'go.mod', 'go.sum', 'internal/x/']);
    expect(ko.steps[0]).toBe('no Dockerfile: inputs from recipe .goreleaser.yaml:28');
  });
});
