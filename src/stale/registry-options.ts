/**
 * How stale and explain ask the registry when `--registry` is given: the
 * config's methods with `registry` first, and one shared registry client
 * (token cache, concurrency limit) with the config's insecure hosts.
 */
import type { Config, ProvenanceMethod } from '../config/types.js';
import { RegistryClient } from '../registry/client.js';
import type { Env } from '../registry/credentials.js';
import { registryOptionsFromFlags, type RegistryFlags } from '../registry/options.js';
import type { StaleOptions } from './engine.js';

/** Methods to run: `registry` first when asked and not configured already. */
export function methodsFor(config: Config, registry: StaleOptions['registry']): ProvenanceMethod[] {
  const configured = config.provenance.methods;
  return registry && !configured.includes('registry') ? ['registry', ...configured] : [...configured];
}

/** `--registry` options for the engine: one client built from the registry flags, env and config. */
export function registryOptions(config: Config, env: Env, flags: RegistryFlags = {}): NonNullable<StaleOptions['registry']> {
  const client = new RegistryClient(registryOptionsFromFlags(env, flags, config.insecureRegistries));
  return { opts: { client } };
}
