/**
 * Test support: every YAML file under a `fixtures` folder of src/collect/ (the
 * collectors' fixtures), by path, for the tests that run the YAML parsers over
 * all of them (fast-parse.test.ts, inert.test.ts), and the random edits both
 * make to such texts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const COLLECT_DIR = fileURLToPath(new URL('../../src/collect/', import.meta.url));

export function collectorYamlFixtures(): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  const walk = (d: string, inFixtures: boolean): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p, inFixtures || e.name === 'fixtures');
      else if (inFixtures && /\.ya?ml$/.test(e.name)) out.push({ name: p, text: readFileSync(p, 'utf8') });
    }
  };
  walk(COLLECT_DIR, false);
  return out;
}

/**
 * Up to `edits` random edits of `text`: insert one of `tokens` (with odds
 * `insert`), cut 1 to `cut` characters, or indent or dedent a line by one space.
 */
export function mutateText(text: string, next: () => number, tokens: readonly string[], options: { edits: number; insert: number; cut: number }): string {
  let out = text;
  const n = 1 + Math.floor(next() * options.edits);
  for (let k = 0; k < n; k++) {
    const pos = Math.floor(next() * (out.length + 1));
    const op = next();
    if (op < options.insert) out = out.slice(0, pos) + tokens[Math.floor(next() * tokens.length)] + out.slice(pos);
    else if (op < 0.8) out = out.slice(0, pos) + out.slice(pos + 1 + Math.floor(next() * options.cut));
    else {
      const lines = out.split('\n');
      const li = Math.floor(next() * lines.length);
      if (op < 0.9) lines[li] = ` ${lines[li]}`;
      else lines[li] = lines[li]!.replace(/^ /, '');
      out = lines.join('\n');
    }
  }
  return out;
}
