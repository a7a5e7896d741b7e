/**
 * Tag-history provenance: digest history generalised to tags, for pins without a
 * digest. When a build recipe (or a declared producer) stamps an image's pin, the commit that
 * introduced the pinned tag into that pin is the stamp; the image was built from
 * its first parent (or itself with `provenance.buildCommit: self`, or when that
 * commit also changes the image's inputs; see digest-history.ts). Weaker than a
 * digest: a tag can be rebuilt, and the output says so.
 *
 * Git is read twice for all subjects: one `log -p -G` pass for the commits adding
 * the tags to the stamped pin files (git/tag-history.ts), and one `cat-file
 * --batch` of those files at each candidate and its first parent, to keep only
 * the commit that put the tag into THIS pin (another image in the same file may
 * carry the same tag).
 */
import { collectFile } from '../collect/index.js';
import type { PatchOccurrence } from '../git/digest-history.js';
import { readBlobs } from '../git/objects.js';
import type { ShallowState } from '../git/shallow.js';
import { readTagAdditions, tagsInLine } from '../git/tag-history.js';
import type { Pin } from '../model/index.js';
import { fileKind } from '../scan/index.js';
import { listSome } from '../util/list.js';
import type { ImageSubject, ProvenanceSource, ProvenanceStep } from './types.js';

const method = 'tag-history' as const;
const short = (sha: string) => sha.slice(0, 10);
/** Newest candidate commits checked per subject (each costs two blobs in the one batch). */
const MAX_CANDIDATES = 6;

export interface TagIntroduction {
  commit: string;
  parentShas: string[];
  date: string;
  subject: string;
  file: string;
  tag: string;
  stampedBy: string;
}

/** Per subject: its introduction, or why none was found. */
export type TagHistory = Map<ImageSubject, TagIntroduction | { none: string }>;

/** The stamped pins of a subject that carry a tag. */
const stampedPins = (s: ImageSubject): { pin: Pin; by: string }[] =>
  s.pins.flatMap((pin) => {
    const st = (s.stamped ?? []).find((x) => x.file === pin.file && x.line === pin.line);
    return st && pin.ref.tag !== undefined ? [{ pin, by: st.by }] : [];
  });

/** Whether the text of `file` has `pin`'s place (its key path, or any pin of the repository) holding `tag`. */
function holdsTag(text: string | undefined, file: string, pin: Pin, repository: string, tag: string): boolean {
  if (text === undefined) return false;
  try {
    const { pins } = collectFile(fileKind(file, false), text, { file, isFirstParty: () => true });
    return pins.some((p) => p.ref.tag === tag && (pin.keyPath ? p.keyPath === pin.keyPath && (p.document ?? 0) === (pin.document ?? 0) : p.ref.name === repository));
  } catch {
    return text.split('\n').some((line) => tagsInLine(line, new Set([tag]), tag.length).length > 0);
  }
}

/** Read, for every subject whose pins a recipe stamps, the commit that introduced its tag. */
export async function readTagHistory(repo: string, subjects: ImageSubject[], head: string, prefix = ''): Promise<TagHistory> {
  const out: TagHistory = new Map();
  const wanted = subjects.filter((s) => !s.digest).map((s) => ({ s, stamped: stampedPins(s) }));
  const files = [...new Set(wanted.flatMap((w) => w.stamped.map((x) => x.pin.file)))].sort();
  const tags = new Set(wanted.flatMap((w) => w.stamped.map((x) => x.pin.ref.tag!)));
  // candidates per subject, newest first, taken as the pass finds them: git stops once every subject has its
  // MAX_CANDIDATES newest (a 2 MB rendered bundle's older versions are never diffed)
  const candidates = new Map<ImageSubject, { occ: PatchOccurrence; pin: Pin; by: string; tag: string }[]>(wanted.map(({ s }) => [s, []]));
  await readTagAdditions(repo, tags, files, head, (found) => {
    const occ = found[found.length - 1]!;
    for (const { s, stamped } of wanted) {
      const list = candidates.get(s)!;
      if (list.length >= MAX_CANDIDATES) continue;
      const hit = stamped.find((x) => (occ.addedTo.get(x.pin.ref.tag!) ?? []).includes(x.pin.file));
      if (hit) list.push({ occ, pin: hit.pin, by: hit.by, tag: hit.pin.ref.tag! });
    }
    return wanted.every(({ s, stamped }) => stamped.length === 0 || candidates.get(s)!.length >= MAX_CANDIDATES);
  });
  const specs = [...candidates.values()].flat().flatMap((c) => [`${c.occ.commit}:${prefix}${c.pin.file}`, ...(c.occ.parentShas[0] ? [`${c.occ.parentShas[0]}:${prefix}${c.pin.file}`] : [])]);
  const blobs = await readBlobs(repo, specs);
  for (const { s, stamped } of wanted) {
    if (stamped.length === 0) continue;
    const list = candidates.get(s)!;
    const found = list.find((c) => {
      const at = blobs.get(`${c.occ.commit}:${prefix}${c.pin.file}`);
      const parent = c.occ.parentShas[0];
      const before = parent ? blobs.get(`${parent}:${prefix}${c.pin.file}`) : undefined;
      return holdsTag(at, c.pin.file, c.pin, s.repository, c.tag) && !holdsTag(before, c.pin.file, c.pin, s.repository, c.tag);
    });
    if (found) {
      out.set(s, { commit: found.occ.commit, parentShas: found.occ.parentShas, date: found.occ.date, subject: found.occ.subject, file: found.pin.file, tag: found.tag, stampedBy: found.by });
    } else {
      const files = listSome([...new Set(stamped.map((x) => x.pin.file))]);
      const seen = list.length > 0 ? `${list.length} commit(s) add it to ${files}, none into this pin` : `it never appears in the history of ${files}`;
      out.set(s, { none: `tag ${listSome([...new Set(stamped.map((x) => x.pin.ref.tag!))])}: ${seen}` });
    }
  }
  return out;
}

export interface TagHistorySourceInput {
  history: TagHistory;
  shallow: ShallowState;
  buildCommit: 'parent' | 'self';
}

export function tagHistorySource(input: TagHistorySourceInput): ProvenanceSource {
  return { method, resolve: async (image) => resolveFromTagHistory(image, input) };
}

const WEAKER = 'weaker than a digest: a tag can be rebuilt, so the image may hold a later build';

export function resolveFromTagHistory(image: ImageSubject, input: TagHistorySourceInput): ProvenanceStep {
  if (image.tags.length === 0) return { method, answered: false, reason: 'no pin of this image carries a tag' };
  if (image.digest) return { method, answered: false, reason: 'the pins store a digest, whose history digest-history reads (a tag can be rebuilt under the same name)' };
  if (stampedPins(image).length === 0) {
    return { method, answered: false, reason: 'no build recipe or declared producer stamps a tagged pin of this image, so the commit that changed its tag need not be where it was built (declare the producer in pinwatch.yaml)' };
  }
  const intro = input.history.get(image);
  if (!intro) return { method, answered: false, reason: 'internal: the tag history was not read for this image' };
  if ('none' in intro) {
    const why = input.shallow.shallow ? ' (the clone is shallow: fetch full history, e.g. fetch-depth: 0)' : '';
    return { method, answered: false, reason: `${intro.none}${why}` };
  }
  const evidence = { introducedBy: { commit: intro.commit, subject: intro.subject, date: intro.date, file: intro.file }, tag: intro.tag, stampedBy: intro.stampedBy };
  const introText = `tag ${intro.tag} introduced by ${short(intro.commit)} "${intro.subject}" (${intro.date.slice(0, 10)}) in ${intro.file}, which ${intro.stampedBy} stamps`;
  if (input.shallow.boundary.has(intro.commit)) {
    return { method, answered: false, reason: `${introText}: the boundary of a shallow clone, so its real introduction may be older: fetch full history (git fetch --unshallow, or fetch-depth: 0)`, evidence };
  }
  if (input.buildCommit === 'self') return { method, answered: true, commit: intro.commit, reason: `${introText}; built from that commit (buildCommit: self); ${WEAKER}`, evidence };
  const parent = intro.parentShas[0];
  if (!parent) return { method, answered: false, reason: `${introText}, a root commit: it has no parent to have been built from (set provenance.buildCommit: self if it was built from itself)`, evidence };
  return { method, answered: true, commit: parent, reason: `${introText}; built from its first parent; ${WEAKER}`, evidence };
}
