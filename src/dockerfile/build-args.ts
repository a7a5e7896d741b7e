/** The `--build-arg` values a recipe's command line spells (the recipe model keeps each build as one readable command). */

/**
 * `--build-arg K=V` values spelled in the recipe's command line; undefined for a value
 * known only when the build runs (a recipe's ⟨…⟩ marker: `${{ steps.prep.outputs.REVISION }}`,
 * `{{ .Version }}`), which the Dockerfile then has no value for.
 */
export function buildArgsOf(command: string | undefined): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const m of (command ?? '').matchAll(/--build-arg[=\s]+(?:"([A-Za-z_]\w*)=([^"]*)"|'([A-Za-z_]\w*)=([^']*)'|([A-Za-z_]\w*)=([^"'\s]*)(?=\s|$))/g)) {
    const value = m[2] ?? m[4] ?? m[6]!;
    out.set((m[1] ?? m[3] ?? m[5])!, value.includes('⟨') ? undefined : value);
  }
  return out;
}
