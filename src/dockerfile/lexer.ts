/**
 * Dockerfile lexer: splits a Dockerfile into logical instructions the way BuildKit
 * does — parser directives (`# syntax=`, `# escape=`, `# check=`), comments, line
 * continuations (with comment and blank lines inside a continuation dropped), and
 * heredocs (`<<EOF`, `<<-EOF`, `<<"EOF"`) whose bodies are attached to the
 * instruction instead of being read as instructions. Each instruction keeps where
 * its arguments came from in the text, so a reader can point at exact bytes.
 */

export interface Heredoc {
  name: string;
  body: string;
}

export interface RawInstruction {
  /** Upper-cased keyword: `FROM`, `COPY`, … */
  keyword: string;
  /** Everything after the keyword, continuations joined. */
  args: string;
  /** 1-based line of the keyword. */
  line: number;
  heredocs: Heredoc[];
  /**
   * Where `args` came from: `args[at]` onwards sits at `offset` in the text (UTF-16
   * code units, BOM included), up to the next entry's `at`. One entry per physical
   * line the arguments span; see `argsSpan`.
   */
  argsOffsets: { at: number; offset: number }[];
}

export interface LexedDockerfile {
  directives: Record<string, string>;
  escape: string;
  instructions: RawInstruction[];
  /** Lines that could not be read, with the reason (never silently skipped). */
  problems: { line: number; reason: string }[];
}

const DIRECTIVE = /^\s*#\s*([a-zA-Z][a-zA-Z0-9_-]*)\s*=\s*(.*?)\s*$/;
const KNOWN_DIRECTIVES = new Set(['syntax', 'escape', 'check']);
const HEREDOC = /(?<!<)<<(?!<)(-?)(["']?)([A-Za-z_][A-Za-z0-9_.-]*)\2/g;
const HEREDOC_KEYWORDS = new Set(['RUN', 'COPY', 'ADD']);

function isBlankOrComment(line: string): boolean {
  const t = line.trimStart();
  return t === '' || t.startsWith('#');
}

function readDirectives(lines: string[]): { directives: Record<string, string>; next: number } {
  const directives: Record<string, string> = {};
  let i = 0;
  for (; i < lines.length; i++) {
    const m = DIRECTIVE.exec(lines[i]!);
    if (!m) break;
    const key = m[1]!.toLowerCase();
    if (!KNOWN_DIRECTIVES.has(key) || key in directives) break;
    directives[key] = m[2]!;
  }
  return { directives, next: i };
}

/** Heredoc markers named in an instruction's arguments, in order. */
export function heredocMarkers(args: string): { name: string; strip: boolean }[] {
  const out: { name: string; strip: boolean }[] = [];
  for (const m of args.matchAll(HEREDOC)) out.push({ name: m[3]!, strip: m[1] === '-' });
  return out;
}

/**
 * The text span of `ins.args.slice(from, to)`, or undefined when that slice
 * crosses a line continuation (its bytes are not contiguous in the file).
 */
export function argsSpan(ins: RawInstruction, from: number, to: number): { start: number; end: number } | undefined {
  if (to <= from) return undefined;
  let piece = 0;
  for (let k = 0; k < ins.argsOffsets.length; k++) if (ins.argsOffsets[k]!.at <= from) piece = k;
  const here = ins.argsOffsets[piece];
  const next = ins.argsOffsets[piece + 1];
  if (!here || (next !== undefined && to > next.at)) return undefined;
  return { start: here.offset + from - here.at, end: here.offset + to - here.at };
}

/** Lines without their terminators, and the text offset each starts at. */
function splitLines(text: string): { lines: string[]; starts: number[] } {
  const lines: string[] = [];
  const starts: number[] = [];
  let pos = text.startsWith('\uFEFF') ? 1 : 0;
  const eol = /\r?\n/g;
  for (let m = eol.exec(text); m; m = eol.exec(text)) {
    lines.push(text.slice(pos, m.index));
    starts.push(pos);
    pos = m.index + m[0].length;
  }
  lines.push(text.slice(pos));
  starts.push(pos);
  return { lines, starts };
}

export function lexDockerfile(text: string): LexedDockerfile {
  const { lines, starts } = splitLines(text);
  const { directives, next } = readDirectives(lines);
  const escape = directives.escape === '`' ? '`' : '\\';
  const problems: LexedDockerfile['problems'] = [];
  if (directives.escape !== undefined && directives.escape !== '`' && directives.escape !== '\\') {
    problems.push({ line: 1, reason: `escape directive "${directives.escape}" is not \\ or \`; using \\` });
  }
  const instructions: RawInstruction[] = [];
  let i = next;
  while (i < lines.length) {
    if (isBlankOrComment(lines[i]!)) {
      i++;
      continue;
    }
    const line = i + 1;
    let buf = '';
    const pieces: { at: number; offset: number }[] = [];
    for (;;) {
      const trimmed = lines[i]!.replace(/\s+$/, '');
      pieces.push({ at: buf.length, offset: starts[i]! });
      i++;
      if (!trimmed.endsWith(escape)) {
        buf += trimmed;
        break;
      }
      buf += trimmed.slice(0, -1);
      while (i < lines.length && isBlankOrComment(lines[i]!)) i++;
      if (i >= lines.length) break;
    }
    const m = /^\s*(\S+)\s*([\s\S]*)$/.exec(buf);
    if (!m) continue;
    const keyword = m[1]!.toUpperCase();
    const args = m[2]!;
    const argsStart = buf.length - args.length;
    const argsOffsets = pieces
      .filter((_, k) => (pieces[k + 1]?.at ?? Infinity) > argsStart)
      .map((p) => (p.at >= argsStart ? { at: p.at - argsStart, offset: p.offset } : { at: 0, offset: p.offset + argsStart - p.at }));
    const heredocs: Heredoc[] = [];
    if (HEREDOC_KEYWORDS.has(keyword)) {
      for (const marker of heredocMarkers(args)) {
        const body: string[] = [];
        let closed = false;
        while (i < lines.length) {
          const raw = lines[i]!;
          i++;
          const candidate = marker.strip ? raw.replace(/^\t+/, '') : raw;
          if (candidate === marker.name) {
            closed = true;
            break;
          }
          body.push(candidate);
        }
        if (!closed) while (body.length > 0 && body[body.length - 1] === '') body.pop();
        if (!closed) problems.push({ line, reason: `heredoc <<${marker.name} is not closed before the end of the file` });
        heredocs.push({ name: marker.name, body: body.join('\n') });
      }
    }
    instructions.push({ keyword, args, line, heredocs, argsOffsets });
  }
  return { directives, escape, instructions, problems };
}
