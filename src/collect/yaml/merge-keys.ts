/** YAML merge keys (`<<: *defaults`) applied to a map, as compose and goreleaser read their files. */
import { isAlias, isMap, isScalar, isSeq, YAMLMap, type Document, type Pair } from 'yaml';
import type { YamlDocument } from './document.js';

/** A `<<` merge key (yaml parses it with `merge: true` as a key whose value is a symbol). */
const isMergeKey = (key: unknown): boolean => isScalar(key) && (key.value === '<<' || typeof key.value === 'symbol');

/**
 * A map with its merge keys applied (`<<: *sentry_defaults`, `<<: [*a, *b]`: the keys it
 * writes itself win, then the first source's, recursively), as compose reads it; the pairs are
 * the file's own nodes, so lines stay where the text is. A map that merges nothing is itself.
 * yaml keeps `<<` as a pair and `get` does not merge: compose services and goreleaser builds
 * (`- <<: &build_defaults`) are read through this.
 */
export function withMerges(doc: YamlDocument, map: YAMLMap, seen = new Set<YAMLMap>()): YAMLMap {
  if (!map.items.some((p) => isMergeKey(p.key)) || seen.has(map)) return map;
  seen.add(map);
  const out = new YAMLMap<unknown, unknown>();
  if (map.range) out.range = map.range; // where the map itself is written
  const has = new Set<unknown>();
  const add = (p: Pair<unknown, unknown>) => {
    const k = isScalar(p.key) ? p.key.value : p.key;
    if (has.has(k)) return;
    has.add(k);
    out.items.push(p);
  };
  for (const p of map.items) if (!isMergeKey(p.key)) add(p);
  for (const p of map.items) {
    if (!isMergeKey(p.key)) continue;
    for (const source of isSeq(p.value) ? p.value.items : [p.value]) {
      // an alias only comes from yaml's own parse (the fast path takes no text with anchors): a Document
      const target = isAlias(source) ? source.resolve(doc as Document) : source;
      if (isMap(target)) for (const q of withMerges(doc, target, seen).items) add(q);
    }
  }
  return out;
}
