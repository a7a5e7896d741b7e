/**
 * Test support: collects the shared cozystack fixture (values files, tag files,
 * the multus text file) exactly as a pinwatch config for that tree would declare it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isFirstParty, type Pin, type Problem } from '../../model/index.js';
import { collectFile, type FileKind } from '../index.js';

export const COZYSTACK_FIXTURE = resolve(process.cwd(), '../shared/fixtures/cozystack-3c780acd4');
export const COZYSTACK_FIRST_PARTY = ['ghcr.io/cozystack/cozystack/'];
export const MULTUS_FILE = 'packages/system/multus/templates/multus-daemonset-thick.yml';

export interface CollectedTree {
  files: { path: string; kind: FileKind; text: string }[];
  pins: Pin[];
  problems: Problem[];
  scraped: string[];
}

/** The declared files of the fixture, sorted, with their kinds. */
export function cozystackFiles(root = COZYSTACK_FIXTURE): { path: string; kind: FileKind }[] {
  if (!existsSync(root)) {
    throw new Error(`the cozystack fixture is missing: expected it at ${root} (../shared/fixtures/cozystack-3c780acd4 relative to the repo root)`);
  }
  const out: { path: string; kind: FileKind }[] = [];
  for (const group of readdirSync(join(root, 'packages')).sort()) {
    for (const pkg of readdirSync(join(root, 'packages', group)).sort()) {
      const base = `packages/${group}/${pkg}`;
      if (existsSync(join(root, base, 'values.yaml'))) out.push({ path: `${base}/values.yaml`, kind: 'yaml' });
      const images = join(root, base, 'images');
      if (existsSync(images)) {
        for (const f of readdirSync(images).sort()) if (f.endsWith('.tag')) out.push({ path: `${base}/images/${f}`, kind: 'tag' });
      }
    }
  }
  out.push({ path: MULTUS_FILE, kind: 'text' });
  return out;
}

export function collectCozystack(root = COZYSTACK_FIXTURE): CollectedTree {
  const tree: CollectedTree = { files: [], pins: [], problems: [], scraped: [] };
  for (const { path, kind } of cozystackFiles(root)) {
    const text = readFileSync(join(root, path), 'utf8');
    tree.files.push({ path, kind, text });
    const result = collectFile(kind, text, { file: path, isFirstParty: (name) => isFirstParty(name, COZYSTACK_FIRST_PARTY) });
    tree.pins.push(...result.pins);
    tree.problems.push(...result.problems);
    if (result.scrapedBecause) tree.scraped.push(path);
  }
  return tree;
}
