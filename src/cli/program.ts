/**
 * Every pinwatch command and its flags, in the order `--help` lists them. Each
 * action loads its body (`./commands/<name>.js`) only when that command runs, so
 * `--help`, `--version` and each command load only what they use. A body gets a
 * CommandContext and returns its exit code, which reaches main's single exit point.
 */
import { Argument, Command, Option } from 'commander';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CONFIG_FILE_NAMES } from '../config/defaults.js';
import { PinwatchError } from '../errors.js';
import { DEFAULT_BASELINE_FILE } from '../lint/baseline.js';
import { FAIL_ON_LEVELS, type FailOn } from '../model/finding.js';
import type { CommandContext, GlobalOptions, Io } from './context.js';
import type { CheckFlags } from './flags/check.js';
import type { RegistryFlags } from './flags/registry.js';
import type { AffectedFlags } from './commands/affected.js';
import type { DemoFlags } from './commands/demo.js';
import type { Rerun } from './context.js';
import type { ExplainFlags } from './commands/explain.js';
import type { LintFlags } from './commands/lint.js';
import type { OverlayFlags } from './commands/overlay.js';
import type { RepinFlags } from './commands/repin.js';
import type { ReportFlags } from './commands/report.js';
import type { StaleFlags } from './commands/stale.js';
import type { RunningFlags } from './commands/running.js';
import type { TriageFlags } from './commands/triage.js';
import type { PromoteFlags } from './commands/promote.js';
import type { MirrorFlags } from './commands/mirror.js';
import type { CompareFlags } from './commands/compare.js';
import type { CacheAction } from './commands/cache.js';
import { VERSION } from './version.js';
import { helpFooter } from './formats.js';
import { terminalSafe } from '../report/sanitize.js';


/**
 * Without --repo, the repository is found the way git finds it: the nearest
 * folder at or above the working directory that holds pinwatch.yaml or .git.
 */
export function findRepoRoot(cwd: string, home?: string): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (CONFIG_FILE_NAMES.some((name) => existsSync(join(dir, name))) || existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) break;
  }
  // A plain folder of manifests is a fine tree to scan; the filesystem root or the
  // home directory is not one (it would walk everything for minutes).
  // (node:os only here: a run inside a repository never loads it)
  const here = resolve(cwd);
  if (here === dirname(here) || here === resolve(home ?? process.getBuiltinModule('node:os').homedir())) {
    throw new PinwatchError('repo-not-found', `no pinwatch.yaml or .git at or above ${JSON.stringify(here)}, and pinwatch does not walk the whole ${here === dirname(here) ? 'filesystem' : 'home directory'}: run it inside a repository`);
  }
  return here;
}

function globalOptions(cmd: Command, io: Io): GlobalOptions {
  const o = cmd.optsWithGlobals() as Record<string, unknown>;
  const explicitRepo = cmd.getOptionValueSourceWithGlobals('repo') === 'cli';
  return {
    repo: explicitRepo ? resolve(io.cwd, o.repo as string) : findRepoRoot(io.cwd),
    config: o.config as string | undefined,
    format: o.format as string | undefined,
    output: o.output as string | undefined,
    failOn: o.failOn as FailOn | undefined,
    firstParty: (o.firstParty as string[] | undefined) ?? [],
    detail: detailFlag(o),
    ...noCacheFlag(o, io),
  };
}

/** --no-cache, or PINWATCH_NO_CACHE set (to anything but empty, 0 or false): no on-disk cache this run. */
function noCacheFlag(o: Record<string, unknown>, io: Io): Pick<GlobalOptions, 'noCache'> {
  if (o.cache === false) return { noCache: '--no-cache' };
  const env = io.env.PINWATCH_NO_CACHE;
  return env !== undefined && !['', '0', 'false'].includes(env.toLowerCase()) ? { noCache: 'PINWATCH_NO_CACHE' } : {};
}

/** --quiet / --verbose (terminal output, issue 14): one of them at most. */
function detailFlag(o: Record<string, unknown>): GlobalOptions['detail'] {
  if (o.quiet && o.verbose) throw new PinwatchError('conflicting-options', '--quiet and --verbose contradict each other: give one');
  return o.quiet ? 'quiet' : o.verbose ? 'verbose' : 'normal';
}

const repeatable = (v: string, prev: string[] = []) => [...prev, v];

/** The registry flags every command that may talk to a registry shares (parsed by ./flags/registry.ts). */
function registryFlags(cmd: Command): Command {
  return cmd
    .option('--insecure-registry <host>', 'allow plain HTTP to this registry host (repeatable; loopback is always allowed)', repeatable)
    .option('--timeout <ms>', 'registry timeout in milliseconds, per attempt, covering headers, redirects and the whole body', '30000');
}

/** The flags `check` and `report` share: the stale policy, the baseline, and asking the registry. */
function checkFlags(cmd: Command): Command {
  cmd
    .option('--fail-on-stale <when>', 'a stale image is an error when it lacks a merged fix (fix), any commit (any), any commit or cannot be judged (unknown), or never', 'fix')
    .option('--max-age <days>', 'a stale image is an error only when its oldest counted unshipped commit is older than DAYS')
    .option('--allow-shallow', 'a shallow clone that leaves images unjudged is not refused (exit 2); they count only under --fail-on-stale unknown')
    .option('--baseline <file>', 'baseline file to apply (default: config baseline, else .pinwatch-baseline.json when present)')
    .option('--no-baseline', 'ignore any baseline: report every finding')
    .option('--registry', 'ask the registry for the image revision label first (network)');
  return registryFlags(cmd);
}

/**
 * The run's cache setting: the repository cache (src/cache) on unless --no-cache
 * or PINWATCH_NO_CACHE, its failed writes told under -v; and the same switch
 * reaches the registry flags (their digest cache).
 */
async function useCache(global: GlobalOptions, io: Io, flags: unknown): Promise<typeof import('../cache/index.js')> {
  if (global.noCache && flags && typeof flags === 'object') (flags as RegistryFlags).cache = false;
  const cache = await import('../cache/index.js');
  cache.configureCache({ enabled: !global.noCache, env: io.env, ...(global.detail === 'verbose' ? { warn: (m: string) => io.err(terminalSafe(`${m}\n`)) } : {}) });
  return cache;
}

/** Under -v: what the run found in the cache and wrote to it, one line per cache folder used. */
function cacheSummary(caches: readonly import('../cache/index.js').Cache[]): string[] {
  return caches
    .filter((c) => c.enabled)
    .map((c) => ({ c, s: c.stats() }))
    .filter(({ s }) => s.hits + s.misses + s.writes + s.notes.length > 0)
    .flatMap(({ c, s }) => [...s.notes.map((n) => `pinwatch: cache: ${n}\n`), `pinwatch: cache: ${s.hits} found, ${s.misses} not found, ${s.writes} written (${c.dir})\n`]);
}

/** The program, writing to `io`; the exit code of the command that ran lands in `result.code`. */
export function buildProgram(io: Io, result: { code: number }, rerun: Rerun): Command {
  const program = new Command('pinwatch');
  program
    .description('Every image pin in a GitOps monorepo: where it is, what is wrong with it, and which merged fixes it does not ship.')
    .version(VERSION)
    .option('--repo <dir>', 'repository root (default: the nearest folder at or above the working directory with pinwatch.yaml or .git)')
    .option('--config <file>', 'config file (default: pinwatch.yaml, or pinwatch.yml, .pinwatch.yaml, .pinwatch.yml, .github/pinwatch.yaml, at the repo root)')
    .option('--format <format>', 'output format: text|json|sarif|markdown|github|gitlab (per command)')
    .option('--output <file>', 'write the report to FILE (atomically) instead of stdout')
    .addOption(new Option('--fail-on <level>', 'exit 1 when a finding is at or above this level').choices(FAIL_ON_LEVELS))
    .option('--first-party <prefix>', 'repository prefix this repo builds (repeatable)', repeatable)
    .option('-q, --quiet', 'text reports: the summary only (the exit code is unchanged); no progress on stderr')
    .option('-v, --verbose', 'text reports: also what is normally hidden (current images, suppressed findings); timings on stderr')
    .option('--no-cache', 'read and write no on-disk cache: neither the repository cache (.git/pinwatch/cache; also PINWATCH_NO_CACHE=1) nor the registry digest cache')
    .showHelpAfterError('(pinwatch --help lists the commands; pinwatch <command> --help, a command\'s options)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(terminalSafe(s)) });

  /** A command body as a commander action: the context from the global options, the exit code into `result`. */
  const run =
    <A extends unknown[]>(body: (ctx: CommandContext, ...args: A) => Promise<number>) =>
    async (...args: unknown[]): Promise<void> => {
      const cmd = args[args.length - 1] as Command;
      const global = globalOptions(cmd, io);
      const cache = await useCache(global, io, args[args.length - 2]);
      try {
        result.code = await body({ global, io }, ...(args.slice(0, -1) as A));
      } finally {
        if (global.detail === 'verbose') for (const line of cacheSummary(cache.openedCaches())) io.err(terminalSafe(line));
        cache.configureCache({ enabled: false }); // the setting is this run's: a library caller after it writes nothing
      }
    };

  // pinwatch check (the default command): lint + stale in one report, one exit code.
  checkFlags(program.command('check').description('lint + stale in one report (the default command): the one job CI runs'))
    // PR mode and adoption (issue 14): --base REV judges only what the PR adds; --write-baseline accepts today's findings
    .option('--base <rev>', "PR mode: lint findings only where new relative to REV's tree; stale counts only REV's commits, the PR's own are rebuild-needed")
    .addOption(new Option('--write-baseline [file]', `record every current finding, lint and stale, in a baseline (default: config baseline or ${DEFAULT_BASELINE_FILE}) and exit 0`))
    .option('--sarif <file>', 'also write the findings as SARIF to FILE (same run; for code scanning upload)')
    .option('--html <file>', 'also write the HTML report to FILE (same run, as pinwatch report --html)')
    .action(
    run(async (ctx, flags: CheckFlags) => (await import('./commands/check.js')).runCheck(ctx, flags)),
  );

  // pinwatch scan: every pin in the tree, all shapes, with form and first-party flag.
  program
    .command('scan')
    .description('list every image pin in the tree (all storage shapes), with its form and first-party flag')
    .configureHelp({ showGlobalOptions: true })
    .option('--kustomize', 'also list every root kustomize overlay and the ref each container image deploys (json always has them)')
    .action(run(async (ctx, flags: { kustomize?: boolean }) => (await import('./commands/scan.js')).runScan(ctx, flags)));

  // pinwatch lint: the invariants. `--write-baseline [FILE]` records today's findings so only new ones fail.
  program
    .command('lint')
    .description('check the pin invariants: tag+digest, no latest, one digest per repository, one built producer per key, lockstep keys')
    .addOption(new Option('--write-baseline [file]', `record the current findings in a baseline (default: config baseline or ${DEFAULT_BASELINE_FILE}) and exit 0`))
    .option('--baseline <file>', 'baseline file to apply (default: config baseline, else .pinwatch-baseline.json when present)')
    .option('--no-baseline', 'ignore any baseline: report every finding')
    .action(run(async (ctx, flags: LintFlags) => (await import('./commands/lint.js')).runLint(ctx, flags)));

  // pinwatch stale: per first-party image, the build commit, the method, and the merged commits it does not ship.
  registryFlags(
    program
      .command('stale')
      .description('per first-party image: which commit it was built from (and how we know), and the merged commits to its build inputs it does not ship')
      .argument('[images...]', 'only these images (short name or repository)')
      .option('--fail-on-stale <when>', 'exit 1 when an image lacks a merged fix (fix), any commit (any), any commit or cannot be judged (unknown), or never', 'fix')
      .option('--max-age <days>', 'fail only when the oldest counted unshipped commit is older than DAYS')
      .option('--allow-shallow', 'a shallow clone that leaves images unjudged is not refused (exit 2); they count only under --fail-on-stale unknown')
      .option('--registry', 'ask the registry for the image revision label first (network)'),
  ).action(run(async (ctx, images: string[], flags: StaleFlags) => (await import('./commands/stale.js')).runStale(ctx, images, flags)));

  // pinwatch explain IMAGE: pins, producers, recipe, build inputs, provenance steps and unshipped commits of one image.
  registryFlags(
    program
      .command('explain')
      .description('show how pinwatch sees one image: pins, producer, build recipe, build inputs, provenance steps, unshipped commits')
      .argument('<image>', 'repository, or its last path component, or the pinwatch.yaml images key')
      .option('--registry', 'ask the registry for the image revision label first (network)'),
  ).action(run(async (ctx, image: string, flags: ExplainFlags) => (await import('./commands/explain.js')).runExplain(ctx, image, flags)));

  // pinwatch affected --base REV: the first-party images whose build inputs changed since REV, as a CI build matrix.
  program
    .command('affected')
    .description('first-party images whose build inputs changed between the merge base of REV and HEAD (a CI build matrix)')
    .requiredOption('--base <rev>', 'revision to compare with (git diff REV...HEAD semantics)')
    .option('--unknown <mode>', 'images whose build inputs are unknown: include (default, to be safe) or exclude', 'include')
    .action(run(async (ctx, flags: AffectedFlags) => (await import('./commands/affected.js')).runAffected(ctx, flags)));

  // pinwatch overlay --from DIR: an artifact's current-main refs onto the checkout where every difference is a ref.
  program
    .command('overlay')
    .description('put freshly built current-main refs from an artifact tree onto the checkout, only where every differing line is a ref; name every drift')
    .option('--from <dir>', 'artifact tree (same layout as the checkout, or as --at) whose pins name the images just built')
    .option('--at <subdir>', 'the checkout subdirectory the artifact root stands for (e.g. packages)')
    .option('--built <dirs>', 'dirs rebuilt by this PR: skipped (JSON array or comma/space/newline list; repeatable)', repeatable)
    .option('--touched <dirs>', 'dirs edited by this PR: skipped, their refs are its intent (repeatable)', repeatable)
    .option('--owned <dirs>', 'dirs owned by another job: skipped (repeatable)', repeatable)
    .option('--dry-run', 'print a unified diff of what would change; write nothing')
    .option('--fail-on-drift', 'exit 1 when any file drifted')
    .option('--ignore-comments', 'comment-only differences do not count as drift')
    .option('--list-same', 'text format: name every byte-identical file too')
    .action(run(async (ctx, flags: OverlayFlags) => (await import('./commands/overlay.js')).runOverlayCommand(ctx, flags)));

  // pinwatch repin IMAGE --to REF | --to-tag TAG: move every pin of a repository, byte-minimal, then rescan.
  registryFlags(
    program
      .command('repin')
      .description('rewrite every pin of IMAGE (all shapes, lockstep keys included) to a new ref with byte-minimal edits, then rescan')
      .argument('[image]', 'repository (ghcr.io/acme/app) or a configured image name (not with --from-build-metadata)')
      .option('--to <ref>', 'the new ref: REPO:TAG@DIGEST (a missing digest is resolved through the registry)')
      .option('--to-tag <tag>', 'the new tag; its digest is resolved through the registry')
      .option('--dry-run', 'print the unified diff and write nothing')
      .option('--only-forward', "refuse unless the new image's build commit descends from the pinned image's")
      .option('--from-build-metadata <files...>', 'repin every image these files (or every file in these folders) name: docker buildx/bake --metadata-file JSON or ko --image-refs'),
  ).action(run(async (ctx, image: string | undefined, flags: RepinFlags) => (await import('./commands/repin.js')).runRepin(ctx, image, flags)));

  // pinwatch inspect REF: what the registry says about an image — digest, platforms, labels, build commit.
  registryFlags(
    program
      .command('inspect')
      .description('show what the registry says about an image: digest, platforms, labels, and the commit it was built from')
      .argument('<ref>', 'image reference, e.g. ghcr.io/acme/app:v1.2.0 or …@sha256:…'),
  ).action(run(async (ctx, ref: string, flags: RegistryFlags) => (await import('./commands/inspect.js')).runInspect(ctx, ref, flags)));

  // pinwatch running --pods FILE|DIR|- | --kubectl: what the cluster runs against the pins and the history.
  registryFlags(
    program
      .command('running')
      .description("what the cluster runs: each container's image, the commit its running digest was built from, and how it stands against the pin and HEAD")
      .option('--pods <path>', 'kubectl get pods -o json|yaml output: a file, a folder of them (an e2e report bundle), or - for stdin')
      .option('--kubectl', 'run kubectl get pods -o json (kubectl on PATH)')
      .option('--context <name>', 'with --kubectl: the kubeconfig context')
      .option('-n, --namespace <ns>', 'with --kubectl: only this namespace')
      .option('-A, --all-namespaces', 'with --kubectl: every namespace')
      .option('--fail-on-running <when>', 'exit 1 when a first-party container runs older/diverged or lacks a merged fix (fix), any commit (any), or never', 'fix')
      .option('--registry', 'ask the registry: match platform digests to their index, read revision labels of builds never pinned (network)'),
  ).action(run(async (ctx, flags: RunningFlags) => (await import('./commands/running.js')).runRunning(ctx, flags)));

  // pinwatch report --html FILE: the check pipeline as one self-contained HTML dashboard; exit code as check.
  checkFlags(
    program
      .command('report')
      .description('write the check results as one self-contained HTML dashboard (no JavaScript, no network)')
      .option('--html <file>', 'write the HTML report to FILE (atomically)')
      .option('--pods <path>', 'also show what the cluster runs, from this pod list (as running --pods)'),
  ).action(run(async (ctx, flags: ReportFlags) => (await import('./commands/report.js')).runReport(ctx, flags)));

  // pinwatch triage [FILE…|-]: each log line's source literal, the images that compile it, and whether their builds lack a change to it.
  program
    .command('triage')
    .description('is this red lane version skew? match log lines to the string literals of the first-party images\' sources, and tell what each pinned build lacks')
    .argument('[files...]', 'log files to read (none, or -, reads standard input)')
    .option('--since <rev|date>', 'start of the history window (default: the oldest pinned build commit)')
    .option('--min-literal <n>', 'constant characters a literal needs to be matched (outside %s/%v/… holes)', '12')
    // triage --pods FILE|DIR|- | --kubectl: judge the builds the cluster runs (as running) instead of the pins'
    .option('--pods <path>', "judge what runs instead of the pins: kubectl get pods -o json|yaml output (a file, a folder, or -), as running --pods")
    .option('--kubectl', 'judge what runs instead of the pins: run kubectl get pods -o json (kubectl on PATH)')
    .option('--context <name>', 'with --kubectl: the kubeconfig context')
    .option('-n, --namespace <ns>', 'with --kubectl: only this namespace')
    .option('-A, --all-namespaces', 'with --kubectl: every namespace')
    .action(run(async (ctx, files: string[], flags: TriageFlags) => (await import('./commands/triage.js')).runTriage(ctx, files, flags)));
  // pinwatch promote --tag TAG: tag every pinned first-party digest TAG (plan, refuse on conflict or doubt, apply, verify).
  registryFlags(
    program
      .command('promote')
      .description('tag every first-party digest pinned in the tree TAG in its repository: plan first (absent/already/conflict), then tag and verify')
      .option('--tag <tag>', 'the release tag (write-once: a tag at another digest refuses the whole promotion)')
      .option('--move <tag>', 'also move this mutable tag (like latest) when TAG is the highest semver of the repository (repeatable)', repeatable)
      .option('--force-move', 'move the --move tags whatever the semver rule says')
      .option('--rewrite', 'after every tag is verified, rewrite the tag strings of the promoted pins to TAG (digests untouched)')
      .option('--from-tag <tag>', "with --rewrite, rewrite only pins tagged TAG0 (the release candidate's tag); component-versioned pins keep theirs")
      .option('--dry-run', 'plan against the registry and print the rewrite diff; write nothing'),
  ).action(run(async (ctx, flags: PromoteFlags) => (await import('./commands/promote.js')).runPromote(ctx, flags)));

  // pinwatch mirror --from PREFIX --to PREFIX: copy every first-party image pinned under one prefix to another, by digest.
  registryFlags(
    program
      .command('mirror')
      .description('copy every first-party image pinned under --from to the same path under --to by digest (index, children, config, layers), verify, optionally rewrite the tree')
      .option('--from <prefix>', 'source registry prefix, like ghcr.io/acme/ci')
      .option('--to <prefix>', 'destination registry prefix, like registry.example.com/acme')
      .option('--tag <tag>', "tag the copies TAG (repeatable; default: the pins' own tags)", repeatable)
      .option('--referrers', 'also copy the referrers (signatures, SBOMs, attestations) of every manifest copied')
      .option('--rewrite', 'after every copy is verified, rewrite every pin of the mirrored images to the destination (every shape)')
      .option('--dry-run', 'copy nothing; print the rewrite diff and the postcondition'),
  ).action(run(async (ctx, flags: MirrorFlags) => (await import('./commands/mirror.js')).runMirror(ctx, flags)));

  // pinwatch compare --from DIR: the promotion verifier, per file same / tags-only / digests / drift.
  program
    .command('compare')
    .description('compare the tree with another tree file by file: same, tags-only (a correct promotion), digests (different bytes) or drift')
    .option('--from <dir>', 'the other tree (an extracted artifact or another checkout)')
    .option('--allow-digests', 'a file whose digests differ does not fail')
    .option('--allow-drift', 'a file that drifted (or exists on one side only) does not fail')
    .option('--list-same', 'text format: name every identical file too')
    .action(run(async (ctx, flags: CompareFlags) => (await import('./commands/compare.js')).runCompare(ctx, flags)));

  // pinwatch cache info|clear: the repository's persistent cache (scan results and recipe models by content).
  program
    .command('cache')
    .description("show (info) or remove (clear) this repository's persistent cache: scan results and recipe models kept by file content")
    .addArgument(new Argument('<action>', "info: where it is and what it holds (and the command's compile cache); clear: remove it (every version)").choices(['info', 'clear']))
    .action(run(async (ctx, action: CacheAction) => (await import('./commands/cache.js')).runCache(ctx, action)));

  // pinwatch demo: build the embedded demo monorepo and run `check` on it.
  program
    .command('demo')
    .description('build a small demo monorepo (real git history) in a temp folder and run `check` on it')
    .option('--dir <dir>', 'build the demo repo here instead of a new temp folder (must be empty)')
    .action(run(async (ctx, flags: DemoFlags) => (await import('./commands/demo.js')).runDemo(ctx, flags, rerun)));

  for (const sub of program.commands) {
    sub.exitOverride().configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(terminalSafe(s)) });
    const footer = helpFooter(sub.name());
    if (footer) sub.addHelpText('after', footer);
  }
  return program;
}
