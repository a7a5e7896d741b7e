/**
 * `repository-multiple-digests`: one first-party repository pinned at two or more
 * digests. Every pin of such a repository gets a finding that lists all the others,
 * grouped by digest, so each location is visible where it is.
 */
import type { Pin, RelatedLocation } from '../model/index.js';
import { atPin, shortDigest, where } from './wording.js';
import type { RawFinding, RuleCheck } from './types.js';
import { LIST_SHOWN, listSome } from '../util/list.js';

function groupByRepository(pins: readonly Pin[]): Map<string, Pin[]> {
  const groups = new Map<string, Pin[]>();
  for (const pin of pins) {
    if (!pin.firstParty || pin.ref.digest === undefined) continue;
    const list = groups.get(pin.ref.name) ?? [];
    list.push(pin);
    groups.set(pin.ref.name, list);
  }
  return groups;
}

function digestsOf(pins: readonly Pin[]): Map<string, Pin[]> {
  const byDigest = new Map<string, Pin[]>();
  for (const pin of pins) {
    const list = byDigest.get(pin.ref.digest!) ?? [];
    list.push(pin);
    byDigest.set(pin.ref.digest!, list);
  }
  return byDigest;
}

function summary(byDigest: Map<string, Pin[]>): string {
  const parts = [...byDigest].map(([digest, pins]) => `${shortDigest(digest)} (${listSome(pins.map(where))})`);
  return listSome(parts, LIST_SHOWN, '; ');
}

function findingsFor(repository: string, pins: Pin[]): RawFinding[] {
  const byDigest = digestsOf(pins);
  if (byDigest.size < 2) return [];
  const text = summary(byDigest);
  const locations = Object.fromEntries([...byDigest].map(([d, ps]) => [d, ps.map((p) => ({ file: p.file, line: p.line, keyPath: p.keyPath }))]));
  return pins.map((pin) => {
    const related: RelatedLocation[] = pins
      .filter((o) => o !== pin)
      .map((o) => ({ file: o.file, line: o.line, column: o.column, message: `${repository}@${shortDigest(o.ref.digest!)}` }));
    const message = `${repository} is pinned at ${byDigest.size} different digests across the tree: ${text}; this pin has ${shortDigest(pin.ref.digest!)}`;
    return atPin('repository-multiple-digests', pin, message, { related, evidence: { repository, digests: locations }, field: 'digest' });
  });
}

export const repositoryMultipleDigests: RuleCheck = {
  id: 'repository-multiple-digests',
  check: ({ pins }) => [...groupByRepository(pins)].flatMap(([repo, group]) => findingsFor(repo, group)),
};
