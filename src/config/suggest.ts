/** "Did you mean …?" for unknown config keys: the closest valid key by edit distance. */

export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = prev[j]!;
      prev[j] = Math.min(above + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = above;
    }
  }
  return prev[b.length]!;
}

/** The valid key closest to `input` (case-insensitive), or undefined when none is close. */
export function closestKey(input: string, valid: readonly string[]): string | undefined {
  const lower = input.toLowerCase();
  let best: { key: string; d: number } | undefined;
  for (const key of valid) {
    const d = editDistance(lower, key.toLowerCase());
    if (!best || d < best.d) best = { key, d };
  }
  if (!best) return undefined;
  const limit = Math.max(2, Math.floor(Math.max(input.length, best.key.length) / 3));
  return best.d <= limit ? best.key : undefined;
}
