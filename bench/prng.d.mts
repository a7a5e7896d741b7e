/** Types for prng.mjs (the benches' deterministic PRNG, also used by tests that generate input). */
export declare function prng(seed: number): () => number;
