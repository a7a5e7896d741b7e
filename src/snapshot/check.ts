/**
 * The tree-state snapshot's kept parts and their check (repo.ts derives and
 * keeps them): the entries' shapes, their keys, and the one check of every
 * kept record at one point of a run, each path asked once. `checkKept` is what
 * deriveTree starts from; `heldWhole` says whether every part holds as the very
 * derivation an id names, which is all stale's kept answer needs to know
 * (stale/repo.ts asks it before deriving anything: then no scan, model or image
 * is worked out at all).
 */
import { createHash, randomUUID } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Cache } from '../cache/index.js';
import type { Config } from '../config/types.js';
import { findMakefiles, RECIPE_FINDERS } from '../producers/finders.js';
import { LINES_QUERY, linesQueryAnswer } from '../producers/lines-query.js';
import { ORIGIN_QUERY, originQueryAnswer } from '../producers/workflows/origin-query.js';
import type { BuildModel } from '../producers/types.js';
import { combineModel, type MakeSide, type RecipeFiles } from '../producers/combine.js';
import type { RecipeTree, ScanResult, WalkResult } from '../scan/index.js';
import type { WalkNode } from '../scan/walk-memo.js';
import type { FileOutcome } from '../scan/read-collect.js';
import type { ExclusionCount } from '../scan/types.js';
import { walkNoticesFile } from '../scan/walk.js';
import type { BuildInputs } from '../sources/types.js';
import { checkRecord, type HarmlessEntry, type LstatMemo, type ReadRecord, type RecordCheck } from '../util/tracked-fs.js';
import { nowMs } from '../util/clock.js';

/** The cache namespace of tree-state snapshots. */
export const SNAPSHOT_NS = 'snapshot';

/** The walk as kept: its exclusion counts as a list (ExclusionCounter.of revives them); its tree is kept apart (putPart). */
export type KeptWalk = Omit<WalkResult, 'excluded' | 'tree'> & { excluded: ExclusionCount[] };

/** A scanned file's record as checkKept reads it: fileKey of its task, and its reads. */
export interface FileRecord {
  key: string;
  record: ReadRecord;
}

/** A scanned file kept: its record and what reading and collecting it gave. */
export interface FileEntry extends FileRecord {
  outcome: FileOutcome;
}

/** The scan part's records (what checkKept reads; its values are kept apart: ScanPart joins them). */
export interface ScanRecords {
  /** Ties the records to the values written with them (a refresh rewrites the records alone, with the same tag). */
  tag?: string;
  /** Names this part's derivation (kept when only its records' stats are refreshed): DerivedTree's `snapshot.id`. */
  id?: string;
  /** The scan's own reads: all but the walk's and the files' (the kustomize graph, compose .env files, Skaffold placeholders, the root). */
  record: ReadRecord;
  /** `id` names the walk whose tree (per directory: scan/walk-memo.ts) is kept in its own entry (keptWalkTree). */
  walk: { record: ReadRecord; id?: string };
  /** Each file read and collected (the file, the Chart.yaml beside a values file). */
  files: FileRecord[];
  /** recipeListingKey of its listing of the tree (`recipeTree`), worked out once. */
  tree: string | undefined;
}

export interface ScanPart extends Omit<ScanRecords, 'walk' | 'files'> {
  /** `tree`: set when this run walked (written with `id`); a walk reused keeps its id and the tree entry as it is. */
  walk: { record: ReadRecord; value: KeptWalk; id?: string; tree?: WalkNode };
  files: FileEntry[];
  scan: Omit<ScanResult, 'root' | 'config'>;
}

export interface ModelRecords {
  /** As ScanRecords'. */
  tag?: string;
  id?: string;
  /** The Makefile side's reads (producers/repo.ts readMakeSide). */
  record: ReadRecord;
  /** The recipe files' reads (readRecipeFiles: workflows, bake, Skaffold…). */
  recipes: { record: ReadRecord };
  /** requestKey of the make calls the Makefile side followed (followInput): it is reused while they are the same. */
  follow: string;
  /** recipeListingKey of the listing the model was derived from. */
  tree: string;
}

/** The model's values: its two halves, joined by combineModel (`model`, worked out again when the part is joined). */
interface ModelValues {
  files: RecipeFiles;
  side: MakeSide;
  /** The listing's vendored directories (BuildModel.vendored). */
  vendored: string[];
}

export interface ModelPart extends ModelRecords, ModelValues {
  model: BuildModel;
}

/** An image's inputs record as checkKept reads it. */
export interface InputsRecord {
  /** requestKey of the image's request. */
  request: string;
  image: string;
  record: ReadRecord;
}

export interface InputsEntry extends InputsRecord {
  inputs: BuildInputs;
}

export interface InputsRecords {
  /** As ScanRecords'. */
  tag?: string;
  id?: string;
  images: InputsRecord[];
}

export interface InputsPart extends Omit<InputsRecords, 'images'> {
  images: InputsEntry[];
}

/** A stable hash of the loaded config (every key it holds, in its order: what the derivation was given). */
export function configHash(config: Config): string {
  const text = JSON.stringify(config, (_k, v: unknown) => (v instanceof RegExp ? `/${v.source}/${v.flags}` : v instanceof Map ? [...v] : v instanceof Set ? [...v] : v));
  return createHash('sha256').update(text).digest('hex');
}

/**
 * A value's identity for "derived from the same thing": the hash of its
 * structured-clone bytes (the same members, values, types and order) after one
 * round trip through them, so a value read back from the cache and the value
 * it was made from give the same bytes (a fresh array is written as a dense
 * one, the same array read back as a sparse one). Undefined when it cannot be
 * cloned: nothing is then kept for it.
 */
export function requestKey(value: unknown): string | undefined {
  try {
    return createHash('sha256').update(serialize(deserialize(serialize(value)))).digest('hex');
  } catch {
    return undefined;
  }
}

/** The root's real path (symlinks resolved), or the root as given when it cannot be resolved: what the snapshot and stale's kept answer are keyed on. */
export function realOf(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

type PartName = 'scan' | 'model' | 'inputs';

/** Whether `path` is a directory now (followed; the snapshot's own question, not recorded): a root that is not one has no snapshot. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The cache key of one part's records in the snapshot of the real root `real` under the config hashed `hash`. */
export const partKey = (part: PartName, real: string, hash: string): string => JSON.stringify(['tree', part, real, hash]);

/** The cache key of the walk's tree (read only when the walk is walked again). */
const walkTreeKey = (real: string, hash: string): string => JSON.stringify(['tree', 'walk tree', real, hash]);

/** The kept tree of the walk `id` (undefined: none kept, or another walk's). */
export function keptWalkTree(cache: Cache, real: string, hash: string, id: string | undefined): WalkNode | undefined {
  if (!id) return undefined;
  const kept = cache.getValue<{ id: string; root: WalkNode }>(SNAPSHOT_NS, walkTreeKey(real, hash));
  return kept?.id === id ? kept.root : undefined;
}

/** The cache key of one part's values (what deriveTree reuses; the records alone tell whether they hold). */
const valuesKey = (part: PartName, real: string, hash: string): string => JSON.stringify(['tree', `${part} values`, real, hash]);

interface ScanValues {
  tag: string;
  walk: KeptWalk;
  outcomes: FileOutcome[];
  scan: ScanPart['scan'];
}

/**
 * Keep a part: its records and its values as two entries tied by a new tag
 * (`recordsOnly`: the records alone, with the tag they have: a refresh of their
 * stats, the values unchanged), so a check reads only the records.
 */
export function putPart(cache: Cache, real: string, hash: string, part: ScanPart | ModelPart | InputsPart, name: PartName, recordsOnly = false): void {
  const tag = recordsOnly && part.tag ? part.tag : randomUUID();
  const put = (records: ScanRecords | ModelRecords | InputsRecords, values: object) => {
    if (!recordsOnly) cache.putValue(SNAPSHOT_NS, valuesKey(name, real, hash), { tag, ...values });
    cache.putValue(SNAPSHOT_NS, partKey(name, real, hash), { ...records, tag });
  };
  if (name === 'scan') {
    const { walk, files, scan, ...rest } = part as ScanPart;
    if (walk.tree && walk.id && !recordsOnly) cache.putValue(SNAPSHOT_NS, walkTreeKey(real, hash), { id: walk.id, root: walk.tree });
    put({ ...rest, walk: { record: walk.record, ...(walk.id ? { id: walk.id } : {}) }, files: files.map((f) => ({ key: f.key, record: f.record })) }, { walk: walk.value, outcomes: files.map((f) => f.outcome), scan } satisfies Omit<ScanValues, 'tag'>);
  } else if (name === 'model') {
    const { model, files, side, vendored, ...rest } = part as ModelPart;
    put(rest, { files, side, vendored } satisfies ModelValues);
  } else {
    const { images, ...rest } = part as InputsPart;
    put({ ...rest, images: images.map((e) => ({ request: e.request, image: e.image, record: e.record })) }, { inputs: images.map((e) => e.inputs) });
  }
}

/**
 * Which new or removed directory entries change nothing the scan found (nor the
 * listing recipe discovery reads): a regular file that the walk does not notice
 * (walkNoticesFile) and no recipe kind finds by name.
 */
export function harmlessEntries(root: string, config: Config): HarmlessEntry {
  let notices: ((rel: string) => boolean) | undefined;
  return (dir, name, type) => {
    if (type !== 'f') return false;
    const rel = relative(root, join(dir, name)).split(sep).join('/');
    if (rel.startsWith('../') || rel === '..' || rel === '') return false;
    notices ??= walkNoticesFile(config);
    if (notices(rel)) return false;
    const tree = { files: [rel], vendored: [] };
    if (findMakefiles(root, config.exclude, tree).length > 0) return false;
    return !RECIPE_FINDERS.some((r) => r.find(root, config.exclude, tree).includes(rel));
  };
}

/**
 * What of the scan's listing of the tree the build model reads: the files a
 * recipe kind finds by name (Makefiles, workflows, bake files…) and the
 * vendored trees. The rest of the listing is, as for harmlessEntries, a file no
 * recipe reader looks for: a new NOTES.txt or values file changes nothing of
 * the model. Its requestKey is what a kept model was derived from.
 */
export function recipeListingKey(root: string, config: Config, tree: RecipeTree): string | undefined {
  const files = new Set([...findMakefiles(root, config.exclude, tree), ...RECIPE_FINDERS.flatMap((r) => r.find(root, config.exclude, tree))]);
  return requestKey({ files: [...files].sort(), vendored: tree.vendored });
}

/** The model and inputs readers list directories for themselves: any entry there counts. */
const strict: HarmlessEntry = () => false;

/** Every kept part of a snapshot and the check of each of its records, made at one point of a run. */
interface Checked<S, M, I, F, E> {
  scan?: S;
  model?: M;
  inputs?: I;
  scanCheck?: RecordCheck;
  walkCheck?: RecordCheck;
  /** Per scanned file (its key). */
  fileChecks: Map<string, { entry: F; check: RecordCheck }>;
  modelCheck?: RecordCheck;
  /** The model's recipe files (ModelRecords `recipes`). */
  recipesCheck?: RecordCheck;
  /** Per image's request (its requestKey). */
  inputChecks: Map<string, { entry: E; check: RecordCheck }>;
  /** Every check made, and how long they took. */
  all: RecordCheck[];
  ms: number;
}

/** The checks of the kept records (checkKept). */
export type KeptChecks = Checked<ScanRecords, ModelRecords, InputsRecords, FileRecord, InputsRecord>;
/** The same with each part's values joined to its records (joinValues): what deriveTree reuses. */
export type JoinedChecks = Checked<ScanPart, ModelPart, InputsPart, FileEntry, InputsEntry>;

/**
 * The kept checks with each part's values read and joined to its records; a
 * part whose values are missing or were not written with these records (another
 * tag) is taken as not kept.
 */
export function joinValues(kept: KeptChecks, cache: Cache, real: string, config: Config, hash = configHash(config)): JoinedChecks {
  const tagged = <T extends { tag: string }>(name: PartName, tag: string | undefined): T | undefined => {
    if (!tag) return undefined;
    const v = cache.getValue<T>(SNAPSHOT_NS, valuesKey(name, real, hash));
    return v?.tag === tag ? v : undefined;
  };
  const sv = kept.scan ? tagged<ScanValues>('scan', kept.scan.tag) : undefined;
  const mv = kept.model ? tagged<ModelValues & { tag: string }>('model', kept.model.tag) : undefined;
  const iv = kept.inputs ? tagged<{ tag: string; inputs: BuildInputs[] }>('inputs', kept.inputs.tag) : undefined;
  const out: JoinedChecks = { fileChecks: new Map(), inputChecks: new Map(), all: kept.all, ms: kept.ms };
  if (kept.scan && sv && sv.outcomes.length === kept.scan.files.length) {
    const files = kept.scan.files.map((f, i) => ({ ...f, outcome: sv.outcomes[i]! }));
    out.scan = { ...kept.scan, walk: { ...kept.scan.walk, value: sv.walk }, files, scan: sv.scan };
    if (kept.scanCheck) out.scanCheck = kept.scanCheck;
    if (kept.walkCheck) out.walkCheck = kept.walkCheck;
    for (const f of files) out.fileChecks.set(f.key, { entry: f, check: kept.fileChecks.get(f.key)!.check });
  }
  if (kept.model && mv) {
    const { tag: _t, ...values } = mv;
    out.model = { ...kept.model, ...values, model: combineModel(config, mv.vendored, mv.files, mv.side) };
    if (kept.modelCheck) out.modelCheck = kept.modelCheck;
    if (kept.recipesCheck) out.recipesCheck = kept.recipesCheck;
  }
  if (kept.inputs && iv && iv.inputs.length === kept.inputs.images.length) {
    const images = kept.inputs.images.map((e, i) => ({ ...e, inputs: iv.inputs[i]! }));
    out.inputs = { ...kept.inputs, images };
    for (const e of images) out.inputChecks.set(e.request, { entry: e, check: kept.inputChecks.get(e.request)!.check });
  }
  return out;
}

/**
 * Read the kept parts of the snapshot of `real` under `config` and check every
 * record at once, each path asked once (lstats shared); nothing is derived.
 */
export function checkKept(root: string, real: string, config: Config, cache: Cache): KeptChecks {
  const t0 = nowMs();
  const hash = configHash(config);
  const lstats: LstatMemo = new Map();
  const scan = cache.getValue<ScanRecords>(SNAPSHOT_NS, partKey('scan', real, hash));
  const model = cache.getValue<ModelRecords>(SNAPSHOT_NS, partKey('model', real, hash));
  const inputs = cache.getValue<InputsRecords>(SNAPSHOT_NS, partKey('inputs', real, hash));
  const harmless = harmlessEntries(root, config);
  const scanCheck = scan ? checkRecord(scan.record, harmless, real, { lstats }) : undefined;
  // every path of the walk's record, not only up to the first that changed: a walk again replays the directories that held;
  // with each directory's listing now, where a killed write's temp files are looked for (snapshot/recovery.ts)
  const walkCheck = scan ? checkRecord(scan.walk.record, harmless, real, { lstats, all: true, listings: true }) : undefined;
  const fileChecks = new Map<string, { entry: FileRecord; check: RecordCheck }>();
  for (const entry of scan?.files ?? []) fileChecks.set(entry.key, { entry, check: checkRecord(entry.record, strict, real, { lstats }) });
  const modelOptions = { lstats, typeOnlyStats: true, queries: { [LINES_QUERY]: linesQueryAnswer, [ORIGIN_QUERY]: originQueryAnswer } };
  const modelCheck = model ? checkRecord(model.record, strict, real, modelOptions) : undefined;
  const recipesCheck = model?.recipes ? checkRecord(model.recipes.record, strict, real, modelOptions) : undefined;
  const inputChecks = new Map<string, { entry: InputsRecord; check: RecordCheck }>();
  for (const entry of inputs?.images ?? []) inputChecks.set(entry.request, { entry, check: checkRecord(entry.record, strict, real, { lstats, typeOnlyStats: true }) });
  const all = [scanCheck, walkCheck, ...[...fileChecks.values()].map((c) => c.check), recipesCheck, modelCheck, ...[...inputChecks.values()].map((c) => c.check)].filter((c) => c !== undefined);
  return { ...(scan ? { scan } : {}), ...(model?.recipes ? { model } : {}), ...(inputs ? { inputs } : {}), ...(scanCheck ? { scanCheck, walkCheck: walkCheck! } : {}), fileChecks, ...(modelCheck && recipesCheck ? { modelCheck, recipesCheck } : {}), inputChecks, all, ms: Math.round(nowMs() - t0) };
}

/**
 * Whether every kept part holds and together they are the derivation `id`
 * names (`scan/model/inputs` ids: DerivedTree's `snapshot.id`): then deriveTree
 * would reuse each of them, and the images layer, a function of the scan, the
 * model and the config alone (images/ reads no file), would ask for exactly the
 * kept inputs. Undefined when so; else why not.
 */
export function heldWhole(kept: KeptChecks, id: string): string | undefined {
  const { scan, model, inputs } = kept;
  if (!scan || !model || !inputs) return 'a part of the snapshot is not kept';
  if (`${scan.id}/${model.id}/${inputs.id}` !== id) return 'the tree snapshot is not the one it was derived from';
  const failed = kept.all.find((c) => !c.holds);
  if (failed) return failed.reason ?? 'its record does not hold';
  if (scan.tree === undefined || model.tree !== scan.tree) return 'the listing of the tree the recipe readers look in changed';
  return undefined;
}

/** Keep the refreshed records (today's stats, next time lstat-only) of a snapshot that held whole (heldWhole); its values stay as they are. */
export function keepRefreshedWhole(kept: KeptChecks, real: string, config: Config, cache: Cache): void {
  const { scan, model, inputs, scanCheck, walkCheck, modelCheck, recipesCheck } = kept;
  if (!scan || !model || !inputs) return;
  const hash = configHash(config);
  const records = (name: PartName, value: ScanRecords | ModelRecords | InputsRecords) => cache.putValue(SNAPSHOT_NS, partKey(name, real, hash), value);
  if (scanCheck?.refreshed || walkCheck?.refreshed || [...kept.fileChecks.values()].some((c) => c.check.refreshed)) {
    const files = scan.files.map((f) => ({ key: f.key, record: kept.fileChecks.get(f.key)?.check.refreshed ?? f.record }));
    records('scan', { ...scan, record: scanCheck?.refreshed ?? scan.record, walk: { ...scan.walk, record: walkCheck?.refreshed ?? scan.walk.record }, files });
  }
  if (modelCheck?.refreshed || recipesCheck?.refreshed) records('model', { ...model, record: modelCheck?.refreshed ?? model.record, recipes: { record: recipesCheck?.refreshed ?? model.recipes.record } });
  if ([...kept.inputChecks.values()].some((c) => c.check.refreshed)) {
    records('inputs', { ...inputs, images: inputs.images.map((e) => ({ ...e, record: kept.inputChecks.get(e.request)?.check.refreshed ?? e.record })) });
  }
}

/** The checks' part of the -v summary line: how many paths, listed or hashed again, in how long. */
export function checkedText(kept: KeptChecks): string {
  const sum = (k: keyof RecordCheck['stats']) => kept.all.reduce((n, c) => n + c.stats[k], 0);
  const refreshed = kept.all.some((c) => c.holds && c.refreshed);
  return kept.all.length === 0 ? 'nothing kept to check' : `${sum('paths')} paths checked (${sum('listed')} listed again, ${sum('hashed')} hashed again${refreshed ? ', their stats kept for the next run' : ''}) in ${kept.ms} ms`;
}
