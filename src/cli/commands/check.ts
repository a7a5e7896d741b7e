/** What `pinwatch check` does when it runs (declared in ../program.ts, loaded only when it runs). */
import type { CommandContext } from '../context.js';
import { pickFormat } from '../flags/global.js';
import { appendStepSummary, emit, setStepOutputs } from '../output.js';
import { emitFindingsReport, findingsReport } from '../findings-output.js';
import { resolve } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { htmlPage } from '../html-page.js';
import type { Config } from '../../config/types.js';
import { loadCommandConfig } from '../config.js';
import { checkRepo, type CheckResult } from '../../check/index.js';
import type { CheckFlags } from '../flags/check.js';
import { DEFAULT_BASELINE_FILE, exitCodeFor, writeBaselineFile } from '../../lint/index.js';
import { say } from '../stderr.js';
import { baselineJson, lintReportNotes } from '../notes.js';
import { formatFindingsMarkdown } from '../../report/findings-markdown.js';
import { formatStaleMarkdown } from '../../report/stale-markdown.js';
import { formatCheckText } from '../../report/check-text.js';
import { staleJson } from '../../report/stale-json.js';
import { LINT_RULES } from '../../rules/index.js';
import { shallowRefusal } from '../../stale/policy.js';
import { STALE_RULES } from '../../stale/findings.js';
import { terminalSafe } from '../../report/sanitize.js';
import { stalePolicy } from '../flags/stale.js';
import { registryOptions } from '../flags/registry.js';
import { COMMAND_FORMATS } from '../formats.js';
import { textOptions, withProgress } from '../terminal.js';

/** The check pipeline from the shared flags, and the notes its reports print (check and report). */
export async function checkFromFlags(ctx: CommandContext, flags: CheckFlags, now = new Date()): Promise<{ result: CheckResult; notes: string[]; config: Config }> {
  const policy = stalePolicy(flags, now);
  const config = await loadCommandConfig(ctx, { kept: true });
  const result = await checkRepo(ctx.global.repo, config, {
    policy,
    ...(flags.baseline !== undefined ? { baseline: flags.baseline } : {}),
    ...(flags.base !== undefined ? { base: flags.base } : {}),
    ...(flags.registry ? { registry: await registryOptions(config, ctx.io.env, flags) } : {}),
  });
  // one scan feeds lint and stale: its recovery notes come from both, printed once
  const notes = [...new Set([...config.origin.assumed.map((a) => `assumed: ${a}`), ...lintReportNotes(result.lint, config), ...result.stale.warnings, ...result.stale.notes, ...prNotes(result)])];
  return { result, notes, config };
}

/** PR mode in one line: what was compared, and what the base already had. */
function prNotes(result: CheckResult): string[] {
  const pr = result.pr;
  if (!pr) return [];
  return [
    `PR mode: against ${pr.base} (${pr.commit.slice(0, 10)}); ${pr.prCommits} commit(s) only in this PR; ${pr.onBase} lint finding(s) already in ${pr.base} are not reported; ${pr.rebuild.length} image(s) this PR must rebuild and repin`,
  ];
}

export async function runCheck(ctx: CommandContext, flags: CheckFlags): Promise<number> {
  const format = pickFormat(ctx, COMMAND_FORMATS.check, 'text');
  const repo = ctx.global.repo;
  if (flags.writeBaseline) return writeCheckBaseline(ctx, flags);
  const { result, notes, config } = await withProgress(ctx, `check: reading the history${flags.registry ? ' and asking the registry' : ''}`, () => checkFromFlags(ctx, flags));
  const options = {
    title: 'pinwatch check',
    root: repo,
    rules: [...LINT_RULES, ...STALE_RULES],
    notes,
    jsonExtra: { baseline: baselineJson(result.lint), stale: staleJson(result.stale), ...(result.pr ? { pr: result.pr } : {}), notes },
  };
  if (format === 'text') emit(ctx, formatCheckText(result.stale, result.findings, notes, result.pr, textOptions(ctx)));
  else if (format === 'markdown') emit(ctx, `${formatStaleMarkdown(result.stale)}\n${formatFindingsMarkdown(result.findings, options)}`);
  else {
    // github: annotations on stdout; the job summary leads with the stale table, then the findings
    if (format === 'github') appendStepSummary(ctx, formatStaleMarkdown(result.stale));
    emitFindingsReport(ctx, format, result.findings, options);
    if (format === 'github') setStepOutputs(ctx, { 'stale-count': result.stale.images.filter((i) => i.status === 'stale').length });
  }
  // side outputs of the same run (the GitHub Action's sarif: and html: inputs)
  if (flags.sarif) writeFileAtomic(resolve(ctx.io.cwd, flags.sarif), findingsReport('sarif', result.findings, options));
  if (flags.html) {
    const html = await htmlPage(repo, config, result, notes, new Date());
    writeFileAtomic(resolve(ctx.io.cwd, flags.html), html);
  }
  const failOn = ctx.global.failOn ?? 'error';
  const refusal = failOn === 'never' || flags.allowShallow ? undefined : shallowRefusal(result.stale);
  if (refusal) {
    ctx.io.err(`pinwatch: ${terminalSafe(refusal)}\n`);
    return 2;
  }
  return exitCodeFor(result.findings, failOn);
}

/**
 * `check --write-baseline [FILE]`: every current finding, lint and stale, into the
 * baseline (the adoption path: only new findings fail from now on). A stale
 * entry is keyed by the pinned digest, so it stops matching once the image is repinned.
 */
async function writeCheckBaseline(ctx: CommandContext, flags: CheckFlags): Promise<number> {
  const config = await loadCommandConfig(ctx, { kept: true });
  const file = typeof flags.writeBaseline === 'string' ? flags.writeBaseline : (config.baseline ?? DEFAULT_BASELINE_FILE);
  const { result } = await checkFromFlags(ctx, { ...flags, baseline: false });
  const n = writeBaselineFile(ctx.global.repo, file, result.findings);
  const stale = result.findings.filter((f) => STALE_RULES.some((r) => r.id === f.rule) && f.suppressed?.kind !== 'inline').length;
  say(ctx, `pinwatch: wrote ${n} finding${n === 1 ? '' : 's'} (${stale} stale) to the baseline ${file}\n`);
  return 0;
}
