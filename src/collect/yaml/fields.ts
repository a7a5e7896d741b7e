/**
 * Reading named fields out of a YAML map: the scalar under a key (following
 * aliases to the anchored scalar, which is the place that stores the text).
 */
import { isScalar, type Pair, type YAMLMap } from 'yaml';
import { locateScalar, scalarOf, scalarText, type Located, type YamlState } from './state.js';

/** Map keys as strings, with the pair for each. */
export function pairsByKey(map: YAMLMap): Map<string, Pair> {
  const out = new Map<string, Pair>();
  for (const pair of map.items) {
    if (isScalar(pair.key) && (typeof pair.key.value === 'string' || typeof pair.key.value === 'number')) {
      out.set(String(pair.key.value), pair);
    }
  }
  return out;
}

export type FieldRead =
  | { kind: 'absent' }
  | { kind: 'empty'; pair: Pair }
  | { kind: 'collection'; pair: Pair }
  | { kind: 'text'; pair: Pair; at: Located }
  /** A value that exists but whose text could not be found in the source (escapes). */
  | { kind: 'unlocatable'; pair: Pair; value: string };

export function readField(state: YamlState, pairs: Map<string, Pair>, key: string): FieldRead {
  const pair = pairs.get(key);
  if (!pair) return { kind: 'absent' };
  if (pair.value === null || pair.value === undefined) return { kind: 'empty', pair };
  const scalar = scalarOf(state, pair.value);
  if (!scalar) return { kind: 'collection', pair };
  const value = scalarText(scalar);
  if (value === undefined || value === '') return { kind: 'empty', pair };
  const at = locateScalar(state, scalar);
  return at ? { kind: 'text', pair, at } : { kind: 'unlocatable', pair, value };
}

export function textOf(read: FieldRead): Located | undefined {
  return read.kind === 'text' ? read.at : undefined;
}
