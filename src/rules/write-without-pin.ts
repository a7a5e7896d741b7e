/**
 * `write-without-pin`: a producer writes a place where pinwatch found no pin.
 * Either the file is not scanned (a rewrite wider than the scan: refs there are
 * never checked, promoted or mirrored), or the key holds no image reference, or
 * does not exist. A write covers a pin when key paths match (see producers/stamps.ts) or,
 * in YAML, when the written node overlaps one of the pin's spans (the registry
 * key of a chart-global pin, the `…Ref` half of an OCI pair).
 */
import { parseAllDocuments } from 'yaml';
import type { Pin } from '../model/index.js';
import type { PinWrite, Producer } from '../producers/types.js';
import { normalizeKeyPath, writeCoversPin } from '../producers/stamps.js';
import type { RawFinding, RuleCheck, RuleInput } from './types.js';

type NodeRange = [number, number];

/** `a.b[0].c` → ['a', 'b', 0, 'c']. */
export function keySegments(keyPath: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const part of normalizeKeyPath(keyPath).split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) return [part];
    if (m[1]) out.push(m[1]);
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

/** Ranges of the node at `keyPath` in every YAML document of `text`; empty when absent or not YAML. */
export function yamlNodeRanges(text: string, keyPath: string): NodeRange[] {
  const path = keySegments(keyPath);
  try {
    return parseAllDocuments(text).flatMap((doc) => {
      if (!('getIn' in doc)) return [];
      const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
      return node && typeof node === 'object' && node.range ? [[node.range[0], node.range[2]] as NodeRange] : [];
    });
  } catch {
    return [];
  }
}

function overlaps(range: NodeRange, pin: Pin): boolean {
  return pin.spans.some((s) => s.start < range[1] && s.end > range[0]);
}

type Verdict = 'covered' | 'no-pin-in-file' | 'key-missing' | 'not-a-ref' | 'unknown';

function judge(input: RuleInput, write: PinWrite, pinsInFile: Pin[]): Verdict {
  if (pinsInFile.some((p) => writeCoversPin(write, p))) return 'covered';
  if (input.skipped.some((s) => s.file === write.file)) return 'unknown'; // unparsed-file says why
  if (pinsInFile.length === 0) return 'no-pin-in-file';
  if (!write.keyPath) return 'covered';
  const text = input.fileText?.(write.file);
  if (text === undefined) return 'unknown';
  const ranges = yamlNodeRanges(text, write.keyPath);
  if (ranges.length === 0) return 'key-missing';
  return ranges.some((r) => pinsInFile.some((p) => overlaps(r, p))) ? 'covered' : 'not-a-ref';
}

function message(producer: Producer, write: PinWrite, verdict: Verdict): string {
  const target = write.keyPath ? `${write.file} key ${write.keyPath}` : write.file;
  switch (verdict) {
    case 'no-pin-in-file':
      return `${producer.id} writes ${target}, but pinwatch found no pin in that file: refs there are not checked (add the file to \`include\` or \`extraFiles\`; scan wider than you rewrite)`;
    case 'key-missing':
      return `${producer.id} writes ${target}, which does not exist in the file: the recipe creates a key nothing reads, or writes the wrong path`;
    default:
      return `${producer.id} writes ${target}, but the value there is not an image reference pinwatch recognises`;
  }
}

/** Writes already reported broken by the build model (missing file, unknown target). */
function reported(input: RuleInput, write: PinWrite): boolean {
  return input.model.problems.some((p) => p.file === write.source.file && p.line === write.source.line);
}

export const writeWithoutPin: RuleCheck = {
  id: 'write-without-pin',
  check: (input) => {
    const byFile = new Map<string, Pin[]>();
    for (const pin of input.pins) byFile.set(pin.file, [...(byFile.get(pin.file) ?? []), pin]);
    const seen = new Set<string>();
    const out: RawFinding[] = [];
    for (const producer of input.model.producers) {
      for (const write of producer.writes) {
        const key = `${producer.id}|${write.file}|${write.keyPath ?? ''}`;
        if (seen.has(key) || reported(input, write)) continue;
        seen.add(key);
        const verdict = judge(input, write, byFile.get(write.file) ?? []);
        if (verdict === 'covered' || verdict === 'unknown') continue;
        out.push({
          rule: 'write-without-pin',
          message: message(producer, write, verdict),
          file: write.source.file,
          line: write.source.line,
          related: [{ file: write.file, message: `written by ${producer.id}` }],
          identity: { file: write.source.file, keyPath: write.keyPath, extra: `${producer.id}|${write.file}` },
          evidence: { producer: producer.id, file: write.file, keyPath: write.keyPath, via: write.via, verdict },
        });
      }
    }
    return out;
  },
};
