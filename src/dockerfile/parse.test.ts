import { describe, expect, it } from 'vitest';
import { argsSpan, lexDockerfile } from './lexer.js';
import { parseDockerfile } from './parse.js';
import type { CopyOp, RunOp } from './parse.js';
import { neededStages } from './stages.js';
import { expandVariables } from './substitute.js';

const copies = (text: string, stage = -1): CopyOp[] => {
  const stages = parseDockerfile(text).stages;
  return stages.at(stage)!.ops.filter((o): o is CopyOp => o.op === 'copy');
};
const runs = (text: string): RunOp[] => parseDockerfile(text).stages.flatMap((s) => s.ops.filter((o): o is RunOp => o.op === 'run'));

describe('lexDockerfile', () => {
  const cases: { name: string; text: string; keywords: string[]; args?: string[]; directives?: Record<string, string> }[] = [
    { name: 'continuation joins lines', text: 'FROM a\nRUN go build \\\n  ./cmd/x\n', keywords: ['FROM', 'RUN'], args: ['a', 'go build   ./cmd/x'] },
    { name: 'comment and blank lines inside a continuation are dropped', text: 'FROM a\nCOPY x \\\n# note\n\n  y/\n', keywords: ['FROM', 'COPY'], args: ['a', 'x   y/'] },
    { name: 'comments are not instructions', text: '# hi\nFROM a\n  # COPY x y\n', keywords: ['FROM'] },
    { name: 'escape directive switches to backtick', text: '# escape=`\nFROM a\nCOPY x `\n  y\\\n', keywords: ['FROM', 'COPY'], args: ['a', 'x   y\\'], directives: { escape: '`' } },
    { name: 'syntax directive is read, not an instruction', text: '# syntax=docker/dockerfile:1.7\nFROM a\n', keywords: ['FROM'], directives: { syntax: 'docker/dockerfile:1.7' } },
    { name: 'a directive after a comment is a comment', text: '# hello\n# escape=`\nFROM a\nRUN x \\\n y\n', keywords: ['FROM', 'RUN'], directives: {} },
    { name: 'heredoc body is not read as instructions', text: 'FROM a\nRUN <<EOF\nCOPY evil /x\nEOF\nCOPY ok /y\n', keywords: ['FROM', 'RUN', 'COPY'], args: ['a', '<<EOF', 'ok /y'] },
    { name: '<<- strips leading tabs of the terminator', text: 'FROM a\nRUN <<-EOT\n\tADD nope /\n\tEOT\nWORKDIR /w\n', keywords: ['FROM', 'RUN', 'WORKDIR'] },
    { name: 'two heredocs in one instruction', text: 'FROM a\nCOPY <<A <<"B" /dst/\na\nA\nb\nB\nRUN true\n', keywords: ['FROM', 'COPY', 'RUN'] },
    { name: 'here-string <<< is not a heredoc', text: 'FROM a\nRUN cat <<< "x"\nCOPY y /y\n', keywords: ['FROM', 'RUN', 'COPY'] },
    { name: 'CRLF line endings', text: 'FROM a\r\nCOPY x \\\r\n y\r\n', keywords: ['FROM', 'COPY'], args: ['a', 'x  y'] },
  ];
  it.each(cases)('$name', ({ text, keywords, args, directives }) => {
    const lexed = lexDockerfile(text);
    expect(lexed.instructions.map((i) => i.keyword)).toEqual(keywords);
    if (args) expect(lexed.instructions.map((i) => i.args)).toEqual(args);
    if (directives) expect(lexed.directives).toEqual(directives);
  });

  it('keeps where each argument came from (argsSpan), across continuations, CRLF and a BOM', () => {
    const text = '\uFEFFFROM a\r\nCOPY  x \\\r\n# note\r\n  yy/\r\n';
    const [from, copy] = lexDockerfile(text).instructions;
    expect(copy!.args).toBe('x   yy/');
    const slice = (ins: typeof from, a: number, b: number) => {
      const span = argsSpan(ins!, a, b);
      return span && text.slice(span.start, span.end);
    };
    expect(slice(from, 0, 1)).toBe('a');
    expect(slice(copy, 0, 1)).toBe('x');
    expect(slice(copy, 4, 7)).toBe('yy/');
    expect(argsSpan(copy!, 0, 5)).toBeUndefined();
  });

  it('keeps heredoc bodies and reports an unclosed one', () => {
    const lexed = lexDockerfile('FROM a\nRUN <<EOF\ngo build ./cmd/x\n');
    expect(lexed.instructions[1]!.heredocs).toEqual([{ name: 'EOF', body: 'go build ./cmd/x' }]);
    expect(lexed.problems[0]!.reason).toMatch(/not closed/);
  });
});

describe('expandVariables', () => {
  const vars = new Map([
    ['A', 'a'],
    ['EMPTY', ''],
  ]);
  const cases: [string, string, string[]][] = [
    ['$A/x', 'a/x', []],
    ['${A}x', 'ax', []],
    ['${B:-def}', 'def', []],
    ['${EMPTY:-def}', 'def', []],
    ['${EMPTY-def}', '', []],
    ['${A:+alt}', 'alt', []],
    ['${B:+alt}', '', []],
    ['${B:-${A}2}', 'a2', []],
    ['$B/x', '*/x', ['B']],
    ['\\$A', '$A', []],
  ];
  it.each(cases)('%s → %s', (input, value, unresolved) => {
    const e = expandVariables(input, vars, '*');
    expect({ value: e.value, unresolved: e.unresolved }).toEqual({ value, unresolved });
  });
  it('keeps an unknown variable as written without a placeholder', () => {
    expect(expandVariables('go build ./cmd/$NAME ${X}', vars).value).toBe('go build ./cmd/$NAME ${X}');
  });
});

describe('parseDockerfile COPY/ADD', () => {
  const cases: { name: string; text: string; sources: string[]; dest?: string; from?: string; dropped?: string[] }[] = [
    { name: 'shell form', text: 'FROM a\nCOPY go.mod go.sum ./\n', sources: ['go.mod', 'go.sum'], dest: '/' },
    { name: 'dest keeps its trailing slash', text: 'FROM a\nWORKDIR /w\nCOPY api api/\n', sources: ['api'], dest: '/w/api/' },
    { name: 'JSON form with spaces', text: 'FROM a\nCOPY ["my dir", "b c", "/dst/"]\n', sources: ['my dir', 'b c'], dest: '/dst/' },
    { name: 'flags are skipped', text: 'FROM a\nCOPY --chown=1:1 --chmod=755 --link --parents x/ /y\n', sources: ['x/'], dest: '/y' },
    { name: '--from is recorded', text: 'FROM a AS b\nFROM c\nCOPY --from=b /out /out\n', sources: ['/out'], from: 'b' },
    { name: 'ADD URL and git are dropped', text: 'FROM a\nADD https://x.test/a.tgz git@github.com:a/b.git local.tgz /\n', sources: ['local.tgz'], dropped: ['https://x.test/a.tgz', 'git@github.com:a/b.git'] },
    { name: 'heredoc source is dropped', text: 'FROM a\nCOPY <<EOF /etc/x\nhello\nEOF\n', sources: [], dropped: ['<<EOF'] },
    { name: 'global ARG default', text: 'ARG DIR=src\nFROM a\nARG DIR\nCOPY ${DIR}/ /app\n', sources: ['src/'] },
    { name: 'stage ARG and ENV', text: 'FROM a\nARG V=1\nENV P=pkg/$V\nCOPY $P ./\n', sources: ['pkg/1'] },
    { name: 'legacy ENV form', text: 'FROM a\nENV P some dir\nCOPY ${P} ./\n', sources: ['some dir'] },
    { name: 'unknown variable becomes a glob', text: 'FROM a\nARG NAME\nCOPY cmd/${NAME} ./\n', sources: ['cmd/*'] },
    { name: 'WORKDIR makes dest absolute (`.` is that directory: the file goes into it)', text: 'FROM a\nWORKDIR /w\nWORKDIR sub\nCOPY x .\n', sources: ['x'], dest: '/w/sub/' },
    { name: 'a dest named as a file stays a file', text: 'FROM a\nWORKDIR /w\nCOPY x app.go\n', sources: ['x'], dest: '/w/app.go' },
    { name: '.. is a directory too', text: 'FROM a\nWORKDIR /w/sub\nCOPY x ..\n', sources: ['x'], dest: '/w/' },
  ];
  it.each(cases)('$name', ({ text, sources, dest, from, dropped }) => {
    const op = copies(text).at(-1)!;
    expect(op.sources).toEqual(sources);
    if (dest !== undefined) expect(op.dest).toBe(dest);
    expect(op.from).toBe(from);
    if (dropped) expect(op.dropped.map((d) => d.source)).toEqual(dropped);
  });

  it('a global ARG is not visible in a stage unless redeclared', () => {
    expect(copies('ARG D=src\nFROM a\nCOPY $D ./\n')[0]!.sources).toEqual(['*']);
  });

  it('build args override defaults', () => {
    const stages = parseDockerfile('FROM a\nARG D=src\nCOPY $D ./\n', new Map([['D', 'lib']])).stages;
    expect((stages[0]!.ops[0] as CopyOp).sources).toEqual(['lib']);
  });

  it('a build arg known only when the build runs leaves the ARG without a value, its default too; ARG names are listed', () => {
    const parsed = parseDockerfile('ARG BASE=alpine\nFROM ${BASE}\nARG D=src\nCOPY $D ./\n', new Map([['D', undefined], ['BASE', undefined]]));
    expect((parsed.stages[0]!.ops[0] as CopyOp).sources).toEqual(['*']);
    expect(parsed.stages[0]!.baseUnresolved).toEqual(['BASE']);
    expect([...parsed.args]).toEqual(['BASE', 'D']);
  });
});

describe('parseDockerfile RUN', () => {
  it('reads mounts, JSON form and heredoc bodies', () => {
    const [a, b, c] = runs('FROM a\nWORKDIR /src\nRUN --mount=type=bind,source=tools,target=/t --mount=type=cache,target=/c make\nRUN ["go", "build", "./cmd/x"]\nRUN <<EOF\ngo build ./cmd/y\nEOF\n');
    expect(a!.mounts).toEqual([
      { type: 'bind', from: undefined, source: 'tools', target: '/t' },
      { type: 'cache', from: undefined, source: '', target: '/c' },
    ]);
    expect(a!.workdir).toBe('/src');
    expect(b!.command).toBe('go build ./cmd/x');
    expect(c!.command).toContain('go build ./cmd/y');
  });
});

describe('neededStages', () => {
  const text = [
    'FROM golang AS deps',
    'FROM deps AS builder',
    'COPY --from=tools /bin/x /x',
    'FROM alpine AS tools',
    'FROM alpine AS unused',
    'COPY junk /junk',
    'FROM scratch AS controller',
    'COPY --from=builder /out /out',
    'FROM scratch AS sidecar',
    'COPY --from=1 /s /s',
    'FROM busybox AS mounted',
    'RUN --mount=type=bind,from=tools,target=/t true',
  ].join('\n');
  const cases: [string | undefined, string[] | string][] = [
    ['controller', ['deps', 'builder', 'tools', 'controller']],
    ['sidecar', ['deps', 'builder', 'tools', 'sidecar']],
    ['unused', ['unused']],
    ['MOUNTED', ['tools', 'mounted']],
    [undefined, ['tools', 'mounted']],
    ['nope', 'target stage "nope" is not in the Dockerfile'],
  ];
  it.each(cases)('target %s', (target, expected) => {
    const r = neededStages(parseDockerfile(text), target);
    if (typeof expected === 'string') expect('error' in r && r.error).toContain(expected);
    else expect('needed' in r && r.needed.map((s) => s.name)).toEqual(expected);
  });
});

describe('neededStages through platform ARGs (docker/buildx: `FROM binaries-$TARGETOS AS binaries`)', () => {
  const text = [
    'FROM golang AS build',
    'RUN --mount=type=bind,target=. go build ./cmd/x',
    'FROM scratch AS bin-unix',
    'COPY --from=build /x /x',
    'FROM bin-unix AS bin-linux',
    'FROM scratch AS bin-windows',
    'COPY --from=build /x /x.exe',
    'FROM alpine AS tools-amd64',
    'FROM alpine AS tools-arm64',
    'FROM alpine AS other',
    'FROM bin-$TARGETOS AS bin',
    'FROM scratch AS copied',
    'ARG TARGETARCH',
    'COPY --from=tools-${TARGETARCH} /t /t',
    'FROM scratch AS mounted',
    'RUN --mount=type=bind,from=tools-$BUILDARCH,target=/t true',
    'FROM $BASE_IMAGE-$TARGETOS AS unknown-base',
  ].join('\n');
  const cases: [string, string[]][] = [
    // every stage the name can be, whichever platform is built; not `other`, which no platform names
    ['bin', ['build', 'bin-unix', 'bin-linux', 'bin-windows', 'bin']],
    ['copied', ['tools-amd64', 'tools-arm64', 'copied']],
    ['mounted', ['tools-amd64', 'tools-arm64', 'mounted']],
    // another ARG without a value: the base is an image, as before
    ['unknown-base', ['unknown-base']],
  ];
  it.each(cases)('target %s', (target, expected) => {
    const r = neededStages(parseDockerfile(text), target);
    expect('needed' in r && r.needed.map((s) => s.name)).toEqual(expected);
  });

  it('such a base is stages, not an image: no FROM pin, no unresolved-ref', () => {
    const stage = parseDockerfile(text).stages.find((s) => s.name === 'bin')!;
    expect(stage.baseStages).toEqual([1, 2, 3]);
  });
});
