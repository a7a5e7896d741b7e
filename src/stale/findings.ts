/**
 * Stale images as `Finding`s (rule `stale-image`, one per pin, at the pin's
 * file:line), unknown images as `stale-unknown` notes and, in PR mode, images
 * the PR's own commits change as `rebuild-needed` notes, for the generic
 * sarif/github/markdown formatters and for `check`.
 */
import { createHash } from 'node:crypto';
import type { Finding, Severity } from '../model/index.js';
import type { RuleMeta } from '../rules/index.js';
import { imageFails, type StalePolicy } from './policy.js';
import type { StaleImage, StaleReport } from './types.js';

export const STALE_RULES: readonly RuleMeta[] = [
  {
    id: 'stale-image',
    defaultLevel: 'warning',
    title: 'The pinned image does not contain merged changes to its build inputs',
    description:
      'The commit the pinned image was built from lacks commits that later changed the image sources. Those changes (fixes included) are merged but run nowhere until the image is rebuilt and repinned.',
    hint: 'Rebuild the image from the current tree and repin its digest (the build recipe that stamps this pin does both).',
  },
  {
    id: 'stale-unknown',
    defaultLevel: 'note',
    title: 'pinwatch could not tell which commit the pinned image was built from, or what its inputs are',
    description: 'No provenance method answered, or the build inputs could not be derived; the image is neither stale nor current.',
    hint: 'See `pinwatch explain IMAGE` for each method tried; declare the image in pinwatch.yaml or fetch full history.',
  },
  {
    id: 'rebuild-needed',
    defaultLevel: 'note',
    title: "This pull request changes the image's build inputs: its build must rebuild and repin the image",
    description:
      "PR mode (check --base REV): commits only the PR has change the inputs of this image. They are not unshipped merged work (the PR's own build ships them), so they do not count as stale; they are the rebuild this PR owes.",
    hint: "Let this PR's build rebuild the image and repin it (or repin on merge: docs/ci/repin-on-merge.yml).",
  },
];

function fingerprint(...parts: (string | undefined)[]): string {
  return createHash('sha256').update(parts.map((p) => p ?? '').join('\0')).digest('hex').slice(0, 32);
}

function staleMessage(img: StaleImage): string {
  const fixes = img.unshipped.filter((u) => u.fix !== undefined).length;
  const built = img.builtFrom ? `built from ${img.builtFrom.commit.slice(0, 10)} (${img.builtFrom.method})` : 'build commit unknown';
  const prs = [...new Set(img.unshipped.flatMap((u) => (u.pr ? [`#${u.pr}`] : [])))].slice(0, 5);
  return `${img.repository} is ${built} and lacks ${img.unshipped.length} merged commit(s) to its inputs${fixes ? `, ${fixes} fix(es)` : ''}${prs.length ? ` (${prs.join(', ')})` : ''}`;
}

export function staleFindings(report: StaleReport, policy: StalePolicy): Finding[] {
  const out: Finding[] = [];
  for (const img of report.images) {
    if (img.rebuild && img.rebuild.length > 0) out.push(rebuildFinding(img));
    if (img.status === 'current') continue;
    const stale = img.status === 'stale';
    const severity: Severity = imageFails(img, policy) ? 'error' : stale ? 'warning' : 'note';
    const rule = stale ? 'stale-image' : 'stale-unknown';
    const message = stale ? staleMessage(img) : `${img.repository}: stale status unknown: ${img.reason ?? 'no reason recorded'}`;
    const evidence = { repository: img.repository, digest: img.digest, builtFrom: img.builtFrom, unshipped: img.unshipped, reason: img.reason };
    const hint = STALE_RULES.find((r) => r.id === rule)!.hint;
    const locations = img.pins.length > 0 ? img.pins : [undefined];
    for (const pin of locations) {
      out.push({
        rule,
        severity,
        message,
        hint,
        evidence,
        ...(pin ? { file: pin.file, line: pin.line } : {}),
        fingerprint: fingerprint(rule, img.repository, img.digest, pin?.file, pin?.keyPath),
      });
    }
  }
  return out;
}

/** "this PR changes the inputs of X: its build must rebuild and repin X", at the image's first pin. */
function rebuildFinding(img: StaleImage): Finding {
  const commits = img.rebuild ?? [];
  const shown = commits.slice(0, 3).map((c) => `${c.commit.slice(0, 10)} ${c.subject}`);
  const more = commits.length > shown.length ? `, and ${commits.length - shown.length} more` : '';
  const pin = img.pins[0];
  return {
    rule: 'rebuild-needed',
    severity: 'note',
    message: `this PR changes the inputs of ${img.image}: its build must rebuild and repin ${img.image} (${commits.length} commit(s): ${shown.join('; ')}${more})`,
    hint: STALE_RULES.find((r) => r.id === 'rebuild-needed')!.hint,
    evidence: { repository: img.repository, digest: img.digest, rebuild: commits },
    ...(pin ? { file: pin.file, line: pin.line } : {}),
    fingerprint: fingerprint('rebuild-needed', img.repository, img.digest, pin?.file, pin?.keyPath),
  };
}
