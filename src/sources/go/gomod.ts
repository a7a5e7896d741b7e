/**
 * go.mod reader: the module path and `replace` directives (single and block
 * form). Only what build-input derivation needs; requirements are not read.
 */

export interface Replace {
  /** Module path being replaced (`example.com/x`), without version. */
  from: string;
  /** Replacement as written: a module path or a local directory (`./x`, `../y`). */
  to: string;
  /** True when `to` is a local directory. */
  local: boolean;
  line: number;
}

export interface GoMod {
  module?: string;
  replaces: Replace[];
  problems: { line: number; reason: string }[];
}

function stripComment(line: string): string {
  const i = line.indexOf('//');
  return (i < 0 ? line : line.slice(0, i)).trim();
}

function unquoteGo(s: string): string {
  return /^".*"$|^`.*`$/.test(s) ? s.slice(1, -1) : s;
}

function parseReplace(spec: string, line: number): Replace | undefined {
  const m = /^(\S+)(?:\s+\S+)?\s*=>\s*(\S+)(?:\s+\S+)?$/.exec(spec);
  if (!m) return undefined;
  const to = unquoteGo(m[2]!);
  return { from: unquoteGo(m[1]!), to, local: /^\.{1,2}(\/|$)|^\//.test(to), line };
}

export function parseGoMod(text: string): GoMod {
  const out: GoMod = { replaces: [], problems: [] };
  let block: string | undefined;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = stripComment(raw);
    if (line === '') return;
    if (block) {
      if (line === ')') {
        block = undefined;
        return;
      }
      if (block === 'replace') {
        const r = parseReplace(line, i + 1);
        if (r) out.replaces.push(r);
        else out.problems.push({ line: i + 1, reason: `replace "${line}" is not "path [version] => path [version]"` });
      }
      return;
    }
    const m = /^(\w+)\s*(.*)$/.exec(line);
    if (!m) return;
    const [, verb, rest] = m;
    if (rest === '(') {
      block = verb;
      return;
    }
    if (verb === 'module') out.module = unquoteGo(rest!.trim());
    if (verb === 'replace') {
      const r = parseReplace(rest!.trim(), i + 1);
      if (r) out.replaces.push(r);
      else out.problems.push({ line: i + 1, reason: `replace "${rest}" is not "path [version] => path [version]"` });
    }
  });
  return out;
}
