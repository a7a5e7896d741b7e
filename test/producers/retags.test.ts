/**
 * Images named again after their build (thanos: `docker build -t thanos-linux-$*`, `docker tag thanos-linux-$*
 * $(REPO)-linux-$*:$(TAG)`, `docker manifest create $(REPO):$(TAG) $(foreach …)`): the published name is built by
 * the per-architecture recipes, so `explain` and `affected` find them.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { loadBuildModel } from '../../src/producers/index.js';
import { readCommands } from '../../src/producers/commands.js';
import { reposRemovedAfterEach } from '../support/repo.js';

const newRepo = reposRemovedAfterEach('pinwatch-retags-');

describe('names given after the build', () => {
  it.each([
    ['docker tag app quay.io/acme/app:v1', [{ from: ['app'], to: 'quay.io/acme/app:v1' }]],
    ['docker image tag app:dev quay.io/acme/app:v1', [{ from: ['app:dev'], to: 'quay.io/acme/app:v1' }]],
    ['podman tag app quay.io/acme/app:v1 ghcr.io/acme/app:v1', [{ from: ['app'], to: 'quay.io/acme/app:v1' }, { from: ['app'], to: 'ghcr.io/acme/app:v1' }]],
    ['docker manifest create -a quay.io/acme/app:v1 quay.io/acme/app-linux-amd64:v1 quay.io/acme/app-linux-arm64:v1', [{ from: ['quay.io/acme/app-linux-amd64:v1', 'quay.io/acme/app-linux-arm64:v1'], to: 'quay.io/acme/app:v1' }]],
    ['docker buildx imagetools create -t ghcr.io/acme/app:v1 --tag ghcr.io/acme/app:latest ghcr.io/acme/app:sha-1', [{ from: ['ghcr.io/acme/app:sha-1'], to: 'ghcr.io/acme/app:v1' }, { from: ['ghcr.io/acme/app:sha-1'], to: 'ghcr.io/acme/app:latest' }]],
    ['docker manifest push quay.io/acme/app:v1', []],
    ['docker push quay.io/acme/app:v1', []],
  ])('%s', (text, retags) => {
    const facts = readCommands([{ text, file: 'Makefile', line: 3 }], '/repo');
    expect((facts.retags ?? []).map(({ from, to }) => ({ from, to }))).toEqual(retags);
  });

  it('a manifest of per-architecture builds is built by each of their recipes', async () => {
    const r = newRepo();
    r.commit(
      {
        'pinwatch.yaml': 'firstParty: [quay.io/acme/]\nbuildEntry: none\n',
        Dockerfile: 'FROM scratch\nCOPY Makefile /\n',
        Makefile: [
          'REPO ?= quay.io/acme/app',
          'TAG ?= v1',
          'ARCHS = amd64 arm64',
          'BUILD = $(addprefix docker-build-,$(ARCHS))',
          'PUSH = $(addprefix docker-push-,$(ARCHS))',
          '$(BUILD): docker-build-%:',
          '\tdocker build -t "app-linux-$*" --build-arg ARCH=$* .',
          '$(PUSH): docker-push-%:',
          '\tdocker tag "app-linux-$*" "$(REPO)-linux-$*:$(TAG)"',
          'docker-manifest:',
          '\tdocker manifest create -a "$(REPO):$(TAG)" $(foreach A,$(ARCHS),$(REPO)-linux-$(A):$(TAG))',
          'other:',
          '\tdocker tag alpine:3 quay.io/acme/alpine:3',
          '',
        ].join('\n'),
      },
      'init',
    );
    const model = await loadBuildModel(r.dir, loadConfig(r.dir));
    expect(model.recipes.map((x) => [x.target, x.repositories])).toEqual([
      ['docker-build-amd64', ['docker.io/library/app-linux-amd64', 'quay.io/acme/app-linux-amd64', 'quay.io/acme/app']],
      ['docker-build-arm64', ['docker.io/library/app-linux-arm64', 'quay.io/acme/app-linux-arm64', 'quay.io/acme/app']],
    ]);
  });
});
