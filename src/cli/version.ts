/**
 * The one version string: read from the package's own package.json, which sits
 * two folders above this file both in src/cli/ and in dist/cli/ (and in an
 * installed package, where npm always ships package.json).
 */
import { readFileSync } from 'node:fs';

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string') throw new Error('package.json has no "version" string');
  return pkg.version;
}

export const VERSION: string = readVersion();

/** How SARIF and other reports name the tool that produced them. */
export const TOOL = { name: 'pinwatch', version: VERSION } as const;
