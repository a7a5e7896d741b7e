/** Hand-built pins and inputs for stale/affected tests (no scanning involved). */
import { parseReference } from '../../src/reference/index.js';
import { formOf, type Pin } from '../../src/model/index.js';
import type { BuildInputs } from '../../src/sources/types.js';
import type { StaleImageInput } from '../../src/stale/types.js';

export const DIGEST = (c: string) => `sha256:${c.repeat(64).slice(0, 64)}`;

export function pin(file: string, line: number, raw: string): Pin {
  const ref = parseReference(raw);
  return { file, line, column: 1, shape: 'yaml-string', spans: [], raw, ref, form: formOf(ref), firstParty: true };
}

export function inputs(image: string, ...paths: string[]): BuildInputs {
  return { image, inputs: paths.map((path) => ({ path, why: 'test' })), ignore: [], steps: [`declared: ${paths.join(', ')}`] };
}

export function image(name: string, pins: Pin[], buildInputs?: BuildInputs, missingInputsReason?: string): StaleImageInput {
  return { image: name, repository: pins[0]!.ref.name, pins, ...(buildInputs ? { inputs: buildInputs } : {}), ...(missingInputsReason ? { missingInputsReason } : {}) };
}

export const values = (repo: string, tag: string, digest: string) => `controller:\n  image: "ghcr.io/acme/${repo}:${tag}@${digest}"\n`;
