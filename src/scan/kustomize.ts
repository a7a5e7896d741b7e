/**
 * Kustomize overlays across files: a kustomization's `images:` entries override
 * the container images of its `resources:` (files, and directories holding a
 * kustomization, followed through `bases:` and `components:` too). This module
 * reads the kustomization graph, lists the resource manifests that scan must
 * read although no include glob names them, computes the effective ref of every
 * container image per root overlay (a kustomization no other one includes), and
 * says which base pins are placeholders (`:latest`, `image: frontend`, `:dummy`:
 * no digest) whose tag every overlay including them replaces: those are not pins
 * of their own.
 */
import { existsSync, statSync } from '../util/tracked-fs.js';
import { join } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, type YAMLMap } from 'yaml';
import { parseYamlDocument } from '../collect/index.js';
import { isTemplateValue } from '../collect/yaml/kustomize.js';
import type { Pin } from '../model/index.js';
import { tryParseReference } from '../reference/index.js';
import { resolvesInside } from '../util/repo-path.js';
import { readRegularFile } from '../util/safe-read.js';

/** kustomize's own file names, in the order kustomize looks for them in a directory. */
export const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;

export function isKustomizationFile(file: string): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return (KUSTOMIZATION_NAMES as readonly string[]).includes(base);
}

/** One `images:` entry as kustomize applies it. */
interface ImageEntry {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
  tagSuffix?: string;
  /** `file:line` of the entry. */
  where: string;
}

interface Kustomization {
  file: string;
  dir: string;
  /** resources:, bases: and components: entries, in file order. */
  refs: EntryRef[];
  /** `kind: Component`: only ever applied inside another kustomization, never built alone. */
  component: boolean;
  images: ImageEntry[];
  /** Patch files (`patches[].path`, `patchesStrategicMerge`, `patchesJson6902[].path`): read for their pins, not applied to the overlay's images. */
  patches: { value: string; line: number }[];
}

/** A container image in a resource manifest, as one overlay deploys it. */
export interface KustomizeImage {
  /** The pin in the resource manifest (its written ref). */
  file: string;
  line: number;
  keyPath: string;
  written: string;
  /** The ref this overlay deploys; absent when a template decides it (see `templated`). */
  effective?: string;
  /** `file:line` of every images: entry that changed it, innermost first. */
  setBy: string[];
  /** Set when an entry applied to it is a template (`newTag: CONTAINER_IMAGES_TAG`): which one. */
  templated?: string;
}

/** A root overlay: a kustomization that no other scanned kustomization includes. */
export interface KustomizeOverlay {
  kustomization: string;
  images: KustomizeImage[];
}

/** A resources/bases/components entry that was not followed, and why. */
export interface KustomizeNotFollowed {
  file: string;
  line?: number;
  entry: string;
  reason: string;
}

export interface KustomizeGraph {
  kustomizations: Map<string, Kustomization>;
  /** Resource manifests (repo-relative) reached from a kustomization. */
  resourceFiles: Set<string>;
  notFollowed: KustomizeNotFollowed[];
}

const REMOTE = /^(?:[a-z][a-z0-9+.-]*:\/\/|git@|github\.com\/|gitlab\.com\/|bitbucket\.org\/)/i;

function dirOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash === -1 ? '' : file.slice(0, slash);
}

/** `a/b` + `../c` → `a/c`; undefined when it climbs above the repository root. */
function joinRel(dir: string, entry: string): string | undefined {
  const parts = dir === '' ? [] : dir.split('/');
  for (const step of entry.split('/')) {
    if (step === '' || step === '.') continue;
    if (step === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(step);
  }
  return parts.join('/');
}

function strings(map: YAMLMap, key: string): { value: string; offset: number }[] {
  const seq = map.get(key, true);
  if (!isSeq(seq)) return [];
  return seq.items.filter(isScalar).map((s) => ({ value: String(s.value), offset: s.range?.[0] ?? 0 }));
}

function field(map: YAMLMap, key: string): string | undefined {
  const v = map.get(key);
  return v === null || v === undefined || v === '' ? undefined : String(v);
}

/** Read every kustomization reachable from `seeds`, and the resource files they name. */
export function loadKustomizeGraph(root: string, rootReal: string, seeds: readonly string[]): KustomizeGraph {
  const graph: KustomizeGraph = { kustomizations: new Map(), resourceFiles: new Set(), notFollowed: [] };
  const queue = [...seeds];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (graph.kustomizations.has(file)) continue;
    const k = readKustomization(root, file);
    if (!k) continue;
    graph.kustomizations.set(file, k);
    for (const ref of k.refs) {
      const target = resolveEntry(root, rootReal, k.dir, ref.value);
      if ('reason' in target) {
        graph.notFollowed.push({ file, line: ref.line, entry: ref.value, reason: target.reason });
        continue;
      }
      if (target.kustomization) {
        queue.push(target.kustomization);
        ref.resolved.push(target.kustomization);
      } else {
        graph.resourceFiles.add(target.file!);
        ref.resolved.push(target.file!);
      }
    }
    // a patch file holds refs too (cluster-api's manager_image_patch.yaml sets the manager's image): read, not applied
    for (const patch of k.patches) {
      const target = resolveEntry(root, rootReal, k.dir, patch.value);
      if ('reason' in target) graph.notFollowed.push({ file, line: patch.line, entry: patch.value, reason: `patch ${target.reason}` });
      else if (target.file) graph.resourceFiles.add(target.file);
    }
  }
  return graph;
}

interface EntryRef {
  value: string;
  line: number;
  /** What it names once resolved: a kustomization file or a resource file (pushed by the loader). */
  resolved: string[];
  component: boolean;
}

function readKustomization(root: string, file: string): Kustomization | undefined {
  const read = readRegularFile(join(root, ...file.split('/')), { maxBytes: 4 * 1024 * 1024 });
  if (!('bytes' in read)) return undefined;
  const lines = new LineCounter();
  const doc = parseYamlDocument(read.bytes.toString('utf8'), { lineCounter: lines, uniqueKeys: false });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return undefined;
  const map = doc.contents;
  const line = (offset: number) => lines.linePos(offset).line;
  const refs: EntryRef[] = [];
  for (const key of ['resources', 'bases', 'components']) {
    for (const s of strings(map, key)) refs.push({ value: s.value, line: line(s.offset), resolved: [], component: key === 'components' });
  }
  const images: ImageEntry[] = [];
  const seq = map.get('images', true);
  if (isSeq(seq)) {
    for (const item of seq.items) {
      if (!isMap(item)) continue;
      const name = field(item, 'name');
      if (!name) continue;
      // the line of the pin the collector makes of this entry: its newName, else its name
      const at = (item.get('newName', true) ?? item.get('name', true)) as { range?: [number, number, number] } | undefined;
      const entry: ImageEntry = { name, where: `${file}:${line(at?.range?.[0] ?? item.range?.[0] ?? 0)}` };
      for (const key of ['newName', 'newTag', 'digest', 'tagSuffix'] as const) {
        const v = field(item, key);
        if (v !== undefined) entry[key] = v;
      }
      images.push(entry);
    }
  }
  const patches: { value: string; line: number }[] = [];
  for (const key of ['patches', 'patchesJson6902']) {
    const list = map.get(key, true);
    if (!isSeq(list)) continue;
    for (const item of list.items) {
      const p = isMap(item) ? item.get('path', true) : undefined;
      if (isScalar(p) && typeof p.value === 'string') patches.push({ value: p.value, line: line(p.range?.[0] ?? 0) });
    }
  }
  for (const s of strings(map, 'patchesStrategicMerge')) if (!s.value.includes('\n')) patches.push({ value: s.value, line: line(s.offset) });
  return { file, dir: dirOf(file), refs, images, patches, component: field(map, 'kind') === 'Component' };
}

function resolveEntry(root: string, rootReal: string, dir: string, entry: string): { kustomization?: string; file?: string } | { reason: string } {
  if (REMOTE.test(entry)) return { reason: 'a remote resource (not fetched); its images are not known' };
  const rel = joinRel(dir, entry);
  if (rel === undefined) return { reason: 'leads above the repository root' };
  const abs = join(root, ...rel.split('/'));
  if (!existsSync(abs)) return { reason: 'does not exist' };
  if (!resolvesInside(rootReal, abs)) return { reason: 'leads out of the repository (a symlink)' };
  let isDir = false;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    return { reason: 'cannot be read' };
  }
  if (!isDir) return { file: rel };
  for (const name of KUSTOMIZATION_NAMES) {
    if (existsSync(join(abs, name))) return { kustomization: rel === '' ? name : `${rel}/${name}` };
  }
  return { reason: 'a directory without a kustomization.yaml' };
}

/** The image fields kustomize's images transformer rewrites: containers' `image`. */
const CONTAINER_IMAGE = /(?:^|\.)(?:containers|initContainers|ephemeralContainers)\[\d+\]\.image$/;

interface Item {
  pin: Pin;
  name: string;
  tag?: string;
  digest?: string;
  setBy: string[];
  /** Whether an entry set its tag or digest. */
  set: boolean;
  templated?: string;
}

function splitWritten(raw: string): { name: string; tag?: string; digest?: string } {
  const at = raw.indexOf('@');
  const digest = at === -1 ? undefined : raw.slice(at + 1);
  const rest = at === -1 ? raw : raw.slice(0, at);
  const colon = rest.lastIndexOf(':');
  const slash = rest.lastIndexOf('/');
  const out: { name: string; tag?: string; digest?: string } = { name: colon > slash ? rest.slice(0, colon) : rest };
  if (colon > slash) out.tag = rest.slice(colon + 1);
  if (digest !== undefined) out.digest = digest;
  return out;
}

function sameImage(a: string, b: string): boolean {
  if (a === b) return true;
  const ra = tryParseReference(a);
  const rb = tryParseReference(b);
  return ra !== undefined && rb !== undefined && ra.name === rb.name;
}

function apply(items: Item[], entries: readonly ImageEntry[]): void {
  for (const entry of entries) {
    for (const item of items) {
      if (!sameImage(item.name, entry.name)) continue;
      item.setBy.push(entry.where);
      const template = (['newName', 'newTag', 'digest', 'tagSuffix'] as const).find((k) => entry[k] !== undefined && isTemplateValue(entry[k]!));
      if (template) {
        item.templated ??= `${template}: ${entry[template]} at ${entry.where}`;
        if (template !== 'newName') item.set = true;
      }
      if (entry.newName !== undefined) item.name = entry.newName;
      if (entry.digest !== undefined) {
        item.digest = entry.digest;
        delete item.tag; // kustomize writes name@digest: the digest replaces the tag
        item.set = true;
      } else if (entry.newTag !== undefined) {
        item.tag = entry.newTag;
        item.set = true;
      }
      if (entry.tagSuffix !== undefined && item.tag !== undefined) item.tag += entry.tagSuffix;
    }
  }
}

/** The images one kustomization deploys, its own images: applied last (after resources, then components). */
function build(graph: KustomizeGraph, file: string, pinsByFile: Map<string, Pin[]>, seen: Set<string>): Item[] {
  const k = graph.kustomizations.get(file);
  if (!k || seen.has(file)) return [];
  seen.add(file);
  const refs = k.refs;
  const items: Item[] = [];
  for (const ref of refs.filter((r) => !r.component)) {
    for (const target of ref.resolved) items.push(...(graph.kustomizations.has(target) ? build(graph, target, pinsByFile, seen) : resourceItems(target, pinsByFile)));
  }
  for (const ref of refs.filter((r) => r.component)) {
    for (const target of ref.resolved) {
      const component = graph.kustomizations.get(target);
      if (!component) continue;
      // a component adds its own resources, then transforms everything accumulated so far
      for (const inner of component.refs.filter((r) => !r.component)) {
        for (const t of inner.resolved) items.push(...(graph.kustomizations.has(t) ? build(graph, t, pinsByFile, seen) : resourceItems(t, pinsByFile)));
      }
      apply(items, component.images);
    }
  }
  apply(items, k.images);
  seen.delete(file);
  return items;
}

function resourceItems(file: string, pinsByFile: Map<string, Pin[]>): Item[] {
  return (pinsByFile.get(file) ?? [])
    .filter((p) => p.shape === 'yaml-string' && p.keyPath !== undefined && CONTAINER_IMAGE.test(p.keyPath))
    .map((pin) => ({ pin, ...splitWritten(pin.raw), setBy: [], set: false }));
}

export interface OverlayResult {
  overlays: KustomizeOverlay[];
  /** Base pins that are placeholders every overlay including them sets: not pins of their own. */
  placeholders: Pin[];
}

/** Effective refs per root overlay, and the placeholder pins to leave out. */
export function resolveOverlays(graph: KustomizeGraph, pins: readonly Pin[]): OverlayResult {
  const pinsByFile = new Map<string, Pin[]>();
  for (const p of pins) {
    const list = pinsByFile.get(p.file) ?? [];
    list.push(p);
    pinsByFile.set(p.file, list);
  }
  const included = new Set<string>();
  for (const k of graph.kustomizations.values()) for (const r of k.refs) for (const t of r.resolved) included.add(t);
  const roots = [...graph.kustomizations.values()].filter((k) => !included.has(k.file) && !k.component).map((k) => k.file).sort();
  const overlays: KustomizeOverlay[] = [];
  /** Per base pin: whether every root deploying it sets it. */
  const setEverywhere = new Map<Pin, boolean>();
  for (const root of roots) {
    const items = build(graph, root, pinsByFile, new Set());
    if (items.length === 0) continue;
    overlays.push({
      kustomization: root,
      images: items.map((item) => {
        setEverywhere.set(item.pin, (setEverywhere.get(item.pin) ?? true) && item.set);
        const image: KustomizeImage = { file: item.pin.file, line: item.pin.line, keyPath: item.pin.keyPath ?? '', written: item.pin.raw, setBy: item.setBy };
        if (item.templated) image.templated = item.templated;
        else image.effective = `${item.name}${item.tag !== undefined ? `:${item.tag}` : ''}${item.digest !== undefined ? `@${item.digest}` : ''}`;
        return image;
      }),
    });
  }
  // a base tag every root replaces is never deployed (`:latest`, untagged, kubeflow's `:dummy`); a digest is kept as written
  const placeholders = [...setEverywhere].filter(([pin, set]) => set && pin.ref.digest === undefined).map(([pin]) => pin);
  return { overlays, placeholders };
}
