/** What `pinwatch check` does when it runs (declared in ../program.ts, loaded only when it runs). */
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { appendStepSummary, emit, emitFindingsReport } from '../output.js';
import { loadCommandConfig } from '../config.js';
import { checkRepo, type CheckResult } from '../../check/index.js';
import type { CheckFlags } from '../flags/check.js';
import { exitCodeFor } from '../../lint/index.js';
import { baselineJson, lintReportNotes } from '../notes.js';
import { formatFindingsMarkdown } from '../../report/findings-markdown.js';
import { formatStaleMarkdown } from '../../report/stale-markdown.js';
import { formatCheckText } from '../../report/check-text.js';
import { staleJson } from '../../report/stale-json.js';
import { LINT_RULES } from '../../rules/index.js';
import { shallowRefusal, STALE_RULES } from '../../stale/index.js';
import { terminalSafe } from '../../report/sanitize.js';
import { stalePolicy } from '../flags/stale.js';
import { registryOptions } from '../flags/registry.js';
import { COMMAND_FORMATS } from '../formats.js';

/** The check pipeline from the shared flags, and the notes its reports print (check and report). */
export async function checkFromFlags(ctx: CommandContext, flags: CheckFlags, now = new Date()): Promise<{ result: CheckResult; notes: string[] }> {
  const policy = stalePolicy(flags, now);
  const config = loadCommandConfig(ctx);
  const result = await checkRepo(ctx.global.repo, config, {
    policy,
    ...(flags.baseline !== undefined ? { baseline: flags.baseline } : {}),
    ...(flags.registry ? { registry: registryOptions(config, ctx.io.env, flags) } : {}),
  });
  // one scan feeds lint and stale: its recovery notes come from both, printed once
  const notes = [...new Set([...config.origin.assumed.map((a) => `assumed: ${a}`), ...lintReportNotes(result.lint, config), ...result.stale.warnings, ...result.stale.notes])];
  return { result, notes };
}

export async function runCheck(ctx: CommandContext, flags: CheckFlags): Promise<number> {
  const format = pickFormat(ctx, COMMAND_FORMATS.check, 'text');
  const repo = ctx.global.repo;
  const { result, notes } = await checkFromFlags(ctx, flags);
  const options = { title: 'pinwatch check', root: repo, rules: [...LINT_RULES, ...STALE_RULES], notes, jsonExtra: { baseline: baselineJson(result.lint), stale: staleJson(result.stale), notes } };
  if (format === 'text') emit(ctx, formatCheckText(result.stale, result.findings, notes));
  else if (format === 'markdown') emit(ctx, `${formatStaleMarkdown(result.stale)}\n${formatFindingsMarkdown(result.findings, options)}`);
  else {
    // github: annotations on stdout; the job summary leads with the stale table, then the findings
    if (format === 'github') appendStepSummary(ctx, formatStaleMarkdown(result.stale));
    emitFindingsReport(ctx, format, result.findings, options);
  }
  const failOn = ctx.global.failOn ?? 'error';
  const refusal = failOn === 'never' || flags.allowShallow ? undefined : shallowRefusal(result.stale);
  if (refusal) {
    ctx.io.err(`pinwatch: ${terminalSafe(refusal)}\n`);
    return 2;
  }
  return exitCodeFor(result.findings, failOn);
}
