import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config/defaults.js';
import { scanRepo } from './repo.js';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })));

function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'pinwatch-compose-scan-'));
  roots.push(root);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
  return root;
}

const config = (include: string[]) => ({ ...defaultConfig(), firstParty: ['ghcr.io/acme/'], include });

describe('compose image: pins, interpolated from the project .env', () => {
  it('a resolved image: is a pin of the image it names; an unset variable is a problem at its line, never a ref', async () => {
    const root = repo({
      'deploy/compose.yaml': [
        'services:',
        '  api:',
        '    build: ../src/api',
        '    image: ${REGISTRY:-docker.io/nobody}/api:${TAG}',
        '  web:',
        '    image: "$${NOT_A_VAR}"',
        '  job:',
        '    image: ${IMAGE_NAME}:latest',
        '  db:',
        '    image: postgres:16',
        '',
      ].join('\n'),
      'deploy/.env': 'REGISTRY=ghcr.io/acme\nTAG=v1.2.0@sha256:' + 'a'.repeat(64) + '\n',
    });
    const r = await scanRepo(root, config(['**/compose.yaml']));
    expect(r.pins.map((p) => [p.line, p.keyPath, p.raw, p.ref.name, p.form, p.firstParty, p.spans])).toEqual([
      [4, 'services.api.image', `ghcr.io/acme/api:v1.2.0@sha256:${'a'.repeat(64)}`, 'ghcr.io/acme/api', 'tag+digest', true, []],
      [10, 'services.db.image', 'postgres:16', 'docker.io/library/postgres', 'tag', false, [expect.anything()]],
    ]);
    expect(r.problems.map((p) => [p.line, p.code, p.reason])).toEqual([
      [6, 'compose-variable-unset', 'services.web.image "$${NOT_A_VAR}" names no image in the repository: "${NOT_A_VAR}" is not an image reference'],
      [8, 'compose-variable-unset', expect.stringContaining('services.job.image "${IMAGE_NAME}:latest" names no image in the repository: IMAGE_NAME is not set in the project .env')],
    ]);
    expect(JSON.stringify(r.pins)).not.toContain('${');
  });

  it("an image: in an extension field the services merge in is interpolated too (getsentry/self-hosted's x-snuba-defaults)", async () => {
    const root = repo({
      'docker-compose.yml': ['x-snuba-defaults: &snuba_defaults', '  image: "$SNUBA_IMAGE"', '  restart: always', 'services:', '  snuba-api:', '    <<: *snuba_defaults', '  snuba-consumer:', '    <<: *snuba_defaults', ''].join('\n'),
      '.env': 'SNUBA_IMAGE=ghcr.io/getsentry/snuba:nightly\n',
    });
    const r = await scanRepo(root, config(['docker-compose.yml']));
    expect(r.pins.map((p) => [p.line, p.keyPath, p.raw])).toEqual([[2, 'x-snuba-defaults.image', 'ghcr.io/getsentry/snuba:nightly']]);
    expect(r.problems).toEqual([]);
  });

  it('a YAML file that is not a compose file is left as the YAML collector reads it (a placeholder envsubst or Flux fills: counted, not interpolated)', async () => {
    const root = repo({ 'values.yaml': 'image: ${X}/a:1\n', '.env': 'X=ghcr.io/acme\n' });
    const r = await scanRepo(root, config(['values.yaml']));
    expect(r.pins).toEqual([]);
    expect(r.problems).toEqual([]);
    expect(r.excluded.find((e) => e.reason.startsWith('image values that are placeholders'))?.examples).toEqual(['values.yaml:1 image ${X}/a:1']);
  });
});
