/**
 * A minimal PNG reader for screenshot checks: 8-bit RGB/RGBA, non-interlaced (what
 * Chromium writes). Gives the pixels so a test can say "not blank" or "dark".
 */
import { inflateSync } from 'node:zlib';

export interface Png {
  width: number;
  height: number;
  /** RGB triples, row by row. */
  rgb(x: number, y: number): [number, number, number];
}

export function readPng(buf: Buffer): Png {
  if (buf.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at);
    const type = buf.subarray(at + 4, at + 8).toString('latin1');
    const data = buf.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const depth = data[8];
      const colour = data[9];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || data[12] !== 0) throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}, interlace ${data[12]}`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const px = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? px[y * stride + i - channels]! : 0;
      const b = y > 0 ? px[(y - 1) * stride + i]! : 0;
      const c = y > 0 && i >= channels ? px[(y - 1) * stride + i - channels]! : 0;
      let v = line[i]!;
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      px[y * stride + i] = v & 0xff;
    }
  }
  return { width, height, rgb: (x, y) => [px[y * stride + x * channels]!, px[y * stride + x * channels + 1]!, px[y * stride + x * channels + 2]!] };
}

/** How many distinct colours a sample grid of the image has (1 = blank). */
export function distinctColours(png: Png, step = 7): number {
  const seen = new Set<number>();
  for (let y = 0; y < png.height; y += step) for (let x = 0; x < png.width; x += step) {
    const [r, g, b] = png.rgb(x, y);
    seen.add((r << 16) | (g << 8) | b);
  }
  return seen.size;
}
