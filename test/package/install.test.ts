/**
 * The install path a user takes: `npm pack` (its prepare script builds dist/), then
 * `npm install` of the tarball into an empty folder, then the installed
 * `pinwatch` bin. It used to die with ERR_MODULE_NOT_FOUND (no dist/ in the pack).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const temp = (p: string) => {
  const d = mkdtempSync(join(tmpdir(), p));
  dirs.push(d);
  return d;
};
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });

describe('npm pack, npm install, pinwatch', () => {
  it('the packed tarball installs and runs, with LICENSE and without tests', { timeout: 120_000 }, () => {
    // prepare builds dist/ (rebuilding it here would pull it from under the other test files,
    // which run the built CLI at the same time): check the script, pack what `npm test` built.
    const pkg = JSON.parse(execFileSync('node', ['-p', 'JSON.stringify(require("./package.json"))'], { cwd: ROOT, encoding: 'utf8' })) as { scripts: Record<string, string>; repository: { url: string }; homepage: string; bugs: { url: string } };
    expect(pkg.repository.url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/pinwatch\.git$/);
    expect(pkg.homepage).toMatch(/^https:\/\/github\.com\//);
    expect(pkg.bugs.url).toMatch(/\/issues$/);
    // prepare, not prepack: npm runs prepare for npm pack and for an install from git
    expect(pkg.scripts.prepare).toMatch(/npm run build/);
    const packs = temp('pinwatch-pack-');
    const listing = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--silent', '--pack-destination', packs], ROOT)) as { filename: string; files: { path: string }[] }[];
    const files = listing[0]!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'bin/pinwatch.js', 'dist/bundle/pinwatch.cjs', 'dist/cli/main.js', 'dist/index.js', 'dist/index.d.ts', 'schemas/scan-output.schema.json']));
    expect(files.filter((f) => /\.test\.|^test\/|span-check|fixtures\//.test(f))).toEqual([]);
    const tarball = join(packs, readdirSync(packs).find((f) => f.endsWith('.tgz'))!);

    const prefix = temp('pinwatch-install-');
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--silent', tarball], prefix);
    const bin = join(prefix, 'node_modules/.bin/pinwatch');
    const version = JSON.parse(execFileSync('node', ['-p', 'JSON.stringify(require("./package.json").version)'], { cwd: ROOT, encoding: 'utf8' })) as string;
    expect(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()).toBe(version);

    const tree = temp('pinwatch-installed-tree-');
    writeFileSync(join(tree, 'values.yaml'), 'image: ghcr.io/acme/app:v1.0.0\n');
    const scan = JSON.parse(execFileSync(bin, ['--repo', tree, 'scan', '--format', 'json'], { encoding: 'utf8' })) as { summary: { pins: number } };
    expect(scan.summary.pins).toBe(1);
  });

  it('from git (npm pack git+file://…, what `npm pack github:OWNER/pinwatch` does): prepare builds dist/ in the clone, the tarball installs globally and runs', { timeout: 300_000 }, () => {
    // a clone of this repository's HEAD commit, reached through a git URL as npm reaches github:
    const src = join(temp('pinwatch-git-src-'), 'pinwatch');
    execFileSync('git', ['clone', '-q', '--no-hardlinks', ROOT, src]);
    const packs = temp('pinwatch-git-pack-');
    npm(['pack', '--prefer-offline', '--no-audit', '--no-fund', '--silent', '--pack-destination', packs, `git+file://${src}`], packs);
    const tarball = join(packs, readdirSync(packs).find((f) => f.endsWith('.tgz'))!);
    const prefix = temp('pinwatch-git-global-');
    npm(['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--silent', tarball], packs);
    const bin = join(prefix, 'bin/pinwatch');
    expect(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const demo = join(temp('pinwatch-git-demo-'), 'demo');
    const out = spawnSync(bin, ['demo', '--dir', demo], { encoding: 'utf8' });
    expect(out.stdout).toMatch(/billing-controller\s+stale/);
  });
});
