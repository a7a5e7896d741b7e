/**
 * A token server for distribution's `auth.token`: signs RS256 JWTs with
 * node:crypto, the signing certificate in the `x5c` header (the registry trusts
 * it through `rootcertbundle`). Key and self-signed cert are made with openssl at
 * test time. Policy and expiry are per test; requests are counted.
 */
import { execFileSync } from 'node:child_process';
import { createPrivateKey, createSign, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TokenServer {
  realm: string;
  service: string;
  issuer: string;
  certFile: string;
  /** Tokens issued so far (for asserting they never leak). */
  issued: string[];
  requests: number;
  /** Users allowed, name → password. Anonymous requests get the `anonymous` policy. */
  users: Record<string, string>;
  /** Actions granted to `user` (undefined for anonymous) on a repository. Default: pull for everyone, push for users. */
  policy: (user: string | undefined, repository: string, wanted: string[]) => string[];
  /** Seconds from now until `exp`; negative makes expired tokens. */
  lifetimeSeconds: number;
  /** `expires_in` reported to clients. */
  expiresIn: number;
  /** Mint a token directly (for pushing test images). */
  mint(sub: string, repository: string, actions: string[]): string;
  stop(): Promise<void>;
}

function b64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

export async function startTokenServer(): Promise<TokenServer> {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-token-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '30', '-subj', '/CN=test-token-issuer'], { stdio: 'pipe' });
  const key = createPrivateKey(readFileSync(keyFile));
  const certDer = readFileSync(certFile, 'utf8').replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  const service = 'test-registry';
  const issuer = 'test-issuer';

  const state = {
    issued: [] as string[],
    requests: 0,
    users: {} as Record<string, string>,
    policy: (user: string | undefined, _repo: string, wanted: string[]) => wanted.filter((a) => a === 'pull' || (user !== undefined && a === 'push')),
    lifetimeSeconds: 300,
    expiresIn: 300,
  };

  const mint = (sub: string, repository: string, actions: string[]): string => {
    const now = Math.floor(Date.now() / 1000);
    const header = { alg: 'RS256', typ: 'JWT', x5c: [certDer] };
    const claims = {
      iss: issuer,
      sub,
      aud: service,
      exp: now + state.lifetimeSeconds,
      nbf: now - 60,
      iat: now - 60,
      jti: randomUUID(),
      access: repository ? [{ type: 'repository', name: repository, actions }] : [],
    };
    const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
    const signature = createSign('RSA-SHA256').update(input).sign(key);
    const token = `${input}.${b64url(signature)}`;
    state.issued.push(token);
    return token;
  };

  const server = createServer((req, res) => {
    state.requests++;
    const url = new URL(req.url ?? '/', 'http://x');
    let user: string | undefined;
    const auth = req.headers.authorization;
    if (auth?.startsWith('Basic ')) {
      const [name, ...rest] = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':');
      if (!name || state.users[name] !== rest.join(':')) {
        res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"details":"bad credentials"}');
        return;
      }
      user = name;
    }
    const scope = url.searchParams.get('scope') ?? '';
    const [, repository = '', actions = ''] = /^repository:(.+):([^:]*)$/.exec(scope) ?? [];
    const granted = repository ? state.policy(user, repository, actions.split(',').filter(Boolean)) : [];
    const token = mint(user ?? '', repository, granted);
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ token, access_token: token, expires_in: state.expiresIn }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;

  return Object.assign(state, {
    realm: `http://127.0.0.1:${port}/token`,
    service,
    issuer,
    certFile,
    mint,
    stop: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    },
  }) as TokenServer;
}
