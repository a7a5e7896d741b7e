/**
 * The Makefile reader: runs logical lines in order against a variable store, as
 * make's first phase does — assignments of every flavour, `export`/`override`,
 * `include`/`-include`, `define … endef`, conditionals, rules (explicit, pattern,
 * static pattern, multi-target, target-specific variables) and recipe lines.
 * Problems (missing separator, missing include, unterminated define, unbalanced
 * conditionals, conditions it could not decide) are collected, never thrown.
 */
import * as path from 'node:path';
import type { MakeDatabase } from './database.js';
import { expand, type ExpandContext } from './expand.js';
import { logicalLines, stripComment, type LogicalLine } from './lines.js';
import { couldEqual, hasMarker, marker, readableMarkers } from './markers.js';
import { fillPattern, indexTopLevel, matchPattern, splitTopLevel, words } from './scan.js';
import type { AssignOp, MakeFileSystem, MakeRule, RecipeLine, TargetAssignment } from './types.js';
import { assign, VariableStore, type VariableLookups } from './variables.js';

export interface ReaderOptions {
  /** Absolute repository root; problem and rule files are made relative to it. */
  root: string;
  fs: MakeFileSystem;
}

interface Conditional {
  /** Whether the enclosing block is active. */
  outer: boolean;
  /** Whether the current branch is taken. */
  taken: boolean;
  /** Whether any branch so far was taken. */
  anyTaken: boolean;
  sawElse: boolean;
  line: number;
}

interface DefineState {
  name: string;
  op: AssignOp;
  exported: boolean;
  body: string[];
  depth: number;
  line: number;
  discard: boolean;
}

const ASSIGN_OPS: AssignOp[] = [':::=', '::=', ':=', '+=', '?=', '!=', '='];
const MAX_INCLUDE_DEPTH = 20;

/** One pass of reading: state local to a file or an `$(eval)` text. */
export class MakeReader {
  private includeDepth = 0;
  /**
   * Set by `seal()` when the first phase (reading the Makefile and its includes) is over: the names that
   * reading looked up, and how many problems it had met. Cleared for good by the first change after it
   * (an `$(eval)` while expanding): the reader then no longer holds just what its reading left.
   */
  private read: { lookups: VariableLookups; problems: number } | undefined;
  private changedAfterRead = false;

  constructor(
    readonly db: MakeDatabase,
    private readonly options: ReaderOptions,
  ) {}

  /** Read a makefile from disk into the database. */
  readFile(absPath: string, vars: VariableStore = this.db.vars): void {
    const text = this.options.fs.readFile(absPath);
    const rel = this.relative(absPath);
    if (text === undefined) {
      this.problem(rel, undefined, 'make-unreadable', `could not read "${rel}"`);
      return;
    }
    this.db.files.push(rel);
    // as make names each file it reads: from the directory it runs in (`Makefile`, `tools/make/common.mk`,
    // `../common.mk`), so `$(abspath $(lastword $(MAKEFILE_LIST)))` is the file (istio's fakes)
    const list = this.db.vars.get('MAKEFILE_LIST')?.value ?? '';
    this.db.vars.setSimple('MAKEFILE_LIST', `${list} ${path.relative(this.db.dir, absPath) || rel}`.trim(), 'default');
    this.run(logicalLines(text), rel, path.dirname(absPath), vars);
  }

  /** `$(eval TEXT)`: TEXT read as makefile lines at `file:line`. */
  evalText(text: string, file: string, line: number, vars: VariableStore): void {
    if (this.read) this.changedAfterRead = true;
    const lines = logicalLines(text).map((l) => ({ ...l, line }));
    this.run(lines, file, path.join(this.options.root, path.dirname(file)), vars);
  }

  private run(lines: readonly LogicalLine[], file: string, fileDir: string, vars: VariableStore): void {
    const conds: Conditional[] = [];
    let rules: MakeRule[] | undefined;
    let define: DefineState | undefined;
    const active = () => conds.every((c) => c.outer && c.taken);
    const ctx = this.context(vars, file, 0);

    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      ctx.line = l.line;
      if (define) {
        define = this.defineLine(define, l, vars, file);
        continue;
      }
      if (l.tab && rules && active()) {
        for (const r of rules) this.addRecipeLine(r, { text: l.text.slice(1), file, line: l.line });
        continue;
      }
      const info = lineInfo(l);
      if (info.stmt === '') continue;
      const { stmt, keyword, rest } = info;
      if (info.conditional && this.conditional(keyword, rest, conds, ctx, file, l.line)) continue;
      if (!active()) {
        if (info.startsDefine) define = startDefine(stmt, l.line, false, true);
        continue;
      }
      if (info.define) {
        define = startDefine(stmt, l.line, info.define.exported, false);
        rules = undefined;
        continue;
      }
      if (keyword === 'include' || keyword === '-include' || keyword === 'sinclude') {
        this.include(rest, keyword === 'include', file, fileDir, l.line, vars, ctx);
        rules = undefined;
        continue;
      }
      if (keyword === 'endef') {
        this.problem(file, l.line, 'make-syntax', `"endef" without a matching "define"`);
        continue;
      }
      const handled = this.statement(info.statement!, stmt, file, l, vars, ctx);
      if (handled === 'rule') rules = this.lastRules;
      else if (handled === 'assignment') rules = undefined;
    }
    if (define && !define.discard) {
      this.problem(file, define.line, 'make-unterminated-define', `"define ${define.name}" is never closed; expected a line "endef"`);
    }
    for (const c of conds) this.problem(file, c.line, 'make-unterminated-conditional', 'conditional is never closed; expected "endif"');
  }

  private lastRules: MakeRule[] = [];
  /** The rule header a rule's following recipe lines belong to; a new header with a recipe replaces the old recipe. */
  private readonly headers = new Map<MakeRule, { file: string; line: number }>();
  private readonly recipeOwner = new Map<MakeRule, { file: string; line: number }>();

  private addRecipeLine(rule: MakeRule, recipeLine: RecipeLine): void {
    const header = this.headers.get(rule);
    if (header && this.recipeOwner.get(rule) !== header) {
      if (rule.recipe.length > 0) {
        this.problem(header.file, header.line, 'make-recipe-overridden', `recipe for target "${rule.target}" replaces the one at ${rule.file}:${rule.line}`);
      }
      rule.recipe = [];
      rule.file = header.file;
      rule.line = header.line;
      this.recipeOwner.set(rule, header);
    }
    rule.recipe.push(recipeLine);
  }

  private defineLine(d: DefineState, l: LogicalLine, vars: VariableStore, file: string): DefineState | undefined {
    const info = defineLineInfo(l);
    if (info.ends) {
      if (d.depth > 0) {
        d.body.push(l.text);
        d.depth--;
        return d;
      }
      if (!d.discard) {
        const ctx = this.context(vars, file, d.line);
        assign(vars, d.name, d.op, d.body.join('\n'), (x) => expand(x, ctx), (c) => marker('shell', c), d.exported || undefined);
      }
      return undefined;
    }
    if (info.nests) d.depth++;
    d.body.push(l.text);
    return d;
  }

  /** Handle ifeq/ifneq/ifdef/ifndef/else/endif; true when the line was one. */
  private conditional(keyword: string, rest: string, conds: Conditional[], ctx: ExpandContext & { line: number }, file: string, line: number): boolean {
    const outer = conds.every((c) => c.outer && c.taken);
    if (['ifeq', 'ifneq', 'ifdef', 'ifndef'].includes(keyword)) {
      const taken = outer ? this.evaluateCondition(keyword, rest, ctx, file, line) : false;
      conds.push({ outer, taken, anyTaken: taken, sawElse: false, line });
      return true;
    }
    if (keyword === 'else') {
      const top = conds.at(-1);
      if (!top) {
        this.problem(file, line, 'make-syntax', '"else" without a matching "ifeq"/"ifdef"');
        return true;
      }
      if (top.sawElse) this.problem(file, line, 'make-syntax', 'only one "else" per conditional');
      const chained = /^(ifeq|ifneq|ifdef|ifndef)(?:[ \t]+(.*))?$/.exec(rest.trim());
      if (top.anyTaken || !top.outer) top.taken = false;
      else if (chained) top.taken = this.evaluateCondition(chained[1]!, chained[2] ?? '', ctx, file, line);
      else top.taken = true;
      top.anyTaken ||= top.taken;
      if (!chained) top.sawElse = true;
      return true;
    }
    if (keyword === 'endif') {
      if (!conds.pop()) this.problem(file, line, 'make-syntax', '"endif" without a matching "ifeq"/"ifdef"');
      return true;
    }
    return false;
  }

  private evaluateCondition(keyword: string, rest: string, ctx: ExpandContext, file: string, line: number): boolean {
    if (keyword === 'ifdef' || keyword === 'ifndef') {
      const name = expand(rest, ctx).trim();
      const defined = (ctx.vars.get(name)?.value ?? '') !== '';
      return keyword === 'ifdef' ? defined : !defined;
    }
    const args = conditionArgs(rest);
    if (!args) {
      this.problem(file, line, 'make-syntax', `cannot read condition "${keyword} ${rest}"; expected ${keyword} (A,B) or ${keyword} "A" "B"`);
      return true;
    }
    const a = expand(args[0], ctx).trim();
    const b = expand(args[1], ctx).trim();
    // one side known: the other's literal text may already rule equality out (`ghcr.io/⟨…⟩` is never "")
    if (hasMarker(a) !== hasMarker(b) && !couldEqual(hasMarker(a) ? a : b, hasMarker(a) ? b : a)) return keyword === 'ifneq';
    if (hasMarker(a) || hasMarker(b)) {
      this.problem(file, line, 'make-condition-assumed', `cannot decide "${keyword} ${rest}" (compares ${readableMarkers(a || '""')} with ${readableMarkers(b || '""')}); took the first branch`);
      return true;
    }
    return keyword === 'ifeq' ? a === b : a !== b;
  }

  private include(rest: string, required: boolean, file: string, fileDir: string, line: number, vars: VariableStore, ctx: ExpandContext): void {
    for (const name of words(expand(rest, ctx))) {
      if (hasMarker(name)) {
        this.problem(file, line, 'make-include-unknown', `cannot tell which file "include ${readableMarkers(name)}" reads`);
        continue;
      }
      const candidates = [path.resolve(this.db.dir, name), path.resolve(fileDir, name)];
      const found = candidates.find((c) => this.options.fs.exists(c));
      if (!found) {
        if (required) this.problem(file, line, 'make-include-missing', `included file "${name}" does not exist (looked in ${[...new Set(candidates.map((c) => this.relative(path.dirname(c)) || '.'))].join(', ')})`);
        continue;
      }
      if (this.includeDepth >= MAX_INCLUDE_DEPTH) {
        this.problem(file, line, 'make-include-loop', `includes nest deeper than ${MAX_INCLUDE_DEPTH} at "${name}"`);
        continue;
      }
      this.includeDepth++;
      try {
        this.readFile(found, vars);
      } finally {
        this.includeDepth--;
      }
    }
  }

  /** An assignment, an export line or a rule. */
  private statement(info: StatementInfo, stmt: string, file: string, l: LogicalLine, vars: VariableStore, ctx: ExpandContext): 'rule' | 'assignment' | 'other' {
    const { text, exported } = info;
    if (info.bareExport) return 'other';
    if (info.assignment) {
      const op = info.assignment;
      const name = expand(op.name, ctx).trim();
      if (name === '' || /[ \t]/.test(name)) {
        this.problem(file, l.line, 'make-syntax', `empty or multi-word variable name in "${stmt}"`);
        return 'assignment';
      }
      assign(vars, name, op.op, op.value, (x) => expand(x, ctx), (c) => marker('shell', c), exported);
      return 'assignment';
    }
    if (info.rule) {
      this.rule(info.rule, file, l.line, ctx);
      return 'rule';
    }
    if (exported !== undefined) {
      for (const n of words(expand(text, ctx))) {
        const v = vars.peek(n);
        if (v) vars.set(n, { ...v, exported });
      }
      return 'other';
    }
    if (info.vpath) return 'other';
    const expanded = expand(text, ctx).trim();
    if (expanded === '' || words(expanded).every(hasMarker)) return 'other';
    // a line a function expands to a rule is that rule, as make reads it (gateway's `$(if $(MAKECMDGOALS),$(MAKECMDGOALS): %: _run)`)
    const made = !expanded.includes('$') ? classifyStatement(expanded) : undefined;
    if (made?.rule && !made.assignment) {
      this.rule(made.rule, file, l.line, ctx);
      return 'rule';
    }
    const code = l.tab ? 'make-recipe-before-target' : 'make-missing-separator';
    const reason = l.tab ? `recipe line "${stmt}" comes before the first target` : `missing separator in "${stmt}"; expected "target: prerequisites" or "NAME = value"`;
    this.problem(file, l.line, code, reason);
    return 'other';
  }

  private rule(info: RuleInfo, file: string, line: number, ctx: ExpandContext): void {
    const targets = words(expand(info.targets, ctx));
    const made: MakeRule[] = [];
    const { targetVar, recipe, rest, staticColon } = info;
    for (const target of targets) {
      const rule = this.ruleFor(target, file, line);
      made.push(rule);
      if (targetVar) {
        rule.variables.push({ ...targetVar });
        continue;
      }
      if (staticColon !== -1) {
        const stem = matchPattern(expand(rest.slice(0, staticColon), ctx).trim(), target);
        if (stem === undefined) continue;
        rule.stem = stem;
        rule.prerequisites.push(...words(expand(rest.slice(staticColon + 1), ctx)).map((p) => fillPattern(p, stem)));
      } else {
        rule.prerequisites.push(...words(expand(rest, ctx)).filter((p) => p !== '|'));
      }
      this.headers.set(rule, { file, line });
      if (rule.recipe.length === 0) {
        rule.file = file;
        rule.line = line;
      }
      if (recipe !== undefined && recipe.trim() !== '') this.addRecipeLine(rule, { text: recipe.trim(), file, line });
      else if (recipe !== undefined) rule.emptyRecipe = true;
    }
    this.lastRules = targetVar ? [] : made;
    if (this.db.defaultGoal === undefined) {
      const goal = targets.find((t) => (!t.startsWith('.') || t.includes('/')) && !t.includes('%'));
      if (goal) this.db.defaultGoal = goal;
    }
  }

  private ruleFor(target: string, file: string, line: number): MakeRule {
    if (target.includes('%')) {
      const r: MakeRule = { target, prerequisites: [], recipe: [], file, line, variables: [] };
      this.db.patternRules.push(r);
      return r;
    }
    let r = this.db.rules.get(target);
    if (!r) {
      r = { target, prerequisites: [], recipe: [], file, line, variables: [] };
      this.db.rules.set(target, r);
    }
    return r;
  }

  /** An expansion context whose `$(eval)` reads back into this reader. */
  context(vars: VariableStore, file: string, line: number): ExpandContext & { line: number } {
    const ctx: ExpandContext & { line: number } = {
      vars,
      line,
      evalText: (t, c) => this.evalText(t, file, ctx.line, c.vars),
      note: (code, reason) => this.problem(file, ctx.line, code, reason),
    };
    return ctx;
  }

  problem(file: string, line: number | undefined, code: string, reason: string): void {
    const key = `${file}:${line ?? ''}:${code}`;
    if (this.db.problems.some((p) => `${p.file}:${p.line ?? ''}:${p.code}` === key)) return;
    this.db.problems.push({ file, ...(line !== undefined ? { line } : {}), code, reason: this.checkoutFree(reason) });
  }

  /**
   * A reason with the repository's own absolute path made relative (`$(abspath …)`,
   * `$(CURDIR)` expand to it): a finding's text and fingerprint must not depend on where the
   * repository is checked out. Inside a marker the slashes are look-alikes (markers.ts).
   */
  private checkoutFree(reason: string): string {
    const root = this.options.root.replace(/[\\/]+$/, '');
    if (root === '' || !reason.includes(path.basename(root))) return reason;
    let out = reason;
    for (const slash of ['/', '∕']) {
      const spelled = root.split(path.sep).join(slash);
      out = out.split(`${spelled}${slash}`).join('').split(spelled).join('.');
    }
    return out;
  }

  private relative(abs: string): string {
    return path.relative(this.options.root, abs).split(path.sep).join('/');
  }

  /** End of the first phase: keep what it looked up (`lookups`, recorded by the caller) and its problem count. */
  seal(lookups: VariableLookups): void {
    this.read = { lookups, problems: this.db.problems.length };
  }

  /**
   * The names the reading looked up, while the reader still holds exactly what its reading left (sealed,
   * nothing evaluated into it since); undefined otherwise.
   */
  readLookups(): VariableLookups | undefined {
    return this.read && !this.changedAfterRead ? this.read.lookups : undefined;
  }

  /**
   * What its reading left (readLookups() defined), as snapshot() gives it, without the problems
   * expansion noted since: the state a new read would leave, before any target was expanded.
   */
  readSnapshot(): ReaderSnapshot | undefined {
    if (!this.readLookups()) return undefined;
    const db = { ...this.db, problems: this.db.problems.slice(0, this.read!.problems) };
    return { db, headers: this.headers, recipeOwner: this.recipeOwner, lastRules: this.lastRules };
  }

  /**
   * What reading left behind — the database and the reader's own bookkeeping of
   * rule headers (a later `$(eval)` recipe line consults it) — as one structured-clone
   * value for the cache (shared rule objects stay shared). `revive` rebuilds the reader.
   */
  snapshot(): ReaderSnapshot {
    return { db: this.db, headers: this.headers, recipeOwner: this.recipeOwner, lastRules: this.lastRules };
  }

  /** A reader in the state `snapshot` recorded (a structured clone of it), reading further with `options`. */
  static revive(snap: ReaderSnapshot, options: ReaderOptions, lookups?: VariableLookups): MakeReader {
    Object.setPrototypeOf(snap.db.vars, VariableStore.prototype);
    const reader = new MakeReader(snap.db, options);
    if (lookups) reader.seal(lookups);
    for (const [k, v] of snap.headers) reader.headers.set(k, v);
    for (const [k, v] of snap.recipeOwner) reader.recipeOwner.set(k, v);
    reader.lastRules = snap.lastRules;
    return reader;
  }
}

/** A MakeReader's state after reading, for the cache (MakeReader.snapshot / revive). */
export interface ReaderSnapshot {
  db: MakeDatabase;
  headers: ReadonlyMap<MakeRule, { file: string; line: number }>;
  recipeOwner: ReadonlyMap<MakeRule, { file: string; line: number }>;
  lastRules: MakeRule[];
}

/** What a logical line is, as far as its text alone tells (the same for every reading of it: lineInfo). */
interface LineInfo {
  /** The line without its comment, trimmed. */
  stmt: string;
  keyword: string;
  rest: string;
  /** The keyword is ifeq/ifneq/ifdef/ifndef/else/endif. */
  conditional: boolean;
  /** Starts a `define` (with `override`/`export` prefixes), as an inactive branch reads it. */
  startsDefine: boolean;
  /** Starts a `define` (with `override`/`export`/`private` prefixes), as an active branch reads it. */
  define?: { exported: boolean };
  statement?: StatementInfo;
}

interface StatementInfo {
  /** The statement without its export/unexport/override/private prefixes. */
  text: string;
  exported: boolean | undefined;
  /** A bare `export` or `unexport`. */
  bareExport: boolean;
  assignment?: { op: AssignOp; name: string; value: string };
  rule?: RuleInfo;
  vpath: boolean;
}

interface RuleInfo {
  /** Unexpanded targets (before the colon). */
  targets: string;
  /** After the colon(s), without a `;` recipe. */
  rest: string;
  targetVar?: TargetAssignment;
  /** The recipe after a `;`. */
  recipe?: string;
  /** A static pattern rule's second colon in `rest`, or -1. */
  staticColon: number;
}

const CONDITIONAL_KEYWORDS = new Set(['ifeq', 'ifneq', 'ifdef', 'ifndef', 'else', 'endif']);
/** LineInfo and defineLineInfo by line text (they depend on nothing else): every reading of a file, and every `$(eval)` of a text, asks again. */
const lineInfos = new Map<string, LineInfo>();
const defineInfos = new Map<string, { ends: boolean; nests: boolean }>();
const LINE_INFOS_MAX = 16384;

function lineInfo(l: LogicalLine): LineInfo {
  let info = lineInfos.get(l.text);
  if (!info) {
    if (lineInfos.size >= LINE_INFOS_MAX) lineInfos.clear();
    lineInfos.set(l.text, (info = classify(l)));
  }
  return info;
}

function classify(l: LogicalLine): LineInfo {
  const stmt = stripComment(l.text).trim();
  if (stmt === '') return { stmt, keyword: '', rest: '', conditional: false, startsDefine: false };
  const directive = /^([a-z-]+)(?:[ \t]+(.*))?$/.exec(stmt);
  const keyword = directive?.[1] ?? '';
  const rest = directive?.[2] ?? '';
  const def = /^((?:(?:override|export|private)[ \t]+)*)define(?:[ \t]+(.*)|$)/.exec(stmt);
  return {
    stmt,
    keyword,
    rest,
    conditional: CONDITIONAL_KEYWORDS.has(keyword),
    startsDefine: /^(?:(?:override|export)[ \t]+)*define(?:[ \t]|$)/.test(stmt),
    ...(def ? { define: { exported: def[1]!.includes('export') } } : { statement: classifyStatement(stmt) }),
  };
}

function classifyStatement(stmt: string): StatementInfo {
  let text = stmt;
  let exported: boolean | undefined;
  for (;;) {
    const m = /^(export|unexport|override|private)[ \t]+/.exec(text);
    if (!m) break;
    if (m[1] === 'export') exported = true;
    if (m[1] === 'unexport') exported = false;
    text = text.slice(m[0].length);
  }
  const info: StatementInfo = { text, exported, bareExport: /^(export|unexport)$/.test(text), vpath: /^vpath\b/.test(text) };
  const sep = indexTopLevel(text, ':=');
  const op = sep === -1 ? undefined : assignOpAt(text, sep);
  if (op) info.assignment = { op: op.op, name: text.slice(0, op.start), value: text.slice(op.end).replace(/^[ \t]+/, '') };
  else if (sep !== -1) info.rule = classifyRule(text);
  return info;
}

function classifyRule(text: string): RuleInfo {
  const colon = indexTopLevel(text, ':');
  let rest = text.slice(colon + 1);
  if (rest.startsWith(':')) rest = rest.slice(1);
  const targetVar = targetAssignment(rest);
  let recipe: string | undefined;
  const semi = indexTopLevel(rest, ';');
  if (!targetVar && semi !== -1) {
    recipe = rest.slice(semi + 1);
    rest = rest.slice(0, semi);
  }
  const staticColon = targetVar ? -1 : indexTopLevel(rest, ':');
  return { targets: text.slice(0, colon), rest, ...(targetVar ? { targetVar } : {}), ...(recipe !== undefined ? { recipe } : {}), staticColon };
}

/** Inside a `define`: whether a line ends it (`endef`) or opens a nested one. */
function defineLineInfo(l: LogicalLine): { ends: boolean; nests: boolean } {
  let info = defineInfos.get(l.text);
  if (!info) {
    if (defineInfos.size >= LINE_INFOS_MAX) defineInfos.clear();
    const t = l.text.trim();
    defineInfos.set(l.text, (info = { ends: /^endef\b/.test(t), nests: /^(?:(?:override|export)[ \t]+)*define\b/.test(t) }));
  }
  return info;
}

function startDefine(stmt: string, line: number, exported: boolean, discard: boolean): DefineState {
  const m = /define[ \t]*(.*)$/.exec(stmt)!;
  const head = m[1]!.trim();
  const op = ASSIGN_OPS.find((o) => head.endsWith(o));
  const name = op ? head.slice(0, -op.length).trim() : head;
  return { name, op: op ?? '=', exported, body: [], depth: 0, line, discard };
}

/** The assignment operator whose `:`/`=` sits at `sep`, if the text there is one. */
function assignOpAt(text: string, sep: number): { op: AssignOp; start: number; end: number } | undefined {
  if (text[sep] === ':') {
    for (const op of [':::=', '::=', ':='] as AssignOp[]) if (text.startsWith(op, sep)) return { op, start: sep, end: sep + op.length };
    return undefined;
  }
  const before = text[sep - 1];
  if (before === '+' || before === '?' || before === '!') return { op: `${before}=` as AssignOp, start: sep - 1, end: sep + 1 };
  return { op: '=', start: sep, end: sep + 1 };
}

/** `VAR := value` after a rule's colon (a target-specific variable), if that is what it is. */
function targetAssignment(rest: string): TargetAssignment | undefined {
  const m = /^[ \t]*(?:(?:export|override|private)[ \t]+)*([^\s:=#;]+)[ \t]*(:::=|::=|:=|\+=|\?=|!=|=)(.*)$/.exec(rest);
  if (!m) return undefined;
  return { name: m[1]!, op: m[2] as AssignOp, value: m[3]!.trim() };
}

/** `(a,b)`, `"a" "b"`, `'a' 'b'` (and mixes of the quoted forms). */
function conditionArgs(rest: string): [string, string] | undefined {
  const t = rest.trim();
  if (t.startsWith('(') && t.endsWith(')')) {
    const parts = splitTopLevel(t.slice(1, -1), ',', 2);
    if (parts.length !== 2) return undefined;
    return [parts[0]!, parts[1]!];
  }
  const m = /^(["'])(.*?)\1[ \t]+(["'])(.*?)\3$/.exec(t);
  return m ? [m[2]!, m[4]!] : undefined;
}
