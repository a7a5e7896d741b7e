/**
 * The YAML collector: every YAML file (values, Kubernetes manifests,
 * kustomizations), multi-document, CRLF and BOM safe. Offsets come from the
 * yaml node ranges. A file that does not parse, or that leaks Helm template
 * syntax, is scraped as text instead and the result says why. Plain values
 * files and plain multi-document manifests take the fast parser (fast-parse.ts),
 * which builds the same nodes, less the subtrees the walk would find nothing in
 * (inert.ts).
 */
import { isCollection, LineCounter, parseAllDocuments, visit, type Document, type Node } from 'yaml';
import type { Problem } from '../../model/index.js';
import { LineIndex, messageOf } from '../common/pin.js';
import { scrapeText } from '../text/index.js';
import type { CollectContext, CollectResult } from '../types.js';
import { fastParseEach, type FastDocument } from './fast-parse.js';
import { inertRegions } from './inert.js';
import { isValuesFile } from './chart.js';
import { walkDocument } from './walk.js';

/**
 * `built: true` builds every node of a fast-parsed text (tests compare it with
 * the default, which leaves out the subtrees inert.ts proves the walk has
 * nothing to read in).
 */
export function collectYaml(text: string, ctx: CollectContext, options: { built?: boolean } = {}): CollectResult {
  const lines = new LineIndex(text);
  const fast = fastParseEach(text, options.built ? undefined : inertRegions(text, isValuesFile(ctx.file)));
  // the documents outside the fast subset each parsed by yaml alone, or (undefined) the whole text by yaml
  let docs = fast ? withYamlDocuments(text, fast) : undefined;
  if (!docs) {
    try {
      docs = (parseAllDocuments(text, yamlOptions()) as Document.Parsed[]).map((doc) => ({ root: doc.contents, doc }));
    } catch (e) {
      return fallback(text, ctx, { line: 1, reason: `YAML could not be parsed: ${messageOf(e)}` });
    }
  }
  const mayLeak = text.includes('{{');
  for (const { doc } of docs) {
    if (!doc) continue; // built by the fast parser: no error, no template leak (fast-parse.ts)
    const error = doc.errors[0];
    if (error) {
      const line = error.linePos?.[0].line ?? lines.position(error.pos[0]).line;
      return fallback(text, ctx, { line, reason: `YAML parse error at line ${line}: ${firstLine(error.message)}` });
    }
    const leak = mayLeak ? templateLeak(text, doc) : undefined;
    if (leak !== undefined) {
      const line = lines.position(leak).line;
      return fallback(text, ctx, { line, reason: `Helm template syntax ({{ … }}) at line ${line} is not YAML` });
    }
  }
  return walkDocuments(text, ctx, lines, docs);
}

const yamlOptions = () => ({ lineCounter: new LineCounter(), keepSourceTokens: true, uniqueKeys: false });

/** The fast parser's documents, with each one it left to yaml parsed alone (parseSpan); undefined when one of those is not one document, or has an error. */
function withYamlDocuments(text: string, fast: FastDocument[]): { root: unknown; doc: Document.Parsed | undefined }[] | undefined {
  const out: { root: unknown; doc: Document.Parsed | undefined }[] = [];
  for (const d of fast) {
    if ('root' in d) {
      out.push({ root: d.root, doc: undefined });
      continue;
    }
    const doc = parseSpan(text, d);
    // an error is reported as the whole text's parse words it (its line and column in the message)
    if (!doc || doc.errors.length > 0) return undefined;
    out.push({ root: doc.contents, doc });
  }
  return out;
}

/**
 * One document of `text` (its span from fastParseEach) parsed by yaml alone,
 * at its own offsets: the text before it stands in as one comment line of the
 * same length (yaml reads it in milliseconds, where as many blank lines would
 * take seconds), so every range and error position is the whole text's.
 * Undefined when yaml does not read exactly one document there (then the whole
 * text is parsed, as without the fast parser).
 */
function parseSpan(text: string, span: { from: number; to: number }): Document.Parsed | undefined {
  const pad = span.from === 0 ? '' : `${'#'.repeat(span.from - 1)}\n`;
  try {
    const docs = parseAllDocuments(pad + text.slice(span.from, span.to), { keepSourceTokens: true, uniqueKeys: false }) as Document.Parsed[];
    return docs.length === 1 ? docs[0] : undefined;
  } catch {
    return undefined;
  }
}

function walkDocuments(text: string, ctx: CollectContext, lines: LineIndex, docs: { root: unknown; doc: Document | undefined }[]): CollectResult {
  const result: CollectResult = { pins: [], problems: [] };
  const leftOut: NonNullable<CollectResult['leftOut']> = [];
  // In a multi-document file a key path names its document (`[1].spec.containers[0].image`):
  // the same path in two documents is two places (yq's documentIndex counts the same way).
  const multi = docs.filter((d) => d.root !== null && d.root !== undefined).length > 1;
  docs.forEach(({ root, doc }, document) => {
    const before = result.pins.length;
    walkDocument({ text, ctx, lines, pins: result.pins, problems: result.problems, leftOut, document, root, doc, pinsByNode: new Map(), consumed: new Set() });
    if (!multi) return;
    for (const pin of result.pins.slice(before)) {
      if (pin.keyPath !== undefined) pin.keyPath = documentPath(document, pin.keyPath);
      if (pin.aliases) pin.aliases = pin.aliases.map((a) => documentPath(document, a));
    }
  });
  if (leftOut.length > 0) result.leftOut = leftOut;
  return result;
}

function documentPath(document: number, keyPath: string): string {
  return keyPath === '' || keyPath.startsWith('[') ? `[${document}]${keyPath}` : `[${document}].${keyPath}`;
}

/** Offset of a `{{ … }}` that the parser read as a flow map key, if any. */
function templateLeak(text: string, doc: Document): number | undefined {
  let found: number | undefined;
  visit(doc, {
    Pair(_, pair) {
      const key = pair.key as Node | null;
      if (isCollection(key) && key.range && text.startsWith('{{', key.range[0] - 1)) {
        found = key.range[0] - 1;
        return visit.BREAK;
      }
      return undefined;
    },
    Map(_, map) {
      if (map.flow && map.range && text.startsWith('{{', map.range[0])) {
        found = map.range[0];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

function fallback(text: string, ctx: CollectContext, why: { line: number; reason: string }): CollectResult {
  const scraped = scrapeText(text, ctx, { scraped: true });
  const problem: Problem = { file: ctx.file, line: why.line, code: 'yaml-parse-error', reason: `${why.reason}; refs were scraped from the text instead` };
  return { pins: scraped.pins, problems: [problem, ...scraped.problems], scrapedBecause: why.reason };
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
