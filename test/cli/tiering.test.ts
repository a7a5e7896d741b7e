/** V8's tiering for a short run (src/cli/tiering.ts): which flag is set when, and that V8 honours it. */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { TIERING_FLAG, TIERING_TICKS, tieringFlags } from '../../src/cli/tiering.js';

const NODE20_V8 = '11.3.244.8-node.38';
const set = [`${TIERING_FLAG}=${TIERING_TICKS}`];

describe('tieringFlags', () => {
  it.each([
    ['Node 20, a command', NODE20_V8, [], ['stale'], set],
    ['Node 20, the Action (no argv)', NODE20_V8, [], [], set],
    ['Node 20, --version alone', NODE20_V8, [], ['--version'], []],
    ['Node 20, -V alone', NODE20_V8, [], ['-V'], []],
    ['Node 20, --version among others', NODE20_V8, [], ['stale', '--version'], set],
    ['Node 22 (V8 12.4)', '12.4.254.21-node.33', [], ['stale'], []],
    ['Node 24 (V8 13.6)', '13.6.233.17-node.63', [], ['stale'], []],
    ['node given its own value', NODE20_V8, ['--ticks-before-optimization=3'], ['stale'], []],
    ['node given its own value, underscores', NODE20_V8, ['--ticks_before_optimization', '3'], ['stale'], []],
    ['other node flags', NODE20_V8, ['--enable-source-maps', '--max-old-space-size=4096'], ['stale'], set],
  ])('%s', (_what, v8, execArgv, argv, want) => {
    expect(tieringFlags(v8, execArgv, argv)).toEqual(want);
  });
});

/**
 * The bundle's tuneTiering in a process of its own, with V8's natives syntax to read a
 * function's state. The function has no loop (no on-stack replacement) and more bytecode
 * than V8 optimizes on a first tick (81 bytes). Called 1,500 times it is TurboFanned under
 * V8's default (by about 1,000 calls here) and not once tuned (not before 3,000); called
 * 100,000 times it is TurboFanned either way (tuned, by about 10,000): hot code still is.
 */
const probe = (tune: boolean) => `
const status = new Function('f', 'return %GetOptimizationStatus(f)');
const TURBOFANNED = 1 << 6;
const work = new Function('a', 'b', Array.from({ length: 24 }, (_, i) => 'a = (a * ' + (31 + i) + ' + b) % 1000003;').join('\\n') + '\\nreturn a;');
const run = async () => {
  const set = ${tune} ? require(${JSON.stringify(join(process.cwd(), 'dist', 'bundle', 'start.cjs'))}).tuneTiering(['stale']) : [];
  const seen = [];
  let calls = 0;
  let s = 0;
  for (const total of [1500, 100000]) {
    while (calls < total) { s = work(s, calls); calls++; if (calls % 500 === 0) await new Promise((r) => setImmediate(r)); }
    // a background compile finishes, and its code is installed at the next call: up to 2 s on a busy machine
    // (40 more calls at most: far from what tuned tiering needs)
    for (let wait = 0; wait < 40 && !(status(work) & TURBOFANNED); wait++) {
      await new Promise((r) => setTimeout(r, 50));
      s = work(s, calls);
      calls++;
    }
    seen.push((status(work) & TURBOFANNED) !== 0);
  }
  console.log(JSON.stringify({ set, seen, s: s >= 0 }));
};
run();
`;

describe.skipIf(!/^11\.3\./.test(process.versions.v8))('tuneTiering under Node 20 (the built bundle)', () => {
  const runProbe = (tune: boolean) => {
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', '-e', probe(tune)], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    return JSON.parse(r.stdout) as { set: string[]; seen: boolean[]; s: boolean };
  };

  it('sets the flag, and V8 then leaves a lukewarm function to the interpreter but still optimizes a hot one', () => {
    expect(runProbe(false)).toEqual({ set: [], seen: [true, true], s: true });
    expect(runProbe(true)).toEqual({ set, seen: [false, true], s: true });
  });

  it('the command writes nothing to stderr when it sets the flag', () => {
    const r = spawnSync(process.execPath, [join(process.cwd(), 'bin', 'pinwatch.js'), '--help'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
