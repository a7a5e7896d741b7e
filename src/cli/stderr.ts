/**
 * The commands' own stderr lines (progress, "wrote …", per-image warnings): like
 * every formatter's output they pass through `terminalSafe`, since they carry
 * file names, config values and reasons from the repository.
 */
import { terminalSafe } from '../report/sanitize.js';
import type { CommandContext } from './context.js';

/** Write `text` to stderr with every control but the newline shown as a visible escape. */
export function say(ctx: CommandContext, text: string): void {
  ctx.io.err(terminalSafe(text));
}
