/**
 * Repositories with no Makefile and no `images:` entries, whose image is built
 * by a docker-bake file (inherits, variables, a group) or a compose file
 * (build: with .env interpolation): stale, explain and affected find the
 * recipe there, through real git history.
 */
import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { runCli } from '../support/io.js';
import { DIGEST, values } from '../support/stale.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

const cli = (dir: string, ...argv: string[]) => runCli(['--repo', dir, ...argv], { cwd: dir });

const BAKE = `variable "REGISTRY" {
  default = "ghcr.io/acme"
}
variable "TAG" {}
group "default" {
  targets = ["api"]
}
target "_common" {
  args = { GO_VERSION = "1.22" }
}
target "api" {
  inherits = ["_common"]
  context = "src/api"
  tags = ["\${REGISTRY}/api:\${TAG}"]
}
`;

const COMPOSE = `services:
  api:
    build:
      context: src/api
      args:
        GO_VERSION: "1.22"
    image: \${REGISTRY:-docker.io/nobody}/api:\${TAG}
  db:
    image: postgres:16
`;

const KINDS: { kind: string; files: Record<string, string>; line: number; label: string; command: string }[] = [
  {
    kind: 'bake',
    files: { 'docker-bake.hcl': BAKE },
    line: 11,
    label: 'docker-bake.hcl:11 target "api" (group default): dockerfile src/api/Dockerfile, context src/api',
    command: 'docker buildx bake api: docker buildx build --build-arg GO_VERSION=1.22 --tag ghcr.io/acme/api:⟨var TAG⟩ src/api',
  },
  {
    kind: 'compose',
    files: { 'compose.yaml': COMPOSE, '.env': 'REGISTRY=ghcr.io/acme\n' },
    line: 3,
    label: 'compose.yaml:3 services.api: dockerfile src/api/Dockerfile, context src/api',
    command: 'docker compose build api: docker buildx build --build-arg GO_VERSION=1.22 --tag ghcr.io/acme/api:⟨env TAG⟩ src/api',
  },
];

for (const k of KINDS) {
  const file = Object.keys(k.files)[0]!;
  function repo() {
    const r = makeRepo();
    repos.push(r);
    r.commit(
      {
        'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\n',
        ...k.files,
        'src/api/Dockerfile': 'FROM golang:1.22\nARG GO_VERSION\nCOPY . /app\n',
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

  describe(`a ${k.kind} recipe, without images: or a Makefile`, () => {
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

    it('explain shows the recipe and the inputs derived from it', async () => {
      const { r } = repo();
      const { code, out } = await cli(r.dir, 'explain', 'ghcr.io/acme/api');
      expect(code).toBe(0);
      expect(out).toContain('build recipe(s) (1):');
      expect(out).toContain(k.label);
      expect(out).toContain(k.command);
      expect(out).toContain(`(from recipe ${file}:${k.line})`);
      expect(out).toContain('fix(api): retry on conflict');
      const json = JSON.parse((await cli(r.dir, 'explain', 'ghcr.io/acme/api', '--format', 'json')).out);
      expect(json.recipes).toEqual([expect.objectContaining({ kind: k.kind, makefile: file, line: k.line, context: 'src/api', repositories: ['ghcr.io/acme/api'] })]);
      const validate = new Ajv({ strict: true, allErrors: true }).compile(JSON.parse(readFileSync(new URL('../../schemas/explain-output.schema.json', import.meta.url), 'utf8')));
      expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    });

    it('affected names the image when its recipe-derived inputs changed, and not for an unrelated change', async () => {
      const { r, prep } = repo();
      const { code, out } = await cli(r.dir, 'affected', '--base', prep, '--unknown', 'exclude');
      expect(code).toBe(0);
      expect(JSON.parse(out)).toEqual([{ image: 'api', repository: 'ghcr.io/acme/api', reasons: [expect.objectContaining({ path: 'src/api/main.go' })] }]);
      const head = r.git('rev-parse', 'HEAD');
      r.commit({ 'src/other/main.go': 'package other\n// again\n' }, 'chore(other): still not an input');
      const unrelated = await cli(r.dir, 'affected', '--base', head, '--unknown', 'exclude');
      expect(JSON.parse(unrelated.out)).toEqual([]);
    });

    it('lint has no build-entry-missing warning', async () => {
      const { r } = repo();
      const { out } = await cli(r.dir, 'lint', '--format', 'json');
      expect(out).not.toContain('build-entry-missing');
      expect(out).not.toContain('build-recipe-problem');
    });
  });
}

describe('a compose file that both builds and pins its image (image: interpolated from .env)', () => {
  function repo() {
    const r = makeRepo();
    repos.push(r);
    const compose = 'services:\n  api:\n    build: src/api\n    image: ${REGISTRY}/api:${TAG}\n';
    r.commit(
      {
        'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\ninclude: [compose.yaml]\n',
        'compose.yaml': compose,
        '.env': `REGISTRY=ghcr.io/acme\nTAG=v1.0.0@${DIGEST('a')}\n`,
        'src/api/Dockerfile': 'FROM alpine\nCOPY . /app\n',
        'src/api/main.go': 'package main\n',
      },
      'initial',
    );
    r.commit({ '.env': `REGISTRY=ghcr.io/acme\nTAG=v1.1.0@${DIGEST('b')}\n` }, 'Prepare release v1.1.0');
    r.commit({ 'src/api/main.go': 'package main\n// retry\n' }, 'fix(api): retry on conflict');
    return { r };
  }

  it('scan reads the interpolated pin; stale cannot date a digest spelled in .env and says unknown', async () => {
    const { r } = repo();
    const scan = JSON.parse((await cli(r.dir, 'scan', '--format', 'json')).out);
    expect(scan.pins).toEqual([expect.objectContaining({ file: 'compose.yaml', line: 4, keyPath: "services.api.image", ref: `ghcr.io/acme/api:v1.1.0@${DIGEST("b")}` })]);
    const { code, out } = await cli(r.dir, 'stale', '--format', 'json');
    const doc = JSON.parse(out);
    // The digest is spelled in .env, and digest history reads the history of the pinned file (compose.yaml):
    // it cannot tell the build commit, so the answer is unknown with the reason, never current.
    expect(doc.images[0]).toMatchObject({ repository: 'ghcr.io/acme/api', status: 'unknown', builtFrom: null, inputs: { paths: ['src/api/Dockerfile', 'src/api/'] } });
    expect(doc.images[0].reason).toContain('never appears in the history of the 1 pin file(s)');
    expect(code).not.toBe(1);
  });
});
