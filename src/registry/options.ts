/** Registry client options from command-line flags and config: insecure hosts, timeout, cache; env passed in. */
import { PinwatchError } from '../errors.js';
import type { RegistryClientOptions } from './client.js';
import type { Env } from './credentials.js';

export interface RegistryFlags {
  insecureRegistry?: string[];
  timeout?: string;
  /** commander's `--no-cache` sets this to false. */
  cache?: boolean;
}

export function registryOptionsFromFlags(env: Env, flags: RegistryFlags, configuredInsecure: readonly string[]): RegistryClientOptions {
  const timeoutMs = Number(flags.timeout ?? '30000');
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new PinwatchError('usage', `--timeout must be a positive number of milliseconds; saw "${flags.timeout}"`);
  const opts: RegistryClientOptions = {
    env,
    insecureRegistries: [...configuredInsecure, ...(flags.insecureRegistry ?? [])],
    timeoutMs,
  };
  if (flags.cache === false) opts.cacheDir = false;
  return opts;
}
