/**
 * A Helm chart's templates on its default tag: a pin whose tag is the chart's
 * `appVersion` (collect/yaml split.ts `chartTag`: `tag: ""` or null beside a
 * Chart.yaml) is deployed with the tag the chart's templates make of it. An
 * action (`{{ … }}`) that names the pin's `.Values.<keyPath>.tag` and formats
 * the appVersion — `default (printf "v%s" .Chart.AppVersion) .Values.image.tag`
 * (external-dns's image helper), `.Values.image.tag | default .Chart.AppVersion`
 * — says the prefix and suffix; every such action of the chart must agree, else
 * (or with none) the values file's comment stands (what chartTag read). A pin
 * under a dependency's key keeps the appVersion only when such an action reads it
 * (kyverno's `crds.migration.image`); otherwise it is the subchart's (gateway-addons'
 * `prometheus.server.image`) and its tag is dropped; so is the tag of a pin whose
 * `.tag` the templates read only in files that never name `.Chart.AppVersion`
 * (capsule-proxy's kubectl job: the cluster's Kubernetes version). Only the
 * charts of such pins are read (cozystack: one of 218), through the tracked
 * fs, so a kept scan notices a template edit.
 */
import { join } from 'node:path';
import { readChartInfo } from '../collect/index.js';
import { formOf, type Pin } from '../model/index.js';
import { isValidTag } from '../reference/index.js';
import { readdirSync } from '../util/tracked-fs.js';
import { readRegularFile } from '../util/safe-read.js';

/** What a chart's templates do with one key path's tag: the appVersion with this prefix and suffix, said at file:line. */
interface TemplateTag {
  prefix: string;
  suffix: string;
  file: string;
  line: number;
}

const ACTION = /\{\{-?([\s\S]*?)-?\}\}/g;
const VALUES_TAG = /\$?\.Values\.([A-Za-z0-9_.]+)\.tag\b/g;
const APP_VERSION = /\$?\.Chart\.AppVersion\b/;
const PRINTF = /printf\s+"([^"%]*)%s([^"%]*)"\s+\$?\.Chart\.AppVersion\b/;
/** Template files a chart renders into manifests or includes (not NOTES.txt, which only prints). */
const TEMPLATE_FILE = /\.(tpl|ya?ml)$/;

/** Give each appVersion-tagged pin the tag its chart's templates format (in place). */
export function applyChartTemplateTags(root: string, pins: Pin[]): void {
  const byChart = new Map<string, Pin[]>();
  for (const pin of pins) {
    if (pin.tagFrom?.key !== 'appVersion' || pin.keyPath === undefined) continue;
    const list = byChart.get(pin.tagFrom.file) ?? [];
    list.push(pin);
    byChart.set(pin.tagFrom.file, list);
  }
  for (const [chartFile, chartPins] of byChart) {
    const dir = chartFile.includes('/') ? chartFile.slice(0, chartFile.lastIndexOf('/')) : '';
    const appVersion = readText(root, chartFile);
    const version = appVersion === undefined ? undefined : readChartInfo(chartFile, appVersion).appVersion;
    const said = version === undefined ? { tags: new Map<string, TemplateTag>(), otherDefault: new Set<string>() } : templateTags(root, dir ? `${dir}/templates` : 'templates');
    for (const pin of chartPins) {
      const tag = said.tags.get(pin.keyPath!);
      if (!tag && said.otherDefault.has(pin.keyPath!)) {
        dropChartTag(pin);
        continue;
      }
      if (pin.tagFrom?.subchart !== undefined) {
        // a subchart's values: the chart's appVersion only where its own templates read this tag
        if (!tag) dropChartTag(pin);
        else delete pin.tagFrom.subchart;
      }
      if (!tag || version === undefined) continue;
      const value = `${version.startsWith(tag.prefix) ? '' : tag.prefix}${version}${version.endsWith(tag.suffix) ? '' : tag.suffix}`;
      if (!isValidTag(value)) continue;
      pin.ref = { ...pin.ref, tag: value };
      pin.tagFrom = { ...pin.tagFrom!, template: { file: tag.file, line: tag.line } };
    }
  }
}

/** A pin whose tag is not the chart's appVersion after all (a subchart's values, or a template's other default): no tag known here. */
function dropChartTag(pin: Pin): void {
  const { tag: _tag, ...ref } = pin.ref;
  pin.ref = ref;
  pin.form = formOf(ref);
  delete pin.tagFrom;
}

/**
 * Per key path, the one format the chart's templates give its tag (none when two actions disagree);
 * `otherDefault`: the key paths whose tag the templates read only in files that never name
 * `.Chart.AppVersion` (capsule-proxy's kubectl job defaults to the cluster's Kubernetes version).
 */
function templateTags(root: string, templatesDir: string): { tags: Map<string, TemplateTag>; otherDefault: Set<string> } {
  const found = new Map<string, TemplateTag | null>();
  const withAppVersion = new Set<string>();
  const without = new Set<string>();
  for (const file of templateFiles(root, templatesDir)) {
    const text = readText(root, file);
    if (text === undefined) continue;
    const mentions = APP_VERSION.test(text);
    for (const v of text.matchAll(VALUES_TAG)) (mentions ? withAppVersion : without).add(v[1]!);
    if (!mentions) continue;
    for (const m of text.matchAll(ACTION)) {
      const action = m[1]!;
      if (!APP_VERSION.test(action)) continue;
      const printf = PRINTF.exec(action);
      const format = { prefix: printf?.[1] ?? '', suffix: printf?.[2] ?? '' };
      const line = text.slice(0, m.index).split('\n').length;
      for (const v of action.matchAll(VALUES_TAG)) {
        const keyPath = v[1]!;
        const before = found.get(keyPath);
        if (before === undefined) found.set(keyPath, { ...format, file, line });
        else if (before !== null && (before.prefix !== format.prefix || before.suffix !== format.suffix)) found.set(keyPath, null);
      }
    }
  }
  const tags = new Map<string, TemplateTag>();
  for (const [k, v] of found) if (v) tags.set(k, v);
  return { tags, otherDefault: new Set([...without].filter((k) => !withAppVersion.has(k))) };
}

/** The template files under `dir` (repo-relative), sorted, subdirectories included. */
function templateFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...templateFiles(root, rel));
    else if (e.isFile() && TEMPLATE_FILE.test(e.name)) out.push(rel);
  }
  return out;
}

function readText(root: string, rel: string): string | undefined {
  const read = readRegularFile(join(root, rel), { maxBytes: 1024 * 1024 });
  return 'bytes' in read ? read.bytes.toString('utf8') : undefined;
}
