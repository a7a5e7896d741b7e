/**
 * How stale and explain ask the registry when `--registry` is given: one shared
 * registry client (token cache, concurrency limit) with the config's insecure
 * hosts. (Which methods run is src/provenance/sources.ts `methodsFor`.)
 */
import type { Config } from '../config/types.js';
import { RegistryClient } from '../registry/client.js';
import type { Env } from '../registry/credentials.js';
import { registryOptionsFromFlags, type RegistryFlags } from '../registry/options.js';
import type { StaleOptions } from './engine.js';

/** `--registry` options for the engine: one client built from the registry flags, env and config. */
export function registryOptions(config: Config, env: Env, flags: RegistryFlags = {}): NonNullable<StaleOptions['registry']> {
  const client = new RegistryClient(registryOptionsFromFlags(env, flags, config.insecureRegistries));
  return { opts: { client } };
}
