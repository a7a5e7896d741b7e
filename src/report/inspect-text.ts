/** `pinwatch inspect` as text: digest, platforms, build commit (and where it came from), labels. */
import type { RegistryProvenance } from '../registry/provenance.js';
import { terminalSafe } from './sanitize.js';

export function formatInspectText(p: RegistryProvenance): string {
  const out = [
    `Reference:  ${p.ref}`,
    `Digest:     ${p.digest}`,
    `Media type: ${p.mediaType}`,
    `Platforms:  ${p.platforms.length ? p.platforms.join(', ') : '(none listed)'}`,
    `Commit:     ${p.commit ? `${p.commit} (from the ${p.commitFrom})` : 'unknown'}`,
  ];
  if (p.source) out.push(`Source:     ${p.source}`);
  if (p.created) out.push(`Created:    ${p.created}`);
  if (p.reason) out.push(`Note:       ${p.reason}`);
  const labels = Object.entries(p.labels).sort(([a], [b]) => (a < b ? -1 : 1));
  out.push(`Labels:${labels.length ? '' : '     (none)'}`);
  for (const [k, v] of labels) out.push(`  ${k}=${v}`);
  return terminalSafe(`${out.join('\n')}\n`);
}
