/**
 * Split maps: one image stored as several keys of a map —
 * `{registry?, repository|image|name, tag?, digest?}`, the digest possibly inside
 * `tag: v1@sha256:…`, and the `{repository: prefix, image: name, version}` form.
 * Spans point at each field (and inside `tag` at the tag and digest parts).
 */
import { isMap, type Pair, type YAMLMap } from 'yaml';
import type { Pin, Span } from '../../model/index.js';
import { hasExplicitDomain, isValidTag, parseReference, validateDigest, type ImageRef } from '../../reference/index.js';
import { messageOf } from '../common/pin.js';
import { pairsByKey, readField, textOf, type FieldRead } from './fields.js';
import { addPin, addProblem, isImageKey, joinPath, nodeStart, type Located, type YamlState } from './state.js';
import { isValuesFile } from './chart.js';

interface SplitPlan {
  registry: FieldRead;
  prefix: FieldRead;
  repository: FieldRead;
  repositoryKey: string;
  tag: FieldRead;
  digest: FieldRead;
  /** Some field is read from a `global` map elsewhere (hubPlan): the image's own key gives the pin its place. */
  fromGlobal?: true;
  /** The key `prefix` is read from, when not `repository` (Istio's `hub`). */
  prefixKey?: string;
}

/** How scan counts image maps whose every field is empty under "Left out". */
export const EMPTY_IMAGE_SLOT_LEFT_OUT = 'image maps with every field empty (repository, tag and digest null or ""): a slot the chart\'s user fills, no ref in the tree';

/** How scan counts image maps that hold only a name, joined by the chart's templates with a registry and tag from elsewhere. */
export const NAME_ONLY_IMAGE_LEFT_OUT = "Helm values image maps with a name and no tag or digest (`image: {name: operator}`): the chart's templates complete it with values written elsewhere (dapr's `.Values.global.tag`, linkerd's `linkerdVersion`), not read as a ref";

const present = (f: FieldRead): boolean => f.kind !== 'absent';
const scalarish = (f: FieldRead): boolean => f.kind === 'text' || f.kind === 'empty' || f.kind === 'unlocatable';
const valueOf = (f: FieldRead): string | undefined => (f.kind === 'text' ? f.at.value : f.kind === 'unlocatable' ? f.value : undefined);

/** Recognise and read a split map; true when the map was one (a pin or a problem was made). */
export function trySplitMap(state: YamlState, map: YAMLMap, path: readonly (string | number)[], pairs = pairsByKey(map)): boolean {
  const plan = planSplit(state, pairs, path);
  if (!plan) return false;
  for (const f of [plan.registry, plan.prefix, plan.repository, plan.tag, plan.digest]) {
    if (f.kind !== 'absent') state.consumed.add(f.pair);
  }
  readSplit(state, map, path, plan);
  return true;
}

function planSplit(state: YamlState, pairs: Map<string, Pair>, path: readonly (string | number)[]): SplitPlan | undefined {
  const registry = readField(state, pairs, 'registry');
  const repository = readField(state, pairs, 'repository');
  const image = readField(state, pairs, 'image');
  const name = readField(state, pairs, 'name');
  const tag = readField(state, pairs, 'tag');
  const digest = readField(state, pairs, 'digest');
  const absent: FieldRead = { kind: 'absent' };
  const underImageKey = isImageKey(path[path.length - 1]);
  const hubbed = scalarish(image) && !present(registry) && !present(repository) ? hubPlan(state, pairs, path, image, tag, digest) : undefined;
  if (hubbed) return hubbed;
  const qualifier = present(registry) || present(tag) || present(digest);
  if (scalarish(repository) && scalarish(image)) {
    // {repository: nvcr.io/nvidia, image: gpu-operator, version: v1}: repository is a prefix.
    const version = present(tag) ? tag : readField(state, pairs, 'version');
    return { registry, prefix: repository, repository: image, repositoryKey: 'image', tag: version, digest };
  }
  if (scalarish(repository) && (underImageKey || qualifier || plausibleName(valueOf(repository)))) {
    return { registry, prefix: absent, repository, repositoryKey: 'repository', tag, digest };
  }
  if (scalarish(image) && (present(registry) || ((present(tag) || present(digest)) && !isPlainWordTag(tag)))) {
    return { registry, prefix: absent, repository: image, repositoryKey: 'image', tag, digest };
  }
  const nameValue = valueOf(name);
  if (nameValue !== undefined && (present(registry) || ((present(tag) || present(digest)) && plausibleName(nameValue)))) {
    return { registry, prefix: absent, repository: name, repositoryKey: 'name', tag, digest };
  }
  if (underImageKey && (present(tag) || present(digest))) {
    return { registry, prefix: absent, repository: absent, repositoryKey: 'repository', tag, digest };
  }
  if (underImageKey && nameValue !== undefined && nameValue !== '' && [registry, repository, image].every((f) => !present(f)) && readField(state, pairs, 'version').kind !== 'text' && isValuesFile(state.ctx.file)) {
    // `image: {name: operator}`: the chart's template joins it with a registry and tag written elsewhere
    // (dapr: `{{ .Values.global.registry }}/{{ .Values.image.name }}:{{ .Values.global.tag }}`); counted, not read
    state.leftOut.push({ reason: NAME_ONLY_IMAGE_LEFT_OUT, where: `${state.ctx.file}:${state.lines.position(name.kind === 'text' ? name.at.start : 0).line} ${joinPath(path)}.name ${nameValue}` });
    return undefined;
  }
  return undefined;
}

/**
 * Istio's convention: an image map `{hub, image, tag}` the templates join as `{{ .Values.hub | default
 * .Values.global.hub }}/{{ .Values.image }}:{{ .Values.tag | default .Values.global.tag }}` (ztunnel,
 * pilot's `hub: ""`), and a bare `image: proxyv2` under a `global` that holds `hub` (`global.proxy.image`,
 * joined with `global.hub` and `global.tag`). An image with a `/` is whole as written (the templates use it
 * so). The global is the nearest `global` map with a `hub`: this map's, or one beside or above it.
 */
function hubPlan(state: YamlState, pairs: Map<string, Pair>, path: readonly (string | number)[], image: FieldRead, tag: FieldRead, digest: FieldRead): SplitPlan | undefined {
  const name = valueOf(image);
  if (name === undefined || name.includes('/')) return undefined;
  const hub = readField(state, pairs, 'hub');
  const global = hubGlobal(state, path);
  const absent: FieldRead = { kind: 'absent' };
  if (!present(hub)) {
    // only a bare name under such a global, with no tag or digest of its own
    if (!global || present(tag) || present(digest) || !path.includes('global')) return undefined;
    return { registry: absent, prefix: global.hub, repository: image, repositoryKey: 'image', tag: global.tag, digest: absent, fromGlobal: true };
  }
  // an empty hub with no global one to stand in: incomplete (readSplit says so)
  const ownHub = hub.kind === 'text' ? hub : (global?.hub ?? hub);
  const ownTag = tag.kind === 'text' || !global || global.tag.kind === 'absent' ? tag : global.tag;
  return { registry: absent, prefix: ownHub, prefixKey: 'hub', repository: image, repositoryKey: 'image', tag: ownTag, digest, ...(ownHub !== hub || ownTag !== tag ? { fromGlobal: true as const } : {}) };
}

/** The nearest `global` map with a `hub` text, from the map at `path` up to the document's root: its `hub` and `tag`. */
function hubGlobal(state: YamlState, path: readonly (string | number)[]): { hub: FieldRead; tag: FieldRead } | undefined {
  const chain: unknown[] = [state.root];
  for (const step of path) {
    const at = chain[chain.length - 1];
    if (!isMap(at)) break;
    chain.push(at.get(step, true));
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    const node = chain[i];
    const candidates = [i > 0 && path[i - 1] === 'global' ? node : undefined, isMap(node) ? node.get('global', true) : undefined];
    for (const g of candidates) {
      if (!isMap(g)) continue;
      const gp = pairsByKey(g);
      const hub = readField(state, gp, 'hub');
      if (hub.kind === 'text') return { hub, tag: readField(state, gp, 'tag') };
    }
  }
  return undefined;
}

/** A repository that names its registry (and is not a URL). */
function plausibleName(value: string | undefined): boolean {
  return value !== undefined && !value.includes('://') && hasExplicitDomain(value);
}

/** `{image: x, tag: {…}}` is not a split map; a scalar tag is. */
function isPlainWordTag(tag: FieldRead): boolean {
  return tag.kind === 'collection';
}

function readSplit(state: YamlState, map: YAMLMap, path: readonly (string | number)[], plan: SplitPlan): void {
  const keyPath = joinPath(path);
  const fields: [string, FieldRead][] = [['registry', plan.registry], ['repository', plan.repository], ['tag', plan.tag], ['digest', plan.digest]];
  for (const [field, read] of fields) {
    if (read.kind === 'unlocatable') {
      addProblem(state, read.pair.value, 'unlocatable-ref', `${keyPath}.${field}: the value ${JSON.stringify(read.value)} is written with escapes, so its position in the file is unknown; write it as plain text`);
      return;
    }
    if (read.kind === 'collection') {
      addProblem(state, read.pair.value, 'invalid-ref', `${keyPath}.${field} must be a string, not a map or list`);
      return;
    }
  }
  const repository = plan.repository.kind === 'text' ? plan.repository.at : undefined;
  if (plan.repository.kind === 'absent') {
    buildRepositorylessPin(state, map, keyPath, plan);
    return;
  }
  const named = !repository && plan.repositoryKey === 'repository' && plan.prefix.kind === 'absent' ? composedPlan(state, map, plan) : undefined;
  if (named) {
    buildSplitPin(state, map, path, keyPath, named.plan, named.name, true);
    return;
  }
  if (plan.fromGlobal && repository) {
    buildSplitPin(state, map, path, keyPath, plan, repository, true);
    return;
  }
  const pairs = pairsByKey(map);
  const unset = (f: FieldRead) => f.kind === 'absent' || f.kind === 'empty';
  if (!repository && [plan.registry, plan.prefix, plan.tag, plan.digest, readField(state, pairs, 'name'), readField(state, pairs, 'image')].every(unset)) {
    // `{repository: null, tag: null}`: a slot the chart's user fills (external-dns's provider.webhook.image), no ref at all
    state.leftOut.push({ reason: EMPTY_IMAGE_SLOT_LEFT_OUT, where: `${state.ctx.file}:${state.lines.position(nodeStart(map)).line} ${keyPath}` });
    return;
  }
  if (!repository || plan.prefix.kind === 'empty') {
    const tag = valueOf(plan.tag);
    addProblem(
      state,
      map,
      'incomplete-ref',
      `${keyPath} stores an image as separate keys but its ${plan.prefix.kind === 'empty' ? (plan.prefixKey ?? 'repository') : plan.repositoryKey} is empty${tag ? ` (tag ${JSON.stringify(tag)})` : ''}; the reference is incomplete and cannot be pulled as written`,
    );
    return;
  }
  buildSplitPin(state, map, path, keyPath, plan, repository);
}

/**
 * `{registry: ~, defaultRegistry: reg.kyverno.io, repository: kyverno/kyverno}`: the map's own
 * fallback for an empty or absent `registry` (kyverno's image helper: `default
 * .image.defaultRegistry .image.registry`), located where it is written.
 */
function siblingDefaultRegistry(state: YamlState, map: YAMLMap, plan: SplitPlan): Located | undefined {
  if (plan.registry.kind !== 'empty' && plan.registry.kind !== 'absent') return undefined;
  return registryAt(textOf(readField(state, pairsByKey(map), 'defaultRegistry')));
}

/** A registry written as a value elsewhere (one word), without its trailing slashes. */
function registryAt(at: Located | undefined): Located | undefined {
  return at && !/\s/.test(at.value) ? { ...at, value: at.value.replace(/\/+$/, '') } : undefined;
}

/**
 * `{name: cert-manager-controller, repository: ""}` under a document whose top-level
 * `imageRegistry` (and `imageNamespace`) the chart joins with the name when no
 * repository overrides it (cert-manager's image helper: quay.io/jetstack/cert-manager-controller):
 * the plan of that ref, the registry and namespace located where they are written.
 */
function composedPlan(state: YamlState, map: YAMLMap, plan: SplitPlan): { plan: SplitPlan; name: Located } | undefined {
  const nameRead = readField(state, pairsByKey(map), 'name');
  if (nameRead.kind !== 'text' || !isMap(state.root) || state.root === map) return undefined;
  const top = pairsByKey(state.root);
  const registry = readField(state, top, 'imageRegistry');
  if (registry.kind !== 'text') return undefined;
  const namespace = readField(state, top, 'imageNamespace');
  return { plan: { ...plan, registry, prefix: namespace.kind === 'text' ? namespace : { kind: 'absent' }, repository: nameRead, repositoryKey: 'name' }, name: nameRead.at };
}

/** `composed`: the registry and prefix are the document's top-level values (composedPlan): their spans come last, as a chart-wide registry's do. */
function buildSplitPin(state: YamlState, map: YAMLMap, path: readonly (string | number)[], keyPath: string, plan: SplitPlan, repository: Located, composed = false): void {
  const spans: Span[] = [];
  const parts: string[] = [];
  const outside: Span[] = [];
  const global = chartRegistry(state, plan, repository) ?? documentedRegistry(state, plan) ?? siblingDefaultRegistry(state, map, plan);
  for (const [read, field] of [[plan.registry, 'registry'], [plan.prefix, 'registry']] as const) {
    if (read.kind !== 'text') continue;
    if (global && read === plan.registry) continue; // the chart-wide registry wins, as in Helm's image helpers
    const value = read.at.value.replace(/\/+$/, '');
    parts.push(value);
    (composed ? outside : spans).push({ field, start: read.at.start, end: read.at.start + value.length });
  }
  if (global) parts.unshift(global.value);
  parts.push(repository.value);
  spans.push({ field: 'repository', start: repository.start, end: repository.end });
  let ref = parts.join('/');
  const tagAt = plan.tag.kind === 'text' ? plan.tag.at : undefined;
  let digestInTag: string | undefined;
  let tagText: string | undefined;
  const tagSpans: Span[] = [];
  if (tagAt) {
    const at = tagAt.value.indexOf('@');
    const tag = at === -1 ? tagAt.value : tagAt.value.slice(0, at);
    if (tag !== '') {
      tagText = tag;
      tagSpans.push({ field: 'tag', start: tagAt.start, end: tagAt.start + tag.length });
    }
    if (at !== -1) {
      digestInTag = tagAt.value.slice(at + 1);
      spans.push({ field: 'digest', start: tagAt.start + at + 1, end: tagAt.end });
    }
  }
  // raw is what the file stores; a chart's appVersion completes the ref, not the stored text
  const appVersion = tagText === undefined ? chartTag(state, plan, path) : undefined;
  let raw = ref;
  if (tagText !== undefined) raw += `:${tagText}`;
  ref = raw;
  if (appVersion) ref += `:${appVersion.tag}`;
  spans.push(...tagSpans);
  const digestAt = plan.digest.kind === 'text' ? plan.digest.at : undefined;
  if (digestAt && digestInTag !== undefined && digestAt.value !== digestInTag) {
    addProblem(state, digestAt.node, 'conflicting-digest', `${keyPath} has a digest inside tag (${digestInTag}) and a different digest key (${digestAt.value}); keep one`);
    return;
  }
  if (digestAt && digestInTag === undefined) spans.push({ field: 'digest', start: digestAt.start, end: digestAt.end });
  const digest = digestInTag ?? digestAt?.value;
  if (digest !== undefined) ref += `@${digest}`;
  const stored = raw;
  if (digest !== undefined) raw += `@${digest}`;
  if (global) spans.push({ field: 'registry', start: global.start, end: global.start + global.value.length });
  spans.push(...outside);
  const keepSpanOrder = global !== undefined || outside.length > 0;
  try {
    const parsed = parseReference(ref);
    const pin = addPin(state, { shape: 'yaml-split', spans, raw, ref: parsed, keyPath }, map, { keepSpanOrder });
    if (appVersion) pin.tagFrom = appVersion.from;
  } catch (e) {
    addProblem(state, repository.node, 'invalid-ref', `${keyPath}: ${messageOf(e)}`);
    return;
  }
  const shared = spans.filter((s) => s.field !== 'digest');
  siblingDigests(state, map, keyPath, { stored, name: ref.split('@')[0]!, spans: shared, keepSpanOrder }, appVersion?.from);
}

/**
 * The chart-wide registry (global.imageRegistry, global.image.registry), when it
 * applies to this map: always over a map's own `registry` key (Helm charts'
 * image helpers let the global win), and to a repository that names no registry.
 */
function chartRegistry(state: YamlState, plan: SplitPlan, repository: Located): Located | undefined {
  const global = state.globalRegistry;
  if (!global) return undefined;
  if (plan.registry.kind !== 'absent') return { ...global, value: global.value.replace(/\/+$/, '') };
  const first = plan.prefix.kind === 'text' ? plan.prefix.at.value : repository.value;
  if (hasExplicitDomain(first)) return undefined;
  return { ...global, value: global.value.replace(/\/+$/, '') };
}

/**
 * An empty `registry` whose comment names the value it defaults to, as helm-docs
 * writes it (`# @default -- defaultRegistry` above `registry: ""`, with the
 * template's `{{ .registry | default .Values.defaultRegistry }}`; linkerd's viz
 * chart): that value of the same document, when it is a string, is the registry
 * (located there, as a chart-wide registry is). Without such a comment an empty
 * registry is Docker Hub's, as a template's `{{ with .registry }}…/{{ end }}` makes it.
 */
function documentedRegistry(state: YamlState, plan: SplitPlan): Located | undefined {
  if (plan.registry.kind !== 'empty') return undefined;
  const said = /@default\s+--\s+(?:\.?Values\.)?([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\s*$/.exec(commentAround(state, nodeStart(plan.registry.pair.key)));
  if (!said) return undefined;
  let node: unknown = state.root;
  let at: Located | undefined;
  const steps = said[1]!.split('.');
  for (const [i, step] of steps.entries()) {
    if (!isMap(node)) return undefined;
    const pairs = pairsByKey(node);
    if (i === steps.length - 1) at = textOf(readField(state, pairs, step));
    else node = pairs.get(step)?.value;
  }
  return registryAt(at);
}

/**
 * A Helm chart's default tag: an image map whose `tag` is empty or null (or has
 * no tag key, under an `image` key) in a values file beside a Chart.yaml with an
 * `appVersion` is deployed with that appVersion as its tag. The comment at the
 * tag (its line and the comment lines above) can say otherwise: a prefix
 * (`{{ printf "v%s" .Chart.AppVersion }}`, `v + .Chart.appVersion`) is applied;
 * another default (`defaults to the Kubernetes version`) means the tag is not
 * known here, and the pin keeps no tag. A map under a dependency's key is marked
 * `subchart`: its tag stays only if the chart's own templates read it (scan/chart-templates.ts).
 */
function chartTag(state: YamlState, plan: SplitPlan, path: readonly (string | number)[]): { tag: string; from: NonNullable<Pin['tagFrom']> } | undefined {
  const chart = state.ctx.chart;
  if (!chart?.appVersion || chart.appVersionLine === undefined) return undefined;
  // under a dependency's key, the values are the subchart's (its own appVersion: gateway-addons' prometheus) unless the
  // chart's own templates read them (kyverno's crds.migration.image): scan/chart-templates.ts decides
  const subchart = chart.subcharts?.includes(String(path[0])) ? String(path[0]) : undefined;
  if (plan.digest.kind === 'text' && plan.tag.kind !== 'empty') return undefined; // a digest-only pin is complete without a tag
  const empty = plan.tag.kind === 'empty';
  const absentUnderImage = plan.tag.kind === 'absent' && isImageKey(path[path.length - 1]);
  if (!empty && !absentUnderImage) return undefined;
  let tag = chart.appVersion;
  if (plan.tag.kind === 'empty') {
    const said = commentAround(state, nodeStart(plan.tag.pair.key));
    const printf = /printf\s+"([^"%]*)%s([^"%]*)"\s+\.Chart\.AppVersion/i.exec(said);
    const plus = /\b([A-Za-z0-9_.-]+)\s*\+\s*\.?Charts?\.appVersion/i.exec(said);
    // an appVersion that already starts with the prefix keeps it once (comments go stale: `v%s` over appVersion v0.28.0)
    const withPrefix = (prefix: string) => (tag.startsWith(prefix) ? tag : `${prefix}${tag}`);
    if (printf) tag = `${withPrefix(printf[1]!)}${tag.endsWith(printf[2]!) ? '' : printf[2]}`;
    else if (plus) tag = withPrefix(plus[1]!);
    else if (/default/i.test(said) && !/appVersion/i.test(said)) return undefined;
  }
  if (!isValidTag(tag)) return undefined;
  return { tag, from: { file: chart.file, line: chart.appVersionLine, key: 'appVersion', ...(subchart !== undefined ? { subchart } : {}) } };
}

/** The comment on the line of `offset` and the comment lines right above it (at most three). */
function commentAround(state: YamlState, offset: number): string {
  const lineNo = state.lines.position(offset).line;
  const lineText = (n: number): string => {
    const start = state.lines.lineStart(n);
    const end = state.text.indexOf('\n', start);
    return state.text.slice(start, end === -1 ? state.text.length : end);
  };
  const own = lineText(lineNo);
  const hash = own.search(/\s#/);
  const parts = hash === -1 ? [] : [own.slice(hash + 2)];
  for (let n = lineNo - 1; n >= 1 && n >= lineNo - 3; n--) {
    const t = lineText(n).trim();
    if (!t.startsWith('#')) break;
    parts.unshift(t.slice(1));
  }
  return parts.join(' ');
}

/** `digestChroot`, `digestDistroless`: further digests of the same image map, each its own pin. */
const SIBLING_DIGEST = /^digest([A-Z][A-Za-z0-9]*)$/;

/**
 * Sibling digest keys (ingress-nginx's `digestChroot`) pin a variant of the same
 * image: the repository with the suffix appended (`controller` → `controller-chroot`),
 * the same tag, that digest. Each is a pin of its own, keyed `<map>.<key>`.
 */
function siblingDigests(
  state: YamlState,
  map: YAMLMap,
  keyPath: string,
  base: { stored: string; name: string; spans: Span[]; keepSpanOrder: boolean },
  tagFrom: Pin['tagFrom'],
): void {
  const pairs = pairsByKey(map);
  for (const [key, pair] of pairs) {
    const m = SIBLING_DIGEST.exec(key);
    if (!m) continue;
    state.consumed.add(pair);
    const read = readField(state, pairs, key);
    if (read.kind === 'absent' || read.kind === 'empty') continue; // `digestChroot: ""`: no variant pinned
    const siblingPath = `${keyPath}.${key}`;
    if (read.kind !== 'text') {
      addProblem(state, read.pair.value, 'invalid-ref', `${siblingPath} must be a plain string digest (sha256:<64 hex>)`);
      continue;
    }
    const suffix = m[1]!.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? c.toLowerCase() : `-${c.toLowerCase()}`));
    const colon = base.name.lastIndexOf(':');
    const slash = base.name.lastIndexOf('/');
    const name = colon > slash ? base.name.slice(0, colon) : base.name;
    const tag = colon > slash ? base.name.slice(colon) : '';
    const ref = `${name}-${suffix}${tag}@${read.at.value}`;
    // the stored fields are the map's own (registry, repository, tag) plus this digest; the variant's name is derived
    const spans = [...base.spans, { field: 'digest' as const, start: read.at.start, end: read.at.end }];
    try {
      const pin = addPin(state, { shape: 'yaml-split', spans, raw: `${base.stored}@${read.at.value}`, ref: parseReference(ref), keyPath: siblingPath }, map, { keepSpanOrder: base.keepSpanOrder });
      if (tagFrom) pin.tagFrom = tagFrom;
    } catch (e) {
      addProblem(state, read.at.node, 'invalid-ref', `${siblingPath}: ${messageOf(e)}`);
    }
  }
}

/**
 * `image: {tag: v1@sha256:…}` with no repository key: the chart supplies its
 * default repository. The tag and digest are real, so this is a pin whose
 * repository is unknown (`incomplete` says so), not a dropped value.
 */
function buildRepositorylessPin(state: YamlState, map: YAMLMap, keyPath: string, plan: SplitPlan): void {
  const spans: Span[] = [];
  let tag: string | undefined;
  let digest: string | undefined;
  if (plan.tag.kind === 'text') {
    const at = plan.tag.at.value.indexOf('@');
    tag = at === -1 ? plan.tag.at.value : plan.tag.at.value.slice(0, at);
    spans.push({ field: 'tag', start: plan.tag.at.start, end: plan.tag.at.start + tag.length });
    if (at !== -1) {
      digest = plan.tag.at.value.slice(at + 1);
      spans.push({ field: 'digest', start: plan.tag.at.start + at + 1, end: plan.tag.at.end });
    }
  }
  if (plan.digest.kind === 'text' && digest === undefined) {
    digest = plan.digest.at.value;
    spans.push({ field: 'digest', start: plan.digest.at.start, end: plan.digest.at.end });
  }
  const node = plan.tag.kind === 'text' ? plan.tag.at.node : map;
  if (tag !== undefined && !isValidTag(tag)) {
    addProblem(state, node, 'invalid-ref', `${keyPath}.tag: a tag must be 1-128 characters of [A-Za-z0-9_.-], not starting with . or -; saw ${JSON.stringify(tag)}`);
    return;
  }
  try {
    if (digest !== undefined) validateDigest(digest);
  } catch (e) {
    addProblem(state, node, 'invalid-ref', `${keyPath}: ${messageOf(e)}`);
    return;
  }
  if (tag === undefined && digest === undefined) {
    addProblem(state, map, 'incomplete-ref', `${keyPath} has neither repository nor a tag or digest`);
    return;
  }
  const ref: ImageRef = { domain: '', path: '', name: '' };
  if (tag !== undefined && tag !== '') ref.tag = tag;
  if (digest !== undefined) ref.digest = digest;
  const raw = `${ref.tag !== undefined ? `:${ref.tag}` : ''}${digest !== undefined ? `@${digest}` : ''}`;
  const pin = addPin(state, { shape: 'yaml-split', spans, raw, ref, keyPath }, map);
  pin.incomplete = `${keyPath} has no repository key; the chart's default repository is used, so only the tag and digest are known`;
}
