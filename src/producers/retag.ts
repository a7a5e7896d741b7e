/**
 * Images given another name after their build: `docker tag thanos-linux-amd64
 * quay.io/thanos/thanos-linux-amd64:TAG`, then `docker manifest create quay.io/thanos/thanos:TAG
 * …-linux-amd64:TAG …-linux-arm64:TAG` (thanos, kube-state-metrics), or `docker buildx imagetools create
 * -t DST SRC…`. A recipe that builds a name so renamed builds the new name too: its repositories gain it,
 * through any chain of renames, so the published image finds its recipes (and their inputs). A rename whose
 * source no recipe builds (a pulled image) changes nothing.
 */
import { refOfTag } from './tag-ref.js';
import type { Retag } from './commands.js';
import type { BuildRecipe } from './types.js';

/** `recipes` with the names `retags` give what each builds added to its repositories (the others as they are). */
export function withRetags(recipes: BuildRecipe[], retags: readonly Retag[]): BuildRecipe[] {
  if (retags.length === 0) return recipes;
  const renamed = new Map<string, Set<string>>();
  for (const r of retags) {
    const to = refOfTag(r.to)?.name;
    if (!to) continue;
    for (const from of r.from) {
      const name = refOfTag(from)?.name;
      if (!name || name === to) continue;
      let set = renamed.get(name);
      if (!set) renamed.set(name, (set = new Set()));
      set.add(to);
    }
  }
  return recipes.map((recipe) => {
    const all = new Set(recipe.repositories);
    const queue = [...recipe.repositories];
    while (queue.length > 0) {
      for (const to of renamed.get(queue.shift()!) ?? []) {
        if (all.has(to)) continue;
        all.add(to);
        queue.push(to);
      }
    }
    return all.size === recipe.repositories.length ? recipe : { ...recipe, repositories: [...all] };
  });
}
