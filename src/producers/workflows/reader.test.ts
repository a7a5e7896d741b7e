import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../config/defaults.js';
import type { Problem } from '../../model/index.js';
import { loadBuildModel } from '../repo.js';
import { evaluate, interpolate } from './expressions.js';
import { expandMatrix } from './matrix.js';
import { readWorkflow } from './reader.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'pinwatch-workflows-'));
  for (const f of ['Dockerfile', 'api/Dockerfile', 'web/Dockerfile', 'docker/Dockerfile.api', 'docker/Dockerfile.web', 'sub/Dockerfile']) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), 'FROM alpine\n');
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FILE = '.github/workflows/build.yml';

function read(text: string) {
  const problems: Problem[] = [];
  const recipes = readWorkflow(root, FILE, text, problems);
  return { recipes, problems };
}

describe('strategy.matrix expansion (GitHub docs examples)', () => {
  const cases: { name: string; matrix: unknown; want: unknown }[] = [
    { name: 'product, first key outermost', matrix: { version: [10, 12], os: ['a', 'b'] }, want: [{ version: 10, os: 'a' }, { version: 10, os: 'b' }, { version: 12, os: 'a' }, { version: 12, os: 'b' }] },
    {
      name: 'include: extends matching originals, overwrites only added values, else a new combination',
      matrix: { fruit: ['apple', 'pear'], animal: ['cat', 'dog'], include: [{ color: 'green' }, { color: 'pink', animal: 'cat' }, { fruit: 'apple', shape: 'circle' }, { fruit: 'banana' }, { fruit: 'banana', animal: 'cat' }] },
      want: [
        { fruit: 'apple', animal: 'cat', color: 'pink', shape: 'circle' },
        { fruit: 'apple', animal: 'dog', color: 'green', shape: 'circle' },
        { fruit: 'pear', animal: 'cat', color: 'pink' },
        { fruit: 'pear', animal: 'dog', color: 'green' },
        { fruit: 'banana' },
        { fruit: 'banana', animal: 'cat' },
      ],
    },
    { name: 'exclude: partial match removes', matrix: { os: ['a', 'b'], v: [1, 2], exclude: [{ os: 'b', v: 2 }] }, want: [{ os: 'a', v: 1 }, { os: 'a', v: 2 }, { os: 'b', v: 1 }] },
    { name: 'include only', matrix: { include: [{ image: 'api' }, { image: 'web', dir: 'web' }] }, want: [{ image: 'api' }, { image: 'web', dir: 'web' }] },
  ];
  for (const c of cases) it(c.name, () => expect(expandMatrix(c.matrix as never)).toEqual({ known: true, combinations: c.want }));

  it('a computed matrix is unknown, with why', () => {
    expect(expandMatrix('${{ fromJSON(needs.plan.outputs.matrix) }}')).toEqual({ known: false, reason: 'the matrix is computed at run time (${{ fromJSON(needs.plan.outputs.matrix) }})' });
    expect(expandMatrix({ image: '${{ fromJSON(inputs.images) }}' })).toMatchObject({ known: false, reason: expect.stringContaining('matrix.image is computed at run time') });
  });
});

describe('expressions', () => {
  const env = new Map([['A', { known: true as const, value: 'x' }], ['E', { known: true as const, value: '' }]]);
  const scope = { env, matrix: { known: true as const, values: { image: { name: 'api' }, v: 3 } } };
  const cases: [string, unknown][] = [
    ['env.A', { known: true, value: 'x' }],
    ["matrix.image['name']", { known: true, value: 'api' }],
    ['matrix.image.name', { known: true, value: 'api' }],
    ['matrix.v', { known: true, value: 3 }],
    ["env.E || 'latest'", { known: true, value: 'latest' }],
    ["'it''s'", { known: true, value: "it's" }],
    ['matrix.nope', { known: false, absent: true, reason: 'matrix.nope is not a key of this matrix combination (keys: image, v)' }],
    ["matrix.nope || 'x'", { known: true, value: 'x' }],
    ['env.NOPE', { known: false, reason: expect.stringContaining('env.NOPE is not set') }],
    ['steps.meta.outputs.tags', { known: false, reason: 'step outputs are known only when the workflow runs' }],
    ['secrets.REGISTRY', { known: false, reason: 'secrets are not in the repository' }],
    ["format('{0}', env.A)", { known: false, reason: expect.stringContaining('is not a plain value or property') }],
  ];
  for (const [expr, want] of cases) it(expr, () => expect(evaluate(expr, scope)).toEqual(want));

  it("a key only other combinations have is null, as GitHub reads it: '' in text (dapr's windows_version on its linux entries); one none has stays unknown", () => {
    const linux = { env, matrix: { known: true as const, values: { target_os: 'linux' }, keys: new Set(['target_os', 'windows_version']) } };
    expect(evaluate('matrix.windows_version', linux)).toEqual({ known: true, value: null });
    expect(interpolate('-${{ matrix.windows_version }}-', linux).text).toBe('--');
    expect(evaluate("matrix.windows_version || 'none'", linux)).toEqual({ known: true, value: 'none' });
    expect(evaluate('matrix.typo', linux)).toMatchObject({ known: false, absent: true });
  });
});

describe('step outputs a run script writes to $GITHUB_OUTPUT (postgres-operator)', () => {
  it('are what a later step reads: known text kept, what only the run knows a marker', () => {
    const { recipes, problems } = read(`on: push
env:
  REGISTRY: ghcr.io
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - id: image
        run: |
          OPERATOR_IMAGE="\${{ env.REGISTRY }}/acme/operator:\${GITHUB_REF/refs\\/tags\\//}"
          echo "OPERATOR_IMAGE=$OPERATOR_IMAGE" >> $GITHUB_OUTPUT
          echo -n 'PLAIN=ghcr.io/acme/plain:v1' >> "\${GITHUB_OUTPUT}"
      - uses: docker/build-push-action@v7
        with:
          context: .
          tags: \${{ steps.image.outputs.OPERATOR_IMAGE }}
      - uses: docker/build-push-action@v7
        with:
          context: .
          tags: \${{ steps.image.outputs.PLAIN }}
`);
    expect(recipes.map((r) => r.repositories)).toEqual([['ghcr.io/acme/operator'], ['ghcr.io/acme/plain']]);
    expect(recipes[0]!.command).toContain('--tag ghcr.io/acme/operator:⟨shell ${GITHUB_REF/refs\\/tags\\//}⟩');
    expect(problems).toEqual([]);
  });
});

describe('readWorkflow', () => {
  it('build-push-action once per matrix combination (include adds keys), env precedence workflow < job < step, multi-line and comma tags', () => {
    const { recipes, problems } = read(`name: release
env:
  REGISTRY: ghcr.io/wrong
  OWNER: acme
  LEVEL: workflow
jobs:
  images:
    runs-on: ubuntu-latest
    env:
      REGISTRY: ghcr.io/\${{ env.OWNER }}
      LEVEL: job
    strategy:
      matrix:
        image: [api, web]
        include:
          - image: web
            stage: prod
    steps:
      - uses: actions/checkout@v4
      - name: Build \${{ matrix.image }}
        uses: docker/build-push-action@v6
        env:
          LEVEL: step
        with:
          context: \${{ matrix.image }}
          target: \${{ matrix.stage || 'release' }}
          build-args: |
            LEVEL=\${{ env.LEVEL }}
            REVISION=\${{ steps.prep.outputs.REVISION }}
          platforms: linux/amd64,linux/arm64
          tags: |
            \${{ env.REGISTRY }}/\${{ matrix.image }}:latest
            \${{ env.REGISTRY }}/\${{ matrix.image }}:\${{ github.sha }}, docker.io/acme/\${{ matrix.image }}:1
`);
    // a build arg known only when the workflow runs (REVISION) is no problem of the recipe (sources/derive.ts: its ARG has no value)
    expect(problems).toEqual([]);
    expect(recipes.map((r) => [r.kind, r.makefile, r.line, r.target, r.context, r.dockerfile, r.stage, r.repositories])).toEqual([
      ['github-actions', FILE, 21, 'jobs.images step 2 "Build api" [image=api]', 'api', 'api/Dockerfile', 'release', ['ghcr.io/acme/api', 'docker.io/acme/api']],
      ['github-actions', FILE, 21, 'jobs.images step 2 "Build web" [image=web, stage=prod]', 'web', 'web/Dockerfile', 'prod', ['ghcr.io/acme/web', 'docker.io/acme/web']],
    ]);
    expect(recipes[0]!.command).toBe(
      "docker/build-push-action@v6: docker buildx build --target release --build-arg LEVEL=step --build-arg REVISION=⟨expr steps.prep.outputs.REVISION⟩ --platform linux/amd64,linux/arm64 --tag ghcr.io/acme/api:latest --tag ghcr.io/acme/api:⟨expr github.sha⟩ --tag docker.io/acme/api:1 api",
    );
  });

  it('file is relative to the workspace for a path context, to the context for the Git context; no context is the repository', () => {
    const { recipes, problems } = read(`jobs:
  a:
    steps:
      - uses: docker/build-push-action@v5
        with:
          context: .
          file: docker/Dockerfile.api
          tags: ghcr.io/acme/api:dev
      - uses: docker/build-push-action@v5
        with:
          context: "{{defaultContext}}:sub"
          tags: ghcr.io/acme/sub:dev
      - uses: docker/build-push-action@v5
        with:
          tags: ghcr.io/acme/root:dev
`);
    expect(problems).toEqual([]);
    expect(recipes.map((r) => [r.context, r.dockerfile, r.repositories[0]])).toEqual([
      ['.', 'docker/Dockerfile.api', 'ghcr.io/acme/api'],
      ['sub', 'sub/Dockerfile', 'ghcr.io/acme/sub'],
      ['.', 'Dockerfile', 'ghcr.io/acme/root'],
    ]);
  });

  it('run: docker build / docker buildx build, with env, shell variables across lines, continuations and working-directory', () => {
    const { recipes, problems } = read(`env:
  IMAGE: ghcr.io/acme/web
jobs:
  b:
    defaults:
      run:
        working-directory: docker
    strategy:
      matrix:
        flavour: [api]
    steps:
      - name: build
        run: |
          echo building
          TAG=ghcr.io/acme/\${{ matrix.flavour }}
          docker buildx build \\
            -f Dockerfile.api \\
            -t "$TAG:$GITHUB_SHA" ..
      - run: docker build -f Dockerfile.web -t $IMAGE:1 ..
        working-directory: docker
`);
    expect(problems).toEqual([]);
    expect(recipes.map((r) => [r.line, r.target, r.context, r.dockerfile, r.repositories])).toEqual([
      [16, 'jobs.b step 1 "build" [flavour=api]', '.', 'docker/Dockerfile.api', ['ghcr.io/acme/api']],
      [19, 'jobs.b step 2 [flavour=api]', '.', 'docker/Dockerfile.web', ['ghcr.io/acme/web']],
    ]);
    expect(recipes[0]!.command).toBe('docker buildx build -f Dockerfile.api -t "$TAG:$GITHUB_SHA" ..');
  });

  it('what cannot be evaluated is a problem with file:line and the reason, and an unresolved tag names no repository', () => {
    const { recipes, problems } = read(`jobs:
  a:
    strategy:
      matrix:
        image: [api]
    steps:
      - id: meta
        uses: docker/metadata-action@v5
      - uses: docker/build-push-action@v6
        with:
          context: api
          target: \${{ matrix.stage }}
          tags: |
            \${{ steps.meta.outputs.tags }}
            \${{ secrets.REGISTRY }}/api:1
            ghcr.io/acme/api:\${{ github.sha }}
      - run: docker build -t \${{ vars.REGISTRY }}/x:1 api
`);
    expect(recipes.map((r) => r.repositories)).toEqual([['ghcr.io/acme/api'], []]);
    expect(problems.map((p) => [p.file, p.line, p.code, p.reason])).toEqual([
      [FILE, 12, 'workflow-expression-unknown', 'target "⟨expr matrix.stage⟩" cannot be evaluated: matrix.stage: matrix.stage is not a key of this matrix combination (keys: image)'],
      [FILE, 9, 'recipe-tag-unreadable', 'cannot read tag "⟨expr steps.meta.outputs.tags⟩" as an image reference: steps.meta.outputs.tags: step outputs are known only when the workflow runs'],
      [FILE, 9, 'recipe-tag-unreadable', 'cannot read tag "⟨expr secrets.REGISTRY⟩/api:1" as an image reference: secrets.REGISTRY: secrets are not in the repository'],
      [FILE, 17, 'recipe-tag-unreadable', 'cannot read tag "⟨expr vars.REGISTRY⟩/x:1" as an image reference: vars.REGISTRY: configuration variables are not in the repository'],
    ]);
  });

  it('tags from a docker/metadata-action step are its images (lines, commas, name= entries), tag unknown', () => {
    const { recipes, problems } = read(`env:
  IMAGE: ghcr.io/acme/api
jobs:
  a:
    steps:
      - id: meta
        uses: docker/metadata-action@v5
        with:
          images: |
            \${{ env.IMAGE }}
            docker.io/acme/api,quay.io/acme/api
            name=registry.example/acme/api,enable=true
            name=registry.example/acme/off,enable=false
          tags: type=semver,pattern={{version}}
      - uses: docker/build-push-action@v6
        with:
          context: api
          tags: \${{ steps.meta.outputs.tags }}
`);
    expect(problems).toEqual([]);
    expect(recipes.map((r) => r.repositories)).toEqual([['ghcr.io/acme/api', 'docker.io/acme/api', 'quay.io/acme/api', 'registry.example/acme/api']]);
  });

  it('a metadata-action image that cannot be evaluated is a problem naming why', () => {
    const { recipes, problems } = read(`jobs:
  a:
    steps:
      - id: meta
        uses: docker/metadata-action@v5
        with:
          images: ghcr.io/\${{ github.repository }}
      - uses: docker/build-push-action@v6
        with:
          context: api
          tags: \${{ steps.meta.outputs.tags }}
`);
    expect(recipes[0]!.repositories).toEqual([]);
    expect(problems).toEqual([
      {
        file: FILE,
        line: 8,
        code: 'recipe-tag-unreadable',
        reason:
          'cannot read tag "ghcr.io/⟨expr github.repository⟩:⟨expr steps.meta.outputs.tags⟩" as an image reference: github.repository: the github context is known only when the workflow runs; steps.meta.outputs.tags: the tags docker/metadata-action computes are known only when the workflow runs',
      },
    ]);
  });

  it('a computed matrix leaves matrix references unknown; invalid YAML is one problem', () => {
    const computed = read(`jobs:
  a:
    strategy:
      matrix: \${{ fromJSON(needs.plan.outputs.images) }}
    steps:
      - uses: docker/build-push-action@v6
        with:
          tags: ghcr.io/acme/\${{ matrix.name }}:1
`);
    expect(computed.recipes[0]!.repositories).toEqual([]);
    expect(computed.problems).toEqual([expect.objectContaining({ line: 6, code: 'recipe-tag-unreadable', reason: expect.stringContaining('the matrix is computed at run time') })]);
    expect(read('jobs:\n  a: [\n').problems).toEqual([expect.objectContaining({ file: FILE, line: expect.any(Number), code: 'workflow-yaml-error' })]);
  });
});

describe('loadBuildModel with workflows', () => {
  const repoWith = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-workflows-model-'));
    for (const [f, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      writeFileSync(join(dir, f), text);
    }
    return dir;
  };
  const WF = 'jobs:\n  a:\n    steps:\n      - uses: docker/build-push-action@v6\n        with:\n          tags: ghcr.io/acme/x:1\n';

  it('workflow recipes join the model; no Makefile is no build-entry-missing (recipes or not), unless buildEntry names one', async () => {
    const dir = repoWith({ '.github/workflows/a.yml': WF, 'Dockerfile': 'FROM alpine\n', '.github/workflows/sub/ignored.yml': WF, '.github/workflows/notes.txt': 'x' });
    try {
      const m = await loadBuildModel(dir, defaultConfig());
      expect(m.recipes.map((r) => [r.kind, r.makefile, r.repositories])).toEqual([['github-actions', '.github/workflows/a.yml', ['ghcr.io/acme/x']]]);
      expect(m.problems).toEqual([]);
      const explicit = await loadBuildModel(dir, { ...defaultConfig(), buildEntry: 'build.mk:all' });
      expect(explicit.problems.map((p) => p.code)).toEqual(['build-entry-missing']);
      const excluded = await loadBuildModel(dir, { ...defaultConfig(), exclude: ['.github/'] });
      expect(excluded.recipes).toEqual([]);
      expect(excluded.problems.map((p) => p.code)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('workflow run: make, ko build, reusable workflows and the github context', () => {
  const repoWith = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-workflows-follow-'));
    for (const [f, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      writeFileSync(join(dir, f), text);
    }
    return dir;
  };

  it('a run: make … is followed into the Makefile with the step env and args', async () => {
    const dir = repoWith({
      Makefile: 'REGISTRY ?= docker.io/nobody\nTAG ?= dev\nimage:\n\tdocker build -t $(REGISTRY)/app:$(TAG) app\n',
      'app/Dockerfile': 'FROM alpine\n',
      '.github/workflows/release.yaml': 'jobs:\n  r:\n    steps:\n      - env:\n          REGISTRY: ghcr.io/acme\n        run: make image TAG=${{ github.ref_name }}\n',
    });
    try {
      const m = await loadBuildModel(dir, defaultConfig());
      expect(m.recipes.map((r) => [r.kind ?? 'make', r.makefile, r.target, r.repositories])).toEqual([
        ['make', 'Makefile', 'image', ['docker.io/nobody/app']],
        ['make', 'Makefile', 'image (via .github/workflows/release.yaml:6 jobs.r step 1)', ['ghcr.io/acme/app']],
      ]);
      // with the workflow as the build entry, the make target it runs is built
      const entry = await loadBuildModel(dir, { ...defaultConfig(), buildEntry: '.github/workflows/release.yaml' });
      expect(entry.problems.map((p) => p.code)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ko build in run:, with KO_DOCKER_REPO from ${{ github.repository_owner }} (buildEnv GITHUB_REPOSITORY)', async () => {
    const dir = repoWith({
      'go.mod': 'module github.com/acme/app\n',
      'cmd/app/main.go': 'package main\n',
      '.github/workflows/ko.yaml': 'jobs:\n  k:\n    steps:\n      - env:\n          KO_DOCKER_REPO: ghcr.io/${{ github.repository_owner }}\n        run: ko build --bare ./cmd/app\n',
    });
    try {
      const unknown = await loadBuildModel(dir, defaultConfig());
      expect(unknown.recipes.map((r) => r.repositories)).toEqual([[]]);
      expect(unknown.problems).toEqual([expect.objectContaining({ file: '.github/workflows/ko.yaml', line: 6, code: 'ko-docker-repo-unknown', reason: expect.stringContaining('github.repository_owner: the github context is known only when the workflow runs') })]);
      const known = await loadBuildModel(dir, { ...defaultConfig(), buildEnv: { GITHUB_REPOSITORY: 'acme/app' } });
      expect(known.recipes.map((r) => [r.repositories, r.ko?.main])).toEqual([[['ghcr.io/acme'], 'cmd/app']]);
      expect(known.problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the github context comes from a github.com origin remote when buildEnv does not set it', async () => {
    const dir = repoWith({
      '.git/config': '[core]\n\tbare = false\n[remote "origin"]\n\turl = git@github.com:Acme/app.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
      'Dockerfile': 'FROM alpine\n',
      '.github/workflows/a.yaml': 'jobs:\n  a:\n    steps:\n      - uses: docker/build-push-action@v6\n        with:\n          tags: ghcr.io/${{ github.repository }}:1\n',
    });
    try {
      const m = await loadBuildModel(dir, defaultConfig());
      expect(m.problems).toEqual([expect.objectContaining({ code: 'recipe-tag-unreadable', reason: expect.stringContaining('ghcr.io/Acme/app:1') })]);
      writeFileSync(join(dir, '.git/config'), '[remote "origin"]\n\turl = https://github.com/acme/app\n');
      const ok = await loadBuildModel(dir, defaultConfig());
      expect(ok.recipes.map((r) => r.repositories)).toEqual([['ghcr.io/acme/app']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a reusable workflow is read once per caller with its with: inputs (and defaults), not on its own', async () => {
    const dir = repoWith({
      'api/Dockerfile': 'FROM alpine\n',
      'web/Dockerfile': 'FROM alpine\n',
      '.github/workflows/build-one.yaml': "on:\n  workflow_call:\n    inputs:\n      name: { type: string, required: true }\n      registry: { type: string, default: ghcr.io/acme }\njobs:\n  b:\n    steps:\n      - uses: docker/build-push-action@v6\n        with:\n          context: ${{ inputs.name }}\n          tags: ${{ inputs.registry }}/${{ inputs.name }}:${{ github.sha }}\n",
      '.github/workflows/release.yaml': 'on: push\njobs:\n  api:\n    uses: ./.github/workflows/build-one.yaml\n    with:\n      name: api\n  all:\n    strategy:\n      matrix:\n        n: [web]\n    uses: ./.github/workflows/build-one.yaml\n    with:\n      name: ${{ matrix.n }}\n      registry: quay.io/acme\n  gone:\n    uses: ./.github/workflows/none.yaml\n',
    });
    try {
      const m = await loadBuildModel(dir, defaultConfig());
      expect(m.recipes.map((r) => [r.makefile, r.target, r.context, r.repositories])).toEqual([
        ['.github/workflows/build-one.yaml', '.github/workflows/release.yaml:4 jobs.api → jobs.b step 1', 'api', ['ghcr.io/acme/api']],
        ['.github/workflows/build-one.yaml', '.github/workflows/release.yaml:11 jobs.all [n=web] → jobs.b step 1', 'web', ['quay.io/acme/web']],
      ]);
      expect(m.problems.map((p) => [p.file, p.line, p.code])).toEqual([['.github/workflows/release.yaml', 16, 'workflow-call-missing']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a composite action of the repository is read for each step that runs it, with its with: inputs (katib's template-publish-image)", async () => {
    const action = [
      'name: publish',
      'inputs:',
      '  image: { required: true }',
      '  dockerfile: { required: true }',
      '  context: { default: . }',
      'runs:',
      '  using: composite',
      '  steps:',
      '    - id: meta',
      '      uses: docker/metadata-action@v5',
      '      with:',
      '        images: ${{ inputs.image }}',
      '    - name: Build ${{ inputs.image }}',
      '      uses: docker/build-push-action@v6',
      '      with:',
      '        context: ${{ inputs.context }}',
      '        file: ${{ inputs.dockerfile }}',
      '        tags: ${{ steps.meta.outputs.tags }}',
      '    - uses: ./.github/actions/deeper',
      '',
    ].join('\n');
    // an action running itself: followed three levels deep, then a note
    const deeper = 'runs:\n  using: composite\n  steps:\n    - uses: ./.github/actions/deeper\n';
    const dir = repoWith({
      'cmd/a/Dockerfile': 'FROM alpine\n',
      'cmd/b/Dockerfile': 'FROM alpine\n',
      '.github/actions/publish/action.yaml': action,
      '.github/actions/js/action.yml': 'runs:\n  using: node20\n  main: index.js\n',
      '.github/actions/deeper/action.yml': deeper,
      '.github/workflows/publish.yaml': [
        'on: push',
        'jobs:',
        '  p:',
        '    strategy:',
        '      matrix:',
        '        c: [a, b]',
        '    steps:',
        '      - uses: ./.github/actions/publish',
        '        with:',
        '          image: ghcr.io/acme/${{ matrix.c }}',
        '          dockerfile: cmd/${{ matrix.c }}/Dockerfile',
        '      - uses: ./.github/actions/js',
        '      - uses: ./.github/actions/gone',
        '',
      ].join('\n'),
    });
    try {
      const m = await loadBuildModel(dir, defaultConfig());
      expect(m.recipes.map((r) => [r.makefile, r.line, r.dockerfile, r.repositories, r.target])).toEqual([
        ['.github/actions/publish/action.yaml', 14, 'cmd/a/Dockerfile', ['ghcr.io/acme/a'], '.github/workflows/publish.yaml:8 jobs.p step 1 [c=a] → .github/actions/publish/action.yaml runs.steps 2 "Build ghcr.io/acme/a"'],
        ['.github/actions/publish/action.yaml', 14, 'cmd/b/Dockerfile', ['ghcr.io/acme/b'], '.github/workflows/publish.yaml:8 jobs.p step 1 [c=b] → .github/actions/publish/action.yaml runs.steps 2 "Build ghcr.io/acme/b"'],
      ]);
      // per matrix combination: an action past three levels and a missing one are notes (assumed to build nothing); a JavaScript action builds nothing
      const combination = [
        ['.github/actions/deeper/action.yml', 4, 'workflow-action-assumed'],
        ['.github/workflows/publish.yaml', 13, 'workflow-action-assumed'],
      ];
      expect(m.problems.map((p) => [p.file, p.line, p.code])).toEqual([...combination, ...combination]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a build CI runs through make, read with the step env', () => {
  it('when it tags what the plain reading tags, the plain recipe comes first (inputs derive from it); nothing is dropped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-workflows-order-'));
    const files: Record<string, string> = {
      Makefile: 'REGISTRY ?= ghcr.io/acme\nTAG ?= dev\ntracing:\n\tdocker build -t $(REGISTRY)/app:tracing -f Dockerfile.tracing .\nimage:\n\tdocker build -t $(REGISTRY)/app:$(TAG) app\n',
      'app/Dockerfile': 'FROM alpine\n',
      'Dockerfile.tracing': 'FROM alpine\n',
      '.github/workflows/ci.yaml': 'jobs:\n  b:\n    steps:\n      - run: make image TAG=x\n      - env:\n          REGISTRY: ghcr.io/ci\n        run: make image\n',
    };
    for (const [f, t] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      writeFileSync(join(dir, f), t);
    }
    try {
      const m = await loadBuildModel(dir, defaultConfig());
      expect(m.recipes.map((r) => [r.target, r.repositories, r.dockerfile])).toEqual([
        ['image', ['ghcr.io/acme/app'], 'app/Dockerfile'],
        ['tracing', ['ghcr.io/acme/app'], 'Dockerfile.tracing'],
        ['image (via .github/workflows/ci.yaml:7 jobs.b step 2)', ['ghcr.io/ci/app'], 'app/Dockerfile'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("buildEnv fills what only the run knows, and a tag's command substitution leaves the repository known (argo-workflows' release)", () => {
  const RELEASE = `jobs:
  push:
    runs-on: ubuntu-latest
    env:
      DOCKERIO_ORG: \${{ secrets.DOCKERIO_ORG }}
    steps:
      - run: |
          docker buildx build -t quay.io/\${DOCKERIO_ORG}/app:latest-$(echo linux/amd64 | sed -r "s/\\//-/g") --push .
`;
  it('without buildEnv the repository is unknown, with it the secret-held org is read; the computed tag suffix never blocks the name', () => {
    const bare = read(RELEASE);
    expect(bare.recipes.map((r) => r.repositories)).toEqual([[]]);
    expect(bare.problems.map((p) => [p.line, p.code, p.reason])).toEqual([[8, 'recipe-tag-unreadable', expect.stringContaining('secrets.DOCKERIO_ORG: secrets are not in the repository')]]);
    const problems: Problem[] = [];
    const recipes = readWorkflow(root, FILE, RELEASE, problems, { env: new Map([['DOCKERIO_ORG', 'argoproj']]) });
    expect(problems).toEqual([]);
    expect(recipes.map((r) => r.repositories)).toEqual([['quay.io/argoproj/app']]);
  });
});
