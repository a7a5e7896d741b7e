/**
 * A repository with no `images:` entries whose images are built by a Skaffold
 * config (a docker artifact, and a bare-named one under buildEnv
 * SKAFFOLD_DEFAULT_REPO), a ko Makefile and a Cloud Build config: through real
 * git history, stale, explain and affected find each recipe, and each image's
 * unshipped list is exactly the later commit that touched its inputs.
 * Skaffold placeholders and ko:// refs in manifests are source refs, not
 * findings.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';
import { DIGEST, values } from '../support/stale.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

const cli = (dir: string, ...argv: string[]) => runCli(['--repo', dir, ...argv], { cwd: dir });

const SKAFFOLD = `apiVersion: skaffold/v4beta11
kind: Config
build:
  artifacts:
    - image: ghcr.io/acme/frontend
      context: src/frontend
    - image: cart
      context: src/cart
manifests:
  rawYaml:
    - k8s/*.yaml
`;

const MAKEFILE = `KO_DOCKER_REPO ?= ghcr.io/acme
export KO_DOCKER_REPO

build: image

image:
\tko build -B ./cmd/worker
`;

const CLOUDBUILD = `substitutions:
  _REGISTRY: ghcr.io/acme
steps:
  - name: gcr.io/cloud-builders/docker
    args: ['build', '-t', '\${_REGISTRY}/web:$SHORT_SHA', 'web']
`;

function repo() {
  const r = makeRepo();
  repos.push(r);
  const pins = (v: string, c: string) => ({
    'release/frontend/values.yaml': values('frontend', v, DIGEST(c)),
    'release/cart/values.yaml': values('cart', v, DIGEST(c)),
    'release/worker/values.yaml': values('worker', v, DIGEST(c)),
    'release/web/values.yaml': values('web', v, DIGEST(c)),
  });
  r.commit(
    {
      'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\ninclude: ["**/values.yaml", "k8s/*.yaml"]\nbuildEnv:\n  SKAFFOLD_DEFAULT_REPO: ghcr.io/acme\n',
      'skaffold.yaml': SKAFFOLD,
      'k8s/frontend.yaml': 'spec:\n  containers:\n    - image: ghcr.io/acme/frontend\n    - image: cart\n',
      'k8s/worker.yaml': 'spec:\n  containers:\n    - image: ko://example.com/acme/cmd/worker\n',
      'src/frontend/Dockerfile': 'FROM alpine\nCOPY . /app\n',
      'src/frontend/index.js': '1\n',
      'src/cart/Dockerfile': 'FROM alpine\nCOPY . /app\n',
      'src/cart/cart.js': '1\n',
      Makefile: MAKEFILE,
      'go.mod': 'module example.com/acme\n\ngo 1.22\n',
      'cmd/worker/main.go': 'package main\n\nimport _ "example.com/acme/internal/queue"\n\nfunc main() {}\n',
      'internal/queue/queue.go': 'package queue\n',
      'internal/other/other.go': 'package other\n',
      'cloudbuild.yaml': CLOUDBUILD,
      'web/Dockerfile': 'FROM alpine\nCOPY . /srv\n',
      'web/index.html': 'v1\n',
      ...pins('v1.0.0', 'a'),
    },
    'initial',
  );
  const prep = r.commit(pins('v1.1.0', 'b'), 'Prepare release v1.1.0');
  const other = r.commit({ 'internal/other/other.go': 'package other\n// unrelated\n' }, 'chore(other): not imported by the worker');
  const frontend = r.commit({ 'src/frontend/index.js': '2\n' }, 'fix(frontend): render');
  const cart = r.commit({ 'src/cart/cart.js': '2\n' }, 'fix(cart): total');
  const worker = r.commit({ 'internal/queue/queue.go': 'package queue\n// retry\n' }, 'fix(queue): retry');
  const web = r.commit({ 'web/index.html': 'v2\n' }, 'feat(web): new page');
  return { r, prep, other, frontend, cart, worker, web };
}

describe('Skaffold, ko and Cloud Build recipes, without images: entries', () => {
  it('stale: each image stale with exactly the commit that touched its inputs', async () => {
    const { r, prep, frontend, cart, worker, web } = repo();
    const { code, out } = await cli(r.dir, 'stale', '--format', 'json');
    expect(code).toBe(1);
    const doc = JSON.parse(out);
    const got = Object.fromEntries(doc.images.map((i: { repository: string; status: string; unshipped: { commit: string }[]; builtFrom?: { commit: string } }) => [i.repository, [i.status, i.builtFrom?.commit, i.unshipped.map((u) => u.commit)]]));
    const built = r.git('rev-parse', `${prep}^`);
    expect(got).toEqual({
      'ghcr.io/acme/cart': ['stale', built, [cart]],
      'ghcr.io/acme/frontend': ['stale', built, [frontend]],
      'ghcr.io/acme/web': ['stale', built, [web]],
      'ghcr.io/acme/worker': ['stale', built, [worker]],
    });
  });

  it('explain: the Skaffold, ko and Cloud Build recipes and the inputs from them', async () => {
    const { r } = repo();
    const front = await cli(r.dir, 'explain', 'cart');
    expect(front.code).toBe(0);
    expect(front.out).toContain('skaffold.yaml:7 build.artifacts "cart": dockerfile src/cart/Dockerfile, context src/cart');
    const worker = await cli(r.dir, 'explain', 'worker');
    expect(worker.out).toContain('Makefile:7 image: ko, main package cmd/worker (example.com/acme/cmd/worker), base cgr.dev/chainguard/static:latest');
    expect(worker.out).toContain('internal/queue/ [files]  ← go import example.com/acme/internal/queue');
    expect(worker.out).toContain('go.mod [file]');
    expect(worker.out).not.toContain('internal/other');
    const web = JSON.parse((await cli(r.dir, 'explain', 'web', '--format', 'json')).out);
    expect(web.recipes).toEqual([expect.objectContaining({ kind: 'cloudbuild', makefile: 'cloudbuild.yaml', line: 4, target: 'steps[0]', repositories: ['ghcr.io/acme/web'] })]);
  });

  it('affected: the images whose recipe-derived inputs changed', async () => {
    const { r, other } = repo();
    const { code, out } = await cli(r.dir, 'affected', '--base', other, '--unknown', 'exclude');
    expect(code).toBe(0);
    expect(JSON.parse(out).map((a: { image: string }) => a.image)).toEqual(['cart', 'frontend', 'web', 'worker']);
    const none = await cli(r.dir, 'affected', '--base', 'HEAD', '--unknown', 'exclude');
    expect(JSON.parse(none.out)).toEqual([]);
  });

  it('scan reports the placeholders and ko:// refs as source refs; lint raises nothing on them', async () => {
    const { r } = repo();
    const scan = JSON.parse((await cli(r.dir, 'scan', '--format', 'json')).out);
    const sources = scan.pins.filter((p: { form: string }) => p.form === 'source').map((p: { file: string; line: number; source: unknown }) => [p.file, p.line, p.source]);
    expect(sources).toEqual([
      ['k8s/frontend.yaml', 3, { builder: 'skaffold', name: 'ghcr.io/acme/frontend' }],
      ['k8s/frontend.yaml', 4, { builder: 'skaffold', name: 'cart' }],
      ['k8s/worker.yaml', 3, { builder: 'ko', name: 'example.com/acme/cmd/worker' }],
    ]);
    const lint = JSON.parse((await cli(r.dir, 'lint', '--format', 'json')).out);
    const findings = (lint.findings ?? lint) as { file: string; rule: string }[];
    expect(findings.filter((f) => f.file.startsWith('k8s/'))).toEqual([]);
    expect(lint.problems ?? []).not.toContainEqual(expect.objectContaining({ code: 'invalid-ref' }));
  });
});

describe('images nothing pins (a Skaffold repository, a declared image)', () => {
  function unpinned() {
    const r = makeRepo();
    repos.push(r);
    r.commit(
      {
        'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\nimages:\n  tool:\n    repository: ghcr.io/acme/tool\n    context: tool\n',
        'skaffold.yaml': SKAFFOLD.replace('    - image: cart\n      context: src/cart\n', ''),
        'k8s/frontend.yaml': 'spec:\n  containers:\n    - image: ghcr.io/acme/frontend\n',
        'src/frontend/Dockerfile': 'FROM alpine\nCOPY . /app\n',
        'src/frontend/index.js': '1\n',
        'tool/Dockerfile': 'FROM alpine\nCOPY . /t\n',
        'tool/t.sh': '1\n',
      },
      'initial',
    );
    const base = r.commit({ 'README.md': 'x\n' }, 'docs');
    r.commit({ 'src/frontend/index.js': '2\n', 'tool/t.sh': '2\n' }, 'fix: both');
    return { r, base };
  }

  it('affected lists them; explain says they are pinned nowhere; stale says why it has nothing to judge', async () => {
    const { r, base } = unpinned();
    const affected = await cli(r.dir, 'affected', '--base', base, '--unknown', 'exclude');
    expect(JSON.parse(affected.out).map((a: { image: string; repository: string }) => [a.image, a.repository])).toEqual([
      ['frontend', 'ghcr.io/acme/frontend'],
      ['tool', 'ghcr.io/acme/tool'],
    ]);
    const explain = await cli(r.dir, 'explain', 'frontend');
    expect(explain.code).toBe(0);
    expect(explain.out).toContain('pins (0):');
    expect(explain.out).toContain('note: ghcr.io/acme/frontend is pinned nowhere in the tree (a recipe builds it): there is no pinned digest to judge, only its recipe and build inputs');
    const stale = await cli(r.dir, 'stale');
    expect(stale.out).toContain('2 image(s) built or declared here are pinned nowhere in the tree (ghcr.io/acme/frontend, ghcr.io/acme/tool): stale has no pinned digest to judge; explain and affected use them');
  });
});

describe('a Skaffold artifact whose builder pinwatch does not read (jib, as bank-of-anthos builds its Java services)', () => {
  const JIB = `apiVersion: skaffold/v4beta11
kind: Config
build:
  artifacts:
    - image: ledger
      jib:
        project: ledger
`;
  function jib(declared: boolean) {
    const r = makeRepo();
    repos.push(r);
    const images = declared ? 'images:\n  ledger:\n    repository: ghcr.io/acme/ledger\n    inputs: ["src/ledger/**", "pom.xml"]\n' : '';
    r.commit(
      {
        'pinwatch.yaml': `firstParty: [ghcr.io/acme/]\nbuildEnv:\n  SKAFFOLD_DEFAULT_REPO: ghcr.io/acme\n${images}`,
        'src/ledger/skaffold.yaml': JIB,
        'src/ledger/Main.java': 'class Main {}\n',
        'pom.xml': '<project/>\n',
        'release/ledger/values.yaml': values('ledger', 'v1.0.0', DIGEST('a')),
      },
      'initial',
    );
    return r;
  }

  it('lint warns until pinwatch.yaml declares its inputs; explain shows the artifact either way', async () => {
    const bare = jib(false);
    const lint = await cli(bare.dir, 'lint', '--format', 'json');
    const unread = JSON.parse(lint.out).findings.filter((f: { rule: string }) => f.rule === 'build-recipe-problem');
    expect(unread.map((f: { file: string; line: number; message: string }) => [f.file, f.line, f.message])).toEqual([
      ['src/ledger/skaffold.yaml', 5, 'skaffold-builder-unread: artifact ledger is built by jib, which pinwatch does not read; declare its inputs under images: in pinwatch.yaml'],
    ]);
    const explained = await cli(bare.dir, 'explain', 'ledger');
    expect(explained.out).toContain('build recipe(s) (0):\n  src/ledger/skaffold.yaml:5 not read (skaffold-builder-unread): artifact ledger is built by jib');
    expect(explained.out).not.toContain('none found\n');

    const declared = jib(true);
    const quiet = await cli(declared.dir, 'lint', '--format', 'json');
    expect(JSON.parse(quiet.out).findings.filter((f: { rule: string }) => f.rule === 'build-recipe-problem')).toEqual([]);
    const json = JSON.parse((await cli(declared.dir, 'explain', 'ledger', '--format', 'json')).out);
    expect(json.recipeProblems).toEqual([{ file: 'src/ledger/skaffold.yaml', line: 5, code: 'skaffold-builder-unread', reason: expect.stringContaining('built by jib') }]);
    const text = await cli(declared.dir, 'explain', 'ledger');
    expect(text.out).toContain('    pinwatch.yaml declares it (images.ledger): the inputs below come from there');
    expect(text.out).toContain('src/ledger/** [glob]  ← config inputs');
  });
});
