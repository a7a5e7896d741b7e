/** repin on a real-world, heavily commented values file changes only the tag and digest bytes. */
import { afterEach, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultConfig } from '../../src/config/defaults.js';
import { repin } from '../../src/repin/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const golden = join(here, 'golden', 'backupstrategy-controller');
const REPO = 'ghcr.io/cozystack/cozystack/backupstrategy-controller';
const NEW_DIGEST = `sha256:${'7'.repeat(64)}`;
const FILE = 'packages/system/backupstrategy-controller/values.yaml';

let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

function tree(): string {
  root = mkdtempSync(join(tmpdir(), 'pinwatch-golden-'));
  mkdirSync(join(root, dirname(FILE)), { recursive: true });
  cpSync(join(golden, 'input.yaml'), join(root, FILE));
  return root;
}

describe('repin golden: cozystack backupstrategy-controller values.yaml', () => {
  it('matches the expected file and differs only inside the tag and digest spans', async () => {
    tree();
    const config = { ...defaultConfig(), firstParty: ['ghcr.io/cozystack/cozystack/'] };
    const r = await repin({ root, config, image: REPO, to: `${REPO}:v1.7.0@${NEW_DIGEST}` });
    expect(r.problems).toEqual([]);
    expect(r.leftovers).toEqual([]);
    expect(r.changes).toHaveLength(1);
    expect(r.changes[0]).toMatchObject({ file: FILE, line: 2, keyPath: 'backupStrategyController.image' });

    const input = readFileSync(join(golden, 'input.yaml'), 'utf8');
    const output = readFileSync(join(root, FILE), 'utf8');
    expect(output).toBe(readFileSync(join(golden, 'expected.yaml'), 'utf8'));

    // The byte diff is exactly the old tag and digest replaced in place.
    const oldTag = 'v1.6.0';
    const oldDigest = 'sha256:e8bf0521d1d1d8b90ebe66e9013010887033ba2653901799d57f2df47c9d879e';
    const tagAt = input.indexOf(`backupstrategy-controller:${oldTag}@`) + 'backupstrategy-controller:'.length;
    const digestAt = input.indexOf(oldDigest);
    const spliced = input.slice(0, tagAt) + 'v1.7.0' + input.slice(tagAt + oldTag.length, digestAt) + NEW_DIGEST + input.slice(digestAt + oldDigest.length);
    expect(output).toBe(spliced);
    const inLines = input.split('\n');
    const outLines = output.split('\n');
    expect(outLines.length).toBe(inLines.length);
    expect(outLines.map((l, i) => (l === inLines[i] ? -1 : i + 1)).filter((n) => n > 0)).toEqual([2]);
  });

  it('leaves the other repository in the same file alone (its own digest stays)', async () => {
    tree();
    const config = { ...defaultConfig(), firstParty: ['ghcr.io/cozystack/cozystack/'] };
    await repin({ root, config, image: REPO, to: `${REPO}:v1.7.0@${NEW_DIGEST}` });
    expect(readFileSync(join(root, FILE), 'utf8')).toContain('platform-migrations:v1.6.0@sha256:6777042e3e9c6bad76e7d96fb64baa115061975f39061cb3ede84e21d0e2213f');
  });
});
