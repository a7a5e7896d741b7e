/**
 * Kustomization `images: [{name, newName?, newTag?, digest?}]`: each entry
 * rewrites image `name` to `newName:newTag@digest`; the pin is the result. An
 * entry whose values are templates (`newTag: CONTAINER_IMAGES_TAG`,
 * `newName: ${REGISTRY}/app`) or that only appends a `tagSuffix` is not a pin:
 * it is counted under `leftOut`. How an entry overrides the refs of its
 * resources is scan's (scan/kustomize.ts): it spans files.
 */
import { isMap, isSeq, type YAMLMap } from 'yaml';
import type { Span } from '../../model/index.js';
import { parseReference } from '../../reference/index.js';
import { messageOf } from '../common/pin.js';
import { pairsByKey, readField, textOf } from './fields.js';
import { addPin, addProblem, joinPath, type YamlState } from './state.js';

/** kustomize's own file names: a file so named is a kustomization whatever it declares. */
const KUSTOMIZATION_FILE = /(^|\/)(kustomization\.ya?ml|Kustomization)$/;

/**
 * True for a kustomization document: by its file name (kustomize reads
 * `kustomization.yaml` without `kind:`, and most are written without it), its
 * kind or apiVersion, or resources + images.
 */
export function isKustomization(root: YAMLMap, file = ''): boolean {
  if (KUSTOMIZATION_FILE.test(file)) return true;
  const kind = root.get('kind');
  const apiVersion = root.get('apiVersion');
  if (kind === 'Kustomization' || kind === 'Component') return true;
  if (typeof apiVersion === 'string' && apiVersion.startsWith('kustomize.config.k8s.io')) return true;
  return root.has('resources') && isSeq(root.get('images', true));
}

export function collectKustomize(state: YamlState, root: YAMLMap): void {
  if (!isKustomization(root, state.ctx.file)) return;
  const images = root.get('images', true);
  if (!isSeq(images)) return;
  state.consumed.add(images);
  images.items.forEach((item, i) => {
    if (!isMap(item)) {
      addProblem(state, item, 'incomplete-ref', `images[${i}] is not a map; a kustomize image entry is {name, newName?, newTag?, digest?}`);
      return;
    }
    state.consumed.add(item);
    readEntry(state, item, ['images', i]);
  });
}

/** Why kustomize entries are left out (scan's `excluded` reasons). */
export const KUSTOMIZE_LEFT_OUT = {
  template: 'kustomize images: entries whose values are templates (newTag: CONTAINER_IMAGES_TAG), not pins',
  tagSuffix: 'kustomize images: entries that only append a tagSuffix to the image they name, not pins of their own',
  rename: "kustomize images: entries that only rename (newName): the tag is the resource's, not pins of their own",
} as const;

/**
 * A placeholder a pipeline substitutes before kustomize runs: an all-caps word
 * with underscores (`CONTAINER_IMAGES_TAG`), `$VAR`/`${VAR}`/`$(VAR)`, `{{ … }}`,
 * `<tag>`, `%TAG%`, `__TAG__`; checked per path segment of a name.
 */
export function isTemplateValue(value: string): boolean {
  if (/[$]|\{\{|^<.*>$|^%.*%$|^__.*__$/.test(value)) return true;
  return value.split('/').some((segment) => /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(segment));
}

function readEntry(state: YamlState, entry: YAMLMap, path: (string | number)[]): void {
  const keyPath = joinPath(path);
  const pairs = pairsByKey(entry);
  const name = textOf(readField(state, pairs, 'name'));
  const newName = textOf(readField(state, pairs, 'newName'));
  const newTag = textOf(readField(state, pairs, 'newTag'));
  const digest = textOf(readField(state, pairs, 'digest'));
  const tagSuffix = textOf(readField(state, pairs, 'tagSuffix'));
  const where = `${state.ctx.file}:${state.lines.position(entry.range?.[0] ?? 0).line}`;
  if ([newName, newTag, digest, tagSuffix].some((f) => f !== undefined && isTemplateValue(f.value))) {
    state.leftOut.push({ reason: KUSTOMIZE_LEFT_OUT.template, where });
    return;
  }
  if (tagSuffix && !newName && !newTag && !digest) {
    state.leftOut.push({ reason: KUSTOMIZE_LEFT_OUT.tagSuffix, where });
    return;
  }
  // kustomize keeps the tag (and digest) of the image it renames: the entry pins nothing (flux2's install kustomization)
  if (newName && !newTag && !digest) {
    state.leftOut.push({ reason: KUSTOMIZE_LEFT_OUT.rename, where });
    return;
  }
  const repo = newName ?? name;
  if (!repo) {
    addProblem(state, entry, 'incomplete-ref', `${keyPath} has no name; a kustomize image entry needs name (and newName/newTag/digest)`);
    return;
  }
  const spans: Span[] = [{ field: 'repository', start: repo.start, end: repo.end }];
  let ref = repo.value;
  if (newTag) {
    const at = newTag.value.indexOf('@');
    const tag = at === -1 ? newTag.value : newTag.value.slice(0, at);
    if (tag) {
      ref += `:${tag}`;
      spans.push({ field: 'tag', start: newTag.start, end: newTag.start + tag.length });
    }
    if (at !== -1 && !digest) {
      ref += `@${newTag.value.slice(at + 1)}`;
      spans.push({ field: 'digest', start: newTag.start + at + 1, end: newTag.end });
    }
  }
  if (digest) {
    ref += `@${digest.value}`;
    spans.push({ field: 'digest', start: digest.start, end: digest.end });
  }
  try {
    addPin(state, { shape: 'kustomize', spans, raw: ref, ref: parseReference(ref), keyPath }, entry);
  } catch (e) {
    addProblem(state, repo.node, 'invalid-ref', `${keyPath}: ${messageOf(e)}`);
  }
}


