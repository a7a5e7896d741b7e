#!/usr/bin/env node
/**
 * triage benchmark, three parts:
 *  A. index + history for the WHOLE tree of a repository (every Go/Python/shell/TS
 *     file at HEAD, one first-parent `log -p` over the window), with the git process count;
 *  B. 100,000 log lines matched against that index (formatted messages of its own
 *     literals, framed as klog/JSON/plain lines, plus noise);
 *  C. the whole `triageLog` (scan, stale, index, history, verdicts) on a 10,000-line
 *     log, and on a 100-line one to show the git process count does not move.
 *
 * Without --repo a synthetic monorepo is generated with `git fast-import`
 * (FILES Go files, COMMITS commits that replace messages, release-prep commits).
 *
 *   npm run build && node bench/triage-bench.mjs [--repo /work/real/cozystack] [--since REV] [--lines 100000] [--log-lines 10000]
 *     [--files 2000] [--commits 3000] [--keep]
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prng } from './prng.mjs';
import { opt } from './lib.mjs';

const args = process.argv.slice(2);
const LINES = Number(opt('lines', 100000));
const LOG_LINES = Number(opt('log-lines', 10000));
const FILES = Number(opt('files', 2000));
const COMMITS = Number(opt('commits', 3000));
const KEEP = args.includes('--keep');
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const lib = (p) => import(pathToFileURL(join(root, 'dist', p)).href);
const { readLiteralIndex, matchLog, triageLog, logLines } = await lib('triage/index.js');
const { loadConfig } = await lib('config/index.js');
const { gitStats } = await lib('git/run.js');

const WORDS = ['reconcile', 'bucket', 'claim', 'ledger', 'tenant', 'backup', 'strategy', 'driver', 'webhook', 'secret', 'volume', 'cluster', 'snapshot', 'restore', 'quota', 'gateway', 'certificate', 'namespace'];

function synthetic() {
  const rand = prng(7);
  const word = () => WORDS[Math.floor(rand() * WORDS.length)];
  const message = (f, k, gen) => `${word()} ${word()} %s for ${word()} %q failed after %d attempts (file ${f} slot ${k} gen ${gen})`;
  const goFile = (f, msgs) => `package p${f % 50}\n\nimport "fmt"\n\n${msgs.map((m, k) => `func f${k}(a string, b string, n int) error {\n\treturn fmt.Errorf("${m}", a, b, n)\n}\n`).join('\n')}`;
  const parts = [];
  const data = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  const file = (path, content) => `M 100644 inline ${path}\n${data(content)}`;
  let mark = 0;
  let t = Date.parse('2025-01-01T00:00:00Z') / 1000;
  const commit = (msg, files) => {
    mark++;
    t += 600;
    parts.push(`commit refs/heads/main\nmark :${mark}\nauthor Bench <bench@example.test> ${t} +0000\ncommitter Bench <bench@example.test> ${t} +0000\n${data(msg)}${mark > 1 ? `from :${mark - 1}\n` : ''}${files.join('')}`);
  };
  const msgs = Array.from({ length: FILES }, (_, f) => Array.from({ length: 10 }, (_, k) => message(f, k, 0)));
  const digest = (r) => `sha256:${createHash('sha256').update(`r${r}`).digest('hex')}`;
  const values = (r) => `app:\n  image: "ghcr.io/bench/app:v0.${r}.0@${digest(r)}"\n`;
  commit('initial tree', [
    file('pinwatch.yaml', 'firstParty: [ghcr.io/bench/]\nimages:\n  app:\n    repository: ghcr.io/bench/app\n    derive: false\n    inputs: [src/]\n'),
    ...msgs.map((m, f) => file(`src/p${f % 50}/f${f}.go`, goFile(f, m))),
  ]);
  commit('Prepare release v0.0.0', [file('charts/app/values.yaml', values(0))]);
  for (let c = 0; c < COMMITS; c++) {
    const f = Math.floor(rand() * FILES);
    const k = Math.floor(rand() * 10);
    msgs[f][k] = message(f, k, c + 1);
    commit(`fix(p${f % 50}): reword slot ${k} of f${f} (#${1000 + c})`, [file(`src/p${f % 50}/f${f}.go`, goFile(f, msgs[f]))]);
    if ((c + 1) % 1000 === 0 && c + 1 < COMMITS) commit(`Prepare release v0.${(c + 1) / 1000}.0`, [file('charts/app/values.yaml', values((c + 1) / 1000))]);
  }
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-triage-bench-'));
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: parts.join('') });
  execFileSync('git', ['checkout', '-q', 'main'], { cwd: dir });
  return dir;
}

const given = opt('repo', undefined);
const t0 = performance.now();
const repo = given ?? synthetic();
if (!given) console.log(`generated ${FILES} Go files x 10 messages, ${COMMITS} commits in ${Math.round(performance.now() - t0)} ms: ${repo}`);
const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
const count = Number(execFileSync('git', ['rev-list', '--count', '--first-parent', 'HEAD'], { cwd: repo, encoding: 'utf8' }));
const since = opt('since', undefined) ?? execFileSync('git', ['rev-parse', `HEAD~${Math.min(count - 1, given ? 1000 : COMMITS)}`], { cwd: repo, encoding: 'utf8' }).trim();

// A. the whole tree
const everything = [{ name: 'whole-tree', repository: 'bench/whole-tree', contains: () => true, lacks: [] }];
/** CPU time of this process since `c` (ms): on a shared machine the wall clock says more about the neighbours. */
const cpu = (c) => {
  const u = process.cpuUsage(c);
  return Math.round((u.user + u.system) / 1000);
};
let p = gitStats.processes;
let t = performance.now();
let c0 = process.cpuUsage();
const { index, commits } = await readLiteralIndex(repo, head, everything, [`^${since}`]);
const indexMs = Math.round(performance.now() - t);
const indexCpu = cpu(c0);
console.log(`A. whole tree: ${index.files} files, ${index.entries.length} literals (${index.removed} removed in the window), ${commits} first-parent commits of history since ${since.slice(0, 10)}: ${indexMs} ms wall, ${indexCpu} ms CPU, ${gitStats.processes - p} git processes`);

// B. 100,000 lines
const rand = prng(11);
const filler = ['"Redis"', 'acme', '42', 'ns/claim-7', 'context deadline exceeded'];
const formatted = (e) => e.pattern.fragments.join(filler[Math.floor(rand() * filler.length)]);
const frames = [(m) => `E0915 08:09:00.000000       1 x.go:12] ${m}`, (m) => JSON.stringify({ level: 'error', ts: '2026-09-15T08:09:00Z', msg: 'Reconciler error', error: m }), (m) => `2026-09-15T08:09:00.123Z ERROR ${m}`, (m) => m];
const noise = (i) => `2026-09-15T08:09:${String(i % 60).padStart(2, '0')}Z INFO step ${i}: waiting for resource ${i % 97} to become ready (attempt ${i % 7})`;
const make = (n) => Array.from({ length: n }, (_, i) => {
  if (rand() < 0.5 || index.entries.length === 0) return { source: 'bench', lineNumber: i + 1, text: noise(i) };
  const e = index.entries[Math.floor(rand() * index.entries.length)];
  return { source: 'bench', lineNumber: i + 1, text: frames[i % frames.length](formatted(e)) };
});
const lines = make(LINES);
t = performance.now();
c0 = process.cpuUsage();
const matched = matchLog(index, lines);
const matchMs = Math.round(performance.now() - t);
const matchCpu = cpu(c0);
const hit = matched.filter((m) => m.hits.length > 0).length;
console.log(`B. ${LINES} log lines matched in ${matchMs} ms wall, ${matchCpu} ms CPU (${Math.round((LINES / Math.max(matchMs, 1)) * 1000)} lines/s): ${hit} matched a literal, prefilter of ${index.prefilter.states} states`);

// C. the whole triage
const config = loadConfig(repo);
const log = make(LOG_LINES).map((l) => l.text).join('\n');
const tenth = Math.max(1, Math.floor(LOG_LINES / 10));
// the smaller run first: the first run in a process also pays one-time lookups (their git processes are not per line)
await triageLog(repo, config, logLines([['warm.log', 'x\n']]));
const small = await triageLog(repo, config, logLines([['small.log', `${log.split('\n').slice(0, tenth).join('\n')}\n`]]));
t = performance.now();
c0 = process.cpuUsage();
const full = await triageLog(repo, config, logLines([['bench.log', `${log}\n`]]));
const fullMs = Math.round(performance.now() - t);
const fullCpu = cpu(c0);
console.log(`C. triage of a ${LOG_LINES}-line log: ${fullMs} ms wall (${fullCpu} ms CPU in pinwatch, git's own not counted), ${full.gitProcesses} git processes (${tenth} lines: ${small.gitProcesses}); ${full.summary.matched} matched: ${full.summary.skew} skew, ${full.summary.noSkew} no-skew, ${full.summary.unknown} unknown; phases ${JSON.stringify(full.timings)}`);
if (full.gitProcesses !== small.gitProcesses) {
  console.error('the git process count depends on the log size');
  process.exitCode = 1;
}
if (!given && !KEEP) rmSync(repo, { recursive: true, force: true });
