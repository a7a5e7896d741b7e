/** A first-party image as the engines (stale, affected) take it: plain data, no scanning or build-file reading. */
import type { Pin } from '../model/index.js';
import type { BuildInputs } from '../sources/types.js';

export interface ImageInput {
  /** Short image name (config key or last path component). */
  image: string;
  repository: string;
  /** First-party pins of this repository (any digests; the stale engine groups by digest). */
  pins: Pin[];
  /** Build inputs; absent or with `unknownReason` → `unknown`. */
  inputs?: BuildInputs;
  /** Why inputs are absent (no recipe, …), when `inputs` is undefined. */
  missingInputsReason?: string;
  /** Pins a build recipe or declared producer stamps, and its name (tag-history provenance reads these). */
  stamped?: { file: string; line: number; by: string }[];
}
