/**
 * Test support for the collector tests: read a fixture next to a test, run a
 * collector with a fixed first-party prefix, and summarise pins compactly.
 */
import { readFileSync } from 'node:fs';
import { isFirstParty, type Pin } from '../../src/model/index.js';
import type { CollectContext } from '../../src/collect/types.js';

export const ACME = ['ghcr.io/acme/'];

export function fixtureText(testUrl: string, name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, testUrl), 'utf8');
}

export function acmeContext(file: string): CollectContext {
  return { file, isFirstParty: (name) => isFirstParty(name, ACME) };
}

/** `keyPath shape form raw @line` — one line per pin, for table assertions. */
export function summary(pin: Pin): string {
  return `${pin.keyPath ?? '-'} ${pin.shape} ${pin.form} ${pin.raw} @${pin.line}`;
}

/** The text each span cuts out, as `field=text`. */
export function spanTexts(text: string, pin: Pin): string[] {
  return pin.spans.map((s) => `${s.field}=${text.slice(s.start, s.end)}`);
}
