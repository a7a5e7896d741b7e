/**
 * What `pinwatch running` computes: per container the cluster (or an e2e lane's
 * report bundle) says it runs, which first-party image it is, which commit built
 * the running digest, and how that build stands against the pin and HEAD.
 * `--format json` is this shape (schemas/running-output.schema.json).
 */
import type { ProvenanceMethod } from '../provenance/types.js';

/** One container (or init container) of one pod, as the pod list says. */
export interface PodContainer {
  namespace: string;
  pod: string;
  container: string;
  /** An init container (spec.initContainers). */
  init: boolean;
  /** The spec image (`ghcr.io/acme/app:v1`). */
  image: string;
  /** status imageID as written (`repo@sha256:…`, `docker-pullable://repo@sha256:…`), when the runtime set one. */
  imageID?: string;
  /** Why the container has no running image yet (`ImagePullBackOff`, `ContainerCreating`, pod phase Pending). */
  waiting?: string;
  /** The controller the pod belongs to: a ReplicaSet's Deployment, a StatefulSet, a DaemonSet, a Job… */
  workload?: { kind: string; name: string };
  /** Where the pod was read: the file (repo-independent, as given) and its line when known. */
  source: { file: string; line?: number };
}

/** The pod list read from a file, a folder (an e2e report bundle), stdin or kubectl. */
export interface PodList {
  containers: PodContainer[];
  pods: number;
  /** Files read that held at least one Pod. */
  files: string[];
  /** Files read that held no Pod (listed, never dropped silently). */
  filesWithoutPods: string[];
}

export type RunningStatus = 'as-pinned' | 'older' | 'newer' | 'diverged' | 'unknown';

export interface LackedCommit {
  commit: string;
  subject: string;
  pr?: number;
  /** Conventional-commit type (`fix`), for --fail-on-running. */
  type?: string;
  date: string;
}

export interface RunningContainer extends PodContainer {
  /** Repository that runs (from imageID, else the spec image). */
  repository?: string;
  /** First-party repository it is (through `aliases`), when first-party. */
  canonical?: string;
  firstParty: boolean;
  /** Short image name of the first-party image. */
  imageName?: string;
  /** The digest that runs: the imageID's, or the index it belongs to when the runtime reported a platform manifest. */
  runningDigest?: string;
  /** Set when the runtime reported a platform-specific manifest matched to its index through the registry. */
  platform?: { manifest: string; index: string };
  status: RunningStatus;
  /** Why `unknown`; a note on other statuses. */
  reason?: string;
  builtFrom?: { commit: string; method: ProvenanceMethod; date?: string; subject?: string };
  pinned?: { digest: string; builtFrom?: { commit: string; method: ProvenanceMethod }; pins: { file: string; line: number }[] };
  lacks: LackedCommit[];
  lacksVsPin: LackedCommit[];
  /** Set when pods of the same workload run this container at different digests. */
  rollout?: string;
}

/** One workload whose pods run one container at several digests: a half-finished rollout. */
export interface Rollout {
  namespace: string;
  workload: { kind: string; name: string };
  container: string;
  digests: { digest: string; pods: string[] }[];
}

export interface RunningReport {
  head: string;
  shallow: boolean;
  containers: RunningContainer[];
  rollouts: Rollout[];
  pods: number;
  files: string[];
  filesWithoutPods: string[];
  warnings: string[];
  notes: string[];
  /** Git processes the history pass started (constant in the number of containers). */
  gitProcesses: number;
}
