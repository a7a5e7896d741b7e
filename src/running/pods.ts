/**
 * The pod-list reader: `kubectl get pods -o json|yaml` (a List), a single Pod,
 * or a multi-document YAML stream, as text → every container and init container
 * with its namespace, pod, spec image, status imageID (the digest that actually
 * runs) and the workload that owns the pod. Pure: the files are read by
 * pods-read.ts. A container with no imageID yet is kept with the reason.
 */
import { LineCounter, parseAllDocuments } from 'yaml';
import { PinwatchError } from '../errors.js';
import type { PodContainer } from './types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** One parsed document with the line each top-level item starts at (YAML only). */
interface Doc {
  value: unknown;
  line?: number;
  itemLines?: number[];
}

/** The containers of every Pod in `text` (a List, a Pod, or several YAML documents); `pods` counts the Pods. */
export function parsePodsText(text: string, file: string): { containers: PodContainer[]; pods: number } {
  const containers: PodContainer[] = [];
  let pods = 0;
  for (const doc of parseDocs(text, file)) {
    if (doc.value === null || doc.value === undefined) continue;
    if (!isObj(doc.value)) throw new PinwatchError('pods-invalid', `expected a Pod or a List of Pods (an object with kind); saw ${Array.isArray(doc.value) ? 'a list' : typeof doc.value}`, where(file, doc.line));
    const kind = str(doc.value.kind);
    if (kind === 'Pod') {
      containers.push(...podContainers(doc.value, file, doc.line));
      pods++;
    } else if (Array.isArray(doc.value.items)) {
      doc.value.items.forEach((item, i) => {
        if (!isObj(item) || (item.kind !== undefined && item.kind !== 'Pod')) return; // `kubectl get all`: other kinds are not pods
        if (item.kind === undefined && !isObj(item.spec)) return;
        containers.push(...podContainers(item, file, doc.itemLines?.[i]));
        pods++;
      });
    }
  }
  return { containers, pods };
}

function where(file: string, line: number | undefined): { file: string; line?: number } {
  return line ? { file, line } : { file };
}

function parseDocs(text: string, file: string): Doc[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return [{ value: JSON.parse(text) as unknown }];
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      throw new PinwatchError('pods-invalid', `not valid JSON: ${msg.split('\n')[0]!.slice(0, 160)}`, where(file, jsonErrorLine(text, msg)));
    }
  }
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, prettyErrors: false });
  if (!Array.isArray(docs)) return [];
  const out: Doc[] = [];
  for (const d of docs) {
    const err = d.errors[0];
    if (err) throw new PinwatchError('pods-invalid', `not valid YAML: ${err.message.split('\n')[0]!.slice(0, 160)}`, where(file, lineCounter.linePos(err.pos[0]).line));
    const contents = d.contents as { range?: [number, number, number]; get?: (k: string, keep?: boolean) => unknown } | null;
    const line = contents?.range ? lineCounter.linePos(contents.range[0]).line : undefined;
    const items = contents?.get?.('items', true) as { items?: { range?: [number, number, number] }[] } | undefined;
    const itemLines = items?.items?.map((n) => (n.range ? lineCounter.linePos(n.range[0]).line : line ?? 0));
    out.push({ value: d.toJS({ maxAliasCount: 100 }) as unknown, ...(line ? { line } : {}), ...(itemLines ? { itemLines } : {}) });
  }
  return out;
}

/** The line of a JSON.parse error: `(line 3 column 5)` (newer Node) or `at position 42`. */
function jsonErrorLine(text: string, message: string): number | undefined {
  const byLine = /line (\d+)/.exec(message);
  if (byLine) return Number(byLine[1]);
  const pos = /position (\d+)/.exec(message);
  if (!pos) return undefined;
  const at = Math.min(Number(pos[1]), text.length);
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The workload that owns a pod: its controller ownerReference; a ReplicaSet
 * stands for its Deployment (the name less the `pod-template-hash` suffix).
 */
export function workloadOf(meta: Obj): { kind: string; name: string } | undefined {
  const refs = Array.isArray(meta.ownerReferences) ? meta.ownerReferences.filter(isObj) : [];
  const owner = refs.find((r) => r.controller === true) ?? refs[0];
  const kind = owner ? str(owner.kind) : undefined;
  const name = owner ? str(owner.name) : undefined;
  if (!kind || !name) return undefined;
  if (kind !== 'ReplicaSet') return { kind, name };
  const labels = isObj(meta.labels) ? meta.labels : {};
  const hash = str(labels['pod-template-hash']);
  if (hash && name.endsWith(`-${hash}`)) return { kind: 'Deployment', name: name.slice(0, -hash.length - 1) };
  const m = /^(.+)-[a-z0-9]{5,10}$/.exec(name);
  return m ? { kind: 'Deployment', name: m[1]! } : { kind, name };
}

function podContainers(pod: Obj, file: string, line: number | undefined): PodContainer[] {
  const meta = isObj(pod.metadata) ? pod.metadata : undefined;
  const name = meta ? str(meta.name) : undefined;
  if (!meta || !name) throw new PinwatchError('pods-invalid', 'a Pod without metadata.name; expected kubectl get pods -o json|yaml output', where(file, line));
  const spec = isObj(pod.spec) ? pod.spec : undefined;
  if (!spec || !Array.isArray(spec.containers)) throw new PinwatchError('pods-invalid', `Pod ${JSON.stringify(name)} has no spec.containers list`, where(file, line));
  const namespace = str(meta.namespace) ?? 'default';
  const status = isObj(pod.status) ? pod.status : {};
  const phase = str(status.phase);
  const workload = workloadOf(meta);
  const out: PodContainer[] = [];
  const add = (specs: unknown, statuses: unknown, init: boolean) => {
    const byName = new Map<string, Obj>();
    if (Array.isArray(statuses)) for (const s of statuses) if (isObj(s) && str(s.name)) byName.set(str(s.name)!, s);
    if (specs !== undefined && !Array.isArray(specs)) throw new PinwatchError('pods-invalid', `Pod ${JSON.stringify(name)}: spec.${init ? 'initContainers' : 'containers'} is not a list`, where(file, line));
    for (const c of (specs as unknown[] | undefined) ?? []) {
      if (!isObj(c) || !str(c.name)) throw new PinwatchError('pods-invalid', `Pod ${JSON.stringify(name)}: a container without a name`, where(file, line));
      const st = byName.get(str(c.name)!);
      const imageID = st ? str(st.imageID) : undefined;
      const state = st && isObj(st.state) ? st.state : {};
      const waiting = isObj(state.waiting) ? str(state.waiting.reason) : undefined;
      const why = imageID ? undefined : (waiting ?? (st ? 'the runtime reported no imageID yet' : `no container status yet${phase ? ` (pod phase ${phase})` : ''}`));
      out.push({
        namespace,
        pod: name,
        container: str(c.name)!,
        init,
        image: str(c.image) ?? (st ? (str(st.image) ?? '') : ''),
        ...(imageID ? { imageID } : {}),
        ...(why ? { waiting: why } : {}),
        ...(workload ? { workload } : {}),
        source: where(file, line),
      });
    }
  };
  add(spec.initContainers, status.initContainerStatuses, true);
  add(spec.containers, status.containerStatuses, false);
  return out;
}

/**
 * The repository and digest an imageID names: `repo@sha256:…` (containerd,
 * CRI-O), `docker-pullable://repo@sha256:…` (docker); a bare `sha256:…` or
 * `docker://sha256:…` is a local image (config) id, not a repository digest.
 */
export function parseImageID(imageID: string): { repository: string; digest: string } | { problem: string } {
  const id = imageID.replace(/^docker-pullable:\/\//, '');
  if (/^(docker:\/\/)?sha256:[0-9a-f]{64}$/.test(id)) {
    return { problem: `imageID ${JSON.stringify(imageID.slice(0, 30))}… is a local image id (the config digest), not a repository digest, so it cannot be matched to a pin` };
  }
  const m = /^([^@\s]+)@(sha256:[0-9a-f]{64})$/.exec(id);
  if (!m) return { problem: `imageID ${JSON.stringify(imageID.slice(0, 120))} is not repo@sha256:… (containerd) or docker-pullable://repo@sha256:… (docker)` };
  return { repository: m[1]!, digest: m[2]! };
}
