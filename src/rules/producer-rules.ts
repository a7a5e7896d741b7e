/**
 * Rules on who stamps a pin: `no-producer`, `multiple-producers`,
 * `lockstep-mismatch`, `producer-not-built`.
 */
import type { Pin, RelatedLocation } from '../model/index.js';
import type { PinWrite, Producer } from '../producers/index.js';
import { atPin, refShort, refText, where } from './wording.js';
import { distinctProducers, normalizeKeyPath, type PinStamp } from '../producers/stamps.js';
import type { RawFinding, RuleCheck, RuleInput } from './types.js';
import { listSome } from '../util/list.js';
import { pushTo } from '../util/list.js';

export const noProducer: RuleCheck = {
  id: 'no-producer',
  check: ({ pins, stampsOf }) =>
    pins
      .filter((p) => p.firstParty && !p.source && stampsOf(p).length === 0)
      .map((p) => atPin('no-producer', p, `no producer stamps ${where(p)} (${refShort(p)}): nothing pinwatch reads refreshes this pin (a script it does not read may)`)),
};

function writeLocation(producer: Producer, write: PinWrite): RelatedLocation {
  return { file: write.source.file, line: write.source.line, message: `${producer.id} writes it here` };
}

/** `copy-of:<file>#<key>`: a write that copies another key's current value (producers' convention). */
function copySource(write: PinWrite): { file: string; keyPath?: string } | undefined {
  const m = /^copy-of:([^#]*)(?:#(.*))?$/.exec(write.refId);
  if (!m) return undefined;
  return m[2] !== undefined ? { file: m[1]!, keyPath: m[2] } : { file: m[1]! };
}

/**
 * A producer whose only write to the pin copies a key that another producer of
 * the same pin stamps is a follower, not a rival: it can only ever write the
 * value the other one stamped.
 */
function rivals(stamps: readonly PinStamp[]): Producer[] {
  const producers = distinctProducers(stamps);
  const stampsKey = (p: Producer, src: { file: string; keyPath?: string }) =>
    p.writes.some((w) => w.file === src.file && normalizeKeyPath(w.keyPath ?? '') === normalizeKeyPath(src.keyPath ?? ''));
  return producers.filter((p) => {
    const own = stamps.filter((s) => s.producer === p);
    const sources = own.map((s) => copySource(s.write));
    if (sources.some((src) => src === undefined)) return true;
    return !sources.every((src) => producers.some((o) => o !== p && stampsKey(o, src!)));
  });
}

export const multipleProducers: RuleCheck = {
  id: 'multiple-producers',
  check: ({ pins, stampsOf }) =>
    pins.flatMap((pin): RawFinding[] => {
      const stamps = stampsOf(pin);
      const producers = rivals(stamps);
      if (producers.length < 2) return [];
      const ids = producers.map((p) => p.id);
      const related = producers.map((p) => writeLocation(p, stamps.find((s) => s.producer === p)!.write));
      return [atPin('multiple-producers', pin, `${producers.length} producers stamp ${where(pin)}: ${ids.join(', ')}`, { related, evidence: { producers: ids } })];
    }),
};

/** One producer's writes sharing a refId, with the pins each write covers. */
interface LockstepGroup {
  producer: Producer;
  refId: string;
  members: { write: PinWrite; pins: Pin[] }[];
}

function lockstepGroups(input: RuleInput): LockstepGroup[] {
  const pinsByWrite = new Map<PinWrite, Pin[]>();
  for (const pin of input.pins) {
    for (const { write } of input.stampsOf(pin)) pushTo(pinsByWrite, write, pin);
  }
  const groups: LockstepGroup[] = [];
  for (const producer of input.model.producers) {
    const byRef = new Map<string, PinWrite[]>();
    for (const w of producer.writes) pushTo(byRef, w.refId, w);
    for (const [refId, writes] of byRef) {
      if (writes.length < 2 && !writes[0]!.glob) continue; // one glob write may stamp many files: those agree too
      const members = writes.map((write) => ({ write, pins: pinsByWrite.get(write) ?? [] }));
      if (!writes.some((w) => w.firstPartyOnly)) {
        groups.push({ producer, refId, members });
        continue;
      }
      // a declared whole-file write stamps each first-party image of the file with that image's own ref
      const repositories = [...new Set(members.flatMap((m) => m.pins.map((p) => p.ref.name)))];
      for (const repo of repositories) {
        groups.push({ producer, refId: `${refId}|${repo}`, members: members.map((m) => ({ write: m.write, pins: m.pins.filter((p) => p.ref.name === repo) })) });
      }
    }
  }
  return groups;
}

/**
 * The producer's first stamped key leads; every key in the group whose ref
 * differs from the leader's gets a finding (with two keys that is the second one).
 */
function mismatch(group: LockstepGroup): RawFinding[] {
  const pins = [...new Set(group.members.flatMap((m) => m.pins))];
  const [leader, ...others] = pins;
  if (!leader) return [];
  const listing = pins.map((p) => `${where(p)} = ${refShort(p)}`).join('; ');
  const evidence = { producer: group.producer.id, refId: group.refId, pins: pins.map((p) => ({ file: p.file, line: p.line, keyPath: p.keyPath, ref: refText(p) })) };
  return others
    .filter((p) => refText(p) !== refText(leader))
    .map((p) =>
      atPin('lockstep-mismatch', p, `${group.producer.id} stamps ${where(p)} with the same ref as ${where(leader)}, but they differ: ${listing}`, {
        related: [{ file: leader.file, line: leader.line, column: leader.column, message: `${where(leader)} = ${refShort(leader)}` }],
        identity: { file: p.file, keyPath: p.keyPath, repository: p.ref.name, extra: group.producer.id },
        evidence,
      }),
    );
}

export const lockstepMismatch: RuleCheck = {
  id: 'lockstep-mismatch',
  check: (input) => lockstepGroups(input).flatMap(mismatch),
};

function stampedPins(input: RuleInput, producer: Producer): Pin[] {
  return input.pins.filter((pin) => input.stampsOf(pin).some((s) => s.producer === producer));
}

/** Every write of the producer already has a build problem at its line (it writes a file that does not exist, …). */
function writesAllBroken(input: RuleInput, producer: Producer): boolean {
  return producer.writes.every((w) => input.model.problems.some((p) => p.file === w.source.file && p.line === w.source.line));
}

/**
 * An unbuilt producer is a finding when something it stamps exists: a pin, or a
 * write not already reported broken (then `build-recipe-problem` says it all).
 */
export const producerNotBuilt: RuleCheck = {
  id: 'producer-not-built',
  check: (input) =>
    input.model.producers
      .filter((p) => !p.built)
      .flatMap((producer): RawFinding[] => {
        const pins = stampedPins(input, producer);
        if (pins.length === 0 && writesAllBroken(input, producer)) return [];
        const keys = listSome(pins.length ? pins.map(where) : producer.writes.map((w) => (w.keyPath ? `${w.file} key ${w.keyPath}` : w.file)));
        return [{
          rule: 'producer-not-built',
          message: `${producer.id} is not reachable from the build entry point ${input.model.entry}, so what it stamps never refreshes: ${keys || 'no writes'}`,
          file: producer.makefile,
          line: producer.line,
          related: pins.map((p) => ({ file: p.file, line: p.line, column: p.column, message: `stamped by ${producer.id}` })),
          identity: { file: producer.makefile, extra: producer.target },
          evidence: { producer: producer.id, entry: input.model.entry, pins: pins.map((p) => ({ file: p.file, line: p.line, keyPath: p.keyPath })) },
        }];
      }),
};
