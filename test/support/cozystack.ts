/**
 * Test support: locates the shared cozystack fixture (a real tree at 3c780acd4,
 * kept beside the checkout in ../shared/fixtures) and collects it (values files,
 * tag files, the multus text file) exactly as a pinwatch config for that tree would declare it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isFirstParty, type Pin, type Problem } from '../../src/model/index.js';
import { collectFile, type FileKind } from '../../src/collect/index.js';

/** Resolved from this file, not the working directory: `<checkout>/../shared/fixtures/cozystack-3c780acd4`. */
export const COZYSTACK_FIXTURE = fileURLToPath(new URL('../../../shared/fixtures/cozystack-3c780acd4', import.meta.url));
export const COZYSTACK_FIRST_PARTY = ['ghcr.io/cozystack/cozystack/'];
export const MULTUS_FILE = 'packages/system/multus/templates/multus-daemonset-thick.yml';

export interface CollectedTree {
  files: { path: string; kind: FileKind; text: string }[];
  pins: Pin[];
  problems: Problem[];
  scraped: string[];
}

/** The declared files of the fixture, sorted, with their kinds. */
export function cozystackFiles(root = requireCozystackFixture()): { path: string; kind: FileKind }[] {
  requireCozystackFixture(root);
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

/** The fixture's root; throws a message saying where it was expected when it is missing. */
export function requireCozystackFixture(root = COZYSTACK_FIXTURE): string {
  if (!existsSync(join(root, 'packages'))) {
    throw new Error(
      `the cozystack fixture is missing: expected a cozystack checkout at 3c780acd4 in ${root} ` +
        '(../shared/fixtures/cozystack-3c780acd4 beside the pinwatch checkout; the realworld tests need it)',
    );
  }
  return root;
}

export function collectCozystack(root = requireCozystackFixture()): CollectedTree {
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
