/**
 * The standing hostile suite (issue 16): every case of corpus.ts through the real
 * CLI (`node bin/pinwatch.js`, built dist/), as CI would run it on an attacker's
 * pull request. For every run: exit 0, 1 or 2 only; no stack trace and no
 * internal error; no secret from the environment in any output; within a time
 * cap. For every case: nothing outside the repository written, nothing of the
 * jail's sentinel file in any output, and every wanted file accounted for (a pin,
 * a skip or a problem). The counts are printed at the end (README, Reliability).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CASES, SECRET, type Built } from './corpus.js';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/pinwatch.js');
const CAP_MS = 30_000;
const SENTINEL = 'outside-sentinel-9d1c: never read into output';
const COMMANDS: string[][] = [['scan', '--format', 'json'], ['lint'], ['check'], ['stale', '--fail-on-stale', 'any'], ['check', '--format', 'markdown']];

interface Run {
  args: string[];
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  ms: number;
}

const tally = { inputs: 0, runs: 0, exits: new Map<string, number>(), skips: new Map<string, number>(), writesOutside: 0 };

function runCli(args: string[], cwd: string): Promise<Run> {
  return new Promise((done) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, PINWATCH_HOSTILE_SECRET: SECRET, GITHUB_STEP_SUMMARY: '', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), CAP_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ args, code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), ms: Date.now() - t0 });
    });
  });
}

/** Every path and its content (or size) under `dir`, skipping `skip`; symlinks are not followed. */
function snapshot(dir: string, skip: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (full === skip) continue;
      // the persistent cache lives in the git common dir by design (shared by a clone's worktrees: README "Cache")
      if (full.endsWith(`${sep}.git${sep}pinwatch${sep}cache`)) continue;
      const st = statSync(full, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(full);
      else out.set(full, st.isFile() ? readFileSync(full, 'latin1') : `special:${st.mode}`);
    }
  };
  walk(dir);
  return out;
}

function accountedFiles(scanJson: string): Set<string> {
  try {
    const j = JSON.parse(scanJson) as { pins: { file: string }[]; skipped: { file: string; code: string }[]; problems: { file: string }[] };
    for (const s of j.skipped) tally.skips.set(s.code, (tally.skips.get(s.code) ?? 0) + 1);
    return new Set([...j.pins.map((p) => p.file), ...j.skipped.map((s) => s.file), ...j.problems.map((p) => p.file)]);
  } catch {
    return new Set();
  }
}

describe('hostile corpus through the CLI', () => {
  for (const c of CASES) {
    it(c.name, { timeout: CAP_MS * COMMANDS.length + 30_000 }, async () => {
      const jail = mkdtempSync(join(tmpdir(), 'pinwatch-hostile-'));
      mkdirSync(join(jail, 'outside'));
      writeFileSync(join(jail, 'outside/secret.yaml'), `image: ghcr.io/acme/stolen:v1\n# ${SENTINEL}\n`);
      let built: Built | undefined;
      try {
        built = await c.build(jail);
        tally.inputs++;
        const before = snapshot(jail, built.repo);
        const reports = new Map((built.reports ?? []).map((r) => [r, r.args] as const));
        for (const args of [...COMMANDS, ...reports.values()]) {
          const r = await runCli(args, built.repo);
          tally.runs++;
          const exit = r.signal ? `killed (${r.signal}, over ${CAP_MS / 1000} s)` : String(r.code);
          tally.exits.set(exit, (tally.exits.get(exit) ?? 0) + 1);
          const what = `${c.name}: pinwatch ${args.join(' ')}`;
          expect(r.signal, `${what} hung: killed after ${r.ms} ms`).toBeNull();
          expect([0, 1, 2], `${what} exited ${r.code}: ${r.stderr.slice(0, 400)}`).toContain(r.code);
          expect(r.stderr, `${what}: stack trace`).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
          expect(r.stderr, `${what}: internal error`).not.toMatch(/internal error/i);
          expect(r.stdout + r.stderr, `${what}: leaked the environment`).not.toContain(SECRET);
          expect(r.stdout + r.stderr, `${what}: read outside the repository`).not.toContain(SENTINEL);
          for (const [report] of [...reports].filter(([, a]) => a === args)) {
            for (const says of report.says) expect(r.stdout + r.stderr, `${what}: does not report the unreadable file`).toMatch(says);
          }
          if (args[0] === 'scan' && built.accounted && r.code !== 2) {
            const seen = accountedFiles(r.stdout);
            const missing = built.accounted.filter((f) => !seen.has(f));
            expect(missing, `${what}: wanted files neither scanned, skipped nor reported`).toEqual([]);
            if (built.minPins) expect((JSON.parse(r.stdout) as { pins: unknown[] }).pins.length, `${what}: pins missed`).toBeGreaterThanOrEqual(built.minPins);
          }
        }
        const after = snapshot(jail, built.repo);
        const changed = [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k));
        tally.writesOutside += changed.length;
        expect(changed, `${c.name}: written outside the repository`).toEqual([]);
      } finally {
        for (const s of built?.servers ?? []) s.close();
        rmSync(jail, { recursive: true, force: true });
      }
    });
  }
});

afterAll(() => {
  const exits = [...tally.exits].map(([k, v]) => `${k}: ${v}`).join(', ');
  const skips = [...tally.skips].map(([k, v]) => `${k} ${v}`).join(', ');
  console.log(`hostile suite: ${tally.inputs} inputs, ${tally.runs} runs; exits ${exits}; skips ${skips || 'none'}; ${tally.writesOutside} writes outside the repository`);
});
