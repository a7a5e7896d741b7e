/**
 * Each command's output formats (the first is the default), exit codes and one
 * example, in one place: the command bodies check `--format` against these, and `--help` prints
 * them under every command. Plain data, so `--help` loads nothing else.
 */
export const COMMAND_FORMATS = {
  check: ['text', 'json', 'sarif', 'markdown', 'github', 'gitlab'],
  scan: ['text', 'json'],
  lint: ['text', 'json', 'sarif', 'markdown', 'github', 'gitlab'],
  stale: ['text', 'json', 'markdown', 'github', 'sarif', 'gitlab'],
  explain: ['text', 'json'],
  affected: ['json', 'text'],
  overlay: ['text', 'json', 'markdown', 'github'],
  repin: ['text', 'json'],
  inspect: ['text', 'json'],
  running: ['text', 'json', 'markdown', 'github'],
  triage: ['text', 'json', 'markdown', 'github'],
  promote: ['text', 'json', 'markdown', 'github'],
  mirror: ['text', 'json', 'markdown', 'github'],
  compare: ['text', 'json', 'markdown', 'github'],
  cache: ['text', 'json'],
} as const;

export type FormattedCommand = keyof typeof COMMAND_FORMATS;

const ERROR = '2 usage, config or runtime error (one line: pinwatch: [code] file:line: message; docs/errors.md)';

/** What each exit code means, per command. */
export const COMMAND_EXITS: Readonly<Record<string, readonly string[]>> = {
  check: ['0 clean', '1 a finding at or above --fail-on (default error; stale images count per --fail-on-stale)', `${ERROR}, or a shallow clone left an image unjudged`],
  scan: ['0 the tree was scanned (problems and skipped files are listed, not failures)', ERROR],
  lint: ['0 clean', '1 a finding at or above --fail-on (default error)', ERROR],
  stale: ['0 no image fails --fail-on-stale (and --max-age)', '1 some image does', `${ERROR}, or a shallow clone left an image unjudged`],
  explain: ['0 explained', ERROR],
  affected: ['0 the matrix was printed', `${ERROR}, or a shallow clone that lacks the base`],
  overlay: ['0 done (drift is reported)', '1 drift, with --fail-on-drift', ERROR],
  repin: ['0 every pin moved and the rescan found no old ref', '1 a blocking problem, a refused forward check, or leftovers of the old ref', ERROR],
  inspect: ['0 inspected', ERROR],
  report: ['0 clean', '1 a finding at or above --fail-on', ERROR],
  demo: ['0 the demo ran', ERROR],
  running: ['0 no first-party container fails --fail-on-running', '1 one runs older or diverged from its pin, or lacks a merged fix (--fail-on-running any: any commit)', `${ERROR} (a bad pod list names file:line), or a shallow clone left a container unjudged`],
  triage: ['0 no log line is version skew (lines that matched nothing, or whose build is unknown, are listed as unknown)', '1 some line is skew: it comes from code a pinned build has and HEAD removed, or a commit the build lacks touches its package and mentions the line', ERROR],
  promote: ['0 every pinned first-party digest carries the tag (tagged or already), verified', '1 refused (a conflict, a digest-less or two-digest pin), a failed tag or move, or a rewrite left something', `${ERROR}, or existence of a tag could not be decided (429, 5xx, timeout, auth)`],
  mirror: ['0 every image copied and verified (and rewritten, nothing left)', '1 a copy failed (the tree is untouched), an image is not pinned by one digest, or the rewrite left a pin', ERROR],
  compare: ['0 every file same or tags-only', '1 a file whose digests differ or that drifted (unless allowed), or one only one side has', `${ERROR}, or --from does not exist`],
  cache: ['0 shown, or removed (nothing there is no error)', `${ERROR}, or the folder could not be removed`],
};

/** One example per command, printed under its `--help`. */
export const COMMAND_EXAMPLES: Readonly<Record<string, string>> = {
  check: 'pinwatch check --base origin/main --format sarif --output pinwatch.sarif',
  scan: 'pinwatch scan --format json | jq \'.pins[] | select(.firstParty)\'',
  lint: 'pinwatch lint --fail-on warning',
  stale: 'pinwatch stale billing-controller --fail-on-stale any',
  explain: 'pinwatch explain billing-controller',
  affected: 'pinwatch affected --base HEAD~1 --format json',
  overlay: 'pinwatch overlay --from ../built-tree --dry-run',
  repin: 'pinwatch repin billing-controller --to ghcr.io/acme/billing-controller:v1.2.0@sha256:…',
  inspect: 'pinwatch inspect ghcr.io/acme/billing-controller:v1.2.0',
  report: 'pinwatch report --html pinwatch.html',
  demo: 'pinwatch demo',
  running: 'kubectl get pods -A -o json | pinwatch running --pods -',
  triage: 'pinwatch triage e2e-lane.log --pods report-bundle/',
  promote: 'pinwatch promote --tag v1.4.0 --dry-run',
  mirror: 'pinwatch mirror --from iad.ocir.io/acme/ci --to ghcr.io/acme --rewrite --dry-run',
  compare: 'pinwatch compare --from ../release-candidate-tree',
  cache: 'pinwatch cache clear',
};

/** The `--help` footer of one command: its formats, exit codes and an example. */
export function helpFooter(command: string): string {
  const formats = (COMMAND_FORMATS as Record<string, readonly string[] | undefined>)[command];
  const exits = COMMAND_EXITS[command];
  const lines: string[] = [];
  if (formats) lines.push('', `Formats (--format): ${formats.map((f, i) => (i === 0 ? `${f} (default)` : f)).join(', ')}`);
  if (exits) lines.push('', 'Exit codes:', ...exits.map((e) => `  ${e}`));
  const example = COMMAND_EXAMPLES[command];
  if (example) lines.push('', 'Example:', `  ${example}`);
  return lines.join('\n');
}
