/**
 * Dockerfile lexer: splits a Dockerfile into logical instructions the way BuildKit
 * does — parser directives (`# syntax=`, `# escape=`, `# check=`), comments, line
 * continuations (with comment and blank lines inside a continuation dropped), and
 * heredocs (`<<EOF`, `<<-EOF`, `<<"EOF"`) whose bodies are attached to the
 * instruction instead of being read as instructions.
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

export function lexDockerfile(text: string): LexedDockerfile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
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
    for (;;) {
      const trimmed = lines[i]!.replace(/\s+$/, '');
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
    instructions.push({ keyword, args, line, heredocs });
  }
  return { directives, escape, instructions, problems };
}
