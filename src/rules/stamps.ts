/**
 * Which producer writes stamp a pin. A write names a file and (for YAML) a key
 * path; it covers a pin in that file whose key path is the same, or a parent or
 * child of it (a split map `a.image` is stamped by writes to `a.image.tag` and
 * `a.image.digest`). A write without a key path (`> images/x.tag`) covers the
 * whole file, or only the lines it edits when it says so (`sed -i 's|image: .*foo|…|'`).
 */
import type { Pin } from '../model/index.js';
import type { BuildModel, PinWrite } from '../producers/types.js';
import type { PinStamp } from './types.js';

/** `.a["b"].c[0]` → `a.b.c[0]`: the dot form pins use. */
export function normalizeKeyPath(path: string): string {
  return path
    .trim()
    .replace(/\[\s*["']([^"']*)["']\s*\]/g, '.$1')
    .replace(/^\.+/, '')
    .replace(/\.{2,}/g, '.');
}

function related(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`) || a.startsWith(`${b}[`) || b.startsWith(`${a}[`);
}

/** True when `write` stamps `pin`. */
export function writeCoversPin(write: PinWrite, pin: Pin): boolean {
  if (write.file !== pin.file) return false;
  if (write.lines && !write.lines.includes(pin.line)) return false;
  if (write.keyPath === undefined || write.keyPath === '') return true;
  if (pin.keyPath === undefined) return false;
  return related(normalizeKeyPath(write.keyPath), normalizeKeyPath(pin.keyPath));
}

/** Index the model's writes by file so each pin looks at only its file's writes. */
export function stampIndex(model: BuildModel): (pin: Pin) => PinStamp[] {
  const byFile = new Map<string, PinStamp[]>();
  for (const producer of model.producers) {
    for (const write of producer.writes) {
      const list = byFile.get(write.file) ?? [];
      list.push({ producer, write });
      byFile.set(write.file, list);
    }
  }
  return (pin) => (byFile.get(pin.file) ?? []).filter((s) => writeCoversPin(s.write, pin));
}

/** Distinct producers among stamps, in model order. */
export function distinctProducers(stamps: readonly PinStamp[]): PinStamp['producer'][] {
  const seen = new Set<string>();
  const out: PinStamp['producer'][] = [];
  for (const s of stamps) {
    if (seen.has(s.producer.id)) continue;
    seen.add(s.producer.id);
    out.push(s.producer);
  }
  return out;
}
