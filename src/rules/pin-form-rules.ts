/**
 * Rules on the form of one pin: `first-party-missing-digest`, `floating-tag`,
 * `third-party-missing-digest`. A source ref (`ko://…`, a Skaffold artifact
 * placeholder) is what the release replaces with an image: none of them apply.
 */
import type { Pin } from '../model/index.js';
import { atPin, refShort, refText } from './wording.js';
import type { RawFinding, RuleCheck } from './types.js';

/** A pin with no digest at all (bare tag, `latest`, or nothing). */
function lacksDigest(pin: Pin): boolean {
  return pin.ref.digest === undefined && !pin.source;
}

export const firstPartyMissingDigest: RuleCheck = {
  id: 'first-party-missing-digest',
  check: ({ pins }) =>
    pins
      .filter((p) => p.firstParty && lacksDigest(p))
      .map((p) => atPin('first-party-missing-digest', p, `${refText(p)} is pinned without a digest: the tree does not say which image runs`, { field: 'tag' })),
};

function floatingMessage(pin: Pin): string {
  if (pin.ref.tag === undefined) return `${refText(pin)} has no tag and no digest: it pulls whatever \`latest\` is at pull time`;
  if (pin.ref.digest === undefined) return `${refText(pin)} names no version: what runs depends on when it was pulled`;
  return `${refShort(pin)} carries the floating tag \`latest\`: the digest fixes the bytes, but the tag says nothing true about the version`;
}

export const floatingTag: RuleCheck = {
  id: 'floating-tag',
  check: ({ pins }) =>
    pins
      .filter((p) => p.firstParty && !p.source && (p.ref.tag === 'latest' || (p.ref.tag === undefined && p.ref.digest === undefined)))
      .map((p): RawFinding => atPin('floating-tag', p, floatingMessage(p), { field: 'tag' })),
};

export const thirdPartyMissingDigest: RuleCheck = {
  id: 'third-party-missing-digest',
  check: ({ pins }) =>
    pins
      .filter((p) => !p.firstParty && lacksDigest(p) && p.ref.path !== '')
      .map((p) => atPin('third-party-missing-digest', p, `${refText(p)} (third-party) is pinned without a digest`, { field: 'tag' })),
};
