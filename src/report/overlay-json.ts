/** `overlay --format json`: the whole OverlayReport, stable key order, version 1 (schemas/overlay-output.schema.json). */
import type { OverlayReport } from '../overlay/index.js';

export function formatOverlayJson(report: OverlayReport): string {
  return JSON.stringify({ version: 1, command: 'overlay', ...report }, null, 2);
}
