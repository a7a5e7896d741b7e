/**
 * Basic credentials from a Docker config file: `$DOCKER_CONFIG/config.json`, else
 * `$HOME/.docker/config.json`. Reads `auths.<host>.auth` (base64 `user:password`)
 * or `username`/`password`. The environment is passed in, never read from
 * process.env here. Credential helpers (`credsStore`) are not run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RegistryError } from './errors.js';
import { rememberSecret } from './redact.js';

export interface BasicCredentials {
  username: string;
  password: string;
}

export type Env = Record<string, string | undefined>;

export function dockerConfigPath(env: Env): string | undefined {
  if (env.DOCKER_CONFIG) return join(env.DOCKER_CONFIG, 'config.json');
  if (env.HOME) return join(env.HOME, '.docker', 'config.json');
  return undefined;
}

/** Keys a config may use for a registry host (docker.io has its legacy spellings). */
function keysFor(host: string): string[] {
  if (host === 'docker.io' || host === 'registry-1.docker.io' || host === 'index.docker.io') {
    return ['https://index.docker.io/v1/', 'index.docker.io', 'docker.io', 'registry-1.docker.io', 'https://registry-1.docker.io'];
  }
  return [host, `https://${host}`, `http://${host}`, `https://${host}/v1/`, `https://${host}/v2/`];
}

export interface CredentialLookup {
  credentials?: BasicCredentials;
  /** Why none were found although the docker config has something for this host (credential helpers). */
  note?: string;
}

/** Credentials for `host` from the docker config, or undefined. A broken file is a typed error naming the file. */
export function loadCredentials(host: string, env: Env): BasicCredentials | undefined {
  return lookupCredentials(host, env).credentials;
}

/** Like loadCredentials, with a note when the config delegates to a credential helper pinwatch does not run. */
export function lookupCredentials(host: string, env: Env): CredentialLookup {
  const path = dockerConfigPath(env);
  if (!path) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  let parsed: { auths?: Record<string, { auth?: string; username?: string; password?: string }>; credsStore?: string; credHelpers?: Record<string, string> };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new RegistryError('bad-credentials-file', `${path} is not valid JSON; expected {"auths": {"<host>": {"auth": "<base64 user:password>"}}}`);
  }
  const auths = parsed.auths ?? {};
  for (const key of keysFor(host)) {
    const entry = auths[key];
    if (!entry) continue;
    const creds = decodeEntry(entry, path, key);
    if (creds) {
      rememberSecret(creds.password);
      rememberSecret(entry.auth);
      return { credentials: creds };
    }
  }
  const helper = keysFor(host).map((k) => parsed.credHelpers?.[k]).find(Boolean) ?? parsed.credsStore;
  return helper ? { note: `${path} delegates credentials to the "${helper}" credential helper, which pinwatch does not run; add an "auths" entry for ${host}` } : {};
}

function decodeEntry(entry: { auth?: string; username?: string; password?: string }, path: string, key: string): BasicCredentials | undefined {
  if (entry.auth) {
    const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i <= 0) throw new RegistryError('bad-credentials-file', `${path}: auths["${key}"].auth does not decode to "user:password"`);
    return { username: decoded.slice(0, i), password: decoded.slice(i + 1) };
  }
  if (entry.username && entry.password) return { username: entry.username, password: entry.password };
  return undefined;
}

export function basicHeader(creds: BasicCredentials): string {
  const value = Buffer.from(`${creds.username}:${creds.password}`, 'utf8').toString('base64');
  rememberSecret(value);
  return `Basic ${value}`;
}
