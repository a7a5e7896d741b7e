/**
 * One HTTP exchange with a registry, done right: https unless the host is loopback
 * or listed as insecure, redirects followed under the same rules (redirect.ts),
 * bodies read with a size cap (body.ts), one timeout covering headers, hops and
 * body, bounded retries with backoff on 429/5xx and refused connections, the 401
 * challenge answered once, and a concurrency limit. Every failure is a
 * RegistryError with a redacted URL.
 */
import type { FetchLike } from './redirect.js';
import { classifyCause, HostAuth } from './auth.js';
import { parseChallenge } from './challenge.js';
import type { Env } from './credentials.js';
import { lookupCredentials } from './credentials.js';
import { parseRegistryErrors, RegistryError } from './errors.js';
import type { RegistryErrorCode } from './errors.js';
import { Semaphore } from './limit.js';
import type { BodyLimit } from './body.js';
import { DEFAULT_LIMIT, discardBody, MAX_ERROR_BODY_BYTES, readBody } from './body.js';
import type { HopPolicy } from './redirect.js';
import { fetchFollowing } from './redirect.js';
import { redactUrl } from './redact.js';

export interface TransportOptions {
  env: Env;
  insecureRegistries: string[];
  timeoutMs: number;
  retries: number;
  retryBaseMs: number;
  concurrency: number;
  fetch: FetchLike;
  now: () => number;
}

export interface RegistryRequest {
  method: 'GET' | 'HEAD' | 'PUT' | 'POST' | 'PATCH';
  /** Registry host as written in refs (`ghcr.io`, `127.0.0.1:5000`, `docker.io`). */
  host: string;
  /** Path and query below the host, starting with `/v2/`; or an absolute URL (pagination links). */
  path: string;
  accept?: string;
  /** Token scope, e.g. `repository:team/app:pull`; empty for `/v2/`. */
  scope: string;
  /** Largest body accepted (default: DEFAULT_LIMIT, 4 MiB). */
  limit?: BodyLimit;
  /** Request body for writes: called once per attempt (a stream body makes the request single-attempt). */
  body?: () => BodyInit;
  /** Extra request headers (Content-Type, Content-Length, Content-Range). */
  headers?: Record<string, string>;
  /** Return the success body unread as `stream` (blob copies); the caller must consume or cancel it. */
  stream?: boolean;
  /** No retry on 429/5xx/refused (a streamed body cannot be sent twice). */
  noRetry?: boolean;
  /** Per-attempt timeout for this request (streamed blobs), instead of the client's. */
  timeoutMs?: number;
}

export interface RegistryResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
  url: string;
  /** With `stream: true`: the unread success body. */
  stream?: ReadableStream<Uint8Array>;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

/** The API host for a ref's registry: Docker Hub's API lives on registry-1.docker.io. */
export function apiHost(host: string): string {
  return host === 'docker.io' || host === 'index.docker.io' ? 'registry-1.docker.io' : host;
}

export function hostName(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
}

export function schemeFor(host: string, insecure: readonly string[]): 'http' | 'https' {
  if (LOOPBACK.test(hostName(host))) return 'http';
  return insecure.includes(host) || insecure.includes(hostName(host)) ? 'http' : 'https';
}

/**
 * Whether a request or redirect hop to `url` may use plain HTTP, for a registry whose
 * API base is `registryBase`: the registry's own hostname when the registry itself is
 * plain HTTP (loopback or insecure), or a host listed as insecure. Loopback's implicit
 * allowance covers the registry's own hostname only, and an https registry never
 * downgrades to http on its own.
 */
export function plainHttpHopAllowed(registryBase: string, insecure: readonly string[], url: URL): boolean {
  if (url.protocol !== 'http:') return true;
  const own = new URL(registryBase);
  if (url.hostname === own.hostname && own.protocol === 'http:') return true;
  return insecure.includes(url.host) || insecure.includes(url.hostname);
}

export class Transport {
  private readonly auths = new Map<string, HostAuth>();
  private readonly limit: Semaphore;

  constructor(private readonly opts: TransportOptions) {
    this.limit = new Semaphore(Math.max(1, opts.concurrency));
  }

  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  baseUrl(host: string): string {
    return `${schemeFor(host, this.opts.insecureRegistries)}://${apiHost(host)}`;
  }

  send(req: RegistryRequest): Promise<RegistryResponse> {
    return this.limit.run(() => this.sendWithRetries(req));
  }

  private auth(host: string): HostAuth {
    let a = this.auths.get(host);
    if (!a) {
      const found = lookupCredentials(host, this.opts.env);
      a = new HostAuth(found.credentials, found.note);
      this.auths.set(host, a);
    }
    return a;
  }

  private plainHttpAllowed(host: string, url: URL): boolean {
    return plainHttpHopAllowed(this.baseUrl(host), this.opts.insecureRegistries, url);
  }

  private async sendWithRetries(req: RegistryRequest): Promise<RegistryResponse> {
    const url = req.path.startsWith('http') ? req.path : `${this.baseUrl(req.host)}${req.path}`;
    const auth = this.auth(req.host);
    const policy: HopPolicy = { plainHttpAllowed: (u) => this.plainHttpAllowed(req.host, u), authOrigin: new URL(this.baseUrl(req.host)).origin };
    const limit = req.limit ?? DEFAULT_LIMIT;
    let authorization = auth.cachedHeader(req.scope, this.opts.now());
    let challengesAnswered = 0;
    for (let attempt = 0; ; ) {
      const headers: Record<string, string> = { 'User-Agent': 'pinwatch' };
      if (req.accept) headers.Accept = req.accept;
      if (req.headers) Object.assign(headers, req.headers);
      if (authorization) headers.Authorization = authorization;
      const retries = req.noRetry ? 0 : this.opts.retries;
      const timeoutMs = req.timeoutMs ?? this.opts.timeoutMs;
      let res: Response;
      let finalUrl = url;
      let body: Uint8Array;
      // One deadline per attempt, covering every redirect hop and the whole body.
      const signal = AbortSignal.timeout(timeoutMs);
      let phase = 'failed';
      let stream: ReadableStream<Uint8Array> | undefined;
      try {
        ({ res, url: finalUrl } = await fetchFollowing(this.opts.fetch, url, { method: req.method, headers, signal, ...(req.body ? { body: req.body() } : {}) }, policy));
        phase = 'failed while reading the body';
        if (req.stream && res.status >= 200 && res.status < 300 && res.body) {
          stream = res.body;
          body = new Uint8Array();
        } else if (req.method === 'HEAD') {
          await discardBody(res);
          body = new Uint8Array();
        } else {
          body = await readBody(res, res.status >= 400 ? { ...limit, bytes: MAX_ERROR_BODY_BYTES } : limit, finalUrl, res.status >= 400);
        }
      } catch (e) {
        if (e instanceof RegistryError) throw e;
        const cause = classifyCause(e);
        if (cause.text === 'timed out') {
          const during = phase === 'failed' ? '' : ' (the body did not arrive in time)';
          throw new RegistryError('registry-timeout', `${req.method} ${redactUrl(finalUrl)} timed out after ${timeoutMs} ms${during}`, { url: finalUrl }, { cause: e });
        }
        if (cause.retry && attempt++ < retries) {
          await this.sleep(attempt);
          continue;
        }
        if (!cause.retry) attempt++;
        throw new RegistryError('registry-unreachable', `${req.method} ${redactUrl(finalUrl)} ${phase} after ${attempt} attempt(s): ${cause.text}`, { url: finalUrl }, { cause: e });
      }
      if (res.status === 401) {
        const challenge = parseChallenge(res.headers.get('www-authenticate'));
        if (challenge && challengesAnswered < 2) {
          if (challengesAnswered === 1 && challenge.params.error === 'insufficient_scope') throw this.httpError(res, body, finalUrl, req, 'insufficient-scope');
          // Basic credentials that were refused once will be refused again.
          if (challengesAnswered === 1 && challenge.scheme === 'basic') throw this.httpError(res, body, finalUrl, req, 'unauthorized', undefined, undefined, auth.credentialsNote);
          challengesAnswered++;
          const next = await auth.answer(
            challenge,
            req.scope,
            { ...this.opts, plainHttpAllowed: (h) => schemeFor(h, this.opts.insecureRegistries) === 'http', challengedBy: finalUrl },
            authorization,
          );
          if (next) {
            authorization = next;
            continue;
          }
        }
        const code: RegistryErrorCode = challenge?.params.error === 'insufficient_scope' ? 'insufficient-scope' : 'unauthorized';
        throw this.httpError(res, body, finalUrl, req, code, undefined, challenge?.params.error, auth.credentialsNote);
      }
      if ((res.status === 429 || res.status >= 500) && attempt < retries) {
        attempt++;
        await this.sleep(attempt, res.headers.get('retry-after'));
        continue;
      }
      if (res.status === 429 || res.status >= 500) throw this.httpError(res, body, finalUrl, req, 'registry-retries-exhausted', attempt + 1);
      if (res.status >= 400) throw this.httpError(res, body, finalUrl, req);
      return { status: res.status, headers: res.headers, body, url: finalUrl, ...(stream ? { stream } : {}) };
    }
  }

  private httpError(
    res: Response,
    body: Uint8Array,
    url: string,
    req: RegistryRequest,
    forced?: RegistryErrorCode,
    attempts?: number,
    challengeError?: string,
    credentialsNote?: string,
  ): RegistryError {
    const { codes, messages } = parseRegistryErrors(Buffer.from(body).toString('utf8'));
    const code = forced ?? codeFor(res.status, codes);
    const said = codes.length ? ` (${codes.slice(0, 5).map((c, i) => (messages[i] ? `${clip(c)}: ${clip(messages[i])}` : clip(c))).join('; ')})` : '';
    const tries = attempts ? ` after ${attempts} attempt(s)` : '';
    const hint =
      challengeError === 'invalid_token'
        ? '; the registry rejected the token (invalid_token: expired, or not signed by an issuer it trusts)'
        : code === 'unauthorized'
          ? `; ${credentialsNote ?? 'add credentials to $DOCKER_CONFIG/config.json or ~/.docker/config.json ("auths")'}`
          : code === 'insufficient-scope'
            ? `; the credentials are not allowed "${req.scope}"`
            : '';
    return new RegistryError(code, `${req.method} ${redactUrl(url)} answered HTTP ${res.status}${tries}${said}${hint}`, {
      status: res.status,
      url,
      registryCodes: codes,
    });
  }

  private sleep(attempt: number, retryAfter?: string | null): Promise<void> {
    const fromHeader = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : undefined;
    const backoff = this.opts.retryBaseMs * 2 ** (attempt - 1);
    const ms = Math.min(fromHeader ?? backoff, 10_000);
    return new Promise((r) => setTimeout(r, ms));
  }
}

/** A registry's own error text, quoted in our message: at most 300 characters. */
function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function codeFor(status: number, codes: string[]): RegistryErrorCode {
  if (codes.includes('MANIFEST_UNKNOWN')) return 'manifest-unknown';
  if (codes.includes('BLOB_UNKNOWN')) return 'blob-unknown';
  if (codes.includes('NAME_UNKNOWN')) return 'name-unknown';
  if (status === 403) return 'unauthorized';
  return 'registry-http-error';
}
