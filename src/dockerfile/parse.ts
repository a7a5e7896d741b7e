/**
 * Dockerfile reader: turns lexed instructions into build stages with the
 * operations that matter for build inputs — COPY/ADD (sources, `--from`, dest),
 * RUN (command with heredoc bodies, `--mount`s) and WORKDIR — with ARG/ENV
 * substitution applied where BuildKit applies it.
 */
import { argsSpan, lexDockerfile } from './lexer.js';
import type { LexedDockerfile, RawInstruction } from './lexer.js';
import { platformNamed } from './platform.js';
import { expandVariables, type Expansion } from './substitute.js';

export interface CopyOp {
  op: 'copy';
  keyword: 'COPY' | 'ADD';
  line: number;
  /** `--from` value as written (stage name, index or image), if any. */
  from?: string;
  /** Sources after substitution; unknown variables became `*`. Heredoc sources are left out. */
  sources: string[];
  dest: string;
  /** Absolute in-container directory the instruction ran in. */
  workdir: string;
  /** Variables that had no value while expanding the sources. */
  unresolved: string[];
  /** `--exclude` patterns (BuildKit 1.7+). */
  excludes: string[];
  /** Sources that were dropped, with why (URL, git, heredoc). */
  dropped: { source: string; reason: string }[];
}

export interface Mount {
  type: string;
  /** `from=` stage or image; absent means the build context. */
  from?: string;
  /** `source=` path (defaults to the root of `from` / the context). */
  source: string;
  target: string;
}

export interface RunOp {
  op: 'run';
  line: number;
  /** The command with known variables expanded and heredoc bodies appended. */
  command: string;
  mounts: Mount[];
  workdir: string;
}

export type StageOp = CopyOp | RunOp;

export interface Stage {
  index: number;
  /** `AS name`, lower-cased (stage names are case-insensitive). */
  name?: string;
  /** Base image or stage as written after substitution (global ARGs only, as BuildKit does). */
  base: string;
  /** The base as written in the file, before substitution (inside the quotes of a quoted word). */
  baseWritten: string;
  /** Where `baseWritten` is in the text; absent when it is cut by a line continuation. */
  baseSpan?: { start: number; end: number };
  /** ARGs the base needs (directly or through other ARG defaults) that have no value. */
  baseUnresolved: string[];
  /** Index of the earlier stage the base names, when it names one. */
  baseStage?: number;
  /** The earlier stages a base spelling a platform ARG can name (`FROM binaries-$TARGETOS`: platform.ts), when it names no one stage. */
  baseStages?: number[];
  line: number;
  ops: StageOp[];
}

export interface ParsedDockerfile {
  directives: Record<string, string>;
  stages: Stage[];
  /** Every name an `ARG` declares, before the first FROM or in any stage: a build arg of no other name is unused (BuildKit warns and ignores it). */
  args: Set<string>;
  /** Every name an `ENV` sets, in any stage (`GOFLAGS` can add build tags a `go build` line does not show). */
  envNames: Set<string>;
  problems: { line: number; reason: string }[];
}

interface Flags {
  flags: Map<string, string[]>;
  rest: string;
}

/** Leading `--name[=value]` flags of an instruction. */
function splitFlags(args: string): Flags {
  const flags = new Map<string, string[]>();
  let rest = args.trimStart();
  for (;;) {
    const m = /^--([A-Za-z][A-Za-z0-9-]*)(?:=("[^"]*"|'[^']*'|\S*))?(?:\s+|$)/.exec(rest);
    if (!m) break;
    const value = unquote(m[2] ?? 'true');
    const name = m[1]!.toLowerCase();
    const list = flags.get(name);
    if (list) list.push(value);
    else flags.set(name, [value]);
    rest = rest.slice(m[0].length);
  }
  return { flags, rest };
}

function unquote(s: string): string {
  if (s.length >= 2 && ((s.startsWith('"') && s.endsWith('"')) || (s.startsWith("'") && s.endsWith("'")))) return s.slice(1, -1);
  return s;
}

/** JSON-array form (`["a", "b"]`) or whitespace-separated words. */
export function splitWords(rest: string): { words: string[]; json: boolean } {
  const t = rest.trim();
  if (t.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(t);
      if (Array.isArray(parsed) && parsed.every((x) => typeof x === 'string')) return { words: parsed as string[], json: true };
    } catch {
      /* not JSON: shell form */
    }
  }
  return { words: t.split(/\s+/).filter((w) => w !== '').map(unquote), json: false };
}

/** `KEY=value …` pairs (quotes allowed), or the legacy `KEY value` form. */
function parseAssignments(rest: string, legacyAllowed: boolean): [string, string | undefined][] {
  const t = rest.trim();
  if (legacyAllowed && /^[^\s=]+\s/.test(t) && !/^[^\s=]+=/.test(t)) {
    const m = /^(\S+)\s+([\s\S]*)$/.exec(t)!;
    return [[m[1]!, unquote(m[2]!.trim())]];
  }
  const out: [string, string | undefined][] = [];
  const re = /([^\s=]+)(?:=("(?:[^"\\]|\\.)*"|'[^']*'|\S*))?/g;
  for (const m of t.matchAll(re)) out.push([m[1]!, m[2] === undefined ? undefined : unquote(m[2])]);
  return out;
}

function joinPath(base: string, p: string): string {
  const abs = p.startsWith('/') ? p : `${base.replace(/\/$/, '')}/${p}`;
  const parts: string[] = [];
  for (const seg of abs.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return '/' + parts.join('/');
}

function parseMount(spec: string): Mount {
  const fields = new Map<string, string>();
  for (const part of spec.split(',')) {
    const eq = part.indexOf('=');
    fields.set((eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase(), eq < 0 ? 'true' : unquote(part.slice(eq + 1).trim()));
  }
  return {
    type: fields.get('type') ?? 'bind',
    from: fields.get('from'),
    source: fields.get('source') ?? fields.get('src') ?? '',
    target: fields.get('target') ?? fields.get('dst') ?? fields.get('destination') ?? '',
  };
}

const REMOTE = /^(?:[a-z][a-z0-9+.-]*:\/\/|git@)/i;

interface Scope {
  globals: Map<string, string>;
  buildArgs: ReadonlyMap<string, string | undefined>;
  vars: Map<string, string>;
  /** ENV only: what a stage built `FROM` this one inherits. */
  env: Map<string, string>;
  workdir: string;
}

class StageBuilder {
  readonly stages: Stage[] = [];
  readonly problems: { line: number; reason: string }[] = [];
  private scope: Scope | undefined;
  private readonly stageEnv = new Map<number, { env: Map<string, string>; workdir: string }>();
  private readonly globals = new Map<string, string>();
  readonly args = new Set<string>();
  readonly envNames = new Set<string>();
  /** Per global ARG: the ARGs without a value its default used. */
  private readonly globalUnresolved = new Map<string, string[]>();

  constructor(
    private readonly buildArgs: ReadonlyMap<string, string | undefined>,
    private readonly escape: string,
  ) {}

  add(ins: RawInstruction): void {
    switch (ins.keyword) {
      case 'FROM':
        return this.from(ins);
      case 'ARG':
        return this.arg(ins);
      case 'ENV':
        return this.envInstruction(ins);
      case 'WORKDIR':
        return this.workdir(ins);
      case 'COPY':
      case 'ADD':
        return this.copy(ins);
      case 'RUN':
        return this.run(ins);
      default:
        if (!this.scope && ins.keyword !== 'ONBUILD') this.problems.push({ line: ins.line, reason: `${ins.keyword} before the first FROM` });
    }
  }

  private expand(text: string, placeholder?: string): Expansion {
    return expandVariables(text, this.scope?.vars ?? this.globals, placeholder, this.escape);
  }

  private from(ins: RawInstruction): void {
    const { rest } = splitFlags(ins.args);
    const words = rest.trim().split(/\s+/);
    // BuildKit reads the image as a shell word: `FROM "gcr.io/distroless/static"` names the image inside the
    // quotes (kind's images do this); single quotes take it literally, with no substitution
    const word = words[0] ?? '';
    const quote = word.length >= 2 && (word[0] === '"' || word[0] === "'") && word.endsWith(word[0]) && !word.slice(1, -1).includes(word[0]) ? word[0] : undefined;
    const baseWritten = quote ? word.slice(1, -1) : word;
    const at = ins.args.length - rest.trimStart().length + (quote ? 1 : 0);
    const expansion: Expansion = quote === "'" ? { value: baseWritten, unresolved: [], used: [] } : expandVariables(baseWritten, this.globals, undefined, this.escape);
    const base = expansion.value;
    const name = words.length >= 3 && words[1]!.toUpperCase() === 'AS' ? words[2]!.toLowerCase() : undefined;
    const index = this.stages.length;
    const parent = this.findStage(base);
    const inherited = parent === undefined ? undefined : this.stageEnv.get(parent);
    const env = new Map(inherited?.env ?? []);
    this.scope = { globals: this.globals, buildArgs: this.buildArgs, vars: new Map(env), env, workdir: inherited?.workdir ?? '/' };
    this.stageEnv.set(index, { env, workdir: this.scope.workdir });
    const stage: Stage = { index, name, base, baseWritten, baseUnresolved: this.unresolvedOf(expansion), line: ins.line, ops: [] };
    const span = argsSpan(ins, at, at + baseWritten.length);
    if (span) stage.baseSpan = span;
    if (parent !== undefined) stage.baseStage = parent;
    else {
      const per = platformNamed(base, this.stages.map((s) => s.name));
      if (per.length > 0) stage.baseStages = per;
    }
    this.stages.push(stage);
  }

  /** Names an expansion over the globals lacked, including those the used ARGs' defaults lacked. */
  private unresolvedOf(e: Expansion): string[] {
    return [...new Set([...e.unresolved, ...e.used.flatMap((n) => this.globalUnresolved.get(n) ?? [])])];
  }

  /** Index of an earlier stage named (or numbered) `ref`. */
  findStage(ref: string): number | undefined {
    const lower = ref.toLowerCase();
    const byName = this.stages.find((s) => s.name === lower);
    if (byName) return byName.index;
    if (/^\d+$/.test(ref) && Number(ref) < this.stages.length) return Number(ref);
    return undefined;
  }

  private arg(ins: RawInstruction): void {
    for (const [name, def] of parseAssignments(ins.args, false)) {
      this.args.add(name);
      const given = this.buildArgs.get(name);
      if (given === undefined && this.buildArgs.has(name)) {
        // given a value known only when the build runs: no value, and no default either
        if (!this.scope) {
          this.globals.delete(name);
          this.globalUnresolved.set(name, [name]);
        } else this.scope.vars.delete(name);
        continue;
      }
      if (!this.scope) {
        const e = given === undefined && def !== undefined ? this.expand(def) : undefined;
        const value = given ?? e?.value;
        if (value !== undefined) this.globals.set(name, value);
        this.globalUnresolved.set(name, e ? this.unresolvedOf(e) : []);
        continue;
      }
      const value = given ?? (def === undefined ? this.globals.get(name) : this.expand(def).value);
      if (value !== undefined) this.scope.vars.set(name, value);
    }
  }

  private envInstruction(ins: RawInstruction): void {
    if (!this.scope) return;
    for (const [name, raw] of parseAssignments(ins.args, true)) {
      this.envNames.add(name);
      const value = this.expand(raw ?? '').value;
      this.scope.vars.set(name, value);
      this.scope.env.set(name, value);
    }
  }

  private workdir(ins: RawInstruction): void {
    if (!this.scope) return;
    this.scope.workdir = joinPath(this.scope.workdir, this.expand(ins.args.trim()).value);
    this.stageEnv.get(this.stages.length - 1)!.workdir = this.scope.workdir;
  }

  private current(): Stage | undefined {
    return this.stages[this.stages.length - 1];
  }

  private copy(ins: RawInstruction): void {
    const stage = this.current();
    if (!stage || !this.scope) return;
    const { flags, rest } = splitFlags(ins.args);
    const { words } = splitWords(rest);
    if (words.length < 2) {
      this.problems.push({ line: ins.line, reason: `${ins.keyword} needs at least one source and a destination: "${ins.args.trim()}"` });
      return;
    }
    const dest = this.expand(words[words.length - 1]!).value;
    const dropped: CopyOp['dropped'] = [];
    const unresolved: string[] = [];
    const sources: string[] = [];
    for (const word of words.slice(0, -1)) {
      if (/^<<-?["']?[A-Za-z_]/.test(word)) {
        dropped.push({ source: word, reason: 'heredoc (inline file)' });
        continue;
      }
      const e = this.expand(word, '*');
      unresolved.push(...e.unresolved);
      if (REMOTE.test(e.value)) {
        dropped.push({ source: e.value, reason: /^git@|\.git(#|$)|^git:/.test(e.value) ? 'git repository' : 'URL' });
        continue;
      }
      sources.push(e.value);
    }
    const from = flags.get('from')?.[0];
    stage.ops.push({
      op: 'copy',
      keyword: ins.keyword as 'COPY' | 'ADD',
      line: ins.line,
      from: from === undefined ? undefined : this.expand(from).value,
      sources,
      // a dest ending in `/`, or `.`/`..` (the workdir and its parent are directories), takes the sources into it
      dest: ((d) => ((dest.endsWith('/') || /(^|\/)\.\.?$/.test(dest)) && d !== '/' ? `${d}/` : d))(joinPath(this.scope.workdir, dest)),
      workdir: this.scope.workdir,
      unresolved: [...new Set(unresolved)],
      excludes: flags.get('exclude') ?? [],
      dropped,
    });
  }

  private run(ins: RawInstruction): void {
    const stage = this.current();
    if (!stage || !this.scope) return;
    const { flags, rest } = splitFlags(ins.args);
    const { words, json } = splitWords(rest);
    const text = json ? words.join(' ') : rest;
    const bodies = ins.heredocs.map((h) => h.body);
    const command = this.expand([text, ...bodies].join('\n')).value;
    const mounts = (flags.get('mount') ?? []).map((m) => parseMount(this.expand(m).value));
    stage.ops.push({ op: 'run', line: ins.line, command, mounts, workdir: this.scope.workdir });
  }
}

/**
 * Parse a Dockerfile. `buildArgs` are `--build-arg` values from the recipe; they
 * override ARG defaults (one whose value is undefined is given but known only when
 * the build runs: the ARG has no value here, not its default). Never throws: unreadable lines land in `problems`.
 */
export function parseDockerfile(text: string, buildArgs: ReadonlyMap<string, string | undefined> = new Map()): ParsedDockerfile {
  return parseLexed(lexDockerfile(text), buildArgs);
}

/** `parseDockerfile` over an already lexed file (for a reader that needs the lexer's own problems apart). */
export function parseLexed(lexed: LexedDockerfile, buildArgs: ReadonlyMap<string, string | undefined> = new Map()): ParsedDockerfile {
  const builder = new StageBuilder(buildArgs, lexed.escape);
  for (const ins of lexed.instructions) builder.add(ins);
  return { directives: lexed.directives, stages: builder.stages, args: builder.args, envNames: builder.envNames, problems: [...lexed.problems, ...builder.problems] };
}

export { joinPath };
