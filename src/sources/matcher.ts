/**
 * The input matcher: repo-relative path → the build input it falls in, or
 * undefined (not an input, or ignored). Built once per image and called for every
 * changed path of every commit, so everything is precompiled: exact files and Go
 * package directories are map lookups, directory trees are one map lookup per
 * path segment, and globs are compiled glob matchers (util/glob.ts, linear time) filtered by their
 * static prefix.
 */
import { compileGlob as compileGlobs, globBase } from '../util/glob.js';
import type { BuildInputs, InputKind, InputPattern } from './types.js';

export interface InputMatcher {
  match(path: string): InputPattern | undefined;
  /**
   * The paths of `index` that match (match(path) !== undefined), in the order the index was given them:
   * looked up per pattern (exact files, a directory's files, a tree's or a glob's sorted prefix range), so a
   * path no pattern is near is never tested.
   */
  matching(index: PathIndex): string[];
}

/** Paths (the changed paths of a history) indexed once for many matchers: sorted, and grouped by directory. */
export interface PathIndex {
  /** The paths as given. */
  paths: readonly string[];
  /** Each path without a leading `./`, as match() reads it. */
  norm: readonly string[];
  /** Positions in `paths`, sorted by `norm` (code units): a prefix's paths are one range. */
  sorted: Int32Array;
  /** Positions by normalised path. */
  byPath: Map<string, number[]>;
  /** Positions by directory of the normalised path (`` for a top-level file). */
  byDir: Map<string, number[]>;
}

export function pathIndex(paths: Iterable<string>): PathIndex {
  const list = [...paths];
  const norm = list.map((p) => (p.charCodeAt(0) === 46 && p.charCodeAt(1) === SLASH ? p.slice(2) : p));
  const push = (m: Map<string, number[]>, k: string, i: number) => {
    const l = m.get(k);
    if (l) l.push(i);
    else m.set(k, [i]);
  };
  const byPath = new Map<string, number[]>();
  const byDir = new Map<string, number[]>();
  norm.forEach((p, i) => {
    push(byPath, p, i);
    const slash = p.lastIndexOf('/');
    push(byDir, slash < 0 ? '' : p.slice(0, slash), i);
  });
  const sorted = Int32Array.from(list.keys()).sort((a, b) => (norm[a]! < norm[b]! ? -1 : norm[a]! > norm[b]! ? 1 : a - b));
  return { paths: list, norm, sorted, byPath, byDir };
}

/** The positions of `index.sorted` whose normalised path starts with `prefix`. */
function* prefixRange(index: PathIndex, prefix: string): Generator<number> {
  const { sorted, norm } = index;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (norm[sorted[mid]!]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo; k < sorted.length && norm[sorted[k]!]!.startsWith(prefix); k++) yield sorted[k]!;
}

const SLASH = 47;
const GLOB_CHARS = /[*?[\]{}]|[!@+]\(/;

export function isGlob(path: string): boolean {
  return GLOB_CHARS.test(path);
}

/** The kind of a pattern, inferring it from the path when not given. */
export function inputKind(p: InputPattern): InputKind {
  return p.kind ?? (isGlob(p.path) ? 'glob' : 'tree');
}

/** `./x/` → `x`, `./` → `` (the repo root), `/x` → `x`. */
export function normalizeDir(path: string): string {
  let p = path.replace(/^(\.\/)+/, '').replace(/^\/+/, '').replace(/\/+$/, '');
  if (p === '.') p = '';
  return p;
}

interface CompiledGlob {
  base: string;
  test: (path: string) => boolean;
}

/** A glob that also matches everything below a path it matches. */
function compileGlob(glob: string): CompiledGlob {
  const g = normalizeDir(glob);
  const test = compileGlobs([g, `${g}/**`]);
  return { base: globBase(g), test };
}

/** A plain path that matches itself and everything below it. */
function compilePrefix(entry: string): CompiledGlob {
  const p = normalizeDir(entry);
  if (p === '') return { base: '', test: () => true };
  const below = `${p}/`;
  return { base: p, test: (path) => path === p || path.startsWith(below) };
}

interface IgnoreRule {
  negate: boolean;
  rule: CompiledGlob;
}

function compileIgnore(entries: readonly string[]): IgnoreRule[] {
  return entries.map((raw) => {
    const negate = raw.startsWith('!');
    const entry = negate ? raw.slice(1) : raw;
    return { negate, rule: isGlob(entry) ? compileGlob(entry) : compilePrefix(entry) };
  });
}

function isIgnored(rules: readonly IgnoreRule[], path: string): boolean {
  for (let i = rules.length - 1; i >= 0; i--) {
    const { negate, rule } = rules[i]!;
    if (path.startsWith(rule.base) && rule.test(path)) return !negate;
  }
  return false;
}

/** Does a single ignore list exclude `path`? (Same rules as the matcher.) */
export function ignoredBy(entries: readonly string[], path: string): boolean {
  return isIgnored(compileIgnore(entries), path);
}

/**
 * The files of a Go package directory the go command reads to build it (go/build): Go, cgo and
 * assembly sources, SWIG files and `.syso` objects. Not a README, `.fossa.yml` or testdata (the
 * package's `//go:embed` files are inputs of their own).
 */
const GO_BUILD_FILE = /\.(?:go|c|cc|cxx|cpp|m|h|hh|hpp|hxx|s|S|sx|f|F|for|f90|swig|swigcxx|syso)$/;

export function inputMatcher(inputs: BuildInputs): InputMatcher {
  const files = new Map<string, InputPattern>();
  const packageDirs = new Map<string, InputPattern>();
  const trees = new Map<string, InputPattern>();
  const globs: { glob: CompiledGlob; pattern: InputPattern }[] = [];
  for (const pattern of inputs.inputs) {
    const kind = inputKind(pattern);
    const key = normalizeDir(pattern.path);
    if (kind === 'file') files.has(key) || files.set(key, pattern);
    else if (kind === 'files') packageDirs.has(key) || packageDirs.set(key, pattern);
    else if (kind === 'tree') trees.has(key) || trees.set(key, pattern);
    else globs.push({ glob: compileGlob(pattern.path), pattern });
  }
  const ignore = compileIgnore(inputs.ignore);
  const rootTree = trees.get('');
  // Distinct tree key lengths, longest first: one slice and one lookup per length, not per path segment.
  const treeLengths = [...new Set([...trees.keys()].filter((k) => k !== '').map((k) => k.length))].sort((a, b) => b - a);

  const find = (path: string): InputPattern | undefined => {
    const exact = files.get(path);
    if (exact) return exact;
    const slash = path.lastIndexOf('/');
    const pkg = packageDirs.get(slash < 0 ? '' : path.slice(0, slash));
    if (pkg && GO_BUILD_FILE.test(path)) return pkg;
    for (const len of treeLengths) {
      if (path.length < len || (path.length > len && path.charCodeAt(len) !== SLASH)) continue;
      const t = trees.get(path.length === len ? path : path.slice(0, len));
      if (t) return t;
    }
    if (rootTree) return rootTree;
    for (const { glob, pattern } of globs) if (path.startsWith(glob.base) && glob.test(path)) return pattern;
    return undefined;
  };

  // The positions find() accepts, gathered per pattern: the same set as testing every path (find's order decides only which pattern a path is credited to).
  const candidates = (index: PathIndex): Iterable<number> => {
    if (rootTree) return index.sorted;
    const out = new Set<number>();
    for (const key of files.keys()) for (const i of index.byPath.get(key) ?? []) out.add(i);
    for (const key of packageDirs.keys()) for (const i of index.byDir.get(key) ?? []) if (GO_BUILD_FILE.test(index.norm[i]!)) out.add(i);
    for (const key of trees.keys()) {
      for (const i of prefixRange(index, key)) {
        const p = index.norm[i]!;
        if (p.length === key.length || p.charCodeAt(key.length) === SLASH) out.add(i);
      }
    }
    for (const { glob } of globs) for (const i of prefixRange(index, glob.base)) if (glob.test(index.norm[i]!)) out.add(i);
    return out;
  };

  return {
    match(path: string): InputPattern | undefined {
      const p = path.charCodeAt(0) === 46 && path.charCodeAt(1) === SLASH ? path.slice(2) : path;
      const found = find(p);
      if (!found || (ignore.length > 0 && isIgnored(ignore, p))) return undefined;
      return found;
    },
    matching(index: PathIndex): string[] {
      const hit = [...candidates(index)].filter((i) => ignore.length === 0 || !isIgnored(ignore, index.norm[i]!));
      return hit.sort((a, b) => a - b).map((i) => index.paths[i]!);
    },
  };
}
