/** What a commit subject says: PR number and conventional-commit type. */

const PR_IN_SUBJECT = /\(#(\d+)\)/g;
const MERGE_PR = /^Merge pull request #(\d+)\b/;
const CONVENTIONAL = /^([A-Za-z]+)(?:\([^)]*\))?!?:\s/;

/** `fix(x): y (#12)` → 12; `Merge pull request #12 from …` → 12; the last `(#n)` wins. */
export function prNumber(subject: string): number | undefined {
  const merge = MERGE_PR.exec(subject);
  if (merge) return Number(merge[1]);
  let last: string | undefined;
  for (const m of subject.matchAll(PR_IN_SUBJECT)) last = m[1];
  return last === undefined ? undefined : Number(last);
}

/** `fix(scope)!: x` → `fix`; no conventional prefix → undefined. */
export function conventionalType(subject: string): string | undefined {
  const m = CONVENTIONAL.exec(subject);
  return m ? m[1]!.toLowerCase() : undefined;
}
