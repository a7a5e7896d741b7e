/** The flags `check` and `report` share: the stale policy, the baseline, and asking the registry. */
import type { RegistryFlags } from './registry.js';
import type { StalePolicyFlags } from './stale.js';

export interface CheckFlags extends RegistryFlags, StalePolicyFlags {
  registry?: boolean;
  /** `--baseline FILE`, or false for `--no-baseline`. */
  baseline?: string | false;
  /** `check --base REV` (PR mode). */
  base?: string;
  /** `check --write-baseline [FILE]`. */
  writeBaseline?: string | boolean;
  /** `check --sarif FILE`, `check --html FILE`: also write these reports of the same run. */
  sarif?: string;
  html?: string;
}
