/**
 * The worker pool gives exactly the in-process result. Workers run only from the
 * built package (dist/scan/collect-worker.js), so this test imports dist/ and is
 * skipped when it has not been built (`npm test` builds first).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateTree } from '../../bench/scan/generate.mjs';

const dist = new URL('../../dist/scan/repo.js', import.meta.url);
const built = existsSync(dist) && existsSync(new URL('../../dist/scan/collect-worker.js', import.meta.url));

describe('scan worker pool', () => {
  it.skipIf(!built)('returns the same result as the in-process scan', async () => {
    const { scanRepo } = (await import(dist.href)) as typeof import('../../src/scan/repo.js');
    const { loadConfig } = (await import(new URL('../../dist/config/load.js', import.meta.url).href)) as typeof import('../../src/config/load.js');
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-pool-'));
    try {
      (generateTree as (dir: string, n: number) => void)(dir, 120);
      const config = loadConfig(dir, { firstParty: ['ghcr.io/acme/'] });
      const inProcess = await scanRepo(dir, config, { workers: 0 });
      const pooled = await scanRepo(dir, config, { workers: 3 });
      expect(inProcess.pins).toHaveLength(600);
      expect(pooled).toEqual(inProcess);

      // and the pool itself (scanRepo falls back to in-process if it fails): outcomes by index
      const { collectInWorkers } = (await import(new URL('../../dist/scan/pool.js', import.meta.url).href)) as typeof import('../../src/scan/pool.js');
      const { readAndCollect } = (await import(new URL('../../dist/scan/read-collect.js', import.meta.url).href)) as typeof import('../../src/scan/read-collect.js');
      const { walkTree } = (await import(new URL('../../dist/scan/walk.js', import.meta.url).href)) as typeof import('../../src/scan/walk.js');
      const tasks = walkTree(dir, config).files;
      tasks.push({ file: 'gone/values.yaml', abs: join(dir, 'gone/values.yaml'), kind: 'yaml' });
      const direct = await collectInWorkers(tasks, config.firstParty, 2);
      expect(direct).toEqual(tasks.map((t) => readAndCollect(t, config.firstParty)));
      expect(direct.at(-1)).toEqual({ skipped: { file: 'gone/values.yaml', code: 'unreadable', reason: 'cannot read the file (ENOENT)' } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
