/**
 * `pinwatch report --html` on the demo repo, rendered by real headless Chromium:
 * the DOM Chromium builds has the stale billing-controller row with its #42 fix (a
 * link to the PR on the GitHub remote the test sets), stale images first, one SVG
 * timeline per dated image and one bar per stale image, no script; without a remote
 * not one link leaves the page; screenshots at 1400 and 900 px (light and dark) are
 * real, non-blank PNGs. Needs /usr/bin/chromium (CI: `apt-get install -y chromium`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDemoRepo } from '../../src/demo/index.js';
import { runCli, type CliRun } from '../support/io.js';
import { distinctColours, readPng } from '../support/png.js';

const CHROMIUM = '/usr/bin/chromium';
const TIMEOUT_MS = 60_000;

let repo: string;
let work: string;
let htmlFile: string;
let plainFile: string;
let report: CliRun;
let head: string;

/** Run headless Chromium on a file URL; kill its whole process group when it overruns. */
function chromium(extra: string[], url: string): Promise<string> {
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--user-data-dir=${mkdtempSync(join(work, 'profile-'))}`,
    ...extra,
    url,
  ];
  return new Promise((resolvePromise, reject) => {
    // detached: Chromium leads its own process group, so a timeout can kill the group (the type lacks the field; the runtime honours it)
    const options = { detached: true, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' as const };
    const child = execFile(CHROMIUM, args, options, (err, stdout, stderr) => {
      clearTimeout(timer);
      if (err) reject(new Error(`chromium failed: ${err.message}\n${stderr}`));
      else resolvePromise(stdout);
    });
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
      reject(new Error(`chromium did not finish within ${TIMEOUT_MS / 1000}s: ${args.join(' ')}`));
    }, TIMEOUT_MS);
  });
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install it with \`apt-get install -y chromium\` (CI installs it)`);
  repo = buildDemoRepo();
  work = mkdtempSync(join(tmpdir(), 'pinwatch-html-'));
  htmlFile = join(work, 'report.html');
  plainFile = join(work, 'plain.html');
  await runCli(['--repo', repo, 'report', '--html', plainFile]); // no remote yet
  execFileSync('git', ['remote', 'add', 'origin', 'git@github.com:acme/platform.git'], { cwd: repo });
  head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
  report = await runCli(['--repo', repo, 'report', '--html', htmlFile]);
});
afterAll(() => {
  for (const d of [repo, work]) if (d) rmSync(d, { recursive: true, force: true });
});

describe('pinwatch report --html in headless Chromium', () => {
  it('writes the file, says so on stderr, and exits like check', async () => {
    const check = await runCli(['--repo', repo, 'check', '--format', 'json']);
    const json = JSON.parse(check.out) as { findings: { suppressed?: unknown }[]; stale: { images: unknown[] } };
    const active = json.findings.filter((f) => !f.suppressed).length;
    expect(report.err).toBe(`wrote ${htmlFile} (${json.stale.images.length} images, ${active} findings)\n`);
    expect(report.out).toBe('');
    expect(report.code).toBe(check.code);
    expect(report.code).toBe(1);
    expect(statSync(htmlFile).size).toBeGreaterThan(1000);
  });

  it('renders the stale billing-controller row first with its #42 fix, timelines and bars, and no script', async () => {
    const dom = await chromium(['--dump-dom'], pathToFileURL(htmlFile).href);
    const rows = [...dom.matchAll(/<details class="image status-row-(\w+)" id="image-([\w-]+)">/g)].map((m) => [m[2], m[1]]);
    const stale = rows.filter(([, s]) => s === 'stale');
    expect(stale.length).toBe(3); // billing-controller, backup-strategy-controller and the tag-pinned dashboard
    expect(rows.slice(0, 3)).toEqual(stale); // stale first
    expect(rows[0]![0]).toBe('billing-controller'); // the one with a fix
    const billing = dom.slice(dom.indexOf('id="image-billing-controller"'));
    expect(billing).toMatch(/<summary><span class="name"><code>billing-controller<\/code><\/span> <span class="badge status-stale">stale<\/span>/);
    expect(billing).toMatch(/<td class="num"><a href="https:\/\/github.com\/acme\/platform\/pull\/42">#42<\/a><\/td><td>fix\(billing-controller\): requeue BillingClaim/);
    expect((dom.match(/<rect class="bar"/g) ?? []).length).toBe(3);
    expect((dom.match(/<svg class="timeline"/g) ?? []).length).toBeGreaterThanOrEqual(3);
    expect(dom).toMatch(/is missing from \d+ image/);
    expect(dom).not.toMatch(/<script/i);
    expect(dom).toContain('>Invariants</h2>');
    expect(dom).toContain('>Pins</h2>');
    expect(dom).toContain('<dd><a href="https://github.com/acme/platform"><code>https://github.com/acme/platform</code></a></dd>');
    expect(dom).toMatch(new RegExp(`<a href="https://github.com/acme/platform/commit/${head}"><code title="${head}">`));
  }, 90_000);

  it('every link is a GitHub commit, PR, file-at-HEAD or in-page anchor; without a remote there is none', async () => {
    const dom = await chromium(['--dump-dom'], pathToFileURL(htmlFile).href);
    const hrefs = [...dom.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(hrefs.length).toBeGreaterThan(20);
    const kinds = { commit: 0, pr: 0, file: 0, anchor: 0, repo: 0 };
    for (const h of hrefs) {
      if (/^https:\/\/github\.com\/acme\/platform\/commit\/[0-9a-f]{40}$/.test(h)) kinds.commit++;
      else if (/^https:\/\/github\.com\/acme\/platform\/pull\/\d+$/.test(h)) kinds.pr++;
      else if (h.startsWith(`https://github.com/acme/platform/blob/${head}/`) && /#L\d+$|\.\w+$/.test(h)) kinds.file++;
      else if (/^#image-[\w-]+$/.test(h)) {
        kinds.anchor++;
        expect(dom).toContain(`id="${h.slice(1)}"`);
      } else if (h === 'https://github.com/acme/platform') kinds.repo++;
      else throw new Error(`unexpected link ${h}`);
    }
    expect(Object.values(kinds).every((n) => n > 0)).toBe(true);
    // every commit link names a commit of the repository
    const shas = [...new Set(hrefs.filter((h) => h.includes('/commit/')).map((h) => h.split('/').pop()!))];
    const known = execFileSync('git', ['cat-file', '--batch-check'], { cwd: repo, input: shas.join('\n') + '\n', encoding: 'utf8' });
    expect(known).not.toContain('missing');
    // file links name files that exist at HEAD
    const files = [...new Set(hrefs.filter((h) => h.includes('/blob/')).map((h) => decodeURIComponent(h.split(`/blob/${head}/`)[1]!.replace(/#L\d+$/, ''))))];
    const tree = execFileSync('git', ['ls-tree', '-r', '--name-only', 'HEAD'], { cwd: repo, encoding: 'utf8' }).split('\n');
    for (const f of files) expect(tree).toContain(f);
    const plain = await chromium(['--dump-dom'], pathToFileURL(plainFile).href);
    expect(plain).not.toMatch(/<a href="(?!#)/);
    expect(plain).toContain('(no web URL');
  }, 90_000);

  it.each([
    [1400, 'light'],
    [900, 'light'],
    [1400, 'dark'],
  ])('takes a %i px %s screenshot that is a real, non-blank PNG', async (width, scheme) => {
    const shot = join(work, `shot-${width}-${scheme}.png`);
    await chromium([`--screenshot=${shot}`, `--window-size=${width},1000`, '--hide-scrollbars', ...(scheme === 'dark' ? ['--force-dark-mode', '--blink-settings=preferredColorScheme=0'] : [])], pathToFileURL(htmlFile).href);
    const buf = readFileSync(shot);
    expect(buf.length).toBeGreaterThan(10 * 1024);
    const png = readPng(buf);
    expect(png.width).toBe(width);
    expect(distinctColours(png)).toBeGreaterThan(20);
    const [r, g, b] = png.rgb(2, 2); // the page background
    if (scheme === 'dark') expect(r + g + b).toBeLessThan(120);
    else expect(r + g + b).toBeGreaterThan(700);
    if (process.env.PINWATCH_KEEP_SHOT) copyFileSync(shot, join(process.env.PINWATCH_KEEP_SHOT, `shot-${width}-${scheme}.png`));
  }, 90_000);
});
