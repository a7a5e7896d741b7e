/**
 * The document walk: visits every map, sequence and scalar once, runs the shape
 * recognisers on maps (OCI pairs, split maps) and classifies single strings
 * (image keys, `--x-image=` arguments, registry-qualified refs under any key, alone
 * or as a `--flag=` argument's value).
 * Aliases are not second places: they are recorded on the anchor's pins.
 */
import { isAlias, isCollection, isMap, isScalar, isSeq, type Alias, type Node, type Pair, type Scalar, type YAMLMap } from 'yaml';
import { hasExplicitDomain, parseReference, tryParseReference } from '../../reference/index.js';
import { messageOf } from '../common/pin.js';
import { scrapeText } from '../text/index.js';
import { pairsByKey } from './fields.js';
import { collectGlobal } from './global.js';
import { collectKustomize } from './kustomize.js';
import { collectOciPairs } from './oci.js';
import { trySplitMap } from './split.js';
import { isValuesFile } from './chart.js';
import { addPin, addProblem, isImageKey, joinPath, locateIn, locateScalar, nodeStart, scalarText, type YamlState } from './state.js';

type Path = readonly (string | number)[];

/** `--migrate-image=ref`, `-image=ref`, `--sidecar_image=ref` inside a string. */
const ARG_IMAGE = /(?:^|\s)--?[A-Za-z0-9_.-]*image=["']?([^\s"',]+)/gi;
/** An argument value that is a shell expansion (`$AMI_ID`, `${IMAGE}`, `$(cat f)`): computed when the job runs. */
const SHELL_EXPANSION = /^\$[({A-Za-z_]/;
/** How scan counts such arguments under "Left out". */
export const ARG_SHELL_VALUE_LEFT_OUT = '`--x-image=` arguments whose value is a shell variable or command ($AMI_ID, $(…)): set when the job runs, not a ref in the tree';
/** Every ARG_IMAGE match contains `image=` (any case): strings without it skip the regex. */
const ARG_HINT = /image=/i;
/** A ko source ref (`ko://github.com/acme/app/cmd/app`): what ko resolve replaces with the image it builds. */
const KO_SCHEME = 'ko://';
const EXPECTED = 'expected an image reference like registry/path:tag@sha256:<64 hex>';

export function walkDocument(state: YamlState): void {
  const root = state.root;
  if (isMap(root)) {
    collectKustomize(state, root);
    collectGlobal(state, root);
  }
  walkNode(state, root, []);
}

/**
 * `path` is one stack for the whole walk: a child's step is pushed before it is
 * visited and popped after (the recognisers read it or copy it, never keep it),
 * so a deep manifest does not copy its path once per node.
 */
function walkNode(state: YamlState, node: unknown, path: Path): void {
  if (state.consumed.has(node)) return;
  const stack = path as (string | number)[];
  if (isMap(node)) {
    const pairs = recognisable(node) ? pairsByKey(node) : undefined;
    if (pairs) {
      collectOciPairs(state, node, path, pairs);
      trySplitMap(state, node, path, pairs);
    }
    for (const pair of node.items) {
      if (state.consumed.has(pair)) continue;
      if (pairs && shadowed(state, pair, pairs, path)) continue;
      const key = keyString(pair) ?? '?';
      stack.push(key);
      visitValue(state, key, pair.value, path, pair.key);
      stack.pop();
    }
  } else if (isSeq(node)) {
    for (let i = 0; i < node.items.length; i++) {
      stack.push(i);
      visitValue(state, undefined, node.items[i], path, node.items[i]);
      stack.pop();
    }
  }
}

/** The keys the map recognisers read: split maps (trySplitMap) and, by suffix, OCI URL keys (collectOciPairs). */
const RECOGNISED_KEYS = new Set(['registry', 'repository', 'image', 'name', 'tag', 'digest', 'version']);
/** Up to this many items, a repeated key is looked for pair by pair; above, with a set. */
const SMALL_MAP = 16;

/** A map key as the walk names it: a string or number scalar's text; undefined for other keys. */
function keyString(pair: Pair): string | undefined {
  const key = pair.key;
  return isScalar(key) && (typeof key.value === 'string' || typeof key.value === 'number') ? String(key.value) : undefined;
}

/**
 * Whether a map needs its key index (pairsByKey): it has a key a recogniser
 * reads, or a key written twice (shadowed). Most maps of a large manifest have
 * neither, and indexing each one is most of the walk's garbage.
 */
function recognisable(map: YAMLMap): boolean {
  const items = map.items;
  const seen = items.length > SMALL_MAP ? new Set<string>() : undefined;
  for (let i = 0; i < items.length; i++) {
    const key = keyString(items[i]!);
    if (key === undefined) continue;
    if (RECOGNISED_KEYS.has(key) || key.endsWith('rl') || key.endsWith('RL')) return true;
    if (seen) {
      if (seen.has(key)) return true;
      seen.add(key);
    } else {
      for (let j = 0; j < i; j++) if (keyString(items[j]!) === key) return true;
    }
  }
  return false;
}

/**
 * A key written twice in one map: Helm (like every YAML loader that accepts it)
 * keeps the last value, so an earlier pair is dead text. It is not a pin; it is
 * reported, since a reader of the file sees two values and a rewrite of the
 * first would change nothing that ships.
 */
function shadowed(state: YamlState, pair: Pair, pairs: Map<string, Pair>, path: Path): boolean {
  if (!isScalar(pair.key) || (typeof pair.key.value !== 'string' && typeof pair.key.value !== 'number')) return false;
  const key = String(pair.key.value);
  const live = pairs.get(key);
  if (!live || live === pair) return false;
  const liveLine = state.lines.position(nodeStart(live.key)).line;
  addProblem(state, pair.key, 'duplicate-key', `${joinPath(childPath(path, key))} is written again at line ${liveLine}; YAML loaders such as Helm keep the last value, so this one is ignored`);
  return true;
}

/** `path` plus one step, as a new array (the walk's own path is a stack that changes as it goes). */
function childPath(path: Path, step: string | number): Path {
  const out = path.slice();
  out.push(step);
  return out;
}

function visitValue(state: YamlState, key: string | undefined, value: unknown, path: Path, locator: unknown): void {
  if (isAlias(value)) recordAlias(state, key, value, path);
  else if (isScalar(value)) visitScalar(state, key, value, path);
  else if (value === null || value === undefined) {
    if (isImageKey(key)) emptyImage(state, locator, path);
  } else walkNode(state, value, path);
}

/** How scan counts image keys a Helm values file leaves empty, and image values that are placeholders another tool fills. */
export const IMAGE_VALUE_LEFT_OUT = {
  emptySlot: "image keys a Helm values file leaves empty (`image: \"\"`): a slot the chart's user fills (the chart's default applies), no ref in the tree",
  placeholder: 'image values that are placeholders a tool fills before use (`${GatewayImage}`: envsubst, Flux postBuild), no ref in the tree',
} as const;

/** `image:` with no value: a problem in a manifest, a slot in a Helm values file (gateway's envoyProxy.image). */
function emptyImage(state: YamlState, at: unknown, path: Path): void {
  if (!isValuesFile(state.ctx.file)) {
    addProblem(state, at, 'invalid-ref', `${joinPath(path)} is empty; ${EXPECTED}`);
    return;
  }
  const start = (at as { range?: [number, number, number] } | undefined)?.range?.[0] ?? 0;
  state.leftOut.push({ reason: IMAGE_VALUE_LEFT_OUT.emptySlot, where: `${state.ctx.file}:${state.lines.position(start).line} ${joinPath(path)}` });
}

function visitScalar(state: YamlState, key: string | undefined, s: Scalar, path: Path): void {
  const text = scalarText(s);
  if (text === undefined || text === '') {
    if (isImageKey(key)) emptyImage(state, s, path);
    return;
  }
  if (isImageKey(key) && typeof s.value === 'string' && PLACEHOLDER.test(text)) {
    const line = state.lines.position(s.range?.[0] ?? 0).line;
    state.leftOut.push({ reason: IMAGE_VALUE_LEFT_OUT.placeholder, where: `${state.ctx.file}:${line} ${joinPath(path)} ${text}`, line });
    return;
  }
  if (typeof s.value === 'string' && text.startsWith(KO_SCHEME)) {
    koSourceRef(state, s, text, 0, joinPath(path), 'yaml-string');
    return;
  }
  if (typeof s.value === 'string' && s.type === 'BLOCK_LITERAL' && EMBEDDED_IMAGE.test(text) && EMBEDDED_YAML.test(text)) {
    embeddedRefs(state, s, joinPath(path));
    return;
  }
  if (typeof s.value === 'string' && ARG_HINT.test(text) && collectArgs(state, s, text, joinPath(path))) return;
  if (typeof s.value === 'string' && text.startsWith('-') && flagRef(state, s, text, joinPath(path))) return;
  if (isImageKey(key) && typeof s.value !== 'string') {
    // `image: 1.10` is the number 1.1 to YAML (and to Helm, which renders `1.1`): not a reference.
    addProblem(state, s, 'not-a-string', `${joinPath(path)} is the YAML ${typeof s.value} ${JSON.stringify(String(s.value))}, not a string (written ${JSON.stringify(text)}); ${EXPECTED}, quoted if it could read as a number`);
    return;
  }
  if (isImageKey(key)) {
    singleString(state, s, joinPath(path), true);
    return;
  }
  if (typeof s.value !== 'string' || text.includes('://') || !hasExplicitDomain(text)) return;
  const ref = tryParseReference(text);
  if (ref && (ref.tag !== undefined || ref.digest !== undefined)) singleString(state, s, joinPath(path), false);
}

/** A shell-style placeholder (`${GatewayImage}`, `registry/app:${TAG}`) that envsubst or Flux's postBuild fills. */
const PLACEHOLDER = /\$\{[A-Za-z_][A-Za-z0-9_]*(?::?[-=?+][^}]*)?\}/;

/** A whole scalar holding one ref; `strict` turns a parse failure into a Problem. */
function singleString(state: YamlState, s: Scalar, keyPath: string, strict: boolean): void {
  const text = scalarText(s) ?? '';
  let ref;
  try {
    ref = parseReference(text);
  } catch (e) {
    if (strict) addProblem(state, s, 'invalid-ref', `${keyPath}: ${messageOf(e)}`);
    return;
  }
  const at = locateScalar(state, s);
  if (!at) {
    addProblem(state, s, 'unlocatable-ref', `${keyPath}: ${JSON.stringify(text)} is written with escapes or folding, so its position is unknown; write it as plain text`);
    return;
  }
  addPin(state, { shape: 'yaml-string', spans: [{ field: 'ref', start: at.start, end: at.end }], raw: text, ref, keyPath }, s);
}

/** `--x-image=ref` arguments inside a string; true when any was found. */
function collectArgs(state: YamlState, s: Scalar, text: string, keyPath: string): boolean {
  let found = false;
  let from = 0;
  for (const m of text.matchAll(ARG_IMAGE)) {
    found = true;
    const refText = m[1] as string;
    if (refText.startsWith(KO_SCHEME)) {
      const start = koSourceRef(state, s, refText, from, keyPath, 'yaml-arg');
      if (start !== -1) from = start - (s.range?.[0] ?? 0) + refText.length;
      continue;
    }
    if (SHELL_EXPANSION.test(refText)) {
      // `--worker-image="$AMI_ID"`: a value the job computes when it runs, not a ref in the tree
      state.leftOut.push({ reason: ARG_SHELL_VALUE_LEFT_OUT, where: `${state.ctx.file}:${state.lines.position(s.range?.[0] ?? 0).line} ${keyPath} ${refText}` });
      continue;
    }
    try {
      const ref = parseReference(refText);
      const start = locateIn(state, s, refText, from);
      if (start === -1) {
        addProblem(state, s, 'unlocatable-ref', `${keyPath}: ${JSON.stringify(refText)} could not be located in the source`);
        continue;
      }
      from = start - (s.range?.[0] ?? 0) + refText.length;
      addPin(state, { shape: 'yaml-arg', spans: [{ field: 'ref', start, end: start + refText.length }], raw: refText, ref, keyPath }, s);
    } catch (e) {
      addProblem(state, s, 'invalid-ref', `${keyPath}: ${messageOf(e)}`);
    }
  }
  return found;
}

/** A block scalar's text that is YAML: its first line (past blanks and `#` comments) a mapping key or a list item, not a script's command. */
const EMBEDDED_YAML = /^(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*(?:-[ \t]|["']?[A-Za-z_][\w.-]*["']?[ \t]*:(?:[ \t]|$))/;
/** A line of YAML with an image key (`image:`, `- image:`, `"sidecarImage":`), in a block scalar's text. */
const EMBEDDED_IMAGE = /(?:^|\n)[ \t]*(?:-[ \t]+)?["']?[A-Za-z0-9_-]*image["']?[ \t]*:/i;

/** How scan counts image values of embedded YAML that are templates (`image: {{ .Values.x }}` in a ConfigMap's text). */
export const EMBEDDED_TEMPLATE_LEFT_OUT = 'image values in YAML embedded in a literal block (a ConfigMap\'s template text) that are templates: filled when it is rendered, no ref in the tree';

/**
 * YAML embedded in a literal block scalar (`data: {template.yaml: |- …}`: kubeflow/katib's trial templates,
 * whose Jobs run `ghcr.io/kubeflow/katib/pytorch-mnist-cpu:latest`): its lines are read as the text
 * scrape reads a file, where they are written (the rest of the file blanked, so every position is the
 * file's own). A templated value there is left out, counted.
 */
function embeddedRefs(state: YamlState, s: Scalar, keyPath: string): void {
  const [start, end] = s.range ?? [0, 0];
  const masked = state.text.slice(0, start).replace(/[^\n]/g, ' ') + state.text.slice(start, end);
  const found = scrapeText(masked, state.ctx);
  for (const pin of found.pins) addPin(state, { shape: pin.shape, spans: pin.spans, raw: pin.raw, ref: pin.ref, keyPath }, s);
  for (const p of found.problems) {
    if (p.code === 'templated-ref') state.leftOut.push({ reason: EMBEDDED_TEMPLATE_LEFT_OUT, where: `${state.ctx.file}:${p.line ?? 0} ${keyPath}`, ...(p.line !== undefined ? { line: p.line } : {}) });
    else state.problems.push(p);
  }
}

/** One argument `--name=value` (any name) whose value is a registry-qualified ref with a tag or digest. */
const FLAG_VALUE = /^--?[A-Za-z0-9][A-Za-z0-9_.-]*=(["']?)([^\s"']+)\1$/;

/**
 * A container argument that passes a ref to the program (prometheus-operator's
 * `--prometheus-config-reloader=quay.io/prometheus-operator/prometheus-config-reloader:v0.93.0`):
 * the whole scalar one flag, its value registry-qualified with a tag or digest, as the walk
 * reads a ref under any key; true when it was one.
 */
function flagRef(state: YamlState, s: Scalar, text: string, keyPath: string): boolean {
  const m = FLAG_VALUE.exec(text);
  const refText = m?.[2];
  if (!refText || refText.includes('://') || !hasExplicitDomain(refText)) return false;
  const ref = tryParseReference(refText);
  if (!ref || (ref.tag === undefined && ref.digest === undefined)) return false;
  const start = locateIn(state, s, refText, 0);
  if (start === -1) addProblem(state, s, 'unlocatable-ref', `${keyPath}: ${JSON.stringify(refText)} could not be located in the source`);
  else addPin(state, { shape: 'yaml-arg', spans: [{ field: 'ref', start, end: start + refText.length }], raw: refText, ref, keyPath }, s);
  return true;
}

/**
 * A `ko://<importpath>` ref: a source ref ko resolves at release (`ko resolve`
 * builds the package and writes the image's digest ref in its place). A pin of
 * form `source` with an empty ref, never an invalid ref or a missing digest.
 * Returns the offset it was found at (-1 when it cannot be located).
 */
function koSourceRef(state: YamlState, s: Scalar, text: string, from: number, keyPath: string, shape: 'yaml-string' | 'yaml-arg'): number {
  const importPath = text.slice(KO_SCHEME.length);
  if (!/^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~+-]+)*$/.test(importPath)) {
    addProblem(state, s, 'invalid-ref', `${keyPath}: ${JSON.stringify(text)} is not a ko:// source ref; expected ko://<Go import path> like ko://github.com/acme/app/cmd/app`);
    return -1;
  }
  const start = shape === 'yaml-string' ? locateScalar(state, s)?.start ?? -1 : locateIn(state, s, text, from);
  if (start === -1) {
    addProblem(state, s, 'unlocatable-ref', `${keyPath}: ${JSON.stringify(text)} could not be located in the source`);
    return -1;
  }
  const pin = addPin(state, { shape, spans: [{ field: 'ref', start, end: start + text.length }], raw: text, ref: { domain: '', path: '', name: '' }, keyPath }, s);
  pin.form = 'source';
  pin.firstParty = false;
  pin.incomplete = `a ko:// source ref: ko builds ${importPath} and writes the image ref here at release`;
  pin.source = { builder: 'ko', name: importPath };
  return start;
}

/** An alias is not a second stored place: note its key path on the anchor's pins. */
function recordAlias(state: YamlState, key: string | undefined, alias: Alias, path: Path): void {
  const target = state.doc ? alias.resolve(state.doc) : undefined;
  if (!target) return;
  const pins = pinsUnder(state, target);
  if (pins.length > 0) {
    for (const pin of pins) (pin.aliases ??= []).push(joinPath(path));
    return;
  }
  // The anchor was not classified as a ref on its own, but the alias key says it is an image.
  if (isScalar(target) && isImageKey(key)) visitScalar(state, key, target, path);
}

function pinsUnder(state: YamlState, node: Node): NonNullable<ReturnType<YamlState['pinsByNode']['get']>> {
  const own = state.pinsByNode.get(node) ?? [];
  if (!isCollection(node)) return own;
  const nested = node.items.flatMap((item) => {
    const child = isMap(node) ? (item as { value?: unknown }).value : item;
    return child && typeof child === 'object' && !isAlias(child) ? pinsUnder(state, child as Node) : [];
  });
  return [...own, ...nested];
}
