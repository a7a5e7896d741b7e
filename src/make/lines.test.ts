import { describe, expect, it } from 'vitest';
import { logicalLines } from './lines.js';

describe('logicalLines', () => {
  const cases: [string, string, { text: string; line: number; tab: boolean }[]][] = [
    ['plain lines', 'A = 1\nB = 2\n', [{ text: 'A = 1', line: 1, tab: false }, { text: 'B = 2', line: 2, tab: false }]],
    ['a continuation joins with one space', 'A = 1 \\\n    2\nB = 3', [{ text: 'A = 1 2', line: 1, tab: false }, { text: 'B = 3', line: 3, tab: false }]],
    ['an even number of backslashes does not continue', 'A = x\\\\\nB = 3', [{ text: 'A = x\\\\', line: 1, tab: false }, { text: 'B = 3', line: 2, tab: false }]],
    ['a recipe line keeps its tab', 'all:\n\techo hi\r\n', [{ text: 'all:', line: 1, tab: false }, { text: '\techo hi', line: 2, tab: true }]],
  ];
  it.each(cases)('%s', (_name, source, want) => {
    expect(logicalLines(source)).toEqual(want);
    expect(logicalLines(source, 10).map((l) => l.line)).toEqual(want.map((l) => l.line + 9));
  });

  it('splits a text once and shares the frozen lines with every later reading of the same text', () => {
    const text = 'X := 1\nall:\n\techo $(X)\n';
    const first = logicalLines(text);
    expect(logicalLines(text)).toBe(first);
    expect(Object.isFrozen(first) && first.every((l) => Object.isFrozen(l))).toBe(true);
    expect(() => first[0]!.text = 'Y := 2').toThrow(TypeError);
    // A text read at another line (an $(eval)) is split afresh, its own copy.
    expect(logicalLines(text, 5)).not.toBe(first);
    expect(Object.isFrozen(logicalLines(text, 5))).toBe(false);
  });
});
