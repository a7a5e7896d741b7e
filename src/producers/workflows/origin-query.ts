/**
 * The one question the workflow reader asks of the repository's git config: the
 * `owner/name` of its github.com `origin` remote (the github context's
 * `repository`). It is asked as a content question (util/tracked-fs.ts
 * contentQuery), so a snapshot records the answer, not the file's hash: a CI
 * checkout rewrites `.git/config` every job (actions/checkout keeps the job's
 * token in it), and only a changed origin changes what the workflows build.
 * Small on purpose: snapshot/check.ts asks it again without loading the reader.
 */
import { remoteUrls } from '../../git/remote.js';
import { readFileSync, statSync } from '../../util/tracked-fs.js';

/** The content question's kind. */
export const ORIGIN_QUERY = 'github-origin';

/** `owner/name` of a github.com `origin` remote in a git config's text; undefined when there is none. */
export function githubOriginOf(config: string): string | undefined {
  const url = remoteUrls(config).get('origin');
  const m = url ? /github\.com[:/]([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/.exec(url) : undefined;
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/** The answer as a snapshot keeps it: the origin, or `-` (no such remote, or no config file). */
export const originAnswer = (origin: string | undefined): string => origin ?? '-';

/** ORIGIN_QUERY asked again of the config file `abs` (a snapshot check, where nothing records: tracked-fs reads plainly then). */
export function originQueryAnswer(abs: string): string {
  try {
    return originAnswer(statSync(abs).isFile() ? githubOriginOf(readFileSync(abs, 'utf8')) : undefined);
  } catch {
    return originAnswer(undefined);
  }
}
