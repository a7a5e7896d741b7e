/** `pinwatch explain IMAGE` as text: one section per question, each answer with how it was found. */
import type { Explanation } from '../explain/index.js';
import { terminalSafe } from './sanitize.js';
import { typeText } from './stale-common.js';
import { recipeAt } from '../producers/recipes.js';

export function formatExplainText(e: Explanation): string {
  const out: string[] = [`${e.image}  (${e.repository})${e.declared ? `  declared in pinwatch.yaml as images.${e.declared.key}` : ''}`, ''];
  out.push(`pins (${e.pins.length}):`);
  for (const { pin, producers } of e.pins) {
    out.push(`  ${pin.file}:${pin.line}${pin.keyPath ? ` ${pin.keyPath}` : ''}  ${pin.raw}  [${pin.shape}, ${pin.form}]`);
    if (producers.length === 0) out.push('    producer: none found (no recipe writes this pin)');
    for (const p of producers) out.push(`    producer: ${p.id}${p.via.length ? ` (${p.via.join('; ')})` : ''}${p.built ? `, built via ${(p.builtVia ?? []).join(' → ') || 'the build entry'}` : ', NOT reached by the build entry'}`);
  }
  out.push('', `build recipe(s) (${e.recipes.length}):`);
  if (e.recipes.length === 0 && e.recipeProblems.length === 0) out.push('  none found');
  for (const p of e.recipeProblems) {
    out.push(`  ${p.file ?? '?'}${p.line ? `:${p.line}` : ''} not read (${p.code}): ${p.reason}`);
    if (e.declared) out.push(`    pinwatch.yaml declares it (images.${e.declared.key}): the inputs below come from there`);
  }
  for (const r of e.recipes) {
    const what = r.ko
      ? `ko, main package ${r.ko.main}${r.ko.importPath ? ` (${r.ko.importPath})` : ''}, base ${r.ko.baseImage}${r.ko.config ? ` (${r.ko.config})` : ''}`
      : `dockerfile ${r.dockerfile}, context ${r.context}${r.stage ? `, target ${r.stage}` : ''}`;
    out.push(`  ${recipeAt(r)} ${r.target}${r.lineIn ? ` (read from ${r.makefile})` : ''}: ${what}${r.profile ? ` [profile ${r.profile}]` : ''}${r.repositories.length ? '' : ' (names no repository)'}`);
    out.push(`    ${r.command}`);
  }
  for (const s of e.stale) {
    out.push('', `digest ${s.digest ?? '(none)'}${s.tags.length ? `  tags ${s.tags.join(', ')}` : ''}: ${s.status}${s.reason ? ` — ${s.reason}` : ''}`);
    out.push(`  build inputs (${s.inputs.count}):`);
    if (s.inputs.unknownReason) out.push(`    unknown: ${s.inputs.unknownReason}`);
    for (const p of s.inputs.patterns) out.push(`    ${p.path}${p.kind ? ` [${p.kind}]` : ''}  ← ${p.why}`);
    if (s.inputs.ignore.length) out.push(`    ignored: ${s.inputs.ignore.join(', ')}`);
    if (s.inputs.steps.length) {
      out.push('  how the inputs were found:');
      s.inputs.steps.forEach((step, i) => out.push(`    ${i + 1}. ${step}`));
    }
    out.push('  provenance (strongest first):');
    for (const step of s.provenance) out.push(`    ${step.method}: ${step.answered ? `ANSWERED ${step.commit}` : 'no'} — ${step.reason}`);
    if (s.builtFrom) out.push(`  built from ${s.builtFrom.commit}${s.builtFrom.subject ? ` "${s.builtFrom.subject}"` : ''} (${s.builtFrom.method})`);
    if (s.status === 'stale' || s.status === 'current') {
      out.push(`  unshipped (${s.unshipped.length}):`);
      for (const u of s.unshipped) out.push(`    ${u.commit.slice(0, 10)} ${u.date.slice(0, 10)} ${typeText(u)} ${u.pr ? `#${u.pr}` : '-'} ${u.subject}  [${u.paths.join(', ')}]`);
      for (const c of s.cherryPicked) out.push(`    (${c.commit.slice(0, 10)} is already shipped as cherry-pick ${c.equals.slice(0, 10)})`);
    }
  }
  if (e.missingInputsReason) out.push('', `build inputs: ${e.missingInputsReason}`);
  for (const n of e.notes) out.push('', `note: ${n}`);
  return terminalSafe(`${out.join('\n')}\n`);
}
