/**
 * The tree-state snapshot: what the scan, the build model and the build inputs
 * derived from the work tree (what `staleReport` and `checkRepo` get from
 * `scanRepo` and `imagesFromPins`), kept in the persistent cache in parts, each
 * with the record of every path its derivation touched (util/tracked-fs.ts:
 * each file read, directory listed, path stat'd or resolved), under the
 * config's hash and pinwatch's version (the cache's version folder):
 *  - the scan (the walk, every collector, the listing recipe discovery reads);
 *  - the build model (Makefiles, workflows, bake… every recipe reader), which
 *    depends on the scan only through that listing (`ScanResult.recipeTree`):
 *    kept with its hash, and derived again when the listing differs; kept in two
 *    halves with a record each (producers/repo.ts): the recipe files of the other
 *    kinds, and the Makefile side, reused while its record holds and the make
 *    calls the recipe files run (their labels and lines aside) are the same;
 *  - the build inputs of each pinned image (its Dockerfile, context listing, Go
 *    import closure), kept by their request (the image's name, first recipe and
 *    config entry, compared by value: util `requestKey`), so a recipe or entry
 *    that changed derives them again. Answers the images share (sources/memo.ts)
 *    are in the record of every image that used them.
 * The next run checks each record with lstat calls (a changed directory is
 * listed again, a racy file hashed again; each path asked once for all parts;
 * the model's and inputs' readers use a path they only stat for its type, so
 * there a file only stat'd holds while its type does: CheckOptions.typeOnlyStats)
 * and reuses each part whose record holds and whose upstream result is the same;
 * the images layer (pins grouped, recipes picked, stamps) is cheap and always
 * worked out again. So a Go file edit derives again only the inputs of the
 * images whose closure read it, and a pin edit the scan (and the images layer),
 * keeping the model and every image's inputs. Any change that could alter a
 * part invalidates it: an edited or new pin file, values file, Makefile,
 * Dockerfile or Go file where its reader looked, a retargeted symlink, a deleted
 * file, another config. A new file no reader notices (no include glob, not
 * YAML, no recipe kind's name) in a directory only the walk listed does not.
 * Under -v the cache summary says per part what was reused, and for each part
 * that was not the first path that changed.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { cacheFor, type Cache } from '../cache/index.js';
import type { Config } from '../config/types.js';
import { deriveImageInputs, imagesFromPins, type ImageInputsRequest, type ImagesResult } from '../images/images.js';
import type { Recovery } from '../journal/index.js';
import { staleTempsOf, startTreeRecovery } from './recovery.js';
import { combineModel, followInput, type MakeSide, type RecipeFiles } from '../producers/combine.js';
import type { BuildModel } from '../producers/types.js';
import type { ScanResult } from '../scan/index.js';
import { ExclusionCounter } from '../scan/exclusions.js';
import type { FileTask } from '../scan/read-collect.js';
import type { ScanParts } from '../scan/repo.js';
import type { BuildInputs } from '../sources/types.js';
import { keyOfTouched, recordReads, recordReadsSync, unchangedSince, type ReadRecord } from '../util/tracked-fs.js';
import { checkedText, checkKept, configHash, isDirectory, joinValues, keptWalkTree, putPart, realOf, recipeListingKey, requestKey, type FileEntry, type InputsEntry, type InputsPart, type KeptChecks, type ModelPart, type ScanPart } from './check.js';

/** How one part of the snapshot was had: reused, or derived again and why. */
export interface PartUse {
  reused: boolean;
  /** Why it was derived again (the first path that changed, an upstream result that changed, none kept…). */
  reason?: string;
}

export interface SnapshotUse {
  /** Every part was reused. */
  reused: boolean;
  /** Why not (the first part's reason). */
  reason?: string;
  /**
   * Names this derivation while every part of it is kept (reused, or written by this run; a
   * part's id stays while only its stats are refreshed): stale/reuse.ts ties an answer to it.
   */
  id?: string;
  /** Per part; absent when no snapshot could be used at all (no cache, a recovery). */
  parts?: {
    scan: PartUse;
    model: PartUse;
    /** Images whose inputs were reused, and those derived again with why. */
    inputs: { reused: string[]; derived: { image: string; reason: string }[] };
  };
}

export interface DerivedTree {
  scan: ScanResult;
  known: ImagesResult;
  /** Whether the snapshot was reused (per part), and why not. */
  snapshot: SnapshotUse;
}

export interface DeriveOptions {
  /** The cache (default: the process's, `cacheFor(root)`); a disabled one derives without a snapshot. */
  cache?: Cache;
  /**
   * Called as soon as the pins are known (stale starts reading their blobs), reused or derived;
   * `reused`: the scan was reused and every other part's record holds (the whole snapshot is likely reused).
   */
  onScan?: (scan: ScanResult, reused: boolean) => void;
  /** The recovery of an interrupted write, already started in this run (stale/repo.ts looked at the tree first). */
  recovery?: Recovery;
  /** The kept records as already checked in this run (checkKept, with this cache and config, after `recovery`). */
  checked?: KeptChecks;
}


/** A deep copy as the cache keeps values (node:v8: Maps, Sets and Buffers stay what they are). */
const cloneOf = <T>(value: T): T => deserialize(serialize(value)) as T;

/** A scanned file's identity: what readAndCollect is given besides the config (its path, real path and kind). */
function fileKey(task: FileTask): string {
  return JSON.stringify([task.file, task.abs, task.kind, task.absBytes ? Buffer.from(task.absBytes).toString('base64') : null]);
}

/** A record fit to keep: nothing made it unusable and no path changed while it was read. */
function keepable(record: ReadRecord): string | undefined {
  if (record.unusable) return record.unusable;
  if (!unchangedSince(record)) return 'a file changed while it was read';
  return undefined;
}


/**
 * The scan and image knowledge of the tree at `repoRoot` — each part from the
 * snapshot when its record still holds and what it was derived from is the
 * same, else derived (and, when nothing changed while deriving, kept for the
 * next run).
 */
export async function deriveTree(repoRoot: string, config: Config, options: DeriveOptions = {}): Promise<DerivedTree> {
  const root = resolve(repoRoot);
  const cache = options.cache ?? cacheFor(root);
  const derive = async (recovery?: Pick<Recovery, 'journal' | 'staleTemps'>) => {
    const { scanRepo } = await import('../scan/repo.js');
    const scan = await scanRepo(root, config, { recipeTree: true, ...(recovery ? { recovery } : {}) });
    options.onScan?.(scan, false);
    const known = await imagesFromPins(root, config, scan.pins, undefined, scan.recipeTree ? { tree: scan.recipeTree } : {});
    return { scan, known };
  };
  // no cache, or no directory to look at (the scan then says so, as without a cache)
  if (!cache.enabled || !isDirectory(root)) return { ...(await derive()), snapshot: { reused: false, reason: 'no cache' } };
  // an interrupted write is finished (or undone) first: the tree is then what the records are checked against;
  // stale temp files of a killed run are looked for in the walk's listings once its record is checked (or in git)
  const started = options.recovery ?? (await startTreeRecovery(root));
  const recovered = async () => {
    const found = await started.staleTemps();
    return started.journal.length > 0 || found.length > 0 ? { journal: started.journal, staleTemps: async () => found } : undefined;
  };
  const afresh = async (why: string) => {
    cache.note(`tree snapshot not used: ${why} in this run`);
    return { ...(await derive(await recovered())), snapshot: { reused: false, reason: 'an interrupted write was recovered' } };
  };
  if (started.journal.length > 0) return afresh('an interrupted write was recovered');
  const recovery = { journal: started.journal, staleTemps: () => started.staleTemps() };
  const real = realOf(root);
  const hash = configHash(config);
  const none = 'none kept for this checkout path, config and pinwatch build';
  // one start for every recording of this run: their paths may be merged into one another (sources/memo.ts)
  const startNs = BigInt(Date.now()) * 1_000_000n;

  // every kept record is checked first, at one point in time, each path asked once
  const checked = joinValues(options.checked ?? checkKept(root, real, config, cache), cache, real, config, hash);
  // where the temp files are looked for, decided once: the walk's listings when its record holds, else git (beside the derivation)
  staleTempsOf(started, checked.walkCheck, real).catch(() => undefined);
  const { scan: keptScan, model: keptModel, inputs: keptInputs, scanCheck, walkCheck, fileChecks, modelCheck, recipesCheck, inputChecks } = checked;
  const keptByImage = new Map<string, InputsEntry>();
  for (const entry of keptInputs?.images ?? []) keptByImage.set(entry.image, entry);
  /** One line per part (or image) derived again: why, and whether it was kept. */
  const details: string[] = [];

  // the scan: whole while its own record, the walk's and every file's hold; else derived again, reusing the walk and each file that hold
  let scan: ScanResult;
  let treeKey: string | undefined;
  // the id of each part's derivation (kept or written by this run; undefined: not kept)
  let scanId: string | undefined;
  let modelId: string | undefined;
  let inputsId: string | undefined;
  const scanUse: PartUse = { reused: false };
  const fileFailure = [...fileChecks.values()].find((c) => !c.check.holds);
  if (keptScan && scanCheck?.holds && walkCheck?.holds && !fileFailure) {
    if (await recovered()) return afresh('a killed run\'s temp files were removed');
    scan = { ...keptScan.scan, root, config };
    treeKey = keptScan.tree;
    scanUse.reused = true;
    scanId = keptScan.id;
    const anyRefreshed = scanCheck.refreshed || walkCheck.refreshed || [...fileChecks.values()].some((c) => c.check.refreshed);
    if (anyRefreshed) {
      const files = keptScan.files.map((f) => ({ ...f, record: fileChecks.get(f.key)?.check.refreshed ?? f.record }));
      putPart(cache, real, hash, { ...keptScan, record: scanCheck.refreshed ?? keptScan.record, walk: { ...keptScan.walk, record: walkCheck.refreshed ?? keptScan.walk.record }, files } satisfies ScanPart, 'scan', true);
    }
  } else {
    scanUse.reason = !keptScan ? none : !walkCheck?.holds ? (walkCheck?.reason ?? 'its record does not hold') : fileFailure ? (fileFailure.check.reason ?? 'its record does not hold') : (scanCheck?.reason ?? 'its record does not hold');
    let keptWalk: ScanPart['walk'] | undefined;
    let walkUnfit: string | undefined;
    /** When walked again with a kept tree: the directories listed again and replayed. */
    let walkCounts: { walked: number; replayed: number } | undefined;
    const files: FileEntry[] = [];
    let filesReused = 0;
    let filesUnfit = 0;
    const parts: ScanParts = {
      walk: (fresh) => {
        if (keptScan && walkCheck?.holds) {
          keptWalk = { record: walkCheck.refreshed ?? keptScan.walk.record, value: keptScan.walk.value, ...(keptScan.walk.id ? { id: keptScan.walk.id } : {}) };
          // the scan only reads the walk's files, skipped and listing (kept once: the scan's recipeTree is the same object); it adds to the counts
          return { ...keptScan.walk.value, excluded: ExclusionCounter.of(keptScan.walk.value.excluded) };
        }
        // walked again: each directory whose own reads held is replayed from the kept tree (scan/walk-memo.ts)
        const kept = keptScan ? keptWalkTree(cache, real, hash, keptScan.walk.id) : undefined;
        // the walk's record was checked whole (checkKept): the paths that held, with today's stats
        const held = kept && walkCheck?.held ? new Map(walkCheck.held.paths.map((p) => [keyOfTouched(p), p])) : undefined;
        const { value, record } = recordReadsSync(() => fresh({ keep: true, ...(kept && held ? { kept: { root: kept, held } } : {}) }), startNs);
        walkUnfit = keepable(record);
        const { tree, ...walked } = value;
        if (kept && held && tree) walkCounts = { walked: tree.walked, replayed: tree.replayed };
        keptWalk = { record, value: { ...walked, skipped: [...walked.skipped], excluded: cloneOf(walked.excluded.list()) }, id: randomUUID(), ...(tree ? { tree: tree.root } : {}) };
        return walked;
      },
      collect: (task, fresh) => {
        const key = fileKey(task);
        const kept = fileChecks.get(key);
        if (kept?.check.holds) {
          filesReused++;
          files.push(kept.check.refreshed ? { ...kept.entry, record: kept.check.refreshed } : kept.entry);
          // the scan marks and moves pins on what it gets: the kept outcome stays as it was
          return cloneOf(kept.entry.outcome);
        }
        const { value, record } = recordReadsSync(fresh, startNs);
        if (keepable(record)) filesUnfit++;
        else files.push({ key, record, outcome: cloneOf(value) });
        return value;
      },
    };
    const { scanRepo } = await import('../scan/repo.js');
    const { value, record } = await recordReads(() => scanRepo(root, config, { recipeTree: true, recovery, parts }), startNs);
    scan = value;
    // a killed run's temp files removed now: nothing of this run is kept, nothing more reused
    if (await recovered()) {
      cache.note('tree snapshot not used: a killed run\'s temp files were removed in this run');
      options.onScan?.(scan, false);
      const known = await imagesFromPins(root, config, scan.pins, undefined, scan.recipeTree ? { tree: scan.recipeTree } : {});
      return { scan, known, snapshot: { reused: false, reason: 'an interrupted write was recovered' } };
    }
    treeKey = value.recipeTree ? recipeListingKey(root, config, value.recipeTree) : undefined;
    const unfit = keepable(record) ?? (keptWalk ? walkUnfit : 'the walk did not run') ?? (filesUnfit > 0 ? `${filesUnfit} file(s) changed while they were read` : undefined);
    if (!unfit) {
      const { root: _r, config: _c, ...kept } = value;
      scanId = randomUUID();
      putPart(cache, real, hash, { id: scanId, record, walk: keptWalk!, files, scan: kept, tree: treeKey } satisfies ScanPart, 'scan');
    }
    const paths = record.paths.length + (keptWalk?.record.paths.length ?? 0) + files.reduce((n, f) => n + f.record.paths.length, 0);
    const walked = keptScan && walkCheck?.holds ? 'the walk reused' : 'walked again';
    const dirs = walkCounts ? `, ${walkCounts.walked} of ${walkCounts.walked + walkCounts.replayed} directories listed again (the rest replayed)` : '';
    details.push(`scan derived again (${scanUse.reason}; ${walked}, ${filesReused} of ${files.length + filesUnfit} file(s) reused${dirs}) from ${paths} paths, ${unfit ? `not kept: ${unfit}` : 'kept for the next run'}`);
  }
  options.onScan?.(scan, scanUse.reused && !!modelCheck?.holds && !!recipesCheck?.holds && keptModel?.tree === treeKey && [...inputChecks.values()].every((c) => c.check.holds));

  // the build model: from the scan's listing of the tree (and the files its readers read)
  let model: BuildModel | undefined;
  const modelUse: PartUse = { reused: false };
  const tree = scan.recipeTree ?? { files: [], vendored: [] };
  const sameListing = !!keptModel && treeKey !== undefined && keptModel.tree === treeKey;
  if (keptModel && sameListing && modelCheck?.holds && recipesCheck?.holds) {
    model = keptModel.model;
    modelUse.reused = true;
    modelId = keptModel.id;
    if (modelCheck.refreshed || recipesCheck.refreshed) putPart(cache, real, hash, { ...keptModel, record: modelCheck.refreshed ?? keptModel.record, recipes: { record: recipesCheck.refreshed ?? keptModel.recipes.record } } satisfies ModelPart, 'model', true);
  } else {
    const failed = [recipesCheck, modelCheck].find((c) => c && !c.holds);
    modelUse.reason = !keptModel ? none : !sameListing ? 'the listing of the tree the recipe readers look in changed' : (failed?.reason ?? 'its record does not hold');
    // in two halves (producers/repo.ts): the recipe files of the other kinds while their record holds, and the
    // Makefile side while its record holds and the make calls the recipe files run are the same (workflow edits)
    const filesKept = keptModel && sameListing && recipesCheck?.holds ? keptModel : undefined;
    let parts: { files: RecipeFiles; filesRecord: ReadRecord; side: MakeSide; sideRecord: ReadRecord; follow: string | undefined; sideKept: boolean; unfit: string | undefined } | undefined;
    try {
      // the recipe readers (Makefiles, workflows…) loaded only when a half is read again
      const { readMakeSide, readRecipeFiles } = await import('../producers/repo.js');
      const read = filesKept ? undefined : recordReadsSync(() => readRecipeFiles(root, config, tree), startNs);
      const files = filesKept?.files ?? read!.value;
      const input = followInput(config, files);
      const follow = requestKey(input);
      const sideKept = keptModel && sameListing && modelCheck?.holds && follow !== undefined && keptModel.follow === follow ? keptModel : undefined;
      const made = sideKept ? undefined : await recordReads(() => readMakeSide(root, config, tree, input), startNs);
      parts = {
        files,
        filesRecord: filesKept ? (recipesCheck!.refreshed ?? filesKept.recipes.record) : read!.record,
        side: sideKept?.side ?? made!.value,
        sideRecord: sideKept ? (modelCheck!.refreshed ?? sideKept.record) : made!.record,
        follow,
        sideKept: !!sideKept,
        unfit: (read ? keepable(read.record) : undefined) ?? (made ? keepable(made.record) : undefined),
      };
      model = combineModel(config, tree.vendored, parts.files, parts.side);
    } catch {
      // the images layer reads it again and notes why it could not be read, as without a snapshot
      model = undefined;
    }
    const unfit = !parts || !model ? 'it could not be read' : treeKey === undefined ? 'its listing cannot be compared' : parts.follow === undefined ? 'the make calls it follows cannot be compared' : parts.unfit;
    if (!unfit) putPart(cache, real, hash, { id: (modelId = randomUUID()), record: parts!.sideRecord, recipes: { record: parts!.filesRecord }, follow: parts!.follow!, tree: treeKey!, files: parts!.files, side: parts!.side, vendored: [...tree.vendored], model: model! } satisfies ModelPart, 'model');
    const halves = parts ? `: recipe files ${filesKept ? 'reused' : `read again from ${parts.filesRecord.paths.length} paths`}, Makefile side ${parts.sideKept ? 'reused (the make calls the recipe files run are the same)' : `read again from ${parts.sideRecord.paths.length} paths`}` : '';
    details.push(`build model derived again (${modelUse.reason})${halves}, ${unfit ? `not kept: ${unfit}` : 'kept for the next run'}`);
  }

  // the inputs of each image: reused while its request is the same and its record holds
  const entries: InputsEntry[] = [];
  const inputsUse: NonNullable<SnapshotUse['parts']>['inputs'] = { reused: [], derived: [] };
  let inputsChanged = false;
  let inputsUnfit = false;
  const deriveInputs = async (at: string, request: ImageInputsRequest): Promise<BuildInputs> => {
    const key = requestKey(request);
    const kept = key === undefined ? undefined : inputChecks.get(key);
    if (kept?.check.holds) {
      inputsUse.reused.push(request.image);
      if (kept.check.refreshed) inputsChanged = true;
      entries.push(kept.check.refreshed ? { ...kept.entry, record: kept.check.refreshed } : kept.entry);
      return kept.entry.inputs;
    }
    inputsChanged = true;
    const before = keptByImage.get(request.image);
    const reason = kept ? (kept.check.reason ?? 'its record does not hold') : before ? 'its recipe or config entry changed' : 'none kept';
    inputsUse.derived.push({ image: request.image, reason });
    const { value, record } = await recordReads(() => deriveImageInputs(at, request), startNs);
    const unfit = key === undefined ? 'its request cannot be compared' : keepable(record);
    if (!unfit) entries.push({ request: key!, image: request.image, record, inputs: value });
    else inputsUnfit = true;
    details.push(`inputs of ${request.image} derived again (${reason}) from ${record.paths.length} paths, ${unfit ? `not kept: ${unfit}` : 'kept for the next run'}`);
    return value;
  };
  const known = await imagesFromPins(root, config, scan.pins, model, { tree, deriveInputs });
  // the same derivation (its id kept) when every image's inputs were reused and no image came or went
  const sameInputs = !!keptInputs && inputsUse.derived.length === 0 && entries.length === keptInputs.images.length;
  inputsId = inputsUnfit ? undefined : sameInputs ? keptInputs.id : randomUUID();
  if (inputsChanged || !sameInputs) putPart(cache, real, hash, { ...(inputsId ? { id: inputsId } : {}), images: entries } satisfies InputsPart, 'inputs');
  const reused = scanUse.reused && modelUse.reused && inputsUse.derived.length === 0;
  const reason = scanUse.reason ?? modelUse.reason ?? (inputsUse.derived[0] ? `inputs of ${inputsUse.derived[0].image}: ${inputsUse.derived[0].reason}` : undefined);
  const any = scanUse.reused || modelUse.reused || inputsUse.reused.length > 0;
  const total = inputsUse.reused.length + inputsUse.derived.length;
  const state = (use: PartUse) => (use.reused ? 'reused' : 'derived again');
  const inputsState = inputsUse.derived.length === 0 ? `of ${total} image(s) reused` : `of ${inputsUse.reused.length} of ${total} image(s) reused`;
  cache.note(`tree snapshot ${reused ? 'reused' : any ? 'partly reused' : 'not used'}: scan ${state(scanUse)}, build model ${state(modelUse)}, inputs ${inputsState}; ${checkedText(checked)}`);
  const shown = details.slice(0, 12);
  for (const line of shown) cache.note(`tree snapshot: ${line}`);
  if (details.length > shown.length) cache.note(`tree snapshot: … and ${details.length - shown.length} more derived again`);
  // names the whole derivation while every part of it is kept: stale/reuse.ts ties an answer to it
  const id = scanId && modelId && inputsId ? `${scanId}/${modelId}/${inputsId}` : undefined;
  return { scan, known, snapshot: { reused, ...(reason ? { reason } : {}), ...(id ? { id } : {}), parts: { scan: scanUse, model: modelUse, inputs: inputsUse } } };
}
