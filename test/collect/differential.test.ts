/**
 * Differential test for the collector and scan speed-ups: the output on every
 * fixture under src/collect/** /fixtures, the shared cozystack fixture and a
 * generated benchmark tree must equal JSON snapshots recorded *before* the
 * optimisation (test/fixtures/snapshots/). All fields, spans included; keys sorted so only
 * content counts. Update a snapshot (`vitest -u`) only for an intended change.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateTree } from '../../bench/scan/generate.mjs';
import { loadConfig } from '../../src/config/load.js';
import { scanRepo } from '../../src/scan/repo.js';
import { fileKind } from '../../src/scan/kind.js';
import { collectFile } from '../../src/collect/index.js';
import { collectCozystack } from '../support/cozystack.js';
import { acmeContext } from '../support/collect.js';

const COLLECT_DIR = fileURLToPath(new URL('../../src/collect/', import.meta.url));

/** JSON with object keys sorted at every level (undefined fields dropped). */
function canonical(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
          .sort()
          .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return `${JSON.stringify(sortKeys(value), null, 1)}\n`;
}

function fixtureFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, inFixtures: boolean): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p, inFixtures || e.name === 'fixtures');
      else if (inFixtures) out.push(p);
    }
  };
  walk(dir, false);
  return out;
}

async function scanGenerated(count: number) {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-diff-'));
  try {
    generateTree(dir, count);
    const { root: _root, config: _config, kustomize, ...rest } = await scanRepo(dir, loadConfig(dir, { firstParty: ['ghcr.io/acme/'] }));
    expect(kustomize).toEqual([]); // the generated tree has no kustomize overlays (the snapshots predate the field)
    return rest;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('optimised collectors give exactly the recorded output', () => {
  it('every fixture under src/collect/**/fixtures', async () => {
    const results = fixtureFiles(COLLECT_DIR).map((abs) => {
      const file = relative(COLLECT_DIR, abs).split('\\').join('/');
      const kind = fileKind(file, false);
      return { file, kind, result: collectFile(kind, readFileSync(abs, 'utf8'), acmeContext(file)) };
    });
    expect(results.length).toBeGreaterThan(30);
    await expect(canonical(results)).toMatchFileSnapshot('../fixtures/snapshots/fixtures.json');
  });

  it('the shared cozystack fixture', async () => {
    const tree = collectCozystack();
    expect(tree.pins.length).toBeGreaterThan(70);
    await expect(canonical({ pins: tree.pins, problems: tree.problems, scraped: tree.scraped })).toMatchFileSnapshot('../fixtures/snapshots/cozystack.json');
  });

  it('a generated benchmark tree (40 files, in full)', async () => {
    const result = await scanGenerated(40);
    expect(result.pins.length).toBe(200);
    await expect(canonical(result)).toMatchFileSnapshot('../fixtures/snapshots/bench-40.json');
  });

  it('the 2,000-file benchmark tree (sha256 of the canonical scan result)', async () => {
    const result = await scanGenerated(2000);
    expect(result.pins.length).toBe(10_000);
    const hash = createHash('sha256').update(canonical(result)).digest('hex');
    await expect(`${hash}\n`).toMatchFileSnapshot('../fixtures/snapshots/bench-2000.sha256');
  });
});
