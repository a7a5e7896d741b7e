/**
 * Compose variable interpolation, as the compose specification defines it:
 * `$VAR`, `${VAR}`, `${VAR:-default}` (unset or empty), `${VAR-default}`
 * (unset), `${VAR:?err}` / `${VAR?err}` (required), `${VAR:+alt}` /
 * `${VAR+alt}`, defaults themselves interpolated, and `$$` for a literal `$`;
 * plus the project `.env` file those values come from (`KEY=VALUE`, `export`,
 * comments, single quotes literal, double quotes with escapes and `${…}`).
 * A variable the repository does not set becomes the caller's marker (the
 * build model's `⟨env TAG⟩`) with the reason, never the text `${TAG}`. A leaf:
 * the recipe reader (producers/compose) and the scan of compose pins share it.
 */

/** How an unknown variable is spelled in the result (default `⟨env NAME⟩`). */
export type UnknownMarker = (name: string) => string;
const defaultMarker: UnknownMarker = (name) => `⟨env ${name}⟩`;

export interface Interpolated {
  text: string;
  /** Variables that could not be resolved, each with its marker in `text` and why. */
  unknowns: { name: string; marker: string; reason: string; required?: boolean }[];
  /** Set when the template is malformed (an unclosed `${`), with the reason. */
  error?: string;
}

/** Interpolates `text` with `env` (the variables the repository sets: the project .env). */
export function interpolateCompose(text: string, env: ReadonlyMap<string, string>, marker: UnknownMarker = defaultMarker): Interpolated {
  const out: Interpolated = { text: '', unknowns: [] };
  out.text = expand(text, env, out, marker);
  return out;
}

function expand(text: string, env: ReadonlyMap<string, string>, out: Interpolated, marker: UnknownMarker): string {
  let result = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c !== '$') {
      result += c;
      i++;
      continue;
    }
    const next = text[i + 1];
    if (next === '$') {
      result += '$';
      i += 2;
      continue;
    }
    if (next === '{') {
      const close = matchingBrace(text, i + 1);
      if (close === -1) {
        out.error ??= `"${text.slice(i)}" has a \${ with no closing }`;
        result += text.slice(i);
        break;
      }
      result += braced(text.slice(i + 2, close), env, out, marker);
      i = close + 1;
      continue;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1));
    if (m) {
      result += lookup(m[0], env, out, marker);
      i += 1 + m[0].length;
      continue;
    }
    result += '$';
    i++;
  }
  return result;
}

/** Index of the `}` closing the `{` at `open`, counting nested `${`. */
function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function braced(inner: string, env: ReadonlyMap<string, string>, out: Interpolated, marker: UnknownMarker): string {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([\s\S]*))?$/.exec(inner);
  if (!m) {
    out.error ??= `"\${${inner}}" is not a variable substitution compose reads`;
    return `\${${inner}}`;
  }
  const [, name, op, arg = ''] = m as unknown as [string, string, string | undefined, string | undefined];
  const value = env.get(name!);
  const set = value !== undefined;
  const nonEmpty = set && value !== '';
  switch (op) {
    case undefined:
      return lookup(name!, env, out, marker);
    case ':-':
      return nonEmpty ? value : expand(arg, env, out, marker);
    case '-':
      return set ? value : expand(arg, env, out, marker);
    case ':+':
      return nonEmpty ? expand(arg, env, out, marker) : '';
    case '+':
      return set ? expand(arg, env, out, marker) : '';
    case ':?':
    case '?': {
      if (op === ':?' ? nonEmpty : set) return value!;
      const msg = expand(arg, env, out, marker);
      return unknownVar(name!, out, marker, `${name} is required${op === ':?' ? ' (and must not be empty)' : ''} and not set in .env${msg ? `: "${msg}"` : ''}`, true);
    }
  }
  return '';
}

function lookup(name: string, env: ReadonlyMap<string, string>, out: Interpolated, marker: UnknownMarker): string {
  const v = env.get(name);
  if (v !== undefined) return v;
  return unknownVar(name, out, marker, `${name} is not set in the project .env and has no default: its value comes from the environment compose runs in (unset, compose substitutes an empty string)`);
}

function unknownVar(name: string, out: Interpolated, marker: UnknownMarker, reason: string, required?: boolean): string {
  const m = marker(name);
  out.unknowns.push({ name, marker: m, reason, ...(required ? { required } : {}) });
  return m;
}

/** A `.env` file: its variables in order (later wins), and the lines it could not read. */
export function parseDotEnv(text: string): { vars: Map<string, string>; problems: { line: number; reason: string }[] } {
  const vars = new Map<string, string>();
  const problems: { line: number; reason: string }[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!m) {
      problems.push({ line: i + 1, reason: `"${line}" is not KEY=VALUE` });
      continue;
    }
    const key = m[1]!;
    let value = m[2]!;
    const q = value[0];
    if (q === "'" || q === '"') {
      let body = value.slice(1);
      let end = body.indexOf(q);
      while (q === '"' && end > 0 && body[end - 1] === '\\') end = body.indexOf(q, end + 1);
      // A quoted value may run over several lines.
      while (end === -1 && i + 1 < lines.length) {
        body += `\n${lines[++i]}`;
        end = body.indexOf(q);
      }
      if (end === -1) {
        problems.push({ line: i + 1, reason: `the value of ${key} has no closing ${q}` });
        continue;
      }
      value = body.slice(0, end);
      if (q === '"') {
        value = value.replace(/\\([nrt"\\$])/g, (_, e: string) => ({ n: '\n', r: '\r', t: '\t' })[e] ?? e);
        value = interpolateCompose(value, vars).text;
      }
    } else {
      value = value.replace(/\s+#.*$/, '').trim();
      value = interpolateCompose(value, vars).text;
    }
    vars.set(key, value);
  }
  return { vars, problems };
}
