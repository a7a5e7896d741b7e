/** PinwatchError: a closed code list checked by the compiler, and the one-line description. */
import { describe, expect, it } from 'vitest';
import { PINWATCH_ERROR_CODES, PinwatchError, type PinwatchErrorCode } from './errors.js';

describe('PinwatchError', () => {
  it('takes only a listed code (the compiler refuses any other string)', () => {
    // @ts-expect-error 'usage' was split into specific codes and is not one any more
    const old = new PinwatchError('usage', 'x');
    expect(PINWATCH_ERROR_CODES as readonly string[]).not.toContain(old.code);
    const code: PinwatchErrorCode = 'missing-option';
    expect(new PinwatchError(code, 'x').code).toBe('missing-option');
  });

  it.each([
    [{}, 'bad value'],
    [{ file: 'pinwatch.yaml' }, 'pinwatch.yaml: bad value'],
    [{ file: 'pinwatch.yaml', line: 3 }, 'pinwatch.yaml:3: bad value'],
    [{ file: 'pinwatch.yaml', line: 3, column: 7 }, 'pinwatch.yaml:3:7: bad value'],
  ])('describe() with %j is %j', (where, want) => {
    expect(new PinwatchError('config-invalid', 'bad value', where).describe()).toBe(want);
  });
});
