/**
 * A pragmatic Make reader: read a Makefile (with its includes) into a database
 * of variables and rules, and expand a target's recipe with `$@` bound. What it
 * cannot know becomes a marker; what it cannot read becomes a problem.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { emptyDatabase, type MakeDatabase } from './database.js';
import { resolvesInside } from '../util/repo-path.js';
import { readRegularText } from '../util/safe-read.js';
import { MakeReader } from './reader.js';
import type { MakeFileSystem } from './types.js';

export const diskFileSystem: MakeFileSystem = {
  /** Only a regular file, size-capped (util/safe-read.ts): a FIFO or /dev/zero is unreadable, not a hang. */
  readFile(p) {
    const read = readRegularText(p, { followSymlinks: true });
    return 'text' in read ? read.text : undefined;
  },
  exists(p) {
    try {
      return existsSync(p) && statSync(p).isFile();
    } catch {
      return false;
    }
  },
};

/**
 * diskFileSystem limited to the repository: a Makefile or include that resolves
 * outside `root` (through a symlink) is unreadable and does not exist.
 */
export function repoFileSystem(root: string): MakeFileSystem {
  let rootReal: string;
  try {
    rootReal = realpathSync(root);
  } catch {
    rootReal = path.resolve(root);
  }
  const inside = (p: string) => resolvesInside(rootReal, path.resolve(p));
  return {
    readFile: (p) => (inside(p) ? diskFileSystem.readFile(p) : undefined),
    exists: (p) => inside(p) && diskFileSystem.exists(p),
  };
}

export interface LoadMakefileOptions {
  /** Absolute repository root (paths in the result are relative to it). */
  root: string;
  /** Directory make runs in; default the Makefile's directory. */
  dir?: string;
  /** Variables as given on the command line (`make X=y`). */
  variables?: Record<string, string>;
  /** The environment make runs in (a CI step's env): variables a Makefile assignment overrides and `?=` keeps. */
  environment?: Record<string, string>;
  fs?: MakeFileSystem;
}

/** Read one Makefile as `make -C DIR -f FILE` would, returning the reader (its `db` holds the result). */
export function loadMakefile(absPath: string, options: LoadMakefileOptions): MakeReader {
  const dir = options.dir ?? path.dirname(absPath);
  const rel = path.relative(options.root, absPath).split(path.sep).join('/');
  const db: MakeDatabase = emptyDatabase(rel, dir);
  db.vars.setSimple('CURDIR', dir, 'default');
  db.vars.setSimple('MAKE', 'make', 'default');
  db.vars.setSimple('SHELL', '/bin/sh', 'default');
  db.vars.setSimple('MAKEFLAGS', '', 'default');
  for (const [k, v] of Object.entries(options.environment ?? {})) db.vars.set(k, { flavor: 'simple', value: v, origin: 'environment', exported: true });
  for (const [k, v] of Object.entries(options.variables ?? {})) db.vars.set(k, { flavor: 'simple', value: v, origin: 'command line' });
  const reader = new MakeReader(db, { root: options.root, fs: options.fs ?? repoFileSystem(options.root) });
  reader.readFile(absPath);
  const goal = db.vars.get('.DEFAULT_GOAL')?.value.trim();
  if (goal) db.defaultGoal = goal;
  return reader;
}
