/**
 * The CLI's terminal awareness: the TextStyle its text reports get (colour and
 * width from the Io's stdout, `NO_COLOR`, `FORCE_COLOR`, `COLUMNS`; plain into
 * `--output FILE`), and progress on stderr for work over a second, drawn only
 * when stderr is a TTY and not under --quiet.
 */
import { detectStyle, PLAIN, type TextOptions, type TextStyle } from '../report/style.js';
import { terminalSafe } from '../report/sanitize.js';
import type { CommandContext } from './context.js';

/** The style of a text report written to stdout (plain when --output names a file). */
export function textStyle(ctx: CommandContext): TextStyle {
  const output = ctx.global.output;
  if (output !== undefined && output !== '-') return PLAIN;
  return detectStyle(ctx.io.env, ctx.io.stdoutTerminal ?? { isTTY: false });
}

/** Style and detail for a text formatter. */
export function textOptions(ctx: CommandContext): Required<TextOptions> {
  return { style: textStyle(ctx), detail: ctx.global.detail ?? 'normal' };
}

/** How long work runs before progress shows, and how often it is redrawn. */
export const PROGRESS_DELAY_MS = 1000;

/**
 * Run `work`; if it is still running after a second and stderr is a TTY, show
 * `pinwatch: LABEL… Ns` on stderr (redrawn each second, erased when done).
 * Under --verbose, the time taken is said on stderr when done.
 */
export async function withProgress<T>(ctx: CommandContext, label: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const draw = ctx.io.stderrIsTTY === true && ctx.global.detail !== 'quiet';
  let drawn = false;
  const tick = () => {
    drawn = true;
    ctx.io.err(`\r\u001b[2Kpinwatch: ${terminalSafe(label)}… ${Math.round((Date.now() - started) / 1000)}s`);
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  const first = draw
    ? setTimeout(() => {
        tick();
        timer = setInterval(tick, 1000);
        timer.unref?.();
      }, PROGRESS_DELAY_MS)
    : undefined;
  first?.unref?.();
  try {
    return await work();
  } finally {
    if (first) clearTimeout(first);
    if (timer) clearInterval(timer);
    if (drawn) ctx.io.err('\r\u001b[2K');
    if (ctx.global.detail === 'verbose') ctx.io.err(`pinwatch: ${terminalSafe(label)}: ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
  }
}
