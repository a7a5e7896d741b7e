/**
 * Cheap textual tests that tell, before the costly reading, what cannot add to
 * the build model, so it is not read: an expanded recipe command that names no
 * tool the command reader acts on is not shell-parsed, and a Makefile that
 * (with the files it includes) spells no build or pin-write tool anywhere is not
 * loaded unless the build entry reaches it. Each test errs towards "maybe":
 * a false "maybe" costs time, a false "no" would lose a recipe or a producer.
 */
import * as path from 'node:path';
import type { MakeFileSystem } from '../make/index.js';

/**
 * What commands.ts turns into a build or a pin write: the program names it acts on
 * (readBuild: docker, nerdctl, podman, buildah; ko/command.ts: ko; yq -i, sed -i)
 * and the `.tag` file a redirect stamps. A substring test, so `docker` also covers
 * `/usr/bin/docker`, and `ko` anything spelling it.
 */
export const BUILD_OR_WRITE_WORDS: readonly string[] = ['docker', 'nerdctl', 'podman', 'buildah', 'ko', 'yq', 'sed', '.tag'];

/** What makes a file a later build of the same recipe may read (made.ts): `cp`, `go build -o`. */
export const MADE_WORDS: readonly string[] = ['cp', 'go'];

/** What makes a sub-make (`make`, `gmake`, Make's `$(MAKE)` once expanded). */
export const SUB_MAKE_WORDS: readonly string[] = ['make'];

/** Whether `text` spells one of `words`, also with quotes or backslashes inside (`"doc"ker`, `do\\cker`: one shell word, `docker`). */
function spells(text: string, words: readonly string[]): boolean {
  const any = anyOf(words);
  if (any.test(text)) return true;
  return /["'\\]/.test(text) && any.test(text.replace(/["'\\]/g, ''));
}

const alternations = new WeakMap<readonly string[], RegExp>();

/** One regex for a word list (faster than a test per word). */
function anyOf(words: readonly string[]): RegExp {
  let re = alternations.get(words);
  if (!re) alternations.set(words, (re = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'))));
  return re;
}

/**
 * Whether an expanded command (one shell line, as Make runs it) may hold a simple
 * command the reader acts on (commands.ts): it spells one of `words`, or a shell
 * variable can bring one in. The command reader resolves `$X`/`${X}` from the
 * environment it is given (`env`: Make's exported variables) and from assignments
 * earlier on the line (`X=…`, `export X=…`), and leaves `$(…)` and backquotes as
 * written; so a word it acts on is spelled in the line unless a variable is
 * referenced and either the environment is not empty or the line assigns one.
 */
export function commandMayAct(text: string, words: readonly string[], env?: ReadonlyMap<string, string>): boolean {
  if (text.includes('$') && ((env !== undefined && env.size > 0) || text.includes('='))) return true;
  return spells(text, words);
}

/**
 * What a line of a one-shell script (a workflow `run:`) can be to the command reader: a build, a pin write or a
 * `make` call, or a `cd` that moves the lines after it (variables: an `=` below).
 */
export const SCRIPT_WORDS: readonly string[] = [...BUILD_OR_WRITE_WORDS, ...SUB_MAKE_WORDS, 'cd'];

/**
 * The lines of a one-shell script (a workflow `run:`, in order) that may matter to the command reader (commands.ts
 * with `oneShell`), which parses each line on its own and carries only variables and the directory from line to
 * line. A line matters when it spells one of SCRIPT_WORDS (quotes and backslashes inside a word ignored), or may
 * set a variable a later line reads (any `=`: an assignment, `export X=…`), or references a variable (`$`) whose
 * value may spell one: the reader resolves `$X` from the step env and the script's own assignments, so that is
 * when some env value spells one, or an earlier line (or this one) has an `=`. Any other line adds nothing and
 * changes nothing the later lines see, so it is not parsed.
 */
export function scriptLinesMayAct<T extends { text: string }>(lines: readonly T[], env: ReadonlyMap<string, string> = new Map()): T[] {
  let varsMaySpell = [...env.values()].some((v) => spells(v, SCRIPT_WORDS));
  return lines.filter(({ text }) => {
    if (text.includes('=')) {
      varsMaySpell = true;
      return true;
    }
    return (varsMaySpell && text.includes('$')) || spells(text, SCRIPT_WORDS);
  });
}

/** Reads a file's text once per run (undefined: unreadable), shared by the tests below. */
export type TextOf = (abs: string) => string | undefined;

export function textReader(fs: MakeFileSystem): TextOf {
  const texts = new Map<string, string | undefined>();
  return (abs) => {
    if (!texts.has(abs)) texts.set(abs, fs.readFile(abs));
    return texts.get(abs);
  };
}

const INCLUDE_DIRECTIVE = /^[ \t]*(-|s)?include[ \t]+(.*)$/;
const MAX_INCLUDE_DEPTH = 20;

/**
 * Whether reading the Makefile at `abs` (run in `dir`) may find a build or a pin
 * write: some file it reads — itself and, followed as the reader follows them,
 * the files its `include` lines name — spells one of BUILD_OR_WRITE_WORDS
 * (a recipe line, or a variable a recipe line expands). "Maybe" whenever the
 * text cannot tell: an unreadable file, an `include` whose name is computed
 * (`$(…)`), a glob or continued, "include" anywhere but an include line (an
 * `$(eval)`), a required include that does not exist, an include loop or too
 * deep a nesting (each of those also makes the reader report a problem, so the
 * file is read and the problem listed as before).
 */
export function makefileMayAct(abs: string, dir: string, fs: MakeFileSystem, textOf: TextOf = textReader(fs)): boolean {
  const visiting = new Set<string>();
  const visit = (file: string, depth: number): boolean => {
    if (depth > MAX_INCLUDE_DEPTH || visiting.has(file)) return true;
    const text = textOf(file);
    if (text === undefined) return true;
    if (spells(text, BUILD_OR_WRITE_WORDS)) return true;
    if (!text.includes('include')) return false;
    visiting.add(file);
    try {
      for (const line of text.split('\n')) {
        if (!line.includes('include') || /^[ \t]*#/.test(line)) continue;
        const m = INCLUDE_DIRECTIVE.exec(line.replace(/\r$/, ''));
        if (!m) return true;
        const names = m[2]!.replace(/#.*$/, '').trim();
        if (/[$*?[\]\\]/.test(names)) return true;
        for (const name of names.split(/[ \t]+/).filter((n) => n !== '')) {
          // The reader's lookup: make's directory first, then the including file's.
          const found = [path.resolve(dir, name), path.resolve(path.dirname(file), name)].find((c) => fs.exists(c));
          if (!found) {
            if (m[1]) continue; // `-include`/`sinclude` of a missing file: make reads nothing, says nothing
            return true;
          }
          if (visit(found, depth + 1)) return true;
        }
      }
      return false;
    } finally {
      visiting.delete(file);
    }
  };
  return visit(abs, 0);
}
