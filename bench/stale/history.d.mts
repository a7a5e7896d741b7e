/** Types for history.mjs (the stale benchmark's synthetic history, also used by the answers test). */
export declare function staleHistoryStream(options?: { images?: number; commits?: number; releaseEvery?: number; picks?: boolean; releasesFrom?: number }): string;
