/**
 * The text scrape: finds refs in any text, line by line, without parsing it.
 * A ref is the value after an image key (`image:`, `sidecarImage:`) or any token
 * that parses as a registry-qualified ref with a tag or digest (also inside Helm
 * conditionals and `--x-image=` arguments). In code and scripts also: a quoted
 * string assigned to an image-named identifier (Go `const Image = "kindest/node:v1"`)
 * or holding a digest, a shell default (`${IMAGE:-ghcr.io/x:v1}`) and a quoted or
 * plain `FROM image` — these need no registry host. An identifier after an image
 * key (`Image: image,` in Go), or a backtick (`image: ` + name + `` in a Go raw
 * string), is code, not a ref. Used for declared extra files
 * and as the fallback when YAML does not parse.
 */
import type { Pin, Problem } from '../../model/index.js';
import { hasExplicitDomain, parseReference, tryParseReference } from '../../reference/index.js';
import { buildPin, LineIndex, messageOf, problemAt } from '../common/pin.js';
import type { CollectContext, CollectResult, LeftOut } from '../types.js';

/** Characters a ref can contain (IPv6 brackets included). */
const TOKEN = /[A-Za-z0-9._\-:/@[\]]+/g;
/**
 * `<something>image:` in key position (line start, after `- `, or after `{`/`,`
 * in a flow map or JSON) followed by its value; prose like "the image: foo" is not a key.
 */
const IMAGE_KEY = /(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)["']?([A-Za-z0-9_-]*image)["']?[ \t]*:(?![-=+?])[ \t]*/gi;

interface Found {
  start: number;
  end: number;
}

/** `name = "ref"`, `name := "ref"` (Go, shell, Python, JS): group 1 the identifier, 3 the quoted text. */
const ASSIGNED = /\b([A-Za-z_][A-Za-z0-9_]*)[ \t]*:?=[ \t]*(["'`])([^"'`\s]+)\2/g;
/** Any quoted string: a ref with a digest inside one is unambiguous without a registry host. */
const QUOTED = /(["'`])([^"'`\s]+)\1/g;
/** Shell `${VAR:-default}` / `${VAR-default}` / `${VAR:=default}`: group 1 the variable, 2 the default. */
const SHELL_DEFAULT = /\$\{([A-Za-z_][A-Za-z0-9_]*):?[-=]([^}\s"']+)\}/g;
/** `FROM image`, `FROM "image"` (a Dockerfile written by a script or held in code). */
const FROM = /(?:^|[\s"'`(])FROM[ \t]+(?:--platform=\S+[ \t]+)?(["']?)([^\s"'`]+)\1/g;
/** An identifier or selector (`image`, `cfg.Image`): code, not a ref, when it is followed by `,` `)` or `;`. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** How scan counts a quoted ref that code completes (`"…/config-reloader:v" + version.Version`). */
export const CONCATENATED_REF_LEFT_OUT = 'quoted refs joined to code by `+` (`"quay.io/x/reloader:v" + version.Version`, prometheus-operator): completed when the program runs, not read as a ref';

/** Scrape `text`; `scraped` marks the pins as coming from a fallback. */
export function scrapeText(text: string, ctx: CollectContext, options: { scraped?: boolean } = {}): CollectResult {
  const lines = new LineIndex(text);
  const pins: Pin[] = [];
  const problems: Problem[] = [];
  const leftOut: LeftOut[] = [];
  let lineStart = 0;
  for (const lineText of text.split('\n')) {
    scrapeLine(lineText, lineStart, { text, ctx, lines, pins, problems, leftOut, scraped: options.scraped === true });
    lineStart += lineText.length + 1;
  }
  return { pins, problems, ...(leftOut.length > 0 ? { leftOut } : {}) };
}

interface LineState {
  text: string;
  ctx: CollectContext;
  lines: LineIndex;
  pins: Pin[];
  problems: Problem[];
  leftOut: LeftOut[];
  scraped: boolean;
}

function scrapeLine(line: string, base: number, s: LineState): void {
  const taken: Found[] = [];
  const pinsBefore = s.pins.length;
  const templated: Problem[] = [];
  for (const m of line.matchAll(IMAGE_KEY)) {
    const valueStart = (m.index ?? 0) + m[0].length;
    const value = readValue(line, valueStart);
    if (!value) continue;
    taken.push(value);
    const raw = line.slice(value.start, value.end);
    // a backtick closes a Go raw string (or opens a shell substitution): YAML in code, `image: ` + kindnetdImage + ``
    if (isCodeIdentifier(line, value, raw) || raw.startsWith('`')) continue;
    const templatedValue = raw.includes('{{') || raw.startsWith('$');
    if (templatedValue || raw === '|' || raw === '>' || raw.startsWith('*') || raw.startsWith('&')) {
      if (templatedValue) {
        templated.push(problemAt(s.ctx, s.lines, base + value.start, 'templated-ref', `the value of "${m[1]}" is a template, not a ref; saw ${JSON.stringify(raw)}`));
      }
      continue;
    }
    try {
      const ref = parseReference(raw);
      addPin(s, base + value.start, base + value.end, raw, ref);
    } catch (e) {
      s.problems.push(problemAt(s.ctx, s.lines, base + value.start, 'invalid-ref', messageOf(e)));
    }
  }
  scrapeCode(line, base, s, taken);
  for (const m of line.matchAll(TOKEN)) {
    const start = m.index ?? 0;
    let raw = m[0];
    if (taken.some((t) => start < t.end && start + raw.length > t.start)) continue;
    raw = trimToRef(raw);
    if (!raw) continue;
    const ref = tryParseReference(raw);
    if (!ref || (ref.tag === undefined && ref.digest === undefined)) continue;
    addPin(s, base + start, base + start + raw.length, raw, ref);
  }
  // A template whose branches hold a literal ref (`{{ if … }}ref{{ end }}`) was read; otherwise say so.
  if (s.pins.length === pinsBefore) s.problems.push(...templated);
}

/** `Image: image,` / `Image: cfg.Image)`: an unquoted identifier followed by code punctuation; `image: DefaultImage(),` (thanos' e2e): a call. */
function isCodeIdentifier(line: string, value: Found, raw: string): boolean {
  if (line[value.start - 1] === '"' || line[value.start - 1] === "'") return false;
  // no ref holds a parenthesis: an identifier or selector opening one is a call
  if (/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\(/.test(raw)) return true;
  const word = raw.replace(/[);]+$/, '');
  if (!IDENTIFIER.test(word)) return false;
  if (word !== raw) return true;
  const next = line.slice(value.end).trimStart()[0];
  return next === ',' || next === ')' || next === ';' || (word.includes('.') && /[A-Z]/.test(word));
}

/**
 * Refs in code and scripts that need no registry host: a quoted string assigned
 * to an image-named identifier, any quoted ref with a digest, a shell default
 * `${IMAGE:-ref}`, `FROM ["]ref["]`. A candidate must carry a tag or digest
 * (a bare name is too often a word); each found range is `taken`.
 */
function scrapeCode(line: string, base: number, s: LineState, taken: Found[]): void {
  const consider = (start: number, raw: string, accept: (ref: NonNullable<ReturnType<typeof tryParseReference>>) => boolean): void => {
    const end = start + raw.length;
    if (taken.some((t) => start < t.end && end > t.start)) return;
    const ref = tryParseReference(raw);
    if (!ref || (ref.tag === undefined && ref.digest === undefined) || !accept(ref)) return;
    taken.push({ start, end });
    // a quoted string `+` joins to code is a piece of the ref the program builds: its tag (`:v`) is not the image's
    if (joinedByPlus(line, start, end)) {
      const { line: at } = s.lines.position(base + start);
      s.leftOut.push({ reason: CONCATENATED_REF_LEFT_OUT, where: `${s.ctx.file}:${at} ${line.slice(start - 1).trim().slice(0, 100)}`, line: at });
      return;
    }
    addPin(s, base + start, base + end, raw, ref);
  };
  if (line.includes('=')) {
    for (const m of line.matchAll(ASSIGNED)) {
      const raw = m[3]!;
      consider((m.index ?? 0) + m[0].length - raw.length - 1, raw, (ref) => /image/i.test(m[1]!) || ref.digest !== undefined || hasExplicitDomain(raw));
    }
  }
  if (line.includes('${')) {
    for (const m of line.matchAll(SHELL_DEFAULT)) {
      const raw = m[2]!;
      consider((m.index ?? 0) + m[0].length - raw.length - 1, raw, (ref) => /image/i.test(m[1]!) || ref.digest !== undefined || hasExplicitDomain(raw));
    }
  }
  if (line.includes('FROM')) {
    for (const m of line.matchAll(FROM)) {
      const raw = m[2]!;
      if (raw.toLowerCase() === 'scratch') continue;
      consider((m.index ?? 0) + m[0].length - raw.length - m[1]!.length, raw, () => true);
    }
  }
  if (line.includes('@sha256:')) {
    for (const m of line.matchAll(QUOTED)) {
      const raw = m[2]!;
      consider((m.index ?? 0) + 1, raw, (ref) => ref.digest !== undefined);
    }
  }
}

/** The quoted text at `start`..`end` (quotes around it) is joined to more by `+` on either side. */
function joinedByPlus(line: string, start: number, end: number): boolean {
  return /^[ \t]*\+/.test(line.slice(end + 1)) || /\+[ \t]*$/.test(line.slice(0, start - 1));
}

/** The token as a registry-qualified ref, trimming trailing punctuation; '' when none. */
function trimToRef(token: string): string {
  let t = token;
  while (t.length > 0) {
    if (hasExplicitDomain(t) && tryParseReference(t)) return t;
    if (!/[.:,\-]$/.test(t)) return '';
    t = t.slice(0, -1);
  }
  return '';
}

/** The value starting at `i`: a quoted string's content, or a token up to whitespace/#. */
function readValue(line: string, i: number): Found | undefined {
  const q = line[i];
  if (q === '"' || q === "'") {
    const close = line.indexOf(q, i + 1);
    if (close === -1) return undefined;
    return close > i + 1 ? { start: i + 1, end: close } : undefined;
  }
  if (line.startsWith('{{', i)) {
    const close = line.indexOf('}}', i);
    return { start: i, end: close === -1 ? line.length : close + 2 };
  }
  let end = i;
  while (end < line.length && !/[\s#,}\]]/.test(line[end] as string)) end++;
  if (line[end - 1] === '\r') end--;
  return end > i ? { start: i, end } : undefined;
}

function addPin(s: LineState, start: number, end: number, raw: string, ref: ReturnType<typeof parseReference>): void {
  s.pins.push(buildPin({ shape: 'text', spans: [{ field: 'ref', start, end }], raw, ref, scraped: s.scraped }, s.lines, s.ctx));
}
