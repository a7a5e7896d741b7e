/**
 * `pinwatch affected --base REV`: the first-party images whose build inputs
 * changed between the merge base of REV and HEAD, and HEAD (`git diff
 * REV...HEAD` semantics). Refuses on a shallow clone that cannot answer instead
 * of guessing "everything" or "nothing".
 */
import { PinwatchError } from '../errors.js';
import { diffNamesSinceMergeBase } from '../git/changed-paths.js';
import { resolveCommit } from '../git/objects.js';
import { git, runGit } from '../git/run.js';
import { readShallowState } from '../git/shallow.js';
import { buildInputMatcher } from '../stale/match.js';
import type { StaleImageInput } from '../stale/types.js';

export interface AffectedReason {
  /** Changed path. */
  path: string;
  /** The build input it falls in (pattern path), or why inputs are unknown. */
  input: string;
  why?: string;
}

export interface AffectedImage {
  image: string;
  repository: string;
  reasons: AffectedReason[];
  /** Set when inputs are unknown and the image is listed to be safe. */
  unknown?: string;
}

export interface AffectedResult {
  base: string;
  head: string;
  mergeBase: string;
  changed: number;
  affected: AffectedImage[];
  /** Images whose inputs are unknown (listed in `affected` too unless excluded). */
  unknown: { image: string; repository: string; reason: string }[];
}

export interface AffectedOptions {
  head?: string;
  /** Put images with unknown inputs in the matrix (default true: over-build rather than miss). */
  includeUnknown?: boolean;
}

async function shallowRefusal(repo: string, base: string, what: string): Promise<PinwatchError> {
  const depth = (await git(repo, ['rev-list', '--count', 'HEAD'])).trim();
  return new PinwatchError(
    'shallow-clone',
    `this is a shallow clone (${depth} commit(s) of history from HEAD) and ${what}, so the changed paths since "${base}" cannot be computed; ` +
      `deepen it until the merge base is present (git fetch --deepen=${Math.max(Number(depth) || 0, 50)} origin, repeat as needed) or clone full history (actions/checkout with fetch-depth: 0)`,
  );
}

/** Resolve base/head and their merge base, refusing clearly when history is missing. */
export async function mergeBaseOf(repo: string, base: string, headRev = 'HEAD'): Promise<{ base: string; head: string; mergeBase: string }> {
  const shallow = await readShallowState(repo);
  const head = await resolveCommit(repo, headRev);
  if (!head) throw new PinwatchError('unknown-revision', `"${headRev}" does not name a commit in ${repo}`);
  const baseSha = await resolveCommit(repo, base);
  if (!baseSha) {
    if (shallow.shallow) throw await shallowRefusal(repo, base, `"${base}" is not in it`);
    throw new PinwatchError('unknown-revision', `--base "${base}" does not name a commit; expected a branch, tag or sha (fetch it first: git fetch origin ${base})`);
  }
  const r = await runGit(repo, ['merge-base', baseSha, head]);
  if (r.code === 0) return { base: baseSha, head, mergeBase: r.stdout.trim() };
  if (r.code === 1) {
    if (shallow.shallow) throw await shallowRefusal(repo, base, `"${base}" and HEAD have no common ancestor within it`);
    throw new PinwatchError('no-merge-base', `"${base}" and HEAD share no history (unrelated histories); expected a base on HEAD's line, like origin/main`);
  }
  throw new PinwatchError('git-failed', `git merge-base ${base} HEAD failed (exit ${r.code}): ${r.stderr.trim()}`);
}

/** The images whose inputs contain a changed path. Plain inputs; no scanning here. */
export async function computeAffected(repo: string, base: string, images: StaleImageInput[], options: AffectedOptions = {}): Promise<AffectedResult> {
  const refs = await mergeBaseOf(repo, base, options.head);
  const changed = await diffNamesSinceMergeBase(repo, refs.mergeBase, refs.head);
  const affected: AffectedImage[] = [];
  const unknown: AffectedResult['unknown'] = [];
  for (const img of images) {
    const reason = !img.inputs ? (img.missingInputsReason ?? 'build inputs are unknown') : img.inputs.unknownReason;
    if (reason !== undefined) {
      unknown.push({ image: img.image, repository: img.repository, reason });
      if (options.includeUnknown !== false && changed.length > 0) affected.push({ image: img.image, repository: img.repository, reasons: [{ path: '*', input: `unknown inputs: ${reason}` }], unknown: reason });
      continue;
    }
    const match = buildInputMatcher(img.inputs!);
    const reasons: AffectedReason[] = [];
    for (const path of changed) {
      const input = match(path);
      if (input) reasons.push({ path, input: input.path, why: input.why });
    }
    if (reasons.length > 0) affected.push({ image: img.image, repository: img.repository, reasons });
  }
  return { ...refs, changed: changed.length, affected, unknown };
}
