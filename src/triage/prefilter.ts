/**
 * The prefilter: an Aho–Corasick automaton over one key per literal (a prefix
 * of its longest constant fragment), so a log line is scanned once whatever the
 * number of literals, and only literals whose key occurs in it reach the full
 * matcher. Pure; transitions live in one Map keyed by (state, UTF-16 unit).
 */

/** Keys are cut to this many characters: enough to be selective, and the trie stays small. */
export const KEY_LENGTH = 24;

export interface Prefilter {
  /** Ids of every key that occurs in `text` (each once). */
  candidates(text: string): number[];
  /** Number of automaton states (for the bench). */
  readonly states: number;
}

/** Build the automaton over `keys` (key i reports id i). Empty keys are never reported. */
export function buildPrefilter(keys: readonly string[]): Prefilter {
  const next = new Map<number, number>();
  const fail: number[] = [0];
  const out: (number[] | undefined)[] = [undefined];
  /** Nearest state on the fail chain that ends a key (−1: none). */
  const dict: number[] = [-1];
  const STRIDE = 0x10000;
  let states = 1;
  keys.forEach((raw, id) => {
    const key = raw.slice(0, KEY_LENGTH);
    if (key === '') return;
    let s = 0;
    for (let i = 0; i < key.length; i++) {
      const code = key.charCodeAt(i);
      const k = s * STRIDE + code;
      let t = next.get(k);
      if (t === undefined) {
        t = states++;
        next.set(k, t);
        fail.push(0);
        out.push(undefined);
        dict.push(-1);
      }
      s = t;
    }
    (out[s] ??= []).push(id);
  });
  // Breadth-first failure links, children found by scanning the transitions once per depth.
  const children = new Map<number, [number, number][]>();
  for (const [k, t] of next) {
    const parent = Math.floor(k / STRIDE);
    let list = children.get(parent);
    if (!list) children.set(parent, (list = []));
    list.push([k % STRIDE, t]);
  }
  const queue: number[] = [];
  for (const [, t] of children.get(0) ?? []) {
    fail[t] = 0;
    queue.push(t);
  }
  for (let qi = 0; qi < queue.length; qi++) {
    const s = queue[qi]!;
    for (const [code, t] of children.get(s) ?? []) {
      let f = fail[s]!;
      while (f !== 0 && !next.has(f * STRIDE + code)) f = fail[f]!;
      const g = next.get(f * STRIDE + code);
      fail[t] = g !== undefined && g !== t ? g : 0;
      dict[t] = out[fail[t]!] ? fail[t]! : dict[fail[t]!]!;
      queue.push(t);
    }
  }
  return {
    states,
    candidates(text: string): number[] {
      const found = new Set<number>();
      let s = 0;
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        let t = next.get(s * STRIDE + code);
        while (t === undefined && s !== 0) {
          s = fail[s]!;
          t = next.get(s * STRIDE + code);
        }
        s = t ?? 0;
        for (let d = out[s] ? s : dict[s]!; d > 0; d = dict[d]!) for (const id of out[d]!) found.add(id);
      }
      return [...found];
    },
  };
}
