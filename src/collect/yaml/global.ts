/**
 * Chart-global images: `global.registry.address` (or `global.imageRegistry`, or
 * `global.image.registry`) prefixes every `global.images.<name>.{repository, tag,
 * digest}`; the same registry is kept on the state for the document's other
 * image maps (split.ts), as Helm charts' image helpers apply it.
 */
import { isMap, isScalar, type YAMLMap } from 'yaml';
import type { Span } from '../../model/index.js';
import { parseReference } from '../../reference/index.js';
import { messageOf } from '../common/pin.js';
import { pairsByKey, readField, textOf } from './fields.js';
import { addPin, addProblem, joinPath, type Located, type YamlState } from './state.js';

export function collectGlobal(state: YamlState, root: YAMLMap): void {
  const global = root.get('global', true);
  if (!isMap(global)) return;
  const registry = globalRegistry(state, global);
  if (registry) state.globalRegistry = registry;
  const images = global.get('images', true);
  if (!isMap(images)) return;
  if (!registry) return;
  for (const pair of images.items) {
    if (!isScalar(pair.key) || !isMap(pair.value)) continue;
    const name = String(pair.key.value);
    state.consumed.add(pair.value);
    readGlobalImage(state, registry, pair.value, ['global', 'images', name]);
  }
}

function globalRegistry(state: YamlState, global: YAMLMap): Located | undefined {
  const pairs = pairsByKey(global);
  const registry = global.get('registry', true);
  if (isMap(registry)) {
    const address = textOf(readField(state, pairsByKey(registry), 'address'));
    if (address) return address;
  }
  const image = global.get('image', true);
  if (isMap(image)) {
    const nested = textOf(readField(state, pairsByKey(image), 'registry'));
    if (nested) return nested;
  }
  return textOf(readField(state, pairs, 'imageRegistry'));
}

function readGlobalImage(state: YamlState, registry: Located, entry: YAMLMap, path: string[]): void {
  const keyPath = joinPath(path);
  const pairs = pairsByKey(entry);
  const repository = textOf(readField(state, pairs, 'repository'));
  if (!repository) {
    addProblem(state, entry, 'incomplete-ref', `${keyPath}.repository is missing or empty; the reference is incomplete`);
    return;
  }
  const prefix = registry.value.replace(/\/+$/, '');
  const spans: Span[] = [{ field: 'repository', start: repository.start, end: repository.end }];
  let ref = `${prefix}/${repository.value}`;
  const tag = textOf(readField(state, pairs, 'tag'));
  let digestInTag = false;
  if (tag) {
    const at = tag.value.indexOf('@');
    const tagPart = at === -1 ? tag.value : tag.value.slice(0, at);
    if (tagPart) {
      ref += `:${tagPart}`;
      spans.push({ field: 'tag', start: tag.start, end: tag.start + tagPart.length });
    }
    if (at !== -1) {
      digestInTag = true;
      ref += `@${tag.value.slice(at + 1)}`;
      spans.push({ field: 'digest', start: tag.start + at + 1, end: tag.end });
    }
  }
  const digest = textOf(readField(state, pairs, 'digest'));
  if (digest && !digestInTag) {
    ref += `@${digest.value}`;
    spans.push({ field: 'digest', start: digest.start, end: digest.end });
  }
  // The registry is shared by every global image: it goes last, so the pin's line is its own entry.
  spans.push({ field: 'registry', start: registry.start, end: registry.start + prefix.length });
  try {
    addPin(state, { shape: 'yaml-global', spans, raw: ref, ref: parseReference(ref), keyPath }, entry, { keepSpanOrder: true });
  } catch (e) {
    addProblem(state, repository.node, 'invalid-ref', `${keyPath}: ${messageOf(e)}`);
  }
}
