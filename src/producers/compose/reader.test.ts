import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readableMarkers } from '../../make/index.js';
import type { Problem } from '../../model/index.js';
import { marker } from '../../make/index.js';
import { interpolateCompose as interpolateWith, parseDotEnv } from '../../util/compose-interpolate.js';

const interpolateCompose = (text: string, env: ReadonlyMap<string, string>) => interpolateWith(text, env, (name) => marker('env', name));
import { readCompose } from './reader.js';
import { readComposeFile } from './repo.js';
import { findComposeFiles } from '../finders.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'pinwatch-compose-'));
  for (const f of ['api/Dockerfile', 'web/Dockerfile.dev', 'deploy/svc/Dockerfile', 'vendor/x/compose.yaml', 'node_modules/y/docker-compose.yml']) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), f.endsWith('.yaml') || f.endsWith('.yml') ? 'services:\n  x:\n    build: .\n' : 'FROM alpine\n');
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('compose interpolation (compose specification, "Interpolation")', () => {
  const env = new Map([['SET', 'v'], ['EMPTY', ''], ['N', 'inner']]);
  const cases: [string, string][] = [
    ['$SET and ${SET}', 'v and v'],
    ['${SET:-d}', 'v'],
    ['${EMPTY:-d}', 'd'],
    ['${UNSET:-d}', 'd'],
    ['${EMPTY-d}', ''],
    ['${UNSET-d}', 'd'],
    ['${SET:+alt}', 'alt'],
    ['${EMPTY:+alt}', ''],
    ['${EMPTY+alt}', 'alt'],
    ['${UNSET+alt}', ''],
    ['${UNSET:-${N}-x}', 'inner-x'],
    ['$$SET and $${SET}', '$SET and ${SET}'],
    ['cost: 5$', 'cost: 5$'],
    ['${SET:?must be set}', 'v'],
  ];
  for (const [text, want] of cases) it(text, () => expect(interpolateCompose(text, env)).toEqual({ text: want, unknowns: [] }));

  const unknown: [string, string, boolean][] = [
    ['${UNSET}', 'UNSET is not set in the project .env and has no default', false],
    ['$UNSET', 'UNSET is not set in the project .env and has no default', false],
    ['${EMPTY:?need it}', 'EMPTY is required (and must not be empty) and not set in .env: "need it"', true],
    ['${UNSET?need it}', 'UNSET is required and not set in .env: "need it"', true],
  ];
  for (const [text, reason, required] of unknown) {
    it(`${text} is an unknown with why, never the text`, () => {
      const r = interpolateCompose(`reg/${text}:1`, env);
      expect(readableMarkers(r.text)).toMatch(/^reg\/⟨env [A-Z]+⟩:1$/);
      expect(r.unknowns).toEqual([expect.objectContaining({ reason: expect.stringContaining(reason), ...(required ? { required: true } : {}) })]);
    });
  }
  it('an unclosed ${ is an error', () => expect(interpolateCompose('${X', env).error).toContain('no closing }'));

  it('.env: KEY=VALUE, export, comments, quotes, escapes, earlier variables, unreadable lines', () => {
    const { vars, problems } = parseDotEnv('# c\nexport A=1\nB = two words # comment\nC="q \\"x\\"\\n${A}"\nD=\'${A} lit\'\nE=${A}-x\nbad line\nF=\n');
    expect(Object.fromEntries(vars)).toEqual({ A: '1', B: 'two words', C: 'q "x"\n1', D: '${A} lit', E: '1-x', F: '' });
    expect(problems).toEqual([{ line: 7, reason: '"bad line" is not KEY=VALUE' }]);
  });
});

describe('readCompose', () => {
  const read = (text: string, env: Record<string, string> = {}, file = 'compose.yaml') => {
    const problems: Problem[] = [];
    return { recipes: readCompose(root, file, text, new Map(Object.entries(env)), problems), problems };
  };

  it('build as a directory or a mapping (context, dockerfile relative to it, target, args map and list, platforms, tags); image tags the build', () => {
    const { recipes, problems } = read(
      `name: shop
services:
  api:
    build: ./api
    image: \${REGISTRY:-ghcr.io/acme}/api:\${TAG}
  web:
    build:
      context: web
      dockerfile: Dockerfile.dev
      target: dev
      args:
        NODE: "20"
        FROM_ENV:
      platforms: [linux/amd64]
      tags: ["ghcr.io/acme/web-extra:1"]
    image: ghcr.io/acme/web
  worker:
    build:
      context: api
      args: ["A=1", "TOKEN"]
  db:
    image: postgres:16
`,
      { TAG: '1.0', FROM_ENV: 'e' },
    );
    expect(problems.map((p) => [p.line, p.code, p.reason])).toEqual([[20, 'compose-variable-unset', 'build arg TOKEN of services.worker takes its value from the environment, and .env does not set it']]);
    expect(recipes.map((r) => [r.target, r.line, r.context, r.dockerfile, r.stage, r.repositories])).toEqual([
      ['services.api', 4, 'api', 'api/Dockerfile', undefined, ['ghcr.io/acme/api']],
      ['services.web', 7, 'web', 'web/Dockerfile.dev', 'dev', ['ghcr.io/acme/web', 'ghcr.io/acme/web-extra']],
      ['services.worker', 18, 'api', 'api/Dockerfile', undefined, ['docker.io/library/shop-worker']],
    ]);
    expect(recipes[1]!.command).toBe('docker compose build web: docker buildx build --file Dockerfile.dev --target dev --build-arg NODE=20 --build-arg FROM_ENV=e --platform linux/amd64 --tag ghcr.io/acme/web --tag ghcr.io/acme/web-extra:1 web');
    expect(recipes[0]!.command).toBe('docker compose build api: docker buildx build --tag ghcr.io/acme/api:1.0 ./api');
  });

  it('an image name from an unset variable is a problem with the reason, and names no repository', () => {
    const { recipes, problems } = read('services:\n  api:\n    build: api\n    image: ${IMAGE_NAME}:latest\n');
    expect(recipes[0]!.repositories).toEqual([]);
    expect(problems).toEqual([expect.objectContaining({ line: 3, code: 'recipe-tag-unreadable', reason: expect.stringContaining('IMAGE_NAME is not set in the project .env') })]);
    expect(JSON.stringify(recipes)).not.toContain('${IMAGE_NAME}');
  });

  it('an unset version only is no problem; a required variable is; extends and inline Dockerfiles are problems', () => {
    const { recipes, problems } = read('services:\n  api:\n    build: api\n    image: ghcr.io/acme/api:${TAG}\n  b:\n    extends: api\n    build:\n      context: api\n      dockerfile_inline: "FROM x"\n    image: ghcr.io/acme/b:${V:?set V}\n');
    expect(recipes.map((r) => r.repositories)).toEqual([['ghcr.io/acme/api'], ['ghcr.io/acme/b']]);
    expect(problems.map((p) => [p.line, p.code])).toEqual([[5, 'compose-extends-not-read'], [9, 'compose-build-unsupported'], [10, 'compose-variable-unset']]);
  });

  it('reads the .env of the compose file directory; finds compose files but not in vendored trees', () => {
    writeFileSync(join(root, 'deploy/compose.prod.yml'), 'services:\n  svc:\n    build: svc\n    image: ${REG}/svc\n');
    writeFileSync(join(root, 'deploy/.env'), 'REG=quay.io/acme\n');
    expect(findComposeFiles(root, [])).toEqual(['deploy/compose.prod.yml']);
    const problems: Problem[] = [];
    expect(readComposeFile(root, 'deploy/compose.prod.yml', problems).map((r) => [r.context, r.repositories])).toEqual([['deploy/svc', ['quay.io/acme/svc']]]);
    expect(problems).toEqual([]);
  });

  it('an override file takes the image: of the service in the file it is merged into', () => {
    mkdirSync(join(root, 'ov'), { recursive: true });
    writeFileSync(join(root, 'ov/.env'), 'IMG=ghcr.io/acme/api\n');
    writeFileSync(join(root, 'ov/compose.yml'), 'services:\n  api:\n    image: ${IMG?set it}:${TAG-latest}\n');
    writeFileSync(join(root, 'ov/compose.override.yml'), 'services:\n  api:\n    build: ../api\n  dev:\n    build: ../api\n');
    const problems: Problem[] = [];
    expect(readComposeFile(root, 'ov/compose.override.yml', problems).map((r) => r.repositories)).toEqual([['ghcr.io/acme/api'], ['docker.io/library/ov-dev']]);
    expect(problems).toEqual([]);
  });

  it('invalid YAML is one problem', () => {
    expect(read('services:\n  a: [\n').problems.map((p) => p.code)).toEqual(['compose-yaml-error']);
  });

  it("a service's build and image merged in from an x- anchor (getsentry/self-hosted's <<: *sentry_defaults) are read; its own keys win", () => {
    const { recipes, problems } = read(
      [
        'x-restart: &restart',
        '  restart: always',
        'x-defaults: &defaults',
        '  <<: [*restart]',
        '  image: ghcr.io/acme/app:${TAG}',
        '  build:',
        '    context: ./api',
        '    args:',
        '      - BASE',
        'services:',
        '  web:',
        '    <<: *defaults',
        '  worker:',
        '    <<: *defaults',
        '    image: ghcr.io/acme/worker:1',
        '',
      ].join('\n'),
      { TAG: '2', BASE: 'alpine:3.20' },
    );
    expect(problems).toEqual([]);
    expect(recipes.map((r) => [r.target, r.line, r.context, r.repositories, r.command.includes('--build-arg BASE=alpine:3.20')])).toEqual([
      ['services.web', 6, 'api', ['ghcr.io/acme/app'], true],
      ['services.worker', 6, 'api', ['ghcr.io/acme/worker'], true],
    ]);
  });
});
