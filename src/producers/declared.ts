/**
 * Producers declared by hand in pinwatch.yaml (`producers:`), for repositories
 * that stamp pins with scripts pinwatch cannot read. Each declared producer
 * stamps one ref, so its writes share one refId. A write may name the image it
 * writes (`{file, image}`: only pins of that repository) and its file may be a
 * glob; a whole-file write without an image writes the first-party pins of the
 * file only, each repository its own lockstep group (third-party refs in a
 * rendered bundle are not the script's to write). Writes point at the line of
 * pinwatch.yaml where the producer is declared.
 */
import type { ProducerConfig } from '../config/types.js';
import { hasGlobSyntax } from '../util/glob.js';
import type { PinWrite, Producer } from './types.js';

export function declaredProducers(configs: readonly ProducerConfig[], configFile = 'pinwatch.yaml'): Producer[] {
  return configs.map((c) => {
    const colon = c.name.lastIndexOf(':');
    const refId = `${c.name}#declared`;
    const line = c.line ?? 0;
    const writes: PinWrite[] = c.writes.map((w) => {
      const spec = typeof w === 'string' ? { file: w } : w;
      const hash = spec.file.indexOf('#');
      const file = hash === -1 ? spec.file : spec.file.slice(0, hash);
      const keyPath = hash === -1 ? undefined : spec.file.slice(hash + 1).replace(/^\./, '');
      const write: PinWrite = { file, ...(keyPath ? { keyPath } : {}), via: 'declared', refId, source: { file: configFile, line } };
      if (hasGlobSyntax(file)) write.glob = true;
      if (spec.image !== undefined) {
        write.image = spec.image;
        write.refId = `${refId}|${spec.image}`; // one image, one ref: writes of other images are not its lockstep
      }
      else if (!keyPath) write.firstPartyOnly = true;
      return write;
    });
    const built = c.built ?? true;
    return {
      id: c.name,
      makefile: colon > 0 ? c.name.slice(0, colon) : c.name,
      target: colon > 0 ? c.name.slice(colon + 1) : '',
      line,
      writes,
      built,
      ...(built ? { builtVia: ['declared in pinwatch.yaml'] } : {}),
    };
  });
}
