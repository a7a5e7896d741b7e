/**
 * The pure core of `pinwatch triage`: the literal index (HEAD's literals of the
 * build inputs, plus literals the history window removed), matching log lines
 * against it (framing stripped, Aho–Corasick prefilter, full matcher, ranked by
 * specificity), the tokens of a line, and the verdicts. No git, no files: the
 * repo entry (repo.ts) reads those and hands plain data in.
 */
import { posix } from 'node:path';
import { literalHistories, type HistoryCommit, type LiteralHistory } from './history.js';
import { compilePattern, extractLiterals, isSpecific, languageOf, matchPattern, type LiteralPattern } from './literals.js';
import { looksLikeError, stripFraming } from './framing.js';
import { buildPrefilter, KEY_LENGTH, type Prefilter } from './prefilter.js';
import { describeRunningIn } from './running.js';
import type {
  BuildSource, ImageStanding, IndexEntry, IndexSite, LackingCommit, TriageImage, TriageLack, TriageLine, TriageMatch, TriageMatchImage, TriageVerdict,
} from './types.js';

export const DEFAULT_MIN_CONSTANT = 12;
/** Matches listed per line (the best ranked); the rest are counted. */
export const MATCHES_PER_LINE = 5;

export interface LiteralIndex {
  entries: IndexEntry[];
  prefilter: Prefilter;
  files: number;
  removed: number;
}

export interface SourceFile {
  path: string;
  text: string;
}

/** The places a prefilter key can come from: the start and the end of each constant fragment, KEY_LENGTH long at most. */
function keyChoices(p: LiteralPattern): string[] {
  const out: string[] = [];
  for (const f of p.fragments) {
    out.push(f.slice(0, KEY_LENGTH));
    if (f.length > KEY_LENGTH) out.push(f.slice(-KEY_LENGTH));
  }
  return out;
}

/**
 * One prefilter key per literal: of the starts and ends of its fragments, the
 * one fewest literals share (then the longest), so a line that holds a common
 * phrase (" failed after ") does not send every literal with it to the full matcher.
 */
function prefilterKeys(patterns: readonly LiteralPattern[]): string[] {
  const choices = patterns.map(keyChoices);
  const shared = new Map<string, number>();
  for (const list of choices) for (const k of new Set(list)) shared.set(k, (shared.get(k) ?? 0) + 1);
  return choices.map((list) => list.reduce((a, b) => {
    const d = shared.get(b)! - shared.get(a)!;
    return d < 0 || (d === 0 && b.length > a.length) ? b : a;
  }));
}

/**
 * Index the literals of `files` (HEAD) and, from `history` (newest first), when
 * each was introduced and removed; literals the window removed are indexed at
 * the place they were removed from.
 */
export function buildLiteralIndex(files: readonly SourceFile[], history: readonly HistoryCommit[], minConstant = DEFAULT_MIN_CONSTANT): LiteralIndex {
  const byValue = new Map<string, IndexEntry>();
  const compiled = new Map<string, LiteralPattern | null>();
  const specific = (value: string, language: NonNullable<ReturnType<typeof languageOf>>): LiteralPattern | undefined => {
    const key = `${language}\0${value}`;
    let p = compiled.get(key);
    if (p === undefined) {
      const c = compilePattern(value, language);
      p = isSpecific(c, minConstant) ? c : null;
      compiled.set(key, p);
    }
    return p ?? undefined;
  };
  const entries: IndexEntry[] = [];
  const add = (value: string, pattern: LiteralPattern, site: IndexSite) => {
    let e = byValue.get(value);
    if (!e) {
      e = { id: entries.length, pattern, sites: [] };
      byValue.set(value, e);
      entries.push(e);
    }
    e.sites.push(site);
  };
  for (const f of files) {
    const language = languageOf(f.path);
    if (!language) continue;
    for (const lit of extractLiterals(f.text, language)) {
      const p = specific(lit.value, language);
      if (p) add(lit.value, p, { file: f.path, line: lit.line, atHead: true });
    }
  }
  const headCount = (value: string) => byValue.get(value)?.sites.length ?? 0;
  const relevant = history.map((c) => ({ ...c, events: c.events.filter((e) => { const l = languageOf(e.file); return l !== undefined && specific(e.value, l) !== undefined; }) }));
  const histories = literalHistories(relevant, headCount);
  let removed = 0;
  for (const [value, h] of histories) {
    const e = byValue.get(value);
    if (e) {
      e.history = h;
      continue;
    }
    if (!h.removed) continue;
    const language = languageOf(h.removed.file)!;
    add(value, specific(value, language)!, { file: h.removed.file, line: h.removed.line, atHead: false });
    byValue.get(value)!.history = h;
    removed++;
  }
  return { entries, prefilter: buildPrefilter(prefilterKeys(entries.map((e) => e.pattern))), files: files.length, removed };
}

/** One literal found in one framed text of a line. */
export interface LiteralHit {
  entry: IndexEntry;
  text: string;
  start: number;
  end: number;
  holes: string[];
}

/** The literals matching a log line, best ranked first (constant text, then at HEAD). */
export function matchLine(index: LiteralIndex, line: string): LiteralHit[] {
  const hits: LiteralHit[] = [];
  const seen = new Set<number>();
  for (const text of stripFraming(line).texts) {
    for (const id of index.prefilter.candidates(text)) {
      if (seen.has(id)) continue;
      const entry = index.entries[id]!;
      const m = matchPattern(entry.pattern, text);
      if (!m) continue;
      seen.add(id);
      hits.push({ entry, text, ...m });
    }
  }
  // A literal inside a longer matched one at the same place says nothing more.
  hits.sort((a, b) => b.entry.pattern.constant - a.entry.pattern.constant || Number(b.entry.sites[0]!.atHead) - Number(a.entry.sites[0]!.atHead));
  return hits;
}

const STOP = new Set(['the', 'and', 'for', 'not', 'with', 'from', 'this', 'that', 'nil', 'true', 'false', 'null', 'none', 'error', 'failed', 'err']);

/**
 * The tokens of a matched line to look for in commits: what the literal's holes
 * captured (quoted strings whole, identifiers) and quoted strings elsewhere in
 * the text. Plain lowercase words count only when a hole holds nothing else.
 */
export function lineTokens(hit: LiteralHit): string[] {
  const quotedOut = new Set<string>();
  const out = new Set<string>();
  const addWord = (w: string, to = out) => {
    const t = w.replace(/^[^\w]+|[^\w]+$/g, '');
    if (t.length >= 3 && !STOP.has(t.toLowerCase()) && !/^\d+$/.test(t) && !/^[0-9a-f]{12,}$/.test(t)) out.add(t);
  };
  const quoted = (s: string) => {
    for (const m of s.matchAll(/"([^"\n]{1,80})"|'([^'\n]{1,80})'/g)) addWord((m[1] ?? m[2])!, quotedOut);
  };
  for (const h of hit.holes) {
    quoted(h);
    const words = h.replace(/"[^"]*"|'[^']*'/g, ' ').split(/[\s,;:()[\]{}=]+/).filter(Boolean);
    for (const w of words) if (words.length === 1 || /[A-Z0-9_./-]/.test(w.slice(1))) addWord(w);
  }
  quoted(hit.text.slice(0, hit.start));
  quoted(hit.text.slice(hit.end));
  // quoted arguments first: they are what a %q printed, the most telling tokens
  return [...new Set([...quotedOut, ...out])];
}

/** Ancestry questions the verdicts ask (answered by a commit graph in repo.ts). */
export interface Ancestry {
  isAncestor(ancestor: string, descendant: string): boolean;
}

/** The text of a lacking commit (subject, body, patch), for mentions; absent when not fetched. */
export type CommitText = (commit: string) => string | undefined;

const short = (sha: string) => sha.slice(0, 10);

/** Commits of `lacks` that change a file in the directory (the Go package) of `file`. */
export function lacksForPackage(lacks: readonly LackingCommit[], file: string): LackingCommit[] {
  const dir = posix.dirname(file);
  return lacks.filter((c) => c.paths.some((p) => posix.dirname(p) === dir));
}

/** Case-insensitive: tokens of the line that appear in the commit's text (give it lowercased: `lowered` says it is). */
export function mentionsIn(text: string | undefined, tokens: readonly string[], lowered = false): string[] {
  if (!text) return [];
  const lower = lowered ? text : text.toLowerCase();
  return tokens.filter((t) => lower.includes(t.toLowerCase()));
}

function judgeImage(img: TriageImage, entry: IndexEntry, site: IndexSite, tokens: string[], ancestry: Ancestry, textOf: CommitText): TriageMatchImage {
  const base = {
    name: img.name, repository: img.repository, ...(img.digest ? { digest: img.digest } : {}), ...(img.build ? { build: img.build } : {}),
    buildSource: img.buildSource ?? 'pinned', ...(img.runningIn ? { runningIn: img.runningIn } : {}),
  };
  if (!img.build) return { ...base, standing: 'unknown', reason: `build commit unknown: ${img.unknownReason ?? 'no provenance method answered'}`, lacks: [] };
  const b = img.build.commit;
  const h = entry.history;
  if (h?.introduced && !ancestry.isAncestor(h.introduced.commit, b)) {
    return { ...base, standing: 'absent', reason: `its build ${short(b)} predates ${short(h.introduced.commit)}, which introduced the message`, lacks: [] };
  }
  if (h?.removed && ancestry.isAncestor(h.removed.commit, b)) {
    return { ...base, standing: 'absent', reason: `its build ${short(b)} already has ${short(h.removed.commit)}, which removed the message`, lacks: [] };
  }
  const lacks: TriageLack[] = lacksForPackage(img.lacks, site.file).map((c) => ({
    commit: c.commit,
    subject: c.subject,
    ...(c.pr !== undefined ? { pr: c.pr } : {}),
    date: c.date,
    mentions: mentionsIn(textOf(c.commit), tokens, true),
  }));
  if (h?.removed) {
    return { ...base, standing: 'skew', reason: `its build ${short(b)} still has the message, which ${short(h.removed.commit)} removed from ${site.file}`, lacks };
  }
  // the commit mentioning the most telling token (tokens come best first) leads
  const best = (l: TriageLack) => Math.min(...l.mentions.map((t) => tokens.indexOf(t)));
  const mentioning = lacks.filter((l) => l.mentions.length > 0).sort((a, b) => best(a) - best(b));
  if (mentioning.length > 0) {
    const m = mentioning[0]!;
    return { ...base, standing: 'skew', reason: `its build ${short(b)} lacks ${short(m.commit)} to ${posix.dirname(site.file)}/, which mentions ${m.mentions.map((t) => `'${t}'`).join(', ')}`, lacks };
  }
  if (lacks.length > 0) return { ...base, standing: 'lacks', reason: `its build ${short(b)} lacks ${lacks.length} commit(s) to ${posix.dirname(site.file)}/, none mentioning a token of the line`, lacks };
  return { ...base, standing: 'current', reason: `its build ${short(b)} lacks no commit to ${posix.dirname(site.file)}/`, lacks };
}

function toMatch(entry: IndexEntry, site: IndexSite, images: TriageMatchImage[]): TriageMatch {
  const h = entry.history;
  return {
    file: site.file,
    line: site.line,
    atHead: site.atHead,
    literal: entry.pattern.value,
    specificity: entry.pattern.constant,
    ...(h?.introduced ? { introduced: { commit: h.introduced.commit, date: h.introduced.date, subject: h.introduced.subject } } : {}),
    ...(h?.removed ? { removed: { commit: h.removed.commit, date: h.removed.date, subject: h.removed.subject } } : {}),
    images,
  };
}

const names = (list: readonly string[]) => (list.length <= 1 ? list.join('') : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`);

function describeLack(l: TriageLack): string {
  return `${short(l.commit)} "${l.subject}"${l.pr !== undefined && !l.subject.includes(`#${l.pr}`) ? ` (#${l.pr})` : ''}`;
}

/** The paste-able sentence for a judged line. */
function explain(verdict: TriageVerdict, m: TriageMatch, tokensOrder: readonly string[]): string {
  const where = m.atHead ? `${m.file}:${m.line}` : `${m.file}:${m.line} (not at HEAD: removed by ${short(m.removed!.commit)} "${m.removed!.subject}")`;
  const head = `this message comes from ${where}, compiled into ${names([...new Set(m.images.map((i) => i.name))])}`;
  // Images that stand the same way (same build, same sentence) are named together.
  const groups = new Map<string, { names: string[]; plural: string; singular: string; source: BuildSource }>();
  // an image judged at several running builds is named with where each runs
  const several = new Set(m.images.filter((i, k) => m.images.findIndex((j) => j.name === i.name) !== k).map((i) => i.name));
  for (const i of m.images) {
    const built = (one: boolean) => (i.build ? `${one ? 'was' : 'were'} built from ${short(i.build.commit)} (${i.build.method})` : `${one ? 'has' : 'have'} no known build commit`);
    let tail: (one: boolean) => string;
    if (i.standing === 'skew') {
      const rank = (l: TriageLack) => Math.min(...l.mentions.map((t) => tokensOrder.indexOf(t)));
      const mention = i.lacks.filter((l) => l.mentions.length > 0).sort((a, b) => rank(a) - rank(b))[0];
      if (!m.atHead) tail = (one) => `${built(one)}, which still ${one ? 'has' : 'have'} it`;
      else tail = (one) => `${built(one)} and ${one ? 'lacks' : 'lack'} ${describeLack(mention!)}, which mentions ${mention!.mentions.map((t) => `'${t}'`).join(', ')}`;
    } else if (verdict !== 'skew' || i.standing === 'unknown') {
      const reason = i.reason.replace(/^its build \S+ /, '');
      tail = (one) => `${built(one)}: ${reason}`;
    } else continue;
    const source = i.buildSource ?? 'pinned';
    const key = `${source} ${tail(true)}`;
    const name = several.has(i.name) && i.runningIn && i.runningIn.length > 0 ? `${i.name} in ${describeRunningIn(i.runningIn)}` : i.name;
    const g = groups.get(key);
    if (g) g.names.push(name);
    else groups.set(key, { names: [name], singular: tail(true), plural: tail(false), source });
  }
  const parts = [...groups.values()].map((g) => `the ${g.source} ${names(g.names)} ${g.names.length === 1 ? g.singular : g.plural}`);
  return `${head}; ${parts.join('; ')}`;
}

/** `textOf`, lowercased once per commit; and the images compiling a file, computed once per file. */
function memo(images: readonly TriageImage[], textOf: CommitText): { textOf: CommitText; compiling: (file: string) => TriageImage[] } {
  const texts = new Map<string, string | undefined>();
  const files = new Map<string, TriageImage[]>();
  return {
    textOf: (c) => {
      if (!texts.has(c)) texts.set(c, textOf(c)?.toLowerCase());
      return texts.get(c);
    },
    compiling: (file) => {
      let list = files.get(file);
      if (!list) files.set(file, (list = images.filter((img) => img.contains(file))));
      return list;
    },
  };
}

/** The verdict of one line from its best-ranked matches (`textOf` gives lowercased commit texts when `memoized` is passed). */
export function judgeLine(hits: readonly LiteralHit[], images: readonly TriageImage[], ancestry: Ancestry, textOf: CommitText, memoized?: ReturnType<typeof memo>): { verdict: TriageVerdict; explanation: string; tokens: string[]; matches: TriageMatch[]; moreMatches: number } {
  if (hits.length === 0) return { verdict: 'unknown', explanation: 'matches no literal in the build inputs of the first-party images', tokens: [], matches: [], moreMatches: 0 };
  const tokens = [...new Set(hits.flatMap(lineTokens))];
  const m = memoized ?? memo(images, textOf);
  const all: TriageMatch[] = [];
  for (const hit of hits) {
    for (const site of hit.entry.sites) {
      all.push(toMatch(hit.entry, site, m.compiling(site.file).map((img) => judgeImage(img, hit.entry, site, tokens, ancestry, m.textOf))));
    }
  }
  const best = hits[0]!.entry.pattern.constant;
  const top = all.filter((m) => m.specificity === best);
  const standings = top.flatMap((m) => m.images.map((i) => i.standing));
  const able = standings.filter((s) => s !== 'absent');
  let verdict: TriageVerdict;
  if (standings.includes('skew')) verdict = 'skew';
  else if (able.length > 0 && able.every((s) => s === 'current')) verdict = 'no-skew';
  else verdict = 'unknown';
  const rank = (s: ImageStanding) => ['skew', 'lacks', 'unknown', 'current', 'absent'].indexOf(s);
  const score = (m: TriageMatch) => Math.min(...m.images.map((i) => rank(i.standing)), 9);
  top.sort((a, b) => score(a) - score(b) || Number(b.atHead) - Number(a.atHead));
  const lead = top[0]!;
  let explanation = explain(verdict, lead, tokens);
  if (verdict === 'unknown' && able.length === 0) {
    const source = lead.images.some((i) => i.buildSource === 'running') ? 'running' : 'pinned';
    explanation = `${explanation}; no ${source} build can print it, so whatever printed it is not a ${source} build`;
  }
  if (lead.images.length === 0) explanation = `this message comes from ${lead.file}:${lead.line}, which no first-party image compiles`;
  const ordered = [...top, ...all.filter((m) => m.specificity !== best)];
  return { verdict, explanation, tokens, matches: ordered.slice(0, MATCHES_PER_LINE), moreMatches: Math.max(0, ordered.length - MATCHES_PER_LINE) };
}

export interface LogLine {
  source: string;
  lineNumber: number;
  text: string;
}

/** Phase one: every line's hits (identical texts matched once). */
export function matchLog(index: LiteralIndex, lines: readonly LogLine[]): { line: LogLine; hits: LiteralHit[] }[] {
  const cache = new Map<string, LiteralHit[]>();
  return lines.map((line) => {
    let hits = cache.get(line.text);
    if (!hits) cache.set(line.text, (hits = matchLine(index, line.text)));
    return { line, hits };
  });
}

/** The lacking commits whose text the mentions need: those touching the package of a matched file. */
export function commitsToRead(matched: readonly { hits: LiteralHit[] }[], images: readonly TriageImage[]): string[] {
  const dirs = new Set<string>();
  for (const m of matched) for (const h of m.hits) for (const s of h.entry.sites) dirs.add(posix.dirname(s.file));
  const out = new Set<string>();
  for (const img of images) for (const c of img.lacks) if (c.paths.some((p) => dirs.has(posix.dirname(p)))) out.add(c.commit);
  return [...out];
}

/**
 * Phase two: verdicts. Lines that match nothing are listed when they look like
 * errors and counted otherwise.
 */
export function judgeLog(matched: readonly { line: LogLine; hits: LiteralHit[] }[], images: readonly TriageImage[], ancestry: Ancestry, textOf: CommitText): { lines: TriageLine[]; unlisted: number } {
  const lines: TriageLine[] = [];
  let unlisted = 0;
  const cache = new Map<string, ReturnType<typeof judgeLine>>();
  const memoized = memo(images, textOf);
  for (const { line, hits } of matched) {
    if (hits.length === 0 && !looksLikeError(line.text)) {
      if (line.text.trim() !== '') unlisted++;
      continue;
    }
    let j = cache.get(line.text);
    if (!j) cache.set(line.text, (j = judgeLine(hits, images, ancestry, textOf, memoized)));
    lines.push({ lineNumber: line.lineNumber, source: line.source, text: line.text, ...j });
  }
  return { lines, unlisted };
}

export type { LiteralHistory };
