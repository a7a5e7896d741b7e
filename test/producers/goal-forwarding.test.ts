/**
 * A Makefile that forwards its goals to another (envoyproxy/gateway: `$(if $(MAKECMDGOALS),$(MAKECMDGOALS): %: _run)`,
 * `_run:` running `$(MAKE) -f tools/make/common.mk $(MAKECMDGOALS)`): a workflow's `make image.push.multiarch
 * IMAGE=…` reaches the recipe in common.mk with the call's variables (make hands them to sub-makes), and
 * `$(shell pwd -P)` is the directory make runs in.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { loadBuildModel } from '../../src/producers/index.js';
import { reposRemovedAfterEach } from '../support/repo.js';

const newRepo = reposRemovedAfterEach('pinwatch-goals-');

describe('goals forwarded to another makefile', () => {
  it('are followed from a workflow with MAKECMDGOALS set, the call’s variables passed on', async () => {
    const r = newRepo();
    r.commit(
      {
        'pinwatch.yaml': 'firstParty: [docker.io/acme/]\nbuildEntry: none\n',
        Makefile: '_run:\n\t@$(MAKE) --warn-undefined-variables -f tools/make/common.mk $(MAKECMDGOALS)\n\n.PHONY: _run\n\n$(if $(MAKECMDGOALS),$(MAKECMDGOALS): %: _run)\n',
        'tools/make/common.mk': 'ROOT_DIR := $(shell pwd -P)\nIMAGE ?= docker.io/acme/gateway-dev\nTAG ?= dev\nimage.push.multiarch:\n\tdocker buildx build . -f $(ROOT_DIR)/tools/docker/Dockerfile -t $(IMAGE):$(TAG) --push\n',
        'tools/docker/Dockerfile': 'FROM scratch\nCOPY Makefile /\n',
        '.github/workflows/release.yaml': 'on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make image.push.multiarch IMAGE=docker.io/acme/gateway TAG=v1\n',
      },
      'init',
    );
    const model = await loadBuildModel(r.dir, loadConfig(r.dir));
    expect(model.recipes.map((x) => [x.makefile, x.target, x.dockerfile, x.repositories])).toEqual([
      ['tools/make/common.mk', 'image.push.multiarch (via .github/workflows/release.yaml:6 jobs.b step 1)', 'tools/docker/Dockerfile', ['docker.io/acme/gateway']],
    ]);
    expect(model.problems).toEqual([]);
  });
});
