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
import type { ImageInput } from '../images/types.js';
import { inputMatcher } from '../sources/matcher.js';

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

/**
 * How many generations back from HEAD a `HEAD~N` / `HEAD^` / `HEAD^2~3` style
 * revision is (`@` for HEAD too), or undefined for any other revision. `^0` and
 * `~0` stay put; `^N` (N ≥ 1) and `^` are one generation back, `~N` is N.
 */
export function generationsBackFromHead(rev: string): number | undefined {
  const m = /^(?:HEAD|@)((?:~\d*|\^\d*)*)$/.exec(rev.trim());
  if (!m || !m[1]) return undefined;
  let back = 0;
  for (const [, op, digits] of m[1].matchAll(/([~^])(\d*)/g)) {
    const n = digits === '' ? 1 : Number(digits);
    back += op === '~' ? n : n === 0 ? 0 : 1;
  }
  return back;
}

/** The deepening hint: exact for a HEAD-relative REV (needs depth back+1), generic otherwise. */
export function deepenHint(base: string, depth: number): string {
  const back = generationsBackFromHead(base);
  const need = back === undefined ? undefined : back + 1;
  if (need !== undefined && need > depth) {
    return `"${base}" is ${back} commit(s) back from HEAD, so the clone needs a depth of ${need}: git fetch --deepen=${need - depth} origin ` +
      `(or actions/checkout with fetch-depth: ${need}), or clone full history (fetch-depth: 0)`;
  }
  return `deepen it until the merge base is present (git fetch --deepen=${Math.max(depth, 50)} origin, repeat as needed) or clone full history (actions/checkout with fetch-depth: 0)`;
}

/**
 * Whether `sha` has no parents in the real history. git lists a root commit at
 * the depth limit in the shallow file too, so a boundary commit's own object is
 * read (its `parent` lines survive the shallow graft).
 */
async function isRootCommit(repo: string, sha: string, boundary: Set<string>): Promise<boolean> {
  if (!boundary.has(sha)) return true;
  const raw = await git(repo, ['cat-file', 'commit', sha]);
  const end = raw.indexOf('\n\n');
  const header = end < 0 ? raw : raw.slice(0, end);
  return !/^parent /m.test(header);
}

async function shallowRefusal(repo: string, base: string, what: string, boundary: Set<string>): Promise<PinwatchError> {
  // The depth is the length of HEAD's first-parent line down to the shallow boundary.
  const line = (await git(repo, ['rev-list', '--first-parent', 'HEAD'])).split('\n').filter(Boolean);
  const depth = line.length;
  const last = line[depth - 1];
  const back = generationsBackFromHead(base);
  // Only a walk along first parents is bounded by the first-parent line (`HEAD^2~1` may sit under a cut side parent).
  const firstParentWalk = back !== undefined && !/\^(?:[2-9]|\d{2,})/.test(base);
  if (firstParentWalk && back > depth - 1 && last && (await isRootCommit(repo, last, boundary))) {
    return new PinwatchError(
      'unknown-revision',
      `base "${base}" is ${back} commit(s) back from HEAD, but HEAD's first-parent line ends at the root commit ${last.slice(0, 10)} after ${depth} commit(s): no depth of clone has it; expected a base on HEAD's line, like origin/main`,
    );
  }
  return new PinwatchError(
    'shallow-clone',
    `this is a shallow clone (depth ${depth}: ${depth} commit(s) on HEAD's first-parent line) and ${what}, so the changed paths since "${base}" cannot be computed; ${deepenHint(base, depth)}`,
  );
}

/** Resolve base/head and their merge base, refusing clearly when history is missing. */
export async function mergeBaseOf(repo: string, base: string, headRev = 'HEAD'): Promise<{ base: string; head: string; mergeBase: string }> {
  const shallow = await readShallowState(repo);
  const head = await resolveCommit(repo, headRev);
  if (!head) throw new PinwatchError('unknown-revision', `"${headRev}" does not name a commit in ${repo}`);
  const baseSha = await resolveCommit(repo, base);
  if (!baseSha) {
    if (shallow.shallow) throw await shallowRefusal(repo, base, `"${base}" is not in it`, shallow.boundary);
    throw new PinwatchError('unknown-revision', `base "${base}" does not name a commit; expected a branch, tag or sha (fetch it first: git fetch origin ${base})`);
  }
  const r = await runGit(repo, ['merge-base', baseSha, head]);
  if (r.code === 0) return { base: baseSha, head, mergeBase: r.stdout.trim() };
  if (r.code === 1) {
    if (shallow.shallow) throw await shallowRefusal(repo, base, `"${base}" and HEAD have no common ancestor within it`, shallow.boundary);
    throw new PinwatchError('no-merge-base', `"${base}" and HEAD share no history (unrelated histories); expected a base on HEAD's line, like origin/main`);
  }
  throw new PinwatchError('git-failed', `git merge-base ${base} HEAD failed (exit ${r.code}): ${r.stderr.trim()}`);
}

/** The images whose inputs contain a changed path. Plain inputs; no scanning here. */
export async function computeAffected(repo: string, base: string, images: ImageInput[], options: AffectedOptions = {}): Promise<AffectedResult> {
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
    const match = inputMatcher(img.inputs!).match;
    const reasons: AffectedReason[] = [];
    for (const path of changed) {
      const input = match(path);
      if (input) reasons.push({ path, input: input.path, why: input.why });
    }
    if (reasons.length > 0) affected.push({ image: img.image, repository: img.repository, reasons });
  }
  return { ...refs, changed: changed.length, affected, unknown };
}
