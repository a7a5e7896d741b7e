/**
 * `pinwatch scan --format json`: the stable, documented output shape
 * (schemas/scan-output.schema.json). Every key is always present; absent values are null.
 */
import type { Pin, Problem } from '../model/index.js';
import { formatReference } from '../reference/index.js';
import type { ExclusionCount, KustomizeOverlay, ScanResult, SkippedFile } from '../scan/index.js';

export interface ScanJsonOverlay {
  kustomization: string;
  images: { file: string; line: number; keyPath: string; written: string; effective: string | null; setBy: string[]; templated: string | null }[];
}

const overlayJson = (o: KustomizeOverlay): ScanJsonOverlay => ({
  kustomization: o.kustomization,
  images: o.images.map((i) => ({ file: i.file, line: i.line, keyPath: i.keyPath, written: i.written, effective: i.effective ?? null, setBy: [...i.setBy], templated: i.templated ?? null })),
});

export const SCAN_JSON_VERSION = 1;

export interface ScanJsonPin {
  file: string;
  line: number;
  column: number;
  keyPath: string | null;
  shape: string;
  /** Full normalised reference: `docker.io/library/nginx:1.25@sha256:…`; null when the pin is incomplete. */
  ref: string | null;
  registry: string | null;
  /** Repository including its registry host; null when the pin is incomplete. */
  repository: string | null;
  tag: string | null;
  digest: string | null;
  form: string;
  firstParty: boolean;
  scraped: boolean;
  /** Why the stored fields do not name a repository (the chart supplies it), or null. */
  incomplete: string | null;
  /** Key paths of YAML aliases that reuse this pin's value. */
  aliases: string[];
  /** Where the tag comes from when it is not stored at the pin (a Helm chart's appVersion), or null. */
  tagFrom: { file: string; line: number; key: string; template?: { file: string; line: number } } | null;
  /** A source ref (form `source`): what the release builds the image from (`ko`: the import path; `skaffold`: the artifact), or null. */
  source: { builder: string; name: string } | null;
}

export interface ScanJson {
  version: typeof SCAN_JSON_VERSION;
  summary: { filesScanned: number; pins: number; firstParty: number; thirdParty: number; skipped: number; problems: number };
  pins: ScanJsonPin[];
  skipped: { file: string; code: string; reason: string; line: number | null; scraped: boolean }[];
  problems: { file: string; line: number | null; column: number | null; code: string; reason: string }[];
  excluded: ExclusionCount[];
  /** Per root kustomize overlay, the ref each container image of its resources deploys. */
  kustomize: ScanJsonOverlay[];
  config: {
    file: string | null;
    firstParty: string[];
    include: string[];
    exclude: string[];
    extraFiles: string[];
    skipVendoredCharts: boolean;
    assumed: string[];
  };
}

function pinJson(p: Pin): ScanJsonPin {
  return {
    file: p.file,
    line: p.line,
    column: p.column,
    keyPath: p.keyPath ?? null,
    shape: p.shape,
    ref: p.incomplete ? null : formatReference(p.ref),
    registry: p.incomplete ? null : p.ref.domain,
    repository: p.incomplete ? null : p.ref.name,
    tag: p.ref.tag ?? null,
    digest: p.ref.digest ?? null,
    form: p.form,
    firstParty: p.firstParty,
    scraped: p.scraped === true,
    incomplete: p.incomplete ?? null,
    aliases: [...(p.aliases ?? [])],
    tagFrom: p.tagFrom ? { ...p.tagFrom } : null,
    source: p.source ? { ...p.source } : null,
  };
}

const skippedJson = (s: SkippedFile) => ({ file: s.file, code: s.code, reason: s.reason, line: s.line ?? null, scraped: s.scraped === true });
/** Scan's problems always name a file (only repin reports one about no file). */
const problemJson = (p: Problem) => ({ file: p.file ?? '', line: p.line ?? null, column: p.column ?? null, code: p.code, reason: p.reason });

export function scanToJson(result: ScanResult): ScanJson {
  const c = result.config;
  const first = result.pins.filter((p) => p.firstParty).length;
  return {
    version: SCAN_JSON_VERSION,
    summary: {
      filesScanned: result.filesScanned,
      pins: result.pins.length,
      firstParty: first,
      thirdParty: result.pins.length - first,
      skipped: result.skipped.length,
      problems: result.problems.length,
    },
    pins: result.pins.map(pinJson),
    skipped: result.skipped.map(skippedJson),
    problems: result.problems.map(problemJson),
    excluded: result.excluded.map((e) => ({ reason: e.reason, count: e.count, examples: [...e.examples] })),
    kustomize: result.kustomize.map(overlayJson),
    config: {
      file: c.origin.file ?? null,
      firstParty: [...c.firstParty],
      include: [...c.include],
      exclude: [...c.exclude],
      extraFiles: [...c.extraFiles],
      skipVendoredCharts: c.skipVendoredCharts,
      assumed: [...c.origin.assumed],
    },
  };
}

export function formatScanJson(result: ScanResult): string {
  return `${JSON.stringify(scanToJson(result), null, 2)}\n`;
}
