/** Which build recipes concern an image: by the repositories they tag, or the pins they stamp. Pure over a BuildModel. */
import { writeCoversPin, type PinPlace } from './stamps.js';
import type { BuildModel, BuildRecipe } from './types.js';

/**
 * Build recipes whose tagged repositories include `repository` (domain/path; each
 * tagged name taken through `canonical`, the config's aliases), or that stamp one
 * of the given pin locations.
 */
export function recipesFor(model: BuildModel, repository: string, pins: readonly PinPlace[], canonical: (repository: string) => string = (r) => r): BuildRecipe[] {
  return model.recipes.filter((r) => r.repositories.some((x) => canonical(x) === repository) || r.stamps.some((s) => pins.some((p) => writeCoversPin(s, p))));
}

/** How a recipe is named for people: `Makefile:image`, or `.github/workflows/x.yml:12 jobs.build step 2 "Build"`. */
export function recipeLabel(r: BuildRecipe): string {
  return (r.kind ?? 'make') === 'make' ? `${r.makefile}:${r.target}` : `${r.makefile}:${r.line} ${r.target}`;
}

/** Where a recipe's build line is written: `docker/docker.mk:214` (an included makefile), `Makefile:12`, `.github/workflows/x.yml:30`. */
export function recipeAt(r: Pick<BuildRecipe, 'makefile' | 'line' | 'lineIn'>): string {
  return `${r.lineIn ?? r.makefile}:${r.line}`;
}
