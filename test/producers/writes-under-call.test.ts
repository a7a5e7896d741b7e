/**
 * A pin written by a target that only a make call's own variables aim (kubernetes-sigs/cluster-api:
 * `$(MAKE) set-manifest-image MANIFEST_IMG=… MANIFEST_TAG=… TARGET_RESOURCE=core/…/manager_image_patch.yaml`,
 * whose recipe is `sed -i 's@image: .*@image: '"$(MANIFEST_IMG):$(MANIFEST_TAG)"'@' $(TARGET_RESOURCE)`):
 * the plain reading of that target writes no file, so the write is read under each call, and the pins it
 * stamps have a producer. A replacement the plain reading spells too (a constant, a template) is still no stamp.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { lintRepo } from '../../src/lint/index.js';
import { reposRemovedAfterEach } from '../support/repo.js';

const newRepo = reposRemovedAfterEach('pinwatch-under-call-');

const PATCH = (image: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: m\nspec:\n  template:\n    spec:\n      containers:\n        - name: manager\n          image: ${image}\n          imagePullPolicy: Always\n`;

function repoWith(setImage: string) {
  const r = newRepo();
  r.commit(
    {
      'pinwatch.yaml': 'firstParty: [docker.io/acme/]\ninclude: ["**/patch.yaml"]\n',
      Makefile: [
        'TAG ?= dev',
        'PULL_POLICY ?= Always',
        'build:',
        '\t$(MAKE) set-image IMG=docker.io/acme/core TARGET=core/patch.yaml',
        '\t$(MAKE) set-image IMG=docker.io/acme/extra TARGET=extra/patch.yaml',
        '\t$(MAKE) set-policy PULL_POLICY=IfNotPresent TARGET=core/patch.yaml',
        'set-image:',
        `\t${setImage}`,
        'set-policy:',
        "\tsed -i'' -e 's@imagePullPolicy: .*@imagePullPolicy: '\"$(PULL_POLICY)\"'@' $(TARGET)",
        '',
      ].join('\n'),
      'core/patch.yaml': PATCH('docker.io/acme/core:main'),
      'extra/patch.yaml': PATCH('docker.io/acme/extra:main'),
    },
    'init',
  );
  return r;
}

describe('writes aimed by a make call’s variables', () => {
  it('stamp the file each call names, one producer to the rules, built from the entry', async () => {
    const r = repoWith("sed -i'' -e 's@image: .*@image: '\"$(IMG):$(TAG)\"'@' $(TARGET)");
    const result = await lintRepo(r.dir, loadConfig(r.dir), { baseline: false });
    const writes = result.model.producers.filter((p) => p.id === 'Makefile:set-image').map((p) => [p.built, p.writes.map((w) => [w.file, w.via, w.lines])]);
    expect(writes).toEqual([
      [true, [['core/patch.yaml', 'sed', [10]]]],
      [true, [['extra/patch.yaml', 'sed', [10]]]],
    ]);
    // the pull-policy write is no image write, though a call's variable spells it
    expect(result.model.producers.some((p) => p.id === 'Makefile:set-policy')).toBe(false);
    expect(result.findings.filter((f) => ['no-producer', 'multiple-producers', 'lockstep-mismatch', 'write-without-pin'].includes(f.rule))).toEqual([]);
    expect(result.findings.filter((f) => f.rule === 'first-party-missing-digest').map((f) => f.file)).toEqual(['core/patch.yaml', 'extra/patch.yaml']);
  });

  it('a replacement the Makefile spells as it is (a constant) is no stamp under a call either', async () => {
    const r = repoWith("sed -i'' -e 's@image: .*@image: docker.io/acme/placeholder:dev@' $(TARGET)");
    const result = await lintRepo(r.dir, loadConfig(r.dir), { baseline: false });
    expect(result.model.producers).toEqual([]);
    expect(result.findings.filter((f) => f.rule === 'no-producer').map((f) => f.file)).toEqual(['core/patch.yaml', 'extra/patch.yaml']);
  });
});
