/**
 * `runningBuilds`: the repository-level entry of `running` — scan the tree, know
 * its first-party images, identify every container of a pod list, match a
 * platform-specific running digest to its pinned index through the registry
 * (when asked), then one stale history pass for every running and pinned digest
 * together, one commit-graph read for ancestry, and the pure judgement
 * (engine.ts). The CLI, `report --html` and `triage` call this.
 */
import type { Config } from '../config/types.js';
import { readCommitGraph } from '../git/graph.js';
import { resolveCommitAndPrefix } from '../git/objects.js';
import { gitStats } from '../git/run.js';
import { imagesFromPins, type ImageKnowledge } from '../images/images.js';
import type { Pin } from '../model/index.js';
import { methodsFor } from '../provenance/sources.js';
import type { RegistryAsk } from '../provenance/registry.js';
import { defaultRegistryProvenance } from '../provenance/registry.js';
import { formatReference, parseReference } from '../reference/index.js';
import { RegistryClient } from '../registry/client.js';
import { isIndexType } from '../registry/media-types.js';
import { scanRepo, type ScanResult } from '../scan/index.js';
import { computeStale } from '../stale/history.js';
import { pinSearch } from '../stale/judge.js';
import { startHistory } from '../stale/window.js';
import type { StaleImage } from '../stale/types.js';
import { findRollouts, historyKey, identify, judge, RUNNING_KEY } from './engine.js';
import type { PodList, RunningContainer, RunningReport } from './types.js';

export interface RunningOptions {
  /** Revision whose history is judged (default HEAD). */
  head?: string;
  /** Set to ask the registry (`--registry`): platform digests → index, revision labels of builds never pinned. */
  registry?: RegistryAsk;
  /** Reuse a scan the caller already made. */
  scan?: ScanResult;
  now?: Date;
}

/** The running view of `pods` against the tree at `repoRoot`. */
export async function runningBuilds(repoRoot: string, config: Config, pods: PodList, opts: RunningOptions = {}): Promise<RunningReport> {
  const startProcesses = gitStats.processes;
  // the history pass starts first: git reads while the scan and the recipe model run
  const started = startHistory(repoRoot, opts.head ?? 'HEAD');
  let known: Awaited<ReturnType<typeof imagesFromPins>>;
  let search: ReturnType<typeof pinSearch>;
  try {
    const scan = opts.scan ?? (await scanRepo(repoRoot, config, { recipeTree: true }));
    search = pinSearch(config, scan.pins);
    started.prefetch(scan.pins.map((p) => p.file), search.pinFiles.length > 0 ? search.pinLike : undefined);
    known = await imagesFromPins(repoRoot, config, scan.pins, undefined, scan.recipeTree ? { tree: scan.recipeTree } : {});
  } catch (e) {
    started.close();
    throw e;
  }
  const byRepo = new Map(known.images.map((k) => [k.repository, k]));
  const pinnedImages = new Map(known.images.map((k) => [k.repository, k.image]));
  const pinned = new Map(known.images.map((k) => [k.repository, [...new Set(k.pins.flatMap((p) => (p.ref.digest ? [p.ref.digest] : [])))].sort()]));
  const containers = pods.containers.map((c) => identify(c, { firstParty: config.firstParty, aliases: config.aliases, pinnedImages }));
  const notes: string[] = [...known.notes];
  if (config.firstParty.length === 0) notes.push('no first-party prefixes are configured (firstParty in pinwatch.yaml or --first-party), so every container is third-party');
  const judged = containers.filter((c) => c.firstParty && c.imageName && c.runningDigest && !c.reason);
  if (opts.registry) {
    try {
      await matchPlatformDigests(judged, pinned, opts.registry, notes);
    } catch (e) {
      started.close();
      throw e;
    }
  }

  // One history pass: every image a container runs, its real pins plus one synthetic pin per running digest not pinned.
  const wanted = new Map<string, Set<string>>();
  for (const c of judged) wanted.set(c.canonical!, (wanted.get(c.canonical!) ?? new Set()).add(c.runningDigest!));
  const inputs = [...wanted].map(([repository, digests]) => withRunningPins(byRepo.get(repository)!, digests));
  const registry = opts.registry ? askWhereItRuns(opts.registry, judged) : undefined;
  const stale = inputs.length
    ? await computeStale(repoRoot, inputs, {
        methods: methodsFor(config, registry),
        buildCommit: config.provenance.buildCommit,
        ...(registry ? { registry } : {}),
        ...(opts.head ? { head: opts.head } : {}),
        ...(opts.now ? { now: opts.now } : {}),
        history: started,
        ...search,
      })
    : undefined;
  if (!stale) started.close();
  const history = new Map<string, StaleImage>();
  for (const img of stale?.images ?? []) if (img.digest) history.set(historyKey(img.repository, img.digest), img);
  const builds = [...new Set([...history.values()].flatMap((i) => (i.builtFrom ? [i.builtFrom.commit] : [])))];
  const graph = builds.length > 1 ? await readCommitGraph(repoRoot, builds) : undefined;
  const isAncestor = (a: string, b: string) => a === b || (graph?.isAncestor(a, b) ?? false);
  const memo = new Map();
  const out = containers.map((c) => judge(c, { pinned, history, isAncestor, registryAsked: opts.registry !== undefined, memo }));
  const rollouts = findRollouts(out);
  out.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.pod.localeCompare(b.pod) || Number(b.init) - Number(a.init) || a.container.localeCompare(b.container));
  const head = stale?.head ?? (await headOf(repoRoot, opts.head));
  return {
    head,
    shallow: stale?.shallow ?? false,
    containers: out,
    rollouts,
    pods: pods.pods,
    files: pods.files,
    filesWithoutPods: pods.filesWithoutPods,
    warnings: stale?.warnings ?? [],
    notes,
    gitProcesses: gitStats.processes - startProcesses,
  };
}

async function headOf(repo: string, rev = 'HEAD'): Promise<string> {
  return (await resolveCommitAndPrefix(repo, rev)).commit ?? '';
}

/** The image with one synthetic pin per running digest it has no pin at: the digest rides the same history pass. */
function withRunningPins(k: ImageKnowledge, digests: Set<string>): ImageKnowledge {
  const pinnedDigests = new Set(k.pins.map((p) => p.ref.digest));
  const model = k.pins[0]!;
  const extra: Pin[] = [...digests]
    .filter((d) => !pinnedDigests.has(d))
    .sort()
    .map((digest) => ({ ...model, ref: { ...model.ref, digest, tag: undefined }, keyPath: `${RUNNING_KEY}${digest}`, aliases: undefined }));
  return { ...k, pins: [...k.pins, ...extra] };
}

/**
 * Registry questions about a running digest go to the repository it runs from
 * (the CI registry of an alias), not the canonical one that may never have had it.
 */
function askWhereItRuns(ask: RegistryAsk, containers: RunningContainer[]): RegistryAsk {
  const where = new Map<string, string>();
  for (const c of containers) if (c.repository && c.repository !== c.canonical) where.set(c.runningDigest!, c.repository);
  const fn = ask.fn ?? defaultRegistryProvenance;
  return {
    ...ask,
    fn: (ref, o) => {
      const parsed = parseReference(ref);
      const repo = parsed.digest ? where.get(parsed.digest) : undefined;
      return fn(repo ? formatReference({ name: repo, digest: parsed.digest }) : ref, o);
    },
  };
}

/**
 * A runtime may report the platform manifest it pulled, not the index the pin
 * names: for each running digest that is not pinned, read the image's pinned
 * indexes (one manifest GET per pinned digest, shared) and take the index that
 * lists it. What the registry could not answer is said in `notes`.
 */
async function matchPlatformDigests(containers: RunningContainer[], pinned: ReadonlyMap<string, string[]>, ask: RegistryAsk, notes: string[]): Promise<void> {
  const client = ask.opts?.client ?? new RegistryClient(ask.opts ?? {});
  const children = new Map<string, Promise<string[]>>();
  const childrenOf = (repository: string, index: string) => {
    const key = historyKey(repository, index);
    if (!children.has(key)) {
      const ref = parseReference(repository);
      children.set(
        key,
        client.getManifest({ domain: ref.domain, path: ref.path }, index).then(
          (m) => (isIndexType(m.mediaType) ? ((m.json.manifests as { digest?: string }[] | undefined) ?? []).flatMap((d) => (d.digest ? [d.digest] : [])) : []),
          (e: unknown) => {
            notes.push(`registry: could not read ${repository}@${index.slice(0, 19)}… to match platform digests: ${e instanceof Error ? e.message : String(e)}`);
            return [];
          },
        ),
      );
    }
    return children.get(key)!;
  };
  await Promise.all(
    containers.map(async (c) => {
      const digests = pinned.get(c.canonical!) ?? [];
      if (digests.includes(c.runningDigest!)) return;
      for (const index of digests) {
        if ((await childrenOf(c.canonical!, index)).includes(c.runningDigest!)) {
          c.platform = { manifest: c.runningDigest!, index };
          c.runningDigest = index;
          return;
        }
      }
    }),
  );
}
