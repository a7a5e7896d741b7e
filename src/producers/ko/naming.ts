/**
 * The repository ko pushes an image to: KO_DOCKER_REPO and the import path,
 * by ko's naming modes (`--bare`, `-B/--base-import-paths`,
 * `-P/--preserve-import-paths`, default: the last path element and the md5 of
 * the import path), as ko's `publish` package names them.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';

export type KoNaming = 'md5' | 'bare' | 'base' | 'preserve';

export function koRepository(dockerRepo: string, importPath: string, naming: KoNaming): string {
  const base = dockerRepo.replace(/\/+$/, '');
  const last = path.posix.basename(importPath);
  switch (naming) {
    case 'bare':
      return base.toLowerCase();
    case 'base':
      return `${base}/${last}`.toLowerCase();
    case 'preserve':
      return `${base}/${importPath}`.toLowerCase();
    case 'md5':
      return `${base}/${last}-${createHash('md5').update(importPath).digest('hex')}`.toLowerCase();
  }
}

/** The naming mode a ko command line asks for (the last flag wins, as ko's flag parsing does). */
export function namingOf(flags: readonly string[]): KoNaming {
  let naming: KoNaming = 'md5';
  for (const f of flags) {
    const [name, value] = f.split('=', 2) as [string, string?];
    if (value === 'false') continue;
    if (name === '--bare') naming = 'bare';
    else if (name === '-B' || name === '--base-import-paths') naming = 'base';
    else if (name === '-P' || name === '--preserve-import-paths') naming = 'preserve';
  }
  return naming;
}
