/**
 * One YAML document for the readers that want `yaml`'s parseDocument (workflow,
 * compose, Cloud Build, GoReleaser, ko, bake and kustomization files): the fast
 * parser's tree (fast-parse.ts, node for node what `yaml` builds) when the text
 * is inside its subset, else `yaml` itself. Either way the caller's LineCounter
 * holds every line start, as yaml's parser fills it, and `errors` is yaml's.
 * parseYamlDocuments is parseAllDocuments the same way. A text with several
 * documents (for the one-document calls), or (unless `uniqueKeys: false`) a map
 * with a repeated key, goes to `yaml`, which reports it.
 */
import { isMap, isSeq, parseAllDocuments, parseDocument, type DocumentOptions, type LineCounter, type Node, type ParseOptions, type SchemaOptions, type YAMLError } from 'yaml';
import { fastParseAll } from './fast-parse.js';

export type YamlDocumentOptions = ParseOptions & DocumentOptions & SchemaOptions;

/** What the readers use of a parsed document: its root node (null when empty) and its errors. */
export interface YamlDocument {
  contents: Node | null;
  errors: YAMLError[];
}

/** parseDocument(text, options), taking the fast path when it gives the same tree. */
export function parseYamlDocument(text: string, options: YamlDocumentOptions = {}): YamlDocument {
  const fast = fastDocument(text, options.uniqueKeys !== false);
  if (fast === undefined) return parseDocument(text, options);
  if (options.lineCounter) countLines(text, options.lineCounter);
  return { contents: fast, errors: [] };
}

/** parseAllDocuments(text, options): every document, each from the fast path when the whole text takes it. */
export function parseYamlDocuments(text: string, options: YamlDocumentOptions = {}): YamlDocument[] {
  const docs = fastParseAll(text);
  if (!docs || (options.uniqueKeys !== false && docs.some(hasRepeatedKey))) {
    const parsed = parseAllDocuments(text, options);
    return Array.isArray(parsed) ? parsed : [];
  }
  if (options.lineCounter) countLines(text, options.lineCounter);
  return docs.map((contents) => ({ contents, errors: [] }));
}

/** The plain JavaScript value of a one-document text (`yaml`'s parse), or throws yaml's first error. */
export function parseYamlValue(text: string, options: YamlDocumentOptions = {}): unknown {
  const fast = fastDocument(text, options.uniqueKeys !== false);
  if (fast === undefined) {
    const doc = parseDocument(text, options);
    if (doc.errors.length > 0) throw doc.errors[0];
    return doc.toJS();
  }
  return fast === null ? null : fast.toJSON();
}

/** The fast tree's one root (null for a text without a document), or undefined when yaml must parse it. */
function fastDocument(text: string, uniqueKeys: boolean): Node | null | undefined {
  const docs = fastParseAll(text);
  if (!docs || docs.length > 1) return undefined;
  const root = docs[0] ?? null;
  if (root && uniqueKeys && hasRepeatedKey(root)) return undefined;
  return root;
}

/** A map anywhere in the tree with two keys of the same value (fast-parsed keys are always strings). */
function hasRepeatedKey(node: Node): boolean {
  if (isMap(node)) {
    const seen = new Set<unknown>();
    for (const pair of node.items) {
      const key = (pair.key as { value?: unknown } | null)?.value;
      if (seen.has(key)) return true;
      seen.add(key);
      if (pair.value && hasRepeatedKey(pair.value as Node)) return true;
    }
    return false;
  }
  if (isSeq(node)) return node.items.some((item) => hasRepeatedKey(item as Node));
  return false;
}

/** Every line start, as yaml's parser reports them (offset 0, then the offset after each newline). */
function countLines(text: string, lineCounter: LineCounter): void {
  lineCounter.addNewLine(0);
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) lineCounter.addNewLine(nl + 1);
}
