import { describe, expect, it } from 'vitest';
import { spanMismatches } from '../../../test/support/span-check.js';
import { acmeContext, fixtureText, spanTexts, summary } from '../../../test/support/collect.js';
import { scrapeText } from './index.js';

const D = 'sha256:0a92e861ead179dd6b46f475fd8878d44b3cfa40ce4d7a8ff92f790d54250d25';

describe('text scrape', () => {
  const text = fixtureText(import.meta.url, 'daemonset.yml');
  const result = scrapeText(text, acmeContext('daemonset.yml'));
  it('finds refs after image:, in args and inside Helm conditionals', () => {
    expect(result.pins.map(summary)).toEqual([
      `- text tag+digest ghcr.io/acme/multus-cni:v1.6.0@${D} @7`,
      '- text tag ghcr.io/acme/migrate:v2 @9',
      `- text tag+digest ghcr.io/acme/installer:v3@${D} @13`,
      '- text tag busybox:1.36 @15',
    ]);
    expect(result.pins.every((p) => p.scraped === undefined)).toBe(true);
  });
  it('spans are exact', () => {
    expect(spanMismatches(text, result.pins)).toEqual([]);
    expect(spanTexts(text, result.pins[2]!)).toEqual([`ref=ghcr.io/acme/installer:v3@${D}`]);
    expect(result.pins[0]!.column).toBe(18);
  });
  it('reports templated and invalid image values instead of dropping them', () => {
    expect(result.problems.map((p) => `${p.code}:${p.line}`)).toEqual(['templated-ref:17', 'invalid-ref:19']);
    expect(result.problems[1]!.reason).toMatch(/found 65/);
  });
  it('does not scrape URLs, label keys, CIDRs or bare repositories', () => {
    expect(result.pins.filter((p) => p.line >= 21)).toEqual([]);
  });
  it('CRLF keeps spans exact and the carriage return out of the ref', () => {
    const crlf = 'a:\r\n  image: ghcr.io/acme/x:v1\r\n  b: "ghcr.io/acme/y:v2"\r\n';
    const r = scrapeText(crlf, acmeContext('c.yml'), { scraped: true });
    expect(r.pins.map((p) => `${p.raw}@${p.line}:${p.column}:${p.scraped}`)).toEqual(['ghcr.io/acme/x:v1@2:10:true', 'ghcr.io/acme/y:v2@3:7:true']);
    expect(spanMismatches(crlf, r.pins)).toEqual([]);
  });
  it('finds IPv6 and port registries as tokens', () => {
    const r = scrapeText('x [::1]:5000/acme/x:v1 and reg.acme.test:5000/p/b@' + D + '\n', acmeContext('t'));
    expect(r.pins.map((p) => p.ref.name)).toEqual(['[::1]:5000/acme/x', 'reg.acme.test:5000/p/b']);
  });
});

describe('text scrape key positions', () => {
  it.each([
    ['  image: ghcr.io/acme/x:v1', ['ghcr.io/acme/x:v1'], []],
    ['  - image: busybox:1.36', ['busybox:1.36'], []],
    ['{"name": "a", "image": "nginx:1.25"}', ['nginx:1.25'], []],
    ['# the Talos image: KubeVirt rejects it', [], []],
    ['  image: ghcr.io/acme/kubelet:{{ .Values.version }}', [], ['templated-ref']],
    ['  image: "{{ .Values.registry }}/acme/x:v1"', [], ['templated-ref']],
  ])('%s', (line, refs, codes) => {
    const r = scrapeText(`${line}\n`, acmeContext('t'));
    expect(r.pins.map((p) => p.raw)).toEqual(refs);
    expect(r.problems.map((p) => p.code)).toEqual(codes);
  });
});

describe('refs in code and scripts (declared extra files)', () => {
  const K = 'kindest/node:v1.29.2@sha256:51a1434a5397193442f0be2a297b488b6c919ce8a3931be0ce822606ea5ca245';
  it.each<[string, string, string[], string[]]>([
    ['a Go const with no registry host', `const Image = "${K}"`, [K], []],
    ['a Go var with := and a tag only, image-named', 'defaultImage := "kindest/node:v1.29.2"', ['kindest/node:v1.29.2'], []],
    ['a Go struct field, quoted', `\tImage: "${K}",`, [K], []],
    ['an identifier after an image key is code, not a ref', '\t\tImage: image,', [], []],
    ['a selector after an image key is code', '\t\tImage:   cfg.Image,', [], []],
    ['a call argument after an image key is code', '\tImage: img)', [], []],
    ["a call after an image key is code (thanos' e2e services)", '\t\timage: DefaultImage(),', [], []],
    ['so is a call with arguments', '\tImage: fmt.Sprintf("%s:%s", repo, tag),', [], []],
    ["YAML in a Go raw string joined to a const is code (kind's const_cni.go)", '        image: ` + kindnetdImage + `', [], []],
    ['a quoted ref with a digest anywhere', `images := []string{"${K}"}`, [K], []],
    ['a quoted word assigned to a non-image name is not a ref', 'name := "node:v1"', [], []],
    ['a shell default', 'IMAGE="${IMAGE:-ghcr.io/acme/app:v1.2.3}"', ['ghcr.io/acme/app:v1.2.3'], []],
    ['a shell default without a host, image-named variable', ': "${KIND_NODE_IMAGE:=kindest/node:v1.29.2}"', ['kindest/node:v1.29.2'], []],
    ['a shell default of a non-image variable without a host is not a ref', 'V="${VERSION:-release:v1}"', [], []],
    ['a quoted FROM', 'FROM "golang:1.22-alpine" AS build', ['golang:1.22-alpine'], []],
    ['FROM inside a heredoc echo', "echo 'FROM --platform=$BUILDPLATFORM alpine:3.20' > Dockerfile", ['alpine:3.20'], []],
    ['FROM a stage or scratch is not a ref', 'FROM build AS final\nFROM scratch', [], []],
    ['prose with FROM and no tag is not a ref', '-- SELECT * FROM users', [], []],
    ["a quoted ref code completes with `+` is left out (prometheus-operator's defaults.go)", '\tDefaultReloaderImage = "quay.io/acme/reloader:v" + version.Version', [], []],
    ['so is one code prefixes', `ref := host + "/${K}"`.replace('"/', '"'), [], []],
    ['a `+` elsewhere on the line does not', 'Image = "quay.io/acme/x:v1" // bumped by 1 + 1', ['quay.io/acme/x:v1'], []],
  ])('%s', (_name, text, refs, codes) => {
    const r = scrapeText(`${text}\n`, acmeContext('hack/kind.go'));
    expect(r.pins.map((p) => p.raw)).toEqual(refs);
    expect(r.problems.map((p) => p.code)).toEqual(codes);
    expect(spanMismatches(`${text}\n`, r.pins)).toEqual([]);
  });

  it('says where a ref joined to code was left out', () => {
    const r = scrapeText('// defaults\n\tDefaultReloaderImage = "quay.io/acme/reloader:v" + version.Version\n', acmeContext('pkg/defaults.go'));
    expect(r.leftOut).toEqual([{ reason: expect.stringContaining('joined to code by `+`'), where: 'pkg/defaults.go:2 "quay.io/acme/reloader:v" + version.Version', line: 2 }]);
  });
});
