/**
 * Helm chart facts a values file depends on: the `appVersion` of the Chart.yaml
 * beside it (the default image tag of charts whose `tag:` is empty), and which
 * file names are values files. Pure: scan reads the Chart.yaml, this reads text.
 */

/** `values.yaml`, `values-prod.yaml`, `values.prod.yml`: the files Helm merges into `.Values`. */
const VALUES_FILE = /(^|\/)values([.-][^/]*)?\.ya?ml$/;

export function isValuesFile(file: string): boolean {
  return VALUES_FILE.test(file);
}

/** The chart beside a values file, as the collector sees it. */
export interface ChartInfo {
  /** Repo-relative path of the Chart.yaml. */
  file: string;
  /** `appVersion`, unquoted; absent when the chart declares none. */
  appVersion?: string;
  /** 1-based line of `appVersion:`. */
  appVersionLine?: number;
  /** The keys of the values the chart's dependencies read (each `alias`, else `name`): their images default to their own appVersion. */
  subcharts?: string[];
}

const APP_VERSION = /^appVersion:[ \t]*(?:"([^"\n]*)"|'([^'\n]*)'|([^\s#]+))/;

/** Read `appVersion:` and the dependencies' value keys (top-level keys) out of a Chart.yaml's text. */
export function readChartInfo(file: string, text: string): ChartInfo {
  const lines = text.replace(/^\uFEFF/, '').split('\n').map((l) => l.replace(/\r$/, ''));
  const subcharts = dependencyKeys(lines);
  const info: ChartInfo = { file, ...(subcharts.length > 0 ? { subcharts } : {}) };
  for (let i = 0; i < lines.length; i++) {
    const m = APP_VERSION.exec(lines[i]!);
    if (!m) continue;
    const value = (m[1] ?? m[2] ?? m[3] ?? '').trim();
    return value === '' ? info : { ...info, appVersion: value, appVersionLine: i + 1 };
  }
  return info;
}

const SCALAR = /^[ \t]*(?:-[ \t]+)?(name|alias):[ \t]*(?:"([^"\n]*)"|'([^'\n]*)'|([^\s#]+))/;

/**
 * `dependencies:` entries' `alias` (else `name`), read from the block under the top-level key:
 * an entry starts at a `- ` line; a key of the entry is on it or indented past its dash.
 */
function dependencyKeys(lines: readonly string[]): string[] {
  const start = lines.findIndex((l) => /^dependencies:[ \t]*(?:#.*)?$/.test(l));
  if (start === -1) return [];
  const out: string[] = [];
  let entry: { name?: string; alias?: string } | undefined;
  const close = () => {
    const key = entry?.alias ?? entry?.name;
    if (key && !out.includes(key)) out.push(key);
  };
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\S/.test(line) && !line.startsWith('-') && !line.startsWith('#')) break; // the next top-level key
    if (/^[ \t]*-([ \t]|$)/.test(line)) {
      close();
      entry = {};
    }
    const m = SCALAR.exec(line);
    if (m && entry) entry[m[1] as 'name' | 'alias'] = (m[2] ?? m[3] ?? m[4] ?? '').trim() || undefined;
  }
  close();
  return out;
}
