/**
 * Kustomize overlays and Helm chart conventions on real trees (issue 11): the
 * scan follows resources/bases/components, reports the ref each container
 * image deploys per root overlay, leaves out base placeholders every overlay
 * sets and template entries, reads the Chart.yaml appVersion beside a values
 * file, and drops Helm repositories that only prefix first-party images.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { formatScanText } from '../../src/report/scan-text.js';
import { scanRepo } from '../../src/scan/index.js';
import { runCli, treesRemovedAfterEach } from '../support/tree.js';

const D = 'sha256:0a92e861ead179dd6b46f475fd8878d44b3cfa40ce4d7a8ff92f790d54250d25';
const tree = treesRemovedAfterEach();

const deployment = (name: string, image: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  template:\n    spec:\n      containers:\n      - name: ${name}\n        image: ${image}\n`;

/** A base with placeholders, two overlays that set them, a component with a template, a remote and a missing resource. */
const KUSTOMIZE_TREE = {
  'deploy/base/kustomization.yaml': 'resources:\n- frontend.yaml\n- worker.yaml\n- redis.yaml\n',
  'deploy/base/frontend.yaml': deployment('frontend', 'frontend'),
  'deploy/base/worker.yaml': deployment('worker', 'ghcr.io/acme/worker:latest'),
  'deploy/base/redis.yaml': deployment('redis', 'redis:7.2'),
  'deploy/overlays/prod/kustomization.yaml': [
    'apiVersion: kustomize.config.k8s.io/v1beta1',
    'kind: Kustomization',
    'resources:',
    '- ../../base',
    '- https://github.com/acme/shared//deploy?ref=v1',
    'images:',
    '- name: frontend',
    '  newName: ghcr.io/acme/frontend',
    '  newTag: v1.4.0',
    '- name: ghcr.io/acme/worker',
    `  digest: ${D}`,
    '',
  ].join('\n'),
  'deploy/overlays/dev/kustomization.yaml': [
    'resources:',
    '- ../../base',
    'components:',
    '- ../../components/tag',
    'images:',
    '- name: frontend',
    '  newName: ghcr.io/acme/frontend',
    '  newTag: v1.5.0-rc1',
    '',
  ].join('\n'),
  'deploy/components/tag/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nimages:\n- name: ghcr.io/acme/worker\n  newTag: CONTAINER_IMAGES_TAG\n',
  'deploy/broken/kustomization.yaml': 'resources:\n- missing.yaml\n',
};

describe('kustomize overlays', () => {
  it('reads the resources no include glob names, and reports the ref each overlay deploys', async () => {
    const t = tree(KUSTOMIZE_TREE);
    const r = await scanRepo(t.dir, loadConfig(t.dir, { firstParty: ['ghcr.io/acme/'] }));
    const effective = r.kustomize.map((o) => `${o.kustomization}: ${o.images.map((i) => `${i.written} -> ${i.effective ?? `(${i.templated})`} [${i.setBy.join(' ')}]`).join('; ')}`);
    expect(effective).toEqual([
      'deploy/overlays/dev/kustomization.yaml: frontend -> ghcr.io/acme/frontend:v1.5.0-rc1 [deploy/overlays/dev/kustomization.yaml:7]; ' +
        'ghcr.io/acme/worker:latest -> (newTag: CONTAINER_IMAGES_TAG at deploy/components/tag/kustomization.yaml:4) [deploy/components/tag/kustomization.yaml:4]; redis:7.2 -> redis:7.2 []',
      `deploy/overlays/prod/kustomization.yaml: frontend -> ghcr.io/acme/frontend:v1.4.0 [deploy/overlays/prod/kustomization.yaml:8]; ` +
        `ghcr.io/acme/worker:latest -> ghcr.io/acme/worker@${D} [deploy/overlays/prod/kustomization.yaml:10]; redis:7.2 -> redis:7.2 []`,
    ]);
  });

  it('leaves out base placeholders every overlay sets, and template entries, with counts; keeps concrete base pins', async () => {
    const t = tree(KUSTOMIZE_TREE);
    const r = await scanRepo(t.dir, loadConfig(t.dir, { firstParty: ['ghcr.io/acme/'] }));
    expect(r.pins.map((p) => `${p.file}:${p.line} ${p.raw}`)).toEqual([
      'deploy/base/redis.yaml:10 redis:7.2',
      'deploy/overlays/dev/kustomization.yaml:7 ghcr.io/acme/frontend:v1.5.0-rc1',
      'deploy/overlays/prod/kustomization.yaml:8 ghcr.io/acme/frontend:v1.4.0',
      `deploy/overlays/prod/kustomization.yaml:10 ghcr.io/acme/worker@${D}`,
    ]);
    const excluded = Object.fromEntries(r.excluded.map((e) => [e.reason.split(' ').slice(0, 4).join(' '), `${e.count} ${e.examples.join(', ')}`]));
    expect(excluded['kustomize base placeholders (a']).toBe('2 deploy/base/frontend.yaml:10 frontend, deploy/base/worker.yaml:10 ghcr.io/acme/worker:latest');
    expect(excluded['kustomize images: entries whose']).toBe('1 deploy/components/tag/kustomization.yaml:4');
    // a missing resource may be generated before kustomize runs: counted with the reason, not a problem (no lint finding)
    expect(excluded['kustomize resources/components not followed']).toBe(
      '2 deploy/broken/kustomization.yaml:2 missing.yaml (does not exist), deploy/overlays/prod/kustomization.yaml:5 https://github.com/acme/shared//deploy?ref=v1 (a remote resource (not fetched); its images are not known)',
    );
    expect(r.problems).toEqual([]);
    expect(r.excluded.some((e) => e.reason.startsWith('YAML files matching no include glob'))).toBe(false); // the base manifests were read
  });

  it('keeps a placeholder that some overlay deploys unset (lint must still see it)', async () => {
    const t = tree({ ...KUSTOMIZE_TREE, 'deploy/overlays/bare/kustomization.yaml': 'resources:\n- ../../base\n' });
    const r = await scanRepo(t.dir, loadConfig(t.dir, { firstParty: ['ghcr.io/acme/'] }));
    expect(r.pins.filter((p) => p.file.startsWith('deploy/base/')).map((p) => p.raw)).toEqual(['frontend', 'redis:7.2', 'ghcr.io/acme/worker:latest']);
  });

  it('a base tag every overlay replaces (kubeflow\'s :dummy) is a placeholder; a digest is not; an entry that only renames (flux2) pins nothing', async () => {
    const t = tree({
      'deploy/base/kustomization.yaml': 'resources:\n- api.yaml\n- db.yaml\n',
      'deploy/base/api.yaml': deployment('api', 'ghcr.io/acme/api:dummy'),
      'deploy/base/db.yaml': deployment('db', `ghcr.io/acme/db:v1@${D}`),
      'deploy/overlays/a/kustomization.yaml': 'resources:\n- ../../base\nimages:\n- name: ghcr.io/acme/api\n  newTag: 2.17.0\n- name: ghcr.io/acme/db\n  newTag: v2\n',
      'deploy/overlays/b/kustomization.yaml': 'resources:\n- ../../base\nimages:\n- name: ghcr.io/acme/api\n  newTag: master\n- name: fluxcd/source-controller\n  newName: ghcr.io/fluxcd/source-controller\n',
    });
    const r = await scanRepo(t.dir, loadConfig(t.dir, { firstParty: ['ghcr.io/acme/', 'ghcr.io/fluxcd/'] }));
    expect(r.pins.map((p) => `${p.file}:${p.line} ${p.raw}`)).toEqual([
      `deploy/base/db.yaml:10 ghcr.io/acme/db:v1@${D}`,
      'deploy/overlays/a/kustomization.yaml:4 ghcr.io/acme/api:2.17.0',
      'deploy/overlays/a/kustomization.yaml:6 ghcr.io/acme/db:v2',
      'deploy/overlays/b/kustomization.yaml:4 ghcr.io/acme/api:master',
    ]);
    const excluded = Object.fromEntries(r.excluded.map((e) => [e.reason, e.examples]));
    expect(excluded["kustomize images: entries that only rename (newName): the tag is the resource's, not pins of their own"]).toEqual(['deploy/overlays/b/kustomization.yaml:6']);
    expect(Object.entries(excluded).find(([k]) => k.startsWith('kustomize base placeholders'))?.[1]).toEqual(['deploy/base/api.yaml:10 ghcr.io/acme/api:dummy']);
  });

  it("reads the patch files an overlay names (cluster-api's manager_image_patch.yaml), whatever their name", async () => {
    const t = tree({
      'config/manager/kustomization.yaml': 'resources:\n- manager.yaml\n',
      'config/manager/manager.yaml': deployment('controller-manager', 'controller:latest'),
      'config/default/kustomization.yaml': 'resources:\n- ../manager\npatches:\n- path: manager_image_patch.yaml\n- path: missing_patch.yaml\npatchesStrategicMerge:\n- legacy_patch.yaml\n',
      'config/default/manager_image_patch.yaml': deployment('controller-manager', 'gcr.io/k8s-staging-cluster-api/cluster-api-controller:main'),
      'config/default/legacy_patch.yaml': deployment('webhook', 'gcr.io/k8s-staging-cluster-api/webhook:v1.2.0'),
    });
    const r = await scanRepo(t.dir, loadConfig(t.dir, { firstParty: ['gcr.io/k8s-staging-cluster-api/'] }));
    expect(r.pins.filter((p) => p.firstParty).map((p) => `${p.file}:${p.line} ${p.raw}`)).toEqual([
      'config/default/legacy_patch.yaml:10 gcr.io/k8s-staging-cluster-api/webhook:v1.2.0',
      'config/default/manager_image_patch.yaml:10 gcr.io/k8s-staging-cluster-api/cluster-api-controller:main',
    ]);
    expect(r.excluded.find((e) => e.reason.startsWith('kustomize resources/components not followed'))?.examples).toEqual(['config/default/kustomization.yaml:5 missing_patch.yaml (patch does not exist)']);
  });

  it('a user exclude still keeps a resource manifest out', async () => {
    const t = tree({ ...KUSTOMIZE_TREE, 'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\nexclude: ["deploy/base/redis.yaml"]\n' });
    const r = await scanRepo(t.dir, loadConfig(t.dir));
    expect(r.pins.some((p) => p.file === 'deploy/base/redis.yaml')).toBe(false);
  });

  it('scan --kustomize prints every overlay (golden file); without the flag one line says how many', async () => {
    const t = tree(KUSTOMIZE_TREE);
    const full = await runCli(['scan', '--kustomize', '--first-party', 'ghcr.io/acme/'], t.dir);
    expect(full.code).toBe(0);
    const section = full.out.slice(full.out.indexOf('Kustomize overlays'), full.out.indexOf('Left out'));
    await expect(section).toMatchFileSnapshot('./golden/scan-kustomize.txt');
    const short = await runCli(['scan', '--first-party', 'ghcr.io/acme/'], t.dir);
    expect(short.out).toContain('Kustomize overlays: 2 (scan --kustomize shows the ref each one deploys)');
    const json = JSON.parse((await runCli(['scan', '--format', 'json', '--first-party', 'ghcr.io/acme/'], t.dir)).out);
    expect(json.kustomize.map((o: { kustomization: string }) => o.kustomization)).toEqual(['deploy/overlays/dev/kustomization.yaml', 'deploy/overlays/prod/kustomization.yaml']);
    expect(json.kustomize[0].images[1]).toMatchObject({ effective: null, templated: 'newTag: CONTAINER_IMAGES_TAG at deploy/components/tag/kustomization.yaml:4' });
  });
});

describe("a subchart's values in a chart (Chart.yaml dependencies)", () => {
  it("keep this chart's appVersion only where its own templates read the tag (kyverno's crds.migration); else the subchart's, not known (gateway-addons' prometheus)", async () => {
    const t = tree({
      'charts/addons/Chart.yaml': 'apiVersion: v2\nname: addons\nversion: 1.0.0\nappVersion: v1.4.0\ndependencies:\n  - name: prometheus\n    version: 29.10.1\n    repository: https://example.test/charts\n  - name: crds\n    version: 0.1.0\n',
      'charts/addons/values.yaml': 'prometheus:\n  server:\n    image:\n      repository: quay.io/prometheus/prometheus\n      tag: ""\ncrds:\n  migration:\n    image:\n      repository: ghcr.io/acme/cli\n      tag: ""\n',
      'charts/addons/templates/migrate.yaml': 'image: {{ include "img" (dict "tag" (default .Chart.AppVersion .Values.crds.migration.image.tag)) }}\n',
    });
    const r = await scanRepo(t.dir, loadConfig(t.dir, { firstParty: ['ghcr.io/acme/'] }));
    expect(r.pins.map((p) => [p.keyPath, p.ref.tag, p.form, p.tagFrom?.template?.file])).toEqual([
      ['prometheus.server.image', undefined, 'none', undefined],
      ['crds.migration.image', 'v1.4.0', 'tag', 'charts/addons/templates/migrate.yaml'],
    ]);
  });
});

describe("a tag the chart's templates default to something else", () => {
  it("is not the appVersion when every template reading it never names .Chart.AppVersion (capsule-proxy's kubectl job: the Kubernetes version)", async () => {
    const t = tree({
      'charts/proxy/Chart.yaml': 'apiVersion: v2\nname: proxy\nversion: 1.0.0\nappVersion: 0.9.0\n',
      'charts/proxy/values.yaml': 'global:\n  jobs:\n    kubectl:\n      image:\n        repository: docker.io/clastix/kubectl\n        tag: ""\nimage:\n  repository: ghcr.io/acme/proxy\n  tag: ""\n',
      'charts/proxy/templates/_jobs.tpl': '{{- define "kubectl" -}}\n{{- if .Values.global.jobs.kubectl.image.tag }}{{ .Values.global.jobs.kubectl.image.tag }}{{- else }}{{ include "kubeVersion" . }}{{- end }}\n{{- end }}\n',
      'charts/proxy/templates/_helpers.tpl': '{{- define "img" -}}{{ .Values.image.repository }}:{{ default (printf "v%s" .Chart.AppVersion) .Values.image.tag }}{{- end }}\n',
    });
    const r = await scanRepo(t.dir, loadConfig(t.dir, { firstParty: ['ghcr.io/acme/'] }));
    expect(r.pins.map((p) => [p.keyPath, p.ref.tag, p.form])).toEqual([
      ['global.jobs.kubectl.image', undefined, 'none'],
      ['image', 'v0.9.0', 'tag'],
    ]);
  });
});

describe('Helm charts in a tree', () => {
  const CHART_TREE = {
    'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.10.6\nappVersion: "v0.10.6"\n',
    'charts/shop/values.yaml': 'images:\n  repository: ghcr.io/acme/shop\n  # Overrides the image tag whose default is the chart appVersion.\n  tag: ""\n',
    'charts/exporter/Chart.yaml': 'apiVersion: v2\nname: exporter\nversion: 4.0.0\nappVersion: 1.9.1\n',
    'charts/exporter/values.yaml': 'global:\n  imageRegistry: ""\nimage:\n  registry: quay.io\n  repository: prometheus/node-exporter\n  tag: ""\n  digest: ""\n',
    'deploy/base/kustomization.yaml': 'resources:\n- frontend.yaml\n',
    'deploy/base/frontend.yaml': deployment('frontend', 'ghcr.io/acme/shop/frontend:v0.10.6'),
  };

  it('an empty tag is the appVersion; a repository that only prefixes first-party images is not a pin', async () => {
    const t = tree(CHART_TREE);
    const r = await scanRepo(t.dir, loadConfig(t.dir, { firstParty: ['ghcr.io/acme/'] }));
    // raw is the stored text; the ref carries the appVersion as its tag
    expect(r.pins.map((p) => `${p.file}:${p.line} ${p.raw} ${p.form}${p.tagFrom ? ` :${p.ref.tag} from ${p.tagFrom.file}:${p.tagFrom.line}` : ''}`)).toEqual([
      'charts/exporter/values.yaml:4 quay.io/prometheus/node-exporter tag :1.9.1 from charts/exporter/Chart.yaml:4',
      'deploy/base/frontend.yaml:10 ghcr.io/acme/shop/frontend:v0.10.6 tag',
    ]);
    const prefix = r.excluded.find((e) => e.reason.startsWith('Helm image repositories that only prefix'));
    expect(prefix?.examples).toEqual(['charts/shop/values.yaml:2 images.repository ghcr.io/acme/shop']);
    expect(formatScanText(r)).toContain('(tag: charts/exporter/Chart.yaml:4 appVersion)');
  });

  it("the chart's templates say how the appVersion becomes the tag (external-dns: printf \"v%s\"); disagreeing templates leave the comment's", async () => {
    const values = (comment = '') => `image:\n  repository: ghcr.io/acme/dns\n  tag: ""${comment}\nsidecar:\n  image:\n    repository: ghcr.io/acme/side\n    tag:\n`;
    const t = tree({
      'charts/dns/Chart.yaml': 'apiVersion: v2\nname: dns\nversion: 1.0.0\nappVersion: 0.21.0\n',
      'charts/dns/values.yaml': values('  # defaults to .Chart.AppVersion'),
      'charts/dns/templates/_helpers.tpl': '{{/*\nThe image\n*/}}\n{{- define "dns.image" -}}\n{{- printf "%s:%s" .Values.image.repository (default (printf "v%s" .Chart.AppVersion) .Values.image.tag) }}\n{{- end }}\n',
      'charts/dns/templates/sidecar/deploy.yaml': 'image: "{{ .Values.sidecar.image.repository }}:{{ .Values.sidecar.image.tag | default $.Chart.AppVersion }}"\n',
      // NOTES.txt only prints (kyverno's shows the version): not a template the image is rendered from
      'charts/dns/templates/NOTES.txt': 'Version: {{ default .Chart.AppVersion .Values.image.tag }}\n',
      'charts/two/Chart.yaml': 'apiVersion: v2\nname: two\nversion: 1.0.0\nappVersion: 2.0.0\n',
      'charts/two/values.yaml': values('  # {{ printf "v%s" .Chart.AppVersion }}'),
      'charts/two/templates/a.yaml': 'image: {{ .Values.image.repository }}:{{ .Values.image.tag | default (printf "r%s" .Chart.AppVersion) }}\n',
      'charts/two/templates/b.yaml': 'image: {{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}\n',
    });
    const r = await scanRepo(t.dir, loadConfig(t.dir, { firstParty: ['ghcr.io/acme/'] }));
    expect(r.pins.map((p) => `${p.file}:${p.line} ${p.ref.name}:${p.ref.tag}${p.tagFrom?.template ? ` by ${p.tagFrom.template.file}:${p.tagFrom.template.line}` : ''}`)).toEqual([
      'charts/dns/values.yaml:2 ghcr.io/acme/dns:v0.21.0 by charts/dns/templates/_helpers.tpl:5',
      'charts/dns/values.yaml:6 ghcr.io/acme/side:0.21.0 by charts/dns/templates/sidecar/deploy.yaml:1',
      // a.yaml says r2.0.0, b.yaml 2.0.0: the comment's v stands for image; the sidecar's tag no template names
      'charts/two/values.yaml:2 ghcr.io/acme/dns:v2.0.0',
      'charts/two/values.yaml:6 ghcr.io/acme/side:2.0.0',
    ]);
    expect(formatScanText(r)).toContain('(tag: charts/dns/Chart.yaml:4 appVersion, as charts/dns/templates/_helpers.tpl:5 formats it)');
  });

  it('the same repository pinned elsewhere by its own name is an image, not a prefix', async () => {
    const t = tree({ ...CHART_TREE, 'deploy/base/frontend.yaml': deployment('frontend', 'ghcr.io/acme/shop:v0.10.6') });
    const r = await scanRepo(t.dir, loadConfig(t.dir, { firstParty: ['ghcr.io/acme/'] }));
    expect(r.pins.filter((p) => p.ref.name === 'ghcr.io/acme/shop').map((p) => p.file)).toEqual(['charts/shop/values.yaml', 'deploy/base/frontend.yaml']);
  });
});

describe('refs in code and scripts, declared as extraFiles', () => {
  it('reads Go constants, shell defaults and quoted FROM; an identifier is not a ref', async () => {
    const K = 'kindest/node:v1.29.2@sha256:51a1434a5397193442f0be2a297b488b6c919ce8a3931be0ce822606ea5ca245';
    const t = tree({
      'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\nextraFiles: [test/e2e/kind.go, hack/release.sh]\n',
      'test/e2e/kind.go': `package e2e\n\nconst Image = "${K}"\n\nfunc c(image string) Config {\n\treturn Config{\n\t\tImage: image,\n\t}\n}\n`,
      'hack/release.sh': '#!/bin/sh\nIMAGE="${IMAGE:-ghcr.io/acme/controller:v1.4.0}"\necho \'FROM "golang:1.22-alpine"\' > Dockerfile.gen\n',
    });
    const r = await scanRepo(t.dir, loadConfig(t.dir));
    expect(r.pins.map((p) => `${p.file}:${p.line} ${p.shape} ${p.ref.name}`)).toEqual([
      'hack/release.sh:2 text ghcr.io/acme/controller',
      'hack/release.sh:3 text docker.io/library/golang',
      'test/e2e/kind.go:3 text docker.io/kindest/node',
    ]);
    expect(r.problems).toEqual([]);
  });
});
