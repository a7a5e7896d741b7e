/** `pinwatch repin --format json`: the RepinResult, without file bodies (diffs included). */
import type { RepinResult } from '../repin/types.js';

export function formatRepinJson(r: RepinResult): string {
  const { files, ...rest } = r;
  return `${JSON.stringify({ ...rest, files: files.map((f) => ({ file: f.file, diff: f.diff })) }, null, 2)}\n`;
}
