/** `pinwatch affected --format json`: a JSON array usable as a CI build matrix. */
import type { AffectedResult } from '../affected/index.js';

export function affectedMatrix(result: AffectedResult): { image: string; repository: string; reasons: { path: string; input: string; why?: string }[] }[] {
  return result.affected.map((a) => ({ image: a.image, repository: a.repository, reasons: a.reasons }));
}

export function formatAffectedJson(result: AffectedResult): string {
  return `${JSON.stringify(affectedMatrix(result))}\n`;
}
