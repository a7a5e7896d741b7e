/**
 * Finds the build files in the tree — every Makefile (`Makefile`, `makefile`,
 * `GNUmakefile`) and the files other recipe kinds match by name — in the one
 * listing of the tree (scan/recipe-tree.ts: `.git`, the vendored trees
 * `vendor/`, `third_party/`, `node_modules/` and the config's exclude globs left
 * out; the scan's walk records it when it runs first), and keeps one loaded
 * reader per (Makefile, directory, command-line variables, environment), all
 * reading through one per-run memo of file texts and existence.
 */
import * as path from 'node:path';
import { listRecipeTree, type RecipeTree } from '../scan/recipe-tree.js';
import { MAKEFILE_NAMES } from './finders.js';
import { expandRecipe, loadMakefile, readerWithEnvironment, repoFileSystem, type ExpandedRecipe, type MakeFileSystem, type MakeReader } from '../make/index.js';

export { excludeMatcher, listRecipeTree, type RecipeTree } from '../scan/recipe-tree.js';
export { findFilesNamed, findMakefiles } from './finders.js';

/** The Makefile `make` reads in a directory: GNUmakefile, makefile, Makefile. */
export function defaultMakefileIn(dirAbs: string, exists: (abs: string) => boolean): string | undefined {
  return MAKEFILE_NAMES.map((n) => path.join(dirAbs, n)).find(exists);
}

const expansions = new WeakMap<MakeReader, Map<string, ExpandedRecipe | undefined>>();

/**
 * A target's recipe expanded once per reader: the build-graph walk, the Makefile reading and the followed
 * walk's recipes all ask for the same targets of the same readers (expansion reads nothing but the reader).
 */
export function expandRecipeOnce(reader: MakeReader, target: string): ExpandedRecipe | undefined {
  let byTarget = expansions.get(reader);
  if (!byTarget) expansions.set(reader, (byTarget = new Map()));
  if (!byTarget.has(target)) byTarget.set(target, expandRecipe(reader, target));
  return byTarget.get(target);
}

/**
 * repoFileSystem with each answer kept for the run: a followed walk reads the same Makefiles and includes
 * once per CI-step environment, and the tree does not change while pinwatch reads it.
 */
export function memoFileSystem(fs: MakeFileSystem): MakeFileSystem {
  const texts = new Map<string, string | undefined>();
  const exists = new Map<string, boolean>();
  return {
    readFile(p) {
      if (!texts.has(p)) texts.set(p, fs.readFile(p));
      return texts.get(p);
    },
    exists(p) {
      let e = exists.get(p);
      if (e === undefined) exists.set(p, (e = fs.exists(p)));
      return e;
    },
  };
}

/** How many readers of the same Makefile a new environment's reader tries to be derived from before it is read. */
const MAX_DERIVE_TRIES = 4;

export class MakefileCache {
  private readonly readers = new Map<string, MakeReader>();
  /** The readers of each (Makefile, directory, command-line variables), with the environment each was read with. */
  private readonly siblings = new Map<string, { reader: MakeReader; environment: Record<string, string> | undefined }[]>();
  /** The one file system every reader of the run reads through (memoFileSystem). */
  readonly fs: MakeFileSystem;

  /**
   * `environment`: what make's environment holds when nothing else says (pinwatch.yaml `buildEnv`, the
   * release environment's KO_DOCKER_REPO…): the entry's walk and every Makefile read on its own get it;
   * a followed walk brings a CI step's environment, which holds it already (the step env wins there).
   */
  constructor(
    private readonly root: string,
    private readonly environment?: Record<string, string>,
  ) {
    this.fs = memoFileSystem(repoFileSystem(root));
  }

  /**
   * The reader of a Makefile run in `dir` with `variables` and `environment`. A followed walk asks for one
   * Makefile under many CI-step environments, which most Makefiles never look at: such a reader is derived from
   * one already read with another environment (readerWithEnvironment: the same reading, but for the environment
   * variables themselves) instead of read again.
   */
  get(absMakefile: string, dir = path.dirname(absMakefile), variables: Record<string, string> = {}, given?: Record<string, string>): MakeReader {
    const environment = given ?? this.environment;
    const group = `${absMakefile}\0${dir}\0${JSON.stringify(variables)}`;
    const key = `${group}${environment ? `\0${JSON.stringify(environment)}` : ''}`;
    let r = this.readers.get(key);
    if (!r) {
      const siblings = this.siblings.get(group) ?? [];
      for (const s of siblings.slice(0, MAX_DERIVE_TRIES)) if ((r = readerWithEnvironment(s.reader, s.environment, environment, { root: this.root, fs: this.fs }))) break;
      r ??= loadMakefile(absMakefile, { root: this.root, dir, variables, fs: this.fs, fsIsRepo: true, ...(environment ? { environment } : {}) });
      this.readers.set(key, r);
      siblings.push({ reader: r, environment });
      this.siblings.set(group, siblings);
    }
    return r;
  }

  all(): MakeReader[] {
    return [...this.readers.values()];
  }

  /**
   * `reader`'s Makefile read in the same directory without a call's variables (the environment every
   * Makefile read on its own gets): the reading producers/repo.ts compares a call's with. One already read
   * so is taken; another is kept apart from `all()`, whose problems are the build's.
   */
  plainOf(reader: MakeReader): MakeReader {
    const abs = path.join(this.root, reader.db.file);
    const key = `${abs}\0${reader.db.dir}\0{}${this.environment ? `\0${JSON.stringify(this.environment)}` : ''}`;
    let r = this.readers.get(key) ?? this.apart.get(key);
    if (!r) this.apart.set(key, (r = loadMakefile(abs, { root: this.root, dir: reader.db.dir, variables: {}, fs: this.fs, fsIsRepo: true, ...(this.environment ? { environment: this.environment } : {}) })));
    return r;
  }

  private readonly apart = new Map<string, MakeReader>();
}
