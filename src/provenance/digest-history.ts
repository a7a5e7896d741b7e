/**
 * Digest-history provenance: the first commit that added the pinned digest to a
 * pin; the image was built from that commit's first parent (or the commit
 * itself with `provenance.buildCommit: self`). A retag keeps the digest, so this
 * sees through promotions.
 */
import type { CommitFacts, DigestHistoryResult, LaterAddition } from '../git/digest-history.js';
import type { ShallowState } from '../git/shallow.js';
import type { ImageSubject, Provenance, ProvenanceSource, ProvenanceStep } from './types.js';

export interface DigestHistorySourceInput {
  history: DigestHistoryResult;
  shallow: ShallowState;
  buildCommit: 'parent' | 'self';
  /** How many files the history pass searched, for the "never appears" reason. */
  searchedFiles: number;
}

const short = (sha: string) => sha.slice(0, 10);

export function digestHistorySource(input: DigestHistorySourceInput): ProvenanceSource {
  return {
    method: 'digest-history',
    resolve: async (image) => resolveFromHistory(image, input),
  };
}

export function resolveFromHistory(image: ImageSubject, input: DigestHistorySourceInput): ProvenanceStep {
  const method = 'digest-history' as const;
  if (!image.digest) return { method, answered: false, reason: 'no pin of this image stores a digest' };
  const intro = input.history.found.get(image.digest);
  if (!intro) {
    const why = input.shallow.shallow ? ' (the clone is shallow: fetch full history, e.g. fetch-depth: 0)' : '';
    return { method, answered: false, reason: `digest ${image.digest.slice(0, 19)}… never appears in the history of the ${input.searchedFiles} pin file(s)${why}` };
  }
  const evidence = { introducedBy: { commit: intro.commit, subject: intro.subject, date: intro.date, file: intro.file, ...(intro.fileDeletedBy ? { fileDeletedBy: intro.fileDeletedBy } : {}), ...(intro.takenOutBy ? { takenOutBy: intro.takenOutBy } : {}) }, movedBy: intro.movedBy, ...(intro.addedLater ? { addedLater: intro.addedLater } : {}) };
  const truncated = input.history.truncated.includes(image.digest);
  if (truncated) return { method, answered: false, reason: `digest moved between files more times than followed; oldest seen ${short(intro.commit)}`, evidence };
  if (input.shallow.boundary.has(intro.commit)) {
    return {
      method,
      answered: false,
      reason: `digest first seen at ${short(intro.commit)}, the boundary of a shallow clone, so its real introduction may be older: fetch full history (git fetch --unshallow, or fetch-depth: 0)`,
      evidence,
    };
  }
  const introText = `introduced by ${short(intro.commit)} "${intro.subject}" (${intro.date.slice(0, 10)}) in ${fileText(evidence.introducedBy)}${laterText(intro.addedLater)}`;
  if (input.buildCommit === 'self') return { method, answered: true, commit: intro.commit, reason: `${introText}; built from that commit (buildCommit: self)`, evidence };
  const parent = intro.parentShas[0];
  if (!parent) return { method, answered: false, reason: `${introText}, a root commit: it has no parent to have been built from (set provenance.buildCommit: self if it was built from itself)`, evidence };
  return { method, answered: true, commit: parent, reason: `${introText}; built from its first parent`, evidence };
}

/** Evidence of an introduction: its file, and why that file no longer pins the digest when it does not. */
type IntroducedIn = { file?: string; fileDeletedBy?: CommitFacts; takenOutBy?: CommitFacts };

/**
 * The introducing file, and why it is no pin of the digest now when it is not:
 * `charts/a/values.yaml (deleted since by 1a2b3c4d5e "…" (2026-01-02))`, or
 * `charts/a/values.yaml (taken out of it since by 1a2b3c4d5e "…" (2026-01-02))`.
 */
function fileText(intro: IntroducedIn | undefined): string {
  const [how, by] = intro?.fileDeletedBy ? ['deleted since', intro.fileDeletedBy] : intro?.takenOutBy ? ['taken out of it since', intro.takenOutBy] : [];
  return `${intro?.file ?? '?'}${by ? ` (${how} by ${short(by.commit)} "${by.subject}" (${by.date.slice(0, 10)}))` : ''}`;
}

const LATER_AS: Record<LaterAddition['as'], string> = { revert: 'later reverted back to by', copy: 'later copied by', return: 'later put back, after it was taken out, by', again: 'also added by' };

/**
 * The newest later addition of the digest (what `git log` of the pin file shows
 * last), for the reason: `, later put back, after it was taken out, by 458ca63729 "…" (2025-10-06)`.
 * An addition on another line of history is no later one by date: `, also added by … on another line of history`.
 */
export function laterText(later: LaterAddition | undefined): string {
  if (!later) return '';
  const where = later.as === 'copy' ? ` into ${later.file}` : later.as === 'again' ? ` to ${later.file} on another line of history` : '';
  const more = later.others > 0 ? ` (and ${later.others} more addition(s) after the introduction)` : '';
  return `, ${LATER_AS[later.as]} ${short(later.commit)} "${later.subject}" (${later.date.slice(0, 10)})${where}${more}`;
}

/** Methods that answer with the parent of an introducing commit (a digest's, or a stamped tag's: tag-history.ts). */
const INTRODUCING_METHODS = new Set<ProvenanceStep['method']>(['digest-history', 'tag-history']);

/**
 * The commit that introduced the digest (or tag), when `step` answered with its first
 * parent (`buildCommit: parent`); undefined otherwise.
 */
export function introducerBuiltFromParent(step: ProvenanceStep | undefined): string | undefined {
  if (!step || !INTRODUCING_METHODS.has(step.method) || !step.answered) return undefined;
  const intro = (step.evidence?.introducedBy as { commit?: string } | undefined)?.commit;
  return intro && intro !== step.commit ? intro : undefined;
}

/**
 * The introducing commit also changes the image's build inputs: source and pin
 * were committed together, so the image carries that change and was built from
 * the commit itself, not from its parent.
 */
export function builtWithIntroducer(step: ProvenanceStep, introducer: string, paths: string[]): ProvenanceStep {
  const intro = step.evidence?.introducedBy as (IntroducedIn & { subject?: string; date?: string }) | undefined;
  const tag = step.method === 'tag-history' ? step.evidence?.tag : undefined;
  const later = step.evidence?.addedLater as LaterAddition | undefined;
  const introText = `${typeof tag === 'string' ? `tag ${tag} ` : ''}introduced by ${short(introducer)} "${intro?.subject ?? ''}" (${(intro?.date ?? '').slice(0, 10)}) in ${fileText(intro)}${laterText(later)}`;
  const shown = paths.slice(0, 2).join(', ') + (paths.length > 2 ? ', …' : '');
  const weaker = tag !== undefined ? '; weaker than a digest: a tag can be rebuilt, so the image may hold a later build' : '';
  return { ...step, commit: introducer, reason: `${introText}, which also changes this image's build inputs (${shown}): built from that commit itself${weaker}` };
}

/** The commit that introduced the digest, when `p` was answered by digest history with that commit's first parent. */
export function introducerOf(p: Provenance): string | undefined {
  if (!p.method || !INTRODUCING_METHODS.has(p.method)) return undefined;
  return introducerBuiltFromParent(p.steps.find((st) => st.commit === p.commit && st.method === p.method));
}

/** Provenance moved from the introducing commit's parent to the commit itself (see `builtWithIntroducer`). */
export function withIntroducerBuild(p: Provenance, by: { commit: string; paths: string[] }): Provenance {
  const steps = p.steps.map((st) => (introducerBuiltFromParent(st) === by.commit ? builtWithIntroducer(st, by.commit, by.paths) : st));
  return { ...p, commit: by.commit, steps };
}
