/**
 * Stable finding identities: a hash of rule + file + key path + repository (+ a
 * rule-specific extra), never line numbers, so unrelated edits keep them. Equal
 * identities in one run get an occurrence suffix (`:2`, `:3`) in report order.
 */
import { createHash } from 'node:crypto';
import type { FindingIdentity } from '../rules/index.js';

export function fingerprintOf(rule: string, id: FindingIdentity): string {
  const parts = [rule, id.file ?? '', id.keyPath ?? '', id.repository ?? '', id.extra ?? ''];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

/** Make fingerprints unique within one run, keeping the first occurrence bare. */
export function disambiguate(fingerprints: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return fingerprints.map((fp) => {
    const n = (seen.get(fp) ?? 0) + 1;
    seen.set(fp, n);
    return n === 1 ? fp : `${fp}:${n}`;
  });
}
