/**
 * The staging → release case of issue 10: a Makefile recipe tags
 * gcr.io/k8s-staging-foo/foo (what CI pushes; image promotion copies the same
 * digests to registry.k8s.io) and the tree pins registry.k8s.io/foo/foo. With
 * `aliases: {"gcr.io/k8s-staging-foo/": "registry.k8s.io/foo/"}` the recipe
 * builds the pinned image: stale gets a recipe and inputs and names the
 * unshipped commit; without the alias it has no recipe and says unknown.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';
import { DIGEST } from '../support/stale.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

const MAKEFILE = `REGISTRY ?= gcr.io/k8s-staging-foo
GIT_TAG ?= $(shell git describe --tags --always)

.PHONY: container
container:
\tdocker build -t $(REGISTRY)/foo:$(GIT_TAG) --build-arg GIT_TAG=$(GIT_TAG) .
`;
const DOCKERFILE = 'FROM golang:1.22 AS build\nWORKDIR /src\nCOPY go.mod ./\nCOPY cmd/ cmd/\nCOPY pkg/ pkg/\nRUN go build ./cmd/foo\n';
const pin = (tag: string, d: string) => `image:\n  repository: registry.k8s.io/foo/foo\n  tag: ${tag}@${d}\n`;
const CONFIG = (aliases: boolean) => `firstParty: [registry.k8s.io/foo/]\nbuildEntry: Makefile:container\n${aliases ? 'aliases:\n  "gcr.io/k8s-staging-foo/": "registry.k8s.io/foo/"\n' : ''}`;

function repo(aliases: boolean) {
  const r = makeRepo('pinwatch-staging-');
  repos.push(r);
  r.commit(
    { 'pinwatch.yaml': CONFIG(aliases), Makefile: MAKEFILE, Dockerfile: DOCKERFILE, 'go.mod': 'module foo\n', 'cmd/foo/main.go': 'package main\n', 'pkg/a/a.go': 'package a\n', 'docs/index.md': 'docs\n' },
    'initial',
  );
  const built = r.commit({ 'pkg/a/a.go': 'package a\n// v1.1\n' }, 'feat(a): v1.1 work');
  r.commit({ 'charts/foo/values.yaml': pin('v1.1.0', DIGEST('b')) }, 'Promote foo v1.1.0 (registry.k8s.io)');
  r.commit({ 'docs/index.md': 'docs 2\n' }, 'docs: not an input');
  const fix = r.commit({ 'cmd/foo/main.go': 'package main\n// fix\n' }, 'fix(foo): handle missing node metrics (#12)');
  return { r, built, fix };
}

describe('a staging recipe and a release pin, joined by aliases', () => {
  it('stale gets the recipe and its inputs through the alias, and names the unshipped fix', async () => {
    const { r, built, fix } = repo(true);
    const { code, out } = await runCli(['--repo', r.dir, 'stale', '--format', 'json'], { cwd: r.dir });
    expect(code).toBe(1);
    const [img] = JSON.parse(out).images;
    expect(img).toMatchObject({ repository: 'registry.k8s.io/foo/foo', status: 'stale', builtFrom: { commit: built, method: 'digest-history' }, unshipped: [{ commit: fix, subject: 'fix(foo): handle missing node metrics (#12)' }] });
    expect(img.inputs.count).toBeGreaterThan(0);
    const explain = await runCli(['--repo', r.dir, 'explain', 'foo'], { cwd: r.dir });
    expect(explain.out).toMatch(/build recipe\(s\) \(1\):\n\s+Makefile:\d+ container/);
    expect(explain.out).toContain('gcr.io/k8s-staging-foo/foo');
  });

  it('without the alias the recipe builds another repository: no inputs, unknown', async () => {
    const { r } = repo(false);
    const { out } = await runCli(['--repo', r.dir, 'stale', '--format', 'json'], { cwd: r.dir });
    const [img] = JSON.parse(out).images;
    expect(img.status).toBe('unknown');
    expect(JSON.stringify(img)).toContain('no build recipe tags registry.k8s.io/foo/foo');
  });
});
