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
import type { PinWrite, Producer } from '../producers/index.js';
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

/**
 * Ranges of the node at `keyPath` in every YAML document of `text`; empty when
 * absent or not YAML. `docs` is the parse of `text` when the caller keeps one
 * (a file written at many keys is parsed once). Duplicate keys are not checked
 * here (`uniqueKeys: false`): yaml's check is quadratic in the map's size, and
 * the collector reports duplicates.
 */
export function yamlNodeRanges(text: string, keyPath: string, docs?: ParsedDocs): NodeRange[] {
  const path = keySegments(keyPath);
  try {
    return (docs ?? parseYaml(text)).flatMap((doc) => {
      if (!('getIn' in doc)) return [];
      const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
      return node && typeof node === 'object' && node.range ? [[node.range[0], node.range[2]] as NodeRange] : [];
    });
  } catch {
    return [];
  }
}

type ParsedDocs = ReturnType<typeof parseAllDocuments>;

function parseYaml(text: string): ParsedDocs {
  return parseAllDocuments(text, { uniqueKeys: false });
}

function overlaps(range: NodeRange, pin: Pin): boolean {
  return pin.spans.some((s) => s.start < range[1] && s.end > range[0]);
}

type Verdict = 'covered' | 'no-pin-in-file' | 'no-pin-of-image' | 'key-missing' | 'not-a-ref' | 'unknown';

/** What the rule computes once per run: pins by file, skipped files, one parse per written file. */
interface Lookups {
  input: RuleInput;
  byFile: Map<string, Pin[]>;
  skipped: Set<string>;
  parsed(file: string, text: string): ParsedDocs | undefined;
}

function lookupsFor(input: RuleInput): Lookups {
  const byFile = new Map<string, Pin[]>();
  for (const pin of input.pins) {
    const list = byFile.get(pin.file);
    if (list) list.push(pin);
    else byFile.set(pin.file, [pin]);
  }
  const parses = new Map<string, ParsedDocs | undefined>();
  const parsed = (file: string, text: string): ParsedDocs | undefined => {
    if (!parses.has(file)) {
      try {
        parses.set(file, parseYaml(text));
      } catch {
        parses.set(file, undefined);
      }
    }
    return parses.get(file);
  };
  return { input, byFile, skipped: new Set(input.skipped.map((s) => s.file)), parsed };
}

function judge(at: Lookups, write: PinWrite): Verdict {
  // a glob write covers the pins of every file it matches; only an exact file is looked into below
  const pinsInFile = write.glob ? at.input.pins.filter((p) => writeCoversPin({ ...write, lines: undefined, keyPath: undefined, image: undefined, firstPartyOnly: false }, p)) : (at.byFile.get(write.file) ?? []);
  if (pinsInFile.some((p) => writeCoversPin(write, p))) return 'covered';
  if (!write.glob && at.skipped.has(write.file)) return 'unknown'; // unparsed-file says why
  if (pinsInFile.length === 0) return 'no-pin-in-file';
  if (write.image !== undefined && (!write.keyPath || write.glob)) return 'no-pin-of-image';
  if (write.glob) return 'unknown';
  if (!write.keyPath) return 'covered';
  const text = at.input.fileText?.(write.file);
  if (text === undefined) return 'unknown';
  const docs = at.parsed(write.file, text);
  const ranges = docs ? yamlNodeRanges(text, write.keyPath, docs) : [];
  if (ranges.length === 0) return 'key-missing';
  return ranges.some((r) => pinsInFile.some((p) => overlaps(r, p))) ? 'covered' : 'not-a-ref';
}

function message(producer: Producer, write: PinWrite, verdict: Verdict): string {
  const target = write.keyPath ? `${write.file} key ${write.keyPath}` : write.file;
  switch (verdict) {
    case 'no-pin-in-file':
      return `${producer.id} writes ${target}, but pinwatch found no pin in that file: refs there are not checked (add the file to \`include\` or \`extraFiles\`; scan wider than you rewrite)`;
    case 'no-pin-of-image':
      return `${producer.id} writes ${write.image} to ${target}, but no pin of that image is there: the image name or the file is wrong`;
    case 'key-missing':
      return `${producer.id} writes ${target}, which does not exist in the file: the recipe creates a key nothing reads, or writes the wrong path`;
    default:
      return `${producer.id} writes ${target}, but the value there is not an image reference pinwatch recognises`;
  }
}

export const writeWithoutPin: RuleCheck = {
  id: 'write-without-pin',
  check: (input) => {
    const at = lookupsFor(input);
    const brokenWrites = new Set(input.model.problems.map((p) => `${p.file}:${p.line}`));
    const seen = new Set<string>();
    const out: RawFinding[] = [];
    for (const producer of input.model.producers) {
      for (const write of producer.writes) {
        const key = `${producer.id}|${write.file}|${write.keyPath ?? ''}`;
        if (seen.has(key) || brokenWrites.has(`${write.source.file}:${write.source.line}`)) continue;
        seen.add(key);
        const verdict = judge(at, write);
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
