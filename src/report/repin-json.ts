/** `pinwatch repin --format json`: version 1 and the RepinResult, without file bodies (diffs included). */
import type { RepinResult } from '../repin/index.js';

export function formatRepinJson(r: RepinResult): string {
  const { files, ...rest } = r;
  return `${JSON.stringify({ version: 1, ...rest, files: files.map((f) => ({ file: f.file, diff: f.diff })) }, null, 2)}\n`;
}
