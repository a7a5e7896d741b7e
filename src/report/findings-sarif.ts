/**
 * SARIF 2.1.0 findings: rule metadata in `tool.driver.rules` (id, descriptions,
 * helpUri, defaultConfiguration), one result per finding with a physical location
 * (uriBaseId %SRCROOT%, region startLine/startColumn), relatedLocations,
 * partialFingerprints, and `suppressions` for suppressed findings.
 */
import { pathToFileURL } from 'node:url';
import type { Finding, RelatedLocation } from '../model/index.js';
import type { RuleMeta } from '../rules/index.js';
import { DEFAULT_TOOL, helpUri, ruleCatalog, rulePagePath, type FindingsReportOptions } from './findings-common.js';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
export const FINGERPRINT_KEY = 'pinwatch/v1';
const SRCROOT = '%SRCROOT%';

type Json = Record<string, unknown>;

function uriOf(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}

function physical(loc: { file: string; line?: number; column?: number }): Json {
  const p: Json = { artifactLocation: { uri: uriOf(loc.file), uriBaseId: SRCROOT } };
  if (loc.line && loc.line > 0) p.region = { startLine: loc.line, ...(loc.column && loc.column > 0 ? { startColumn: loc.column } : {}) };
  return p;
}

function ruleDescriptor(meta: RuleMeta, options: FindingsReportOptions): Json {
  const off = meta.defaultLevel === 'off';
  const level = off ? (meta.enabledLevel ?? 'note') : meta.defaultLevel;
  return {
    id: meta.id,
    shortDescription: { text: meta.title },
    fullDescription: { text: meta.description },
    help: { text: `${meta.hint} (rule page: ${rulePagePath(meta.id)})` },
    ...(helpUri(meta.id, options) ? { helpUri: helpUri(meta.id, options) } : {}),
    defaultConfiguration: off ? { enabled: false, level } : { level },
  };
}

function fallbackMeta(id: string): RuleMeta {
  return { id, defaultLevel: 'warning', title: id, description: id, hint: `See the ${id} rule page.` };
}

/** Rules for the driver: the whole catalog, plus any rule a finding names that it lacks. */
function driverRules(findings: readonly Finding[], options: FindingsReportOptions): RuleMeta[] {
  const catalog = ruleCatalog(options);
  for (const f of findings) if (!catalog.has(f.rule)) catalog.set(f.rule, fallbackMeta(f.rule));
  return [...catalog.values()];
}

function related(rs: readonly RelatedLocation[]): Json[] {
  return rs.map((r, i) => ({ id: i + 1, physicalLocation: physical(r), ...(r.message ? { message: { text: r.message } } : {}) }));
}

function suppression(f: Finding): Json[] {
  if (!f.suppressed) return [];
  const kind = f.suppressed.kind === 'inline' ? 'inSource' : 'external';
  return [{ kind, status: 'accepted', ...(f.suppressed.reason ? { justification: f.suppressed.reason } : {}) }];
}

function result(f: Finding, index: Map<string, number>): Json {
  const r: Json = {
    ruleId: f.rule,
    ruleIndex: index.get(f.rule),
    level: f.severity,
    message: { text: f.hint ? `${f.message}. Fix: ${f.hint}` : f.message },
  };
  if (f.file) r.locations = [{ physicalLocation: physical({ file: f.file, line: f.line, column: f.column }) }];
  if (f.related?.length) r.relatedLocations = related(f.related);
  if (f.fingerprint) r.partialFingerprints = { [FINGERPRINT_KEY]: f.fingerprint };
  if (f.suppressed) r.suppressions = suppression(f);
  const props: Json = {};
  if (f.pin?.keyPath) props.keyPath = f.pin.keyPath;
  if (f.pin) props.ref = f.pin.raw;
  if (f.evidence !== undefined) props.evidence = f.evidence;
  if (Object.keys(props).length) r.properties = props;
  return r;
}

export function findingsSarif(findings: readonly Finding[], options: FindingsReportOptions = {}): Json {
  const tool = options.tool ?? DEFAULT_TOOL;
  const rules = driverRules(findings, options);
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const run: Json = {
    tool: { driver: { name: tool.name, ...(tool.version ? { version: tool.version } : {}), ...(tool.informationUri ? { informationUri: tool.informationUri } : {}), rules: rules.map((m) => ruleDescriptor(m, options)) } },
    ...(options.root ? { originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(options.root.endsWith('/') ? options.root : `${options.root}/`).href } } } : {}),
    results: findings.map((f) => result(f, index)),
    columnKind: 'utf16CodeUnits',
  };
  return { $schema: SARIF_SCHEMA_URI, version: '2.1.0', runs: [run] };
}

export function formatFindingsSarif(findings: readonly Finding[], options: FindingsReportOptions = {}): string {
  return `${JSON.stringify(findingsSarif(findings, options), null, 2)}\n`;
}
