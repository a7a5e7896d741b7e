/**
 * How stale and explain ask the registry when it is asked: the config's
 * methods with `registry` first. (The client itself is built by the CLI,
 * src/cli/flags/registry.ts.)
 */
import type { Config, ProvenanceMethod } from '../config/types.js';
import type { StaleOptions } from './engine.js';

/** Methods to run: `registry` first when asked and not configured already. */
export function methodsFor(config: Config, registry: StaleOptions['registry']): ProvenanceMethod[] {
  const configured = config.provenance.methods;
  return registry && !configured.includes('registry') ? ['registry', ...configured] : [...configured];
}
