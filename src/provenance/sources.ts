/**
 * The one provenance chain ("which commit built this image"), shared by stale,
 * explain and repin: the configured methods in order (registry first when asked
 * and not configured), each built as a `ProvenanceSource` in a constant number
 * of git processes whatever the number of subjects (one digest-history pass;
 * one cat-file for the commits tags embed; one tag-history pass and one cat-file
 * of its candidates, plus one rev-list when its answers are kept at an older
 * commit; one tag listing and one cat-file of the pin files at those
 * tags), then
 * resolved with the presence check of `resolve.ts`.
 */
import type { Config, ProvenanceMethod } from '../config/types.js';
import { readDigestIntroductions } from '../git/digest-history.js';
import { resolveAbbreviations, type Abbreviation } from '../git/objects.js';
import type { ShallowState } from '../git/shallow.js';
import { readTags } from '../git/tags.js';
import { digestHistorySource } from './digest-history.js';
import { defaultRegistryProvenance, registryNotAsked, registrySource, type RegistryAsk } from './registry.js';
import { resolveProvenance } from './resolve.js';
import { embeddedCommits, tagCommitSource } from './tag-commit.js';
import { readTagHistory, tagHistorySource } from './tag-history.js';
import type { ImageSubject, Provenance, ProvenanceSource, TagRules } from './types.js';

/** Where the history is read and how a digest-history answer is taken. */
export interface ProvenanceContext {
  /** The commit whose history is searched (full sha). */
  head: string;
  /** Where the pinwatch root sits in its work tree (`platform/`, or ''). */
  prefix: string;
  shallow: ShallowState;
  buildCommit: 'parent' | 'self';
  /** Set to ask the registry; unset, a configured `registry` method says it was not asked. */
  registry?: RegistryAsk;
  /** What the config says about tags (tag-commit pattern, git tag forms). */
  tagRules?: TagRules;
  /** Filled with what the methods read outside history (stale/reuse.ts checks it is unchanged). */
  observed?: ObservedRefs;
  /** The tags, read already by the caller in this run (a kept answer's check); git is asked again only if that read failed. */
  tags?: Promise<Map<string, string>>;
}

/** The refs and object names the provenance methods read: git-tag's tags, tag-commit's abbreviations. */
export interface ObservedRefs {
  tags?: Map<string, string>;
  abbreviations?: Map<string, Abbreviation>;
}

/** The config's tag rules: `provenance.tagCommitPattern`, `provenance.gitTag` and each image's `images.<key>.gitTag`. */
export function tagRulesOf(config: Pick<Config, 'provenance' | 'images'>): TagRules {
  const own = Object.entries(config.images).filter(([, e]) => e.gitTag !== undefined);
  const gitTagFor = (repository: string) => {
    const name = repository.slice(repository.lastIndexOf('/') + 1);
    return (own.find(([, e]) => e.repository === repository) ?? own.find(([k, e]) => !e.repository && k === name))?.[1].gitTag;
  };
  return {
    ...(config.provenance.tagCommitPattern ? { tagCommitPattern: new RegExp(config.provenance.tagCommitPattern) } : {}),
    ...(config.provenance.gitTag ? { gitTag: config.provenance.gitTag } : {}),
    ...(own.length > 0 ? { gitTagFor } : {}),
  };
}

/** Methods to run: the configured ones, with `registry` first when asked and not configured already. */
export function methodsFor(config: Pick<Config, 'provenance'>, registry: RegistryAsk | undefined): ProvenanceMethod[] {
  const configured = config.provenance.methods;
  return registry && !configured.includes('registry') ? ['registry', ...configured] : [...configured];
}

/** Whether a judgement under this config asks git-tag (its callers list the tags beside the history pass: stale/window.ts startHistory). */
export const usesGitTag = (config: Pick<Config, 'provenance'>): boolean => config.provenance.methods.includes('git-tag');

/** One source per method, in order. Git is read once per method, for all subjects together. */
export async function provenanceSources(repo: string, subjects: ImageSubject[], methods: ProvenanceMethod[], ctx: ProvenanceContext): Promise<ProvenanceSource[]> {
  // the methods' git reads are independent: they run side by side; the sources (and the first failure) stay in method order
  const settled = await Promise.allSettled(methods.map((method) => sourceOf(repo, subjects, method, ctx)));
  const sources: ProvenanceSource[] = [];
  for (const r of settled) {
    if (r.status === 'rejected') throw r.reason;
    if (r.value) sources.push(r.value);
  }
  return sources;
}

async function sourceOf(repo: string, subjects: ImageSubject[], method: ProvenanceMethod, ctx: ProvenanceContext): Promise<ProvenanceSource | undefined> {
  if (method === 'registry') {
    if (!ctx.registry) return registryNotAsked('not asked (run with --registry to read the image revision label)');
    return registrySource(ctx.registry.fn ?? defaultRegistryProvenance, ctx.registry.opts);
  }
  if (method === 'digest-history') {
    const digests = subjects.flatMap((s) => (s.digest ? [s.digest] : []));
    const files = [...new Set(subjects.flatMap((s) => s.pins.map((p) => p.file)))].sort();
    const history = await readDigestIntroductions(repo, digests, files, ctx.head);
    return digestHistorySource({ history, shallow: ctx.shallow, buildCommit: ctx.buildCommit, searchedFiles: files.length });
  }
  if (method === 'tag-commit') {
    const custom = ctx.tagRules?.tagCommitPattern;
    const resolved = await resolveAbbreviations(repo, embeddedCommits(subjects, custom));
    if (ctx.observed) ctx.observed.abbreviations = resolved;
    return tagCommitSource(resolved, custom);
  }
  if (method === 'tag-history') {
    return tagHistorySource({ history: await readTagHistory(repo, subjects, ctx.head, ctx.prefix, ctx.shallow), shallow: ctx.shallow, buildCommit: ctx.buildCommit });
  }
  if (method === 'git-tag') {
    const tags = await (ctx.tags ? ctx.tags.catch(() => readTags(repo)) : readTags(repo));
    if (ctx.observed) ctx.observed.tags = tags;
    const rules = ctx.tagRules ?? {};
    // loaded here, with the collectors that read the tag's pin files (and the yaml package): a judgement whose
    // config has no git-tag method, or a run that judges nothing in full, never loads them
    const [{ gitTagSource }, { readTagTrees }] = await Promise.all([import('./git-tag.js'), import('./tag-trees.js')]);
    return gitTagSource(tags, await readTagTrees(repo, subjects, tags, ctx.prefix, rules), rules);
  }
  return undefined;
}

/** The build commit of every subject (or why none is known), every method's step kept. */
export async function provenanceFor(repo: string, subjects: ImageSubject[], methods: ProvenanceMethod[], ctx: ProvenanceContext): Promise<Provenance[]> {
  return resolveProvenance(repo, subjects, await provenanceSources(repo, subjects, methods, ctx));
}
