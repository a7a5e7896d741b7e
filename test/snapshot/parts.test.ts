/**
 * A snapshot part is kept as two entries, its records (all a check reads: a
 * kept answer's reuse reads nothing more) and its values, tied by a tag
 * (src/snapshot/check.ts putPart / joinValues): the values join back to the very
 * records they were written with, a refresh of the records keeps them joined,
 * and values written by another derivation are never joined to these records.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/store.js';
import { loadConfig } from '../../src/config/load.js';
import { checkKept, configHash, joinValues, partKey, putPart, SNAPSHOT_NS, type InputsPart, type ModelPart, type ScanPart } from '../../src/snapshot/check.js';
import type { ReadRecord } from '../../src/util/tracked-fs.js';
import { combineModel, type MakeSide, type RecipeFiles } from '../../src/producers/combine.js';

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A record of no paths: it holds wherever it is checked. */
const empty = (startNs: string): ReadRecord => ({ startNs, paths: [] });

function fixture() {
  const root = mkdtempSync(join(tmpdir(), 'pinwatch-parts-'));
  made.push(root);
  const cache = openCache(root, { enabled: true, dir: join(root, 'cache') });
  const config = loadConfig(root);
  const hash = configHash(config);
  const scan = {
    id: 'scan-1',
    record: empty('1'),
    walk: { record: empty('2'), value: { files: [], skipped: [], excluded: [] } },
    files: [
      { key: 'a', record: empty('3'), outcome: { pins: [{ file: 'a.yaml' }] } },
      { key: 'b', record: empty('4'), outcome: { pins: [] } },
    ],
    scan: { pins: [{ file: 'a.yaml' }], problems: [] },
    tree: 'listing-1',
  } as unknown as ScanPart;
  // the model is kept as its two halves (producers/repo.ts) and joined again by combineModel
  const model = modelPart(config, [{ file: 'Makefile', line: 3, code: 'build-target-missing', reason: 'no rule' }]);
  const inputs = { id: 'inputs-1', images: [{ request: 'r1', image: 'img', record: empty('6'), inputs: { patterns: ['cmd/**'] } }] } as unknown as InputsPart;
  return { root, cache, config, hash, scan, model, inputs };
}

function modelPart(config: ReturnType<typeof loadConfig>, problems: MakeSide['problems']): ModelPart {
  const files: RecipeFiles = { files: ['.github/workflows/ci.yaml'], recipes: [], makes: [], problems: [] };
  const side: MakeSide = { producers: [], recipes: [], viaMake: [], problems };
  return { id: 'model-1', record: empty('5'), recipes: { record: empty('7') }, follow: 'calls-1', tree: 'listing-1', files, side, vendored: [], model: combineModel(config, [], files, side) };
}

describe('snapshot parts: records and values kept apart', () => {
  it('the values join back to the records they were written with, each part as it was kept', () => {
    const { root, cache, config, hash, scan, model, inputs } = fixture();
    putPart(cache, root, hash, scan, 'scan');
    putPart(cache, root, hash, model, 'model');
    putPart(cache, root, hash, inputs, 'inputs');
    const records = cache.getValue<Record<string, unknown>>(SNAPSHOT_NS, partKey('scan', root, hash))!;
    // the records entry holds no value: no outcome, no walk value, no scan
    expect(Object.keys(records).sort()).toEqual(['files', 'id', 'record', 'tag', 'tree', 'walk']);
    expect(JSON.stringify(records)).not.toContain('a.yaml');
    const kept = checkKept(root, root, config, cache);
    expect(kept.all.every((c) => c.holds)).toBe(true);
    const joined = joinValues(kept, cache, root, config);
    const { tag: _s, ...scanBack } = joined.scan!;
    const { tag: _m, ...modelBack } = joined.model!;
    const { tag: _i, ...inputsBack } = joined.inputs!;
    expect(scanBack).toEqual(scan);
    expect(modelBack).toEqual(model);
    expect(inputsBack).toEqual(inputs);
    expect(joined.fileChecks.get('a')?.entry.outcome).toEqual({ pins: [{ file: 'a.yaml' }] });
    expect(joined.inputChecks.get('r1')?.entry.inputs).toEqual({ patterns: ['cmd/**'] });
  });

  it('a refresh of the records alone keeps them joined to their values', () => {
    const { root, cache, config, hash, scan } = fixture();
    putPart(cache, root, hash, scan, 'scan');
    const joined = joinValues(checkKept(root, root, config, cache), cache, root, config).scan!;
    putPart(cache, root, hash, { ...joined, record: empty('99') }, 'scan', true);
    const again = joinValues(checkKept(root, root, config, cache), cache, root, config).scan!;
    expect(again.record.startNs).toBe('99');
    expect(again.scan).toEqual(scan.scan);
    expect(again.tag).toBe(joined.tag);
  });

  it('values written with other records (another tag) are not joined: the part counts as not kept', () => {
    const { root, cache, config, hash, scan, model } = fixture();
    putPart(cache, root, hash, scan, 'scan');
    putPart(cache, root, hash, model, 'model');
    const first = checkKept(root, root, config, cache);
    // another derivation keeps its parts (new values, new tag) after this run read the records
    putPart(cache, root, hash, { ...scan, scan: { pins: [], problems: [] } } as unknown as ScanPart, 'scan');
    putPart(cache, root, hash, modelPart(config, []), 'model');
    const joined = joinValues(first, cache, root, config);
    expect(joined.scan).toBeUndefined();
    expect(joined.fileChecks.size).toBe(0);
    expect(joined.model).toBeUndefined();
    // read afresh, the new records join the new values
    const fresh = joinValues(checkKept(root, root, config, cache), cache, root, config);
    expect(fresh.scan?.scan).toEqual({ pins: [], problems: [] });
    expect(fresh.model?.model.problems).toEqual([]);
  });
});
