/**
 * Authorization for one registry host: anonymous first; on a Bearer challenge a
 * token from the realm (with basic credentials when the docker config has them),
 * cached per realm+service+scope until it expires; on a Basic challenge the
 * docker-config credentials. Tokens and passwords are registered with the
 * redactor so no message can carry them.
 */
import type { BasicCredentials } from './credentials.js';
import { basicHeader } from './credentials.js';
import type { Challenge } from './challenge.js';
import { RegistryError } from './errors.js';
import { MAX_TOKEN_BYTES, readBody } from './body.js';
import { fetchFollowing, type FetchLike } from './redirect.js';
import { rememberSecret, redactUrl } from './redact.js';

interface CachedToken {
  token: string;
  expiresAt: number;
}


export interface TokenRequestOptions {
  fetch: FetchLike;
  timeoutMs: number;
  now: () => number;
  /** Whether plain HTTP to this host is allowed (loopback or listed in insecureRegistries); credentials never go to other http realms. */
  plainHttpAllowed: (host: string) => boolean;
  /** The registry URL whose 401 named the realm, for messages. */
  challengedBy?: string;
}

export class HostAuth {
  private readonly tokens = new Map<string, CachedToken>();
  /** Token requests in flight, so parallel requests for one scope share one fetch. */
  private readonly pending = new Map<string, Promise<CachedToken>>();
  /** Last bearer challenge seen on this host, to pre-authorize later requests. */
  private bearer?: { realm: string; service?: string };
  private basicRequired = false;

  constructor(
    private readonly credentials: BasicCredentials | undefined,
    /** Why there are no credentials although the docker config mentions the host. */
    readonly credentialsNote?: string,
  ) {}

  /** The Authorization header to send up front for `scope`, if one is known. */
  cachedHeader(scope: string, now: number): string | undefined {
    if (this.basicRequired && this.credentials) return basicHeader(this.credentials);
    if (!this.bearer) return undefined;
    const t = this.tokens.get(this.key(this.bearer.realm, this.bearer.service, scope));
    return t && t.expiresAt > now ? `Bearer ${t.token}` : undefined;
  }

  /** Answer a 401 challenge: the header to retry with, or undefined when there is nothing to try. */
  async answer(challenge: Challenge, scope: string, opts: TokenRequestOptions, sent?: string): Promise<string | undefined> {
    if (challenge.scheme === 'basic') {
      this.basicRequired = true;
      return this.credentials ? basicHeader(this.credentials) : undefined;
    }
    if (challenge.scheme !== 'bearer' || !challenge.params.realm) return undefined;
    const realm = challenge.params.realm;
    const service = challenge.params.service;
    this.bearer = { realm, service };
    // A parallel request may have fetched a token since this one was sent: use it, unless it is the one refused.
    const cached = this.tokens.get(this.key(realm, service, scope));
    if (cached && cached.expiresAt > opts.now() && `Bearer ${cached.token}` !== sent) return `Bearer ${cached.token}`;
    const wanted = challenge.params.scope ?? scope;
    const key = this.key(realm, service, wanted);
    let inflight = this.pending.get(key);
    if (!inflight) {
      inflight = this.fetchToken(realm, service, wanted, opts).finally(() => this.pending.delete(key));
      this.pending.set(key, inflight);
    }
    const token = await inflight;
    this.tokens.set(this.key(realm, service, scope), token);
    if (wanted !== scope) this.tokens.set(this.key(realm, service, wanted), token);
    return `Bearer ${token.token}`;
  }

  private key(realm: string, service: string | undefined, scope: string): string {
    return `${realm}|${service ?? ''}|${scope}`;
  }

  private async fetchToken(realm: string, service: string | undefined, scope: string, opts: TokenRequestOptions): Promise<CachedToken> {
    const url = realmUrl(realm, opts.challengedBy);
    if (service) url.searchParams.set('service', service);
    if (scope) url.searchParams.set('scope', scope);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.credentials && url.protocol === 'http:' && !opts.plainHttpAllowed(url.host)) {
      throw new RegistryError(
        'token-error',
        `refusing to send credentials to the plain-http token realm ${redactUrl(url.toString())}; list its host in insecureRegistries if that is intended`,
        { url: url.toString() },
      );
    }
    if (this.credentials) headers.Authorization = basicHeader(this.credentials);
    let res: Response;
    let text: string;
    const signal = AbortSignal.timeout(opts.timeoutMs);
    // Redirects from the realm: http only where allowed, the credentials only to the realm's own origin.
    const policy = { plainHttpAllowed: (u: URL) => u.host === url.host || opts.plainHttpAllowed(u.host), authOrigin: url.origin };
    try {
      ({ res } = await fetchFollowing(opts.fetch, url.toString(), { method: 'GET', headers, signal }, policy));
      text = Buffer.from(await readBody(res, { bytes: MAX_TOKEN_BYTES, code: 'token-error', what: 'token service answer' }, url.toString(), !res.ok)).toString('utf8');
    } catch (e) {
      if (e instanceof RegistryError) throw e;
      throw new RegistryError('token-error', `could not reach the token service ${redactUrl(url.toString())}: ${describeCause(e)}`, { url: url.toString() }, { cause: e });
    }
    if (!res.ok) {
      const what = res.status === 401 || res.status === 403 ? 'rejected the credentials' : `answered HTTP ${res.status}`;
      throw new RegistryError('token-error', `the token service ${redactUrl(url.toString())} ${what} for scope "${scope}"`, { status: res.status, url: url.toString() });
    }
    let body: { token?: string; access_token?: string; expires_in?: number; issued_at?: string };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new RegistryError('token-error', `the token service ${redactUrl(url.toString())} did not return JSON`, { status: res.status, url: url.toString() });
    }
    const token = body.token ?? body.access_token;
    if (!token) throw new RegistryError('token-error', `the token service ${redactUrl(url.toString())} returned no token`, { url: url.toString() });
    rememberSecret(token);
    const lifetime = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 60;
    // Refresh a little early so a token does not expire between check and use.
    return { token, expiresAt: opts.now() + Math.max(0, lifetime * 1000 - 1000) };
  }
}

/** The realm of a Bearer challenge as an http(s) URL, or a token-error quoting it and naming who sent it. */
function realmUrl(realm: string, challengedBy: string | undefined): URL {
  let url: URL | undefined;
  try {
    url = new URL(realm);
  } catch {
    url = undefined;
  }
  if (url && (url.protocol === 'https:' || url.protocol === 'http:')) return url;
  const by = challengedBy ? `${redactUrl(challengedBy)} sent` : 'the registry sent';
  const shown = realm.length > 200 ? `${realm.slice(0, 200)}…` : realm;
  throw new RegistryError('token-error', `${by} a token challenge whose realm is not an http(s) URL: ${JSON.stringify(shown)}`, { url: challengedBy });
}

export function describeCause(e: unknown): string {
  return classifyCause(e).text;
}

/** A network failure in words, and whether trying again could help. */
export function classifyCause(e: unknown): { text: string; retry: boolean } {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return { text: 'timed out', retry: false };
  const code = err?.cause?.code;
  const message = err?.cause?.message ?? err?.message ?? String(e);
  if (code === 'ECONNREFUSED') return { text: 'connection refused (is the registry running?)', retry: true };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') return { text: 'connection reset', retry: true };
  if (code === 'EAI_AGAIN') return { text: 'temporary DNS failure', retry: true };
  if (code === 'ENOTFOUND') return { text: 'host not found', retry: false };
  if (message === 'bad port') return { text: "Node's fetch refuses this port (a WHATWG \"bad port\"); use another port", retry: false };
  if (/certificate|self[- ]signed|CERT_|ERR_TLS/i.test(`${code ?? ''} ${message}`)) {
    return { text: `TLS failed: ${message} (for a registry without TLS, list its host in insecureRegistries)`, retry: false };
  }
  return { text: message, retry: true };
}
