/**
 * Real git repositories for tests, built in a temporary folder with fixed dates
 * so every sha is reproducible. No mocks: the code under test runs real git.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

export interface TestRepo {
  dir: string;
  /** Write files (path → content; null deletes) and commit them. Returns the new commit sha. */
  commit(files: Record<string, string | null>, message: string, options?: { date?: string; author?: string }): string;
  /** Run git in the repo and return trimmed stdout. */
  git(...args: string[]): string;
  write(files: Record<string, string | null>): void;
  cleanup(): void;
}

let clock = Date.parse('2026-01-01T00:00:00Z');

/** Make an empty repository on branch main. Dates advance by one hour per commit unless given. */
export function makeRepo(prefix = 'pinwatch-test-'): TestRepo {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const env = (date: string, author = 'Test Author <test@example.test>') => {
    const m = /^(.*) <(.*)>$/.exec(author);
    return {
      ...process.env,
      GIT_AUTHOR_NAME: m?.[1] ?? 'Test',
      GIT_AUTHOR_EMAIL: m?.[2] ?? 'test@example.test',
      GIT_COMMITTER_NAME: m?.[1] ?? 'Test',
      GIT_COMMITTER_EMAIL: m?.[2] ?? 'test@example.test',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: dir,
    };
  };
  const run = (args: string[], date = new Date(clock).toISOString()) =>
    execFileSync('git', args, { cwd: dir, env: env(date), encoding: 'utf8' }).trim();
  run(['init', '-q', '-b', 'main']);
  run(['config', 'commit.gpgsign', 'false']);
  const write = (files: Record<string, string | null>) => {
    for (const [path, content] of Object.entries(files)) {
      const full = join(dir, path);
      if (content === null) {
        try {
          unlinkSync(full);
        } catch {
          /* already gone */
        }
        continue;
      }
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
    }
  };
  return {
    dir,
    write,
    commit(files, message, options = {}) {
      write(files);
      clock += 3600_000;
      const date = options.date ?? new Date(clock).toISOString();
      run(['add', '-A']);
      execFileSync('git', ['commit', '-q', '--allow-empty', '-m', message], {
        cwd: dir,
        env: env(date, options.author),
      });
      return run(['rev-parse', 'HEAD']);
    },
    git: (...args: string[]) => run(args),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** `n` commits editing docs/long.md on top of HEAD, a second apart (one git fast-import), the work tree reset to them. */
export function filler(r: TestRepo, n: number): void {
  const head = r.git('rev-parse', 'HEAD');
  let t = Number(r.git('log', '-1', '--format=%ct', head));
  const parts: string[] = [];
  const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  for (let i = 0; i < n; i++) {
    t += 1;
    parts.push(`commit refs/heads/main\ncommitter Filler <filler@example.test> ${t} +0000\n${data(`docs: long note ${i}`)}${i === 0 ? `from ${head}\n` : ''}M 100644 inline docs/long.md\n${data(`${i}\n`)}`);
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: r.dir, input: `${parts.join('')}done\n`, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  r.git('reset', '-q', '--hard', 'main');
}

/** A `makeRepo(prefix)` for one test file: every repository it makes is removed after each test. */
export function reposRemovedAfterEach(prefix?: string): () => TestRepo {
  const made: TestRepo[] = [];
  afterEach(() => {
    for (const r of made.splice(0)) r.cleanup();
  });
  return () => {
    const r = makeRepo(prefix);
    made.push(r);
    return r;
  };
}
