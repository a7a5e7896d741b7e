/**
 * The tree walk: readdir recursion with file types, matchers compiled once,
 * excluded directories pruned early. Returns the files to read with their kind,
 * the files that cannot be read safely (symlinks, FIFOs, devices, sockets, paths
 * leading out of the repository), and counts of everything left out. Directory
 * entries are read as bytes, so a name that is not UTF-8 is still walked (shown
 * with \xNN escapes); globs match names holding newlines. Asked for it, the
 * same pass records the recipe listing (recipe-tree.ts), entering the
 * directories only build-recipe discovery wants (outside the include globs'
 * bases, `node_modules/` excepted) for that alone, so scan and recipes share one
 * walk. Asked for it, the walk keeps its tree per directory and replays the
 * directories of a kept one whose reads held (walk-memo.ts).
 */
import { lstatSync, readdirWalkSync, readlinkSync, realpathSync, statSync, type Dirent, type PathLike } from '../util/tracked-fs.js';
import { join, normalize, sep } from 'node:path';
import { compileGlob, globBase, hasGlobSyntax } from '../util/glob.js';
import { CHART_DEPENDENCIES_DIR, CHART_FILE, CHART_TEMPLATES_DIR, CONFIG_FILE_NAMES, DEFAULT_PRUNED_DIRS, RECIPE_PRUNED_DIRS } from '../config/defaults.js';
import type { Config } from '../config/types.js';
import { EXCLUDED_REASONS, ExclusionCounter } from './exclusions.js';
import { fileKind, isYamlName } from './kind.js';
import type { Candidate, SkippedFile } from './types.js';
import { resolvesInside } from '../util/repo-path.js';
import { fileTypeName, readRegularFile } from '../util/safe-read.js';
import { firstPartyPrefixes } from '../config/aliases.js';
import { RecipeTreeBuilder, type RecipeTree } from './recipe-tree.js';
import { WalkMemo, type KeptWalkTree, type WalkNode, type WalkVisit } from './walk-memo.js';

export type { Candidate } from './types.js';

export interface WalkResult {
  files: Candidate[];
  skipped: SkippedFile[];
  excluded: ExclusionCounter;
  /** Set when asked (`recipeTree: true`): the listing build-recipe discovery reads, from the same readdir pass. */
  recipeTree?: RecipeTree;
  /** Set when asked (`keep: true`): the walk per directory (walk-memo.ts), and how many directories were walked and replayed. */
  tree?: { root: WalkNode; walked: number; replayed: number };
}

export interface WalkOptions {
  /** Also record the recipe listing (recipe-tree.ts) in this walk. */
  recipeTree?: boolean;
  /** Keep the walk per directory (WalkResult `tree`), for a later walk to replay what still holds (`kept`). */
  keep?: boolean;
  /** A kept walk tree and the paths of its record that held: each directory whose own reads all held is replayed. */
  kept?: KeptWalkTree;
  /** False: a symlink to a file of the repository is skipped too, not read at its target (overlay writes where the walk lists). */
  readLinks?: boolean;
}

type Matcher = (path: string) => boolean;

interface UserExclude {
  pattern: string;
  file: Matcher;
  /** Set for `dir/` and `dir/**` patterns: matches the directory itself, which is then pruned. */
  dir?: Matcher;
}

interface Plan {
  readLinks: boolean;
  root: string;
  rootReal: string;
  include: Matcher;
  excludes: UserExclude[];
  extraGlobs: { pattern: string; match: Matcher; hits: number }[];
  extraLiterals: Set<string>;
  skipVendoredCharts: boolean;
  /** First-party prefixes without their trailing slash, searched in vendored chart files. */
  firstPartyNeedles: string[];
  /** Set when the walk also records the recipe listing. */
  recipes?: RecipeTreeBuilder;
  /** Set when the walk keeps its tree (WalkOptions `keep`). */
  memo?: WalkMemo;
  /**
   * Static directory prefixes of every include and extraFiles glob (`packages` for
   * `packages/**\/values.yaml`); undefined when some glob can match anywhere.
   * Directories outside all of them cannot hold a wanted file and are not walked.
   */
  bases?: string[];
}

function compileExclude(pattern: string): UserExclude {
  if (pattern.endsWith('/')) {
    const base = pattern.slice(0, -1);
    return { pattern, file: compileGlob(`${pattern}**`), dir: compileGlob(base) };
  }
  if (pattern.endsWith('/**')) return { pattern, file: compileGlob(pattern), dir: compileGlob(pattern.slice(0, -3)) };
  return { pattern, file: compileGlob(pattern) };
}

function staticBases(globs: readonly string[]): string[] | undefined {
  const bases = globs.map((g) => globBase(g));
  return bases.some((b) => b === '' || b === '.') ? undefined : bases;
}

/** True when a wanted file can sit at or below the directory `rel`. */
function mayHoldWanted(plan: Plan, rel: string): boolean {
  if (!plan.bases) return true;
  return plan.bases.some((b) => rel === b || rel.startsWith(`${b}/`) || b.startsWith(`${rel}/`));
}

/** The config's rules for which files are read as pin files: `include`, and `extraFiles` as globs and literal paths. */
function readRules(config: Config): Pick<Plan, 'include' | 'extraGlobs' | 'extraLiterals'> {
  return {
    include: config.include.length ? compileGlob(config.include) : () => false,
    extraGlobs: config.extraFiles.filter((p) => hasGlobSyntax(p)).map((pattern) => ({ pattern, match: compileGlob(pattern), hits: 0 })),
    extraLiterals: new Set(config.extraFiles.filter((p) => !hasGlobSyntax(p)).map((p) => p.replace(/^\.\//, ''))),
  };
}

function makePlan(root: string, config: Config, options: WalkOptions): Plan {
  const rules = readRules(config);
  return {
    ...(options.recipeTree ? { recipes: new RecipeTreeBuilder(config.exclude) } : {}),
    bases: staticBases([...config.include, ...rules.extraGlobs.map((g) => g.pattern)]),
    readLinks: options.readLinks !== false,
    root,
    rootReal: realpathSync(root),
    ...rules,
    excludes: config.exclude.map(compileExclude),
    skipVendoredCharts: config.skipVendoredCharts,
    firstPartyNeedles: firstPartyPrefixes(config).map((p) => p.replace(/\/$/, '')),
  };
}

/** Cheap text check, so a first-party pin in a left-out vendored chart is called out. */
function mentionsFirstParty(plan: Plan, abs: PathLike): boolean {
  if (plan.firstPartyNeedles.length === 0) return false;
  const read = readRegularFile(abs);
  if ('refused' in read) return false;
  const text = read.bytes.toString('latin1');
  return plan.firstPartyNeedles.some((n) => text.includes(n));
}

function isExtraGlob(plan: Plan, rel: string): boolean {
  let hit = false;
  for (const g of plan.extraGlobs) {
    if (g.match(rel)) {
      g.hits++;
      hit = true;
    }
  }
  return hit;
}

/** Walk the tree under root with the config's include, exclude and extraFiles. */
export function walkTree(root: string, config: Config, options: WalkOptions = {}): WalkResult {
  const plan = makePlan(root, config, options);
  const log: [string, string][] = [];
  const excluded = new ExclusionCounter(options.keep ? log : undefined);
  const out: WalkResult = { files: [], skipped: [], excluded };
  const memo = options.keep ? new WalkMemo({ files: out.files, skipped: out.skipped, excluded: excluded as ExclusionCounter & { log: [string, string][] }, ...(plan.recipes ? { recipes: plan.recipes } : {}), hits: plan.extraGlobs }, options.kept) : undefined;
  if (memo) plan.memo = memo;
  const base = normalize(root);
  walkDir(plan, base.length > 1 && base.endsWith(sep) ? base.slice(0, -1) : base, undefined, '', undefined, out, plan.recipes ? '' : undefined, true, () => memo?.keptRoot());
  if (memo) out.tree = { root: memo.root!, ...memo.counts };
  if (plan.recipes) out.recipeTree = plan.recipes.done();
  for (const g of plan.extraGlobs) {
    if (g.hits === 0) out.skipped.push({ file: g.pattern, code: 'extra-file-no-match', reason: `extraFiles glob ${JSON.stringify(g.pattern)} matched no file` });
  }
  for (const rel of plan.extraLiterals) addLiteralExtra(plan, rel, out);
  dedupeLinked(out.files);
  return out;
}

/**
 * Whether the walk does anything with a regular file at `rel` (reads it, counts
 * it as left out, or takes its directory for a chart): a file it does not
 * notice changes nothing of the scan (the tree-state snapshot asks, src/snapshot/).
 */
export function walkNoticesFile(config: Config): (rel: string) => boolean {
  const reads = walkReadsPath(config);
  return (rel) => {
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    return reads(rel) || isYamlName(rel) || name === CHART_FILE || CONFIG_FILE_NAMES.includes(rel);
  };
}

/**
 * Whether the walk would read a file at `rel` as a pin file (`include` or
 * `extraFiles`; excludes are not asked, so this says yes a little more often):
 * asked of paths in history that are no pin files now (a former pin file: stale/),
 * which the tree may no longer have. The same config gets the same predicate,
 * which answers each path once.
 */
export function walkReadsPath(config: Config): (rel: string) => boolean {
  let asked = readsPathOf.get(config);
  if (!asked) {
    const rules = readRules(config);
    const answers = new Map<string, boolean>();
    asked = (rel) => {
      let yes = answers.get(rel);
      if (yes === undefined) answers.set(rel, (yes = rules.extraLiterals.has(rel) || rules.extraGlobs.some((g) => g.match(rel)) || rules.include(rel)));
      return yes;
    };
    readsPathOf.set(config, asked);
  }
  return asked;
}

/** One predicate per config, each path's answer kept: the history asks it of every path it reads, in several places. */
const readsPathOf = new WeakMap<Config, (rel: string) => boolean>();

/** A directory entry: its name for paths and globs, and the path to open (bytes when a name is not UTF-8). */
interface Entry {
  name: string;
  /** False when the name is not UTF-8 (then `name` shows it with \xNN escapes). */
  utf8: boolean;
  dirent: Dirent<Buffer>;
  abs: string;
  absBytes?: Buffer;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A name as text: UTF-8, or (not UTF-8) every byte from 0x80 shown as \xNN. */
export function displayName(name: Buffer): { text: string; utf8: boolean } {
  try {
    return { text: utf8.decode(name), utf8: true };
  } catch {
    return { text: Array.from(name, (b) => (b < 0x80 ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join(''), utf8: false };
  }
}

/**
 * `join(dir, name)` for a normalized `dir` (no trailing slash but the root's) and a directory entry's name (never
 * empty, `.` or `..`, never holding a slash), without join's normalizing pass
 * over the whole path (6,000 entries on a large tree).
 */
function childPath(dir: string, name: string): string {
  if (dir === '.') return name;
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

/** `quiet`: a directory listed only for the recipes, whose failure the recipe listing passes over (as listRecipeTree does). */
function readDir(abs: string, absBytes: Buffer | undefined, rel: string, out: WalkResult, quiet = false): Entry[] | undefined {
  try {
    const dirents = readdirWalkSync(absBytes ?? abs, { withFileTypes: true, encoding: 'buffer' });
    return dirents
      .map((dirent): Entry => {
        const shown = displayName(dirent.name);
        const bytes = absBytes || !shown.utf8 ? Buffer.concat([absBytes ?? Buffer.from(abs), Buffer.from(sep), dirent.name]) : undefined;
        return { name: shown.text, utf8: shown.utf8, dirent, abs: childPath(abs, shown.text), ...(bytes ? { absBytes: bytes } : {}) };
      })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (e) {
    if (quiet) return undefined;
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    out.skipped.push({ file: `${rel || '.'}/`, code: 'unreadable', reason: `cannot list the directory (${code}); files in it were not scanned` });
    return undefined;
  }
}

/**
 * `excludedBy`: set inside vendored charts and chart templates, which are walked only to count.
 * `recipeRel`: this directory's path in the recipe listing, when the listing wants it (undefined: not listed);
 * `scanned`: false for a directory walked only for the recipe listing (nothing of the scan's is recorded there).
 * `keptOf`: this visit's kept node (walk-memo.ts), when the walk keeps its tree and had one kept: replayed when
 * its own reads held, else its subdirectories' kept nodes are looked up in it.
 */
function walkDir(plan: Plan, abs: string, absBytes: Buffer | undefined, rel: string, excludedBy: string | undefined, out: WalkResult, recipeRel?: string, scanned = true, keptOf?: KeptOf): void {
  const memo = plan.memo;
  let kept: WalkNode | undefined;
  if (memo) {
    const visit: WalkVisit = { abs, ...(absBytes ? { absBytes } : {}), rel, ...(excludedBy !== undefined ? { excludedBy } : {}), ...(recipeRel !== undefined ? { recipeRel } : {}), scanned };
    kept = keptOf?.(visit);
    if (kept && memo.holds(kept)) {
      memo.replay(visit, kept, (v, node) => walkDir(plan, v.abs, v.absBytes, v.rel, v.excludedBy, out, v.recipeRel, v.scanned, () => node));
      return;
    }
    memo.enter(visit);
  }
  const within: KeptOf | undefined = memo && kept ? (visit) => memo.keptChild(kept, visit) : undefined;
  const entries = readDir(abs, absBytes, rel, out, !scanned);
  if (entries) {
    const isChart = entries.some((e) => e.name === CHART_FILE && !e.dirent.isDirectory());
    for (const entry of entries) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const d = entry.dirent;
      const recipeChild = recipeRel === undefined ? undefined : recipeEntry(plan.recipes!, recipeRel, entry);
      if (!scanned) {
        if (recipeChild !== undefined) walkDir(plan, entry.abs, entry.absBytes, childRel, excludedBy, out, recipeChild, false, within);
        continue;
      }
      if (d.isDirectory()) walkChildDir(plan, entry, childRel, isChart, excludedBy, out, recipeChild, within);
      else if (d.isSymbolicLink()) handleSymlink(plan, entry.absBytes ?? entry.abs, childRel, excludedBy, out);
      else if (d.isFile()) handleFile(plan, entry, childRel, excludedBy, out);
      else handleSpecial(plan, entry, childRel, excludedBy, out);
    }
  }
  memo?.leave();
}

/** How a visit finds its kept node (WalkMemo keptChild over the parent's, or the kept root). */
type KeptOf = (visit: WalkVisit) => WalkNode | undefined;

/**
 * Records the entry in the recipe listing; returns its path there when the listing enters it (a directory).
 * The listing's names are decoded as listRecipeTree's readdir decodes them (UTF-8, invalid bytes replaced);
 * it cannot enter a directory whose name is not UTF-8 (that path does not exist), so neither does this.
 */
function recipeEntry(recipes: RecipeTreeBuilder, parent: string, entry: Entry): string | undefined {
  const name = entry.utf8 ? entry.name : entry.dirent.name.toString('utf8');
  const rel = parent ? `${parent}/${name}` : name;
  return recipes.entry(rel, name, entry.dirent) && entry.utf8 ? rel : undefined;
}

/** A FIFO, socket or device at a wanted path: never opened (it could block or never end), listed as skipped. */
function handleSpecial(plan: Plan, entry: Entry, rel: string, excludedBy: string | undefined, out: WalkResult): void {
  const wanted = plan.extraLiterals.has(rel) || isExtraGlob(plan, rel) || (!excludedBy && plan.include(rel));
  if (!wanted || plan.extraLiterals.has(rel)) return; // a literal extraFile is reported by addLiteralExtra
  out.skipped.push(specialSkip(entry.absBytes ?? entry.abs, rel));
}

function specialSkip(abs: PathLike, rel: string): SkippedFile {
  let what = 'not a regular file';
  try {
    what = fileTypeName(lstatSync(abs));
  } catch {
    /* keep the generic words */
  }
  return { file: rel, code: 'not-a-regular-file', reason: `${what}, not a regular file; not read` };
}

/** `recipeRel`: the directory's path in the recipe listing when the listing enters it; the scan's pruning then still walks it, for the listing only. */
function walkChildDir(plan: Plan, entry: Entry, rel: string, parentIsChart: boolean, excludedBy: string | undefined, out: WalkResult, recipeRel?: string, keptOf?: KeptOf): void {
  const name = entry.name;
  const forRecipesOnly = () => {
    if (recipeRel !== undefined) walkDir(plan, entry.abs, entry.absBytes, rel, excludedBy, out, recipeRel, false, keptOf);
  };
  if (DEFAULT_PRUNED_DIRS.includes(name)) {
    out.excluded.add(EXCLUDED_REASONS.prunedDir(name), `${rel}/`);
    return forRecipesOnly();
  }
  const pruner = plan.excludes.find((x) => x.dir?.(rel));
  if (pruner) {
    out.excluded.add(EXCLUDED_REASONS.userExcludeDir(pruner.pattern), `${rel}/`);
    return forRecipesOnly();
  }
  // Counted once, at the outermost vendored directory (the recipe walk prunes there).
  if (RECIPE_PRUNED_DIRS.includes(name) && !rel.split('/').slice(0, -1).some((d) => RECIPE_PRUNED_DIRS.includes(d))) out.excluded.add(EXCLUDED_REASONS.recipeTree, `${rel}/`);
  if (!mayHoldWanted(plan, rel)) return forRecipesOnly();
  let state = excludedBy;
  if (!state && parentIsChart && name === CHART_DEPENDENCIES_DIR && plan.skipVendoredCharts) state = EXCLUDED_REASONS.vendoredChart;
  if (!state && parentIsChart && name === CHART_TEMPLATES_DIR) state = EXCLUDED_REASONS.chartTemplates;
  walkDir(plan, entry.abs, entry.absBytes, rel, state, out, recipeRel, true, keptOf);
}

function handleFile(plan: Plan, entry: Entry, rel: string, excludedBy: string | undefined, out: WalkResult): void {
  const abs = entry.abs;
  const bytes = entry.absBytes ? { absBytes: entry.absBytes } : {};
  if (plan.extraLiterals.has(rel)) return; // read after the walk, wherever it is
  if (isExtraGlob(plan, rel)) {
    out.files.push({ file: rel, abs, ...bytes, kind: fileKind(rel, true) });
    return;
  }
  if (!plan.include(rel)) {
    if (!excludedBy && isYamlName(rel) && !CONFIG_FILE_NAMES.includes(rel)) out.excluded.add(EXCLUDED_REASONS.notIncluded, rel);
    return;
  }
  if (excludedBy) {
    out.excluded.add(excludedBy === EXCLUDED_REASONS.vendoredChart && mentionsFirstParty(plan, entry.absBytes ?? abs) ? EXCLUDED_REASONS.vendoredChartFirstParty : excludedBy, rel);
    return;
  }
  const ex = plan.excludes.find((x) => x.file(rel));
  if (ex) {
    out.excluded.add(EXCLUDED_REASONS.userExcludeFile(ex.pattern), rel);
    return;
  }
  out.files.push({ file: rel, abs, ...bytes, kind: fileKind(rel, false) });
}

/**
 * A symlinked directory is not walked (counted). A wanted symlink to a regular
 * file inside the repository is read at its target's path (what helm, kustomize
 * and `ko resolve` read through it; a pin is edited where its bytes are), once
 * however many links lead there (dedupeLinked); any other wanted one is listed
 * in `skipped` with the reason.
 */
function handleSymlink(plan: Plan, abs: PathLike, rel: string, excludedBy: string | undefined, out: WalkResult): void {
  const extra = isExtraGlob(plan, rel);
  const wanted = plan.extraLiterals.has(rel) || extra || (!excludedBy && plan.include(rel));
  const target = linkTarget(abs);
  const resolved = realOf(abs);
  const real = typeof resolved === 'string' ? resolved : undefined;
  if (real && isDirectory(real)) {
    out.excluded.add(EXCLUDED_REASONS.symlinkedDir, `${rel} -> ${target}`);
    return;
  }
  if (!wanted || plan.extraLiterals.has(rel)) return;
  if (!readThroughLink(plan, rel, resolved, extra, out)) out.skipped.push(symlinkSkip(plan, rel, target, resolved));
}

/** Reads a wanted symlink's target when it is a regular file inside the repository, outside `.git/`: true when it did. */
function readThroughLink(plan: Plan, rel: string, real: string | { error: string }, extra: boolean, out: WalkResult): boolean {
  if (!plan.readLinks || typeof real !== 'string' || !real.startsWith(plan.rootReal + sep) || !isRegularFile(real)) return false;
  const targetRel = real.slice(plan.rootReal.length + 1).split(sep).join('/');
  if (targetRel.split('/').some((part) => DEFAULT_PRUNED_DIRS.includes(part))) return false;
  out.files.push({ file: targetRel, abs: real, kind: fileKind(rel, extra), linkedFrom: rel });
  out.excluded.add(EXCLUDED_REASONS.symlinkedFile, `${rel} -> ${targetRel}`);
  return true;
}

/** One candidate per path: a file read through symlinks (and maybe walked too) is read once, as the walk found it where it did. */
function dedupeLinked(files: Candidate[]): void {
  if (!files.some((f) => f.linkedFrom !== undefined)) return;
  const walked = new Set(files.filter((f) => f.linkedFrom === undefined).map((f) => f.file));
  const seen = new Set<string>();
  let n = 0;
  for (const f of files) {
    if (f.linkedFrom !== undefined && (walked.has(f.file) || seen.has(f.file))) continue;
    seen.add(f.file);
    files[n++] = f;
  }
  files.length = n;
}

function linkTarget(abs: PathLike): string {
  try {
    return readlinkSync(abs, 'utf8');
  } catch {
    return '?';
  }
}

/** The real path, or the errno code saying why it has none (ENOENT: dangling; ELOOP: a loop). */
function realOf(abs: PathLike): string | { error: string } {
  try {
    return realpathSync(abs, 'utf8');
  } catch (e) {
    return { error: (e as NodeJS.ErrnoException).code ?? 'ENOENT' };
  }
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function symlinkSkip(plan: Plan, rel: string, target: string, real: string | { error: string }): SkippedFile {
  if (typeof real !== 'string') {
    if (real.error === 'ELOOP') return { file: rel, code: 'symlink-loop', reason: `a symlink to ${JSON.stringify(target)}, part of a symlink loop; not followed` };
    return { file: rel, code: 'broken-symlink', reason: `a symlink to ${JSON.stringify(target)}, which does not exist` };
  }
  const inside = real === plan.rootReal || real.startsWith(plan.rootReal + sep);
  if (!inside) return { file: rel, code: 'symlink-outside-repo', reason: `a symlink to ${JSON.stringify(target)}, outside the repository; not followed` };
  if (!plan.readLinks) return { file: rel, code: 'symlink', reason: `a symlink to ${JSON.stringify(target)}; not followed` };
  const pruned = real.slice(plan.rootReal.length + 1).split(sep).find((part) => DEFAULT_PRUNED_DIRS.includes(part));
  if (pruned) return { file: rel, code: 'symlink', reason: `a symlink to ${JSON.stringify(target)}, into ${pruned}/ (never read); not followed` };
  return { file: rel, code: 'symlink', reason: `a symlink to ${JSON.stringify(target)}, which is not a regular file; not followed` };
}

/** A declared extraFile named literally: read wherever it is, or say it is missing. */
function addLiteralExtra(plan: Plan, rel: string, out: WalkResult): void {
  const abs = join(plan.root, ...rel.split('/'));
  if (!resolvesInside(plan.rootReal, join(abs, '..'))) {
    out.skipped.push({ file: rel, code: 'path-outside-repo', reason: 'declared in extraFiles, but a directory on its path is a symlink leading out of the repository; not read' });
    return;
  }
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    out.skipped.push({ file: rel, code: 'extra-file-missing', reason: `declared in extraFiles but does not exist` });
    return;
  }
  if (st.isSymbolicLink()) {
    const real = realOf(abs);
    if (!readThroughLink(plan, rel, real, true, out)) out.skipped.push(symlinkSkip(plan, rel, linkTarget(abs), real));
    return;
  }
  if (!st.isFile()) {
    out.skipped.push({ file: rel, code: 'extra-file-not-a-file', reason: `declared in extraFiles but is ${fileTypeName(st)}, not a regular file; not read` });
    return;
  }
  out.files.push({ file: rel, abs, kind: fileKind(rel, true) });
}
