/**
 * The `aliases` key end to end on a real tree: a pin under an alias prefix is
 * first-party and the same image as the canonical one, a recipe that tags the
 * staging name builds the released image, and pinwatch.yaml rejects a bad map
 * with file:line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { loadConfig } from '../../src/config/index.js';
import { scanRepo } from '../../src/scan/index.js';
import { imagesFromPins } from '../../src/images/index.js';
import { runCli } from '../support/io.js';
import { DIGEST } from '../support/stale.js';

const repos: TestRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

function tree(aliases: string): TestRepo {
  const r = makeRepo('pinwatch-aliases-');
  repos.push(r);
  r.commit(
    {
      'pinwatch.yaml': `firstParty: [ghcr.io/acme/]\n${aliases}`,
      Makefile: 'build:\n\tdocker buildx build -f images/osc/Dockerfile . --tag gcr.io/acme-staging/osc:dev\n',
      'images/osc/Dockerfile': 'FROM scratch\nCOPY src/osc /osc\n',
      'src/osc/main.go': 'package main\n',
      'charts/osc/values.yaml': `image: ghcr.io/acme/osc:v1@${DIGEST('a')}\n`,
      'charts/osc-e2e/values.yaml': `image: gcr.io/acme-staging/osc:v1@${DIGEST('a')}\n`,
    },
    'initial',
  );
  return r;
}

describe('aliases', () => {
  it('groups a pin under the staging prefix with the released image and finds the recipe that tags the staging name', async () => {
    const r = tree('aliases:\n  "gcr.io/acme-staging/": "ghcr.io/acme/"\n');
    const config = loadConfig(r.dir);
    const scan = await scanRepo(r.dir, config);
    expect(scan.pins.map((p) => [p.ref.name, p.firstParty])).toEqual(expect.arrayContaining([['gcr.io/acme-staging/osc', true], ['ghcr.io/acme/osc', true]]));
    const known = await imagesFromPins(r.dir, config, scan.pins);
    expect(known.images.map((i) => [i.repository, i.pins.length])).toEqual([['ghcr.io/acme/osc', 2]]);
    expect(known.images[0]!.recipes.map((x) => x.repositories)).toEqual([['gcr.io/acme-staging/osc']]);
    expect(known.images[0]!.missingInputsReason).toBeUndefined();
  });

  it('without the alias, the staging pin is third-party and no recipe builds the released image', async () => {
    const r = tree('');
    const config = loadConfig(r.dir);
    const scan = await scanRepo(r.dir, config);
    expect(scan.pins.find((p) => p.ref.name === 'gcr.io/acme-staging/osc')!.firstParty).toBe(false);
    const known = await imagesFromPins(r.dir, config, scan.pins);
    expect(known.images.map((i) => [i.repository, i.pins.length, i.recipes.length])).toEqual([['ghcr.io/acme/osc', 1, 0]]);
  });

  it.each([
    ['aliases:\n  "acme-staging/": "ghcr.io/acme/"\n', /pinwatch\.yaml:3: aliases: key "acme-staging\/" does not start with a registry host/],
    ['aliases:\n  "gcr.io/acme-staging/": "ghcr.io/Acme/"\n', /pinwatch\.yaml:3: aliases\.gcr\.io\/acme-staging\/: "ghcr.io\/Acme\/" is not a repository prefix/],
    ['aliases:\n  "gcr.io/a/": "gcr.io/b/"\n  "gcr.io/b/": "ghcr.io/acme/"\n', /pinwatch\.yaml: aliases: "gcr.io\/a\/" maps to "gcr.io\/b\/", which is itself an alias/],
  ])('rejects a bad alias map: %j', async (aliases, message) => {
    const r = tree(aliases);
    const run = await runCli(['--repo', r.dir, 'scan']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(message);
  });
});
