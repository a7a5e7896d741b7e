/**
 * `pinwatch explain IMAGE`: everything pinwatch knows about one first-party
 * image, with how it found each thing: pins, producers, build recipe, build
 * inputs (derivation steps), provenance (each method: answered or why not),
 * and the unshipped commits.
 */
import type { Config } from '../config/types.js';
import { PinwatchError } from '../errors.js';
import type { Pin } from '../model/index.js';
import { producersFor } from '../producers/index.js';
import type { BuildRecipe, Producer } from '../producers/types.js';
import { scanRepo } from '../scan/scan.js';
import type { ScanResult } from '../scan/types.js';
import { computeStale, type StaleOptions } from '../stale/engine.js';
import { imagesFromPins, shortName, type ImageKnowledge } from '../stale/images.js';
import type { StaleImage } from '../stale/types.js';
import { methodsFor } from '../stale/registry-options.js';

export interface ExplainedPin {
  pin: Pin;
  /** Producers that stamp this pin (`Makefile:target`), with whether the build reaches them. */
  producers: { id: string; built: boolean; builtVia?: string[]; via: string[] }[];
}

export interface Explanation {
  image: string;
  repository: string;
  declared?: { key: string };
  pins: ExplainedPin[];
  recipes: BuildRecipe[];
  missingInputsReason?: string;
  /** One entry per pinned digest: status, provenance steps, unshipped commits, inputs. */
  stale: StaleImage[];
  notes: string[];
}

export interface ExplainOptions extends Omit<StaleOptions, 'methods' | 'buildCommit'> {
  scan?: ScanResult;
}

/** Does IMAGE (short name, config key, repository, or its last path component) name this image? */
export function namesImage(query: string, k: Pick<ImageKnowledge, 'image' | 'repository'>): boolean {
  return query === k.image || query === k.repository || query === shortName(k.repository);
}

/**
 * The image IMAGE names: an exact repository or configured name first; a last
 * path component shared by several repositories is ambiguous (a usage error
 * listing them), never a silent pick.
 */
export function pickImage<K extends Pick<ImageKnowledge, 'image' | 'repository' | 'declared'>>(query: string, images: readonly K[]): K | undefined {
  const exact = images.find((k) => query === k.repository) ?? images.find((k) => k.declared !== undefined && query === k.image);
  if (exact) return exact;
  const matches = images.filter((k) => namesImage(query, k));
  if (matches.length > 1) {
    throw new PinwatchError('ambiguous-image', `IMAGE "${query}" names ${matches.length} pinned repositories (${matches.map((k) => k.repository).join(', ')}); give the full repository`);
  }
  return matches[0];
}

export async function explainImage(repoRoot: string, config: Config, query: string, opts: ExplainOptions = {}): Promise<Explanation> {
  const scan = opts.scan ?? (await scanRepo(repoRoot, config));
  const known = await imagesFromPins(repoRoot, config, scan.pins);
  const match = pickImage(query, known.images);
  if (!match) {
    const names = known.images.map((k) => k.image);
    throw new PinwatchError('unknown-image', `no first-party image "${query}" is pinned in this tree; expected one of: ${names.join(', ') || '(none: is firstParty set in pinwatch.yaml?)'}`);
  }
  const report = await computeStale(repoRoot, [match], { ...opts, methods: methodsFor(config, opts.registry), buildCommit: config.provenance.buildCommit });
  const producers = (pin: Pin): Producer[] => (known.model ? producersFor(known.model, pin.file, pin.keyPath, pin.line) : []);
  return {
    image: match.image,
    repository: match.repository,
    ...(match.declared ? { declared: { key: match.declared.key } } : {}),
    pins: match.pins.map((pin) => ({
      pin,
      producers: producers(pin).map((p) => ({
        id: p.id,
        built: p.built,
        ...(p.builtVia ? { builtVia: p.builtVia } : {}),
        via: p.writes.filter((w) => w.file === pin.file).map((w) => `${w.via} at ${w.source.file}:${w.source.line}`),
      })),
    })),
    recipes: match.recipes,
    ...(match.missingInputsReason ? { missingInputsReason: match.missingInputsReason } : {}),
    stale: report.images,
    notes: [...known.notes, ...report.warnings],
  };
}
