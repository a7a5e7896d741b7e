/**
 * Stage pruning: the stages a `--target` build (or the last stage) actually runs,
 * following `FROM <stage>`, `COPY --from=<stage>` and `RUN --mount=from=<stage>`.
 */
import type { ParsedDockerfile, Stage } from './parse.js';
import { platformNamed } from './platform.js';

/** The stage `ref` (name or index) names, if any; otherwise `ref` is an image. */
export function stageByRef(stages: readonly Stage[], ref: string): Stage | undefined {
  const lower = ref.toLowerCase();
  const byName = stages.find((s) => s.name === lower);
  if (byName) return byName;
  if (/^\d+$/.test(ref)) return stages[Number(ref)];
  return undefined;
}

/**
 * The stages `ref` (a `--from`) names: the one of that name or index; or, when it spells a platform ARG
 * with no value (`COPY --from=build-${TARGETARCH}`, docker/buildx), every stage its name can be, one per
 * platform: the union, whichever platforms a build asks for (a FROM's are parse.ts `baseStages`). Empty:
 * `ref` is an image.
 */
export function stagesByRef(stages: readonly Stage[], ref: string): Stage[] {
  const one = stageByRef(stages, ref);
  if (one) return [one];
  return platformNamed(ref, stages.map((s) => s.name)).map((i) => stages[i]!);
}

/** Stages a stage depends on directly. */
export function stageDependencies(stages: readonly Stage[], stage: Stage): Stage[] {
  const out: Stage[] = [];
  const add = (found: readonly Stage[]) => {
    for (const s of found) if (s !== stage && !out.includes(s)) out.push(s);
  };
  const base = stages.slice(0, stage.index).find((s) => s.name === stage.base.toLowerCase());
  add(base ? [base] : (stage.baseStages ?? []).map((i) => stages[i]!));
  for (const op of stage.ops) {
    if (op.op === 'copy' && op.from !== undefined) add(stagesByRef(stages, op.from));
    if (op.op === 'run') for (const m of op.mounts) if (m.from !== undefined) add(stagesByRef(stages, m.from));
  }
  return out;
}

export type TargetResult = { target: Stage; needed: Stage[] } | { error: string };

/** The target stage and every stage it needs, in file order. */
export function neededStages(parsed: ParsedDockerfile, target?: string): TargetResult {
  const { stages } = parsed;
  if (stages.length === 0) return { error: 'the Dockerfile has no FROM instruction' };
  const chosen = target === undefined ? stages[stages.length - 1] : stages.find((s) => s.name === target.toLowerCase());
  if (!chosen) {
    const names = stages.map((s) => s.name ?? String(s.index)).join(', ');
    return { error: `target stage "${target}" is not in the Dockerfile (stages: ${names})` };
  }
  const seen = new Set<number>([chosen.index]);
  const queue = [chosen];
  while (queue.length > 0) {
    for (const dep of stageDependencies(stages, queue.pop()!)) {
      if (seen.has(dep.index)) continue;
      seen.add(dep.index);
      queue.push(dep);
    }
  }
  return { target: chosen, needed: stages.filter((s) => seen.has(s.index)) };
}

/** The chain of stages a stage is built FROM (itself first). */
export function baseChain(stages: readonly Stage[], stage: Stage): Stage[] {
  const chain = [stage];
  let current = stage;
  for (;;) {
    const base = stages.slice(0, current.index).find((s) => s.name === current.base.toLowerCase());
    if (!base || chain.includes(base)) return chain;
    chain.push(base);
    current = base;
  }
}
