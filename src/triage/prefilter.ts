/**
 * The prefilter: an Aho–Corasick automaton over one key per literal (a start
 * or end of one of its constant fragments, see engine.ts), so a log line is
 * scanned once whatever the number of literals, and only literals whose key
 * occurs in it reach the full matcher. Pure. Transitions live in one Map keyed
 * by (state, UTF-16 unit), the root's in a direct table (most characters of a
 * line are read at the root).
 */

/** Keys are cut to this many characters: enough to be selective, and the trie stays small. */
export const KEY_LENGTH = 24;

export interface Prefilter {
  /** Ids of every key that occurs in `text` (each once). */
  candidates(text: string): number[];
  /** Number of automaton states (for the bench). */
  readonly states: number;
}

const STRIDE = 0x10000;

/** Build the automaton over `keys` (key i reports id i). Empty keys are never reported. */
export function buildPrefilter(keys: readonly string[]): Prefilter {
  const next = new Map<number, number>();
  const root = new Int32Array(STRIDE);
  const fail: number[] = [0];
  const out: (number[] | undefined)[] = [undefined];
  /** Nearest state on the fail chain that ends a key (−1: none). */
  const dict: number[] = [-1];
  /** Children of each state, as [code, state] pairs in flat arrays, for the breadth-first pass. */
  const kids: number[][] = [[]];
  let states = 1;
  const step = (s: number, code: number): number | undefined => {
    if (s === 0) {
      const t = root[code]!;
      return t === 0 ? undefined : t;
    }
    return next.get(s * STRIDE + code);
  };
  keys.forEach((raw, id) => {
    const key = raw.slice(0, KEY_LENGTH);
    if (key === '') return;
    let s = 0;
    for (let i = 0; i < key.length; i++) {
      const code = key.charCodeAt(i);
      let t = step(s, code);
      if (t === undefined) {
        t = states++;
        if (s === 0) root[code] = t;
        else next.set(s * STRIDE + code, t);
        fail.push(0);
        out.push(undefined);
        dict.push(-1);
        kids.push([]);
        kids[s]!.push(code, t);
      }
      s = t;
    }
    (out[s] ??= []).push(id);
  });
  const queue: number[] = [];
  for (let k = 0; k < kids[0]!.length; k += 2) queue.push(kids[0]![k + 1]!);
  for (let qi = 0; qi < queue.length; qi++) {
    const s = queue[qi]!;
    const list = kids[s]!;
    for (let k = 0; k < list.length; k += 2) {
      const code = list[k]!;
      const t = list[k + 1]!;
      let f = fail[s]!;
      let g = step(f, code);
      while (g === undefined && f !== 0) {
        f = fail[f]!;
        g = step(f, code);
      }
      fail[t] = g !== undefined && g !== t ? g : 0;
      dict[t] = out[fail[t]!] ? fail[t]! : dict[fail[t]!]!;
      queue.push(t);
    }
  }
  kids.length = 0;
  return {
    states,
    candidates(text: string): number[] {
      const found = new Set<number>();
      let s = 0;
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        let t = step(s, code);
        while (t === undefined && s !== 0) {
          s = fail[s]!;
          t = step(s, code);
        }
        s = t ?? 0;
        if (s === 0) continue;
        for (let d = out[s] ? s : dict[s]!; d > 0; d = dict[d]!) for (const id of out[d]!) found.add(id);
      }
      return [...found];
    },
  };
}
