/**
 * The scan walk kept per directory, so a walk again lists only the directories
 * whose reads changed (src/snapshot/ keeps the tree and checks its record). Each
 * directory's node holds what its own handling added to the walk's outputs (the
 * files to read, skipped files, exclusions, the recipe listing, extraFiles glob
 * hits), in order between the visits of its subdirectories, and the keys of the
 * paths that handling touched (its listing; its files, symlinks and their
 * targets), not those of its subdirectories. A directory none of whose own
 * reads changed is replayed: its outputs added again as they were, its reads
 * noted as they are now, each subdirectory visited as it was (replayed or
 * walked again in turn); any other is walked as always, with the kept nodes of
 * its subdirectories at hand. The outputs are then the ones a whole walk gives.
 */
import { noteReads, startLog, stopLog, type TouchedPath } from '../util/tracked-fs.js';
import type { ExclusionCounter } from './exclusions.js';
import type { RecipeTreeBuilder } from './recipe-tree.js';
import type { Candidate, SkippedFile } from './types.js';

/** One walkDir call's arguments besides the plan and the outputs. */
export interface WalkVisit {
  abs: string;
  absBytes?: Buffer;
  rel: string;
  excludedBy?: string;
  recipeRel?: string;
  scanned: boolean;
}

/** What a directory's own handling added, between two visits of its subdirectories. */
export interface WalkOwn {
  files?: Candidate[];
  skipped?: SkippedFile[];
  excluded?: [reason: string, example: string][];
  /** Recipe-listing files, by name in the visit's `recipeRel` (recipeNames) or, were one elsewhere, as listed (recipeFiles). */
  recipeNames?: string[];
  recipeFiles?: string[];
  vendored?: string[];
  /** extraFiles glob index → hits added. */
  hits?: [index: number, hits: number][];
}

export type WalkPart = { own: WalkOwn } | { visit: WalkVisit; node: WalkNode };

export interface WalkNode {
  /** Keys (tracked-fs keyOfTouched) of the paths this directory's own handling touched. */
  reads: string[];
  parts: WalkPart[];
}

/** A kept walk tree and its record's check: the paths that held, with today's stats (tracked-fs checkRecord `all`). */
export interface KeptWalkTree {
  root: WalkNode;
  held: ReadonlyMap<string, TouchedPath>;
}

/** The outputs a node adds to (the walk's result and its plan). */
export interface WalkOutputs {
  files: Candidate[];
  skipped: SkippedFile[];
  excluded: ExclusionCounter & { log: [string, string][] };
  recipes?: RecipeTreeBuilder;
  hits: { hits: number }[];
}

interface Mark {
  files: number;
  skipped: number;
  excluded: number;
  recipeFiles: number;
  vendored: number;
  hits: number[];
}

interface Frame {
  visit: WalkVisit;
  node: WalkNode;
  mark: Mark;
  /** Where in the log of keys touched this directory's current span began (undefined: paused, or a replay). */
  from: number | undefined;
  /** Its spans' keys so far. */
  own: Set<string>;
  /** The node's reads when it is replayed (kept, not logged). */
  reads?: string[];
}

/** A walk recording its tree (and, given a kept one, replaying each directory that still holds). */
export class WalkMemo {
  private readonly stack: Frame[] = [];
  /** The tree of the walk, once its root visit is done. */
  root: WalkNode | undefined;
  /** Directories walked again (their own reads changed, or none were kept) and replayed. */
  readonly counts = { walked: 0, replayed: 0 };

  constructor(
    private readonly out: WalkOutputs,
    private readonly kept?: KeptWalkTree,
  ) {}

  /** The kept node of the root visit, when there is a kept tree. */
  keptRoot(): WalkNode | undefined {
    return this.kept?.root;
  }

  /** The kept node for `visit` among the subdirectory visits of `parent` (the same arguments), if any. */
  keptChild(parent: WalkNode | undefined, visit: WalkVisit): WalkNode | undefined {
    if (!parent) return undefined;
    for (const part of parent.parts) if ('visit' in part && sameVisit(part.visit, visit)) return part.node;
    return undefined;
  }

  /** Whether a kept node's own reads all held: it can be replayed (a node of a walk nothing recorded has none: never). */
  holds(node: WalkNode): boolean {
    const held = this.kept?.held;
    return !!held && node.reads.length > 0 && node.reads.every((k) => held.has(k));
  }

  /** The keys touched while the walk runs, in order (tracked-fs startLog). */
  private log: string[] | undefined;

  /** A directory's visit starts (walked). */
  enter(visit: WalkVisit): void {
    if (this.stack.length === 0) this.log = startLog();
    this.pause();
    this.stack.push({ visit, node: { reads: [], parts: [] }, mark: this.mark(), from: this.log?.length, own: new Set() });
  }

  /** The visit entered last is done. */
  leave(): void {
    const frame = this.stack.pop()!;
    this.closeOwn(frame);
    frame.node.reads = frame.reads ?? [...frame.own];
    if (frame.reads) this.counts.replayed++;
    else this.counts.walked++;
    const parent = this.stack[this.stack.length - 1];
    if (!parent) {
      this.root = frame.node;
      stopLog(this.log);
      return;
    }
    parent.node.parts.push({ visit: frame.visit, node: frame.node });
    parent.mark = this.mark();
    if (!parent.reads) parent.from = this.log?.length;
  }

  /** Replay a kept node that holds (holds): its outputs again, its reads noted now; `visitChild` visits each subdirectory as the walk would. */
  replay(visit: WalkVisit, node: WalkNode, visitChild: (visit: WalkVisit, kept: WalkNode) => void): void {
    this.enter(visit);
    const frame = this.stack[this.stack.length - 1]!;
    // a replayed directory touches nothing: its reads are the kept ones, noted as they are now
    frame.reads = node.reads;
    frame.from = undefined;
    noteReads(node.reads.map((k) => this.kept!.held.get(k)!));
    for (const part of node.parts) {
      if ('own' in part) this.apply(part.own, visit);
      else visitChild(part.visit, part.node);
    }
    this.leave();
  }

  private pause(): void {
    const parent = this.stack[this.stack.length - 1];
    if (parent) this.closeOwn(parent);
  }

  /** What the frame's directory added since its mark, as one own part; the keys of its span into its own reads. */
  private closeOwn(frame: Frame): void {
    if (frame.from !== undefined && this.log) {
      for (let i = frame.from; i < this.log.length; i++) frame.own.add(this.log[i]!);
      frame.from = undefined;
    }
    const m = frame.mark;
    const o = this.out;
    const own: WalkOwn = {};
    if (o.files.length > m.files) own.files = o.files.slice(m.files);
    if (o.skipped.length > m.skipped) own.skipped = o.skipped.slice(m.skipped);
    if (o.excluded.log.length > m.excluded) own.excluded = o.excluded.log.slice(m.excluded);
    if (o.recipes && o.recipes.files.length > m.recipeFiles) {
      // named within the directory's listing path: most of a kept tree's size otherwise
      const files = o.recipes.files.slice(m.recipeFiles);
      const prefix = listed(frame.visit);
      if (files.every((f) => f.startsWith(prefix))) own.recipeNames = files.map((f) => f.slice(prefix.length));
      else own.recipeFiles = files;
    }
    if (o.recipes && o.recipes.vendored.length > m.vendored) own.vendored = o.recipes.vendored.slice(m.vendored);
    const hits = o.hits.flatMap((g, i): [number, number][] => (g.hits > m.hits[i]! ? [[i, g.hits - m.hits[i]!]] : []));
    if (hits.length > 0) own.hits = hits;
    if (Object.keys(own).length > 0) frame.node.parts.push({ own });
    frame.mark = this.mark();
  }

  private apply(own: WalkOwn, visit: WalkVisit): void {
    const o = this.out;
    if (own.recipeNames) {
      const prefix = listed(visit);
      o.recipes?.files.push(...own.recipeNames.map((n) => prefix + n));
    }
    if (own.files) o.files.push(...own.files);
    if (own.skipped) o.skipped.push(...own.skipped);
    for (const [reason, example] of own.excluded ?? []) o.excluded.add(reason, example);
    if (own.recipeFiles) o.recipes?.files.push(...own.recipeFiles);
    if (own.vendored) o.recipes?.vendored.push(...own.vendored);
    for (const [i, n] of own.hits ?? []) o.hits[i]!.hits += n;
  }

  private mark(): Mark {
    const o = this.out;
    return {
      files: o.files.length,
      skipped: o.skipped.length,
      excluded: o.excluded.log.length,
      recipeFiles: o.recipes?.files.length ?? 0,
      vendored: o.recipes?.vendored.length ?? 0,
      hits: o.hits.map((g) => g.hits),
    };
  }
}

/** The prefix of a recipe-listing path in the visit's directory. */
const listed = (visit: WalkVisit) => (visit.recipeRel ? `${visit.recipeRel}/` : '');

function sameVisit(a: WalkVisit, b: WalkVisit): boolean {
  return a.rel === b.rel && a.abs === b.abs && a.excludedBy === b.excludedBy && a.recipeRel === b.recipeRel && a.scanned === b.scanned && (a.absBytes === undefined) === (b.absBytes === undefined) && (!a.absBytes || a.absBytes.equals(b.absBytes!));
}
