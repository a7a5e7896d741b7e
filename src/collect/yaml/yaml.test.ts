import { describe, expect, it } from 'vitest';
import { spanMismatches } from '../../../test/support/span-check.js';
import { acmeContext, fixtureText, spanTexts, summary } from '../../../test/support/collect.js';
import { collectYaml } from './index.js';

const D = 'sha256:0a92e861ead179dd6b46f475fd8878d44b3cfa40ce4d7a8ff92f790d54250d25';

function collect(name: string, transform: (t: string) => string = (t) => t) {
  const text = transform(fixtureText(import.meta.url, name));
  const result = collectYaml(text, acmeContext(name));
  return { text, result };
}

describe('yaml single strings and args', () => {
  const { text, result } = collect('values-single.yaml');
  it('finds every image key, prefixed/suffixed keys, containers, args and qualified refs', () => {
    expect(result.pins.map(summary)).toEqual([
      `billing.image yaml-string tag+digest reg.acme.test:5000/platform/billing:v1.4.2@${D} @3`,
      `billing.sidecarImage yaml-string tag+digest ghcr.io/acme/sidecar:v2.0.0@${D} @4`,
      'billing.redisBackupClientImage yaml-string tag ghcr.io/acme/redis-backup:v3 @5',
      'billing.kubectl_image yaml-string tag bitnami/kubectl:1.30 @6',
      'billing.migrationController.image yaml-string latest ghcr.io/acme/migrations:latest @8',
      `billing.extraArgs[0] yaml-arg tag+digest ghcr.io/acme/billing:v1.4.2@${D} @10`,
      'billing.extraArgs[1] yaml-arg tag ghcr.io/acme/sidecar:v2 @11',
      'billing.defaultRunner yaml-string tag quay.io/acme/runner:v9 @14',
      'spec.template.spec.initContainers[0].image yaml-string tag busybox:1.36 @20',
      `spec.template.spec.containers[0].image yaml-string tag+digest ghcr.io/acme/app:v1@${D} @23`,
    ]);
    expect(result.problems).toEqual([]);
  });
  it('cuts exactly the ref out of quoted, plain and argument strings', () => {
    expect(spanMismatches(text, result.pins)).toEqual([]);
    const sidecar = result.pins.find((p) => p.keyPath === 'billing.sidecarImage');
    expect(spanTexts(text, sidecar!)).toEqual([`ref=ghcr.io/acme/sidecar:v2.0.0@${D}`]);
    const arg = result.pins.find((p) => p.keyPath === 'billing.extraArgs[1]');
    expect(spanTexts(text, arg!)).toEqual(['ref=ghcr.io/acme/sidecar:v2']);
    expect(arg!.column).toBe(24);
  });
  it('normalises, sets first-party and form', () => {
    const busybox = result.pins.find((p) => p.raw === 'busybox:1.36')!;
    expect(busybox.ref.name).toBe('docker.io/library/busybox');
    expect(busybox.firstParty).toBe(false);
    expect(result.pins.find((p) => p.keyPath === 'billing.sidecarImage')!.firstParty).toBe(true);
  });
  it('does not turn ordinary config values into refs', () => {
    expect(result.pins.filter((p) => p.keyPath?.startsWith('config.'))).toEqual([]);
  });
});

describe('yaml split maps', () => {
  const { text, result } = collect('values-split.yaml');
  it('reads every split variant', () => {
    expect(result.pins.map(summary)).toEqual([
      `withDigestKey.image yaml-split tag+digest ghcr.io/acme/cilium:v1.6.0@${D} @4`,
      `digestInTag.image yaml-split tag+digest ghcr.io/acme/kilo:v1.5.0@${D} @10`,
      `digestInTagWithRegistry.image yaml-split latest ghcr.io/acme/keycloak-operator:latest@${D} @14`,
      `registryImageTagDigest.controller.image yaml-split tag+digest ghcr.io/acme/ingress/controller:v1.11.2@${D} @20`,
      'tagOnly.image yaml-split tag registry.k8s.io/coredns/coredns:v1.12.4 @26',
      'repositoryOnly.image yaml-split none quay.io/brancz/kube-rbac-proxy @30',
      'numericTag.image yaml-split tag docker.io/library/redis:7.2 @33',
      'prefixAndImage.driver yaml-split tag nvcr.io/nvidia/driver:550.54 @37',
    ]);
    expect(result.problems).toEqual([]);
  });
  it('has one span per stored field, the digest inside tag split out', () => {
    expect(spanMismatches(text, result.pins)).toEqual([]);
    const byPath = (k: string) => spanTexts(text, result.pins.find((p) => p.keyPath === k)!);
    expect(byPath('withDigestKey.image')).toEqual(['repository=ghcr.io/acme/cilium', 'tag=v1.6.0', `digest=${D}`]);
    expect(byPath('digestInTag.image')).toEqual(['tag=v1.5.0', `digest=${D}`, 'repository=ghcr.io/acme/kilo']);
    expect(byPath('digestInTagWithRegistry.image')).toEqual(['registry=ghcr.io', 'repository=acme/keycloak-operator', 'tag=latest', `digest=${D}`]);
    expect(byPath('registryImageTagDigest.controller.image')).toEqual(['registry=ghcr.io', 'repository=acme/ingress/controller', 'tag=v1.11.2', `digest=${D}`]);
    expect(byPath('numericTag.image')).toEqual(['repository=docker.io/library/redis', 'tag=7.2']);
  });
});

describe('yaml chart-global images', () => {
  const { text, result } = collect('values-global.yaml');
  it('prefixes global.images with global.registry.address or global.imageRegistry, per document', () => {
    expect(result.pins.map((p) => `${summary(p)} doc${p.document}`)).toEqual([
      `[0].global.images.kubeovn yaml-global tag+digest ghcr.io/acme/platform/kubeovn:v1.15.10@${D} @6 doc0`,
      `[0].global.images.vpcnat yaml-global tag+digest ghcr.io/acme/platform/vpc-nat-gateway:v1.15.10@${D} @9 doc0`,
      '[1].global.images.agent yaml-global tag reg.acme.test:5000/agent:2.1 @17 doc1',
    ]);
    expect(result.pins.every((p, i) => p.firstParty === i < 2)).toBe(true);
  });
  it('spans the shared registry last, and each field exactly', () => {
    expect(spanMismatches(text, result.pins)).toEqual([]);
    expect(spanTexts(text, result.pins[0]!)).toEqual(['repository=kubeovn', 'tag=v1.15.10', `digest=${D}`, 'registry=ghcr.io/acme/platform']);
    expect(spanTexts(text, result.pins[2]!)).toEqual(['repository=agent', 'tag=2.1', 'registry=reg.acme.test:5000']);
  });
});

describe('yaml OCI artifact pairs', () => {
  const { text, result } = collect('values-oci.yaml');
  it('pairs fooUrl oci:// with fooRef digest=/tag=, and ignores lone URLs', () => {
    expect(result.pins.map(summary).sort()).toEqual([
      `installer.image yaml-string tag+digest ghcr.io/acme/operator:v1.6.0@${D} @2`,
      'installer.chartUrl yaml-oci tag ghcr.io/acme/charts/app:1.2.3 @5',
      `installer.platformSourceUrl yaml-oci digest ghcr.io/acme/platform-packages@${D} @3`,
    ].sort());
    expect(result.problems).toEqual([]);
  });
  it('spans the repository after oci:// and the digest after digest=', () => {
    expect(spanMismatches(text, result.pins)).toEqual([]);
    const oci = result.pins.find((p) => p.keyPath === 'installer.platformSourceUrl')!;
    expect(spanTexts(text, oci)).toEqual(['repository=ghcr.io/acme/platform-packages', `digest=${D}`]);
  });
});

describe('kustomization images', () => {
  const { text, result } = collect('kustomization.yaml');
  it('reads name/newName/newTag/digest', () => {
    expect(result.pins.map(summary)).toEqual([
      'images[0] kustomize tag nginx:1.25.3 @6',
      `images[1] kustomize tag+digest ghcr.io/acme/app:v2.0.0@${D} @9`,
      `images[2] kustomize digest ghcr.io/acme/worker@${D} @13`,
    ]);
    expect(spanMismatches(text, result.pins)).toEqual([]);
    expect(spanTexts(text, result.pins[1]!)).toEqual(['repository=ghcr.io/acme/app', 'tag=v2.0.0', `digest=${D}`]);
  });
});

describe('multi-document manifests, CRLF and BOM', () => {
  const plain = collect('manifests-multidoc.yaml');
  const expected = [
    // key paths name their document: the same path in two documents is two places
    `[0].spec.template.spec.containers[0].image yaml-string tag+digest ghcr.io/acme/one:v1@${D} @10 doc0`,
    '[1].spec.template.spec.initContainers[0].image yaml-string tag ghcr.io/acme/init:v3 @21 doc1',
    '[1].spec.template.spec.containers[0].image yaml-string tag ghcr.io/acme/two:v2 @24 doc1',
  ];
  it.each([
    ['LF', (t: string) => t],
    ['CRLF', (t: string) => t.replace(/\n/g, '\r\n')],
    ['BOM + CRLF', (t: string) => `\uFEFF${t.replace(/\n/g, '\r\n')}`],
  ])('%s: same pins, exact spans', (_name, transform) => {
    const { text, result } = collect('manifests-multidoc.yaml', transform);
    expect(result.pins.map((p) => `${summary(p)} doc${p.document}`)).toEqual(expected);
    expect(result.pins.map((p) => p.column)).toEqual(plain.result.pins.map((p) => p.column));
    expect(spanMismatches(text, result.pins)).toEqual([]);
    expect(result.scrapedBecause).toBeUndefined();
  });
  it('CRLF split maps keep exact spans', () => {
    const { text, result } = collect('values-split.yaml', (t) => `\uFEFF${t.replace(/\n/g, '\r\n')}`);
    expect(result.pins).toHaveLength(8);
    expect(spanMismatches(text, result.pins)).toEqual([]);
  });
});

describe('anchors and aliases', () => {
  const { text, result } = collect('anchors.yaml');
  it('reports a pin once, at the anchor, with the aliases recorded', () => {
    expect(result.pins.map((p) => `${summary(p)} aliases=${(p.aliases ?? []).join(',')}`)).toEqual([
      `defaults.image yaml-string tag+digest ghcr.io/acme/base:v1@${D} @2 aliases=workerA.image,workerB.image`,
      'defaults.splitImage yaml-split tag ghcr.io/acme/split:v2 @4 aliases=workerC.image',
    ]);
    expect(spanMismatches(text, result.pins)).toEqual([]);
  });
});

describe('problems', () => {
  const { result } = collect('problems.yaml');
  it('reports every unparsable or incomplete value under an image key, with file:line and the grammar message', () => {
    expect(result.problems.map((p) => `${p.code} ${p.file}:${p.line}`)).toEqual([
      'invalid-ref problems.yaml:3',
      'invalid-ref problems.yaml:5',
      'invalid-ref problems.yaml:7',
      'invalid-ref problems.yaml:9',
      'invalid-ref problems.yaml:11',
      'incomplete-ref problems.yaml:14',
      'incomplete-ref problems.yaml:19',
      'invalid-ref problems.yaml:23',
    ]);
    expect(result.problems[0]!.reason).toMatch(/found 65; saw "ghcr\.io\/acme\/app:v1@sha256:0a92.*25a"/);
    expect(result.problems[1]!.reason).toMatch(/found 63/);
    expect(result.problems[2]!.reason).toContain('"{{ .Values.global.image }}"');
    expect(result.problems[4]!.reason).toContain('lowercase');
    expect(result.problems[5]!.reason).toContain('bad.incomplete.vgpuManager');
  });
  it('keeps a tag-only split map (the chart supplies the repository) as an incomplete pin', () => {
    expect(result.pins).toHaveLength(1);
    const pin = result.pins[0]!;
    expect(pin.keyPath).toBe('bad.tagOnlyChartDefault.image');
    expect(pin.form).toBe('tag+digest');
    expect(pin.ref).toEqual({ domain: '', path: '', name: '', tag: '0.1.1', digest: D });
    expect(pin.incomplete).toMatch(/no repository/);
    expect(pin.firstParty).toBe(false);
  });
});

describe('fallback to the text scrape', () => {
  it('scrapes a file that does not parse and says where the error is', () => {
    const { text, result } = collect('broken.yaml');
    expect(result.scrapedBecause).toMatch(/line 4/);
    expect(result.problems[0]).toMatchObject({ code: 'yaml-parse-error', line: 4, file: 'broken.yaml' });
    expect(result.pins.map((p) => `${p.shape} ${p.raw} @${p.line} scraped=${p.scraped}`)).toEqual([
      `text ghcr.io/acme/good:v1@${D} @2 scraped=true`,
      'text ghcr.io/acme/other:v2 @5 scraped=true',
    ]);
    expect(spanMismatches(text, result.pins)).toEqual([]);
  });
  it('scrapes Helm template syntax that leaked into YAML', () => {
    const { text, result } = collect('helm-template.yaml');
    expect(result.scrapedBecause).toBeDefined();
    expect(result.problems.map((p) => `${p.code}:${p.line}`)).toEqual(['yaml-parse-error:6', 'templated-ref:4']);
    expect(result.pins.map((p) => `${p.raw} @${p.line}`)).toEqual([`ghcr.io/acme/sidecar:v1@${D} @7`]);
    expect(spanMismatches(text, result.pins)).toEqual([]);
  });
  it('detects {{ }} that parses silently as a flow map', () => {
    const text = 'app:\n  image: {{ .Values.image }}\n  other: ghcr.io/acme/x:v1\n';
    const result = collectYaml(text, acmeContext('t.yaml'));
    expect(result.scrapedBecause).toMatch(/Helm template syntax .* line 2/);
    expect(result.problems[0]).toMatchObject({ code: 'yaml-parse-error', line: 2 });
    expect(result.pins.map((p) => p.raw)).toEqual(['ghcr.io/acme/x:v1']);
  });
});

describe('--x-image= arguments whose value the job computes', () => {
  const cases = [
    { name: 'a quoted shell variable', arg: '--worker-image="$AMI_ID"', value: '$AMI_ID' },
    { name: 'a braced variable', arg: '--sidecar-image=${SIDECAR}', value: '${SIDECAR}' },
    { name: 'a command substitution', arg: '--image=$(cat image.txt)', value: '$(cat' },
  ];
  for (const c of cases) {
    it(`${c.name}: counted under left out, neither a pin nor an invalid ref`, () => {
      const text = `args:\n  - bash\n  - -c\n  - |\n    kubetest2 ec2 \\\n      ${c.arg} \\\n      --up\n`;
      const result = collectYaml(text, acmeContext('job.yaml'));
      expect(result.pins).toEqual([]);
      expect(result.problems).toEqual([]);
      expect(result.leftOut).toEqual([{ reason: expect.stringContaining('shell variable'), where: `job.yaml:4 args[2] ${c.value}` }]);
    });
  }

  it('a literal ref beside it is still a pin', () => {
    const text = 'args:\n  - --worker-image="$AMI_ID" --runner-image=ghcr.io/acme/runner:v1\n';
    const result = collectYaml(text, acmeContext('job.yaml'));
    expect(result.pins.map(summary)).toEqual(['args[0] yaml-arg tag ghcr.io/acme/runner:v1 @2']);
    expect(result.leftOut).toHaveLength(1);
  });
});

describe('a flag of any name passing a ref (prometheus-operator: --prometheus-config-reloader=quay.io/…:v0.93.0)', () => {
  it.each([
    ['a registry-qualified ref with a tag', '--prometheus-config-reloader=ghcr.io/acme/reloader:v0.93.0', ['args[0] yaml-arg tag ghcr.io/acme/reloader:v0.93.0 @2']],
    ['quoted, with a digest', `-sidecar="ghcr.io/acme/sidecar@${D}"`, [`args[0] yaml-arg digest ghcr.io/acme/sidecar@${D} @2`]],
    ['a URL is no ref', '--endpoint=https://ghcr.io/acme/x:443', []],
    ['a host with no tag or digest is no ref', '--registry=ghcr.io/acme', []],
    ['a value with no registry host is no ref', '--name=reloader:v1', []],
    ['two flags in one string are not one argument', '--a=ghcr.io/acme/x:v1 --b=1', []],
  ])('%s', (_name, arg, pins) => {
    const result = collectYaml(`args:\n  - ${arg}\n`, acmeContext('deploy.yaml'));
    expect(result.pins.map(summary)).toEqual(pins);
    expect(result.problems).toEqual([]);
    expect(spanMismatches(`args:\n  - ${arg}\n`, result.pins)).toEqual([]);
  });
});

describe('YAML embedded in a literal block (kubeflow/katib: a ConfigMap of trial templates)', () => {
  const text = [
    'apiVersion: v1',
    'kind: ConfigMap',
    'data:',
    '  cpu.yaml: |-',
    '    apiVersion: batch/v1',
    '    kind: Job',
    '    spec:',
    '      template:',
    '        spec:',
    '          containers:',
    '            - name: training',
    '              image: ghcr.io/acme/mnist-cpu:v1',
    '            - name: side',
    '              image: "{{ .Values.sidecar }}"',
    '  script.sh: |',
    '    cat > kind.yaml <<EOF',
    '    nodes:',
    '    - image: kindest/node:v1.25.3',
    '    EOF',
    '',
  ].join('\n');

  it('reads its image lines where they are written; a template there is left out; a script (even one writing YAML) is text', () => {
    const result = collectYaml(text, acmeContext('manifests/trial-templates.yaml'));
    expect(result.pins.map(summary)).toEqual(['data.cpu.yaml text tag ghcr.io/acme/mnist-cpu:v1 @12']);
    expect(spanMismatches(text, result.pins)).toEqual([]);
    expect(result.problems).toEqual([]);
    expect(result.leftOut).toEqual([{ reason: expect.stringContaining('embedded in a literal block'), where: 'manifests/trial-templates.yaml:14 data.cpu.yaml', line: 14 }]);
  });
});
