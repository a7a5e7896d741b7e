/** `affectedReport`: scan → images and build inputs → computeAffected. */
import type { Config } from '../config/types.js';
import { scanRepo } from '../scan/index.js';
import { imagesFromPins } from '../images/images.js';
import { computeAffected, type AffectedOptions, type AffectedResult } from './affected.js';

export async function affectedReport(repoRoot: string, config: Config, base: string, opts: AffectedOptions = {}): Promise<AffectedResult & { notes: string[] }> {
  const scan = await scanRepo(repoRoot, config, { recipeTree: true });
  const known = await imagesFromPins(repoRoot, config, scan.pins, undefined, { unpinned: true, ...(scan.recipeTree ? { tree: scan.recipeTree } : {}) });
  const result = await computeAffected(repoRoot, base, known.images, opts);
  return { ...result, notes: known.notes };
}
