/** Types for manifest.mjs (a generated CRD-bundle manifest for the fast parser's tests and the scan benchmark). */
export declare function generateManifest(kb?: number, seed?: number): string;
