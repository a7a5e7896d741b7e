/**
 * The registry flags (`--insecure-registry HOST`, `--timeout MS`, `--no-cache`)
 * as typed values: the registry client options, and for stale/explain/check the
 * one shared client (token cache, concurrency limit) the engine asks with
 * `--registry`. The config's insecure hosts are added to the flag's.
 */
import type { Config } from '../../config/types.js';
import { PinwatchError } from '../../errors.js';
import type { RegistryClientOptions } from '../../registry/client.js';
import type { Env } from '../../registry/credentials.js';
import type { StaleOptions } from '../../stale/index.js';

export interface RegistryFlags {
  insecureRegistry?: string[];
  timeout?: string;
  /** commander's `--no-cache` sets this to false. */
  cache?: boolean;
}

export function registryClientOptions(env: Env, flags: RegistryFlags, configuredInsecure: readonly string[]): RegistryClientOptions {
  const timeoutMs = Number(flags.timeout ?? '30000');
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new PinwatchError('invalid-timeout', `--timeout must be a positive number of milliseconds; saw "${flags.timeout}"`);
  const opts: RegistryClientOptions = {
    env,
    insecureRegistries: [...configuredInsecure, ...(flags.insecureRegistry ?? [])],
    timeoutMs,
  };
  if (flags.cache === false) opts.cacheDir = false;
  return opts;
}

/** `--registry` options for the stale engine: one client built from the registry flags, env and config (the client's code loaded only then). */
export async function registryOptions(config: Config, env: Env, flags: RegistryFlags = {}): Promise<NonNullable<StaleOptions['registry']>> {
  const opts = registryClientOptions(env, flags, config.insecureRegistries);
  const { RegistryClient } = await import('../../registry/client.js');
  return { opts: { client: new RegistryClient(opts) } };
}
