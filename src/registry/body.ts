/**
 * Reading registry response bodies with a size cap: `Content-Length` over the cap
 * is refused before a byte is read, and a body that streams past it is cancelled
 * at the cap, so a hostile or broken registry cannot make pinwatch buffer
 * gigabytes. The caps are named constants; the caller's AbortSignal (the request
 * timeout) covers the whole read.
 */
import type { RegistryErrorCode } from './errors.js';
import { RegistryError } from './errors.js';
import { redactUrl } from './redact.js';

/** distribution's own limit on a manifest it accepts (4 MiB); also the limit for indexes. */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
/** JSON blobs pinwatch reads: image configs and in-toto attestation statements. */
export const MAX_JSON_BLOB_BYTES = 16 * 1024 * 1024;
/** One page of a tag list. */
export const MAX_TAG_PAGE_BYTES = 16 * 1024 * 1024;
/** A token service's answer. */
export const MAX_TOKEN_BYTES = 1024 * 1024;
/** Error bodies are only read for their `errors[].code` and message; past 1 MiB the rest is dropped. */
export const MAX_ERROR_BODY_BYTES = 1024 * 1024;

export interface BodyLimit {
  bytes: number;
  code: RegistryErrorCode;
  /** What the body is, for the message: `manifest`, `blob`, `tag list page`. */
  what: string;
}

/** The default when a request names no limit. */
export const DEFAULT_LIMIT: BodyLimit = { bytes: MAX_MANIFEST_BYTES, code: 'response-too-large', what: 'response' };

function tooLarge(limit: BodyLimit, url: string, seen: string): RegistryError {
  return new RegistryError(limit.code, `the ${limit.what} at ${redactUrl(url)} is ${seen}, over pinwatch's limit of ${limit.bytes} bytes; refusing it`, { url });
}

/**
 * Read `res`'s body, at most `limit.bytes`. Over the limit: with `truncate`, the
 * first `limit.bytes` (error bodies); otherwise RegistryError(limit.code).
 * Stream errors (timeout, reset) propagate for the caller to classify.
 */
export async function readBody(res: Response, limit: BodyLimit, url: string, truncate = false): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (!truncate && Number.isFinite(declared) && declared > limit.bytes) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge(limit, url, `${declared} bytes (Content-Length)`);
  }
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > limit.bytes) {
      await reader.cancel().catch(() => undefined);
      if (!truncate) throw tooLarge(limit, url, `more than ${limit.bytes} bytes`);
      chunks.push(value.subarray(0, limit.bytes - total));
      total = limit.bytes;
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Drop a body unread (redirects, HEAD), so the connection is released. */
export async function discardBody(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => undefined);
}
