/**
 * Helm image maps whose `repository` is only a prefix: charts that append the
 * service name in their templates (`{{ .Values.images.repository }}/frontend`)
 * store `images.repository: registry/project`, which names no image. A split-map
 * pin is such a prefix when no other pin names that repository and first-party
 * pins sit below it (`registry/project/frontend`); it is then not a pin (and
 * not a finding), and scan counts it under `excluded`.
 */
import type { Pin } from '../model/index.js';

export const PREFIX_REASON = 'Helm image repositories that only prefix first-party images (templates append the service name): not images';

export function repositoryPrefixes(pins: readonly Pin[]): Pin[] {
  const byName = new Map<string, number>();
  for (const p of pins) if (!p.incomplete) byName.set(p.ref.name, (byName.get(p.ref.name) ?? 0) + 1);
  const firstPartyNames = [...new Set(pins.filter((p) => p.firstParty && !p.incomplete).map((p) => p.ref.name))];
  return pins.filter(
    (p) =>
      p.shape === 'yaml-split' &&
      !p.incomplete &&
      p.ref.digest === undefined &&
      byName.get(p.ref.name) === 1 &&
      firstPartyNames.some((n) => n.startsWith(`${p.ref.name}/`)),
  );
}
