/**
 * Where a Go package lives for ko: the module (nearest go.mod at or above a
 * directory), a package directory's import path, and the directory of an
 * import path inside the module. Reads only go.mod `module` lines.
 */
import { readFileSync, statSync } from '../../util/tracked-fs.js';
import * as path from 'node:path';

export interface GoModule {
  /** Absolute directory holding go.mod. */
  dir: string;
  /** Its module path. */
  path: string;
}

function isFile(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}

/** The module at or above `dir` (absolute), not above `root`; undefined when none or unreadable. */
export function moduleAt(root: string, dir: string): GoModule | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    const file = path.join(d, 'go.mod');
    if (isFile(file)) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        return undefined;
      }
      const m = /^\s*module\s+("?)([^\s"]+)\1/m.exec(text);
      return m ? { dir: d, path: m[2]! } : undefined;
    }
    if (d === root || path.dirname(d) === d || !d.startsWith(root)) return undefined;
  }
}

/** The import path of the package in `dir` (absolute), within module `mod`. */
export function importPathOf(mod: GoModule, dir: string): string {
  const rel = path.relative(mod.dir, dir).split(path.sep).join('/');
  return rel === '' ? mod.path : `${mod.path}/${rel}`;
}

/** The absolute directory of `importPath` when it is inside module `mod`. */
export function dirOfImport(mod: GoModule, importPath: string): string | undefined {
  if (importPath === mod.path) return mod.dir;
  if (!importPath.startsWith(`${mod.path}/`)) return undefined;
  return path.join(mod.dir, importPath.slice(mod.path.length + 1));
}
