/**
 * YAML semantics the collector must follow as a loader would (issue 16, items 15
 * and 16): a kustomization named as such without `kind:`, duplicate keys (the
 * last wins), numbers under image keys, one-line block scalars. Each row runs
 * through both parsers where the text is in the fast parser's subset.
 */
import { describe, expect, it } from 'vitest';
import type { CollectContext } from '../types.js';
import { collectYaml } from './index.js';

const D = 'sha256:0a92e861ead179dd6b46f475fd8878d44b3cfa40ce4d7a8ff92f790d54250d25';
const ctx = (file: string): CollectContext => ({ file, isFirstParty: (r) => r.startsWith('ghcr.io/acme/') });

function run(file: string, text: string) {
  const r = collectYaml(text, ctx(file));
  return {
    pins: r.pins.map((p) => `${p.keyPath} ${p.shape} ${p.ref.name}${p.ref.tag ? `:${p.ref.tag}` : ''}${p.ref.digest ? `@${p.ref.digest.slice(0, 13)}` : ''} @${p.line}`),
    spans: r.pins.map((p) => p.spans.map((s) => text.slice(s.start, s.end)).join('|')),
    problems: r.problems.map((p) => `${p.line} ${p.code}`),
  };
}

describe('a kustomization without kind:', () => {
  const text = ['images:', '- name: nginx', '  newName: ghcr.io/acme/nginx', '  newTag: "1.27"', '- name: worker', `  digest: ${D}`, '- name: bad', '  newName: ghcr.io/acme/bad', '  digest: sha256:zzz', ''].join('\n');
  it.each(['kustomization.yaml', 'deploy/overlays/prod/kustomization.yml', 'base/Kustomization'])('%s is read as kustomize, not as split maps', (file) => {
    const r = run(file, text);
    expect(r.pins).toEqual([`images[0] kustomize ghcr.io/acme/nginx:1.27 @3`, `images[1] kustomize docker.io/library/worker@sha256:0a92e8 @5`]);
    expect(r.spans).toEqual(['ghcr.io/acme/nginx|1.27', `worker|${D}`]);
    expect(r.problems).toEqual(['8 invalid-ref']); // the bad digest is reported, not dropped
  });
  it('another file name with the same text is still read by shape', () => {
    expect(run('values.yaml', text).pins.some((p) => p.includes('kustomize'))).toBe(false);
  });
});

describe('duplicate keys: the last value is the live one', () => {
  const cases: [string, string, string[], string[]][] = [
    ['plain subset (fast parser)', 'image: ghcr.io/acme/a:1.0\nimage: ghcr.io/acme/a:2.0\n', ['image yaml-string ghcr.io/acme/a:2.0 @2'], ['1 duplicate-key']],
    ['nested with an anchor (yaml parser)', 'x: &a 1\napp:\n  image: ghcr.io/acme/a:1.0\n  image: ghcr.io/acme/a:2.0\n', ['app.image yaml-string ghcr.io/acme/a:2.0 @4'], ['3 duplicate-key']],
    ['split map', 'app:\n  repository: ghcr.io/acme/a\n  tag: v1\n  tag: v2\n', ['app split-map ghcr.io/acme/a:v2 @2'], ['3 duplicate-key']],
    // a map whose repeated key no recogniser reads (small maps are searched pair by pair, large ones with a set)
    ['repeated other key, small map', 'app:\n  main: ghcr.io/acme/a:1.0\n  other: 1\n  main: ghcr.io/acme/a:2.0\n', ['app.main yaml-string ghcr.io/acme/a:2.0 @4'], ['2 duplicate-key']],
    [
      'repeated other key, large map',
      `app:\n${Array.from({ length: 20 }, (_, i) => `  k${i}: ${i}\n`).join('')}  main: ghcr.io/acme/a:1.0\n  main: ghcr.io/acme/a:2.0\n`,
      ['app.main yaml-string ghcr.io/acme/a:2.0 @23'],
      ['22 duplicate-key'],
    ],
  ];
  it.each(cases)('%s', (_name, text, pins, problems) => {
    const r = run('values.yaml', text);
    expect(r.pins.map((p) => p.replace(/ yaml-split\S*| split\S*/, ' split-map'))).toEqual(pins);
    expect(r.problems).toEqual(problems);
  });
});

describe('values that are not strings, and block scalars', () => {
  it('a YAML number under an image key is reported, not read as docker.io/library/1.10', () => {
    for (const [text, line] of [['image: 1.10\n', 1], ['x: &a 1\nimage: 1.10\n', 2]] as const) {
      const r = run('values.yaml', text);
      expect(r.pins).toEqual([]);
      expect(r.problems).toEqual([`${line} not-a-string`]);
    }
  });
  it('a quoted number is a string and a ref', () => {
    expect(run('values.yaml', 'image: "1.10"\n').pins).toEqual(['image yaml-string docker.io/library/1.10 @1']);
  });
  it.each(['|', '>', '|+'])('a one-line `%s` block scalar holds the ref without its newline', (style) => {
    const text = `app:\n  image: ${style}\n    ghcr.io/acme/b:1.0\nnext: 1\n`;
    const r = run('values.yaml', text);
    expect(r.pins).toEqual(['app.image yaml-string ghcr.io/acme/b:1.0 @3']);
    expect(r.spans).toEqual(['ghcr.io/acme/b:1.0']);
    expect(r.problems).toEqual([]);
  });
  it('a two-line block scalar is still not a ref', () => {
    expect(run('values.yaml', 'image: |\n  ghcr.io/acme/b:1.0\n  more\n').problems).toEqual(['1 invalid-ref']);
  });
});
