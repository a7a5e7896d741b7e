/**
 * A repository with no Makefile and no `images:` entries, whose image is built
 * by a GitHub Actions workflow (docker/build-push-action over a matrix): stale,
 * explain and affected find the recipe there, through real git history.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';
import { DIGEST, values } from '../support/stale.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

const cli = (dir: string, ...argv: string[]) => runCli(['--repo', dir, ...argv], { cwd: dir });

const WORKFLOW = `name: release
on:
  push:
    tags: ['v*']
env:
  REGISTRY: ghcr.io/acme
jobs:
  images:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        include:
          - name: api
            dir: src/api
    steps:
      - uses: actions/checkout@v4
      - name: Build and push \${{ matrix.name }}
        uses: docker/build-push-action@v6
        with:
          context: \${{ matrix.dir }}
          push: true
          tags: |
            \${{ env.REGISTRY }}/\${{ matrix.name }}:\${{ github.ref_name }}
            \${{ env.REGISTRY }}/\${{ matrix.name }}:latest
`;

function repo() {
  const r = makeRepo();
  repos.push(r);
  r.commit(
    {
      'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\n',
      '.github/workflows/release.yml': WORKFLOW,
      'src/api/Dockerfile': 'FROM alpine\nCOPY . /app\n',
      'src/api/main.go': 'package main\n',
      'src/other/main.go': 'package other\n',
      'charts/api/values.yaml': values('api', 'v1.0.0', DIGEST('a')),
    },
    'initial',
  );
  const prep = r.commit({ 'charts/api/values.yaml': values('api', 'v1.1.0', DIGEST('b')) }, 'Prepare release v1.1.0');
  r.commit({ 'src/other/main.go': 'package other\n// unrelated\n' }, 'chore(other): not an input of api');
  const fix = r.commit({ 'src/api/main.go': 'package main\n// retry\n' }, 'fix(api): retry on conflict');
  return { r, prep, fix };
}

describe('a workflow recipe, without images: or a Makefile', () => {
  it('stale says stale with the one unshipped input change', async () => {
    const { r, prep, fix } = repo();
    const { code, out } = await cli(r.dir, 'stale', '--format', 'json');
    expect(code).toBe(1);
    const doc = JSON.parse(out);
    expect(doc.images).toHaveLength(1);
    expect(doc.images[0]).toMatchObject({
      repository: 'ghcr.io/acme/api',
      status: 'stale',
      builtFrom: { commit: r.git('rev-parse', `${prep}^`), method: 'digest-history' },
      unshipped: [{ commit: fix, subject: 'fix(api): retry on conflict' }],
    });
  });

  it('explain shows the workflow recipe and the inputs derived from it', async () => {
    const { r } = repo();
    const { code, out } = await cli(r.dir, 'explain', 'ghcr.io/acme/api');
    expect(code).toBe(0);
    expect(out).toContain('build recipe(s) (1):');
    expect(out).toContain('.github/workflows/release.yml:18 jobs.images step 2 "Build and push api" [name=api, dir=src/api]: dockerfile src/api/Dockerfile, context src/api');
    expect(out).toContain('docker/build-push-action@v6: docker buildx build --tag ghcr.io/acme/api:⟨expr github.ref_name⟩ --tag ghcr.io/acme/api:latest src/api');
    expect(out).toContain('(from recipe .github/workflows/release.yml:18)');
    expect(out).toContain('fix(api): retry on conflict');
    const json = JSON.parse((await cli(r.dir, 'explain', 'ghcr.io/acme/api', '--format', 'json')).out);
    expect(json.recipes).toEqual([expect.objectContaining({ kind: 'github-actions', makefile: '.github/workflows/release.yml', line: 18, context: 'src/api', repositories: ['ghcr.io/acme/api'] })]);
  });

  it('affected names the image when its workflow-derived inputs changed', async () => {
    const { r, prep } = repo();
    const { code, out } = await cli(r.dir, 'affected', '--base', prep, '--unknown', 'exclude');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual([{ image: 'api', repository: 'ghcr.io/acme/api', reasons: [expect.objectContaining({ path: 'src/api/main.go' })] }]);
  });

  it('lint has no build-entry-missing warning for the missing Makefile, but still reports what the workflow cannot tell', async () => {
    const { r } = repo();
    r.commit({ '.github/workflows/ci.yaml': 'jobs:\n  x:\n    steps:\n      - uses: docker/build-push-action@v6\n        with:\n          context: src/api\n          tags: ${{ steps.meta.outputs.tags }}\n' }, 'ci: build');
    const { out } = await cli(r.dir, 'lint', '--format', 'json');
    expect(out).not.toContain('build-entry-missing');
    const doc = JSON.parse(out);
    const findings = (doc.findings ?? doc) as { rule: string; file: string; line: number; message: string }[];
    expect(findings.filter((f) => f.rule === 'build-recipe-problem').map((f) => [f.file, f.line, f.message])).toEqual([
      ['.github/workflows/ci.yaml', 4, 'recipe-tag-unreadable: cannot read tag "⟨expr steps.meta.outputs.tags⟩" as an image reference: steps.meta.outputs.tags: step outputs are known only when the workflow runs'],
    ]);
  });
});
