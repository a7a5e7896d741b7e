/** What `pinwatch stale` does when it runs (declared in ../program.ts, loaded only when it runs). */
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { emit, findingCounts, setStepOutputs } from '../output.js';
import { loadCommandConfig } from '../config.js';
import { registryOptions, type RegistryFlags } from '../flags/registry.js';
import { staleReport } from '../../stale/repo.js';
import { shallowRefusal, staleExitCode } from '../../stale/policy.js';
import { STALE_RULES, staleFindings } from '../../stale/findings.js';
import { terminalSafe } from '../../report/sanitize.js';
import { stalePolicy, type StalePolicyFlags } from '../flags/stale.js';
import { formatStaleJson } from '../../report/stale-json.js';
import { formatStaleText } from '../../report/stale-text.js';
import { formatStaleMarkdown } from '../../report/stale-markdown.js';
import { COMMAND_FORMATS } from '../formats.js';
import { textOptions, withProgress } from '../terminal.js';

const FORMATS = COMMAND_FORMATS.stale;

export interface StaleFlags extends RegistryFlags, StalePolicyFlags {
  registry?: boolean;
}

export async function runStale(ctx: CommandContext, images: string[], flags: StaleFlags): Promise<number> {
  const format = pickFormat(ctx, FORMATS, 'text');
  const policy = stalePolicy(flags, new Date());
  const { repo } = ctx.global;
  const config = await loadCommandConfig(ctx, { kept: true });
  const registry = flags.registry ? await registryOptions(config, ctx.io.env, flags) : undefined;
  const report = await withProgress(ctx, `stale: reading the history${flags.registry ? ' and asking the registry' : ''}`, () =>
    staleReport(repo, config, { only: images, now: policy.now, ...(registry ? { registry } : {}) }),
  );
  if (format === 'json') emit(ctx, formatStaleJson(report));
  else if (format === 'text') emit(ctx, formatStaleText(report, textOptions(ctx)));
  else if (format === 'markdown') emit(ctx, formatStaleMarkdown(report));
  else {
    const findings = staleFindings(report, policy);
    const { findingsReport } = await import('../findings-output.js');
    emit(ctx, findingsReport(format, findings, { title: 'pinwatch stale', rules: STALE_RULES, root: repo, notes: [...report.warnings, ...report.notes] }));
    if (format === 'github') setStepOutputs(ctx, { ...findingCounts(findings), 'stale-count': report.images.filter((i) => i.status === 'stale').length });
  }
  // The global --fail-on never also silences stale (check runs lint and stale under one switch).
  if (ctx.global.failOn === 'never') return 0;
  const refusal = policy.allowShallow ? undefined : shallowRefusal(report);
  if (refusal) ctx.io.err(`pinwatch: ${terminalSafe(refusal)}\n`);
  return staleExitCode(report, policy);
}
