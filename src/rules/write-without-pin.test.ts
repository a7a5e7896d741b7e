import { describe, expect, it } from 'vitest';
import { lint } from '../lint/engine.js';
import { config, D1, model, pin, producer, write } from '../../test/support/builders.js';
import { keySegments, yamlNodeRanges } from './write-without-pin.js';

const KUBEOVN = 'packages/system/kubeovn/values.yaml';
const TEXT = [
  'global:', // offset 0
  '  registry:',
  '    address: ghcr.io/acme',
  '  images:',
  '    kubeovn:',
  '      repository: kubeovn',
  `      tag: v1@${D1}`,
  'replicas: 2',
  '',
].join('\n');
const at = (needle: string) => TEXT.indexOf(needle);

/** The chart-global pin as scan reports it: key path at the image, spans on every field. */
const globalPin = pin(KUBEOVN, 6, `ghcr.io/acme/kubeovn:v1@${D1}`, {
  keyPath: 'global.images.kubeovn',
  shape: 'yaml-global',
  spans: [
    { field: 'registry', start: at('ghcr.io/acme'), end: at('ghcr.io/acme') + 'ghcr.io/acme'.length },
    { field: 'repository', start: at('kubeovn\n'), end: at('kubeovn\n') + 7 },
    { field: 'tag', start: at('v1@'), end: at('v1@') + 2 },
  ],
});

function run(writes: ReturnType<typeof write>[], over: { skipped?: { file: string; code: string; reason: string }[] } = {}) {
  const r = lint({ pins: [globalPin], model: model([producer('packages/system/kubeovn/Makefile', 'image', writes)]), config: config(), fileText: (f) => (f === KUBEOVN ? TEXT : undefined), ...over });
  return r.findings.filter((f) => f.rule === 'write-without-pin');
}

describe('write-without-pin', () => {
  it('a write to a field of a pin that sits at another key path is covered (YAML spans)', () => {
    expect(run([write(KUBEOVN, 'global.registry.address', 'a'), write(KUBEOVN, 'global.images.kubeovn.tag', 'b')])).toEqual([]);
  });

  it('a write into a file with no pin says the file is not scanned', () => {
    const [f, ...rest] = run([write(KUBEOVN, 'global.images.kubeovn.tag', 'b'), write('packages/x/files/components.yaml', undefined, 'c', 28)]);
    expect(rest).toEqual([]);
    expect(f!.line).toBe(28);
    expect(f!.file).toBe('packages/system/kubeovn/Makefile');
    expect(f!.message).toContain('packages/x/files/components.yaml, but pinwatch found no pin in that file');
    expect(f!.severity).toBe('warning');
  });

  it('a write to a key that does not exist, and one to a value that is no ref', () => {
    const found = run([write(KUBEOVN, 'global.images.kubeovn.tag', 'b'), write(KUBEOVN, 'global.images.ovs.tag', 'c', 31), write(KUBEOVN, 'replicas', 'd', 32)]);
    expect(found.map((f) => [f.line, (f.evidence as { verdict: string }).verdict])).toEqual([
      [31, 'key-missing'],
      [32, 'not-a-ref'],
    ]);
  });

  it('is quiet about files unparsed-file already reports, and writes the build model already reports', () => {
    expect(run([write('packages/x/files/components.gz', undefined, 'c')], { skipped: [{ file: 'packages/x/files/components.gz', code: 'binary-file', reason: 'binary' }] })).toEqual([]);
    const m = model([producer('M', 'image', [write('gone.tag', undefined, 'g', 9)])], [{ file: 'M', line: 9, code: 'producer-target-missing', reason: 'gone.tag does not exist' }]);
    expect(lint({ pins: [], model: m, config: config() }).findings.map((f) => f.rule)).toEqual(['build-recipe-problem']);
  });
});

describe('keySegments and yamlNodeRanges', () => {
  it.each([
    ['a.b.c', ['a', 'b', 'c']],
    ['.spec.containers[0].image', ['spec', 'containers', 0, 'image']],
    ['.a["b"].c', ['a', 'b', 'c']],
    ['m[1][2]', ['m', 1, 2]],
  ])('%s', (path, want) => {
    expect(keySegments(path)).toEqual(want);
  });

  it('finds a node in any document and nothing for a missing key or non-YAML text', () => {
    const text = 'a: 1\n---\nb:\n  c: x\n';
    expect(yamlNodeRanges(text, 'b.c')).toEqual([[text.indexOf('x'), text.indexOf('x') + 2]]);
    expect(yamlNodeRanges(text, 'b.zz')).toEqual([]);
    expect(yamlNodeRanges('{{ if .X }}\nimage: x\n{{ end }}\n', 'image')).toEqual([]);
  });
});
