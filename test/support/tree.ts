/** Temp trees for scan tests: write files (text or bytes) and symlinks, run the CLI in-process. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';
import { runCli as run, type CliRun } from './io.js';

export type { CliRun };

export interface Tree {
  dir: string;
  cleanup(): void;
}

export type Entry = string | Uint8Array | { symlink: string };

export function makeTree(files: Record<string, Entry>): Tree {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-scan-'));
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    if (typeof content === 'object' && 'symlink' in content) symlinkSync(content.symlink, full);
    else writeFileSync(full, content);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `pinwatch ARGS` in-process, from `cwd`. */
export function runCli(args: string[], cwd: string): Promise<CliRun> {
  return run(args, { cwd });
}

/** A `tree(files)` maker for one test file: every tree it makes is removed after each test. */
export function treesRemovedAfterEach(): (files: Record<string, Entry>) => Tree {
  const trees: Tree[] = [];
  afterEach(() => {
    for (const t of trees.splice(0)) t.cleanup();
  });
  return (files) => {
    const t = makeTree(files);
    trees.push(t);
    return t;
  };
}

export const SHA = (c: string, n = 64) => `sha256:${c.repeat(n)}`;
