/**
 * Dockerfile `FROM` pins, read by the one Dockerfile reader (src/dockerfile/):
 * the lexer's instructions (continuations, heredocs, `escape`) and BuildKit's
 * substitution of global ARGs (`${V:-x}`, `${V:+x}`, …). Stage names and
 * `scratch` are not images; anything unresolvable or unparsable is a Problem.
 */
import type { Pin, Problem } from '../../model/index.js';
import { lexDockerfile, parseLexed, type Stage } from '../../dockerfile/index.js';
import { parseReference, type ImageRef } from '../../reference/index.js';
import { buildPin, LineIndex, messageOf, problemAt } from '../common/pin.js';
import type { CollectContext, CollectResult } from '../types.js';

export function collectDockerfile(text: string, ctx: CollectContext): CollectResult {
  const lines = new LineIndex(text);
  const pins: Pin[] = [];
  const problems: Problem[] = [];
  const lexed = lexDockerfile(text);
  // Only the lexer's problems can hide pins (an unclosed heredoc swallows the rest of the file).
  for (const p of lexed.problems) problems.push(problemAt(ctx, lines, lines.lineStart(p.line), 'dockerfile-syntax', p.reason));
  for (const stage of parseLexed(lexed).stages) {
    const problem = (code: string, reason: string) => problems.push(problemAt(ctx, lines, stage.baseSpan?.start ?? lines.lineStart(stage.line), code, reason));
    const pin = fromPin(stage, text);
    if (pin === undefined) continue;
    if ('code' in pin) problem(pin.code, pin.reason);
    else pins.push(buildPin({ shape: 'dockerfile', spans: [{ field: 'ref', ...pin.span }], raw: stage.baseWritten, ref: pin.ref }, lines, ctx));
  }
  return { pins, problems };
}

const UNRESOLVED_TAIL = ', which has no default value';
const UNRESOLVED_ARGS = new RegExp(` uses ARG ([A-Za-z_][\\w, ]*?)${UNRESOLVED_TAIL}`);

/**
 * The ARGs an `unresolved-ref` problem's FROM lacks (as its reason names them), so lint can tell
 * whether every build of that Dockerfile passes them (rules/file-rules.ts); undefined for another problem.
 */
export function unresolvedFromArgs(p: Pick<Problem, 'code' | 'reason'>): string[] | undefined {
  if (p.code !== 'unresolved-ref') return undefined;
  const m = UNRESOLVED_ARGS.exec(p.reason);
  return m ? m[1]!.split(', ') : undefined;
}

type FromRead = { span: { start: number; end: number }; ref: ImageRef } | { code: string; reason: string };

/** The image a stage is built FROM, a reason it cannot be one, or undefined for `scratch` and stages. */
function fromPin(stage: Stage, text: string): FromRead | undefined {
  const written = stage.baseWritten;
  if (stage.base.toLowerCase() === 'scratch' || stage.baseStage !== undefined || stage.baseStages !== undefined) return undefined;
  if (written === '') return { code: 'invalid-ref', reason: 'FROM names no image' };
  if (stage.baseUnresolved.length > 0) {
    return { code: 'unresolved-ref', reason: `FROM ${JSON.stringify(written)} uses ARG ${stage.baseUnresolved.join(', ')}${UNRESOLVED_TAIL} (resolved so far: ${JSON.stringify(stage.base)})` };
  }
  let ref: ImageRef;
  try {
    ref = parseReference(stage.base);
  } catch (e) {
    return { code: 'invalid-ref', reason: messageOf(e) };
  }
  const span = stage.baseSpan;
  if (!span || text.slice(span.start, span.end) !== written) {
    return { code: 'unlocatable-ref', reason: `FROM ${JSON.stringify(written)} is cut by a line continuation, so its position is unknown; write it on one line` };
  }
  return { span, ref };
}
