/**
 * Run provenance methods strongest first for every image, keep every step, and
 * accept an answer only when its commit exists in this clone (one batched
 * `cat-file` for all answers); otherwise fall through to the next method.
 */
import { existingCommits } from '../git/objects.js';
import type { ImageSubject, Provenance, ProvenanceSource, ProvenanceStep } from './types.js';

export async function resolveProvenance(repo: string, images: ImageSubject[], sources: ProvenanceSource[]): Promise<Provenance[]> {
  const allSteps: ProvenanceStep[][] = [];
  for (const image of images) {
    const steps: ProvenanceStep[] = [];
    for (const source of sources) steps.push(await source.resolve(image));
    allSteps.push(steps);
  }
  const answered = [...new Set(allSteps.flat().flatMap((s) => (s.answered && s.commit ? [s.commit] : [])))];
  const present = await existingCommits(repo, answered);
  return allSteps.map((steps) => pickAnswer(steps, present));
}

/** The first answered step whose commit is present; later steps are marked not consulted. */
export function pickAnswer(steps: ProvenanceStep[], present: Set<string>): Provenance {
  const out: ProvenanceStep[] = [];
  let chosen: ProvenanceStep | undefined;
  for (const step of steps) {
    if (chosen) {
      out.push(step.answered ? { ...step, answered: false, reason: `not needed (${chosen.method} answered); would say: ${step.reason}` } : step);
      continue;
    }
    if (step.answered && step.commit && !present.has(step.commit)) {
      out.push({ ...step, answered: false, reason: `${step.reason}, but commit ${step.commit.slice(0, 10)} is not in this clone (shallow or another branch: fetch it)` });
      continue;
    }
    out.push(step);
    if (step.answered) chosen = step;
  }
  if (chosen) return { commit: chosen.commit, method: chosen.method, steps: out };
  const reason = out.length === 0 ? 'no provenance method is configured' : out.map((s) => `${s.method}: ${s.reason}`).join('; ');
  return { steps: out, reason };
}
