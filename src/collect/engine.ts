/**
 * The pure core of collecting (collectFile): dispatch a file's text to the
 * collector for its kind (yaml values, manifests and kustomizations; tag files;
 * declared text files; Dockerfiles) through the one registry of collectors.
 */
import { collectDockerfile } from './dockerfile/index.js';
import { collectTagFile } from './tagfile/index.js';
import { scrapeText } from './text/index.js';
import type { CollectContext, CollectResult, Collector, FileKind } from './types.js';
import { collectYaml } from './yaml/index.js';

/** Every collector, by the file kind it reads (a new kind cannot compile without one; the conformance test covers each). */
export const COLLECTORS: Readonly<Record<FileKind, Collector>> = {
  yaml: collectYaml,
  tag: collectTagFile,
  text: scrapeText,
  dockerfile: collectDockerfile,
};

export function collectFile(kind: FileKind, text: string, ctx: CollectContext): CollectResult {
  return COLLECTORS[kind](text, ctx);
}
