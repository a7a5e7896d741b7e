/**
 * loadConfig: read pinwatch.yaml (or --config FILE), validate it against the
 * spec, fill the defaults, add --first-party prefixes, and record in
 * `origin.assumed` what was assumed rather than configured. The repository's
 * config may be hostile (a PR branch): it must be a regular file inside the
 * repository, the paths it names must stay inside, and errors quote only short
 * escaped excerpts of it.
 */
import { relative, resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { PinwatchError } from '../errors.js';
import { CONFIG_FILE_NAME, CONFIG_FILE_NAMES, DEFAULT_INCLUDE, defaultConfig } from './defaults.js';
import { checkFirstPartyPrefixes } from './first-party.js';
import { CONFIG_SPEC } from './spec.js';
import type { Config, ImageConfig, ProducerConfig, ProvenanceMethod, RuleLevel } from './types.js';
import { resolveInsideRepo } from '../util/repo-path.js';
import { readRegularFile } from '../util/safe-read.js';
// through the recording layer: config/kept.ts keeps a config with the paths its load touched
import { lstatSync, readdirSync } from '../util/tracked-fs.js';
import { excerpt, MAX_QUOTED_CHARS, validateNode } from './validate.js';
import { displayPath, isUnder } from '../util/display-path.js';
import { aliasesProblem } from './aliases.js';

export { CONFIG_FILE_NAME, CONFIG_FILE_NAMES };

export interface LoadConfigOptions {
  /** Config file; relative paths are resolved against repoRoot. Must exist when given. */
  configPath?: string;
  /** Extra first-party prefixes (from --first-party), added to the config's. */
  firstParty?: string[];
}

/** The fields of pinwatch.yaml after validation (every key optional). */
interface RawConfig {
  firstParty?: string[];
  include?: string[];
  exclude?: string[];
  extraFiles?: string[];
  skipVendoredCharts?: boolean;
  images?: Record<string, ImageConfig>;
  producers?: ProducerConfig[];
  buildEntry?: string;
  buildEnv?: Record<string, string>;
  provenance?: { methods?: ProvenanceMethod[]; buildCommit?: 'parent' | 'self'; tagCommitPattern?: string; gitTag?: string };
  stale?: { fixPattern?: string };
  rules?: Record<string, RuleLevel>;
  baseline?: string;
  insecureRegistries?: string[];
  aliases?: Record<string, string>;
  links?: { repository?: string; commit?: string; pr?: string; file?: string };
}

/**
 * Parse and validate config text. `file` is used in error messages only; with
 * `root`, paths the config names are resolved and must stay inside it.
 */
export function parseConfigText(text: string, file: string, root?: string): RawConfig {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const err = doc.errors[0];
  if (err) {
    const line = lineCounter.linePos(err.pos[0]).line;
    const first = excerpt(err.message.split('\n')[0]!, 2 * MAX_QUOTED_CHARS);
    throw new PinwatchError('config-invalid', `not valid YAML: ${first}`, { file, line });
  }
  if (doc.contents === null) return {};
  const raw = validateNode(doc.contents, CONFIG_SPEC, '', { file, lineCounter, ...(root ? { root } : {}) }) as RawConfig;
  raw.producers?.forEach((p, i) => {
    // where each producer is declared, for explain and findings; a write {file} alone reads as the plain string
    const node = doc.getIn(['producers', i], true) as { range?: [number, number, number] } | undefined;
    if (node?.range) p.line = lineCounter.linePos(node.range[0]).line;
    p.writes = p.writes.map((w) => (typeof w === 'object' && w.image === undefined ? w.file : w));
  });
  return raw;
}

/**
 * The config file to read, as an absolute path, or undefined when there is none.
 * The repository's own config (pinwatch.yaml, or a --config path inside the
 * repository) must resolve inside it; a --config path outside the repository is
 * the operator's own file, read through symlinks.
 */
function locateConfig(repoRoot: string, configPath: string | undefined, file: string): { abs: string; follow: boolean } | undefined {
  const path = resolve(repoRoot, configPath ?? CONFIG_FILE_NAME);
  const missing = (): undefined => {
    if (configPath === undefined) return undefined;
    throw new PinwatchError('config-missing', `config file ${JSON.stringify(configPath)} does not exist; expected a pinwatch.yaml path`, { file });
  };
  const rel = relative(resolve(repoRoot), path);
  if (!isUnder(resolve(repoRoot), path)) {
    try {
      lstatSync(path);
    } catch {
      return missing();
    }
    return { abs: path, follow: true };
  }
  let abs: string;
  try {
    abs = resolveInsideRepo(repoRoot, rel);
  } catch (e) {
    if (!(e instanceof PinwatchError)) throw e;
    throw new PinwatchError('path-outside-repo', `the config leads out of the repository through a symlink; not read (expected a regular file inside the repository)`, { file });
  }
  try {
    lstatSync(abs);
  } catch {
    return missing();
  }
  return { abs, follow: false };
}

/**
 * The repository's config file name at its root (pinwatch.yaml, pinwatch.yml,
 * .pinwatch.yaml or .pinwatch.yml), or undefined when there is none. Two at once
 * is an error: pinwatch would otherwise silently ignore one of them.
 */
export function repoConfigName(repoRoot: string): string | undefined {
  const present = CONFIG_FILE_NAMES.filter((name) => {
    try {
      lstatSync(resolve(repoRoot, name));
      return true;
    } catch {
      return false;
    }
  });
  if (present.length > 1) {
    throw new PinwatchError('config-invalid', `${present.join(' and ')} are both at the repository root; keep one (pinwatch reads ${CONFIG_FILE_NAME}, ${CONFIG_FILE_NAMES.slice(1).join(', ')})`, { file: present[1]! });
  }
  return present[0];
}

/**
 * Files that look meant as the config but are not read under their name
 * (`Pinwatch.yaml`, `pinwatch.json`, `.github/pinwatch.config.yml`): each is
 * named with the rename that makes pinwatch read it, never silently ignored.
 */
export function nearMissConfigNames(repoRoot: string): string[] {
  const out: string[] = [];
  for (const dir of ['', '.github/']) {
    let names: string[];
    try {
      names = readdirSync(resolve(repoRoot, dir || '.'));
    } catch {
      continue;
    }
    for (const name of names.sort()) {
      const rel = `${dir}${name}`;
      if (CONFIG_FILE_NAMES.includes(rel)) continue;
      if (/^\.?pinwatch[._-].+$/i.test(name) && !/baseline/i.test(name)) out.push(rel);
    }
  }
  return out;
}

function readConfigFile(repoRoot: string, configPath: string | undefined): { file: string; raw: RawConfig } | undefined {
  const name = configPath ?? repoConfigName(repoRoot);
  if (name === undefined) return undefined;
  const file = displayPath(repoRoot, resolve(repoRoot, name));
  const where = locateConfig(repoRoot, name, file);
  if (!where) return undefined;
  const read = readRegularFile(where.abs, { followSymlinks: where.follow });
  if ('refused' in read) throw new PinwatchError('config-unreadable', `cannot read the config: ${read.refused.reason}`, { file });
  const nul = read.bytes.indexOf(0);
  if (nul !== -1) throw new PinwatchError('config-invalid', `a NUL byte at offset ${nul}: a binary file, not YAML`, { file });
  return { file, raw: parseConfigText(read.bytes.toString('utf8'), file, repoRoot) };
}

/** Load, validate and default the configuration of the repository at repoRoot. */
export function loadConfig(repoRoot: string, opts: LoadConfigOptions = {}): Config {
  const cliPrefixes = opts.firstParty ?? [];
  checkFirstPartyPrefixes(cliPrefixes);
  const read = readConfigFile(repoRoot, opts.configPath);
  const raw = read?.raw ?? {};
  const config = defaultConfig();
  const assumed: string[] = [];
  if (!read) {
    assumed.push(`no ${CONFIG_FILE_NAME} (or ${CONFIG_FILE_NAMES.slice(1).join(', ')}) at the repository root: using the defaults`);
    for (const near of nearMissConfigNames(repoRoot)) assumed.push(`found ${near}, which pinwatch does not read under that name; rename it ${near.startsWith('.github/') ? '.github/pinwatch.yaml' : CONFIG_FILE_NAME}`);
  }

  config.firstParty = [...new Set([...(raw.firstParty ?? []), ...cliPrefixes])];
  if (raw.include) config.include = raw.include;
  else assumed.push(`include defaults: ${DEFAULT_INCLUDE.join(', ')}`);
  if (raw.exclude) config.exclude = raw.exclude;
  if (raw.extraFiles) config.extraFiles = raw.extraFiles;
  if (raw.skipVendoredCharts !== undefined) config.skipVendoredCharts = raw.skipVendoredCharts;
  if (raw.images) config.images = raw.images;
  if (raw.producers) config.producers = raw.producers;
  if (raw.buildEntry) config.buildEntry = raw.buildEntry;
  if (raw.buildEnv) config.buildEnv = raw.buildEnv;
  if (raw.provenance?.methods) config.provenance.methods = raw.provenance.methods;
  if (raw.provenance?.buildCommit) config.provenance.buildCommit = raw.provenance.buildCommit;
  if (raw.provenance?.tagCommitPattern) config.provenance.tagCommitPattern = raw.provenance.tagCommitPattern;
  if (raw.provenance?.gitTag) config.provenance.gitTag = raw.provenance.gitTag;
  if (raw.stale?.fixPattern) config.stale.fixPattern = raw.stale.fixPattern;
  if (raw.rules) config.rules = raw.rules;
  if (raw.baseline) config.baseline = raw.baseline;
  if (raw.insecureRegistries) config.insecureRegistries = raw.insecureRegistries;
  if (raw.links) config.links = { ...raw.links };
  if (raw.aliases) {
    const problem = aliasesProblem(raw.aliases);
    if (problem) throw new PinwatchError('config-invalid', problem, read?.file ? { file: read.file } : {});
    config.aliases = raw.aliases;
  }

  if (config.firstParty.length === 0) {
    assumed.push('no first-party prefixes: every pin is third-party; set firstParty in pinwatch.yaml or pass --first-party');
  }
  config.origin = read ? { file: read.file, assumed } : { assumed };
  return config;
}
