/**
 * The layering rules, checked on every import in src/ (static, dynamic, re-exports
 * and type-only ones), after go-containerregistry's cmd/crane/depcheck_test.go.
 * A folder is a top-level directory of src/ (`src/cli/commands/x.ts` is `cli`);
 * a file at the top (`errors.ts`, `index.ts`) is its own unit. Colocated tests
 * (`*.test.ts`) are not product code and are left out.
 *
 * Each failure names importer → imported and the rule it breaks.
 */
import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The rank of every unit: a unit imports only units of a strictly lower rank
 * (and itself). Equal ranks are siblings that do not import each other.
 */
const RANK: Record<string, number> = {
  errors: 0,
  reference: 1,
  util: 2,
  journal: 3, // all-or-nothing multi-file writes and their recovery: runs git to find the git dir
  model: 2,
  git: 2,
  cache: 2, // the persistent cache's store (scan, recipe and history facts by content); reads no other unit but errors
  make: 3,
  edit: 2,
  dockerfile: 1, // the one Dockerfile reader, a leaf: collect/ and sources/ use it
  shell: 1, // the one shell splitter, a leaf: producers/ and sources/ use it
  config: 3,
  registry: 3,
  collect: 4,
  scan: 5,
  producers: 6,
  sources: 7,
  provenance: 8,
  rules: 8,
  images: 8, // the future image-knowledge layer (review §4 item 5)
  snapshot: 8.5, // the tree-state snapshot: scan + images/ derivation reused while the paths it read hold
  stale: 9,
  running: 10, // what the cluster runs against the pins: uses stale's history machinery and images/
  lint: 9,
  overlay: 9,
  repin: 9,
  affected: 10,
  release: 10, // promote, mirror, compare: registry writes + byte-minimal rewrites (issue 17)
  explain: 10,
  triage: 10.5, // log lines → source literals → images and their builds; may import running/ (10)
  check: 10,
  report: 11,
  demo: 12,
  cli: 13,
  action: 13, // the GitHub Action's entry: given the CLI's main by bin/pinwatch-action.js, it imports no cli/
  index: 14, // the library's public barrel
};

/** What each of the strictest units may import besides itself (the rank table holds for them too). */
const ONLY: Record<string, readonly string[]> = {
  reference: ['errors'],
  dockerfile: [],
  shell: [],
  collect: ['model', 'reference', 'errors', 'dockerfile'],
};

/** Node built-ins that touch the outside world: report/ must not reach them, even through another module. */
const IO_BUILTINS = new Set(['fs', 'fs/promises', 'child_process', 'net', 'http', 'https', 'http2', 'dgram', 'dns', 'tls', 'worker_threads', 'cluster', 'readline']);

/**
 * The one deliberate file-level import cycle: the Makefile interpreter's mutual
 * recursion (`$(call …)` expands its arguments; expansion calls functions).
 */
const DELIBERATE_FILE_CYCLES: readonly (readonly string[])[] = [['make/expand.ts', 'make/functions.ts']];

/** Known violations outside this change's area, each with the issue that removes it. Empty today. */
const ALLOWED: readonly string[] = [];

interface Import {
  from: string; // file, relative to src, posix
  to: string; // file relative to src (ours), or `node:x` / a package name
  typeOnly: boolean;
  line: number;
}

function importsOf(file: string, text: string): { imports: Import[]; problems: string[] } {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const imports: Import[] = [];
  const problems: string[] = [];
  const add = (spec: string, typeOnly: boolean, node: ts.Node) => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    const to = spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts') : builtinModules.includes(spec) ? `node:${spec}` : spec;
    imports.push({ from: file, to, typeOnly, line });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const typeOnly = !!c && (c.isTypeOnly || (!c.name && !!c.namedBindings && ts.isNamedImports(c.namedBindings) && c.namedBindings.elements.length > 0 && c.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, typeOnly, node);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = node.isTypeOnly || (!!node.exportClause && ts.isNamedExports(node.exportClause) && node.exportClause.elements.length > 0 && node.exportClause.elements.every((e) => e.isTypeOnly));
      add(node.moduleSpecifier.text, typeOnly, node);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg)) add(arg.text, false, node);
      else problems.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}: a dynamic import() whose target is not a string literal cannot be checked`);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { imports, problems };
}

/** `cli/commands/x.ts` → `cli`; `errors.ts` → `errors`. */
function unitOf(file: string): string {
  const parts = file.split('/');
  return parts.length === 1 ? parts[0]!.replace(/\.ts$/, '') : parts[0]!;
}

const isOurs = (to: string) => !to.startsWith('node:') && to.endsWith('.ts');

/** Every rule over a set of files (path relative to src → text). Returns one line per violation. */
export function layeringViolations(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  const all: Import[] = [];
  for (const [file, text] of files) {
    const r = importsOf(file, text);
    all.push(...r.imports);
    out.push(...r.problems);
  }
  const at = (i: Import) => `${i.from}:${i.line}`;
  const arrow = (i: Import) => `${at(i)} → ${i.to}${i.typeOnly ? ' (type-only)' : ''}`;

  // units, the rank table and the strict lists
  const folderEdges = new Map<string, Map<string, Import>>();
  for (const i of all) {
    if (!isOurs(i.to)) continue;
    if (!files.has(i.to)) out.push(`${arrow(i)}: imports a file that does not exist in src/`);
    const a = unitOf(i.from);
    const b = unitOf(i.to);
    if (a === b) continue;
    if (!folderEdges.has(a)) folderEdges.set(a, new Map());
    if (!folderEdges.get(a)!.has(b)) folderEdges.get(a)!.set(b, i);
    if (b === 'cli') out.push(`${arrow(i)}: only cli/ may import cli/ (the CLI owns flags and output; the library takes values)`);
    if (b === 'demo' && a !== 'cli') out.push(`${arrow(i)}: only cli/ may import demo/ (the demo is a CLI feature, not library API)`);
    const only = ONLY[a];
    if (only && !only.includes(b)) out.push(`${arrow(i)}: ${a}/ may import only ${only.map((u) => `${u}/`).join(', ')} (and itself)`);
    const ra = RANK[a];
    const rb = RANK[b];
    if (ra === undefined) out.push(`${arrow(i)}: ${a} has no rank; add it to RANK in test/layering.test.ts`);
    else if (rb === undefined) out.push(`${arrow(i)}: ${b} has no rank; add it to RANK in test/layering.test.ts`);
    else if (rb >= ra) out.push(`${arrow(i)}: ${a} (rank ${ra}) may import only lower-ranked folders, and ${b} is rank ${rb}`);
  }

  // folder cycles (any length), each reported once with one import per hop
  const units = [...folderEdges.keys()].sort();
  const seen = new Set<string>();
  for (const start of units) {
    const stack: { unit: string; path: string[] }[] = [{ unit: start, path: [start] }];
    const visited = new Set<string>();
    while (stack.length) {
      const { unit, path } = stack.pop()!;
      for (const next of [...(folderEdges.get(unit)?.keys() ?? [])].sort()) {
        if (next === start) {
          const cycle = [...path];
          const key = [...cycle].sort().join(' ');
          if (seen.has(key)) continue;
          seen.add(key);
          const hops = cycle.map((u, k) => arrow(folderEdges.get(u)!.get(cycle[(k + 1) % cycle.length]!)!));
          out.push(`folder cycle ${[...cycle, start].join(' → ')}: ${hops.join('; ')}`);
        } else if (!visited.has(next) && next > start) {
          visited.add(next);
          stack.push({ unit: next, path: [...path, next] });
        }
      }
    }
  }

  // report/ stays pure: nothing it loads at run time (value imports, followed through other files) does I/O
  const valueImports = new Map<string, Import[]>();
  for (const i of all) if (!i.typeOnly) valueImports.set(i.from, [...(valueImports.get(i.from) ?? []), i]);
  for (const file of files.keys()) {
    if (unitOf(file) !== 'report') continue;
    const via = new Map<string, string[]>([[file, [file]]]);
    const queue = [file];
    while (queue.length) {
      const f = queue.shift()!;
      for (const i of valueImports.get(f) ?? []) {
        if (i.to.startsWith('node:') && IO_BUILTINS.has(i.to.slice(5))) {
          out.push(`${arrow(i)}: report/ must do no I/O, and ${file} loads this through ${via.get(f)!.join(' → ')}`);
        } else if (isOurs(i.to) && !via.has(i.to)) {
          via.set(i.to, [...via.get(f)!, i.to]);
          queue.push(i.to);
        }
      }
    }
  }
  out.push(...fileCycles(all));
  return [...new Set(out)];
}

/** Strongly connected groups of files (Tarjan), type-only imports included: each group of 2+ is a cycle. */
function fileCycles(all: readonly Import[]): string[] {
  const edges = new Map<string, string[]>();
  for (const i of all) if (isOurs(i.to) && i.to !== i.from) (edges.get(i.from) ?? edges.set(i.from, []).get(i.from)!).push(i.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const strong = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        onStack.delete(w);
        group.push(w);
        if (w === v) break;
      }
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) strong(v);
  const deliberate = (g: string[]) => DELIBERATE_FILE_CYCLES.some((d) => d.length === g.length && d.every((f) => g.includes(f)));
  return groups.filter((g) => !deliberate(g)).map((g) => `file cycle: ${g.join(' ↔ ')} import each other (break it, or name it in DELIBERATE_FILE_CYCLES with why)`);
}

function sourceFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) files.set(relative(root, path).split(sep).join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  return files;
}

describe('layering of src/', () => {
  it('every import follows the rules', () => {
    const src = resolve(dirname(new URL(import.meta.url).pathname), '..', 'src');
    const files = sourceFiles(src);
    expect(files.size).toBeGreaterThan(100);
    const violations = layeringViolations(files).filter((v) => !ALLOWED.some((a) => v.startsWith(a)));
    expect(violations, `\n${violations.join('\n')}\n`).toEqual([]);
  });
});

describe('the layering checker itself', () => {
  const check = (files: Record<string, string>) => layeringViolations(new Map(Object.entries(files)));

  it('finds a folder cycle and names every hop', () => {
    const v = check({
      'lint/emit.ts': "import { emit } from '../cli/context.js';\n",
      'cli/context.ts': "import type { X } from '../check/check.js';\n",
      'check/check.ts': "export type X = 1;\nimport { lint } from '../lint/emit.js';\n",
    });
    expect(v).toContain('folder cycle check → lint → cli → check: check/check.ts:2 → lint/emit.ts; lint/emit.ts:1 → cli/context.ts; cli/context.ts:1 → check/check.ts (type-only)');
    expect(v).toContain('lint/emit.ts:1 → cli/context.ts: only cli/ may import cli/ (the CLI owns flags and output; the library takes values)');
  });

  it('finds a file-level cycle inside one folder, and accepts the named one', () => {
    expect(check({ 'registry/auth.ts': "import { f } from './redirect.js';\n", 'registry/redirect.ts': "import type { F } from './auth.js';\n" })).toEqual([
      'file cycle: registry/auth.ts ↔ registry/redirect.ts import each other (break it, or name it in DELIBERATE_FILE_CYCLES with why)',
    ]);
    expect(check({ 'make/expand.ts': "import { c } from './functions.js';\n", 'make/functions.ts': "import { e } from './expand.js';\n" })).toEqual([]);
  });

  it('keeps demo/ out of the library barrel', () => {
    expect(check({ 'index.ts': "export { buildDemoRepo } from './demo/index.js';\n", 'demo/index.ts': '' })).toEqual([
      'index.ts:1 → demo/index.ts: only cli/ may import demo/ (the demo is a CLI feature, not library API)',
    ]);
  });

  it('finds an upward import, dynamic ones included, against the rank table', () => {
    const v = check({ 'scan/scan.ts': "export async function f() { return import('../stale/report.js'); }\n", 'stale/report.ts': '' });
    expect(v).toEqual(['scan/scan.ts:1 → stale/report.ts: scan (rank 5) may import only lower-ranked folders, and stale is rank 9']);
  });

  it('holds reference/ and collect/ to their lists', () => {
    const v = check({
      'reference/r.ts': "import { PinwatchError } from '../errors.js';\nimport { x } from '../util/x.js';\n",
      'errors.ts': '',
      'util/x.ts': '',
      'collect/c.ts': "import type { Config } from '../config/types.js';\nimport { Pin } from '../model/pin.js';\n",
      'config/types.ts': '',
      'model/pin.ts': '',
    });
    expect(v).toContain('reference/r.ts:2 → util/x.ts: reference/ may import only errors/ (and itself)');
    expect(v).toContain('collect/c.ts:1 → config/types.ts (type-only): collect/ may import only model/, reference/, errors/, dockerfile/ (and itself)');
    expect(v.filter((l) => l.includes('errors.ts') || l.includes('model/pin.ts'))).toEqual([]);
  });

  it('follows report/ value imports through other folders to an I/O built-in, and ignores type-only ones', () => {
    const v = check({
      'report/a.ts': "import { f } from '../rules/f.js';\nimport type { G } from '../git/g.js';\n",
      'rules/f.ts': "import { readFileSync } from 'node:fs';\n",
      'git/g.ts': "import { execFileSync } from 'node:child_process';\n",
    });
    expect(v).toEqual(['rules/f.ts:1 → node:fs: report/ must do no I/O, and report/a.ts loads this through report/a.ts → rules/f.ts']);
  });

  it('refuses a dynamic import it cannot read', () => {
    expect(check({ 'cli/x.ts': 'const m = "./y.js";\nawait import(m);\n' })).toEqual(['cli/x.ts:2: a dynamic import() whose target is not a string literal cannot be checked']);
  });
});
