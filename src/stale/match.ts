/**
 * Does a changed path belong to an image's build inputs? Delegates to the
 * sources module's matcher (trees, package dirs, files, globs, ordered ignore).
 */
import { inputMatcher } from '../sources/matcher.js';
import type { BuildInputs, InputPattern } from '../sources/types.js';

export type PathMatcher = (path: string) => InputPattern | undefined;

export function buildInputMatcher(inputs: BuildInputs): PathMatcher {
  const m = inputMatcher(inputs);
  return (path) => m.match(path);
}
