/**
 * PR mode (`--base`): the commits HEAD reaches and the base does not are the
 * PR's own, and an image's unshipped commits among them are its own build's to
 * ship (`rebuild`), not merged work the pinned image lacks. The split is a
 * function of a judgement and those commits alone, so it applies the same to a
 * judgement made now (history.ts) and to a kept one (reuse.ts, partial.ts): the
 * answer kept is always the judgement before the split.
 */
import { PinwatchError } from '../errors.js';
import { resolveCommit } from '../git/objects.js';
import { git, gitStats } from '../git/run.js';
import { oldestOf } from './age.js';
import type { StaleImage, StaleReport } from './types.js';

/** The base commit and the commits only HEAD has (`git rev-list HEAD --not BASE`), in one or two git processes. */
export async function prCommits(repo: string, head: string, base: string): Promise<{ commit: string; own: Set<string> }> {
  const commit = base.startsWith('-') ? undefined : await resolveCommit(repo, base);
  if (!commit) {
    throw new PinwatchError('unknown-revision', `base ${JSON.stringify(base)} does not name a commit here; expected a branch, tag or sha (in CI fetch it first: git fetch origin ${base}, or actions/checkout with fetch-depth: 0)`);
  }
  const own = await git(repo, ['rev-list', head, `^${commit}`]);
  return { commit, own: new Set(own.split('\n').filter(Boolean)) };
}

/**
 * One judged image in PR mode: its unshipped commits that are the PR's own move
 * to `rebuild`, and its status and oldest unshipped commit follow the rest. An
 * image with no judgement (`unknown`) is as it is.
 */
export function splitForPr(image: StaleImage, own: ReadonlySet<string>, now: Date): StaleImage {
  if (image.status === 'unknown') return image;
  const unshipped = image.unshipped.filter((u) => !own.has(u.commit));
  const rebuild = image.unshipped.filter((u) => own.has(u.commit));
  const oldest = oldestOf(unshipped, now);
  const { oldestUnshipped: _o, rebuild: _r, ...rest } = image;
  return { ...rest, status: unshipped.length > 0 ? 'stale' : 'current', unshipped, cherryPicked: image.cherryPicked, rebuild, ...(oldest ? { oldestUnshipped: oldest } : {}) };
}

/** A kept judgement (reused, or some images judged again) in PR mode against `base`: its images split, the base said, the processes counted. */
export async function inPrMode<R extends StaleReport>(repo: string, report: R, base: string, now: Date): Promise<R> {
  const before = gitStats.processes;
  const pr = await prCommits(repo, report.head, base);
  return {
    ...report,
    base: { rev: base, commit: pr.commit, prCommits: pr.own.size },
    images: report.images.map((i) => splitForPr(i, pr.own, now)),
    gitProcesses: report.gitProcesses + gitStats.processes - before,
  };
}
