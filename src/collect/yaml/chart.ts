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
}

const APP_VERSION = /^appVersion:[ \t]*(?:"([^"\n]*)"|'([^'\n]*)'|([^\s#]+))/;

/** Read `appVersion:` (a top-level key) out of a Chart.yaml's text. */
export function readChartInfo(file: string, text: string): ChartInfo {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = APP_VERSION.exec(lines[i]!.replace(/\r$/, ''));
    if (!m) continue;
    const value = (m[1] ?? m[2] ?? m[3] ?? '').trim();
    return value === '' ? { file } : { file, appVersion: value, appVersionLine: i + 1 };
  }
  return { file };
}
