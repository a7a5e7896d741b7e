/** The config's other usual names are read, not silently ignored; two at once is an error. */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/io.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinwatch-config-names-'));
  dirs.push(dir);
  mkdirSync(join(dir, '.git'));
  mkdirSync(join(dir, 'sub'));
  mkdirSync(join(dir, '.github'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('config file names', () => {
  it.each(['pinwatch.yaml', 'pinwatch.yml', '.pinwatch.yaml', '.pinwatch.yml', '.github/pinwatch.yaml', '.github/pinwatch.yml'])('%s is read (and found from a subfolder)', async (name) => {
    const dir = tree({ [name]: 'firstParty: [ghcr.io/acme/]\n', 'values.yaml': 'image: ghcr.io/acme/a:v1\n' });
    const r = await runCli(['scan', '--format', 'json'], { cwd: join(dir, 'sub') });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).summary.firstParty).toBe(1);
  });
  it('two at once: exit 2 naming both, not one silently ignored', async () => {
    const dir = tree({ 'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\n', '.pinwatch.yml': 'firstParty: [ghcr.io/other/]\n' });
    const r = await runCli(['--repo', dir, 'scan']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\[config-invalid\] \.pinwatch\.yml: pinwatch\.yaml and \.pinwatch\.yml are both at the repository root; keep one/);
  });
  it('.github/pinwatch.yaml beside pinwatch.yaml: exit 2 naming both', async () => {
    const dir = tree({ 'pinwatch.yaml': 'firstParty: [ghcr.io/acme/]\n', '.github/pinwatch.yaml': 'firstParty: [ghcr.io/other/]\n' });
    const r = await runCli(['--repo', dir, 'scan']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/pinwatch\.yaml and \.github\/pinwatch\.yaml are both/);
  });
  it.each([
    ['Pinwatch.yaml', 'pinwatch.yaml'],
    ['pinwatch.json', 'pinwatch.yaml'],
    ['.pinwatch.config.yml', 'pinwatch.yaml'],
    ['.github/pinwatch.yaml.txt', '.github/pinwatch.yaml'],
  ])('a near miss %s is named with the rename (%s), not silently ignored', async (name, want) => {
    const dir = tree({ [name]: 'firstParty: [ghcr.io/acme/]\n', '.pinwatch-baseline.json': '{}', 'values.yaml': 'image: ghcr.io/acme/a:v1\n' });
    const r = await runCli(['--repo', dir, 'scan', '--format', 'json']);
    expect(r.code).toBe(0);
    const assumed = JSON.parse(r.out).config.assumed as string[];
    expect(assumed).toContain(`found ${name}, which pinwatch does not read under that name; rename it ${want}`);
    expect(assumed.join('\n')).not.toMatch(/baseline/);
  });
  it('none: the defaults, and the note names every name looked for', async () => {
    const dir = tree({ 'values.yaml': 'image: ghcr.io/acme/a:v1\n' });
    const r = await runCli(['--repo', dir, 'scan']);
    expect(r.code).toBe(0);
    expect(r.out + r.err).toMatch(/no pinwatch\.yaml \(or pinwatch\.yml, \.pinwatch\.yaml, \.pinwatch\.yml, \.github\/pinwatch\.yaml, \.github\/pinwatch\.yml\) at the repository root/);
  });
});

describe('no repository found', () => {
  it('from the filesystem root or the home directory: exit 2 at once, not a walk of everything', async () => {
    for (const [cwd, where] of [['/', 'filesystem'], [process.env.HOME ?? '/root', 'home directory']] as const) {
      if (existsSync(join(cwd, '.git')) || existsSync(join(cwd, 'pinwatch.yaml'))) continue;
      const t0 = Date.now();
      const r = await runCli(['scan'], { cwd });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(new RegExp(`\\[repo-not-found\\] no pinwatch.yaml or .git at or above .*does not walk the whole ${where}.*--repo DIR`));
      expect(Date.now() - t0).toBeLessThan(5000);
    }
  });
  it('a plain folder of manifests (no .git) is still scanned', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinwatch-plain-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'values.yaml'), 'image: ghcr.io/acme/a:v1\n');
    const r = await runCli(['scan', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).summary.pins).toBe(1);
  });
});
