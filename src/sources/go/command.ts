/**
 * `go build` / `go install` invocations in a RUN command: splits the shell text
 * into simple commands (with src/shell/, `$(…)` kept whole), follows `cd`, skips
 * leading `VAR=value` assignments, and separates flags from package arguments.
 */
import { posix } from 'node:path';
import { commandSubstitutions, parseShell, wordText } from '../../shell/index.js';

export interface GoInvocation {
  verb: 'build' | 'install';
  /** Absolute in-container directory the command runs in (after `cd` and `-C`). */
  cwd: string;
  /** Package patterns or `.go` files as written; `.` when none are given. */
  packages: string[];
  /** The simple command, for steps. */
  text: string;
  /**
   * The custom build tags it sets (`-tags a,b`; none: empty), or undefined when they are not known here
   * (a value with a variable, a `GOFLAGS` assignment that can add some).
   */
  tags?: string[];
}

const VALUE_FLAGS = new Set([
  'o', 'p', 'C', 'asmflags', 'buildmode', 'compiler', 'gccgoflags', 'gcflags', 'installsuffix', 'ldflags', 'mod',
  'modfile', 'overlay', 'pgo', 'pkgdir', 'tags', 'toolexec', 'coverpkg', 'covermode', 'exec',
]);

export interface ShellCommand {
  /** Words with quotes removed, leading `NAME=value` assignments included. */
  words: string[];
  /** Set when the command runs inside a `$(…)` or backquoted substitution (its `cd` does not last). */
  nested: boolean;
}

/**
 * The simple commands of shell text, split by the one shell reader (src/shell/):
 * each command's substitutions come before it, as the shell runs them first.
 */
export function simpleCommandWords(text: string, nested = false): ShellCommand[] {
  const out: ShellCommand[] = [];
  for (const cmd of parseShell(text)) {
    const words = [...cmd.assignments.map((a) => a.value), ...cmd.args];
    for (const w of [...words, ...cmd.redirects.map((r) => r.target)]) for (const inner of commandSubstitutions(w)) out.push(...simpleCommandWords(inner, true));
    const texts = [...cmd.assignments.map((a) => `${a.name}=${wordText(a.value)}`), ...cmd.args.map(wordText)];
    if (texts.length > 0) out.push({ words: texts, nested });
  }
  return out;
}

const WRAPPERS = new Set(['env', 'exec', 'time', 'command', 'nice', 'xargs', 'then', 'do', 'else', '{']);

/** The words of a simple command after leading `VAR=value` assignments and wrappers (`env`, `exec`, …). */
export function commandWords(words: string[]): string[] {
  let i = 0;
  while (i < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!) || WRAPPERS.has(words[i]!))) i++;
  return words.slice(i);
}

function goArgs(args: string[], cwd: string): { cwd: string; packages: string[]; tags: string[] | undefined } {
  const packages: string[] = [];
  let dir = cwd;
  let tags: string[] | undefined = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      packages.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('-')) {
      const name = a.replace(/^--?/, '').split('=')[0]!;
      const inline = a.includes('=');
      const value = inline ? a.slice(a.indexOf('=') + 1) : VALUE_FLAGS.has(name) ? args[++i] : undefined;
      if (name === 'C' && value !== undefined) dir = posix.resolve(dir, value);
      // the last -tags wins, as in the go command; one it cannot read leaves the tags unknown
      if (name === 'tags') tags = value === undefined || value.includes('$') ? undefined : value.split(/[,\s]+/).filter((t) => t !== '');
      continue;
    }
    packages.push(a);
  }
  return { cwd: dir, packages: packages.length > 0 ? packages : ['.'], tags };
}

/** Every `go build` / `go install` in `command`, run from `workdir`. */
export function goInvocations(command: string, workdir: string): GoInvocation[] {
  const out: GoInvocation[] = [];
  let cwd = workdir;
  for (const { words: raw, nested } of simpleCommandWords(command)) {
    const words = commandWords(raw);
    if (words[0] === 'cd' && words[1] !== undefined) {
      if (nested) continue;
      cwd = posix.resolve(cwd, words[1]);
      continue;
    }
    if (!/(^|\/)go$/.test(words[0] ?? '') || (words[1] !== 'build' && words[1] !== 'install')) continue;
    const { cwd: dir, packages, tags } = goArgs(words.slice(2), cwd);
    // GOFLAGS (assigned on the line, or by an earlier command) can add -tags the line does not show
    const known = tags !== undefined && !/\bGOFLAGS\b/.test(command) ? { tags } : {};
    out.push({ verb: words[1], cwd: dir, packages, text: raw.join(' '), ...known });
  }
  return out;
}

const SCRIPT_RUNNERS = new Set(['make', 'gmake', 'sh', 'bash', 'ash', 'zsh', 'npm', 'yarn', 'pnpm', 'task', 'just', 'python', 'python3', 'perl', 'node']);

/**
 * A simple command in `command` that may read arbitrary copied files (make, a
 * shell script, `go generate`, `go run`), which Go narrowing cannot see; or undefined.
 */
export function fileReadingCommand(command: string): string | undefined {
  for (const { words: raw } of simpleCommandWords(command)) {
    const words = commandWords(raw);
    const first = words[0] ?? '';
    const name = first.split('/').pop() ?? '';
    if (SCRIPT_RUNNERS.has(name) || first.startsWith('./') || first.endsWith('.sh')) return words.join(' ');
    if (/(^|\/)go$/.test(first) && (words[1] === 'generate' || words[1] === 'run')) return words.join(' ');
  }
  return undefined;
}
