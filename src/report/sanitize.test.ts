/** The sanitiser's escapes, table-driven; and every text/Markdown/GitHub formatter uses it. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { markdownCode, markdownText, plainField, terminalSafe } from './sanitize.js';

describe('plainField', () => {
  it.each([
    ['OSC 52 clipboard write', 'a\x1b]52;c;cGF3bmVk\x07b', 'a\\x1b]52;c;cGF3bmVk\\x07b'],
    ['OSC 0 title', '\x1b]0;pwned\x1b\\', '\\x1b]0;pwned\\x1b\\'],
    ['erase screen', '\x1b[2J', '\\x1b[2J'],
    ['cursor up, erase line', '\x1b[1A\x1b[2K', '\\x1b[1A\\x1b[2K'],
    ['CR, LF, tab', 'a\rb\nc\td', 'a\\rb\\nc\\td'],
    ['NUL and DEL', '\x00\x7f', '\\x00\\x7f'],
    ['C1 CSI', 'a\u009b2Jb', 'a\\x9b2Jb'],
    ['bidi override', 'abc\u202edef', 'abc\\u202edef'],
    ['plain text, unicode kept', 'fix(osc): requeue — ünïcode ✓', 'fix(osc): requeue — ünïcode ✓'],
  ])('%s', (_what, input, want) => {
    expect(plainField(input)).toBe(want);
  });
});

describe('terminalSafe', () => {
  it('keeps the formatter’s newlines and escapes everything else; idempotent', () => {
    const out = 'line one \x1b[2J\nline two\r\n';
    expect(terminalSafe(out)).toBe('line one \\x1b[2J\nline two\\r\n');
    expect(terminalSafe(terminalSafe(out))).toBe(terminalSafe(out));
  });
});

describe('markdown', () => {
  it.each([
    ['pipes and backticks', 'a | `b`', 'a \\| \\`b\\`'],
    ['HTML', '<details><!-- x -->', '&lt;details&gt;&lt;!-- x --&gt;'],
    ['entities and links', '&amp; [x](javascript:1)', '&amp;amp; \\[x\\](javascript:1)'],
    ['emphasis', '*a* _b_', '\\*a\\* \\_b\\_'],
    ['controls and newlines', 'a\x1b[2J\nb', 'a\\\\x1b\\[2J\\\\nb'],
  ])('markdownText: %s', (_what, input, want) => {
    expect(markdownText(input)).toBe(want);
  });

  it.each([
    ['plain', 'charts/a.yaml', false, '`charts/a.yaml`'],
    ['backticks inside', 'a`b``c', false, '```a`b``c```'],
    ['backtick at an end', '`a', false, '`` `a ``'],
    ['pipe in a table', 'a|b', true, '`a\\|b`'],
    ['controls', 'a\x1b]0;t\x07', false, '`a\\x1b]0;t\\x07`'],
  ])('markdownCode: %s', (_what, input, inTable, want) => {
    expect(markdownCode(input, inTable)).toBe(want);
  });
});

describe('every human-readable formatter', () => {
  const dir = dirname(fileURLToPath(import.meta.url));
  const formatters = readdirSync(dir).filter((f) => /-(text|markdown|github)\.ts$/.test(f));
  it.each(formatters)('%s passes its output through sanitize.ts', (file) => {
    expect(readFileSync(join(dir, file), 'utf8')).toMatch(/import \{[^}]*\bterminalSafe\b[^}]*\} from '\.\/sanitize\.js'/);
  });
  it('finds the formatters', () => {
    expect(formatters.length).toBeGreaterThanOrEqual(14);
  });
});
