/**
 * The ko builder, table-driven from ko's docs: repository naming modes,
 * command lines (build/publish/resolve/apply, flags, KO_DOCKER_REPO), `.ko.yaml`
 * (defaultBaseImage, baseImageOverrides, builds), and ko builds resolved
 * against a tree into BuildRecipes, with each problem.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../model/index.js';
import { readCommands } from '../commands.js';
import { recipesOfBuild } from '../assemble.js';
import { KO_DEFAULT_BASE_IMAGE, koRepository, namingOf, parseKoConfig, readKoArgs } from './index.js';

describe('ko repository naming (KO_DOCKER_REPO + import path)', () => {
  const ip = 'github.com/acme/app/cmd/app';
  const cases: [string, string[], string][] = [
    ['default: last element and md5 of the import path', [], 'ghcr.io/acme/app-14c2dc59886c8cd6eb0e74eaca05664b'],
    ['--bare: KO_DOCKER_REPO itself', ['--bare'], 'ghcr.io/acme'],
    ['-B: last element', ['-B'], 'ghcr.io/acme/app'],
    ['--base-import-paths', ['--base-import-paths'], 'ghcr.io/acme/app'],
    ['-P: the whole import path', ['-P'], 'ghcr.io/acme/github.com/acme/app/cmd/app'],
    ['the last flag wins', ['--bare', '-B'], 'ghcr.io/acme/app'],
    ['--bare=false is no flag', ['--bare=false'], 'ghcr.io/acme/app-14c2dc59886c8cd6eb0e74eaca05664b'],
  ];
  for (const [name, flags, want] of cases) it(name, () => expect(koRepository('ghcr.io/acme/', ip, namingOf(flags))).toBe(want));
  it('lowercases (image names are lowercase)', () => expect(koRepository('ghcr.io/Acme', 'github.com/Acme/App', 'base')).toBe('ghcr.io/acme/app'));
});

describe('ko command lines', () => {
  const env = new Map([['KO_DOCKER_REPO', 'ghcr.io/acme']]);
  const cases: { argv: string[]; want: Record<string, unknown> | undefined }[] = [
    { argv: ['ko', 'build', './cmd/app'], want: { verb: 'build', imports: ['./cmd/app'], naming: 'md5', dockerRepo: 'ghcr.io/acme' } },
    { argv: ['ko', 'build', '--bare', '--platform=linux/amd64,linux/arm64', '-t', 'v1,latest', 'ko://github.com/acme/app/cmd/app'], want: { imports: ['ko://github.com/acme/app/cmd/app'], naming: 'bare', platforms: ['linux/amd64', 'linux/arm64'], tags: ['v1', 'latest'] } },
    { argv: ['ko', 'publish', '-B', './cmd/a', './cmd/b'], want: { verb: 'publish', imports: ['./cmd/a', './cmd/b'], naming: 'base' } },
    { argv: ['ko', 'build'], want: { imports: ['.'] } },
    { argv: ['ko', 'resolve', '-P', '-f', 'config/', '-R'], want: { verb: 'resolve', imports: [], files: ['/w/config'], recursive: true, naming: 'preserve' } },
    { argv: ['ko', 'apply', '--filename=deploy.yaml', '--', '--context=x'], want: { verb: 'apply', files: ['/w/deploy.yaml'] } },
    { argv: ['/usr/local/bin/ko', '--verbose', 'build', '.'], want: { imports: ['.'] } },
    { argv: ['ko', 'version'], want: undefined },
    { argv: ['kubectl', 'apply', '-f', 'x'], want: undefined },
  ];
  for (const c of cases) {
    it(c.argv.join(' '), () => {
      const r = readKoArgs(c.argv, '/w', env);
      if (c.want === undefined) expect(r).toBeUndefined();
      else expect(r).toMatchObject(c.want);
    });
  }
  it('KO_DOCKER_REPO unset or empty is undefined', () => {
    expect(readKoArgs(['ko', 'build', '.'], '/w', new Map())?.dockerRepo).toBeUndefined();
    expect(readKoArgs(['ko', 'build', '.'], '/w', new Map([['KO_DOCKER_REPO', '']]))?.dockerRepo).toBeUndefined();
  });
});

describe('.ko.yaml', () => {
  it('reads defaultBaseImage, baseImageOverrides and builds', () => {
    const problems: Problem[] = [];
    const c = parseKoConfig(
      'defaultBaseImage: gcr.io/distroless/static:nonroot\nbaseImageOverrides:\n  github.com/acme/app/cmd/tool: alpine:3.20\nbuilds:\n  - id: app\n    dir: .\n    main: ./cmd/app\n    ldflags:\n      - -s -w\n      - -X main.version={{.Env.VERSION}}\n  - id: other\n    main: github.com/acme/app/cmd/other\n',
      '.ko.yaml',
      '/w',
      problems,
    );
    expect(problems).toEqual([]);
    expect(c).toMatchObject({
      defaultBaseImage: 'gcr.io/distroless/static:nonroot',
      baseImageOverrides: { 'github.com/acme/app/cmd/tool': 'alpine:3.20' },
      builds: [
        { id: 'app', dirAbs: '/w', main: './cmd/app', ldflags: ['-s -w', '-X main.version={{.Env.VERSION}}'], line: 5 },
        { id: 'other', dirAbs: '/w', main: 'github.com/acme/app/cmd/other', ldflags: [], line: 11 },
      ],
    });
  });
  const bad: [string, string, number][] = [
    ['not YAML', 'builds: [\n', 2],
    ['not a mapping', '- a\n', 1],
    ['defaultBaseImage not a string', 'defaultBaseImage: [a]\n', 1],
    ['builds not a list', 'builds: x\n', 1],
  ];
  for (const [name, text, line] of bad) {
    it(`problem: ${name}`, () => {
      const problems: Problem[] = [];
      parseKoConfig(text, '.ko.yaml', '/w', problems);
      expect(problems).toEqual([expect.objectContaining({ file: '.ko.yaml', line, code: 'ko-config-unreadable' })]);
    });
  }
});

describe('ko builds as recipes', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'pinwatch-ko-'));
    const files: Record<string, string> = {
      'go.mod': 'module github.com/acme/app\n\ngo 1.22\n',
      'cmd/app/main.go': 'package main\n',
      'cmd/tool/main.go': 'package main\n',
      '.ko.yaml': 'defaultBaseImage: gcr.io/distroless/static\nbaseImageOverrides:\n  github.com/acme/app/cmd/tool: alpine:3.20\nbuilds:\n  - id: app\n    main: ./cmd/app\n    ldflags: ["-s"]\n',
      'config/deploy.yaml': 'spec:\n  containers:\n    - image: ko://github.com/acme/app/cmd/app\n    - image: ko://github.com/acme/app/cmd/tool\n',
    };
    for (const [f, t] of Object.entries(files)) {
      mkdirSync(dirname(join(root, f)), { recursive: true });
      writeFileSync(join(root, f), t);
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const recipes = (line: string, env: Record<string, string> = { KO_DOCKER_REPO: 'ghcr.io/acme' }) => {
    const problems: Problem[] = [];
    const facts = readCommands([{ text: line, file: 'Makefile', line: 3 }], root, { env: new Map(Object.entries(env)) });
    const out = facts.builds.flatMap((b) => recipesOfBuild(root, { kind: 'make', file: 'Makefile', name: 'image', label: 'Makefile:image' }, b, [], problems));
    return { out, problems };
  };

  it('ko build ./cmd/app: its main package, module, .ko.yaml build and base image', () => {
    const { out, problems } = recipes('ko build --bare ./cmd/app');
    expect(problems).toEqual([]);
    expect(out).toEqual([
      expect.objectContaining({
        kind: 'make',
        line: 3,
        dockerfile: '',
        context: 'cmd/app',
        repositories: ['ghcr.io/acme'],
        ko: { main: 'cmd/app', importPath: 'github.com/acme/app/cmd/app', moduleDir: '.', config: '.ko.yaml', baseImage: 'gcr.io/distroless/static', ldflags: ['-s'] },
      }),
    ]);
  });

  it('an import path and baseImageOverrides; KO_DOCKER_REPO from an inline assignment', () => {
    const { out } = recipes('KO_DOCKER_REPO=ghcr.io/other ko build -B github.com/acme/app/cmd/tool', {});
    expect(out.map((r) => [r.repositories, r.ko?.baseImage, r.ko?.main])).toEqual([[['ghcr.io/other/tool'], 'alpine:3.20', 'cmd/tool']]);
  });

  it('ko resolve -f: every ko:// ref in the files is a build', () => {
    const { out } = recipes('ko resolve -B -f config/ > release.yaml');
    expect(out.map((r) => r.repositories[0])).toEqual(['ghcr.io/acme/app', 'ghcr.io/acme/tool']);
  });

  const problemCases: { name: string; line: string; env?: Record<string, string>; code: string; reason: RegExp }[] = [
    { name: 'KO_DOCKER_REPO unset', line: 'ko build ./cmd/app', env: {}, code: 'ko-docker-repo-unknown', reason: /KO_DOCKER_REPO is not set where Makefile:image runs ko.*set buildEnv.KO_DOCKER_REPO/ },
    // one problem for the invocation, naming every image it leaves without a repository (tektoncd/pipeline's `ko apply -f config/`)
    { name: 'KO_DOCKER_REPO unset, several images', line: 'ko resolve -B -f config/', env: {}, code: 'ko-docker-repo-unknown', reason: /so the repositories of its 2 images \(github.com\/acme\/app\/cmd\/app, github.com\/acme\/app\/cmd\/tool\) are unknown/ },
    { name: 'a package of another module', line: 'ko build github.com/other/x', code: 'recipe-context-unknown', reason: /not a package of module github.com\/acme\/app/ },
    { name: 'a missing directory', line: 'ko build ./cmd/none', code: 'recipe-context-unknown', reason: /cmd\/none is not a directory/ },
    { name: 'a pattern', line: 'ko build ./cmd/...', code: 'recipe-context-unknown', reason: /a package pattern/ },
    { name: 'resolve from stdin', line: 'ko resolve -f -', code: 'ko-files-unknown', reason: /cannot be told from the tree/ },
  ];
  for (const c of problemCases) {
    it(`problem: ${c.name}`, () => {
      const { problems } = recipes(c.line, c.env);
      expect(problems).toEqual([expect.objectContaining({ file: 'Makefile', line: 3, code: c.code, reason: expect.stringMatching(c.reason) })]);
    });
  }

  it('the default base image when .ko.yaml sets none', () => {
    expect(KO_DEFAULT_BASE_IMAGE).toMatch(/^cgr\.dev\/chainguard\/static/);
  });
});
