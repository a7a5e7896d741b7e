/**
 * OCI artifact pairs: `{fooUrl: oci://registry/repo, fooRef: digest=sha256:…}`
 * (Flux OCIRepository style; `tag=` is read too). A lone `oci://` URL is not a ref.
 */
import type { YAMLMap } from 'yaml';
import type { Span } from '../../model/index.js';
import { parseReference } from '../../reference/index.js';
import { messageOf } from '../common/pin.js';
import { pairsByKey, readField, textOf } from './fields.js';
import { addPin, addProblem, joinPath, type YamlState } from './state.js';

const URL_KEY = /^(.*?)(Url|URL|url)$/;
const REF_VALUE = /^(digest|tag)=(.+)$/;

export function collectOciPairs(state: YamlState, map: YAMLMap, path: readonly (string | number)[], pairs = pairsByKey(map)): void {
  for (const [key, pair] of pairs) {
    if (!key.endsWith('rl') && !key.endsWith('RL')) continue; // what URL_KEY needs, without the regex
    const m = URL_KEY.exec(key);
    if (!m) continue;
    const url = textOf(readField(state, pairs, key));
    if (!url || !url.value.startsWith('oci://')) continue;
    const refKey = [`${m[1]}Ref`, `${m[1]}REF`, `${m[1]}ref`].find((k) => pairs.has(k));
    if (!refKey) continue;
    const refRead = readField(state, pairs, refKey);
    const refAt = textOf(refRead);
    const keyPath = joinPath([...path, key]);
    state.consumed.add(pair);
    if (refRead.kind !== 'absent') state.consumed.add(refRead.pair);
    const rm = refAt ? REF_VALUE.exec(refAt.value) : null;
    if (!refAt || !rm) {
      addProblem(state, refRead.kind === 'absent' ? pair : refRead.pair, 'invalid-ref', `${joinPath([...path, refKey])} must be "digest=sha256:<64 hex>" or "tag=<tag>"; saw ${JSON.stringify(refAt?.value ?? '')}`);
      continue;
    }
    const name = url.value.slice('oci://'.length);
    const kind = rm[1] as 'digest' | 'tag';
    const value = rm[2] as string;
    const ref = kind === 'digest' ? `${name}@${value}` : `${name}:${value}`;
    const valueStart = refAt.start + kind.length + 1;
    const spans: Span[] = [
      { field: 'repository', start: url.start + 'oci://'.length, end: url.end },
      { field: kind, start: valueStart, end: valueStart + value.length },
    ];
    try {
      addPin(state, { shape: 'yaml-oci', spans, raw: ref, ref: parseReference(ref), keyPath }, map);
    } catch (e) {
      addProblem(state, url.node, 'invalid-ref', `${keyPath}: ${messageOf(e)}`);
    }
  }
}
