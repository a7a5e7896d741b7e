/**
 * The demo's running cluster: a `kubectl get pods -o json` snapshot where the
 * billing-controller Deployment still runs the v0.9.0 build (older than its
 * v1.0.0 pin, so it lacks the ledger-lag metric the pin has and the #42 fix
 * merged since), the gateway runs its pin, and its redis cache is third-party.
 * Written beside the history as cluster/pods.json (kept out of git status).
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseReference } from '../reference/index.js';
import { DEMO_IMAGES } from './story.js';

export const DEMO_PODS_FILE = 'cluster/pods.json';

function pod(name: string, deployment: string, hash: string, containers: { name: string; image: string; digest: string }[]): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'acme-system',
      labels: { app: deployment, 'pod-template-hash': hash },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${deployment}-${hash}`, controller: true, uid: `uid-${deployment}` }],
    },
    spec: { containers: containers.map((c) => ({ name: c.name, image: c.image })) },
    status: {
      phase: 'Running',
      containerStatuses: containers.map((c) => ({ name: c.name, image: c.image, imageID: `${parseReference(c.image).name}@${c.digest}`, ready: true, state: { running: { startedAt: '2026-02-20T09:00:00Z' } } })),
    },
  };
}

/** The snapshot as JSON text. */
export function demoPods(): string {
  const billing09 = parseReference(DEMO_IMAGES.billingV09);
  const redis = parseReference(DEMO_IMAGES.redis);
  const items = [
    pod('billing-controller-6b7f9c5d4-q2x7z', 'billing-controller', '6b7f9c5d4', [{ name: 'manager', image: `${billing09.name}:${billing09.tag}`, digest: billing09.digest! }]),
    pod('gateway-5d8c7b9f6-h4k2m', 'gateway', '5d8c7b9f6', [
      { name: 'gateway', image: 'ghcr.io/acme/platform/gateway:v1.0.0', digest: DEMO_IMAGES.gatewayV10 },
      { name: 'cache', image: `${redis.name}:${redis.tag}`, digest: redis.digest! },
    ]),
  ];
  return `${JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items }, null, 2)}\n`;
}

/** Write the snapshot into the demo repo at `dir` (git ignores it there); returns its path. */
export function writeDemoPods(dir: string): string {
  const file = join(dir, DEMO_PODS_FILE);
  mkdirSync(join(dir, 'cluster'), { recursive: true });
  writeFileSync(file, demoPods());
  appendFileSync(join(dir, '.git', 'info', 'exclude'), '/cluster/\n');
  return file;
}
