/**
 * Producers declared by hand in pinwatch.yaml (`producers:`), for repositories
 * that stamp pins with scripts pinwatch cannot read. Each declared producer
 * stamps one ref, so its writes share one refId.
 */
import type { ProducerConfig } from '../config/types.js';
import type { PinWrite, Producer } from './types.js';

export function declaredProducers(configs: readonly ProducerConfig[]): Producer[] {
  return configs.map((c) => {
    const colon = c.name.lastIndexOf(':');
    const refId = `${c.name}#declared`;
    const writes: PinWrite[] = c.writes.map((w) => {
      const hash = w.indexOf('#');
      const file = hash === -1 ? w : w.slice(0, hash);
      const keyPath = hash === -1 ? undefined : w.slice(hash + 1).replace(/^\./, '');
      return { file, ...(keyPath ? { keyPath } : {}), via: 'declared', refId, source: { file: 'pinwatch.yaml', line: 0 } };
    });
    const built = c.built ?? true;
    return {
      id: c.name,
      makefile: colon > 0 ? c.name.slice(0, colon) : c.name,
      target: colon > 0 ? c.name.slice(colon + 1) : '',
      line: 0,
      writes,
      built,
      ...(built ? { builtVia: ['declared in pinwatch.yaml'] } : {}),
    };
  });
}
