/** The built command as a user runs it: a process with real pipes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { generateTree } from '../../bench/scan/generate.mjs';

let dir: string;
beforeAll(() => {
  // big enough that the report takes many pipe buffers
  dir = mkdtempSync(join(tmpdir(), 'pinwatch-bin-'));
  generateTree(dir, 300);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bin/pinwatch.js', () => {
  it('stops quietly when the reader closes the pipe early (pinwatch scan | head -1)', async () => {
    const child = spawn(process.execPath, [join(process.cwd(), 'bin', 'pinwatch.js'), '--repo', dir, '--first-party', 'ghcr.io/acme/', 'scan', '--format', 'json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    expect(code).toBe(0);
  });
});
