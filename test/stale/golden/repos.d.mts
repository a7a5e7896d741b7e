/** Types for repos.mjs (the answers test's repositories). */
export declare const GOLDEN_REPOS: Record<string, { make: () => string; commands: string[] }>;
export declare function goldenArgs(command: string, dir: string): string[];
export declare function normalize(json: unknown): unknown;
export declare function fromStream(options: { images?: number; commits?: number; releaseEvery?: number; picks?: boolean; releasesFrom?: number }): string;
