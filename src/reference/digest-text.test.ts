import { describe, expect, it } from 'vitest';
import { prng } from '../../bench/prng.mjs';
import { digestsInBytes, digestsInLine, digestsInText } from './digest-text.js';

const H = (c: string, n: number) => c.repeat(n);

describe('digests in text', () => {
  it.each([
    ['a pin', `image: ghcr.io/acme/a:v1@sha256:${H('a', 64)}`, [`sha256:${H('a', 64)}`]],
    ['a comment and a quoted value, in order', `# was sha512:${H('b', 128)}\ndigest: "sha384:${H('c', 96)}"`, [`sha512:${H('b', 128)}`, `sha384:${H('c', 96)}`]],
    ['repeats kept by the line reader', `sha256:${H('d', 64)} sha256:${H('d', 64)}`, [`sha256:${H('d', 64)}`, `sha256:${H('d', 64)}`]],
    ['too short', `sha256:${H('e', 63)}`, []],
    ['too long: no word end', `sha256:${H('e', 65)}`, []],
    ['upper-case hex', `sha256:${H('E', 64)}`, []],
    ['another algorithm', `md5:${H('f', 32)}`, []],
    ['glued to a word before it', `xsha256:${H('a', 64)}`, []],
    ['glued to a word after it', `sha256:${H('a', 64)}_x`, []],
    ['after a non-ASCII character, and before one', `é sha256:${H('1', 64)}é`, [`sha256:${H('1', 64)}`]],
    ['at the very start and end', `sha384:${H('2', 96)}`, [`sha384:${H('2', 96)}`]],
    ['a hex run one short, then a good one', `sha256:${H('3', 63)} sha256:${H('4', 64)}`, [`sha256:${H('4', 64)}`]],
    ['no colon', `sha256 ${H('5', 64)}`, []],
    ['an unknown size', `sha255:${H('6', 64)}`, []],
  ])('%s', (_name, text, want) => {
    expect(digestsInLine(text)).toEqual(want);
    expect(digestsInText(text)).toEqual(new Set(want));
    // read from the bytes: the same digests, in the same order
    expect([...digestsInBytes(Buffer.from(text, 'utf8'))]).toEqual([...new Set(want)]);
  });

  it('digestsInBytes answers what digestsInText answers of the decoded bytes, on 3,000 generated texts (invalid UTF-8 too)', () => {
    const rand = prng(15);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const hex = (n: number) => Array.from({ length: n }, () => pick('0123456789abcdef'.split(''))).join('');
    const pieces: (() => Buffer)[] = [
      () => Buffer.from(`sha256:${hex(64)}`),
      () => Buffer.from(`sha384:${hex(96)}`),
      () => Buffer.from(`sha512:${hex(128)}`),
      () => Buffer.from(`sha256:${hex(pick([63, 65, 70]))}`),
      () => Buffer.from(`sha${pick(['256', '384', '512', '1', '25'])}${pick([':', '', ' '])}`),
      () => Buffer.from(pick(['sha', 's', 'h', 'a', ':', '@', ' ', '\n', '"', '_', 'x', 'Z', '9', 'f', 'é', '→'])),
      () => Buffer.from(hex(pick([1, 5, 64]))),
      () => Buffer.from([pick([0x80, 0xc3, 0xe2, 0xff, 0xfe, 0x00])]),
    ];
    let found = 0;
    for (let n = 0; n < 3000; n++) {
      const bytes = Buffer.concat(Array.from({ length: 1 + Math.floor(rand() * 12) }, () => pick(pieces)()));
      const want = [...digestsInText(bytes.toString('utf8'))];
      expect([...digestsInBytes(bytes)], bytes.toString('hex')).toEqual(want);
      found += want.length;
    }
    expect(found).toBeGreaterThan(500); // the texts hold digests, not only near misses
  });
});
