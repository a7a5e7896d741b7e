/** Pick the generic finding formatter for `--format`. */
import type { Finding } from '../model/index.js';
import type { FindingsReportOptions } from './findings-common.js';
import { formatFindingsGithub } from './findings-github.js';
import { formatFindingsGitlab } from './findings-gitlab.js';
import { formatFindingsJson } from './findings-json.js';
import { formatFindingsMarkdown } from './findings-markdown.js';
import { formatFindingsSarif } from './findings-sarif.js';
import { formatFindingsText } from './findings-text.js';

export const FINDINGS_FORMATS = ['text', 'json', 'sarif', 'markdown', 'github', 'gitlab'] as const;
export type FindingsFormat = (typeof FINDINGS_FORMATS)[number];

const FORMATTERS: Record<FindingsFormat, (f: readonly Finding[], o: FindingsReportOptions) => string> = {
  text: formatFindingsText,
  json: formatFindingsJson,
  sarif: formatFindingsSarif,
  markdown: formatFindingsMarkdown,
  github: formatFindingsGithub,
  gitlab: formatFindingsGitlab,
};

export function formatFindings(format: FindingsFormat, findings: readonly Finding[], options: FindingsReportOptions = {}): string {
  return FORMATTERS[format](findings, options);
}

export type { FindingsReportOptions } from './findings-common.js';
