import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildRecipe } from '../../src/producers/types.js';
import { deriveBuildInputs, inputMatcher } from '../../src/sources/index.js';
import type { BuildInputs } from '../../src/sources/types.js';

const DOCKERFILE = `# syntax=docker/dockerfile:1.7
FROM golang:1.22 AS build
WORKDIR /src
COPY go.mod go.sum ./
COPY . .
ARG CMD=a
RUN CGO_ENABLED=0 go build \\
      -o /out ./cmd/\${CMD}

FROM alpine AS unused
COPY docs /docs

FROM scratch AS final
COPY --from=build /out /out
COPY config.yaml /etc/
ADD https://example.test/ca.pem /etc/ca.pem
`;

const MODULE: Record<string, string> = {
  'go.mod': 'module example.com/mono\n\ngo 1.22\n\nreplace example.com/mono/lib => ./lib\n',
  'go.sum': '',
  'cmd/a/main.go': 'package main\n\nimport (\n\t"fmt"\n\t"example.com/mono/internal/shared"\n\t"example.com/mono/internal/onlya"\n\tapi "example.com/mono/nested/api"\n\t"example.com/mono/lib/util"\n)\n\nfunc main() { fmt.Println(shared.X, onlya.X, api.X, util.X) }\n',
  'cmd/a/main_test.go': 'package main\n\nimport "example.com/mono/internal/testonly"\n',
  'cmd/a/tools.go': '//go:build ignore\n\npackage main\n\nimport _ "example.com/mono/internal/ignored"\n',
  'cmd/b/main.go': 'package main\n\nimport (\n\t"example.com/mono/internal/shared"\n\t"example.com/mono/internal/onlyb"\n)\n\nfunc main() { _ = shared.X; _ = onlyb.X }\n',
  'internal/shared/shared.go': 'package shared\n\nimport (\n\t"embed"\n\t"example.com/mono/internal/deep"\n)\n\n//go:embed templates/*.tmpl\nvar T embed.FS\n\nvar X = deep.X\n',
  'internal/shared/templates/x.tmpl': 'hi',
  'internal/shared/sub/other.go': 'package sub\n',
  'internal/shared/README.md': '# not compiled\n',
  'cmd/a/.fossa.yml': 'version: 3\n',
  'cmd/a/asm_amd64.s': '// assembly the package builds\n',
  'internal/shared/testdata/fixture.go': 'package fixture\n',
  'internal/deep/deep.go': 'package deep\n\nvar X = 1\n',
  'internal/onlya/a.go': 'package onlya\n\nvar X = 1\n',
  'internal/onlyb/b.go': 'package onlyb\n\nvar X = 1\n',
  'internal/testonly/t.go': 'package testonly\n',
  'internal/ignored/i.go': 'package ignored\n',
  'nested/go.mod': 'module example.com/mono/nested\n',
  'nested/api/api.go': 'package api\n\nvar X = 1\n',
  'lib/go.mod': 'module example.com/mono/lib\n',
  'lib/util/util.go': 'package util\n\nimport "example.com/mono/lib/inner"\n\nvar X = inner.X\n',
  'lib/inner/inner.go': 'package inner\n\nvar X = 1\n',
  'docs/readme.md': '# docs',
  'config.yaml': 'a: 1',
  'README.md': '# x',
  'build/Dockerfile': DOCKERFILE,
  'build/Dockerfile.dockerignore': 'docs\n*.md\n',
  'patches/Dockerfile': 'FROM alpine AS src\nRUN apk add curl && curl -sSL https://example.test/src.tgz | tar -xz\nCOPY fixes /fixes\nRUN --mount=type=bind,source=scripts,target=/s sh /s/apply.sh\nFROM scratch\nCOPY --from=src /out /out\n',
  'patches/fixes/1.diff': 'diff',
  'patches/scripts/apply.sh': 'true',
  'prebuilt/Dockerfile': 'FROM scratch\nCOPY bin/app /app\n',
  'e2e/app/Dockerfile': 'FROM golang AS b\nWORKDIR /app\nCOPY main.go .\nRUN go build -o /app/x main.go\nFROM scratch\nCOPY --from=b /app/x /x\n',
  'e2e/app/main.go': 'package main\n\nimport "example.com/mono/internal/deep"\n\nfunc main() { _ = deep.X }\n',
  'prebuilt/cmd/app/main.go': 'package main\n\nfunc main() {}\n',
  'glob/Dockerfile': 'FROM scratch\nARG TARGETARCH\nCOPY bin/manager_${TARGETARCH} /manager\n',
  'glob/bin/.keep': '',
  'built/Dockerfile': 'FROM scratch\nARG TARGETARCH\nCOPY bin/manager_${TARGETARCH} /manager\n',
  'built/bin/manager_amd64': 'ELF',
};

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'pinwatch-sources-'));
  for (const [path, content] of Object.entries(MODULE)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const recipe = (over: Partial<BuildRecipe> = {}): BuildRecipe => ({
  makefile: 'Makefile',
  target: 'image',
  line: 12,
  dockerfile: 'build/Dockerfile',
  context: '.',
  repositories: ['ghcr.io/acme/a'],
  stamps: [],
  command: 'docker buildx build -f build/Dockerfile .',
  ...over,
});

const matched = (inputs: BuildInputs, paths: string[]) => {
  const m = inputMatcher(inputs);
  return paths.filter((p) => m.match(p));
};

describe('deriveBuildInputs on a Go monorepo', () => {
  const candidates = Object.keys(MODULE);

  it('narrows COPY . . to the import closure of the built command', async () => {
    const r = await deriveBuildInputs(root, { image: 'a', recipe: recipe() });
    expect(r.unknownReason).toBeUndefined();
    expect(matched(r, candidates).sort()).toEqual(
      [
        'build/Dockerfile',
        'build/Dockerfile.dockerignore',
        'cmd/a/asm_amd64.s',
        'cmd/a/main.go',
        'config.yaml',
        'go.mod',
        'go.sum',
        'internal/deep/deep.go',
        'internal/onlya/a.go',
        'internal/shared/shared.go',
        'internal/shared/templates/x.tmpl',
        'lib/go.mod',
        'lib/inner/inner.go',
        'lib/util/util.go',
      ].sort(),
    );
    expect(r.steps).toContain('go build ./cmd/a (Dockerfile:7) → 6 packages in module example.com/mono');
    expect(r.steps.some((s) => s.includes('nested module nested'))).toBe(true);
    expect(r.steps.some((s) => s.startsWith('cmd/a/tools.go: //go:build ignore'))).toBe(true);
    expect(r.steps.some((s) => s.includes('https://example.test/ca.pem') && s.includes('URL'))).toBe(true);
    expect(r.inputs.find((i) => i.path === 'internal/shared/')).toMatchObject({ kind: 'files' });
  });

  it('a --build-arg in the recipe picks the other command', async () => {
    const r = await deriveBuildInputs(root, { image: 'b', recipe: recipe({ command: 'docker buildx build --build-arg CMD=b -f build/Dockerfile .' }) });
    const hits = matched(r, candidates);
    expect(hits).toContain('internal/onlyb/b.go');
    expect(hits).toContain('internal/shared/shared.go');
    expect(hits).not.toContain('internal/onlya/a.go');
    expect(hits).not.toContain('lib/util/util.go');
  });

  it('a --build-arg known only when the build runs overrides the default with nothing: every command may be built', async () => {
    const run = (arg: string) => deriveBuildInputs(root, { image: 'x', recipe: recipe({ command: `docker/build-push-action@v6: docker buildx build --file build/Dockerfile --build-arg ${arg} .` }) });
    const r0 = await run("'CMD=⟨expr steps.prep.outputs.CMD⟩'");
    expect(r0.steps).toContain('go build ./cmd/${CMD} (Dockerfile:7): "./cmd/${CMD}" names a variable with no value here; no Go narrowing');
    const unknown = matched(r0, candidates);
    expect(unknown).toContain('internal/onlya/a.go');
    expect(unknown).toContain('internal/onlyb/b.go');
    // quoted, a known value is read whole
    const quoted = matched(await run('"CMD=b"'), candidates);
    expect(quoted).toContain('internal/onlyb/b.go');
    expect(quoted).not.toContain('internal/onlya/a.go');
  });

  it('a shell glob of files (go build cmd/a/*.go: kubeflow) builds their package: its import closure, not one literal path', async () => {
    writeFileSync(join(root, 'build/Dockerfile.glob'), 'FROM golang\nWORKDIR /src\nCOPY . .\nRUN go build -o /out/a cmd/a/*.go\n');
    const r = await deriveBuildInputs(root, { image: 'glob', recipe: recipe({ dockerfile: 'build/Dockerfile.glob' }) });
    const hits = matched(r, candidates);
    expect(hits).toEqual(expect.arrayContaining(['cmd/a/main.go', 'internal/shared/shared.go', 'internal/deep/deep.go', 'internal/onlya/a.go']));
    expect(hits).not.toContain('internal/onlyb/b.go');
  });

  it("a go.mod the build does not copy in is not its module (opentelemetry-operator's e2e apps): the copied file is the input, not the module's closure", async () => {
    const r = await deriveBuildInputs(root, { image: 'e2e', recipe: recipe({ dockerfile: 'e2e/app/Dockerfile', context: 'e2e/app' }) });
    expect(r.unknownReason).toBeUndefined();
    expect(r.inputs.map((i) => i.path)).toEqual(['e2e/app/Dockerfile', 'e2e/app/main.go']);
    expect(r.steps).toContain('go build main.go (Dockerfile:4): go.mod is not copied into the build; no Go narrowing');
  });

  it('./cmd/... builds both commands', async () => {
    writeFileSync(join(root, 'build/Dockerfile.all'), 'FROM golang\nWORKDIR /src\nCOPY . .\nRUN go build -o /out/ ./cmd/...\n');
    const r = await deriveBuildInputs(root, { image: 'all', recipe: recipe({ dockerfile: 'build/Dockerfile.all' }) });
    const hits = matched(r, candidates);
    expect(hits).toEqual(expect.arrayContaining(['internal/onlya/a.go', 'internal/onlyb/b.go', 'cmd/b/main.go']));
    expect(hits).not.toContain('internal/testonly/t.go');
    expect(hits).not.toContain('docs/readme.md');
  });

  it('without a go build the copied tree stays whole (minus .dockerignore)', async () => {
    writeFileSync(join(root, 'build/Dockerfile.nogo'), 'FROM alpine\nCOPY . /app\n');
    const r = await deriveBuildInputs(root, { image: 'nogo', recipe: recipe({ dockerfile: 'build/Dockerfile.nogo' }) });
    const hits = matched(r, [...candidates, 'build/Dockerfile.nogo']);
    expect(hits).toContain('internal/onlyb/b.go');
    expect(hits).toContain('README.md'); // build/Dockerfile.dockerignore belongs to build/Dockerfile only
    expect(hits).toContain('build/Dockerfile.nogo');
    writeFileSync(join(root, '.dockerignore'), '*.md\nbuild\n');
    try {
      const again = await deriveBuildInputs(root, { image: 'nogo', recipe: recipe({ dockerfile: 'build/Dockerfile.nogo' }) });
      const after = matched(again, [...candidates, 'build/Dockerfile.nogo']);
      expect(after).not.toContain('README.md');
      expect(after).not.toContain('build/Dockerfile');
      expect(after).toContain('build/Dockerfile.nogo'); // the Dockerfile is always an input
      expect(after).toContain('docs/readme.md'); // *.md is top-level only
    } finally {
      rmSync(join(root, '.dockerignore'));
    }
  });

  it('a go build over a bind mount of the context is narrowed too', async () => {
    writeFileSync(join(root, 'build/Dockerfile.mount'), 'FROM golang AS b\nWORKDIR /src\nRUN --mount=type=bind,target=. ["go", "build", "-o", "/out", "example.com/mono/cmd/b"]\nFROM scratch\nCOPY --from=b /out /out\n');
    const r = await deriveBuildInputs(root, { image: 'mount', recipe: recipe({ dockerfile: 'build/Dockerfile.mount' }) });
    expect(r.steps).toContain('go build example.com/mono/cmd/b (Dockerfile.mount:3) → 4 packages in module example.com/mono');
    const hits = matched(r, candidates);
    expect(hits).toContain('internal/onlyb/b.go');
    expect(hits).not.toContain('internal/onlya/a.go');
    expect(hits).not.toContain('config.yaml');
  });

  it('make in the build stage keeps the tree whole and says why', async () => {
    writeFileSync(join(root, 'build/Dockerfile.make'), 'FROM golang\nWORKDIR /src\nCOPY . .\nRUN make generate\nRUN go build ./cmd/a\n');
    const r = await deriveBuildInputs(root, { image: 'make', recipe: recipe({ dockerfile: 'build/Dockerfile.make' }) });
    expect(matched(r, candidates)).toContain('internal/onlyb/b.go');
    expect(r.steps.some((s) => s.includes('copied directories are kept whole'))).toBe(true);
  });

  it('copies from stages are not inputs; bind mounts are; unused stages are pruned', async () => {
    const r = await deriveBuildInputs(root, { image: 'p', recipe: recipe({ dockerfile: 'patches/Dockerfile', context: 'patches' }) });
    expect(r.inputs.map((i) => i.path)).toEqual(['patches/Dockerfile', 'patches/fixes/', 'patches/scripts/']);
    expect(r.steps.some((s) => s.startsWith('RUN (Dockerfile:2) downloads with curl'))).toBe(true);
    expect(matched(r, ['patches/fixes/1.diff', 'patches/scripts/apply.sh', 'docs/readme.md'])).toEqual(['patches/fixes/1.diff', 'patches/scripts/apply.sh']);
  });

  it('installing curl is not downloading with it', async () => {
    writeFileSync(join(root, 'build/Dockerfile.apk'), 'FROM alpine\nRUN apk add --no-cache curl wget git\n');
    const r = await deriveBuildInputs(root, { image: 'apk', recipe: recipe({ dockerfile: 'build/Dockerfile.apk' }) });
    expect(r.steps.filter((s) => s.includes('downloads'))).toEqual([]);
  });

  it('the target stage decides which stages count', async () => {
    const r = await deriveBuildInputs(root, { image: 'u', recipe: recipe({ stage: 'unused' }) });
    expect(r.inputs.map((i) => i.path)).toContain('docs/');
    expect(matched(r, ['docs/readme.md'])).toEqual([]); // the .dockerignore drops docs/ from the context
    expect(r.inputs.map((i) => i.path)).not.toContain('config.yaml');
  });
});

describe('deriveBuildInputs with config and unknowns', () => {
  it('Dockerfile that does not exist', async () => {
    const r = await deriveBuildInputs(root, { image: 'x', recipe: recipe({ dockerfile: 'packages/x/Dockerfile', context: 'packages/x' }) });
    expect(r.unknownReason).toBe('Dockerfile packages/x/Dockerfile does not exist (from recipe Makefile:12)');
    expect(r.inputs).toEqual([]);
  });

  it('a context outside the repository', async () => {
    const r = await deriveBuildInputs(root, { image: 'x', recipe: recipe({ context: '../..', dockerfile: '../../Dockerfile' }) });
    expect(r.unknownReason).toBe('../../Dockerfile is outside the repository (from recipe Makefile:12)');
  });

  it('no recipe and no config', async () => {
    const r = await deriveBuildInputs(root, { image: 'ghcr.io/acme/x' });
    expect(r.unknownReason).toBe('no build recipe or config names how ghcr.io/acme/x is built; declare images.ghcr.io/acme/x in pinwatch.yaml');
  });

  it('unknown target stage', async () => {
    const r = await deriveBuildInputs(root, { image: 'x', recipe: recipe({ stage: 'nope' }) });
    expect(r.unknownReason).toMatch(/target stage "nope" is not in the Dockerfile \(stages: build, unused, final\)/);
  });

  it('derive: false uses only the declared inputs', async () => {
    const r = await deriveBuildInputs(root, { image: 'x', recipe: recipe(), config: { derive: false, inputs: ['internal/', 'cmd/**/*.go'], ignore: ['**/*_test.go'] } });
    expect(r.inputs.map((i) => i.path)).toEqual(['internal/', 'cmd/**/*.go']);
    expect(matched(r, ['cmd/a/main.go', 'cmd/a/main_test.go', 'internal/onlyb/b.go', 'go.mod'])).toEqual(['cmd/a/main.go', 'internal/onlyb/b.go']);
  });

  it('derive: false without inputs is unknown', async () => {
    const r = await deriveBuildInputs(root, { image: 'x', config: { derive: false } });
    expect(r.unknownReason).toMatch(/derive: false but declares no inputs/);
  });

  it('config inputs add to derivation and config ignore subtracts', async () => {
    const r = await deriveBuildInputs(root, { image: 'x', recipe: recipe(), config: { inputs: ['hack/version.txt'], ignore: ['config.yaml'] } });
    expect(matched(r, ['hack/version.txt', 'config.yaml', 'cmd/a/main.go'])).toEqual(['hack/version.txt', 'cmd/a/main.go']);
  });

  it('config dockerfile and context without a recipe', async () => {
    const r = await deriveBuildInputs(root, { image: 'x', config: { dockerfile: 'patches/Dockerfile', context: 'patches' } });
    expect(r.unknownReason).toBeUndefined();
    expect(r.steps[0]).toContain('(from pinwatch.yaml images.x)');
    expect(matched(r, ['patches/fixes/1.diff'])).toEqual(['patches/fixes/1.diff']);
  });

  it('config inputs rescue a missing Dockerfile', async () => {
    const r = await deriveBuildInputs(root, { image: 'x', recipe: recipe({ dockerfile: 'gone/Dockerfile' }), config: { inputs: ['src/'] } });
    expect(r.unknownReason).toBeUndefined();
    expect(r.inputs.map((i) => i.path)).toEqual(['src/']);
    expect(r.steps.some((s) => s.includes('gone/Dockerfile does not exist'))).toBe(true);
  });

  it('a COPY source the working tree lacks (a binary made before the build) makes the inputs unknown: a change to its sources must not read as current', async () => {
    const r = await deriveBuildInputs(root, { image: 'app', recipe: recipe({ dockerfile: 'prebuilt/Dockerfile', context: 'prebuilt' }) });
    expect(r.unknownReason).toBe('COPY bin/app (Dockerfile:2): prebuilt/bin/app is not in the working tree: made before the build from sources pinwatch does not know (declare images.app.inputs in pinwatch.yaml) (from recipe Makefile:12)');
    // a glob (an ARG with no value) matching nothing is as missing; one matching a file is not
    const glob = await deriveBuildInputs(root, { image: 'm', recipe: recipe({ dockerfile: 'glob/Dockerfile', context: 'glob' }) });
    expect(glob.unknownReason).toMatch(/^COPY bin\/manager_\* \(Dockerfile:3\): glob\/bin\/manager_\* is not in the working tree/);
    const built = await deriveBuildInputs(root, { image: 'm', recipe: recipe({ dockerfile: 'built/Dockerfile', context: 'built' }) });
    expect(built.unknownReason).toBeUndefined();
    expect(built.inputs.map((i) => i.path)).toEqual(['built/Dockerfile', 'built/bin/manager_*']);
  });

  it('a missing COPY source the recipe makes (a Go main package it builds first: goreleaser) is no unknown; declared inputs rescue the rest', async () => {
    const made = await deriveBuildInputs(root, { image: 'app', recipe: recipe({ dockerfile: 'prebuilt/Dockerfile', context: 'prebuilt', inputs: [{ path: 'prebuilt/cmd/app', go: true, why: 'go build' }] }) });
    expect(made.unknownReason).toBeUndefined();
    expect(made.steps).toContain('COPY bin/app (Dockerfile:2): prebuilt/bin/app does not exist in the working tree; kept as an input');
    const declared = await deriveBuildInputs(root, { image: 'app', recipe: recipe({ dockerfile: 'prebuilt/Dockerfile', context: 'prebuilt' }), config: { inputs: ['prebuilt/cmd/'] } });
    expect(declared.unknownReason).toBeUndefined();
    expect(declared.inputs.map((i) => i.path)).toEqual(['prebuilt/cmd/']);
  });

  it('a repo root that does not exist is a reason, not a throw', async () => {
    const r = await deriveBuildInputs(join(root, 'missing'), { image: 'x', recipe: recipe() });
    expect(r.unknownReason).toMatch(/does not exist/);
  });
});

describe('deriveBuildInputs on hostile files: never blocks, never reads a device, always says why', () => {
  let hostile: string;
  beforeAll(() => {
    hostile = mkdtempSync(join(tmpdir(), 'pinwatch-sources-hostile-'));
    const files: Record<string, string> = {
      'app/Dockerfile': 'FROM golang AS build\nWORKDIR /src\nCOPY . .\nRUN go build -o /app ./cmd/app\nFROM scratch\nCOPY --from=build /app /app\n',
      'app/go.mod': 'module example.com/app\n',
      'app/cmd/app/main.go': 'package main\n\nimport "example.com/app/lib"\n\nfunc main() { lib.X() }\n',
      'app/lib/real.go.txt': 'package lib\n\nfunc X() {}\n',
      'zero/Dockerfile': 'FROM golang AS build\nWORKDIR /src\nCOPY . .\nRUN go build -o /app .\nFROM scratch\nCOPY --from=build /app /app\n',
      'zero/main.go': 'package main\n',
    };
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(hostile, path)), { recursive: true });
      writeFileSync(join(hostile, path), content);
    }
    symlinkSync('real.go.txt', join(hostile, 'app/lib/lib.go'));
    execFileSync('mkfifo', [join(hostile, 'app/lib/pipe.go')]);
    execFileSync('mkfifo', [join(hostile, 'app/.dockerignore')]);
    mkdirSync(join(hostile, 'fifo'));
    execFileSync('mkfifo', [join(hostile, 'fifo/Dockerfile')]);
    symlinkSync('/dev/zero', join(hostile, 'zero/go.mod'));
  });
  afterAll(() => rmSync(hostile, { recursive: true, force: true }));

  it('a FIFO Dockerfile is the unknown reason', async () => {
    const r = await deriveBuildInputs(hostile, { image: 'f', config: { context: 'fifo' } });
    expect(r.unknownReason).toBe('Dockerfile fifo/Dockerfile: a FIFO (named pipe), not a regular file; not read (from pinwatch.yaml images.f)');
  });

  it('a FIFO .dockerignore and a FIFO .go file are steps; a symlinked .go file is read', async () => {
    const r = await deriveBuildInputs(hostile, { image: 'a', config: { context: 'app' } });
    expect(r.unknownReason).toBeUndefined();
    expect(r.steps).toContain('app/.dockerignore: a FIFO (named pipe), not a regular file; not read; nothing is excluded, the whole context counts');
    expect(r.steps.some((s) => s.endsWith('app/lib/pipe.go: a FIFO (named pipe), not a regular file; not read'))).toBe(true);
    expect(r.steps.some((s) => s.includes('→ 2 packages in module example.com/app'))).toBe(true);
    expect(matched(r, ['app/lib/lib.go', 'app/cmd/app/main.go', 'app/go.mod'])).toEqual(['app/lib/lib.go', 'app/cmd/app/main.go', 'app/go.mod']);
  });

  it('a go.mod that is a symlink to /dev/zero: no narrowing, and why', async () => {
    const r = await deriveBuildInputs(hostile, { image: 'z', config: { context: 'zero' } });
    expect(r.unknownReason).toBeUndefined();
    expect(r.steps.some((s) => s.includes('zero/go.mod: a character device, not a regular file; not read'))).toBe(true);
    expect(matched(r, ['zero/main.go'])).toEqual(['zero/main.go']);
  });
});
