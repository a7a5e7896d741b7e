/**
 * docs/errors.md documents every error code: its table rows and
 * PINWATCH_ERROR_CODES (from which PinwatchErrorCode is derived) are the same
 * set, each row once, with all four columns filled.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PINWATCH_ERROR_CODES, REGISTRY_ERROR_CODES } from '../../src/errors.js';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

/** The table rows whose first cell is one backticked code: `| \`code\` | when | example | what to do |`. */
function rows(): { code: string; cells: string[] }[] {
  return doc
    .split('\n')
    .filter((line) => /^\| `[a-z0-9-]+` \|/.test(line))
    .map((line) => {
      // split on the cell bars, not on `|` inside a code span
      const cells = line.slice(1, -1).split(/ \| /).map((c) => c.trim());
      return { code: cells[0]!.slice(1, -1), cells };
    });
}

describe('docs/errors.md', () => {
  it('has one row per code, and no row for a code that does not exist', () => {
    const documented = rows().map((r) => r.code);
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual([...PINWATCH_ERROR_CODES].sort());
  });

  it('fills when, an example and what to do on every row', () => {
    for (const { code, cells } of rows()) {
      expect({ code, columns: cells.length }).toEqual({ code, columns: 4 });
      for (const cell of cells) expect({ code, empty: cell === '' }).toEqual({ code, empty: false });
    }
  });

  it('the code list has no duplicates and holds every registry code', () => {
    expect(new Set(PINWATCH_ERROR_CODES).size).toBe(PINWATCH_ERROR_CODES.length);
    for (const c of REGISTRY_ERROR_CODES) expect(PINWATCH_ERROR_CODES).toContain(c);
  });
});
