/**
 * Dockerfile `FROM` lines: `FROM [--platform=…] ref [AS name]`. Stage names and
 * `scratch` are not images; `${V}`/`$V` are resolved from `ARG V=default` lines
 * seen before; anything unresolvable or unparsable is a Problem.
 */
import type { Pin, Problem } from '../../model/index.js';
import { parseReference } from '../../reference/index.js';
import { buildPin, LineIndex, messageOf, problemAt } from '../common/pin.js';
import type { CollectContext, CollectResult } from '../types.js';

const FROM = /^([ \t]*FROM[ \t]+)((?:--[A-Za-z-]+=\S+[ \t]+)*)(\S+)(?:[ \t]+AS[ \t]+(\S+))?/i;
const ARG = /^[ \t]*ARG[ \t]+([A-Za-z_][A-Za-z0-9_]*)(?:=("[^"]*"|'[^']*'|\S*))?/i;
const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

export function collectDockerfile(text: string, ctx: CollectContext): CollectResult {
  const lines = new LineIndex(text);
  const pins: Pin[] = [];
  const problems: Problem[] = [];
  const args = new Map<string, string>();
  const stages = new Set<string>();
  let offset = 0;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(/\r$/, '');
    const arg = ARG.exec(line);
    if (arg) {
      const value = arg[2];
      // A default may use earlier ARGs (`ARG B=${A}-x`); unknown ones stay as written.
      if (value !== undefined) args.set(arg[1] as string, expand(value.replace(/^["']|["']$/g, ''), args));
    }
    const from = FROM.exec(line);
    if (from) handleFrom(from, offset, { text, ctx, lines, pins, problems, args, stages });
    offset += rawLine.length + 1;
  }
  return { pins, problems };
}

interface State {
  text: string;
  ctx: CollectContext;
  lines: LineIndex;
  pins: Pin[];
  problems: Problem[];
  args: Map<string, string>;
  stages: Set<string>;
}

function handleFrom(m: RegExpExecArray, lineOffset: number, s: State): void {
  const image = m[3] as string;
  const start = lineOffset + (m[1] as string).length + (m[2] ?? '').length;
  const end = start + image.length;
  if (m[4]) s.stages.add(m[4].toLowerCase());
  if (image.toLowerCase() === 'scratch' || s.stages.has(image.toLowerCase())) return;
  const resolved = expand(image, s.args);
  const unresolved = [...resolved.matchAll(VAR)].map((m) => m[1] ?? m[3]);
  if (unresolved.length > 0) {
    s.problems.push(problemAt(s.ctx, s.lines, start, 'unresolved-ref', `FROM ${JSON.stringify(image)} uses ARG ${unresolved.join(', ')}, which has no default value (resolved so far: ${JSON.stringify(resolved)})`));
    return;
  }
  try {
    const ref = parseReference(resolved);
    s.pins.push(buildPin({ shape: 'dockerfile', spans: [{ field: 'ref', start, end }], raw: image, ref }, s.lines, s.ctx));
  } catch (e) {
    s.problems.push(problemAt(s.ctx, s.lines, start, 'invalid-ref', messageOf(e)));
  }
}

/** Substitute `${V}`, `${V:-default}` and `$V` from known ARG defaults; unknown ones stay as written. */
function expand(text: string, args: ReadonlyMap<string, string>): string {
  return text.replace(VAR, (whole, braced?: string, fallback?: string, bare?: string) => {
    const value = args.get((braced ?? bare) as string);
    if (value !== undefined && value !== '') return value;
    return fallback !== undefined && fallback !== '' ? fallback : whole;
  });
}
