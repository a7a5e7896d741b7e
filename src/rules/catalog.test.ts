import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULE_CHECKS } from './index.js';
import { LINT_RULES } from './catalog.js';

const DOCS = new URL('../../docs/', import.meta.url);

describe('rule catalog', () => {
  it('every rule check has a catalog entry and ids are unique', () => {
    const ids = LINT_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of RULE_CHECKS) expect(ids).toContain(c.id);
  });

  it.each(LINT_RULES.map((r) => [r.id, r] as const))('%s has a doc page that states its default level and is in the lint.md table', (id, meta) => {
    const page = new URL(`rules/${id}.md`, DOCS);
    expect(existsSync(page)).toBe(true);
    const text = readFileSync(page, 'utf8');
    expect(text.startsWith(`# ${id}\n`)).toBe(true);
    expect(text).toContain(`**Default level:** ${meta.defaultLevel}`);
    const table = readFileSync(new URL('lint.md', DOCS), 'utf8');
    expect(table).toContain(`| [\`${id}\`](rules/${id}.md) | ${meta.defaultLevel} |`);
  });
});
