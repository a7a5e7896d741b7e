/**
 * Globs in linear-bounded time. Every glob pinwatch matches (include, exclude,
 * extraFiles, rules, producers, build inputs) comes from a committed
 * pinwatch.yaml, i.e. from whoever opened the pull request, and is matched
 * against file names from the same source. A regex-compiled glob backtracks:
 * picomatch takes ~13 s for `**\/values-*-*-*-*-*.yaml` against one
 * 200-character name and minutes for `**\/*a*a*a*a*a*ab`. This matcher never
 * backtracks more than one star per level: a segment is matched by the classic
 * two-pointer wildcard algorithm (O(pattern × name) worst case), and `**`
 * segments by the same algorithm one level up, over path segments.
 *
 * Syntax (picomatch's, as documented in docs/config.md, with `dot: true`):
 * `*` and `?` within a segment, `**` as a whole segment for any number of
 * segments (zero included), `[abc]`, `[a-z]`, `[!a]`/`[^a]`, `{a,b}` and
 * `{1..3}` alternatives (expanded, at most MAX_ALTERNATIVES), `\` escapes, a
 * leading `./` ignored and a leading `!` negating the whole glob. Extglobs
 * (`@(a|b)`, `+(…)`) are not supported and are refused by `checkGlob`.
 */

/** More alternatives than this from `{…}` expansion is refused (a glob bomb). */
export const MAX_ALTERNATIVES = 256;
/** Longer globs are refused: no real repository needs one. */
export const MAX_GLOB_LENGTH = 1024;

export type GlobMatcher = (path: string) => boolean;

type Token = { kind: 'char'; ch: string } | { kind: 'any' } | { kind: 'star' } | { kind: 'class'; negate: boolean; items: (string | [string, string])[] };
/** `literal`: the segment's text when it has no wildcard (compared as a string); `allStar`: only `*`. */
type Segment = { kind: 'globstar' } | { kind: 'tokens'; tokens: Token[]; literal: string | undefined; allStar: boolean };
/**
 * One brace alternative, split into segments. When its last segment is not `**`, that segment is what the path's
 * last name must match, so the name must start with `head` and end with `tail` (its leading and trailing literal
 * characters): a test on the name, before the path is split, that turns most paths away.
 */
interface Alternative {
  segs: Segment[];
  last?: { head: string; tail: string };
  /** The literal leading segments, each followed by its `/` (`packages/` for `packages/**\/values.yaml`): a path that neither starts with them nor is them (`x` for `x/**`) cannot match. */
  prefix: string;
}

export class GlobSyntaxError extends Error {
  constructor(readonly glob: string, readonly reason: string) {
    super(`${JSON.stringify(glob.length > 80 ? `${glob.slice(0, 77)}...` : glob)} is not a valid glob: ${reason}`);
    this.name = 'GlobSyntaxError';
  }
}

/** Throws GlobSyntaxError when `glob` is not in the supported syntax. */
export function checkGlob(glob: string): void {
  compileOne(glob, { raw: glob, strict: true });
}

/** One matcher for one glob or any of several. */
export function compileGlob(globs: string | readonly string[]): GlobMatcher {
  const list = typeof globs === 'string' ? [globs] : globs;
  const matchers = list.map((g) => compileOne(g, { raw: g, strict: false }));
  if (matchers.length === 1) return (path) => matchers[0]!(normalized(path));
  // the path made ready once for every glob of the list (an image's inputs are dozens of globs)
  return (path) => {
    const ready = normalized(path);
    for (const m of matchers) if (m(ready)) return true;
    return false;
  };
}

/** A path as the globs take it: without leading `./` (`p`), its last name apart, its names split when first asked. */
interface ReadyPath {
  /** The path as given. */
  raw: string;
  p: string;
  name: string;
  names?: string[];
}

function normalized(path: string): ReadyPath {
  const p = stripDotSlash(path);
  return { raw: path, p, name: p.slice(p.lastIndexOf('/') + 1) };
}

/** True when the glob has any glob syntax (otherwise it is a literal path). */
export function hasGlobSyntax(glob: string): boolean {
  return /[*?[\]{}!]/.test(glob.replace(/\\./g, ''));
}

/** The literal directory prefix of a glob (`packages` for `packages/**\/values.yaml`), '' when it can match anywhere. */
export function globBase(glob: string): string {
  const g = stripDotSlash(glob.startsWith('!') ? glob.slice(1) : glob);
  const parts = g.split('/');
  const out: string[] = [];
  for (let i = 0; i < parts.length - 1; i++) {
    if (hasGlobSyntax(parts[i]!)) break;
    out.push(parts[i]!);
  }
  if (!hasGlobSyntax(g)) return parts.slice(0, -1).join('/');
  return out.join('/');
}

function stripDotSlash(g: string): string {
  let s = g;
  while (s.startsWith('./')) s = s.slice(2);
  return s;
}

/**
 * `strict` (config validation, checkGlob) refuses what is not in the syntax;
 * otherwise (matching: patterns from .dockerignore and other repository files,
 * and config globs already checked) nothing throws: an unclosed `[` is a literal
 * `[`, extglob characters are literal, a `{…}` past the cap stays literal, and an
 * over-long glob matches only its own text.
 */
interface GlobContext {
  raw: string;
  strict: boolean;
}

function compileOne(raw: string, ctx: GlobContext): (path: ReadyPath) => boolean {
  if (raw.length > MAX_GLOB_LENGTH) {
    if (ctx.strict) throw new GlobSyntaxError(raw, `longer than ${MAX_GLOB_LENGTH} characters`);
    return (path) => path.raw === raw;
  }
  const negate = raw.startsWith('!') && !raw.startsWith('!(');
  const body = stripDotSlash(negate ? raw.slice(1) : raw);
  if (ctx.strict && /[@!+*?]\(/.test(body.replace(/\\./g, ''))) throw new GlobSyntaxError(raw, 'extglobs such as @(a|b) are not supported; use {a,b}');
  const compiled = expandBraces(body, ctx).map((alt) => alternative(alt.split('/').map((seg) => parseSegment(seg, ctx))));
  const test = (path: ReadyPath): boolean => {
    const { p, name } = path;
    for (const { segs, last, prefix } of compiled) {
      if (!p.startsWith(prefix) && !(p.length + 1 === prefix.length && prefix.startsWith(p))) continue; // `x/**` matches `x` too
      if (last && !(name.startsWith(last.head) && name.endsWith(last.tail))) continue;
      if (matchSegments(segs, (path.names ??= p.split('/')))) return true;
    }
    return false;
  };
  return negate ? (p) => !test(p) : test;
}

/** `a{b,c{d,e}}` → [ab, acd, ace]; `{1..3}` → [1, 2, 3]. Unbalanced braces are literal, as in picomatch. */
function expandBraces(glob: string, ctx: GlobContext): string[] {
  let out = [''];
  let i = 0;
  while (i < glob.length) {
    const ch = glob[i]!;
    if (ch === '\\' && i + 1 < glob.length) {
      out = out.map((o) => o + glob.slice(i, i + 2));
      i += 2;
      continue;
    }
    if (ch === '{') {
      const end = closingBrace(glob, i);
      if (end !== -1) {
        const alts = braceAlternatives(glob.slice(i + 1, end)).flatMap((a) => expandBraces(a, ctx));
        if (alts.length > 1 || glob.slice(i + 1, end).includes('..')) {
          const next: string[] = [];
          for (const o of out) for (const a of alts) next.push(o + a);
          if (next.length <= MAX_ALTERNATIVES) {
            out = next;
            i = end + 1;
            continue;
          }
          if (ctx.strict) throw new GlobSyntaxError(ctx.raw, `{…} expands to more than ${MAX_ALTERNATIVES} alternatives`);
          // lenient: this group stays literal text
        }
      }
    }
    out = out.map((o) => o + ch);
    i++;
  }
  return out;
}

function closingBrace(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function braceAlternatives(inner: string): string[] {
  const range = /^(-?\d+)\.\.(-?\d+)$/.exec(inner);
  if (range) {
    const [a, b] = [Number(range[1]), Number(range[2])];
    if (Math.abs(b - a) + 1 > MAX_ALTERNATIVES) return [inner];
    const step = a <= b ? 1 : -1;
    const out: string[] = [];
    for (let n = a; n !== b + step; n += step) out.push(String(n));
    return out;
  }
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  out.push(inner.slice(start));
  return out;
}

function alternative(segs: Segment[]): Alternative {
  let prefix = '';
  for (let i = 0; i < segs.length - 1; i++) {
    const seg = segs[i]!;
    if (seg.kind !== 'tokens' || seg.literal === undefined) break;
    prefix += `${seg.literal}/`;
  }
  const lastSeg = segs.at(-1);
  if (!lastSeg || lastSeg.kind !== 'tokens') return { segs, prefix };
  const tokens = lastSeg.tokens;
  let head = '';
  for (let i = 0; i < tokens.length && tokens[i]!.kind === 'char'; i++) head += (tokens[i] as { ch: string }).ch;
  let tail = '';
  for (let i = tokens.length - 1; i >= 0 && tokens[i]!.kind === 'char'; i--) tail = (tokens[i] as { ch: string }).ch + tail;
  return { segs, last: { head, tail }, prefix };
}

function parseSegment(seg: string, ctx: GlobContext): Segment {
  if (seg === '**') return { kind: 'globstar' };
  const tokens = parseTokens(seg, ctx);
  const literal = tokens.every((t) => t.kind === 'char') ? tokens.map((t) => (t.kind === 'char' ? t.ch : '')).join('') : undefined;
  return { kind: 'tokens', tokens, literal, allStar: tokens.length > 0 && tokens.every((t) => t.kind === 'star') };
}

function parseTokens(seg: string, ctx: GlobContext): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === '\\' && i + 1 < seg.length) tokens.push({ kind: 'char', ch: seg[++i]! });
    else if (c === '*') {
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' }); // `**` inside a segment is `*`
    } else if (c === '?') tokens.push({ kind: 'any' });
    else if (c === '[') i = parseClass(seg, i, tokens, ctx);
    else tokens.push({ kind: 'char', ch: c });
  }
  return tokens;
}

/** Parse `[…]` at `open`; returns the index of its `]`. An unclosed `[` is an error when strict, else a literal `[`. */
function parseClass(seg: string, open: number, tokens: Token[], ctx: GlobContext): number {
  let i = open + 1;
  const negate = seg[i] === '!' || seg[i] === '^';
  if (negate) i++;
  const items: (string | [string, string])[] = [];
  let first = true;
  for (; i < seg.length; i++) {
    let c = seg[i]!;
    if (c === ']' && !first) {
      tokens.push({ kind: 'class', negate, items });
      return i;
    }
    first = false;
    if (c === '\\' && i + 1 < seg.length) c = seg[++i]!;
    if (seg[i + 1] === '-' && i + 2 < seg.length && seg[i + 2] !== ']') {
      let hi = seg[i + 2]!;
      i += 2;
      if (hi === '\\' && i + 1 < seg.length) hi = seg[++i]!;
      items.push([c, hi]);
    } else items.push(c);
  }
  if (ctx.strict) throw new GlobSyntaxError(ctx.raw, `missing closing "]" for the "[" at ${open + 1} in segment ${JSON.stringify(seg)}`);
  tokens.push({ kind: 'char', ch: '[' }); // lenient: an unclosed `[` is itself
  return open;
}

function tokenMatches(t: Token, ch: string): boolean {
  if (t.kind === 'char') return t.ch === ch;
  if (t.kind === 'any') return true;
  if (t.kind === 'class') {
    const hit = t.items.some((it) => (typeof it === 'string' ? it === ch : it[0] <= ch && ch <= it[1]));
    return hit !== t.negate;
  }
  return false;
}

/**
 * The classic two-pointer wildcard match, generic over what a star and a single
 * step are: on a mismatch it goes back to the last star only, so the cost is at
 * most items × pattern steps, never exponential. Used twice: characters within a
 * segment (`*` is the star) and segments within a path (`**` is the star).
 */
function wildcardMatch<P, T>(pattern: readonly P[], items: ArrayLike<T>, isStar: (p: P) => boolean, matchOne: (p: P, item: T) => boolean): boolean {
  let p = 0;
  let i = 0;
  let starP = -1;
  let starI = 0;
  while (i < items.length) {
    const step = pattern[p];
    if (step !== undefined && isStar(step)) {
      starP = p++;
      starI = i;
    } else if (step !== undefined && matchOne(step, items[i]!)) {
      p++;
      i++;
    } else if (starP !== -1) {
      p = starP + 1;
      i = ++starI;
    } else return false;
  }
  while (p < pattern.length && isStar(pattern[p]!)) p++;
  return p === pattern.length;
}

const isStarToken = (t: Token): boolean => t.kind === 'star';
const isGlobstar = (s: Segment): boolean => s.kind === 'globstar';

function segmentMatches(seg: Segment, name: string): boolean {
  if (seg.kind !== 'tokens') return false;
  if (seg.literal !== undefined) return name === seg.literal;
  // `*` alone never matches an empty segment (`a/*` is not `a/`).
  if (name === '' && seg.allStar) return false;
  // The name's UTF-16 code units, as name.split('') gave them, without the array.
  return wildcardMatch(seg.tokens, name, isStarToken, tokenMatches);
}

/** Segments within a path: `**` is the star, any other segment matches exactly one name. */
function matchSegments(segs: readonly Segment[], names: readonly string[]): boolean {
  return wildcardMatch(segs, names, isGlobstar, segmentMatches);
}
