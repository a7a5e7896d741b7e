/**
 * `go build` / `go install` invocations in a RUN command: splits the shell text
 * into simple commands (`&&`, `||`, `;`, `|`, newlines), follows `cd`, skips
 * leading `VAR=value` assignments, and separates flags from package arguments.
 */
import { posix } from 'node:path';

export interface GoInvocation {
  verb: 'build' | 'install';
  /** Absolute in-container directory the command runs in (after `cd` and `-C`). */
  cwd: string;
  /** Package patterns or `.go` files as written; `.` when none are given. */
  packages: string[];
  /** The simple command, for steps. */
  text: string;
}

const VALUE_FLAGS = new Set([
  'o', 'p', 'C', 'asmflags', 'buildmode', 'compiler', 'gccgoflags', 'gcflags', 'installsuffix', 'ldflags', 'mod',
  'modfile', 'overlay', 'pgo', 'pkgdir', 'tags', 'toolexec', 'coverpkg', 'covermode', 'exec',
]);

/** Split shell text into simple commands, each a list of words (quotes removed). */
export function shellCommands(text: string): string[][] {
  const src = text.replace(/\\\r?\n/g, ' ');
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === "'") {
      const end = src.indexOf("'", i + 1);
      word += src.slice(i + 1, end < 0 ? undefined : end);
      inWord = true;
      i = end < 0 ? src.length : end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < src.length && src[j] !== '"'; j++) {
        if (src[j] === '\\' && j + 1 < src.length) j++;
        word += src[j];
      }
      inWord = true;
      i = j;
    } else if (c === '\\' && i + 1 < src.length) {
      word += src[++i];
      inWord = true;
    } else if (c === '#' && !inWord) {
      const nl = src.indexOf('\n', i);
      i = nl < 0 ? src.length : nl - 1;
    } else if (c === '&' || c === '|' || c === ';' || c === '\n' || c === '(' || c === ')') {
      endCommand();
    } else if (/\s/.test(c)) {
      endWord();
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}

const WRAPPERS = new Set(['env', 'exec', 'time', 'command', 'nice', 'xargs', 'then', 'do', 'else', '{']);

/** The words of a simple command after leading `VAR=value` assignments and wrappers (`env`, `exec`, …). */
export function commandWords(words: string[]): string[] {
  let i = 0;
  while (i < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!) || WRAPPERS.has(words[i]!))) i++;
  return words.slice(i);
}

function goArgs(args: string[], cwd: string): { cwd: string; packages: string[] } {
  const packages: string[] = [];
  let dir = cwd;
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
      continue;
    }
    packages.push(a);
  }
  return { cwd: dir, packages: packages.length > 0 ? packages : ['.'] };
}

/** Every `go build` / `go install` in `command`, run from `workdir`. */
export function goInvocations(command: string, workdir: string): GoInvocation[] {
  const out: GoInvocation[] = [];
  let cwd = workdir;
  for (const raw of shellCommands(command)) {
    const words = commandWords(raw);
    if (words[0] === 'cd' && words[1] !== undefined) {
      cwd = posix.resolve(cwd, words[1]);
      continue;
    }
    if (!/(^|\/)go$/.test(words[0] ?? '') || (words[1] !== 'build' && words[1] !== 'install')) continue;
    const { cwd: dir, packages } = goArgs(words.slice(2), cwd);
    out.push({ verb: words[1], cwd: dir, packages, text: raw.join(' ') });
  }
  return out;
}

const SCRIPT_RUNNERS = new Set(['make', 'gmake', 'sh', 'bash', 'ash', 'zsh', 'npm', 'yarn', 'pnpm', 'task', 'just', 'python', 'python3', 'perl', 'node']);

/**
 * A simple command in `command` that may read arbitrary copied files (make, a
 * shell script, `go generate`, `go run`), which Go narrowing cannot see; or undefined.
 */
export function fileReadingCommand(command: string): string | undefined {
  for (const raw of shellCommands(command)) {
    const words = commandWords(raw);
    const first = words[0] ?? '';
    const name = first.split('/').pop() ?? '';
    if (SCRIPT_RUNNERS.has(name) || first.startsWith('./') || first.endsWith('.sh')) return words.join(' ');
    if (/(^|\/)go$/.test(first) && (words[1] === 'generate' || words[1] === 'run')) return words.join(' ');
  }
  return undefined;
}
