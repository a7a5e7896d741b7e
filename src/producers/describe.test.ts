import { describe, expect, it } from 'vitest';
import { D1, model, pin, producer, write } from '../../test/support/builders.js';
import { describeProducers } from './describe.js';

describe('describeProducers', () => {
  const A = 'packages/core/platform/values.yaml';
  const B = 'packages/system/bsc/values.yaml';
  const m = model([
    producer('packages/core/platform/Makefile', 'image', [write(A, 'migrations.image', 'm'), write(B, 'bsc.chImage', 'm'), write(A, 'other.image', 'o')], false),
  ]);

  it('names the producer, its write, whether it is built, and its lockstep partners', () => {
    const d = describeProducers(m, pin(A, 2, `ghcr.io/acme/platform-migrations:v1@${D1}`, { keyPath: 'migrations.image' }));
    expect(d).toEqual([
      {
        producer: 'packages/core/platform/Makefile:image',
        built: false,
        builtVia: undefined,
        write: { file: A, keyPath: 'migrations.image', via: 'yq', source: { file: 'packages/core/platform/Makefile', line: 10 } },
        lockstepWith: [{ file: B, keyPath: 'bsc.chImage' }],
      },
    ]);
  });

  it('is empty for a pin nobody stamps', () => {
    expect(describeProducers(m, pin(A, 9, `ghcr.io/acme/x:v1@${D1}`, { keyPath: 'x.image' }))).toEqual([]);
  });
});
