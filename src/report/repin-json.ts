/** `pinwatch repin --format json`: version 1 and the RepinResult, without file bodies (diffs included). */
import type { BatchRepinResult, RepinResult } from '../repin/index.js';

function repinJson(r: RepinResult): Record<string, unknown> {
  const { files, ...rest } = r;
  return { version: 1, ...rest, files: files.map((f) => ({ file: f.file, diff: f.diff })) };
}

export function formatRepinJson(r: RepinResult): string {
  return `${JSON.stringify(repinJson(r), null, 2)}\n`;
}

/** `repin --from-build-metadata … --format json`: the images read, each repin's result (as above), and what was not repinned. */
export function formatBatchRepinJson(r: BatchRepinResult): string {
  return `${JSON.stringify({ version: 1, fromBuildMetadata: r.files, images: r.images, results: r.results.map(repinJson), skipped: r.skipped }, null, 2)}\n`;
}
