// The benches' one deterministic PRNG (mulberry32): generated repositories,
// manifests and pod lists are the same on every run and every machine.

/** A generator of floats in [0, 1) from a 32-bit seed. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
