/** Deterministic fake digests for the demo: sha256 of a label, so every run is identical. */
import { createHash } from 'node:crypto';

export function demoDigest(label: string): string {
  return `sha256:${createHash('sha256').update(label).digest('hex')}`;
}
