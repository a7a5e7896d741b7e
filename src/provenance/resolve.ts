/**
 * Run provenance methods strongest first for every image, keep every step, and
 * accept an answer only when its commit exists in this clone (one batched
 * `cat-file` for all answers); otherwise fall through to the next method.
 */
import { existingCommits } from '../git/objects.js';
import type { ImageSubject, Provenance, ProvenanceSource, ProvenanceStep } from './types.js';

/** `known`: commits already known to exist (input sha → full sha); only the others are asked. */
export async function resolveProvenance(repo: string, images: ImageSubject[], sources: ProvenanceSource[], known?: Map<string, string>): Promise<Provenance[]> {
  // Images in parallel (the registry method is network-bound; its client limits concurrency).
  const allSteps = await Promise.all(images.map(async (image) => {
    const steps: ProvenanceStep[] = [];
    for (const source of sources) steps.push(await source.resolve(image));
    return steps;
  }));
  const answered = [...new Set(allSteps.flat().flatMap((s) => (s.answered && s.commit ? [s.commit] : [])))];
  const present = await existingCommits(repo, known ? answered.filter((c) => !known.has(c)) : answered);
  if (known) for (const c of answered) if (known.has(c)) present.set(c, known.get(c)!);
  return allSteps.map((steps) => pickAnswer(steps, present));
}

/** The first answered step whose commit is present (normalised to the full sha); later steps are marked not needed. */
export function pickAnswer(steps: ProvenanceStep[], present: Map<string, string>): Provenance {
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
    const full = step.answered && step.commit ? { ...step, commit: present.get(step.commit)! } : step;
    out.push(full);
    if (full.answered) chosen = full;
  }
  if (chosen) return { commit: chosen.commit, method: chosen.method, steps: out };
  const reason = out.length === 0 ? 'no provenance method is configured' : out.map((s) => `${s.method}: ${s.reason}`).join('; ');
  return { steps: out, reason };
}
