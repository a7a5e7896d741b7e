/**
 * `describeProducers`: who stamps a pin, for `pinwatch explain` and reports.
 * Structured, so each caller words it its own way.
 */
import type { Pin } from '../model/index.js';
import { stampIndex } from './stamps.js';
import type { BuildModel, PinWrite } from './types.js';

export interface ProducerDescription {
  /** `packages/core/platform/Makefile:image` */
  producer: string;
  built: boolean;
  builtVia?: string[];
  /** The write that covers the pin. */
  write: { file: string; keyPath?: string; via: PinWrite['via']; source: { file: string; line: number } };
  /** Other keys this producer stamps with the same ref (lockstep partners). */
  lockstepWith: { file: string; keyPath?: string }[];
}

/** Every producer write that stamps `pin`, with its lockstep partners. Empty when none does. */
export function describeProducers(model: BuildModel, pin: Pin): ProducerDescription[] {
  return stampIndex(model)(pin).map(({ producer, write }) => ({
    producer: producer.id,
    built: producer.built,
    builtVia: producer.builtVia,
    write: { file: write.file, keyPath: write.keyPath, via: write.via, source: write.source },
    lockstepWith: producer.writes.filter((w) => w !== write && w.refId === write.refId).map((w) => ({ file: w.file, keyPath: w.keyPath })),
  }));
}
