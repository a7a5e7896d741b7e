/** Temp trees for scan tests: write files (text or bytes) and symlinks, run the CLI in-process. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/context.js';

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

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export async function runCli(args: string[], cwd: string): Promise<CliRun> {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => void (out += t), err: (t) => void (err += t), env: {}, cwd };
  const code = await main(args, io);
  return { code, out, err };
}

export const SHA = (c: string, n = 64) => `sha256:${c.repeat(n)}`;
