import { describe, expect, it } from 'vitest';
import { digestsInLine, digestsInText } from './digest-text.js';

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
  ])('%s', (_name, text, want) => {
    expect(digestsInLine(text)).toEqual(want);
    expect(digestsInText(text)).toEqual(new Set(want));
  });
});
