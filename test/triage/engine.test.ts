/**
 * The pure parts of triage, table-driven: the literal readers (Go, Python,
 * shell, TypeScript), holes and specificity, the matcher, framing, the
 * Aho–Corasick prefilter, tokens, and the literal history counting.
 */
import { describe, expect, it } from 'vitest';
import {
  buildLiteralIndex, buildPrefilter, compilePattern, extractLiterals, isSpecific, literalHistories, matchLine, matchPattern, stripFraming, lineTokens,
  type HistoryCommit, type LiteralLanguage,
} from '../../src/triage/index.js';

const values = (text: string, lang: LiteralLanguage) => extractLiterals(text, lang).map((l) => [l.value, l.line]);

describe('literal readers', () => {
  const cases: [string, LiteralLanguage, string, (string | number)[][]][] = [
    ['interpreted strings with escapes', 'go', 'x := "a\\tb \\"q\\" \\x41\\u00e9"\n', [['a\tb "q" Aé', 1]]],
    ['raw strings span lines, one piece per line', 'go', 'var s = `first line\nsecond line`\n', [['first line', 1], ['second line', 2]]],
    ['a \\n inside an interpreted string splits it', 'go', 'fmt.Printf("one\\ntwo")', [['one', 1], ['two', 1]]],
    ['comments are not literals', 'go', '// "not me"\n/* "nor me"\n */ y := "me"\n', [['me', 3]]],
    ['runes do not open strings', 'go', "c := '\"'\nd := \"ok\"", [['ok', 2]]],
    ['import blocks and single imports are left out', 'go', 'import (\n\t"fmt"\n\tx "github.com/acme/x"\n)\nimport "os"\nvar m = "msg"\n', [['msg', 6]]],
    ['struct tags are left out', 'go', 'type T struct {\n\tName string `json:"name,omitempty" yaml:"name"`\n}\n', []],
    ['python quotes and # comments', 'python', 'print("hello there")  # "no"\nx = \'single quoted\'\n', [['hello there', 1], ['single quoted', 2]]],
    ['shell: single quotes are verbatim, # starts a comment', 'shell', "echo 'a\\b' \"c $X\" # \"no\"\necho ${#A}\n", [['a\\b', 1], ['c $X', 1]]],
    ['typescript: template literals and // comments', 'typescript', 'throw new Error(`no ${x} here`); // "no"\n', [['no ${x} here', 1]]],
  ];
  it.each(cases)('%s', (_name, lang, text, want) => {
    expect(values(text, lang)).toEqual(want);
  });
});

describe('holes and specificity', () => {
  const cases: [LiteralLanguage, string, string[]][] = [
    ['go', 'strategy Kind %q is not supported (supported: %s)', ['strategy Kind ', ' is not supported (supported: ', ')']],
    ['go', '100%% done in %-8.3fs', ['100% done in ', 's']],
    ['go', 'value %[2]d of %[1]v', ['value ', ' of ']],
    ['python', 'user {name} has {} items, %s left', ['user ', ' has ', ' items, ', ' left']],
    ['shell', 'cannot reach ${HOST}:$PORT after $(date)', ['cannot reach ', ':', ' after ']],
    ['typescript', 'no image ${ref} in %s', ['no image ', ' in ']],
  ];
  it.each(cases)('%s %s', (lang, value, fragments) => {
    expect(compilePattern(value, lang).fragments).toEqual(fragments);
  });

  it('keeps only literals with enough constant text and words', () => {
    const specific = (v: string, n = 12) => isSpecific(compilePattern(v, 'go'), n);
    expect(specific('failed to get %s: %v')).toBe(true);
    expect(specific('%s: %s %d')).toBe(false); // too little constant text
    expect(specific('=============')).toBe(false); // no words
    expect(specific('github.com/acme/platform/internal')).toBe(false); // an import path, not a message
    expect(specific('short msg %s', 8)).toBe(true);
    expect(specific('short msg %s', 12)).toBe(false);
  });

  it('matches fragments in order anywhere in the text and returns what the holes captured', () => {
    const p = compilePattern('strategy Kind %q is not supported by this controller (supported: %s)', 'go');
    expect(matchPattern(p, 'reconcile: strategy Kind "Redis" is not supported by this controller (supported: Job, Postgres)')).toEqual({
      start: 11, end: 95, holes: ['"Redis"', 'Job, Postgres'],
    });
    expect(matchPattern(p, 'strategy Kind "Redis" is supported by this controller (supported: Job)')).toBeUndefined();
  });
});

describe('framing', () => {
  const cases: [string, string, string[]][] = [
    ['klog header', 'E0915 08:09:00.123456       1 backupjob_controller.go:135] strategy Kind "Redis" is not supported', ['strategy Kind "Redis" is not supported']],
    ['timestamp + level', '2026-09-15T08:09:00.123Z ERROR   something went wrong here', ['something went wrong here']],
    ['test runner prefix', '    backup_test.go:88: expected the job to finish', ['expected the job to finish']],
    ['JSON msg and error fields, decoded', '{"level":"error","msg":"Reconciler error","error":"kind \\"Redis\\" unsupported","ts":1}', ['Reconciler error', 'kind "Redis" unsupported']],
    ['logfmt', 'time=2026-09-15T08:09:00Z level=error msg="apply failed" error="kind \\"Redis\\" unsupported"', ['apply failed', 'kind "Redis" unsupported']],
    ['kubectl --timestamps + klog', '2026-09-15T08:09:00.000000001Z I0915 08:09:00.000000 1 main.go:12] starting manager', ['starting manager']],
    ['Go log package timestamp', '2026/09/15 08:09:00 Failed to load key pair: open x: no such file', ['Failed to load key pair: open x: no such file']],
    ['ANSI colours and a bracketed label', '\x1b[31m[pod/ctrl-1/manager]\x1b[0m boom happened', ['boom happened']],
  ];
  it.each(cases)('%s', (_name, line, texts) => {
    expect(stripFraming(line).texts).toEqual(texts);
  });
});

describe('Aho–Corasick prefilter', () => {
  it('reports every key occurring in the text, overlapping and nested ones too', () => {
    const keys = ['he', 'she', 'his', 'hers', 'not supported', 'supported'];
    const pf = buildPrefilter(keys);
    expect(pf.candidates('ushers').sort()).toEqual([0, 1, 3]);
    expect(pf.candidates('kind is not supported here').sort()).toEqual([0, 4, 5]); // 'he' in 'here'
    expect(pf.candidates('nothing')).toEqual([]);
  });
});

describe('index, ranking and tokens', () => {
  const files = [
    { path: 'internal/a/a.go', text: 'package a\nvar e = fmt.Errorf("strategy Kind %q is not supported by this controller (supported: %s)", k, s)\nvar f = "is not supported by this controller"\n' },
  ];
  it('ranks the more specific literal first and takes tokens from its holes', () => {
    const index = buildLiteralIndex(files, []);
    const hits = matchLine(index, 'strategy Kind "MongoDB" is not supported by this controller (supported: Job, Postgres)');
    expect(hits.map((h) => h.entry.pattern.value)).toEqual(['strategy Kind %q is not supported by this controller (supported: %s)', 'is not supported by this controller']);
    expect(lineTokens(hits[0]!)).toEqual(['MongoDB']);
  });
});

describe('literal history', () => {
  const c = (sha: string, events: HistoryCommit['events']): HistoryCommit => ({ sha: sha.repeat(40), date: '2026-01-01T00:00:00Z', subject: sha, events });
  it('finds the introducing and removing commits by counting back from HEAD; a move is neither', () => {
    const newestFirst = [
      c('d', [{ value: 'gone message here', file: 'x.go', line: 7, sign: '-' }]),
      c('c', [{ value: 'moved message', file: 'x.go', line: 3, sign: '-' }, { value: 'moved message', file: 'y.go', line: 1, sign: '+' }]),
      c('b', [{ value: 'gone message here', file: 'x.go', line: 7, sign: '+' }, { value: 'moved message', file: 'x.go', line: 3, sign: '+' }]),
    ];
    const h = literalHistories(newestFirst, (v) => (v === 'moved message' ? 1 : 0));
    expect(h.get('gone message here')).toMatchObject({ introduced: { commit: 'b'.repeat(40) }, removed: { commit: 'd'.repeat(40), file: 'x.go', line: 7 } });
    expect(h.get('moved message')).toEqual({ introduced: expect.objectContaining({ commit: 'b'.repeat(40) }) });
  });
});

describe('formatters keep untrusted text inert', () => {
  it('a log line or subject holding terminal controls prints them as visible escapes (text, github, markdown)', async () => {
    const { formatTriageText } = await import('../../src/report/triage-text.js');
    const { formatTriageGithub } = await import('../../src/report/triage-github.js');
    const { formatTriageMarkdown } = await import('../../src/report/triage-markdown.js');
    const evil = 'boom \x1b]52;c;ZXZpbA==\x07 \x1b[2J|`x`';
    const report = {
      head: 'a'.repeat(40), window: { since: 'b'.repeat(40), commits: 1 }, index: { files: 1, literals: 1, removed: 0, skippedFiles: 0 },
      summary: { lines: 1, matched: 1, skew: 1, noSkew: 0, unknown: 0, unlisted: 0 }, notes: [], gitProcesses: 1, timings: {},
      lines: [{ lineNumber: 1, source: '-', text: evil, verdict: 'skew' as const, explanation: evil, tokens: [], moreMatches: 0, matches: [{
        file: 'a.go', line: 1, atHead: true, literal: evil, specificity: 20,
        images: [{ name: 'app', repository: 'r/app', standing: 'skew' as const, reason: evil, build: { commit: 'c'.repeat(40), method: 'digest-history' }, lacks: [{ commit: 'd'.repeat(40), subject: evil, date: '2026-01-01', mentions: ['boom'] }] }],
      }] }],
    };
    for (const out of [formatTriageText(report), formatTriageGithub(report), formatTriageMarkdown(report)]) {
      expect(out).not.toMatch(/[\x07\x1b]/);
      expect(out).toContain('\\x1b');
    }
  });
});
