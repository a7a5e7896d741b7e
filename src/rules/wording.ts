/** Small wording helpers shared by rule messages. */
import { formatReference } from '../reference/index.js';
import type { Pin } from '../model/index.js';
import type { FindingIdentity, RawFinding } from './types.js';

/** `values.yaml key a.b.image` or `images/x.tag`. */
export function where(pin: Pin): string {
  return pin.keyPath ? `${pin.file} key ${pin.keyPath}` : `${pin.file}:${pin.line}`;
}

/** The stored ref, normalised: `ghcr.io/acme/x:v1@sha256:…`. */
export function refText(pin: Pin): string {
  return formatReference(pin.ref);
}

/** The ref with its digest shortened, for messages: `ghcr.io/acme/x:v1@sha256:0123456789ab…`. */
export function refShort(pin: Pin): string {
  const { name, tag, digest } = pin.ref;
  return `${name}${tag !== undefined ? `:${tag}` : ''}${digest !== undefined ? `@${shortDigest(digest)}` : ''}`;
}

/** Shorten `sha256:<64 hex>` to `sha256:<12 hex>…` for messages. */
export function shortDigest(digest: string): string {
  const [algo, hex = ''] = digest.split(':');
  return hex.length > 12 ? `${algo}:${hex.slice(0, 12)}…` : digest;
}

export function pinIdentity(pin: Pin, extra?: string): FindingIdentity {
  return { file: pin.file, keyPath: pin.keyPath, repository: pin.ref.name, extra };
}

/** A raw finding located at a pin. */
export function atPin(rule: string, pin: Pin, message: string, more: Partial<RawFinding> = {}): RawFinding {
  return { rule, message, file: pin.file, line: pin.line, column: pin.column, pin, identity: pinIdentity(pin), ...more };
}
