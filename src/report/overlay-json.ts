/** `overlay --format json`: the whole OverlayReport, stable key order, schemaVersion 1. */
import type { OverlayReport } from '../overlay/types.js';

export function formatOverlayJson(report: OverlayReport): string {
  return JSON.stringify({ schemaVersion: 1, command: 'overlay', ...report }, null, 2);
}
