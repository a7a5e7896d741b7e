/**
 * Dispatch a file to the collector for its kind: yaml (values, manifests,
 * kustomizations), tag files, declared text files, Dockerfiles.
 */
import { collectDockerfile } from './dockerfile/index.js';
import { collectTagFile } from './tagfile/index.js';
import { scrapeText } from './text/index.js';
import type { CollectContext, CollectResult, FileKind } from './types.js';
import { collectYaml } from './yaml/index.js';

export type { CollectContext, CollectResult, Collector, FileKind } from './types.js';
export { collectDockerfile } from './dockerfile/index.js';
export { collectTagFile } from './tagfile/index.js';
export { scrapeText } from './text/index.js';
export { collectYaml } from './yaml/index.js';

export function collectFile(kind: FileKind, text: string, ctx: CollectContext): CollectResult {
  switch (kind) {
    case 'yaml':
      return collectYaml(text, ctx);
    case 'tag':
      return collectTagFile(text, ctx);
    case 'text':
      return scrapeText(text, ctx);
    case 'dockerfile':
      return collectDockerfile(text, ctx);
  }
}
