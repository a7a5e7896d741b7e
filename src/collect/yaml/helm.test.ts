/**
 * Helm chart conventions (issue 11): the chart-wide registry (global.imageRegistry,
 * global.image.registry) over each image map, sibling digest keys, and the
 * Chart.yaml appVersion as the tag of an image whose tag is empty. Table-driven.
 */
import { describe, expect, it } from 'vitest';
import type { CollectContext } from '../types.js';
import { readChartInfo, isValuesFile } from './chart.js';
import { collectYaml } from './index.js';

const D = 'sha256:0a92e861ead179dd6b46f475fd8878d44b3cfa40ce4d7a8ff92f790d54250d25';
const E = 'sha256:5976b1067cfbca8a21d0ba53d71f83543a73316a61ea7f7e436d6cf84ddf9b26';
const chart = readChartInfo('charts/app/Chart.yaml', 'apiVersion: v2\nname: app\nversion: 1.0.0\nappVersion: "v2.3.4"\n');
const ctx = (withChart: boolean | string): CollectContext => ({
  file: 'charts/app/values.yaml',
  isFirstParty: (r) => r.startsWith('ghcr.io/acme/'),
  ...(withChart === true ? { chart } : typeof withChart === 'string' ? { chart: readChartInfo('charts/app/Chart.yaml', withChart) } : {}),
});

function run(text: string, withChart: boolean | string = true) {
  const r = collectYaml(text, ctx(withChart));
  return {
    pins: r.pins.map((p) => `${p.keyPath} ${p.ref.name}${p.ref.tag ? `:${p.ref.tag}` : ''}${p.ref.digest ? `@${p.ref.digest.slice(7, 13)}` : ''} ${p.form}${p.tagFrom ? ` tag<-${p.tagFrom.file}:${p.tagFrom.line}` : ''}`),
    spans: r.pins.map((p) => p.spans.map((s) => `${s.field}=${text.slice(s.start, s.end)}`).join('|')),
    problems: r.problems.map((p) => `${p.line} ${p.code}`),
  };
}

describe('Chart.yaml reading', () => {
  it.each([
    ['appVersion: "v1.2"\n', 'v1.2', 1],
    ["name: x\nappVersion: '1.0'\n", '1.0', 2],
    ['appVersion: 1.9.1 # comment\n', '1.9.1', 1],
    ['appVersion: ""\n', undefined, undefined],
    ['name: x\n  appVersion: nested\n', undefined, undefined],
  ])('%j → %s', (text, version, line) => {
    const info = readChartInfo('Chart.yaml', text);
    expect(info.appVersion).toBe(version);
    expect(info.appVersionLine).toBe(line);
  });
  it.each([
    ['values.yaml', true],
    ['charts/a/values-prod.yaml', true],
    ['charts/a/values.prod.yml', true],
    ['charts/a/myvalues.yaml', false],
    ['charts/a/Chart.yaml', false],
  ])('%s is a values file: %s', (file, yes) => expect(isValuesFile(file)).toBe(yes));
});

describe('an image value left empty, or a placeholder another tool fills (gateway values.tmpl.yaml)', () => {
  const text = 'images:\n  envoyGateway:\n    image: ${GatewayImage}\n  envoyProxy:\n    image: ""\n  other:\n    image:\n  tagged:\n    image: ghcr.io/acme/x:${TAG}\n';
  it('in a Helm values file: left out, counted, no problem', () => {
    const r = collectYaml(text, ctx(false));
    expect(r.pins).toEqual([]);
    expect(r.problems).toEqual([]);
    expect(r.leftOut?.map((l) => [l.reason.split(' ').slice(0, 3).join(' '), l.where])).toEqual([
      ['image values that', 'charts/app/values.yaml:3 images.envoyGateway.image ${GatewayImage}'],
      ['image keys a', 'charts/app/values.yaml:5 images.envoyProxy.image'],
      ['image keys a', 'charts/app/values.yaml:7 images.other.image'],
      ['image values that', 'charts/app/values.yaml:9 images.tagged.image ghcr.io/acme/x:${TAG}'],
    ]);
  });
  it('in a manifest an empty image is still a problem (a placeholder is still left out)', () => {
    const r = collectYaml(text, { ...ctx(false), file: 'deploy/app.yaml' });
    expect(r.problems.map((p) => `${p.line} ${p.code}`)).toEqual(['5 invalid-ref', '7 invalid-ref']);
    expect(r.leftOut?.length).toBe(2);
  });
});

describe("a subchart's values (gateway-addons: prometheus, fluent-bit)", () => {
  const CHART = 'apiVersion: v2\nname: addons\nversion: 1.0.0\nappVersion: "latest"\ndependencies:\n  - name: prometheus\n    version: 29.10.1\n    repository: https://prometheus-community.github.io/helm-charts\n  - repository: https://fluent.github.io/helm-charts\n    name: fluent-bit\n    alias: logs\n    condition: logs.enabled\nkeywords: [x]\n';

  it('reads the dependencies\' value keys (alias over name)', () => {
    expect(readChartInfo('charts/addons/Chart.yaml', CHART)).toEqual({ file: 'charts/addons/Chart.yaml', appVersion: 'latest', appVersionLine: 4, subcharts: ['prometheus', 'logs'] });
  });

  it("an image map under a dependency's key is marked as the subchart's (scan keeps the appVersion only where the chart's own templates read it)", () => {
    const text = 'prometheus:\n  server:\n    image:\n      repository: quay.io/prometheus/prometheus\n      tag: ""\nlogs:\n  image:\n    repository: cr.fluentbit.io/fluent/fluent-bit\nown:\n  image:\n    repository: ghcr.io/acme/own\n    tag: ""\n';
    const pins = collectYaml(text, ctx(CHART)).pins;
    expect(pins.map((p) => [p.keyPath, p.ref.tag, p.tagFrom?.subchart])).toEqual([
      ['prometheus.server.image', 'latest', 'prometheus'],
      ['logs.image', 'latest', 'logs'],
      ['own.image', 'latest', undefined],
    ]);
  });
});

describe('an image slot the chart leaves empty', () => {
  it("is no ref and no problem, but counted as left out (external-dns's provider.webhook.image)", () => {
    const text = 'provider:\n  webhook:\n    image:\n      repository:  # set when the webhook provider is used\n      tag:\n      pullPolicy: IfNotPresent\nother:\n  image:\n    repository: ""\n    tag: ""\n    digest: ""\nhalf:\n  image:\n    repository: ""\n    tag: v1\n';
    const r = collectYaml(text, ctx(false));
    expect(r.pins).toEqual([]);
    expect(r.problems.map((p) => `${p.line} ${p.code}`)).toEqual(['14 incomplete-ref']);
    expect(r.leftOut?.map((l) => l.where)).toEqual(['charts/app/values.yaml:4 provider.webhook.image', 'charts/app/values.yaml:9 other.image']);
  });
});

describe('an image map holding only a name (dapr: the template joins it with .Values.global.registry and .tag)', () => {
  it('is no ref and no problem, but counted as left out; a name beside a registry or a tag is still read', () => {
    const text = 'image:\n  name: "operator"\nsidecar:\n  image:\n    name: daprd\n    pullPolicy: Always\nplain:\n  name: not-an-image\nwith:\n  image:\n    name: quay.io/acme/x\n    tag: v1\n';
    const r = collectYaml(text, ctx(false));
    expect(r.pins.map((p) => `${p.keyPath} ${p.raw}`)).toEqual(['with.image quay.io/acme/x:v1']);
    expect(r.problems).toEqual([]);
    expect(r.leftOut).toEqual([
      { reason: expect.stringMatching(/^Helm values image maps with a name and no tag or digest/), where: 'charts/app/values.yaml:2 image.name operator' },
      { reason: expect.stringMatching(/^Helm values image maps with a name and no tag or digest/), where: 'charts/app/values.yaml:5 sidecar.image.name daprd' },
    ]);
  });
});

describe("an image a chart composes from its top-level imageRegistry and imageNamespace (cert-manager)", () => {
  it('is registry/namespace/name, located at the name with the registry spans last; without imageRegistry the map stays incomplete', () => {
    const text = 'imageRegistry: quay.io\nimageNamespace: jetstack\nimage:\n  name: cert-manager-controller\n  repository: ""\nwebhook:\n  image:\n    name: cert-manager-webhook\n    repository: ""\n    tag: v1.2.3\n';
    const r = run(text, false);
    expect(r.pins).toEqual(['image quay.io/jetstack/cert-manager-controller none', 'webhook.image quay.io/jetstack/cert-manager-webhook:v1.2.3 tag']);
    expect(r.spans).toEqual(['repository=cert-manager-controller|registry=quay.io|registry=jetstack', 'repository=cert-manager-webhook|tag=v1.2.3|registry=quay.io|registry=jetstack']);
    const lines = collectYaml(text, ctx(false)).pins.map((p) => p.line);
    expect(lines).toEqual([4, 8]);
    const alone = run('image:\n  name: cert-manager-controller\n  repository: ""\n', false);
    expect(alone.pins).toEqual([]);
    expect(alone.problems).toEqual(['2 incomplete-ref']);
  });
});

describe("Istio's hub and tag (`{{ .Values.hub | default .Values.global.hub }}/{{ .Values.image }}:{{ .Values.tag | default .Values.global.tag }}`)", () => {
  const text = [
    'defaults:',
    '  hub: ""',
    '  tag: ""',
    '  image: pilot',
    '  global:',
    '    hub: ghcr.io/acme',
    '    tag: "1.28.0"',
    '    proxy:',
    '      image: proxyv2',
    '    other:',
    '      image: docker.io/library/busybox:1.36',
    'ztunnel:',
    '  hub: quay.io/acme',
    '  tag: latest',
    '  image: ztunnel',
    'full:',
    '  hub: quay.io/acme',
    '  image: ghcr.io/acme/whole:v1',
    '',
  ].join('\n');

  it('an empty hub and tag are the global ones; a bare image under the global joins them; a hub of its own is its own; a name with a / is whole', () => {
    const r = run(text, false);
    expect(r.pins).toEqual([
      'defaults ghcr.io/acme/pilot:1.28.0 tag',
      'defaults.global.proxy ghcr.io/acme/proxyv2:1.28.0 tag',
      'defaults.global.other.image busybox:1.36 tag',
      'ztunnel quay.io/acme/ztunnel:latest latest',
      'full.image ghcr.io/acme/whole:v1 tag',
    ].map((p) => p.replace('busybox', 'docker.io/library/busybox')));
    // located at the image name, the global parts last
    expect(r.spans.slice(0, 2)).toEqual(['repository=pilot|tag=1.28.0|registry=ghcr.io/acme', 'repository=proxyv2|tag=1.28.0|registry=ghcr.io/acme']);
    expect(collectYaml(text, ctx(false)).pins.slice(0, 2).map((p) => p.line)).toEqual([4, 9]);
    expect(r.problems).toEqual([]);
  });

  it('an empty hub with no global hub is incomplete (it was read as docker.io/library/pilot); a bare image beside no such global is read as written', () => {
    const r = collectYaml('a:\n  hub: ""\n  tag: v1\n  image: pilot\n', ctx(false));
    expect(r.pins).toEqual([]);
    expect(r.problems.map((p) => `${p.line} ${p.code} ${p.reason}`)).toEqual(['2 incomplete-ref a stores an image as separate keys but its hub is empty (tag "v1"); the reference is incomplete and cannot be pulled as written']);
    expect(run('proxy:\n  image: proxyv2\n', false).pins).toEqual(['proxy.image docker.io/library/proxyv2 none']);
  });
});

describe("an image map's own defaultRegistry (kyverno)", () => {
  it('stands in for an empty or absent registry, located where it is written; a set registry wins', () => {
    const text = 'admission:\n  image:\n    registry: ~\n    defaultRegistry: reg.kyverno.io\n    repository: kyverno/kyverno\n    tag: v1.14.0\ncli:\n  image:\n    defaultRegistry: reg.kyverno.io\n    repository: kyverno/kyverno-cli\n    tag: v1.14.0\nother:\n  image:\n    registry: ghcr.io\n    defaultRegistry: reg.kyverno.io\n    repository: kyverno/x\n    tag: v1\n';
    const r = run(text, false);
    expect(r.pins).toEqual(['admission.image reg.kyverno.io/kyverno/kyverno:v1.14.0 tag', 'cli.image reg.kyverno.io/kyverno/kyverno-cli:v1.14.0 tag', 'other.image ghcr.io/kyverno/x:v1 tag']);
    expect(r.spans[0]).toBe('repository=kyverno/kyverno|tag=v1.14.0|registry=reg.kyverno.io');
  });
});

describe('Helm image maps', () => {
  const cases: { name: string; text: string; chart?: boolean | string; pins: string[]; spans?: string[]; problems?: string[] }[] = [
    {
      name: 'global.imageRegistry wins over the map registry (bitnami, prometheus-community)',
      text: `global:\n  imageRegistry: ghcr.io\nimage:\n  registry: docker.io\n  repository: acme/app\n  tag: v1\n`,
      pins: ['image ghcr.io/acme/app:v1 tag'],
      spans: ['repository=acme/app|tag=v1|registry=ghcr.io'],
    },
    {
      name: 'an empty global.imageRegistry leaves the map registry',
      text: `global:\n  imageRegistry: ""\nimage:\n  registry: quay.io\n  repository: acme/app\n  tag: v1\n`,
      pins: ['image quay.io/acme/app:v1 tag'],
    },
    {
      name: 'global.image.registry applies to a repository with no registry',
      text: `global:\n  image:\n    registry: ghcr.io/\nworker:\n  image:\n    repository: acme/worker\n    tag: v2\n    digest: ${D}\n`,
      pins: ['worker.image ghcr.io/acme/worker:v2@0a92e8 tag+digest'],
      spans: [`repository=acme/worker|tag=v2|digest=${D}|registry=ghcr.io`],
    },
    {
      name: 'global.image.registry does not prefix a repository that names its registry',
      text: `global:\n  image:\n    registry: ghcr.io\nimage:\n  repository: quay.io/other/app\n  tag: v2\n`,
      pins: ['image quay.io/other/app:v2 tag'],
    },
    {
      name: "an empty registry documented as another value's default takes that value (helm-docs `@default --`; linkerd's viz chart)",
      text: `defaultRegistry: cr.l5d.io/linkerd\ntap:\n  image:\n    # -- Docker registry for the tap instance\n    # @default -- defaultRegistry\n    registry: ""\n    name: tap\n    tag: v3\nweb:\n  image:\n    registry: "" # @default -- .Values.images.registry\n    name: web\n    tag: v4\nimages:\n  registry: ghcr.io/acme/\n`,
      pins: ['tap.image cr.l5d.io/linkerd/tap:v3 tag', 'web.image ghcr.io/acme/web:v4 tag'],
      spans: ['repository=tap|tag=v3|registry=cr.l5d.io/linkerd', 'repository=web|tag=v4|registry=ghcr.io/acme'],
    },
    {
      name: 'an empty registry whose documented default is no string value, or with no such comment, stays Docker Hub',
      text: `defaults:\n  registry: {}\na:\n  image:\n    # @default -- defaults.registry\n    registry: ""\n    name: one\n    tag: v1\nb:\n  image:\n    # @default -- missing\n    registry: ""\n    name: two\n    tag: v2\nc:\n  image:\n    registry: ""\n    name: three\n    tag: v3\n`,
      pins: ['a.image docker.io/library/one:v1 tag', 'b.image docker.io/library/two:v2 tag', 'c.image docker.io/library/three:v3 tag'],
    },
    {
      name: 'an empty tag takes the chart appVersion (not a floating tag)',
      text: `image:\n  repository: ghcr.io/acme/app\n  tag: ""\n  pullPolicy: IfNotPresent\n`,
      pins: ['image ghcr.io/acme/app:v2.3.4 tag tag<-charts/app/Chart.yaml:4'],
      spans: ['repository=ghcr.io/acme/app'],
    },
    {
      name: 'a null tag takes the appVersion; a digest stays',
      text: `image:\n  repository: ghcr.io/acme/app\n  tag:\n  digest: ${D}\n`,
      pins: ['image ghcr.io/acme/app:v2.3.4@0a92e8 tag+digest tag<-charts/app/Chart.yaml:4'],
    },
    {
      name: 'no tag key under an image key takes the appVersion',
      text: `image:\n  repository: ghcr.io/acme/app\n  pullPolicy: IfNotPresent\n`,
      pins: ['image ghcr.io/acme/app:v2.3.4 tag tag<-charts/app/Chart.yaml:4'],
    },
    {
      name: 'no Chart.yaml beside: an empty tag stays empty',
      text: `image:\n  repository: ghcr.io/acme/app\n  tag: ""\n`,
      chart: false,
      pins: ['image ghcr.io/acme/app none'],
    },
    {
      name: 'a set tag is kept',
      text: `image:\n  repository: ghcr.io/acme/app\n  tag: v9\n`,
      pins: ['image ghcr.io/acme/app:v9 tag'],
    },
    {
      name: 'the comment at the tag gives a prefix: printf "v%s" .Chart.AppVersion',
      text: `image:\n  repository: ghcr.io/acme/app\n  # Overrides the image tag whose default is {{ printf "v%s" .Chart.AppVersion }}\n  tag: ""\n`,
      chart: 'appVersion: 1.9.1\n',
      pins: ['image ghcr.io/acme/app:v1.9.1 tag tag<-charts/app/Chart.yaml:1'],
    },
    {
      name: 'the comment at the tag gives a prefix: v + .Charts.appVersion',
      text: `image:\n  repository: ghcr.io/acme/app\n  tag: "" # If unset use v + .Charts.appVersion\n`,
      chart: 'appVersion: 1.9.1\n',
      pins: ['image ghcr.io/acme/app:v1.9.1 tag tag<-charts/app/Chart.yaml:1'],
    },
    {
      name: 'an appVersion that already has the prefix keeps it once (a stale comment)',
      text: `image:\n  repository: ghcr.io/acme/app\n  # Overrides the image tag whose default is {{ printf "v%s" .Chart.AppVersion }}\n  tag: ""\n`,
      chart: 'appVersion: v0.28.0\n',
      pins: ['image ghcr.io/acme/app:v0.28.0 tag tag<-charts/app/Chart.yaml:1'],
    },
    {
      name: 'another default named in the comment: the tag is not the appVersion',
      text: `kubectl:\n  registry: registry.k8s.io\n  repository: kubectl\n  tag: ""  # defaults to the Kubernetes version\n`,
      pins: ['kubectl registry.k8s.io/kubectl none'],
    },
    {
      name: 'a comment naming the appVersion as the default keeps it',
      text: `image:\n  repository: ghcr.io/acme/app\n  # if not set appVersion field from Chart.yaml is used\n  tag: ""\n`,
      pins: ['image ghcr.io/acme/app:v2.3.4 tag tag<-charts/app/Chart.yaml:4'],
    },
    {
      name: 'a sibling digest key pins the variant image (ingress-nginx digestChroot)',
      text: `controller:\n  image:\n    registry: registry.k8s.io\n    image: ingress-nginx/controller\n    tag: "v1.9.4"\n    digest: ${D}\n    digestChroot: ${E}\n`,
      pins: ['controller.image registry.k8s.io/ingress-nginx/controller:v1.9.4@0a92e8 tag+digest', 'controller.image.digestChroot registry.k8s.io/ingress-nginx/controller-chroot:v1.9.4@5976b1 tag+digest'],
      spans: [`registry=registry.k8s.io|repository=ingress-nginx/controller|tag=v1.9.4|digest=${D}`, `registry=registry.k8s.io|repository=ingress-nginx/controller|tag=v1.9.4|digest=${E}`],
    },
    {
      name: 'an empty sibling digest pins nothing',
      text: `image:\n  registry: registry.k8s.io\n  image: ingress-nginx/controller\n  tag: "v1.9.4"\n  digestChroot: ""\n`,
      pins: ['image registry.k8s.io/ingress-nginx/controller:v1.9.4 tag'],
    },
    {
      name: 'a bad sibling digest is a problem, not dropped',
      text: `image:\n  registry: registry.k8s.io\n  image: ingress-nginx/controller\n  tag: "v1.9.4"\n  digestChroot: sha256:zz\n`,
      pins: ['image registry.k8s.io/ingress-nginx/controller:v1.9.4 tag'],
      problems: ['5 invalid-ref'],
    },
  ];
  it.each(cases)('$name', (c) => {
    const r = run(c.text, c.chart ?? true);
    expect(r.pins).toEqual(c.pins);
    if (c.spans) expect(r.spans).toEqual(c.spans);
    expect(r.problems).toEqual(c.problems ?? []);
  });
});
