/** The flags `check` and `report` share: the stale policy, the baseline, and asking the registry. */
import type { Command } from 'commander';
import type { RegistryFlags } from '../registry/options.js';
import { addRegistryFlags } from './registry-flags.js';

export interface CheckFlags extends RegistryFlags {
  failOnStale?: string;
  maxAge?: string;
  registry?: boolean;
  baseline?: string | false;
}

export function addCheckFlags(cmd: Command): Command {
  cmd
    .option('--fail-on-stale <when>', 'a stale image is an error when it lacks a merged fix (fix), any commit (any), or never', 'fix')
    .option('--max-age <days>', 'a stale image is an error only when its oldest counted unshipped commit is older than DAYS')
    .option('--baseline <file>', 'baseline file to apply (default: config baseline, else .pinwatch-baseline.json when present)')
    .option('--no-baseline', 'ignore any baseline: report every finding')
    .option('--registry', 'ask the registry for the image revision label first (network)');
  return addRegistryFlags(cmd);
}
