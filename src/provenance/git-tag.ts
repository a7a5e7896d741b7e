/**
 * Git-tag provenance, the weakest method: a pin tag that names a git tag
 * (`v1.6.0`, or `1.6.0` for tag `v1.6.0`) is taken as built from that tag's
 * commit. A promotion retag makes the git tag contain commits the image lacks.
 */
import type { ImageSubject, ProvenanceSource, ProvenanceStep } from './types.js';

export function gitTagSource(tags: Map<string, string>): ProvenanceSource {
  return { method: 'git-tag', resolve: async (image) => resolveFromGitTag(image, tags) };
}

export function resolveFromGitTag(image: ImageSubject, tags: Map<string, string>): ProvenanceStep {
  const method = 'git-tag' as const;
  if (image.tags.length === 0) return { method, answered: false, reason: 'no pin of this image carries a tag' };
  for (const tag of image.tags) {
    for (const name of [tag, `v${tag}`]) {
      const commit = tags.get(name);
      if (commit) {
        return {
          method,
          answered: true,
          commit,
          reason: `image tag ${tag} names git tag ${name}; weakest method: a promotion retag makes the git tag contain commits the image may not`,
          evidence: { gitTag: name },
        };
      }
    }
  }
  return { method, answered: false, reason: `image tag(s) ${image.tags.join(', ')} name no git tag` };
}
