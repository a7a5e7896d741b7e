/**
 * loadConfig: read pinwatch.yaml (or --config FILE), validate it against the
 * spec, fill the defaults, add --first-party prefixes, and record in
 * `origin.assumed` what was assumed rather than configured.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { PinwatchError } from '../errors.js';
import { CONFIG_FILE_NAME, DEFAULT_INCLUDE, defaultConfig } from './defaults.js';
import { checkFirstPartyPrefixes } from './first-party.js';
import { CONFIG_SPEC } from './spec.js';
import type { Config, ImageConfig, ProducerConfig, ProvenanceMethod, RuleLevel } from './types.js';
import { validateNode } from './validate.js';
import { displayPath } from '../util/display-path.js';

export { CONFIG_FILE_NAME };

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
  provenance?: { methods?: ProvenanceMethod[]; buildCommit?: 'parent' | 'self' };
  rules?: Record<string, RuleLevel>;
  baseline?: string;
  insecureRegistries?: string[];
}

/** Parse and validate config text. `file` is used in error messages only. */
export function parseConfigText(text: string, file: string): RawConfig {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const err = doc.errors[0];
  if (err) {
    const line = lineCounter.linePos(err.pos[0]).line;
    const first = err.message.split('\n')[0];
    throw new PinwatchError('config-invalid', `not valid YAML: ${first}`, { file, line });
  }
  if (doc.contents === null) return {};
  return validateNode(doc.contents, CONFIG_SPEC, '', { file, lineCounter }) as RawConfig;
}

function readConfigFile(repoRoot: string, configPath: string | undefined): { file: string; raw: RawConfig } | undefined {
  const path = resolve(repoRoot, configPath ?? CONFIG_FILE_NAME);
  const file = displayPath(repoRoot, path);
  if (!existsSync(path)) {
    if (configPath === undefined) return undefined;
    throw new PinwatchError('config-missing', `config file ${JSON.stringify(configPath)} does not exist; expected a pinwatch.yaml path`, { file });
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new PinwatchError('config-unreadable', `cannot read the config: ${(e as Error).message}`, { file });
  }
  return { file, raw: parseConfigText(text, file) };
}

/** Load, validate and default the configuration of the repository at repoRoot. */
export function loadConfig(repoRoot: string, opts: LoadConfigOptions = {}): Config {
  const cliPrefixes = opts.firstParty ?? [];
  checkFirstPartyPrefixes(cliPrefixes);
  const read = readConfigFile(repoRoot, opts.configPath);
  const raw = read?.raw ?? {};
  const config = defaultConfig();
  const assumed: string[] = [];
  if (!read) assumed.push(`no ${CONFIG_FILE_NAME} at the repository root: using the defaults`);

  config.firstParty = [...new Set([...(raw.firstParty ?? []), ...cliPrefixes])];
  if (raw.include) config.include = raw.include;
  else assumed.push(`include defaults: ${DEFAULT_INCLUDE.join(', ')}`);
  if (raw.exclude) config.exclude = raw.exclude;
  if (raw.extraFiles) config.extraFiles = raw.extraFiles;
  if (raw.skipVendoredCharts !== undefined) config.skipVendoredCharts = raw.skipVendoredCharts;
  if (raw.images) config.images = raw.images;
  if (raw.producers) config.producers = raw.producers;
  if (raw.buildEntry) config.buildEntry = raw.buildEntry;
  if (raw.provenance?.methods) config.provenance.methods = raw.provenance.methods;
  if (raw.provenance?.buildCommit) config.provenance.buildCommit = raw.provenance.buildCommit;
  if (raw.rules) config.rules = raw.rules;
  if (raw.baseline) config.baseline = raw.baseline;
  if (raw.insecureRegistries) config.insecureRegistries = raw.insecureRegistries;

  if (config.firstParty.length === 0) {
    assumed.push('no first-party prefixes: every pin is third-party; set firstParty in pinwatch.yaml or pass --first-party');
  }
  config.origin = read ? { file: read.file, assumed } : { assumed };
  return config;
}
