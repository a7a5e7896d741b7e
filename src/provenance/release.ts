/**
 * A digest pinned after its release: when no recipe or producer of this repository stamps an
 * image's pins, the commit that pinned its digest was made by hand or by a bot (Renovate's
 * "update all jaeger docker images to v2.19.0"), after the image was built elsewhere. Digest
 * history's answer, that commit's first parent, is then only the newest commit the image can have
 * been built from. When the pin's tag names a git tag (git-tag's forms; its tree holds the image's
 * Dockerfile) whose commit that answer descends from, the release at that tag built the image and
 * the pin followed: the build is taken from the tag. Older, so never fewer unshipped commits.
 * A pin a recipe stamps keeps digest history's answer: there the build and the pin are one job.
 */
import type { ImageSubject, Provenance, ProvenanceStep, Release } from './types.js';

const short = (sha: string) => sha.slice(0, 10);

/** Whether digest history's answer for `image` is only a bound a release may come before: a digest no recipe or producer stamps. */
export const pinnedAfterBuild = (image: ImageSubject): boolean => image.digest !== undefined && (image.stamped ?? []).length === 0;

/**
 * `p` with the build moved to the first of `releases` whose commit is a proper ancestor of digest
 * history's answer (`isAncestor`: in the history read), when digest history answered for an image
 * whose digest no recipe stamps; `p` itself otherwise.
 */
export function releaseBefore(image: ImageSubject, p: Provenance, releases: readonly Release[], isAncestor: (ancestor: string, descendant: string) => boolean): Provenance {
  if (p.method !== 'digest-history' || !p.commit || !pinnedAfterBuild(image)) return p;
  const bound = p.commit;
  const release = releases.find((r) => r.commit !== bound && isAncestor(r.commit, bound));
  if (!release) return p;
  const steps = p.steps.map((st): ProvenanceStep => {
    if (st.method === 'digest-history' && st.answered) {
      return { ...st, answered: false, commit: undefined, reason: `${st.reason.replace(/; built from [^;]*$/, '')}; no recipe or producer stamps this pin, so it was pinned after the build (by hand or by a bot): ${short(bound)} is only the newest commit it can have been built from, and git tag ${release.gitTag} is older`, evidence: { ...st.evidence, bound } };
    }
    if (st.method === 'git-tag') {
      return { method: 'git-tag', answered: true, commit: release.commit, reason: `image tag ${release.tag} names git tag ${release.gitTag}, which ${short(bound)} (digest history's bound) descends from: the release built the image, and the digest was pinned after it; weakest method: a promotion retag makes the git tag contain commits the image may not`, evidence: { gitTag: release.gitTag, bound } };
    }
    return st;
  });
  return { commit: release.commit, method: 'git-tag', steps };
}
