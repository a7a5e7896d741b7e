/**
 * The image reference grammar, ported from distribution/reference (regexp.go,
 * normalize.go, reference.go): parse, normalise (docker.io + library/) and format.
 * Imports only the leaf errors.ts. Errors (InvalidReferenceError, code
 * `invalid-ref`) quote the input and show the expected form.
 */
import { PinwatchError } from '../errors.js';

const alphanumeric = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]+)';
const pathComponent = `${alphanumeric}(?:${separator}${alphanumeric})*`;
const domainNameComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const ipv6address = '\\[(?:[a-fA-F0-9:]+)\\]';
const domainName = `${domainNameComponent}(?:\\.${domainNameComponent})*`;
const host = `(?:${domainName}|${ipv6address})`;
const domainAndPort = `${host}(?::[0-9]+)?`;
const tagPattern = '[\\w][\\w.-]{0,127}';
const digestPattern = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9A-Fa-f]{32,}';
const remoteName = `${pathComponent}(?:/${pathComponent})*`;
const namePattern = `(?:${domainAndPort}/)?${remoteName}`;

const referenceRegexp = new RegExp(`^(${namePattern})(?::(${tagPattern}))?(?:@(${digestPattern}))?$`);
const anchoredTag = new RegExp(`^${tagPattern}$`);
const anchoredDigest = new RegExp(`^${digestPattern}$`);
const anchoredDomain = new RegExp(`^${domainAndPort}$`);
const anchoredName = new RegExp(`^${namePattern}$`);
/** A bare 64-hex string is an image ID, never a repository name (normalize.go). */
const anchoredIdentifier = /^[a-f0-9]{64}$/;

export const DEFAULT_DOMAIN = 'docker.io';
const LEGACY_DEFAULT_DOMAIN = 'index.docker.io';
const OFFICIAL_REPO_PREFIX = 'library/';
const NAME_TOTAL_LENGTH_MAX = 255;
/**
 * Longest text the grammar's regexps are run on: a 255-character name, a
 * 128-character tag and a sha512 digest fit well inside. Longer input (a 4 MB
 * YAML scalar) would overflow the regexp engine's backtracking stack.
 */
export const REFERENCE_LENGTH_MAX = 1024;

/** Known digest algorithms and the hex length each requires. */
const DIGEST_HEX_LENGTH: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };

export interface ImageRef {
  /** Registry host with optional port, normalised (`docker.io` for familiar names). */
  domain: string;
  /** Repository path below the domain (`library/nginx`, `platform/billing`). */
  path: string;
  /** `domain/path`: the repository including its registry host. */
  name: string;
  tag?: string;
  digest?: string;
}

/** Which rule of the grammar an invalid reference breaks (its code is always `invalid-ref`). */
export type InvalidReferenceReason =
  | 'ref-empty'
  | 'ref-invalid-format'
  | 'ref-uppercase'
  | 'ref-name-too-long'
  | 'ref-invalid-tag'
  | 'ref-invalid-digest'
  | 'ref-unsupported-digest';

/** A string that is not an image reference: a PinwatchError `invalid-ref` quoting the input. */
export class InvalidReferenceError extends PinwatchError {
  readonly reason: InvalidReferenceReason;
  readonly input: string;
  constructor(reason: InvalidReferenceReason, input: string, detail: string) {
    super('invalid-ref', `${detail}; saw ${JSON.stringify(input)}`);
    this.name = 'InvalidReferenceError';
    this.reason = reason;
    this.input = input;
  }
}

const EXPECTED = 'an image reference must look like [registry[:port]/]path[:tag][@sha256:<64 hex>]';

/** Validate a digest string (`sha256:<64 hex>`, `sha512:<128 hex>`). Throws InvalidReferenceError. */
export function validateDigest(digest: string, input = digest): void {
  if (!anchoredDigest.test(digest)) {
    throw new InvalidReferenceError('ref-invalid-digest', input, 'a digest must look like sha256:<64 hex>');
  }
  const [algo, hex] = digest.split(':') as [string, string];
  const want = DIGEST_HEX_LENGTH[algo];
  if (want === undefined) {
    throw new InvalidReferenceError('ref-unsupported-digest', input, `digest algorithm "${algo}" is not one of sha256, sha384, sha512`);
  }
  if (hex.length !== want || /[A-F]/.test(hex)) {
    throw new InvalidReferenceError('ref-invalid-digest', input, `a ${algo} digest must be ${want} lowercase hex characters, like ${algo}:${'0'.repeat(want).slice(0, 8)}…; found ${hex.length}`);
  }
}

export function isValidTag(tag: string): boolean {
  return anchoredTag.test(tag);
}

export function isValidDomain(domain: string): boolean {
  return anchoredDomain.test(domain);
}

/**
 * Split a name into domain and path the way ParseNormalizedNamed does: the first
 * component is a domain only if it contains `.` or `:`, or is `localhost`, or has
 * an uppercase letter; otherwise the name is familiar (docker.io, library/).
 */
function splitDomain(name: string): { domain: string; path: string; explicitDomain: boolean } {
  const i = name.indexOf('/');
  if (i === -1) return { domain: DEFAULT_DOMAIN, path: OFFICIAL_REPO_PREFIX + name, explicitDomain: false };
  const first = name.slice(0, i);
  const rest = name.slice(i + 1);
  if (!first.includes('.') && !first.includes(':') && first !== 'localhost' && first.toLowerCase() === first) {
    return { domain: DEFAULT_DOMAIN, path: name, explicitDomain: false };
  }
  let domain = first;
  let path = rest;
  if (domain === LEGACY_DEFAULT_DOMAIN) domain = DEFAULT_DOMAIN;
  if (domain === DEFAULT_DOMAIN && !path.includes('/')) path = OFFICIAL_REPO_PREFIX + path;
  return { domain, path, explicitDomain: true };
}

/**
 * Parse a reference as `docker pull` reads it: familiar names are normalised
 * (`nginx` → `docker.io/library/nginx`). Throws InvalidReferenceError with the input quoted.
 */
export function parseReference(input: string): ImageRef {
  if (input.length === 0) throw new InvalidReferenceError('ref-empty', input, EXPECTED);
  if (input.length > REFERENCE_LENGTH_MAX) {
    throw new InvalidReferenceError('ref-name-too-long', `${input.slice(0, 64)}…`, `an image reference must not be longer than ${REFERENCE_LENGTH_MAX} characters; this one has ${input.length}`);
  }
  if (anchoredIdentifier.test(input)) {
    throw new InvalidReferenceError('ref-invalid-format', input, 'a 64-character hex string is an image ID, not a repository name');
  }
  const m = referenceRegexp.exec(input);
  if (!m) {
    const lower = input.toLowerCase();
    if (lower !== input && referenceRegexp.test(lowerNameOnly(input))) {
      throw new InvalidReferenceError('ref-uppercase', input, 'repository name must be lowercase');
    }
    const at = input.lastIndexOf('@');
    if (at > 0) {
      const digest = input.slice(at + 1);
      validateDigest(digest, input);
    }
    const colon = input.lastIndexOf(':');
    const slash = input.lastIndexOf('/');
    if (colon > slash && at === -1 && anchoredName.test(input.slice(0, colon))) {
      const tag = input.slice(colon + 1);
      if (!isValidTag(tag)) {
        throw new InvalidReferenceError('ref-invalid-tag', input, 'a tag must be 1-128 characters of [A-Za-z0-9_.-], not starting with . or -');
      }
    }
    throw new InvalidReferenceError('ref-invalid-format', input, EXPECTED);
  }
  const [, rawName = '', tag, digest] = m;
  const { domain, path } = splitDomain(rawName);
  // reference.go applies RepositoryNameTotalLengthMax to the path below the domain (not the domain),
  // and ParseNormalizedNamed measures it once normalised: `library/` counts for a familiar name.
  if (path.length > NAME_TOTAL_LENGTH_MAX) {
    throw new InvalidReferenceError('ref-name-too-long', input, `repository path must not be longer than ${NAME_TOTAL_LENGTH_MAX} characters (the registry host is not counted; found ${path.length} in ${JSON.stringify(path.slice(0, 40))}…)`);
  }
  if (digest !== undefined) validateDigest(digest, input);
  if (path.toLowerCase() !== path) throw new InvalidReferenceError('ref-uppercase', input, 'repository name must be lowercase');
  const ref: ImageRef = { domain, path, name: `${domain}/${path}` };
  if (tag !== undefined) ref.tag = tag;
  if (digest !== undefined) ref.digest = digest;
  return ref;
}

function lowerNameOnly(input: string): string {
  const at = input.indexOf('@');
  const head = at === -1 ? input : input.slice(0, at);
  const tail = at === -1 ? '' : input.slice(at);
  const slash = head.lastIndexOf('/');
  const colon = head.lastIndexOf(':');
  const nameEnd = colon > slash ? colon : head.length;
  return head.slice(0, nameEnd).toLowerCase() + head.slice(nameEnd) + tail;
}

/**
 * Parse, returning undefined instead of throwing. Collectors ask this of every
 * scalar in a tree, and most are not refs: those fail the grammar's regexp
 * before any error (and its stack trace) is built.
 */
export function tryParseReference(input: string): ImageRef | undefined {
  if (input.length === 0 || input.length > REFERENCE_LENGTH_MAX || !referenceRegexp.test(input) || anchoredIdentifier.test(input)) return undefined;
  try {
    return parseReference(input);
  } catch {
    return undefined;
  }
}

/**
 * True when the text names its registry explicitly (`ghcr.io/x/y`, `localhost/x`,
 * `reg:5000/x`), i.e. it cannot be an ordinary word or a familiar Docker Hub name.
 */
export function hasExplicitDomain(input: string): boolean {
  const i = input.indexOf('/');
  if (i <= 0) return false;
  const first = input.slice(0, i);
  return first.includes('.') || first.includes(':') || first === 'localhost';
}

/** Full form: `docker.io/library/nginx:1.25@sha256:…`. */
export function formatReference(ref: Pick<ImageRef, 'name' | 'tag' | 'digest'>): string {
  return `${ref.name}${ref.tag !== undefined ? `:${ref.tag}` : ''}${ref.digest !== undefined ? `@${ref.digest}` : ''}`;
}

/**
 * Familiar form, as `docker` prints it: `nginx:1.25`, `user/app`, `ghcr.io/o/a:v1`.
 * Unlike docker's, it always parses back to the same reference: a Docker Hub path
 * whose first component would read as a registry host (`docker.io/docker.io/x`,
 * `docker.io/localhost/x`) keeps its `docker.io/`.
 */
export function familiarName(ref: Pick<ImageRef, 'domain' | 'path'>): string {
  if (ref.domain !== DEFAULT_DOMAIN) return `${ref.domain}/${ref.path}`;
  if (ref.path.includes('/') && splitDomain(ref.path).explicitDomain) return `${ref.domain}/${ref.path}`;
  return ref.path.startsWith(OFFICIAL_REPO_PREFIX) && ref.path.split('/').length === 2
    ? ref.path.slice(OFFICIAL_REPO_PREFIX.length)
    : ref.path;
}

export function familiarString(ref: ImageRef): string {
  return formatReference({ name: familiarName(ref), tag: ref.tag, digest: ref.digest });
}
