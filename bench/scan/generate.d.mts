/** Types for generate.mjs (the scan benchmark's tree generator, also used by the differential test). */
export declare function generateTree(dir: string, count: number): void;
