/**
 * Scan wider than you rewrite: after a repin, look for what it should have
 * removed. (1) Rescan the tree with the config (scanRepo) for any pin of the
 * repository still at an old digest. (2) Search every file of the working tree
 * (git ls-files: tracked and untracked-not-ignored; a plain walk outside git),
 * whatever the include globs say, for the old digests' hex, except where that
 * text is a pin of another repository sharing the digest.
 */
import { canonicalRepository } from '../config/aliases.js';
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Config } from '../config/types.js';
import { runGit } from '../git/run.js';
import type { Pin } from '../model/index.js';
import { scanRepo } from '../scan/index.js';
import type { Leftover } from './types.js';
import { readRegularFile } from '../util/safe-read.js';

const MAX_BYTES = 5 * 1024 * 1024;
const PRUNE = new Set(['.git', 'node_modules']);

/** Every file of the working tree: git ls-files (tracked and untracked-not-ignored), a plain walk outside git. */
export async function listFiles(root: string): Promise<string[]> {
  const r = await runGit(root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
  if (r.code === 0) return [...new Set(r.stdout.split('\0').filter(Boolean))];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (PRUNE.has(e.name)) continue;
      const abs = join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (e.isFile()) out.push(relative(root, abs).split(sep).join('/'));
    }
  };
  walk(root);
  return out;
}

export interface SweepInput {
  root: string;
  config: Config;
  repository: string;
  oldDigests: string[];
  /** New contents of files not yet written (dry run): file → text. */
  overlay?: Map<string, string>;
}

/** A pin of the repository moved, or of it under an `aliases` prefix (the same image). */
function sameImage(input: SweepInput, name: string): boolean {
  return name === input.repository || (name !== '' && canonicalRepository(name, input.config.aliases ?? {}) === input.repository);
}

/** Pins still at an old digest (after writing: from a real rescan). */
export async function rescanLeftovers(input: SweepInput): Promise<{ leftovers: Leftover[]; pins: Pin[] }> {
  const scan = await scanRepo(input.root, input.config);
  const leftovers = scan.pins
    .filter((p) => sameImage(input, p.ref.name) && p.ref.digest !== undefined && input.oldDigests.includes(p.ref.digest))
    .map((p): Leftover => ({ file: p.file, line: p.line, text: p.raw, kind: 'pin' }));
  return { leftovers, pins: scan.pins };
}

/** Old digests anywhere in the working tree's text, outside pins of other repositories. */
export async function textLeftovers(input: SweepInput, pins: Pin[], already: Leftover[]): Promise<Leftover[]> {
  if (input.oldDigests.length === 0) return [];
  const hexes = input.oldDigests.map((d) => d.slice(d.indexOf(':') + 1));
  const otherRepoLines = new Set(pins.filter((p) => !sameImage(input, p.ref.name)).map((p) => `${p.file}:${p.line}`));
  const known = new Set(already.map((l) => `${l.file}:${l.line}`));
  const out: Leftover[] = [];
  for (const file of await listFiles(input.root)) {
    const text = input.overlay?.get(file) ?? readSmallText(join(input.root, file));
    if (text === undefined || !hexes.some((h) => text.includes(h))) continue;
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      const where = `${file}:${i + 1}`;
      if (!hexes.some((h) => line.includes(h)) || otherRepoLines.has(where) || known.has(where)) return;
      out.push({ file, line: i + 1, text: line.trim().slice(0, 200), kind: 'text' });
    });
  }
  return out;
}

export function readSmallText(abs: string): string | undefined {
  const read = readRegularFile(abs, { maxBytes: MAX_BYTES, followSymlinks: true });
  if ('refused' in read || read.bytes.includes(0)) return undefined;
  return read.bytes.toString('utf8');
}
