import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';

const dirs: string[] = [];
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'pinwatch-atomic-'));
  dirs.push(d);
  return d;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('writeFileAtomic', () => {
  it('replaces the content and keeps the file mode', () => {
    const d = scratch();
    const f = join(d, 'values.yaml');
    writeFileSync(f, 'old\n');
    chmodSync(f, 0o640);
    writeFileAtomic(f, 'new\n');
    expect(readFileSync(f, 'utf8')).toBe('new\n');
    expect(statSync(f).mode & 0o777).toBe(0o640);
    expect(readdirSync(d)).toEqual(['values.yaml']);
  });

  it('names the missing folder and leaves nothing behind', () => {
    const d = scratch();
    expect(() => writeFileAtomic(join(d, 'nope', 'x.json'), '{}')).toThrow(/cannot write ".*nope\/x\.json": the folder ".*nope" does not exist/);
    expect(readdirSync(d)).toEqual([]);
  });

  it('refuses a directory as the target, leaving it untouched and no temp file', () => {
    const d = scratch();
    mkdirSync(join(d, 'out'));
    expect(() => writeFileAtomic(join(d, 'out'), '{}')).toThrow(/is a directory/);
    expect(readdirSync(d)).toEqual(['out']);
    expect(statSync(join(d, 'out')).isDirectory()).toBe(true);
  });
});
