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
export type RecipeKind = 'make' | 'github-actions' | 'bake' | 'compose' | 'goreleaser' | 'skaffold' | 'cloudbuild';

/**
 * An image ko builds (`ko build`, a `ko://` ref that `ko resolve` replaces, a
 * Skaffold `ko:` artifact): no Dockerfile; its inputs are the Go import closure
 * of the main package, the module files and the ko config (sources/go/ko.ts).
 */
export interface KoBuild {
  /** Repo-relative directory of the main package. */
  main: string;
  /** Its Go import path, when the module is known. */
  importPath?: string;
  /** Repo-relative directory of the Go module (its go.mod), when found. */
  moduleDir?: string;
  /** The `.ko.yaml` that configures the build (repo-relative), when there is one. */
  config?: string;
  /** Base image: `.ko.yaml` baseImageOverrides / defaultBaseImage (Skaffold fromImage), else ko's default. */
  baseImage: string;
  /** `builds[].ldflags` of the matching `.ko.yaml` build, or the Skaffold artifact's. */
  ldflags?: string[];
}

export interface BuildRecipe {
  /** Which reader found it: `make` (a Makefile target), `github-actions` (a workflow step), `bake` (a bake target), `compose` (a service), `goreleaser` (a docker entry), `skaffold` (an artifact), `cloudbuild` (a step). Absent means `make`. */
  kind?: RecipeKind;
  /** The file the recipe is read from: the Makefile, or the workflow for `github-actions` (the name is historical). */
  makefile: string;
  /** The Makefile target, or the workflow step: `jobs.<id> step "<name>"` and its matrix combination. */
  target: string;
  /** Line of the build: its recipe line, or the workflow step's `uses:`/`run:` line. */
  line: number;
  /** The file `line` is in when it is not `makefile`: a rule written in an included makefile (`docker/docker.mk`). */
  lineIn?: string;
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
  /** Set when ko builds the image (then `dockerfile` is '' and `context` the main package directory). */
  ko?: KoBuild;
  /** Set for a recipe read from a Skaffold profile (`profiles[].build`): the profile's name. */
  profile?: string;
}

/** One input a recipe names (repo-relative). */
export interface RecipeInput {
  path: string;
  /** `file`: exactly this file; `tree`: the directory and everything below; `glob`: a glob (`cp charts/*.yaml ctx/`); absent: inferred. */
  kind?: 'file' | 'tree' | 'glob';
  /** A Go main package directory: its in-module import closure and module files are the inputs. */
  go?: boolean;
  /** Why it is an input, with where the recipe says so: `build arg GO_VERSION reads it (Makefile:12)`. */
  why: string;
  /** The build arg whose value reads it: no input when the Dockerfile declares no `ARG` of that name (src/sources/derive.ts). */
  arg?: string;
  /** Set when the recipe copies or compiles it into this repo path before the build (producers/made.ts): a COPY of that path is known. */
  made?: string;
}

export interface BuildModel {
  entry: string;
  producers: Producer[];
  recipes: BuildRecipe[];
  problems: Problem[];
  /** Vendored directories (`vendor/`, `third_party/`, `node_modules/`) whose files were not read for recipes or producers, sorted. */
  vendored?: string[];
}

/** A `make …` a recipe runs: directory, `-f` file, targets and command-line variables. */
export interface SubMake {
  /** Absolute directory (`-C`), default the current one. */
  dir: string;
  /**
   * Set when `dir` was reached from an absolute spelling (`cd /tmp/x`, `-C /x`):
   * outside the repository it is shown as that path, not relative to wherever the
   * repository is checked out (a finding's text and fingerprint must not depend on it).
   */
  fromSlash?: true;
  /** `-f FILE`, absolute. */
  file?: string;
  targets: string[];
  variables: Record<string, string>;
  /** The shell's assignments before the call (`DAPR_TAG=v1 make …`, `REGISTRY=x $(MAKE) …`): make's environment, under the makefile's own assignments. */
  env?: Record<string, string>;
  source: { file: string; line: number };
}

/** A `make …` a recipe of another kind runs (a workflow `run:`, a Cloud Build step), to follow into the Makefile reader. */
export interface FollowedMake {
  make: SubMake;
  /** The environment the step runs make in. */
  env: Map<string, string>;
  /** Where it is run from, for `explain`: `.github/workflows/release.yaml:20 jobs.images step 2`. */
  label: string;
  kind: RecipeKind;
}

export interface RecipeReadOptions {
  /** pinwatch.yaml `buildEnv`: variables only the release environment sets (KO_DOCKER_REPO, SKAFFOLD_DEFAULT_REPO, PROJECT_ID…). */
  env?: ReadonlyMap<string, string>;
  /** Receives the `make` invocations the file's steps run. */
  makes?: FollowedMake[];
}
