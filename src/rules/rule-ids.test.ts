import { describe, expect, it } from 'vitest';
import { LINT_RULE_IDS, STALE_RULE_IDS } from '../model/rule-ids.js';
import { STALE_RULES } from '../stale/findings.js';
import { LINT_RULES } from './catalog.js';

describe('rule ids', () => {
  it('model/rule-ids.ts lists exactly the rules of the catalogs, in order', () => {
    expect(LINT_RULES.map((r) => r.id)).toEqual([...LINT_RULE_IDS]);
    expect(STALE_RULES.map((r) => r.id)).toEqual([...STALE_RULE_IDS]);
  });
});
