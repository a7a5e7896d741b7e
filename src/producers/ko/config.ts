/**
 * The ko configuration file (`.ko.yaml` in the directory ko runs in, or
 * KO_CONFIG_PATH): `defaultBaseImage`, `baseImageOverrides` (import path →
 * base image) and `builds[]` (`id`, `main`, `dir`, `ldflags`). What cannot be
 * read is a problem with file:line; the defaults hold then.
 */
import { readFileSync, statSync } from '../../util/tracked-fs.js';
import * as path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, type Node } from 'yaml';
import { parseYamlDocument } from '../../collect/index.js';
import type { Problem } from '../../model/index.js';

/** ko's base image when `.ko.yaml` sets none (ko ≥ 0.12). */
export const KO_DEFAULT_BASE_IMAGE = 'cgr.dev/chainguard/static:latest';

export interface KoBuildConfig {
  id?: string;
  /** Absolute directory `go build` runs in (`dir`, default where the config is). */
  dirAbs: string;
  /** `main` as written: `./cmd/app` (relative to dirAbs) or an import path. */
  main: string;
  ldflags: string[];
  line: number;
}

export interface KoConfig {
  /** Repo-relative path of the file read. */
  file: string;
  defaultBaseImage?: string;
  baseImageOverrides: Record<string, string>;
  builds: KoBuildConfig[];
}

function isFile(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}

/** The `.ko.yaml` ko reads when run in `cwd` (absolute), with KO_CONFIG_PATH from `env`; undefined when there is none. */
export function findKoConfig(cwd: string, env: ReadonlyMap<string, string>): string | undefined {
  const configured = env.get('KO_CONFIG_PATH');
  const candidates = configured ? [path.resolve(cwd, configured), path.resolve(cwd, configured, '.ko.yaml')] : [path.join(cwd, '.ko.yaml'), path.join(cwd, '.ko.yml')];
  return candidates.find(isFile);
}

/** Read `.ko.yaml` at `abs` (repo-relative name `file`); problems pushed with file:line. */
export function readKoConfig(abs: string, file: string, problems: Problem[]): KoConfig {
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (e) {
    problems.push({ file, code: 'ko-config-unreadable', reason: `cannot read this ko config: ${e instanceof Error ? e.message : String(e)}` });
    return { file, baseImageOverrides: {}, builds: [] };
  }
  return parseKoConfig(text, file, path.dirname(abs), problems);
}

/** Parse `.ko.yaml` text; `dir` (absolute) is where its relative `dir`/`main` start. */
export function parseKoConfig(text: string, file: string, dir: string, problems: Problem[]): KoConfig {
  const out: KoConfig = { file, baseImageOverrides: {}, builds: [] };
  const lc = new LineCounter();
  const doc = parseYamlDocument(text, { lineCounter: lc, prettyErrors: false });
  const lineOf = (n: unknown) => ((n as Node | undefined)?.range ? lc.linePos((n as Node).range![0]).line : 1);
  if (doc.errors.length > 0) {
    problems.push({ file, line: lc.linePos(doc.errors[0]!.pos[0]).line, code: 'ko-config-unreadable', reason: `not valid YAML, so ko's defaults are assumed: ${doc.errors[0]!.message.split('\n')[0]}` });
    return out;
  }
  const top = doc.contents;
  if (top === null || top === undefined) return out;
  if (!isMap(top)) {
    problems.push({ file, line: lineOf(top), code: 'ko-config-unreadable', reason: 'a ko config is a mapping; this is not, so ko\'s defaults are assumed' });
    return out;
  }
  const base = top.get('defaultBaseImage', true);
  if (isScalar(base) && typeof base.value === 'string') out.defaultBaseImage = base.value;
  else if (base !== undefined) problems.push({ file, line: lineOf(base), code: 'ko-config-unreadable', reason: 'defaultBaseImage is not a string' });
  const overrides = top.get('baseImageOverrides', true);
  if (isMap(overrides)) {
    for (const pair of overrides.items) {
      if (isScalar(pair.key) && isScalar(pair.value) && typeof pair.value.value === 'string') out.baseImageOverrides[String(pair.key.value)] = pair.value.value;
      else problems.push({ file, line: lineOf(pair.key), code: 'ko-config-unreadable', reason: 'a baseImageOverrides entry is not import path: image' });
    }
  }
  const builds = top.get('builds', true);
  if (builds !== undefined && !isSeq(builds)) problems.push({ file, line: lineOf(builds), code: 'ko-config-unreadable', reason: 'builds is not a list' });
  if (isSeq(builds)) {
    for (const b of builds.items) {
      if (!isMap(b)) {
        problems.push({ file, line: lineOf(b), code: 'ko-config-unreadable', reason: 'a builds entry is not a mapping' });
        continue;
      }
      const str = (k: string) => {
        const v = b.get(k, true);
        return isScalar(v) && v.value !== null ? String(v.value) : undefined;
      };
      const ld = b.get('ldflags', true);
      const ldflags = isSeq(ld) ? ld.items.filter(isScalar).map((s) => String(s.value)) : isScalar(ld) ? [String(ld.value)] : [];
      const main = (str('main') ?? '.').replace(/^ko:\/\//, '');
      const id = str('id');
      out.builds.push({ ...(id ? { id } : {}), dirAbs: path.resolve(dir, str('dir') ?? '.'), main, ldflags, line: lineOf(b) });
    }
  }
  return out;
}

/** The base image of `importPath`: its override, else defaultBaseImage, else ko's default. */
export function baseImageFor(config: KoConfig | undefined, importPath: string | undefined): string {
  if (config && importPath !== undefined && config.baseImageOverrides[importPath]) return config.baseImageOverrides[importPath]!;
  return config?.defaultBaseImage ?? KO_DEFAULT_BASE_IMAGE;
}
