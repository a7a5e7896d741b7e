/**
 * What a recipe makes before its build reads it (src/producers/made.ts): cozystack's migrations
 * image copies chart CRDs into its build context (`cp … images/migrations/crds/`, removed after),
 * gateway's extension server compiles `bin/extension-server` in a prerequisite the Dockerfile
 * COPYs. The copied sources and the compiled packages are the image's inputs; a COPY of a path the
 * tree lacks that nothing in the recipe makes leaves the inputs unknown (never a green `current`).
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';
import { reposRemovedAfterEach, type TestRepo } from '../support/repo.js';

const newRepo = reposRemovedAfterEach('pinwatch-made-');

const MAKEFILE = [
  'image-migrations:',
  '\trm -rf images/migrations/crds',
  '\tmkdir -p images/migrations/crds',
  '\tcp ../charts/crds/templates/*.yaml images/migrations/crds/',
  '\tdocker buildx build images/migrations -t ghcr.io/acme/migrations:v1',
  '\trm -rf images/migrations/crds',
  'build:',
  '\tgo build -o bin/server ./cmd/server',
  'image-server: build',
  '\tdocker build -f server.Dockerfile -t ghcr.io/acme/server:v1 .',
  'image-prebuilt:',
  '\tdocker build -f prebuilt.Dockerfile -t ghcr.io/acme/prebuilt:v1 .',
  '',
].join('\n');

function repo(): TestRepo {
  const r = newRepo();
  r.commit(
    {
      'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\nbuildEntry: none\n',
      'go.mod': 'module example.com/acme\n\ngo 1.22\n',
      'platform/Makefile': MAKEFILE,
      'platform/images/migrations/Dockerfile': 'FROM alpine\nCOPY crds /crds\nCOPY run.sh /run.sh\n',
      'platform/images/migrations/run.sh': 'true\n',
      'charts/crds/templates/a.yaml': 'kind: CustomResourceDefinition\n',
      'platform/server.Dockerfile': 'FROM scratch\nCOPY bin/server /server\n',
      'platform/prebuilt.Dockerfile': 'FROM scratch\nCOPY out/tool /tool\n',
      'platform/cmd/server/main.go': 'package main\n\nimport "example.com/acme/platform/internal/x"\n\nfunc main() { _ = x.X }\n',
      'platform/internal/x/x.go': 'package x\n\nvar X = 1\n',
      'platform/internal/unused/u.go': 'package unused\n',
    },
    'init',
  );
  return r;
}

async function affected(r: TestRepo): Promise<{ image: string; reasons: { path: string; input: string }[] }[]> {
  const run = await runCli(['affected', '--base', 'HEAD~1', '--format', 'json', '--no-cache'], { cwd: r.dir });
  expect(run.code, run.err).toBe(0);
  return JSON.parse(run.out);
}

describe('what a recipe makes before its build', () => {
  it('a CRD copied into the context by cp is an input of the image that COPYs it', async () => {
    const r = repo();
    r.commit({ 'charts/crds/templates/a.yaml': 'kind: CustomResourceDefinition\nspec: {}\n' }, 'fix(crds): a field');
    const out = await affected(r);
    expect(out.map((e) => [e.image, e.reasons.map((x) => x.path)])).toEqual([
      ['migrations', ['charts/crds/templates/a.yaml']],
      ['prebuilt', ['*']], // listed to be safe: what it copies is made by nothing the recipe says
    ]);
    expect(out[1]!.reasons[0]!.input).toMatch(/COPY out\/tool \(prebuilt\.Dockerfile:2\): platform\/out\/tool is not in the working tree: made before the build/);
  });

  it('explain --format json shows the copied sources with what they make, as the schema says', async () => {
    const r = repo();
    const run = await runCli(['explain', 'migrations', '--format', 'json', '--no-cache'], { cwd: r.dir });
    expect(run.code, run.err).toBe(0);
    const doc = JSON.parse(run.out) as { recipes: { inputs?: unknown[] }[] };
    expect(doc.recipes[0]!.inputs).toEqual([
      { path: 'charts/crds/templates/*.yaml', kind: 'glob', why: 'cp into platform/images/migrations/crds before the build (platform/Makefile:4)', made: 'platform/images/migrations/crds' },
    ]);
    const ajv = new Ajv({ strict: true, allErrors: true });
    const validate = ajv.compile(JSON.parse(readFileSync(new URL('../../schemas/explain-output.schema.json', import.meta.url), 'utf8')) as object);
    expect(validate(doc), ajv.errorsText(validate.errors)).toBe(true);
  });

  it("a binary a prerequisite compiles (go build -o) brings its package's import closure, not the rest of the module", async () => {
    const r = repo();
    r.commit({ 'platform/internal/x/x.go': 'package x\n\nvar X = 2\n' }, 'fix(x): two');
    r.commit({ 'platform/internal/unused/u.go': 'package unused\n\n// more\n' }, 'chore: unused');
    const touched = await runCli(['affected', '--base', 'HEAD~2', '--format', 'json', '--no-cache', '--unknown', 'exclude'], { cwd: r.dir });
    expect(JSON.parse(touched.out).map((e: { image: string; reasons: { path: string }[] }) => [e.image, e.reasons.map((x) => x.path)])).toEqual([['server', ['platform/internal/x/x.go']]]);
    const untouched = await runCli(['affected', '--base', 'HEAD~1', '--format', 'json', '--no-cache', '--unknown', 'exclude'], { cwd: r.dir });
    expect(JSON.parse(untouched.out)).toEqual([]);
  });
});
