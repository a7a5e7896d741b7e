/** Content digests: compute sha256 of a body and check it against an expected digest. */
import { createHash } from 'node:crypto';
import { RegistryError } from './errors.js';

export function sha256Digest(body: Uint8Array): string {
  return `sha256:${createHash('sha256').update(body).digest('hex')}`;
}

/** Throws RegistryError('digest-mismatch') unless `body` hashes to `expected` (sha256 only; others are trusted as opaque). */
export function verifyDigest(body: Uint8Array, expected: string, what: string, url?: string): void {
  if (!expected.startsWith('sha256:')) {
    const algo = expected.split(':')[0] ?? '';
    const hash = algo === 'sha512' ? 'sha512' : algo === 'sha384' ? 'sha384' : undefined;
    if (!hash) throw new RegistryError('digest-mismatch', `cannot verify ${what}: unsupported digest algorithm in "${expected}"`, { url });
    const got = `${algo}:${createHash(hash).update(body).digest('hex')}`;
    if (got !== expected) throw mismatch(what, expected, got, url);
    return;
  }
  const got = sha256Digest(body);
  if (got !== expected) throw mismatch(what, expected, got, url);
}

function mismatch(what: string, expected: string, got: string, url?: string): RegistryError {
  return new RegistryError(
    'digest-mismatch',
    `${what} does not match its digest: expected ${expected}, the body hashes to ${got}; refusing it`,
    { url },
  );
}
