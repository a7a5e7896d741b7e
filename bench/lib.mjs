// What every bench script shares: its `--name value` options, a wall-clock timer and the median.
const args = process.argv.slice(2);

/** `--name value` as given (a string), else `def`. */
export const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};

/** `--name N` as a number, else `def`. */
export const numOpt = (name, def) => {
  const v = opt(name, undefined);
  return v === undefined ? def : Number(v);
};

/** `--name` given (a switch). */
export const flag = (name) => args.includes(`--${name}`);

/** Run `fn` once: its wall time in ms and its result. */
export function time(fn) {
  const start = process.hrtime.bigint();
  const out = fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, out };
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
