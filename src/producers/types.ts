/**
 * Producers and build recipes discovered from build files (Makefiles, GitHub Actions workflows) or declared
 * in config. A producer stamps pins; a build recipe builds an image. Often one
 * Makefile target is both.
 */
import type { Problem } from '../model/index.js';


/** One place a recipe writes a ref to. */
export interface PinWrite {
  /** Repo-relative file the recipe writes. */
  file: string;
  /** Dot path without the leading dot (`objectstorage.controller.image`); absent for whole-file writes (`.tag`). */
  keyPath?: string;
  /** How it writes: `yq -i`, `sed -i`, shell redirect (`> x.tag`), or declared in config. */
  via: 'yq' | 'sed' | 'redirect' | 'declared';
  /** Writes in one recipe that share this id receive the same ref (lockstep). */
  refId: string;
  /** Where the write is spelled, for reports. */
  source: { file: string; line: number };
  /**
   * Set for a write that edits only the lines its pattern matches (`sed -i
   * 's|image: .*foo.*|…|'`): the 1-based lines of the file, as it is now, that
   * it edits. Pins on other lines of the file are not stamped by it.
   */
  lines?: number[];
  /** `file` is a glob (declared writes): it covers every file it matches (util/glob.ts). */
  glob?: boolean;
  /** Declared `{file, image}`: only pins of this repository (as written or normalised) are written. */
  image?: string;
  /** A declared whole-file write without an image: only first-party pins, each repository its own lockstep group. */
  firstPartyOnly?: boolean;
}

export interface Producer {
  /** `packages/core/platform/Makefile:image` */
  id: string;
  makefile: string;
  target: string;
  line: number;
  writes: PinWrite[];
  /** Reachable from the build entry point? */
  built: boolean;
  /** How it is reached: `Makefile:build → make -C packages/x image → image-controller`. */
  builtVia?: string[];
}

/** The kinds of build recipe pinwatch reads (docs/recipes.md); each has a reader behind this one model. */
export type RecipeKind = 'make' | 'github-actions' | 'bake' | 'compose' | 'goreleaser';

export interface BuildRecipe {
  /** Which reader found it: `make` (a Makefile target) or `github-actions` (a workflow step). Absent means `make`. */
  kind?: RecipeKind;
  /** The file the recipe is read from: the Makefile, or the workflow for `github-actions` (the name is historical). */
  makefile: string;
  /** The Makefile target, or the workflow step: `jobs.<id> step "<name>"` and its matrix combination. */
  target: string;
  /** Line of the build: its recipe line, or the workflow step's `uses:`/`run:` line. */
  line: number;
  /** Repo-relative Dockerfile (default `<context>/Dockerfile`). */
  dockerfile: string;
  /** Repo-relative build context directory. */
  context: string;
  /** `--target` stage, if any. */
  stage?: string;
  /** Repositories the recipe tags (expanded, without tag), e.g. `ghcr.io/acme/billing`. */
  repositories: string[];
  /** Pins this recipe stamps with the image it builds. */
  stamps: PinWrite[];
  /** The expanded command line, for `explain`. */
  command: string;
  /**
   * Inputs the recipe itself adds beside its Dockerfile's: a file a build arg
   * reads (`--build-arg V=$(cat .go-version)`), goreleaser `extra_files` and
   * config, or (`go: true`) a Go main package a binary in the image is built
   * from, whose import closure counts. Absent: none.
   */
  inputs?: RecipeInput[];
}

/** One input a recipe names (repo-relative). */
export interface RecipeInput {
  path: string;
  /** `file`: exactly this file; `tree`: the directory and everything below; absent: inferred. */
  kind?: 'file' | 'tree';
  /** A Go main package directory: its in-module import closure and module files are the inputs. */
  go?: boolean;
  /** Why it is an input, with where the recipe says so: `build arg GO_VERSION reads it (Makefile:12)`. */
  why: string;
}

export interface BuildModel {
  entry: string;
  producers: Producer[];
  recipes: BuildRecipe[];
  problems: Problem[];
  /** Vendored directories (`vendor/`, `third_party/`, `node_modules/`) whose files were not read for recipes or producers, sorted. */
  vendored?: string[];
}
