/**
 * `pinwatch report --html` on the demo repo, rendered by real headless Chromium:
 * the DOM Chromium builds has the stale billing-controller row with its #42 fix,
 * one SVG bar per stale image and no script; a screenshot comes out as a real PNG.
 * Needs /usr/bin/chromium (CI: `apt-get install -y chromium`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDemoRepo } from '../../src/demo/index.js';
import { runCli, type CliRun } from '../support/io.js';

const CHROMIUM = '/usr/bin/chromium';
const TIMEOUT_MS = 60_000;

let repo: string;
let work: string;
let htmlFile: string;
let report: CliRun;

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

  it('renders the stale billing-controller row, the #42 fix, one bar per stale image, and no script', async () => {
    const dom = await chromium(['--dump-dom'], pathToFileURL(htmlFile).href);
    expect(dom).toMatch(/<th scope="row"><code>billing-controller<\/code><\/th><td><span class="badge status-stale">stale<\/span>/);
    const billing = dom.slice(dom.indexOf('unshipped commit(s) in billing-controller'));
    expect(billing).toMatch(/<td class="num">#42<\/td><td>fix\(billing-controller\): requeue BillingClaim/);
    const staleRows = dom.match(/<span class="badge status-stale">stale<\/span><\/td>/g) ?? [];
    expect(staleRows.length).toBe(3); // billing-controller, backup-strategy-controller and the tag-pinned dashboard
    expect((dom.match(/<rect class="bar"/g) ?? []).length).toBe(staleRows.length);
    expect((dom.match(/<title>[^<]*oldest unshipped commit is \d+ day/g) ?? []).length).toBe(staleRows.length);
    expect(dom).not.toMatch(/<script/i);
    expect(dom).toContain('>Invariants</h2>');
    expect(dom).toContain('>Pins</h2>');
  }, 90_000);

  it('takes a screenshot that is a real PNG of some size', async () => {
    const shot = join(work, 'shot.png');
    await chromium([`--screenshot=${shot}`, '--window-size=1280,2000', '--hide-scrollbars'], pathToFileURL(htmlFile).href);
    const png = readFileSync(shot);
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(png.length).toBeGreaterThan(10 * 1024);
    if (process.env.PINWATCH_KEEP_SHOT) copyFileSync(shot, process.env.PINWATCH_KEEP_SHOT);
  }, 90_000);
});
