/** Counts of what the walk left out, by reason, with a few examples each. */
import type { ExclusionCount } from './types.js';

const MAX_EXAMPLES = 3;

export class ExclusionCounter {
  private readonly byReason = new Map<string, ExclusionCount>();

  /** With `log`, every add in order (the walk keeps what each directory added: walk-memo.ts). */
  constructor(readonly log?: [reason: string, example: string][]) {}

  add(reason: string, example: string): void {
    this.log?.push([reason, example]);
    let entry = this.byReason.get(reason);
    if (!entry) {
      entry = { reason, count: 0, examples: [] };
      this.byReason.set(reason, entry);
    }
    entry.count++;
    if (entry.examples.length < MAX_EXAMPLES) entry.examples.push(example);
  }

  /** Take back one count (a file counted as left out that was read after all). */
  remove(reason: string, example: string): void {
    const entry = this.byReason.get(reason);
    if (!entry) return;
    entry.count--;
    entry.examples = entry.examples.filter((e) => e !== example);
    if (entry.count <= 0) this.byReason.delete(reason);
  }

  /** A counter holding what `list()` gave (a copy: a kept walk's counts, src/snapshot/). */
  static of(counts: readonly ExclusionCount[]): ExclusionCounter {
    const out = new ExclusionCounter();
    for (const c of counts) out.byReason.set(c.reason, { reason: c.reason, count: c.count, examples: [...c.examples] });
    return out;
  }

  /** Largest counts first, then by reason: deterministic. */
  list(): ExclusionCount[] {
    return [...this.byReason.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  }
}

export const EXCLUDED_REASONS = {
  prunedDir: (name: string) => `default exclude: ${name}/ directories (not walked)`,
  vendoredChart: 'vendored Helm dependency charts (<chart>/charts/ beside a Chart.yaml; set skipVendoredCharts: false to scan them)',
  vendoredChartFirstParty:
    'vendored Helm dependency charts whose files mention a first-party prefix (pins you may need to update; set skipVendoredCharts: false to scan them)',
  chartTemplates: 'Helm chart templates/ (Go templates, not YAML; declare a file in extraFiles to scrape it)',
  userExcludeDir: (pattern: string) => `exclude ${JSON.stringify(pattern)} (directories pruned)`,
  userExcludeFile: (pattern: string) => `exclude ${JSON.stringify(pattern)}`,
  notIncluded: 'YAML files matching no include glob (not read)',
  symlinkedDir: 'symlinked directories (not followed)',
  symlinkedFile: "symlinks to files of the repository (each target read once, at its own path)",
  recipeTree: 'vendor/ and third_party/ trees (scanned for pins; not read for build recipes or producers)',
  kustomizePlaceholder:
    'kustomize base placeholders (a tag, :latest or none, that every overlay including them replaces with images:); not pins of their own (scan --kustomize shows the effective refs)',
  kustomizeNotFollowed: 'kustomize resources/components not followed (remote, not in the tree — generated before kustomize runs, or a mistake — or a directory without a kustomization)',
} as const;
