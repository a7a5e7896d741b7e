/**
 * Following redirects by hand, so the transport's rules hold on every hop:
 * at most MAX_REDIRECTS hops, http or https only, plain HTTP only to a host that
 * is allowed it, and `Authorization` only to the origin it was meant for
 * (presigned blob-storage URLs need none). Writes (PUT, POST, PATCH) are never redirected.
 */
import { discardBody } from './body.js';
import { RegistryError } from './errors.js';
import { redactUrl } from './redact.js';

export const MAX_REDIRECTS = 5;
const REDIRECT = new Set([301, 302, 303, 307, 308]);

export interface HopPolicy {
  /** Whether plain HTTP to this URL's host is allowed (the first URL is checked too). */
  plainHttpAllowed: (url: URL) => boolean;
  /** The origin (`scheme://host:port`) Authorization may go to. */
  authOrigin: string;
}

export interface HopRequest {
  method: 'GET' | 'HEAD' | 'PUT' | 'POST' | 'PATCH';
  headers: Record<string, string>;
  signal: AbortSignal;
  /** Request body (writes only; a write is never redirected). */
  body?: BodyInit;
}

/** Check one URL against the policy before anything is sent to it. */
export function checkHop(url: URL, policy: HopPolicy, from?: string): void {
  const via = from ? ` (a redirect from ${redactUrl(from)})` : '';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new RegistryError('redirect-refused', `refusing ${redactUrl(url.toString())}${via}: only http and https are followed`, { url: url.toString() });
  }
  if (url.protocol === 'http:' && !policy.plainHttpAllowed(url)) {
    throw new RegistryError(
      'redirect-refused',
      `refusing plain-http ${redactUrl(url.toString())}${via}: plain HTTP is allowed only to loopback registries and hosts listed in insecureRegistries`,
      { url: url.toString() },
    );
  }
}

/** Fetch `url`, following redirects under `policy`. Network errors propagate unchanged. */
/** The fetch pinwatch calls (the global one, or a test's). */
export type FetchLike = typeof fetch;

export async function fetchFollowing(fetchFn: FetchLike, url: string, req: HopRequest, policy: HopPolicy): Promise<{ res: Response; url: string }> {
  let current = new URL(url);
  checkHop(current, policy);
  for (let hop = 0; ; hop++) {
    const headers = { ...req.headers };
    if (current.origin !== policy.authOrigin) delete headers.Authorization;
    const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, redirect: 'manual', signal: req.signal };
    if (req.body !== undefined) {
      init.body = req.body;
      init.duplex = 'half';
    }
    const res = await fetchFn(current, init);
    if (!REDIRECT.has(res.status)) return { res, url: current.toString() };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      await discardBody(res);
      throw new RegistryError('redirect-refused', `${req.method} ${redactUrl(current.toString())} answered HTTP ${res.status}: pinwatch does not follow a redirect of a write`, { status: res.status, url: current.toString() });
    }
    await discardBody(res);
    const location = res.headers.get('location');
    const from = current.toString();
    if (!location) throw new RegistryError('redirect-refused', `${req.method} ${redactUrl(from)} answered HTTP ${res.status} without a Location`, { status: res.status, url: from });
    if (hop >= MAX_REDIRECTS) throw new RegistryError('redirect-refused', `${req.method} ${redactUrl(url)} redirected more than ${MAX_REDIRECTS} times`, { status: res.status, url });
    try {
      current = new URL(location, current);
    } catch {
      throw new RegistryError('redirect-refused', `${req.method} ${redactUrl(from)} redirected to something that is not a URL: ${JSON.stringify(location.slice(0, 200))}`, { status: res.status, url: from });
    }
    checkHop(current, policy, from);
  }
}
