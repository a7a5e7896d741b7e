/**
 * The part of the GitHub Actions expression language (`${{ … }}`) a recipe needs:
 * literals, `env.*` and `matrix.*` property paths (dots and `['x']`), `a || b`,
 * the `tags` output of a docker/metadata-action step (its images, tag unknown), the outputs a
 * `run:` step writes to $GITHUB_OUTPUT (reader.ts),
 * `github.repository`/`repository_owner` when known, and a called workflow's `inputs.*`.
 * Everything else — `steps.*`, `secrets.*`, `github.*`, `needs.*`, `inputs.*`,
 * function calls, comparisons — is known only when the workflow runs: it
 * evaluates to an unknown with the reason, and interpolation leaves a marker
 * (one inert word, as the Make reader does) in its place.
 */
import { marker } from '../../make/index.js';

export type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

/** `absent`: a key no (fully known) matrix combination has, which GitHub reads as null, so `a || b` falls through to `b` (one only other combinations have is null, known). */
export type Evaluated = { known: true; value: Value } | { known: false; reason: string; absent?: true };

export interface Scope {
  /** Env visible here (workflow < job < step), each value already evaluated. */
  env: ReadonlyMap<string, Evaluated>;
  /** This matrix combination; `unknown` when the matrix itself is computed at run time; absent without a matrix. */
  matrix?: { known: true; values: Readonly<Record<string, Value>>; keys?: ReadonlySet<string> } | { known: false; reason: string };
  /** `steps.<id>.outputs.<name>` that can be told before the run (docker/metadata-action tags: its images, tag unknown; a run step's `$GITHUB_OUTPUT` lines). */
  outputs?: ReadonlyMap<string, string>;
  /** `github.*` values known before the run: `repository`, `repository_owner` (buildEnv GITHUB_REPOSITORY or the git remote). */
  github?: ReadonlyMap<string, string>;
  /** `inputs.*` of a reusable workflow read for one caller: its `with:` values over the input defaults. */
  inputs?: ReadonlyMap<string, Evaluated>;
}

export interface Unknown {
  /** The expression as written, without `${{ }}`. */
  expr: string;
  reason: string;
  /** The marker left in the text for it. */
  marker: string;
}

const RUN_TIME: Record<string, string> = {
  steps: 'step outputs are known only when the workflow runs',
  secrets: 'secrets are not in the repository',
  vars: 'configuration variables are not in the repository',
  github: 'the github context is known only when the workflow runs',
  needs: 'outputs of other jobs are known only when the workflow runs',
  inputs: 'workflow inputs are known only when the workflow runs',
  jobs: 'job outputs are known only when the workflow runs',
  job: 'the job context is known only when the workflow runs',
  runner: 'the runner context is known only when the workflow runs',
  strategy: 'the strategy context is known only when the workflow runs',
};

/** Evaluate one expression (the text between `${{` and `}}`). */
export function evaluate(expr: string, scope: Scope): Evaluated {
  const alternatives = splitTopLevel(expr.trim(), '||');
  if (alternatives.length > 1) {
    for (const [i, alt] of alternatives.entries()) {
      const v = evaluate(alt, scope);
      if (!v.known && v.absent && i < alternatives.length - 1) continue;
      if (!v.known) return v;
      if (truthy(v.value) || i === alternatives.length - 1) return v;
    }
  }
  const e = expr.trim();
  if (/^'(?:[^']|'')*'$/.test(e)) return { known: true, value: e.slice(1, -1).replace(/''/g, "'") };
  if (/^-?\d+(?:\.\d+)?$/.test(e)) return { known: true, value: Number(e) };
  if (e === 'true' || e === 'false') return { known: true, value: e === 'true' };
  if (e === 'null') return { known: true, value: null };
  const path = propertyPath(e);
  if (!path) return { known: false, reason: `"${e}" is not a plain value or property (pinwatch evaluates literals, env.*, matrix.* and ||)` };
  const [context, ...rest] = path;
  if (context === 'env') return lookupEnv(rest, scope);
  if (context === 'matrix') return lookupMatrix(rest, scope);
  if (context === 'github' && rest.length === 1 && scope.github?.has(rest[0]!)) return { known: true, value: scope.github.get(rest[0]!)! };
  if (context === 'inputs' && scope.inputs && rest.length === 1) {
    const v = scope.inputs.get(rest[0]!);
    return v ?? { known: false, reason: `inputs.${rest[0]} is not passed by the caller's with: and has no default` };
  }
  const output = context === 'steps' && rest.length === 3 && rest[1] === 'outputs' ? scope.outputs?.get(`${rest[0]}.${rest[2]}`) : undefined;
  if (output !== undefined) return { known: true, value: output };
  return { known: false, reason: RUN_TIME[context!] ?? `"${context}" is not a context pinwatch knows` };
}

/** Substitute every `${{ … }}` in `text`; unknown ones become markers and are listed. */
export function interpolate(text: string, scope: Scope): { text: string; unknowns: Unknown[] } {
  const unknowns: Unknown[] = [];
  const out = text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_all, inner: string) => {
    const v = evaluate(inner, scope);
    if (v.known) return textOf(v.value);
    const m = marker('expr', inner);
    unknowns.push({ expr: inner.trim(), reason: v.reason, marker: m });
    return m;
  });
  return { text: out, unknowns };
}

/** How a value reads when spliced into text (`${{ 1 }}` → `1`, objects as JSON). */
export function textOf(v: Value): string {
  if (v === null) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function lookupEnv(rest: string[], scope: Scope): Evaluated {
  const name = rest[0];
  if (name === undefined || rest.length > 1) return { known: false, reason: `"env.${rest.join('.')}" is not one env variable` };
  const v = scope.env.get(name);
  if (!v) return { known: false, reason: `env.${name} is not set in the workflow, job or step env (a value written to $GITHUB_ENV is known only at run time)` };
  return v.known ? v : { known: false, reason: `set from ${v.reason}` };
}

function lookupMatrix(rest: string[], scope: Scope): Evaluated {
  const m = scope.matrix;
  if (!m) return { known: false, reason: 'this job has no strategy.matrix' };
  if (!m.known) return { known: false, reason: m.reason };
  let cur: Value = m.values as Record<string, Value>;
  // a key other combinations have and this one lacks is null, as GitHub reads it (dapr's windows_version on its linux entries)
  if (rest.length === 1 && !(rest[0]! in m.values) && m.keys?.has(rest[0]!)) return { known: true, value: null };
  for (const [i, key] of rest.entries()) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !(key in cur)) {
      const keys = cur !== null && typeof cur === 'object' && !Array.isArray(cur) ? Object.keys(cur) : [];
      return { known: false, absent: true, reason: `matrix.${rest.slice(0, i + 1).join('.')} is not a key of this matrix combination (keys: ${keys.join(', ') || 'none'})` };
    }
    cur = (cur as Record<string, Value>)[key]!;
  }
  return { known: true, value: cur };
}

function truthy(v: Value): boolean {
  return !(v === null || v === false || v === 0 || v === '');
}

/** `env.A`, `matrix.image['name']`, `matrix.x.y` → its names; undefined for anything else. */
function propertyPath(e: string): string[] | undefined {
  const parts: string[] = [];
  const re = /^(?:\.?([A-Za-z_][A-Za-z0-9_-]*)|\[\s*'((?:[^']|'')*)'\s*\])/;
  let rest = e;
  while (rest) {
    const m = re.exec(rest);
    if (!m || (parts.length === 0 && (m[1] === undefined || rest.startsWith('.')))) return undefined;
    if (parts.length > 0 && m[1] !== undefined && !rest.startsWith('.')) return undefined;
    parts.push(m[1] ?? m[2]!.replace(/''/g, "'"));
    rest = rest.slice(m[0].length);
  }
  return parts.length ? parts : undefined;
}

/** Split on `op` outside quotes and parentheses. */
function splitTopLevel(e: string, op: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < e.length; i++) {
    const c = e[i];
    if (c === "'") quoted = !quoted;
    else if (quoted) continue;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && e.startsWith(op, i)) {
      out.push(e.slice(start, i));
      start = i + op.length;
      i += op.length - 1;
    }
  }
  out.push(e.slice(start));
  return out;
}
