// Generates a realistic monorepo of Helm values files for the scan benchmark:
// comments, single-string refs, split maps, digest-in-tag, argument strings.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const hex = (seed) => {
  let h = '';
  let x = seed * 2654435761 >>> 0;
  while (h.length < 64) {
    x = (x * 1103515245 + 12345) >>> 0;
    h += x.toString(16).padStart(8, '0');
  }
  return h.slice(0, 64);
};

function valuesFile(i) {
  const name = `svc-${i}`;
  return `# Default values for ${name}.
# This is a YAML-formatted file.
replicaCount: ${1 + (i % 3)}

${name}:
  # stamped by make image
  image: ghcr.io/acme/platform/${name}:v1.${i % 17}.0@sha256:${hex(i)}
  sidecarImage: "docker.io/library/nginx:1.27@sha256:${hex(i + 1e6)}"
  args:
    - --log-level=info
    - --migrate-image=ghcr.io/acme/platform/${name}-migrate:v1.${i % 17}.0@sha256:${hex(i + 2e6)}
  resources:
    limits: { cpu: 500m, memory: 256Mi }
    requests: { cpu: 100m, memory: 128Mi }

exporter:
  image:
    registry: quay.io
    repository: prometheus/node-exporter
    tag: v1.8.${i % 9}
    digest: sha256:${hex(i + 3e6)}
    pullPolicy: IfNotPresent

backup:
  image:
    repository: ghcr.io/acme/platform/backup
    tag: v0.${i % 5}.1@sha256:${hex(i + 4e6)}

service:
  type: ClusterIP
  port: 8080
ingress:
  enabled: false
  annotations: {}
  hosts:
    - host: ${name}.example.test
      paths: ["/"]
nodeSelector: {}
tolerations: []
affinity: {}
`;
}

/** Write `count` values files under dir/packages/<group>/<name>/values.yaml. */
export function generateTree(dir, count) {
  for (let i = 0; i < count; i++) {
    const pkg = join(dir, 'packages', `group-${i % 20}`, `svc-${i}`);
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'values.yaml'), valuesFile(i));
    writeFileSync(join(pkg, 'README.md'), `# svc-${i}\n`);
  }
}
