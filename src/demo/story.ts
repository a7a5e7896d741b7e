/**
 * The demo monorepo's history: a small platform repo that reproduces the seeds'
 * situations with real commits and fixed dates. Each step is a commit.
 *
 * - billing-controller: pinned by tag+digest at "Prepare release v1.0.0"; a fix
 *   (#42) merged three days later touches its Go sources → stale, fix unshipped.
 * - backup-strategy-controller: a driver (feat, #43) merged after the release →
 *   stale, but only a feature (the default policy fails on unshipped fixes).
 * - gateway: split-map pin, nothing changed since the release → current.
 * - a bare-tag pin under a suffixed key (`redisBackupClientImage`) and a `:latest`
 *   pin (`migrationController.image`), neither stamped by any recipe.
 * - objectstorage-sidecar: pinned at two digests (values.yaml vs a hand-bumped
 *   images/*.tag), and its Makefile is not called from the root `build:` target.
 * - multus: a Helm-templated manifest no YAML parser accepts, declared in
 *   extraFiles and stamped with `sed -i`.
 * - dashboard: a chart pinned by tag only (`v20260702-<sha>`, the Kubernetes
 *   staging scheme), stamped by its recipe; the tag embeds the commit it was
 *   built from (tag-commit provenance), and a fix (#46) merged after it → stale.
 *   Its tag names a commit of the story: `{{commit8:<message>}}` is filled in by
 *   build.ts with that commit's first 8 hex digits.
 * - a failing e2e lane (DEMO_FAILING_LANE_LOG, for `triage`): the backup
 *   controller refuses "Redis" (the driver #43 it lacks), billing gives up on a
 *   ledger with a message #42 removed, and the current gateway logs as usual.
 */
import { demoDigest } from './digest.js';

export interface DemoCommit {
  date: string;
  message: string;
  /** Contents may hold `{{commit8:<message of an earlier step>}}`, replaced by that commit's short sha. */
  files: Record<string, string>;
  tag?: string;
}

const REG = 'ghcr.io/acme/platform';
const d = (label: string) => demoDigest(label);

export const DEMO_IMAGES = {
  billingV09: `${REG}/billing-controller:v0.9.0@${d('billing-controller v0.9.0')}`,
  billingV10: `${REG}/billing-controller:v1.0.0@${d('billing-controller v1.0.0')}`,
  gatewayV10: d('gateway v1.0.0'),
  gatewayV09: d('gateway v0.9.0'),
  backupV09: `${REG}/backup-strategy-controller:v0.9.0@${d('backup-strategy-controller v0.9.0')}`,
  backupV10: `${REG}/backup-strategy-controller:v1.0.0@${d('backup-strategy-controller v1.0.0')}`,
  sidecarA: `${REG}/objectstorage-sidecar:v1.0.0@${d('objectstorage-sidecar build A')}`,
  sidecarB: `${REG}/objectstorage-sidecar:v1.0.0@${d('objectstorage-sidecar build B')}`,
  multus: `${REG}/multus-cni:v4.1.0@${d('multus v4.1.0')}`,
  redis: `docker.io/library/redis:7.2.5@${d('redis 7.2.5')}`,
  dashboard: `${REG}/dashboard`,
};

/** The commit the dashboard image is built from, and the tag its recipe stamps (the date, then the commit). */
export const DASHBOARD_BUILD_MESSAGE = 'feat(dashboard): add the platform dashboard chart (#45)';
export const DASHBOARD_TAG = `v20260702-{{commit8:${DASHBOARD_BUILD_MESSAGE}}}`;

const rootMakefileWithDashboard = `# Root build: every package whose images ship must be listed here.
REGISTRY ?= ${REG}

build:
	make -C packages/system/billing image
	make -C packages/system/gateway image
	make -C packages/system/backup-strategy image
	make -C packages/system/multus image
	make -C packages/apps/dashboard image
`;

const dashboardMakefile = `include ../../../hack/common-envs.mk

# Tags the image with the build date and the commit it is built from
# (vYYYYMMDD-<sha>), and stamps that tag into the chart: no digest.
image:
	docker buildx build images/dashboard --tag $(REGISTRY)/dashboard:$(TAG)
	TAG=$(TAG) yq -i '.dashboard.image.tag = strenv(TAG)' values.yaml
`;

const dashboardDockerfile = `FROM docker.io/library/nginx:1.27-alpine
COPY index.html /usr/share/nginx/html/index.html
`;

const dashboardPage = (escaped: boolean) => `<!doctype html>
<title>platform dashboard</title>
<ul id="claims"></ul>
<script>
  for (const c of window.claims ?? []) claims.insertAdjacentHTML('beforeend', \`<li>\${${escaped ? 'escapeHtml(c.name)' : 'c.name'}}</li>\`);
</script>
`;

function dashboardValues(tag: string): string {
  return `# dashboard: the platform status page. packages/apps/dashboard/Makefile stamps image.tag.
dashboard:
  image:
    registry: ghcr.io
    repository: acme/platform/dashboard
    tag: ${tag}
  service:
    port: 80
`;
}

const goMod = 'module github.com/acme/platform\n\ngo 1.22\n';

const rootMakefile = `# Root build: every package whose images ship must be listed here.
REGISTRY ?= ${REG}

build:
\tmake -C packages/system/billing image
\tmake -C packages/system/gateway image
\tmake -C packages/system/backup-strategy image
\tmake -C packages/system/multus image
`;

const commonEnvs = `REGISTRY ?= ${REG}
TAG ?= dev
`;

function goImageMakefile(name: string, valuesKey: string): string {
  return `NAME=${name}
include ../../../hack/common-envs.mk

image:
\tdocker buildx build -f images/${name}/Dockerfile ../../.. \\
\t\t--tag $(REGISTRY)/${name}:$(TAG) \\
\t\t--metadata-file images/${name}.json
\tIMAGE="$(REGISTRY)/${name}:$(TAG)@$$(yq e '."containerimage.digest"' images/${name}.json -r)" \\
\t\tyq -i '${valuesKey} = strenv(IMAGE)' values.yaml
\trm -f images/${name}.json
`;
}

function goDockerfile(cmd: string): string {
  return `FROM golang:1.22 AS builder
WORKDIR /src
COPY go.mod go.sum ./
COPY cmd cmd
COPY internal internal
RUN CGO_ENABLED=0 go build -o /out/${cmd} ./cmd/${cmd}

FROM gcr.io/distroless/static:nonroot
COPY --from=builder /out/${cmd} /${cmd}
ENTRYPOINT ["/${cmd}"]
`;
}

const billingReconcileV1 = `package billing

// Reconcile brings a BillingClaim to Ready once its ledger exists.
func Reconcile(claim string) (ready bool) {
\treturn ledgerExists(claim)
}

func ledgerExists(claim string) bool { return claim != "" }
`;

const billingReconcileFixed = `package billing

import "time"

// Reconcile brings a BillingClaim to Ready once its ledger exists, and requeues
// until it does: the ledger may turn ready after the last reconcile (#42).
func Reconcile(claim string) (ready bool, requeueAfter time.Duration) {
\tif !ledgerExists(claim) {
\t\treturn false, 5 * time.Second
\t}
\treturn true, 0
}

func ledgerExists(claim string) bool { return claim != "" }
`;

function billingValues(ref: string): string {
  return `# billing-controller: reconciles BillingClaims.
# DO NOT hand-edit billingController.image: packages/system/billing/Makefile stamps it.
billingController:
  image: "${ref}"
  replicas: 2
  resources:
    limits:
      memory: 256Mi
`;
}

function gatewayValues(tag: string, digest: string): string {
  return `gateway:
  image:
    registry: ghcr.io
    repository: acme/platform/gateway
    tag: ${tag}
    digest: "${digest}"
  service:
    type: ClusterIP
    port: 8080
cache:
  image: "${DEMO_IMAGES.redis}"
`;
}

function backupValues(ref: string, clients: boolean): string {
  const extra = clients
    ? `  # The restore jobs run this client; pinned by tag only (no digest).
  redisBackupClientImage: "${REG}/redis-backup:v1.0.0"
migrationController:
  image: "${REG}/migration-controller:latest"
`
    : '';
  return `# DO NOT hand-edit backupStrategyController.image: packages/system/backup-strategy/Makefile stamps it.
backupStrategyController:
  image: "${ref}"
${extra}`;
}

const multusMakefile = `include ../../../hack/common-envs.mk

image:
\tdocker buildx build images/multus --tag $(REGISTRY)/multus-cni:$(TAG) --metadata-file images/multus.json
\tIMAGE="$(REGISTRY)/multus-cni:$(TAG)@$$(yq e '."containerimage.digest"' images/multus.json -r)" && \\
\t\tsed -i "s|image: $(REGISTRY)/multus-cni:.*|image: $$IMAGE|" templates/multus-daemonset-thick.yml
`;

const multusDockerfile = `FROM ghcr.io/k8snetworkplumbingwg/multus-cni:v4.1.0-thick
COPY entrypoint.sh /entrypoint.sh
`;

function storageValues(ref: string): string {
  return `storage:
  sidecar:
    image: "${ref}"
  buckets:
    - name: default
      size: 10Gi
`;
}

const storageMakefile = `include ../../../hack/common-envs.mk

# Stamps the sidecar ref, but the root build: target never calls this package.
image:
\tdocker buildx build images/objectstorage --target sidecar \\
\t\t--tag $(REGISTRY)/objectstorage-sidecar:$(TAG) --metadata-file images/sidecar.json
\tIMAGE="$(REGISTRY)/objectstorage-sidecar:$(TAG)@$$(yq e '."containerimage.digest"' images/sidecar.json -r)" \\
\t\tyq -i '.storage.sidecar.image = strenv(IMAGE)' values.yaml
\tyq .storage.sidecar.image values.yaml > images/objectstorage-sidecar.tag
`;

const sidecarDockerfile = `FROM golang:1.22 AS sidecar-build
WORKDIR /src
COPY . .
RUN go build -o /sidecar ./

FROM gcr.io/distroless/static:nonroot AS sidecar
COPY --from=sidecar-build /sidecar /sidecar
`;

const multusManifest = (ref: string) => `# Vendored from upstream multus-cni; the image lines are templated by Helm.
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: kube-multus-ds
spec:
  template:
    spec:
      initContainers:
        - name: install-multus-binary
          {{- if .Values.multus.image }}
          image: {{ .Values.multus.image }}
          {{- else }}
          image: ${ref}
          {{- end }}
      containers:
        - name: kube-multus
          image: ${ref}
          {{- with .Values.multus.resources }}
          resources: {{ toYaml . | nindent 12 }}
          {{- end }}
        - name: kube-multus-gc
          image: ${ref}
`;

const pinwatchYaml = `# pinwatch configuration for the demo platform repo.
firstParty:
  - ghcr.io/acme/platform/
include:
  - "packages/*/*/values.yaml"
  - "packages/*/*/images/*.tag"
extraFiles:
  - packages/system/multus/templates/multus-daemonset-thick.yml
`;

const bs = (name: string) => `package main

import "github.com/acme/platform/internal/${name}"

func main() { ${name}.Run() }
`;

const backupDispatch = `package backup

import (
\t"fmt"
\t"strings"
)

// Dispatch refuses a strategy kind it has no driver for.
func Dispatch(kind string) error {
\tfor _, k := range Kinds {
\t\tif k == kind {
\t\t\treturn nil
\t\t}
\t}
\treturn fmt.Errorf("strategy Kind %q is not supported by this controller (supported: %s)", kind, strings.Join(Kinds, ", "))
}
`;

const billingLedger = (outcome: string) => `package billing

import "fmt"

// ledgerError is what Reconcile reports while the ledger is missing.
func ledgerError(claim string) error {
\treturn fmt.Errorf("ledger for BillingClaim %s is not ready yet; ${outcome}", claim)
}
`;

const gatewayListen = `package gateway

import "log"

// Listen logs where the gateway serves.
func Listen(tenant string, port int) {
\tlog.Printf("gateway is serving tenant %s on port %d", tenant, port)
}
`;

/** The log of a red e2e lane on the demo repo's HEAD, for `pinwatch triage` (the demo writes it beside the repo's files, untracked). */
export const DEMO_FAILING_LANE_LOG = `2026-06-30T10:01:02.000000Z --- FAIL: chainsaw/backup-redis-roundtrip (61.20s)
2026-06-30T10:01:02.000100Z     backup_test.go:88: strategy Kind "Redis" is not supported by this controller (supported: Job, Postgres)
{"level":"error","ts":"2026-06-30T10:02:00Z","logger":"billing","msg":"Reconciler error","error":"ledger for BillingClaim acme-claim is not ready yet; giving up"}
I0630 10:03:00.000000       1 listen.go:7] gateway is serving tenant acme on port 8080
2026-06-30T10:04:00.000000Z chainsaw: waiting for the Ready condition
`;

/** Where the demo puts the failing lane's log, relative to the demo repo (excluded from git in .git/info/exclude). */
export const DEMO_LOG_FILE = 'e2e-failing-lane.log';

export function demoStory(): DemoCommit[] {
  return [
    {
      date: '2026-06-01T09:00:00Z',
      message: 'feat: platform skeleton: billing, gateway, backups, storage and multus packages',
      files: {
        'pinwatch.yaml': pinwatchYaml,
        'go.mod': goMod,
        'go.sum': '',
        Makefile: rootMakefile,
        'hack/common-envs.mk': commonEnvs,
        'cmd/billing-controller/main.go': 'package main\n\nimport "github.com/acme/platform/internal/billing"\n\nfunc main() { billing.Reconcile("demo") }\n',
        'internal/billing/reconcile.go': billingReconcileV1,
        'internal/billing/ledger.go': billingLedger('giving up'),
        'internal/backup/dispatch.go': backupDispatch,
        'internal/gateway/listen.go': gatewayListen,
        'cmd/gateway/main.go': bs('gateway'),
        'internal/gateway/serve.go': 'package gateway\n\n// Run answers requests.\nfunc Run() {}\n',
        'cmd/backup-strategy-controller/main.go': bs('backup'),
        'internal/backup/drivers.go': 'package backup\n\n// Kinds lists the supported strategy kinds.\nvar Kinds = []string{"Job", "Postgres"}\n\n// Run dispatches backups.\nfunc Run() {}\n',
        'packages/system/billing/Makefile': goImageMakefile('billing-controller', '.billingController.image'),
        'packages/system/billing/images/billing-controller/Dockerfile': goDockerfile('billing-controller'),
        'packages/system/gateway/Makefile': goImageMakefile('gateway', '.gateway.image.digest'),
        'packages/system/gateway/images/gateway/Dockerfile': goDockerfile('gateway'),
        'packages/system/backup-strategy/Makefile': goImageMakefile('backup-strategy-controller', '.backupStrategyController.image'),
        'packages/system/backup-strategy/images/backup-strategy-controller/Dockerfile': goDockerfile('backup-strategy-controller'),
        'packages/system/multus/Makefile': multusMakefile,
        'packages/system/multus/images/multus/Dockerfile': multusDockerfile,
        'packages/system/multus/images/multus/entrypoint.sh': '#!/bin/sh\nexec /usr/src/multus-cni/bin/multus-daemon "$@"\n',
        'packages/extra/storage/Makefile': storageMakefile,
        'packages/extra/storage/images/objectstorage/Dockerfile': sidecarDockerfile,
        'packages/extra/storage/images/objectstorage/main.go': 'package main\n\nfunc main() {}\n',
      },
    },
    {
      date: '2026-06-02T12:00:00Z',
      message: 'Prepare release v0.9.0',
      tag: 'v0.9.0',
      files: {
        'packages/system/billing/values.yaml': billingValues(DEMO_IMAGES.billingV09),
        'packages/system/gateway/values.yaml': gatewayValues('v0.9.0', DEMO_IMAGES.gatewayV09),
        'packages/system/backup-strategy/values.yaml': backupValues(DEMO_IMAGES.backupV09, false),
        'packages/extra/storage/values.yaml': storageValues(DEMO_IMAGES.sidecarA),
        'packages/extra/storage/images/objectstorage-sidecar.tag': `${DEMO_IMAGES.sidecarA}\n`,
        'packages/system/multus/templates/multus-daemonset-thick.yml': multusManifest(DEMO_IMAGES.multus),
      },
    },
    {
      date: '2026-06-18T10:00:00Z',
      message: 'feat(billing-controller): report ledger lag as a metric (#37)',
      files: { 'internal/billing/metrics.go': 'package billing\n\n// LedgerLag is exported as a metric.\nvar LedgerLag float64\n' },
    },
    {
      date: '2026-06-19T10:00:00Z',
      message: 'feat(backups): run restores with the redis backup client and the migration controller (#39)',
      files: { 'packages/system/backup-strategy/values.yaml': backupValues(DEMO_IMAGES.backupV09, true) },
    },
    {
      date: '2026-06-20T16:00:00Z',
      message: 'chore(storage): point the sidecar tag file at the rebuilt sidecar',
      files: { 'packages/extra/storage/images/objectstorage-sidecar.tag': `${DEMO_IMAGES.sidecarB}\n` },
    },
    {
      date: '2026-06-22T12:00:00Z',
      message: 'Prepare release v1.0.0',
      tag: 'v1.0.0',
      files: {
        'packages/system/billing/values.yaml': billingValues(DEMO_IMAGES.billingV10),
        'packages/system/gateway/values.yaml': gatewayValues('v1.0.0', DEMO_IMAGES.gatewayV10),
        'packages/system/backup-strategy/values.yaml': backupValues(DEMO_IMAGES.backupV10, true),
      },
    },
    {
      date: '2026-06-25T15:30:00Z',
      message: 'fix(billing-controller): requeue BillingClaim until the ledger is ready (#42)',
      files: { 'internal/billing/reconcile.go': billingReconcileFixed, 'internal/billing/ledger.go': billingLedger('requeuing') },
    },
    {
      date: '2026-06-27T11:00:00Z',
      message: 'feat(backups): add Redis backup strategy driver (#43)',
      files: {
        'internal/backup/drivers.go': 'package backup\n\n// Kinds lists the supported strategy kinds.\nvar Kinds = []string{"Job", "Postgres", "Redis"}\n\n// Run dispatches backups.\nfunc Run() {}\n',
      },
    },
    {
      date: '2026-06-29T08:00:00Z',
      message: 'docs: explain the release flow (#44)',
      files: { 'docs/release.md': '# Releases\n\nRelease-prep rebuilds every image and stamps its digest.\n' },
    },
    {
      date: '2026-07-01T10:00:00Z',
      message: DASHBOARD_BUILD_MESSAGE,
      files: {
        Makefile: rootMakefileWithDashboard,
        'packages/apps/dashboard/Makefile': dashboardMakefile,
        'packages/apps/dashboard/images/dashboard/Dockerfile': dashboardDockerfile,
        'packages/apps/dashboard/images/dashboard/index.html': dashboardPage(false),
      },
    },
    {
      date: '2026-07-02T09:00:00Z',
      message: 'Release dashboard',
      files: { 'packages/apps/dashboard/values.yaml': dashboardValues(DASHBOARD_TAG) },
    },
    {
      date: '2026-07-03T14:00:00Z',
      message: 'fix(dashboard): escape claim names on the status page (#46)',
      files: { 'packages/apps/dashboard/images/dashboard/index.html': dashboardPage(true) },
    },
  ];
}
