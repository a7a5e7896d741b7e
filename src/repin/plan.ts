/**
 * Plan a repin: every pin of the repository, in every shape, plus every pin a
 * producer stamps in lockstep (same `refId`) with one of them. Pure: pins,
 * file texts and the build model in; per-file edits, changes and problems out.
 */
import type { Pin, Problem } from '../model/index.js';
import type { BuildModel, PinWrite } from '../producers/index.js';
import { writeCoversPin } from '../producers/stamps.js';
import type { SpanEdit } from '../edit/index.js';
import { formatReference } from '../reference/index.js';
import { canonicalRepository } from '../config/aliases.js';
import { rewritePin } from './rewrite.js';
import type { RepinChange, RepinTarget } from './types.js';
import { pushTo } from '../util/list.js';

export interface RepinPlan {
  edits: Map<string, { pins: Pin[]; edits: SpanEdit[] }>;
  changes: RepinChange[];
  problems: Problem[];
  oldDigests: string[];
}

interface LockstepPin {
  pin: Pin;
  producer: string;
  refId: string;
}

/** Pins of other repositories that producers stamp together with a pin of `targets`. */
export function lockstepPins(model: BuildModel | undefined, targets: Pin[], all: Pin[], problems: Problem[]): LockstepPin[] {
  if (!model) return [];
  const out: LockstepPin[] = [];
  for (const producer of model.producers) {
    const groups = new Map<string, PinWrite[]>();
    for (const w of producer.writes) pushTo(groups, w.refId, w);
    for (const [refId, writes] of groups) {
      if (!writes.some((w) => targets.some((p) => writeCoversPin(w, p)))) continue;
      for (const w of writes) {
        const covered = all.filter((p) => writeCoversPin(w, p));
        if (covered.length === 0) {
          problems.push({
            file: w.file,
            code: 'lockstep-key-missing',
            reason: `${producer.id} stamps ${w.file}${w.keyPath ? `#.${w.keyPath}` : ''} in lockstep (${w.source.file}:${w.source.line}), but no pin is there; nothing to rewrite`,
            blocking: false,
          });
        }
        for (const pin of covered) if (!targets.includes(pin)) out.push({ pin, producer: producer.id, refId });
      }
    }
  }
  return out;
}

/**
 * `aliases`: a pin under an alias prefix of the target's repository is a pin of
 * the same image and moves too, keeping its own registry prefix (only tag and
 * digest change: the alias publishes the same digests). A source ref (a Skaffold
 * placeholder) is replaced at release: repin leaves it as written.
 */
export function planRepin(pins: Pin[], texts: (file: string) => string, target: RepinTarget, model?: BuildModel, aliases: Readonly<Record<string, string>> = {}): RepinPlan {
  const targets = pins.filter((p) => !p.source && (p.ref.name === target.repository || (p.ref.name !== '' && canonicalRepository(p.ref.name, aliases) === target.repository)));
  const problems: Problem[] = [];
  const changes: RepinChange[] = [];
  const edits = new Map<string, { pins: Pin[]; edits: SpanEdit[] }>();
  const add = (pin: Pin, wholeRef?: string, lockstep?: RepinChange['lockstep']) => {
    const text = texts(pin.file);
    const r = rewritePin(text, pin, target, wholeRef);
    if (typeof r === 'string') {
      problems.push({ file: pin.file, line: pin.line, code: 'pin-not-rewritable', reason: `${pin.file}:${pin.line}${pin.keyPath ? ` (${pin.keyPath})` : ''}: ${r}`, blocking: true });
      return;
    }
    if (r.edits.length === 0) {
      if (!pin.spans.some((sp) => sp.field === 'ref' || sp.field === 'tag' || sp.field === 'digest')) {
        problems.push({ file: pin.file, line: pin.line, code: 'pin-without-version', reason: `${pin.file}:${pin.line}${pin.keyPath ? ` (${pin.keyPath})` : ''} stores neither a tag nor a digest of ${pin.ref.name}; left as it is`, blocking: false });
      }
      return;
    }
    const entry = edits.get(pin.file) ?? { pins: [], edits: [] };
    entry.pins.push(pin);
    entry.edits.push(...r.edits);
    edits.set(pin.file, entry);
    const change: RepinChange = { file: pin.file, line: pin.line, shape: pin.shape, from: r.from, to: r.to };
    if (pin.keyPath) change.keyPath = pin.keyPath;
    if (lockstep) change.lockstep = lockstep;
    changes.push(change);
  };
  for (const pin of targets) add(pin);
  const seen = new Set<Pin>();
  const newRef = formatReference({ name: target.repository, tag: target.tag, digest: target.digest });
  for (const l of lockstepPins(model, targets, pins, problems)) {
    if (seen.has(l.pin)) continue;
    seen.add(l.pin);
    add(l.pin, newRef, { producer: l.producer, refId: l.refId });
  }
  if (targets.length === 0) {
    problems.push({ code: 'no-pins', reason: `no pin of ${target.repository} was found; check the repository name (pinwatch scan lists every pin)`, blocking: true });
  }
  const oldDigests = [...new Set(targets.map((p) => p.ref.digest).filter((d): d is string => d !== undefined && d !== target.digest))];
  return { edits, changes, problems, oldDigests };
}
