/** Pod lists for the running tests: the shape `kubectl get pods -o json` prints, built from a few fields. */

export interface PodSpec {
  name: string;
  namespace?: string;
  containers: { name: string; image: string; imageID?: string; waiting?: string }[];
  initContainers?: { name: string; image: string; imageID?: string }[];
  /** ReplicaSet owner `<deployment>-<hash>` with the pod-template-hash label. */
  deployment?: { name: string; hash: string };
  phase?: string;
}

export function pod(p: PodSpec): Record<string, unknown> {
  const status = (c: { name: string; image: string; imageID?: string; waiting?: string }) => ({
    name: c.name,
    image: c.image,
    imageID: c.imageID ?? '',
    ready: c.imageID !== undefined,
    state: c.waiting ? { waiting: { reason: c.waiting } } : c.imageID ? { running: { startedAt: '2026-02-01T00:00:00Z' } } : { waiting: { reason: 'ContainerCreating' } },
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name,
      namespace: p.namespace ?? 'default',
      ...(p.deployment
        ? {
            labels: { app: p.deployment.name, 'pod-template-hash': p.deployment.hash },
            ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${p.deployment.name}-${p.deployment.hash}`, controller: true, uid: 'x' }],
          }
        : {}),
    },
    spec: {
      containers: p.containers.map((c) => ({ name: c.name, image: c.image })),
      ...(p.initContainers ? { initContainers: p.initContainers.map((c) => ({ name: c.name, image: c.image })) } : {}),
    },
    status: {
      phase: p.phase ?? 'Running',
      containerStatuses: p.containers.map(status),
      ...(p.initContainers ? { initContainerStatuses: p.initContainers.map(status) } : {}),
    },
  };
}

export function podList(pods: PodSpec[]): string {
  return `${JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items: pods.map(pod) }, null, 2)}\n`;
}
