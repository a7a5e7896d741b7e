/**
 * Images that differ only where things are written (src/stale/partial.ts
 * imagesHash, src/stale/history.ts presentedAs): the hash a kept answer is tied
 * to leaves out a pin's line, column and spans, a stamped pin's line (kept as
 * the place of the pin it pairs with), an input's `why`, the inputs' steps and
 * the recipes, and counts everything a judgement reads; a kept judgement is
 * shown with this run's pins and inputs, or with none when its images do not
 * pair one to one. The end-to-end story (a line added above a pin, a recipe's
 * lines moved, both with an input edit) is test/stale/reuse.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { presentedAs } from '../../src/stale/history.js';
import { imagesHash } from '../../src/stale/partial.js';
import type { StaleImage, StaleImageInput } from '../../src/stale/types.js';
import { DIGEST, image, inputs, pin } from '../support/stale.js';

const V = 'packages/gateway/values.yaml';
const REF = `ghcr.io/acme/gateway:v1@${DIGEST('a')}`;

/** The gateway image: two pins in one values file (lines 4 and 9), the first stamped by its Makefile, with a recipe. */
function gateway(over: { lines?: [number, number]; stampedLine?: number; why?: string; steps?: string[]; recipeLine?: number; path?: string; ref?: string } = {}): StaleImageInput {
  const [a, b] = over.lines ?? [4, 9];
  const built = inputs('gateway', over.path ?? 'cmd/gateway/');
  const img = image('gateway', [pin(V, a, over.ref ?? REF), pin(V, b, REF)], {
    ...built,
    inputs: built.inputs.map((p) => ({ ...p, why: over.why ?? 'go build (Dockerfile:8)' })),
    steps: over.steps ?? ['packages/gateway/Dockerfile (from recipe packages/gateway/Makefile:3)'],
  });
  return Object.assign(img, {
    stamped: [{ file: V, line: over.stampedLine ?? a, by: 'packages/gateway/Makefile:image' }],
    recipes: [{ kind: 'make', makefile: 'packages/gateway/Makefile', target: `image (via .github/workflows/build.yaml:${over.recipeLine ?? 12} jobs.build)`, line: over.recipeLine ?? 3 }],
  });
}

describe('imagesHash: what a judgement reads of the images, not where they are written', () => {
  const base = imagesHash([gateway()]);
  it.each<[string, StaleImageInput, boolean]>([
    ['the same images', gateway(), true],
    ['every pin a line further down (its stamp with it)', gateway({ lines: [5, 10], stampedLine: 5 }), true],
    ["another Dockerfile line in an input's why", gateway({ why: 'go build (Dockerfile:11)' }), true],
    ["another recipe line in the inputs' steps", gateway({ steps: ['packages/gateway/Dockerfile (from recipe packages/gateway/Makefile:4)'] }), true],
    ["the recipe's line and its workflow step's line", gateway({ recipeLine: 40 }), true],
    ['the stamp on the second pin instead of the first', gateway({ stampedLine: 9 }), false],
    ['the stamp on no pin', gateway({ stampedLine: 7 }), false],
    ['another digest', gateway({ ref: `ghcr.io/acme/gateway:v1@${DIGEST('b')}` }), false],
    ['another tag', gateway({ ref: `ghcr.io/acme/gateway:v2@${DIGEST('a')}` }), false],
    ['another input path', gateway({ path: 'cmd/' }), false],
  ])('%s: the same hash is %s', (_what, images, same) => {
    expect(imagesHash([images]) === base).toBe(same);
  });

  it('counts another pin file, key path, ignore and missing-inputs reason', () => {
    const moved = gateway();
    moved.pins[0] = { ...moved.pins[0]!, file: 'packages/gateway/other.yaml' };
    expect(imagesHash([moved])).not.toBe(base);
    expect(imagesHash([{ ...gateway(), pins: gateway().pins.map((p) => ({ ...p, keyPath: 'gateway.image' })) }])).not.toBe(base);
    expect(imagesHash([{ ...gateway(), inputs: { ...gateway().inputs!, ignore: ['cmd/gateway/testdata/'] } }])).not.toBe(base);
    const bare = image('gateway', [pin(V, 4, REF)], undefined, 'no recipe builds it');
    expect(imagesHash([bare])).not.toBe(imagesHash([{ ...bare, missingInputsReason: 'no Dockerfile' }]));
  });
});

describe('presentedAs: a kept judgement shown where this run finds its images', () => {
  /** The report's image for `input` (one subject: one digest), judged stale by one commit. */
  const judged = (input: StaleImageInput): StaleImage => ({
    image: input.image,
    repository: input.repository,
    digest: DIGEST('a'),
    tags: ['v1'],
    status: 'stale',
    provenance: [],
    unshipped: [{ commit: 'c'.repeat(40) } as StaleImage['unshipped'][number]],
    cherryPicked: [],
    pins: input.pins.map((p) => ({ file: p.file, line: p.line })),
    inputs: { count: input.inputs!.inputs.length, patterns: input.inputs!.inputs, ignore: input.inputs!.ignore, steps: input.inputs!.steps },
  });

  it("keeps the judgement and takes this run's pins and inputs", () => {
    const kept = [judged(gateway())];
    const now = gateway({ lines: [6, 11], stampedLine: 6, why: 'go build (Dockerfile:9)', steps: ['moved'] });
    const shown = presentedAs(kept, [now]);
    expect(shown).toEqual([{ ...kept[0], pins: [{ file: V, line: 6 }, { file: V, line: 11 }], inputs: { ...kept[0]!.inputs, patterns: [{ path: 'cmd/gateway/', why: 'go build (Dockerfile:9)' }], steps: ['moved'] } }]);
    expect(shown![0]!.unshipped).toBe(kept[0]!.unshipped);
  });

  it('in the report order (repository, digest, first tag), whatever the order of the images', () => {
    const other = image('api', [pin('packages/api/values.yaml', 2, `ghcr.io/acme/api:v1@${DIGEST('a')}`)], inputs('api', 'cmd/api/'));
    const kept = [judged(other), judged(gateway())];
    expect(presentedAs(kept, [gateway({ lines: [5, 10], stampedLine: 5 }), other])!.map((i) => [i.image, i.pins[0]!.line])).toEqual([
      ['api', 2],
      ['gateway', 5],
    ]);
  });

  it.each<[string, StaleImageInput[]]>([
    ['one image more', [gateway(), image('api', [pin('packages/api/values.yaml', 2, `ghcr.io/acme/api:v1@${DIGEST('a')}`)])]],
    ['none', []],
    ['another digest at its place', [gateway({ ref: `ghcr.io/acme/gateway:v1@${DIGEST('b')}` })]],
    ['another tag at its place', [gateway({ ref: `ghcr.io/acme/gateway:v2@${DIGEST('a')}` })]],
  ])('shows nothing when the images do not pair one to one: %s', (_what, images) => {
    expect(presentedAs([judged(gateway())], images)).toBeUndefined();
  });
});
