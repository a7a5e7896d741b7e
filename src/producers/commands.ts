/**
 * What one target's expanded recipe does, command by command: the pin writes
 * (`yq -i`, `sed -i`, `> x.tag`), the image builds (`docker buildx build`,
 * `docker build`, `buildah bud`, `podman build`, `ko build`) and the sub-makes it runs
 * (`make -C DIR target`). Shell variables set earlier on a line (`X=…;`,
 * `export X=…`) and `cd DIR` are followed within that line, as the shell would.
 */
import * as path from 'node:path';
import type { ExpandedCommand } from '../make/index.js';
import { parseShell, resolveWord, wordText, type SimpleCommand } from '../shell/shell.js';
import { sedLineFilter } from './sed-pattern.js';
import { envReads, readYqArgs, yqAssignments, yqPathToKeyPath } from './yq.js';
import { readBuild, type FoundBuild } from './build-command.js';
import { readKoArgs } from './ko/index.js';
import { readMade, type MadeFile } from './made.js';
import type { SubMake } from './types.js';

export interface FoundWrite {
  /** Absolute path of the written file. */
  abs: string;
  keyPath?: string;
  via: 'yq' | 'sed' | 'redirect';
  /** The value written, as text (before the shell runs), for lockstep grouping. */
  value: string;
  /** Set when the value is a copy of a key (or a whole file) in another file. */
  copyOf?: { abs: string; keyPath?: string };
  source: { file: string; line: number };
  /** Position among the target's commands, to tie writes to the build before them. */
  order: number;
  /** `sed -i`: the regexes a line must match to be edited (search pattern, address); absent: every line. */
  lineFilter?: RegExp[];
}

export type { SubMake } from './types.js';

export interface CommandFacts {
  writes: FoundWrite[];
  builds: FoundBuild[];
  makes: SubMake[];
  /** What a line makes for a later build to read (`cp SRC… DEST`, `go build -o OUT PKG…`): made.ts. */
  made?: MadeFile[];
  /** A workflow step's outputs its script writes (`echo "NAME=$VALUE" >> $GITHUB_OUTPUT`), values as the shell has them. */
  stepOutputs?: Map<string, string>;
  /** Images given another name (`docker tag`, `docker manifest create`, `docker buildx imagetools create`): retag.ts. */
  retags?: Retag[];
}

/** `to` names what `from` names (a retag), or a manifest list of them (each of `from` one platform of it). */
export interface Retag {
  from: string[];
  to: string;
  source: { file: string; line: number };
}

const INPLACE_SED = /^(?:-i.*|--in-place(?:=.*)?|-[EnrsuzE]*i.*)$/;
const IMAGE_HINT = /image|sha256|@/i;

/**
 * `env`: variables set before the commands run (a workflow step's env).
 * `oneShell`: the commands are lines of one script (a workflow `run:`), so
 * variables and `cd` carry from line to line; Make runs each line in a shell of its own.
 */
export interface ReadCommandsOptions {
  env?: ReadonlyMap<string, string>;
  /** `cwd` was spelled from `/` (an absolute `working-directory`): folders reached from it are shown as such outside the repository (SubMake.fromSlash). */
  cwdFromSlash?: boolean;
  oneShell?: boolean;
  /**
   * Under a make call's own variables (producers/repo.ts followedReads): the same recipe line as the
   * Makefile's plain reading expands it. A `sed -i` replacement that reading does not spell came from
   * the call's variables (`MANIFEST_IMG=… $(MAKE) set-manifest-image`): a variable's value, so a stamp.
   */
  plainLine?: (c: ExpandedCommand) => string | undefined;
}

/** Parsed lines by text: a followed walk reads the same recipe lines once per CI-step environment, most expanding alike. */
const parsed = new Map<string, SimpleCommand[]>();
const PARSED_MAX = 4096;

/** parseShell(text), shared between readings of the same text: read only (readCommands never modifies it). */
function parsedLine(text: string): SimpleCommand[] {
  let commands = parsed.get(text);
  if (!commands) {
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(text, (commands = parseShell(text)));
  }
  return commands;
}

export function readCommands(commands: ExpandedCommand[], cwd: string, options: ReadCommandsOptions = {}): CommandFacts {
  const facts: CommandFacts = { writes: [], builds: [], makes: [] };
  let order = 0;
  const initial: ReadonlyMap<string, string> = options.env ?? new Map();
  // The shell variables: the environment until a line assigns one (then a copy of its own), so a line that assigns none copies nothing.
  let vars: ReadonlyMap<string, string> = initial;
  let own: Map<string, string> | undefined;
  const setVar = (k: string, v: string) => {
    if (!own) vars = own = new Map(vars);
    own.set(k, v);
  };
  let dir = cwd;
  /** `dir` was reached from an absolute spelling (SubMake.fromSlash). */
  const startsFromSlash = options.cwdFromSlash ?? false;
  let fromSlash = startsFromSlash;
  for (const c of commands) {
    if (c.text.startsWith('#')) continue;
    if (!options.oneShell) {
      vars = initial;
      own = undefined;
      dir = cwd;
      fromSlash = startsFromSlash;
    }
    for (const sc of parsedLine(c.text)) {
      order++;
      const source = { file: c.file, line: c.line };
      const assigned = sc.assignments.map((a) => [a.name, resolveWord(a.value, vars)] as const);
      if (sc.args.length === 0) {
        for (const [k, v] of assigned) setVar(k, v);
        continue;
      }
      const env: ReadonlyMap<string, string> = assigned.length > 0 ? new Map([...vars, ...assigned]) : vars;
      const argv = withStdinDockerfile(sc.args.map((w) => resolveWord(w, vars)), sc, vars);
      const name = path.posix.basename(argv[0] ?? '');
      if (['export', 'local', 'declare', 'readonly', 'typeset'].includes(name)) {
        for (const a of argv.slice(1)) {
          const m = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/.exec(a);
          if (m) setVar(m[1]!, m[2]!);
        }
        continue;
      }
      if (name === 'cd' && argv[1]) {
        dir = path.resolve(dir, argv[1]);
        fromSlash ||= path.isAbsolute(argv[1]);
        continue;
      }
      const ctx = { dir, env, source, order, ...(options.plainLine ? { plain: () => options.plainLine!(c) } : {}) };
      if (name === 'make' || name === 'gmake') facts.makes.push(readMake(argv.slice(1), dir, source, fromSlash, assigned));
      else if (name === 'yq') readYq(argv.slice(1), ctx, facts);
      else if (name === 'sed') readSed(argv.slice(1), ctx, facts);
      else if (name === 'echo') readStepOutput(argv, sc, facts);
      const made = readMade(name, argv, dir, source, order);
      if (made) (facts.made ??= []).push(made);
      const build = readBuild(argv, dir, c.text, source, order, fromSlash);
      if (build) facts.builds.push(build);
      const ko = readKoArgs(argv, dir, env);
      if (ko) facts.builds.push({ tool: `ko ${ko.verb}`, context: dir, tags: [], outputs: [], command: c.text, source, order, ko });
      readTagRedirect(name, argv, sc, ctx, facts, vars);
      const retags = readRetags(argv, source);
      if (retags.length > 0) (facts.retags ??= []).push(...retags);
    }
  }
  return facts;
}

/** `echo NAME=VALUE >> $GITHUB_OUTPUT` (quoted or not, `-n`/`-e` aside): the step output and its value, the line's variables resolved. */
function readStepOutput(argv: readonly string[], sc: SimpleCommand, facts: CommandFacts): void {
  if (!sc.redirects.some((r) => r.op === '>>' && /^\$\{?GITHUB_OUTPUT\}?$/.test(wordText(r.target)))) return;
  const text = argv.slice(1).filter((a, i) => !(i === 0 && /^-[neE]+$/.test(a))).join(' ');
  const m = /^([A-Za-z_][A-Za-z0-9_-]*)=([\s\S]*)$/.exec(text);
  if (m) (facts.stepOutputs ??= new Map()).set(m[1]!, m[2]!);
}

/**
 * A build reading its Dockerfile from stdin (`--file -`, `-f -`) gets the file stdin is: `cat FILE |`
 * before it (cluster-api's `cat ./Dockerfile | docker build … --file -`) or `< FILE`; otherwise as written.
 */
function withStdinDockerfile(argv: string[], sc: SimpleCommand, vars: ReadonlyMap<string, string>): string[] {
  const at = argv.findIndex((a, i) => (a === '-' && (argv[i - 1] === '-f' || argv[i - 1] === '--file')) || a === '--file=-');
  if (at === -1) return argv;
  const from = sc.redirects.find((r) => r.op === '<')?.target;
  const cat = sc.pipedFrom?.args.map((w) => resolveWord(w, vars));
  const file = from ? resolveWord(from, vars) : cat && cat[0] === 'cat' && cat.length === 2 && !cat[1]!.startsWith('-') ? cat[1] : undefined;
  if (file === undefined) return argv;
  const out = [...argv];
  out[at] = argv[at] === '--file=-' ? `--file=${file}` : file;
  return out;
}

interface Ctx {
  dir: string;
  env: ReadonlyMap<string, string>;
  source: { file: string; line: number };
  order: number;
  /** ReadCommandsOptions `plainLine` of this command's line, asked when needed. */
  plain?: () => string | undefined;
}

function readYq(args: string[], ctx: Ctx, facts: CommandFacts): void {
  const call = readYqArgs(args);
  if (!call.inPlace || !call.expression) return;
  for (const a of yqAssignments(call.expression)) {
    if (!mayHoldRef(a.rhs)) continue;
    const value = envReads(a.rhs).reduce((v, name) => v.replace(new RegExp(`\\b(?:str)?env\\(\\s*${name}\\s*\\)`, 'g'), ctx.env.get(name) ?? `$${name}`), a.rhs);
    const single = envReads(a.rhs).length === 1 && /^\s*(?:str)?env\(\s*[A-Za-z_]\w*\s*\)\s*$/.test(a.rhs);
    for (const f of call.files) {
      const abs = path.resolve(ctx.dir, f);
      const copyOf = single ? copySource(value, ctx.dir) : undefined;
      facts.writes.push({ abs, keyPath: a.keyPath, via: 'yq', value, ...(copyOf ? { copyOf } : {}), source: ctx.source, order: ctx.order });
    }
  }
}

function readSed(args: string[], ctx: Ctx, facts: CommandFacts): void {
  let inPlace = false;
  let extended = false;
  const scripts: string[] = [];
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--regexp-extended' || /^-[A-Za-z]+$/.test(a) && /[Er]/.test(a.slice(1).split('i')[0]!)) extended = true;
    if (INPLACE_SED.test(a)) {
      inPlace = true;
      if (a === '-i' && args[i + 1] === '') i++;
    } else if (a === '-e' || a === '--expression') scripts.push(args[++i] ?? '');
    else if (a === '-f' || a === '--file') i++;
    else if (a.startsWith('-') && a !== '-') continue;
    else positional.push(a);
  }
  if (!inPlace) return;
  if (scripts.length === 0 && positional.length > 0) scripts.push(positional.shift()!);
  const script = scripts.join('\n');
  if (!IMAGE_HINT.test(script)) return;
  const replacement = sedReplacement(script).replace(/^\s*[A-Za-z0-9_.-]+:\s+/, '');
  // a template edit (`image: {{ .Values.x }}`) is no stamp, nor is a constant: the replacement holds a variable or a
  // digest, or a make call's variables spelled it
  if (replacement.includes('{{')) return;
  if (!/\$|@sha256:/.test(replacement) && !fromCall(replacement.trim(), ctx.plain)) return;
  const keyPath = sedKeyPath(script);
  const lineFilter = sedLineFilter(script, extended);
  for (const f of positional) {
    facts.writes.push({ abs: path.resolve(ctx.dir, f), ...(keyPath ? { keyPath } : {}), via: 'sed', value: replacement, source: ctx.source, order: ctx.order, ...(lineFilter ? { lineFilter } : {}) });
  }
}

/** A replacement spelled like a ref (a path, a tag or a digest) that the Makefile's plain reading of the line does not spell. */
function fromCall(replacement: string, plain: (() => string | undefined) | undefined): boolean {
  if (!plain || !/^[^\s:/@]+[:/@]\S+$/.test(replacement)) return false;
  const text = plain();
  return text !== undefined && !text.includes(replacement);
}

/** The replacement of the first `s` command (`s|from|to|g` → `to`), else the script. */
function sedReplacement(script: string): string {
  const m = /(?:^|[;\n\s/])s(.)/.exec(script);
  if (!m) return script;
  const d = m[1]!;
  const start = m.index + m[0].length;
  const parts = script.slice(start).split(d);
  return parts[1] ?? script;
}

/** A top-level key the script evidently rewrites: `s|^key: .*|…|`. */
function sedKeyPath(script: string): string | undefined {
  const m = /s(.)\^([A-Za-z0-9_.-]+):/.exec(script);
  return m ? m[2] : undefined;
}

/**
 * A right-hand side that can be a ref: not an object, array, number, boolean or
 * null literal, and not a quoted word that no ref is spelled like (`"object"`,
 * `"integer"`, `""`: a schema edit, not a stamp), nor the output of a command
 * spliced unquoted into the expression. A quoted literal with `/`, `:`, `@` or
 * `.` (`"reg/x:v1"`, `"v1.2.3"`) still counts, and so does `"$(cmd)"`.
 */
function mayHoldRef(rhs: string): boolean {
  const t = rhs.trim();
  if (/^(?:\{.*\}|\[.*\]|-?\d+(?:\.\d+)?|true|false|null)$/s.test(t)) return false;
  // Command output spliced unquoted into the expression is yq syntax (a list, a map): a ref there would not parse.
  if (/^\$\([\s\S]*\)$|^`[\s\S]*`$/.test(t)) return false;
  return !/^(?:"[A-Za-z0-9_-]*"|'[A-Za-z0-9_-]*')$/.test(t);
}

/**
 * `docker tag SRC DST` (`docker image tag`, podman and nerdctl alike), `docker manifest create [-a] DST SRC…`,
 * `docker buildx imagetools create -t DST SRC…`: DST is what SRC names, under another name (thanos tags each
 * per-architecture build `quay.io/thanos/thanos-linux-<arch>` and lists them in the manifest `quay.io/thanos/thanos`).
 */
function readRetags(argv: readonly string[], source: { file: string; line: number }): Retag[] {
  const base = path.posix.basename(argv[0] ?? '');
  if (base !== 'docker' && base !== 'podman' && base !== 'nerdctl') return [];
  const rest = argv[1] === 'image' ? argv.slice(2) : argv.slice(1);
  const words = (from: number, valueFlags: readonly string[]) => {
    const out: string[] = [];
    const tags: string[] = [];
    for (let i = from; i < rest.length; i++) {
      const a = rest[i]!;
      if (a === '-t' || a === '--tag') tags.push(rest[++i] ?? '');
      else if (a.startsWith('--tag=')) tags.push(a.slice(6));
      else if (valueFlags.includes(a)) i++;
      else if (!a.startsWith('-')) out.push(a);
    }
    return { out, tags };
  };
  if (rest[0] === 'tag') {
    const { out } = words(1, []);
    // podman tags one image with several names
    return out.length >= 2 ? out.slice(1).map((to) => ({ from: [out[0]!], to, source })) : [];
  }
  if (rest[0] === 'manifest' && rest[1] === 'create') {
    const { out } = words(2, ['--os', '--arch', '--variant']);
    return out.length >= 2 ? [{ from: out.slice(1), to: out[0]!, source }] : [];
  }
  if (rest[0] === 'buildx' && rest[1] === 'imagetools' && rest[2] === 'create') {
    const { out, tags } = words(3, ['-f', '--file', '--progress', '--builder', '--annotation', '-p']);
    return out.length >= 1 ? tags.map((to) => ({ from: out, to, source })) : [];
  }
  return [];
}

/** `> x.tag` (and `>>`): the stdout of echo/printf/cat/yq stored as a one-ref file. */
function readTagRedirect(name: string, argv: string[], sc: SimpleCommand, ctx: Ctx, facts: CommandFacts, vars: ReadonlyMap<string, string>): void {
  for (const r of sc.redirects) {
    if (!/^(?:1?>>?|>\||&>>?)$/.test(r.op)) continue;
    const target = resolveWord(r.target, vars);
    if (!target.endsWith('.tag')) continue;
    const abs = path.resolve(ctx.dir, target);
    let value = argv.slice(1).join(' ');
    let copyOf: FoundWrite['copyOf'];
    if (name === 'yq') {
      const call = readYqArgs(argv.slice(1));
      const key = call.expression ? yqPathToKeyPath(call.expression) : undefined;
      if (key && call.files[0]) copyOf = { abs: path.resolve(ctx.dir, call.files[0]), keyPath: key };
    } else if (name === 'cat' && argv.length === 2) {
      copyOf = { abs: path.resolve(ctx.dir, argv[1]!) };
    } else if (name === 'echo' || name === 'printf') {
      value = argv.slice(1).filter((a) => !/^-[neE]+$/.test(a)).join(' ');
      copyOf = copySource(value, ctx.dir);
    }
    facts.writes.push({ abs, via: 'redirect', value, ...(copyOf ? { copyOf } : {}), source: ctx.source, order: ctx.order });
  }
}

/** `$(cat F)` or `$(yq [e] .a.b F)` as the whole value: a copy of that file or key. */
function copySource(value: string, dir: string): FoundWrite['copyOf'] {
  const v = value.trim();
  const cat = /^\$\(\s*cat\s+([^\s()]+)\s*\)$/.exec(v);
  if (cat) return { abs: path.resolve(dir, cat[1]!) };
  const yq = /^\$\(\s*yq\s+(?:(?:e|eval)\s+)?(['"]?)(\.[^'"\s]+)\1\s+([^\s()]+)\s*\)$/.exec(v);
  if (yq) {
    const key = yqPathToKeyPath(yq[2]!);
    if (key) return { abs: path.resolve(dir, yq[3]!), keyPath: key };
  }
  return undefined;
}

function readMake(args: string[], dir: string, source: { file: string; line: number }, dirFromSlash: boolean, assigned: readonly (readonly [string, string])[]): SubMake {
  const sub: SubMake = { dir, targets: [], variables: {}, ...(assigned.length > 0 ? { env: Object.fromEntries(assigned) } : {}), source };
  let fromSlash = dirFromSlash;
  const into = (d: string) => {
    sub.dir = path.resolve(sub.dir, d);
    fromSlash ||= path.isAbsolute(d);
  };
  const valueFlags = new Set(['-j', '--jobs', '-l', '--load-average', '-o', '-W', '-I', '--include-dir']);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-C' || a === '--directory') into(args[++i] ?? '.');
    else if (a.startsWith('-C') && a.length > 2) into(a.slice(2));
    else if (a.startsWith('--directory=')) into(a.slice(12));
    else if (a === '-f' || a === '--file' || a === '--makefile') sub.file = args[++i];
    else if (a.startsWith('--file=') || a.startsWith('--makefile=')) sub.file = a.slice(a.indexOf('=') + 1);
    else if (valueFlags.has(a)) {
      if (a === '-j' && !/^\d+$/.test(args[i + 1] ?? '')) continue;
      i++;
    } else if (a.startsWith('-')) continue;
    else if (/^[A-Za-z_][A-Za-z0-9_.]*:?=/.test(a)) {
      const eq = a.indexOf('=');
      sub.variables[a.slice(0, eq).replace(/:$/, '')] = a.slice(eq + 1);
    } else sub.targets.push(a);
  }
  if (sub.file) sub.file = path.resolve(sub.dir, sub.file);
  if (fromSlash) sub.fromSlash = true;
  return sub;
}

