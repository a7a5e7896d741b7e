/**
 * The HTML report's page from a check result (`report --html`, `check --html`): the
 * repository's links (links.* in pinwatch.yaml over the remote in .git/config, read
 * without a git process) and HEAD's date (one git process).
 */
import type { CheckResult } from '../check/index.js';
import type { Config } from '../config/types.js';
import { git } from '../git/run.js';
import { readRemoteUrl } from '../git/remote.js';
import { formatHtmlReport, type HtmlReportInput } from '../report/html.js';
import { resolveLinks } from '../report/links.js';

/** HEAD's committer date (ISO 8601), or undefined when git cannot say (no commit, no git). */
async function headDate(root: string, head: string): Promise<string | undefined> {
  if (!head) return undefined;
  try {
    const out = (await git(root, ['show', '-s', '--format=%cI', head])).trim();
    return out || undefined;
  } catch {
    return undefined;
  }
}

export async function htmlPage(root: string, config: Config, result: CheckResult, notes: string[], now: Date, extra: Pick<HtmlReportInput, 'running'> = {}): Promise<string> {
  const date = await headDate(root, result.stale.head);
  return formatHtmlReport({
    repo: root,
    generatedAt: now.toISOString(),
    stale: { ...result.stale, notes },
    findings: result.findings,
    pins: result.lint.scan.pins,
    links: resolveLinks(readRemoteUrl(root), config.links),
    ...(date ? { headDate: date } : {}),
    ...extra,
  });
}
