/**
 * The answer kept by a `stale` run (src/stale/reuse.ts) is reused only when
 * nothing it depends on changed, and a reused answer never differs from a
 * `--no-cache` run's: on the demo repository, after each change below (one
 * after another, each on top of what the previous cached run kept), cached
 * `stale` JSON equals a `--no-cache` run's, and `stats.reused` and `-v` say
 * whether the answer was reused, or the first reason it was not.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheFor, configureCache } from '../../src/cache/index.js';
import { loadConfig } from '../../src/config/load.js';
import { buildDemoRepo } from '../../src/demo/build.js';
import { gitStats } from '../../src/git/run.js';
import { firstTouch, openAnswer } from '../../src/stale/reuse.js';
import { judgeStale, treeForStale } from '../../src/stale/judge.js';
import { staleReport } from '../../src/stale/repo.js';
import { runCli } from '../support/io.js';
import { normalize } from './golden/repos.mjs';

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The demo repository built afresh for one story, removed after all. */
const demoRepo = (name: string): string => {
  const dir = buildDemoRepo(join(mkdtempSync(join(tmpdir(), `pinwatch-reuse-${name}`)), 'repo'));
  made.push(join(dir, '..'));
  return dir;
};

let clock = Date.parse('2026-08-02T00:00:00Z');
/** git with fixed identities and a date one minute after the last. */
const git = (dir: string, ...args: string[]) => {
  clock += 60_000;
  const date = new Date(clock).toISOString();
  return execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.test', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.test', GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
  }).trim();
};

/** Write (or append to) a file and commit it. */
const commitFile = (dir: string, file: string, text: string, message: string, append = false) => {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  (append ? appendFileSync : writeFileSync)(join(dir, file), text);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', message);
};

/** Add a line at the top of a file (every line below moves down one) and commit it. */
const prependCommit = (dir: string, file: string, line: string, message: string) => commitFile(dir, file, `${line}${readFileSync(join(dir, file), 'utf8')}`, message);

/** Replace the first match of `pattern` in a file (which must have one) and commit it. */
const replaceInFile = (dir: string, file: string, pattern: RegExp, by: string, message: string) => {
  const text = readFileSync(join(dir, file), 'utf8');
  expect(text, `${file} holds ${pattern}`).toMatch(pattern);
  commitFile(dir, file, text.replace(pattern, by), message);
};

/** Commit a file change with its own author date (the committer's is the clock's, as a rebase or cherry-pick leaves it). */
const commitAuthored = (dir: string, file: string, text: string, message: string, authorDate: string) => {
  appendFileSync(join(dir, file), text);
  clock += 60_000;
  const date = new Date(clock).toISOString();
  execFileSync('git', ['-c', 'commit.gpgsign=false', 'commit', '-qam', message], {
    cwd: dir,
    env: { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.test', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.test', GIT_AUTHOR_DATE: authorDate, GIT_COMMITTER_DATE: date },
  });
};
const authorDateOf = (dir: string, rev: string) => execFileSync('git', ['log', '-1', '--format=%aI', rev], { cwd: dir, encoding: 'utf8' }).trim();

/** The demo's images whose inputs hold go.mod (its Go images). */
const GO_IMAGES = ['backup-strategy-controller', 'billing-controller', 'gateway', 'objectstorage-sidecar'];
/** The Go images whose build sees the repository's go.mod (the sidecar's context holds none: its inputs are the context). */
const MODULE_IMAGES = GO_IMAGES.filter((i) => i !== 'objectstorage-sidecar');

const STALE = ['stale', '--format', 'json', '--fail-on-stale', 'never'];

const CHECK = ['check', '--format', 'json'];

type Reused = { from: string; newCommits: number; judged?: string[] } | undefined;

async function run(dir: string, args: string[], cache: boolean) {
  const r = await runCli(['--repo', dir, ...args, ...(cache ? ['-v'] : ['--no-cache'])]);
  const json = JSON.parse(r.out) as { stats?: { reused?: Reused }; stale?: { stats: { reused?: Reused } } };
  return { exit: r.code, answer: normalize(json), reused: (json.stats ?? json.stale?.stats)?.reused, err: r.err };
}

type Answer = { images: { image: string; cherryPicked: { commit: string; equals: string }[]; unshipped: { commit: string }[] }[] };

/** A step of a partial-judgement story: cached stale equals --no-cache, and judged these images again alone, or was not reused at all for this -v reason. */
const judgedStep = (dir: string) => async (name: string, want: string[] | RegExp): Promise<Answer> => {
  const reference = await run(dir, STALE, false);
  const cached = await run(dir, STALE, true);
  expect({ exit: cached.exit, answer: cached.answer }, name).toEqual({ exit: reference.exit, answer: reference.answer });
  if (Array.isArray(want)) expect(cached.reused?.judged, name).toEqual(want);
  else {
    expect(cached.reused, name).toBeUndefined();
    expect(cached.err, name).toMatch(want);
  }
  return cached.answer as Answer;
};

interface Step {
  name: string;
  apply(dir: string): void;
  /**
   * Reused (with this many new commits); reused on a changed tree whose images are the ones judged, with the -v
   * line; the images judged again alone (partial.ts), with the -v reason the whole answer was not reused; or the
   * -v reason it was not reused at all.
   */
  expect: number | RegExp | { judged: string[]; because: RegExp } | { reused: number; because: RegExp };
  args?: string[];
}

const STEPS: Step[] = [
  { name: 'no new commit', apply: () => undefined, expect: 0 },
  { name: 'a new commit of an unrelated root file', apply: (d) => commitFile(d, 'NOTES.txt', 'notes\n', 'docs: notes'), expect: 1 },
  { name: 'a new commit whose subject forges a release (and names a build)', apply: (d) => commitFile(d, 'NOTES.txt', 'more\n', 'Release dashboard\n\nPrepare release v1.0.1: built billing-controller from this commit', true), expect: 2 },
  // a reused answer stays kept at the commit it judged: the count is of the commits since then
  { name: 'two more unrelated commits', apply: (d) => (commitFile(d, 'docs/a.md', 'a\n', 'docs: a'), commitFile(d, 'docs/b.md', 'b\n', 'docs: b')), expect: 4 },
  // the recipe model is read again, and gives the same images: the answer rests on them, not on the tree
  { name: 'a comment in the Makefile', apply: (d) => commitFile(d, 'Makefile', '# a comment\n', 'chore: a comment', true), expect: { reused: 5, because: /answer reused from [0-9a-f]{10}: the tree snapshot does not hold \(.*Makefile changed \(size \d+ → \d+\)\), but the images derived from it are the ones it judged; 5 new commit\(s\) touch no image's pins or inputs/ } },
  { name: 'the same again (the answer kept on the new tree snapshot)', apply: () => undefined, expect: 5 },
  // only inputs touched: the touched images judged again alone (partial.ts), the rest kept
  { name: 'a new commit to an image input', apply: (d) => commitFile(d, 'cmd/gateway/main.go', '\n// a comment\n', 'fix(gateway): comment', true), expect: { judged: ['gateway'], because: /answer not reused: [0-9a-f]{10} changes cmd\/gateway\/main\.go, an input of gateway/ } },
  { name: 'an input commit whose body has a Fixes: trailer', apply: (d) => commitFile(d, 'cmd/gateway/main.go', '\n// tidy\n', 'chore(gateway): tidy\n\nFixes: #12', true), expect: { judged: ['gateway'], because: /an input of gateway/ } },
  { name: 'a commit to go.mod, an input of every Go image that sees it', apply: (d) => commitFile(d, 'go.mod', '\n// deps\n', 'chore(deps): bump', true), expect: { judged: MODULE_IMAGES, because: /changes go\.mod, an input of / } },
  { name: 'an input commit authored before the oldest unshipped commit (a rebased branch)', apply: (d) => commitAuthored(d, 'cmd/gateway/main.go', '\n// old\n', 'fix(gateway): old work', '2026-01-01T00:00:00Z'), expect: /answer not judged again for the touched images alone: gateway gains [0-9a-f]{10}, authored before the oldest commit outside its build/ },
  { name: 'an input commit authored at the same second as an unshipped one', apply: (d) => commitAuthored(d, 'cmd/gateway/main.go', '\n// tie\n', 'fix(gateway): tie', authorDateOf(d, 'HEAD')), expect: /answer not judged again for the touched images alone: gateway gains [0-9a-f]{10}, authored at the same second as an unshipped commit it lists/ },
  // a pin file edited outside its pins: no digest judged comes or goes, the images are the same (the file is read again)
  { name: 'a new commit to a pin file, outside its pins', apply: (d) => commitFile(d, 'packages/system/gateway/values.yaml', '# a comment\n', 'chore(gateway): comment', true), expect: { reused: 1, because: /answer reused from [0-9a-f]{10}: the tree snapshot does not hold \(.*gateway\/values\.yaml changed .*\), but the images derived from it are the ones it judged; 1 new commit\(s\) touch no image's pins or inputs \(1 change\(s\) to pin files, none adding or taking out a digest judged\)/ } },
  // a line added above a pin moves it and every pin below: what a judgement reads of the images is the same, and the
  // report shows the pins where they are written now (cached equals --no-cache, lines and all)
  { name: 'a line added above the pins of a pin file', apply: (d) => prependCommit(d, 'packages/system/gateway/values.yaml', '# the gateway chart\n', 'docs(gateway): a header'), expect: { reused: 2, because: /answer reused from [0-9a-f]{10}: the tree snapshot does not hold \(.*gateway\/values\.yaml changed .*\), but the images derived from it are the ones it judged \(shown where they are written now\); 2 new commit\(s\) touch no image's pins or inputs/ } },
  { name: 'the same again (the answer kept showing the pins where they are now)', apply: () => undefined, expect: 2 },
  // a recipe's lines move: the inputs' words name its line (`from recipe …/Makefile:N`)
  { name: 'a line added above the recipe in an image Makefile', apply: (d) => prependCommit(d, 'packages/system/gateway/Makefile', '# gateway images\n', 'chore(gateway): a header'), expect: { reused: 3, because: /but the images derived from it are the ones it judged \(shown where they are written now\); 3 new commit\(s\)/ } },
  // an input edited and a pin moved in one commit: the touched image judged again alone, and every image shown where it is written now
  {
    name: 'an input edit and a line above a pin, in one commit',
    apply: (d) => {
      writeFileSync(join(d, 'packages/system/gateway/values.yaml'), `# moved again\n${readFileSync(join(d, 'packages/system/gateway/values.yaml'), 'utf8')}`);
      commitFile(d, 'cmd/gateway/main.go', '\n// moved\n', 'fix(gateway): header and comment', true);
    },
    expect: { judged: ['gateway'], because: /answer not reused: [0-9a-f]{10} changes cmd\/gateway\/main\.go, an input of gateway/ },
  },
  // where an image is pinned by tag and its recipe stamps that pin, provenance pairs the stamp with the pin by file and
  // line: both move down together, the pairing holds, and so does the answer
  { name: 'a line added above a stamped pin of an image pinned by tag', apply: (d) => prependCommit(d, 'packages/apps/dashboard/values.yaml', '# the dashboard chart\n', 'docs(dashboard): a header'), expect: { reused: 1, because: /\(shown where they are written now\); 1 new commit\(s\) touch no image's pins or inputs \(1 change\(s\) to pin files, none adding or taking out a digest judged; 1 of them where an image is pinned by tag, none adding a tag judged\)/ } },
  // gateway now lists two commits of one author second (newestFirst's order, kept): a later change to another image's inputs is still judged alone
  { name: 'a file deleted inside an input directory', apply: (d) => (unlinkSync(join(d, 'internal/backup/drivers.go')), git(d, 'commit', '-qam', 'refactor(backup): drop drivers')), expect: { judged: ['backup-strategy-controller'], because: /answer not reused: [0-9a-f]{10} changes internal\/backup\/drivers\.go, an input of backup-strategy-controller/ } },
  // a third-party digest bumped beside a first-party pin (a Renovate PR): nothing judged moves
  { name: 'a third-party digest bumped in a pin file', apply: (d) => replaceInFile(d, 'packages/system/gateway/values.yaml', /redis:7\.2\.5@sha256:[0-9a-f]{64}/, `redis:7.2.6@sha256:${'7'.repeat(64)}`, 'chore(deps): redis 7.2.6'), expect: { reused: 1, because: /1 new commit\(s\) touch no image's pins or inputs \(1 change\(s\) to pin files, none adding or taking out a digest judged\)/ } },
  // where an image is pinned by tag, tag history reads the file's history: a commit adding no tag of the images pinned there is none of its candidates
  { name: 'a pin file where an image is pinned by tag, edited outside its pins', apply: (d) => commitFile(d, 'packages/system/backup-strategy/values.yaml', '# a comment\n', 'chore(backup): comment', true), expect: { reused: 2, because: /2 new commit\(s\) touch no image's pins or inputs \(2 change\(s\) to pin files, none adding or taking out a digest judged; 1 of them where an image is pinned by tag, none adding a tag judged\)/ } },
  { name: 'a pin file where an image is pinned by tag, a line adding a tag pinned there', apply: (d) => commitFile(d, 'packages/system/backup-strategy/values.yaml', '# the restore client was v1.0.0 before\n', 'docs(backup): note the client tag', true), expect: /answer not reused: [0-9a-f]{10} changes packages\/system\/backup-strategy\/values\.yaml, a pin file of [a-z-]+ \(pinned there by tag, adding a tag judged: its tag history reads the file\)/ },
  { name: 'a release stamping a new digest into a pin file', apply: (d) => replaceInFile(d, 'packages/system/gateway/values.yaml', /sha256:17e379ea[0-9a-f]{56}/, `sha256:${'8'.repeat(64)}`, 'Prepare release v1.0.1'), expect: /answer not reused: [0-9a-f]{10} changes packages\/system\/gateway\/values\.yaml, a pin file of gateway, adding or taking out a digest judged/ },
  // a file the scan reads as a pin file, pinning nothing: a digest judged that comes or goes there may date an image (a former pin file)
  { name: 'a judged digest written into a file read as a pin file that pins nothing', apply: (d) => commitFile(d, 'packages/system/notes/values.yaml', `# gateway was sha256:${'8'.repeat(64)}\n`, 'docs: gateway note'), expect: /answer not reused: [0-9a-f]{10} changes packages\/system\/notes\/values\.yaml, a file read as a pin file, adding or taking out a digest judged/ },
  { name: 'the same file edited, the digest kept', apply: (d) => commitFile(d, 'packages/system/notes/values.yaml', '# more\n', 'docs: more', true), expect: { reused: 1, because: /the images derived from it are the ones it judged; 1 new commit\(s\) touch no image's pins or inputs\n/ } },
  {
    name: 'a merge of a side branch whose commit touches an input',
    apply: (d) => {
      git(d, 'checkout', '-qb', 'side1');
      commitFile(d, 'internal/billing/ledger.go', '\n// side\n', 'feat(billing): side change', true);
      git(d, 'checkout', '-q', 'main');
      commitFile(d, 'NOTES.txt', 'main\n', 'docs: on main', true);
      git(d, 'merge', '-q', '--no-ff', '-m', 'Merge side1 (#90)', 'side1');
    },
    expect: { judged: ['billing-controller'], because: /answer not reused: [0-9a-f]{10} changes internal\/billing\/ledger\.go, an input of billing-controller/ },
  },
  {
    name: 'a merge of a side branch that touches nothing',
    apply: (d) => {
      git(d, 'checkout', '-qb', 'side2');
      commitFile(d, 'docs/side.md', 'side\n', 'docs: side');
      git(d, 'checkout', '-q', 'main');
      git(d, 'merge', '-q', '--no-ff', '-m', 'Merge side2 (#91)', 'side2');
    },
    expect: 2,
  },
  {
    name: 'a merge where the judged commit is the second parent',
    apply: (d) => {
      git(d, 'checkout', '-qb', 'other', 'HEAD~2'); // older than the judged commit (the side1 merge: reused answers stay kept there)
      commitFile(d, 'docs/other.md', 'other\n', 'docs: other');
      git(d, 'merge', '-q', '--no-ff', '-m', 'Merge main into other', 'main');
    },
    expect: /answer not reused: [0-9a-f]{10} is not on HEAD's first-parent chain/,
  },
  { name: 'the same again (the answer kept on this branch)', apply: () => undefined, expect: 0 },
  { name: 'a new tag', apply: (d) => git(d, 'tag', 'v2.0.0'), expect: /answer not reused: the git tags changed/ },
  { name: 'a moved tag', apply: (d) => git(d, 'tag', '-f', 'v1.0.0', 'HEAD~2'), expect: /answer not reused: the git tags changed/ },
  { name: 'an amended (force-pushed) judged commit', apply: (d) => git(d, 'commit', '-q', '--amend', '-m', 'Merge main into other (amended)'), expect: /answer not reused: [0-9a-f]{10} is not on HEAD's first-parent chain \(.*amended/ },
  { name: 'HEAD moved back to an older commit', apply: (d) => git(d, 'reset', '-q', '--hard', 'HEAD~1'), expect: /answer not reused: [0-9a-f]{10} is not an ancestor of HEAD/ },
  { name: 'a work-tree edit of an input, not committed', apply: (d) => appendFileSync(join(d, 'packages/apps/dashboard/images/dashboard/Dockerfile'), 'COPY docs /docs\n'), expect: /answer not reused: the tree snapshot does not hold/ },
  { name: 'the edit undone', apply: (d) => git(d, 'checkout', '-q', '--', 'packages/apps/dashboard/images/dashboard/Dockerfile'), expect: /answer not reused: the tree snapshot does not hold/ },
  { name: 'the same again', apply: () => undefined, expect: 0 },
  { name: 'a new commit adding a pinwatch config file elsewhere', apply: (d) => commitFile(d, 'docs/pinwatch.yaml', 'firstParty: []\n', 'docs: example config'), expect: /answer not reused: [0-9a-f]{10} changes docs\/pinwatch\.yaml, a pinwatch config file/ },
  // a comment changes nothing loaded: the same config, the same answer
  { name: 'a comment added to pinwatch.yaml in the work tree', apply: (d) => appendFileSync(join(d, 'pinwatch.yaml'), '# edited\n'), expect: 0 },
  { name: 'pinwatch.yaml edited in the work tree', apply: (d) => appendFileSync(join(d, 'pinwatch.yaml'), 'exclude:\n  - nowhere/\n'), expect: /answer not reused: none kept for this checkout path, these options/ },
  { name: 'the edit committed', apply: (d) => git(d, 'commit', '-qam', 'chore: pinwatch.yaml comment'), expect: /answer not reused: [0-9a-f]{10} changes pinwatch\.yaml, a pinwatch config file/ },
  { name: 'a replace ref', apply: (d) => git(d, 'replace', git(d, 'rev-parse', 'HEAD~1'), git(d, 'rev-parse', 'HEAD~3')), expect: /answer not reused: history rewriters: it has replace refs/ },
  // nothing was kept under the replace ref: the answer kept before it still holds for the same commit
  { name: 'the replace ref removed', apply: (d) => git(d, 'replace', '-d', git(d, 'rev-parse', 'HEAD~1')), expect: 0 },
  { name: 'another image selection (--only)', apply: () => undefined, args: ['gateway'], expect: /answer not reused: none kept for this checkout path, these options/ },
  { name: 'the same selection after an unrelated commit', apply: (d) => commitFile(d, 'NOTES.txt', 'only\n', 'docs: only', true), args: ['gateway'], expect: 1 },
  { name: 'all images again after that commit', apply: () => undefined, expect: 1 },
  // an image not judged (`unknown`: pinned :latest, no method dates it) lists no commit: a change to its inputs changes nothing
  { name: 'pinwatch.yaml gives inputs to an image no method dates', apply: (d) => commitFile(d, 'pinwatch.yaml', 'images:\n  migration-controller:\n    inputs: ["cmd/migration-controller/**"]\n', 'chore: migration-controller inputs', true), expect: /answer not reused: none kept for this checkout path, these options/ },
  { name: 'a new commit to an input of that image, not judged', apply: (d) => commitFile(d, 'cmd/migration-controller/main.go', 'package main\n', 'feat(migration): start'), expect: { reused: 1, because: /1 new commit\(s\) touch no image's pins or inputs \(inputs changed of 1 image\(s\) not judged, whose answer no commit changes: migration-controller\)/ } },
  {
    name: 'one commit to inputs of a judged image and of that one',
    apply: (d) => {
      appendFileSync(join(d, 'cmd/migration-controller/main.go'), '// more\n');
      commitFile(d, 'cmd/gateway/main.go', '\n// both\n', 'fix: gateway and migration', true);
    },
    expect: { judged: ['gateway'], because: /answer not reused: [0-9a-f]{10} changes cmd\/gateway\/main\.go, an input of gateway/ },
  },
  // an image of a judged image's name that is not judged itself (another repository, pinned :main): the judged one alone is judged again
  { name: 'a second pin named gateway, of a repository nothing builds', apply: (d) => commitFile(d, 'packages/system/gateway/values.yaml', 'staging:\n  image: "ghcr.io/acme/platform/staging/gateway:main"\n', 'chore(gateway): a staging pin', true), expect: /answer not reused: the tree snapshot does not hold \(.*gateway\/values\.yaml changed/ },
  { name: 'a new commit to an input of the gateway that is judged', apply: (d) => commitFile(d, 'cmd/gateway/main.go', '\n// staging\n', 'fix(gateway): staging', true), expect: { judged: ['gateway'], because: /answer not reused: [0-9a-f]{10} changes cmd\/gateway\/main\.go, an input of gateway/ } },
  // a git tag of its form dates it: judged from then on, and a change to its inputs is judged again
  { name: 'a git tag that dates that image', apply: (d) => git(d, 'tag', 'migration-controller-latest', 'HEAD~1'), expect: /answer not reused: the git tags changed/ },
  { name: 'a new commit to its inputs, now that it is judged', apply: (d) => commitFile(d, 'cmd/migration-controller/main.go', '// fix\n', 'fix(migration): fix', true), expect: { judged: ['migration-controller'], because: /answer not reused: [0-9a-f]{10} changes cmd\/migration-controller\/main\.go, an input of migration-controller/ } },
];

describe('a kept stale answer is reused only when nothing it depends on changed', () => {
  it('after each change, cached stale equals --no-cache, and is reused exactly when expected', async () => {
    const dir = demoRepo('');
    const first = await run(dir, STALE, true);
    expect(first.reused).toBeUndefined();
    expect(first.err).toMatch(/answer not reused: none kept/);
    for (const step of STEPS) {
      step.apply(dir);
      const args = [...STALE, ...(step.args ?? [])];
      const reference = await run(dir, args, false);
      const cached = await run(dir, args, true);
      expect({ exit: cached.exit, answer: cached.answer }, step.name).toEqual({ exit: reference.exit, answer: reference.answer });
      if (typeof step.expect === 'number') {
        expect(cached.reused, `${step.name}: reused`).toMatchObject({ newCommits: step.expect });
        expect(cached.err, step.name).toMatch(new RegExp(`answer reused from [0-9a-f]{10}: ${step.expect} new commit\\(s\\) touch no image's pins or inputs`));
      } else if ('reused' in step.expect) {
        expect(cached.reused, `${step.name}: reused`).toMatchObject({ newCommits: step.expect.reused });
        expect(cached.reused?.judged, step.name).toBeUndefined();
        expect(cached.err, step.name).toMatch(step.expect.because);
      } else if (!(step.expect instanceof RegExp)) {
        expect(cached.reused?.judged, `${step.name}: judged again`).toEqual(step.expect.judged);
        expect(cached.err, step.name).toMatch(step.expect.because);
        expect(cached.err, step.name).toMatch(new RegExp(`answer judged again for ${step.expect.judged.join(', ')} alone from [0-9a-f]{10}: \\d+ new commit\\(s\\); every other image's judgement kept`));
      } else {
        expect(cached.reused, `${step.name}: not reused`).toBeUndefined();
        expect(cached.err, step.name).toMatch(step.expect);
      }
      // check goes through the same path: it finds the answer stale kept (or reused) for all images
      const checked = await run(dir, CHECK, true);
      expect({ exit: checked.exit, answer: checked.answer }, `${step.name}: check`).toEqual(await run(dir, CHECK, false).then((r) => ({ exit: r.exit, answer: r.answer })));
      if (!step.args && !/rewriters/.test(String(step.expect))) expect(checked.reused, `${step.name}: check reused`).toBeDefined();
    }

  }, 300_000);

  it('judged again alone only where that is the full answer: a new commit that may be a cherry-pick of one in the build is judged in full, and found cherry-picked', async () => {
    const dir = demoRepo('picks-');
    const step = judgedStep(dir);
    await run(dir, STALE, true);
    // work on a branch, authored before what the next build holds
    git(dir, 'checkout', '-qb', 'early');
    commitFile(dir, 'cmd/gateway/other.go', 'package main\n', 'feat(gateway): early work');
    git(dir, 'checkout', '-q', 'main');
    commitFile(dir, 'cmd/gateway/main.go', '\n// picked\n', 'fix(gateway): pick me', true);
    const picked = git(dir, 'rev-parse', 'HEAD');
    const values = join(dir, 'packages/system/gateway/values.yaml');
    writeFileSync(values, readFileSync(values, 'utf8').replace(/sha256:[0-9a-f]{64}/, `sha256:${'a1'.repeat(32)}`));
    git(dir, 'commit', '-qam', 'chore(gateway): repin, built from the pick');
    await step('gateway repinned (built from the pick)', /answer not reused: [0-9a-f]{10} changes packages\/system\/gateway\/values\.yaml, a pin file of gateway/);
    git(dir, 'merge', '-q', '--no-ff', '-m', 'Merge early (#93)', 'early');
    await step('the early work merged (outside the build, authored before it)', /answer not judged again for the touched images alone: /);
    git(dir, 'revert', '--no-edit', picked);
    const reverted = await step('the pick reverted', ['gateway']);
    expect(reverted.images.find((i) => i.image === 'gateway')!.unshipped.map((u) => u.commit)).toContain(git(dir, 'rev-parse', 'HEAD'));
    commitFile(dir, 'cmd/gateway/main.go', '\n// picked\n', 'fix(gateway): pick me', true);
    const again = await step('the pick applied again (its paths and subject)', /answer not judged again for the touched images alone: gateway gains [0-9a-f]{10}, which may be a cherry-pick of a commit in its build/);
    // what the full judgement found: the same patch as the build's, so shipped
    expect(again.images.find((i) => i.image === 'gateway')!.cherryPicked).toEqual([{ commit: git(dir, 'rev-parse', 'HEAD'), equals: picked }]);
    const first = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'revert', '--no-edit', 'HEAD');
    await step('the pick reverted again', ['gateway']);
    commitFile(dir, 'cmd/gateway/main.go', '\n// picked\n', 'fix(gateway): pick me', true);
    const twice = await step('the pick applied a third time', /answer not judged again for the touched images alone: gateway gains [0-9a-f]{10}, which may be a cherry-pick of a commit in its build/);
    // two cherry-picked commits, newest first (newestFirst's order, not the path index's): a later input change judges gateway alone
    expect(twice.images.find((i) => i.image === 'gateway')!.cherryPicked).toEqual([{ commit: git(dir, 'rev-parse', 'HEAD'), equals: picked }, { commit: first, equals: picked }]);
    commitFile(dir, 'cmd/gateway/extra.go', 'package main\n', 'feat(gateway): extra');
    const after = await step('an input change after two cherry-picks', ['gateway']);
    expect(after.images.find((i) => i.image === 'gateway')!.cherryPicked).toHaveLength(2);
  }, 120_000);

  it('an image with no candidate, whose build holds a commit authored late: a new candidate authored before it is judged alone unless its key pairs with a commit of the build', async () => {
    const dir = demoRepo('late-');
    const step = judgedStep(dir);
    await run(dir, STALE, true);
    // a commit of gateway's next build authored late (a rebased branch keeps its author date): the build's history
    // then holds a commit newer than the commits outside it, so its cherry-pick superset is not empty
    commitAuthored(dir, 'cmd/gateway/main.go', '\n// late\n', 'fix(gateway): late-dated', '2026-12-31T00:00:00Z');
    const late = git(dir, 'rev-parse', 'HEAD');
    replaceInFile(dir, 'packages/system/gateway/values.yaml', /sha256:[0-9a-f]{64}/, `sha256:${'b2'.repeat(32)}`, 'chore(gateway): repin, built from the late commit');
    const built = await step('gateway repinned (built from the late commit): current, no candidate', /answer not reused: [0-9a-f]{10} changes packages\/system\/gateway\/values\.yaml, a pin file of gateway/);
    expect(built.images.find((i) => i.image === 'gateway')).toMatchObject({ unshipped: [] });
    // a PR's commit to another input, authored now (before the late commit): no commit of the build changes its paths
    git(dir, 'checkout', '-qb', 'pr');
    commitFile(dir, 'cmd/gateway/other.go', 'package main\n', 'feat(gateway): other');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'merge', '-q', '--no-ff', '-m', 'Merge pr (#96)', 'pr');
    await step('an input commit authored before the build\'s newest commit', ['gateway']);
    // the late commit reverted, then applied again under its subject: the second may pair with the build's, judged in full
    git(dir, 'revert', '--no-edit', late);
    await step('the late commit reverted', ['gateway']);
    appendFileSync(join(dir, 'cmd/gateway/main.go'), '\n// late\n');
    git(dir, 'commit', '-qam', 'fix(gateway): late-dated');
    const again = await step('the late commit applied again (its paths and subject)', /answer not judged again for the touched images alone: gateway gains [0-9a-f]{10}, which may be a cherry-pick of a commit in its build/);
    expect(again.images.find((i) => i.image === 'gateway')!.cherryPicked).toEqual([{ commit: git(dir, 'rev-parse', 'HEAD'), equals: late }]);
  }, 120_000);

  it('a new commit authored before the oldest commit outside a build widens no pool unless it touches the inputs: judged alone, and every pick fact kept', async () => {
    const dir = demoRepo('old-');
    const step = judgedStep(dir);
    await run(dir, STALE, true);
    // a docs branch started long ago (its author date kept, before any commit of the demo), merged beside a gateway fix
    git(dir, 'checkout', '-qb', 'docs');
    commitAuthored(dir, 'docs/release.md', '\nold notes\n', 'docs: old notes', '2025-01-01T00:00:00Z');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'merge', '-q', '--no-ff', '-m', 'Merge docs (#97)', 'docs');
    const merged = await run(dir, STALE, true);
    expect(merged.reused, 'the docs merge touches nothing judged').toMatchObject({ newCommits: 2 });
    commitFile(dir, 'cmd/gateway/main.go', '\n// fix\n', 'fix(gateway): after the docs merge', true);
    // on the build before: "gateway gains a new commit authored before the oldest commit outside its build"
    await step('a gateway fix on top of an old-authored commit', ['gateway']);
    // billing was untouched there: its pick facts were kept (on the build before they were dropped: "has no pick facts kept")
    commitFile(dir, 'internal/billing/ledger.go', '\n// fix\n', 'fix(billing): ledger', true);
    await step('then a billing fix', ['billing-controller']);
    // a candidate authored that early: its pool would reach past the superset the keys were taken from
    commitAuthored(dir, 'cmd/gateway/main.go', '\n// early\n', 'fix(gateway): early work', '2025-02-01T00:00:00Z');
    await step('a gateway commit authored before the oldest commit outside its build', /answer not judged again for the touched images alone: gateway gains [0-9a-f]{10}, authored before the oldest commit outside its build/);
  }, 120_000);

  it('an image built off the judged history (a side branch) is judged again alone, until that branch is merged', async () => {
    const dir = demoRepo('offhead-');
    const step = judgedStep(dir);
    // gateway pinned at a tag naming a commit of a side branch (tag-commit provenance): built off main's history
    git(dir, 'checkout', '-qb', 'release');
    commitFile(dir, 'cmd/gateway/release.go', 'package main\n', 'feat(gateway): release work');
    const built = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'checkout', '-q', 'main');
    const values = join(dir, 'packages/system/gateway/values.yaml');
    writeFileSync(values, readFileSync(values, 'utf8').replace(/tag: v1\.0\.0\n\s+digest: "sha256:[0-9a-f]{64}"/, `tag: sha-${built.slice(0, 7)}`));
    git(dir, 'commit', '-qam', 'chore(gateway): pin the release build');
    const first = await step('pinned at the release build', /answer not reused: /);
    expect(first.images.find((i) => i.image === 'gateway')).toMatchObject({ builtFrom: { commit: built, method: 'tag-commit' } });
    commitFile(dir, 'cmd/gateway/main.go', '\n// on main\n', 'fix(gateway): on main', true);
    await step('an input change on main', ['gateway']);
    git(dir, 'merge', '-q', '--no-ff', '-m', 'Merge release (#95)', 'release');
    await step('the release branch merged (the build now in the new commits)', /answer not judged again for the touched images alone: gateway was built off the history the answer judged, and the new commit [0-9a-f]{10} is in that build's history/);
  }, 120_000);

  it('git cherry-pick of a commit in the build (its author date kept, older than every commit outside the build) is judged in full', async () => {
    const dir = demoRepo('cherry-');
    const step = judgedStep(dir);
    commitFile(dir, 'cmd/gateway/main.go', '\n// picked\n', 'fix(gateway): pick me', true);
    const picked = git(dir, 'rev-parse', 'HEAD');
    const values = join(dir, 'packages/system/gateway/values.yaml');
    writeFileSync(values, readFileSync(values, 'utf8').replace(/sha256:[0-9a-f]{64}/, `sha256:${'b2'.repeat(32)}`));
    git(dir, 'commit', '-qam', 'chore(gateway): repin, built from the pick');
    await run(dir, STALE, true);
    commitFile(dir, 'go.mod', '\n// deps\n', 'chore(deps): bump', true);
    await step('go.mod changed after the build', MODULE_IMAGES);
    git(dir, 'revert', '--no-edit', picked);
    await step('the pick reverted', ['gateway']);
    git(dir, 'cherry-pick', picked);
    const again = await step('the pick cherry-picked back', /answer not judged again for the touched images alone: gateway gains [0-9a-f]{10}, authored before the oldest commit outside its build/);
    expect(again.images.find((i) => i.image === 'gateway')!.cherryPicked).toEqual([{ commit: git(dir, 'rev-parse', 'HEAD'), equals: picked }]);
  }, 120_000);

  it('PR mode (check --base, the documented PR job) takes the kept judgement and splits off the PR\'s own commits', async () => {
    const dir = demoRepo('pr-');
    const base = git(dir, 'rev-parse', 'HEAD');
    const pr = (extra: string[] = []) => [...CHECK, '--base', base, ...extra];
    const same = async (name: string, args: string[]) => {
      const [reference, cached] = [await run(dir, args, false), await run(dir, args, true)];
      expect({ exit: cached.exit, answer: cached.answer }, name).toEqual({ exit: reference.exit, answer: reference.answer });
      return cached;
    };
    // the PR's first commit, judged in full and kept before its split
    git(dir, 'checkout', '-qb', 'pr');
    commitFile(dir, 'cmd/gateway/main.go', '\n// pr 1\n', 'feat(gateway): first PR commit', true);
    expect((await same('first PR run', pr())).reused).toBeUndefined();
    const rebuilds = (r: { answer: unknown }) => (r.answer as { stale: { images: { image: string; rebuild?: { subject: string }[] }[] } }).stale.images.find((i) => i.image === 'gateway')!.rebuild!.map((u) => u.subject);
    // rerun: the kept answer, split again
    const rerun = await same('the same PR head again', pr());
    expect(rerun.reused).toMatchObject({ newCommits: 0 });
    expect(rebuilds(rerun)).toEqual(['feat(gateway): first PR commit']);
    // a push of a commit to gateway's sources: gateway judged again alone, its new commit a rebuild too
    commitFile(dir, 'cmd/gateway/main.go', '\n// pr 2\n', 'fix(gateway): second PR commit', true);
    const pushed = await same('a second push', pr());
    expect(pushed.reused).toMatchObject({ newCommits: 1, judged: ['gateway'] });
    expect(rebuilds(pushed)).toEqual(['fix(gateway): second PR commit', 'feat(gateway): first PR commit']);
    // the same kept judgement serves the run without a base (every commit of the PR unshipped)
    expect((await same('no base', [...CHECK])).reused).toMatchObject({ newCommits: 0 });
    // a base that names no commit: the same usage error whether or not an answer could be reused
    const bad = ['--repo', dir, ...CHECK, '--base', 'no-such-branch'];
    const [cachedBad, plainBad] = [await runCli([...bad]), await runCli([...bad, '--no-cache'])];
    expect(cachedBad).toMatchObject({ code: 2, out: '' });
    expect(cachedBad.err).toMatch(/\[unknown-revision\] base "no-such-branch" does not name a commit here/);
    expect(cachedBad.err).toBe(plainBad.err);
  }, 120_000);

  it('a shallow clone deepened is not reused; the same depth again is', async () => {
    const demo = buildDemoRepo(join(mkdtempSync(join(tmpdir(), 'pinwatch-reuse-shallow-')), 'repo'));
    made.push(join(demo, '..'));
    const dir = join(demo, '..', 'shallow');
    execFileSync('git', ['clone', '-q', '--depth', '4', `file://${demo}`, dir]);
    const first = await run(dir, STALE, true);
    expect(first.answer).toEqual((await run(dir, STALE, false)).answer);
    const again = await run(dir, STALE, true);
    expect(again.reused).toMatchObject({ newCommits: 0 });
    expect(again.answer).toEqual(first.answer);
    execFileSync('git', ['fetch', '-q', '--deepen', '3'], { cwd: dir });
    const deeper = await run(dir, STALE, true);
    expect(deeper.reused).toBeUndefined();
    expect(deeper.err).toMatch(/answer not reused: the shallow state changed/);
    expect(deeper.answer).toEqual((await run(dir, STALE, false)).answer);
  }, 120_000);

  it('an object that makes a tag-commit abbreviation ambiguous (no ref, no commit) is not reused', async () => {
    const dir = demoRepo('abbrev-');
    // dashboard's tag v20260702-b016fd43 read as embedding the 4-hex abbreviation b016 (short enough to collide with)
    appendFileSync(join(dir, 'pinwatch.yaml'), "provenance:\n  tagCommitPattern: '^v\\d{8}-(?<commit>[0-9a-f]{4})'\n");
    const abbrev = /tag: v\d{8}-([0-9a-f]{4})/.exec(readFileSync(join(dir, 'packages/apps/dashboard/values.yaml'), 'utf8'))![1]!;
    const first = await run(dir, STALE, true);
    const dashboard = (r: typeof first) => (r.answer as { images: { image: string; builtFrom: { method: string } | null }[] }).images.find((i) => i.image === 'dashboard')!;
    expect(dashboard(first).builtFrom?.method).toBe('tag-commit');
    expect((await run(dir, STALE, true)).reused).toMatchObject({ newCommits: 0 });
    // a blob sharing the prefix changes nothing (the lookup asks for a commit)
    const collide = (type: 'blob' | 'commit', body: (n: number) => string) => {
      for (let n = 0; ; n++) {
        const text = body(n);
        if (createHash('sha1').update(`${type} ${Buffer.byteLength(text)}\0${text}`).digest('hex').startsWith(abbrev)) {
          execFileSync('git', ['hash-object', '-t', type, '-w', '--stdin'], { cwd: dir, input: text });
          return;
        }
      }
    };
    collide('blob', (n) => `collide ${n}\n`);
    const still = await run(dir, STALE, true);
    expect(still.reused).toMatchObject({ newCommits: 0 });
    expect(still.answer).toEqual((await run(dir, STALE, false)).answer);
    // a dangling commit sharing it (no ref, not in HEAD's history: what a fetch of another branch leaves) makes it ambiguous
    const tree = execFileSync('git', ['rev-parse', 'HEAD^{tree}'], { cwd: dir, encoding: 'utf8' }).trim();
    collide('commit', (n) => `tree ${tree}\nauthor T <t@example.test> 1780000000 +0000\ncommitter T <t@example.test> 1780000000 +0000\n\ncollide ${n}\n`);
    const after = await run(dir, STALE, true);
    expect(after.reused).toBeUndefined();
    expect(after.err).toMatch(new RegExp(`answer not reused: the commit abbreviation ${abbrev} an image tag embeds resolves otherwise now`));
    expect(after.answer).toEqual((await run(dir, STALE, false)).answer);
    expect(dashboard(after).builtFrom?.method).not.toBe('tag-commit');
  }, 120_000);

  it('a corrupt kept answer is a miss, never an answer', async () => {
    const dir = demoRepo('corrupt-');
    await run(dir, STALE, true);
    const cacheDir = join(dir, '.git', 'pinwatch', 'cache');
    const answers = join(cacheDir, readdirSync(cacheDir)[0]!, 'answer');
    const [file] = readdirSync(answers);
    writeFileSync(join(answers, file!), 'pinwatch-cache 1\n{"ns":"answer"}\nnot an answer');
    const after = await run(dir, STALE, true);
    expect(after.reused).toBeUndefined();
    expect(after.err).toMatch(/answer not reused: none kept/);
    expect(after.answer).toEqual((await run(dir, STALE, false)).answer);
    expect((await run(dir, STALE, true)).reused).toMatchObject({ newCommits: 0 });
  }, 120_000);

  it('library: a scan that comes before the verdict starts no history pass; the verdict starts it when it rules out reuse and a judgement of touched images alone', async () => {
    const dir = demoRepo('gate-');
    const config = loadConfig(dir);
    const now = new Date('2027-06-01T00:00:00Z');
    const strip = (r: Awaited<ReturnType<typeof staleReport>>) => ({ ...r, gitProcesses: 0, timings: {}, history: undefined, reused: undefined });
    /** The kept answer opened as a run opens it, its verdict held back until `open` (git slower than the tree's check). */
    const gated = () => {
      const reuse = openAnswer(dir, config, {}, cacheFor(dir));
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      return { open, reuse, looked: { start: { ms: performance.now(), processes: gitStats.processes, checks: 0 }, reuse: { ...reuse, verdict: gate.then(() => reuse.verdict!) } } };
    };
    configureCache({ enabled: true, env: {} });
    try {
      await staleReport(dir, config, { now });
      // an input of one image edited: the scan is known (its inputs are derived again) before the verdict
      commitFile(dir, 'internal/billing/ledger.go', '\n// gated\n', 'fix(billing): gated', true);
      const touched = gated();
      const tree = await treeForStale(dir, config, {}, 'HEAD', touched.looked);
      expect(tree.history).toBeUndefined(); // before: started at the scan, the kept history read for nothing
      touched.open();
      const alone = await judgeStale(dir, config, { now }, tree);
      expect(alone.reused).toMatchObject({ judged: ['billing-controller'] });
      configureCache({ enabled: false });
      expect(strip(alone)).toEqual(strip(await staleReport(dir, config, { now })));
      configureCache({ enabled: true, env: {} });
      // a pin bump: the verdict, known before the scan, starts the pass, and the scan's pin files are read ahead
      replaceInFile(dir, 'packages/system/gateway/values.yaml', /sha256:17e379ea[0-9a-f]{56}/, `sha256:${'8'.repeat(64)}`, 'Prepare release v1.0.3');
      const bumped = gated();
      bumped.open();
      await bumped.looked.reuse.verdict;
      const full = await treeForStale(dir, config, {}, 'HEAD', bumped.looked);
      expect(full.history?.blobs).toBeDefined();
      const judged = await judgeStale(dir, config, { now }, full);
      expect(judged.reused).toBeUndefined();
      configureCache({ enabled: false });
      expect(strip(judged)).toEqual(strip(await staleReport(dir, config, { now })));
    } finally {
      configureCache({ enabled: false });
    }
  }, 120_000);

  it('library: ages follow this run\'s clock; PR mode reuses the answer before its split; the registry and a test window step are never reused', async () => {
    const dir = demoRepo('lib-');
    const config = loadConfig(dir);
    const strip = (r: Awaited<ReturnType<typeof staleReport>>) => ({ ...r, gitProcesses: 0, timings: {}, history: undefined, reused: undefined });
    const later = new Date('2027-06-01T00:00:00Z');
    configureCache({ enabled: true, env: {} });
    try {
      await staleReport(dir, config, { now: new Date('2026-09-01T00:00:00Z') });
      commitFile(dir, 'NOTES.txt', 'notes\n', 'docs: notes');
      const reused = await staleReport(dir, config, { now: later });
      expect(reused.reused).toMatchObject({ newCommits: 1 });
      const ages = reused.images.flatMap((i) => (i.oldestUnshipped ? [i.oldestUnshipped.ageDays] : []));
      expect(ages.length).toBeGreaterThan(0);
      configureCache({ enabled: false });
      expect(strip(reused)).toEqual(strip(await staleReport(dir, config, { now: later })));
      configureCache({ enabled: true, env: {} });
      // an input changed: that image judged again alone; the kept answer's check and the messages' log count in the run's processes
      commitFile(dir, 'cmd/gateway/main.go', '\n// lib\n', 'fix(gateway): lib', true);
      const judged = await staleReport(dir, config, { now: later });
      expect(judged.reused).toMatchObject({ newCommits: 2, judged: ['gateway'] }); // from the answer kept at the first run (a reused one stays kept there)
      configureCache({ enabled: false });
      expect(strip(judged)).toEqual(strip(await staleReport(dir, config, { now: later })));
      configureCache({ enabled: true, env: {} });
      // not reused at all (a pin changed): the kept answer's check (its blob reader too) counts in the run's processes
      replaceInFile(dir, 'packages/system/gateway/values.yaml', /sha256:17e379ea[0-9a-f]{56}/, `sha256:${'9'.repeat(64)}`, 'Prepare release v1.0.2');
      const before = gitStats.processes;
      const trace = join(dir, '..', 'git-trace.txt');
      process.env.GIT_TRACE = trace;
      const missed = await staleReport(dir, config, { now: later }).finally(() => delete process.env.GIT_TRACE);
      expect(missed.reused).toBeUndefined();
      // the kept answer's check asked HEAD, the root's prefix, the shallow state and the tags: the judgement asks git none of them again
      const asked = readFileSync(trace, 'utf8').split('\n').flatMap((l) => /trace: built-in: git (\S+)/.exec(l)?.[1] ?? []);
      expect(asked.filter((c) => c === 'rev-parse' || c === 'for-each-ref').sort()).toEqual(['for-each-ref', 'rev-parse']);
      // all but the tree snapshot's journal checks (rev-parse, ls-files: counted by no run, before this change too)
      expect(gitStats.processes - before - missed.gitProcesses).toBeGreaterThanOrEqual(0);
      expect(gitStats.processes - before - missed.gitProcesses).toBeLessThanOrEqual(2);
      expect(await staleReport(dir, config, { now: later })).toMatchObject({ reused: { newCommits: 0 } });
      // PR mode: the kept judgement, split by the PR's own commits (the last one here: the pin change)
      const pr = await staleReport(dir, config, { now: later, base: 'HEAD~1' });
      expect(pr.reused).toMatchObject({ newCommits: 0 });
      expect(pr.base).toMatchObject({ rev: 'HEAD~1', prCommits: 1 });
      configureCache({ enabled: false });
      expect(strip(pr)).toEqual(strip(await staleReport(dir, config, { now: later, base: 'HEAD~1' })));
      configureCache({ enabled: true, env: {} });
      for (const opts of [{ windowStep: 3 }, { registry: { fn: async () => ({ revision: undefined }) } as never }, { history: undefined, scan: undefined, somethingNew: 1 } as never]) {
        const r = await staleReport(dir, config, { now: later, ...opts });
        expect(r.reused, JSON.stringify(Object.keys(opts))).toBeUndefined();
      }
    } finally {
      configureCache({ enabled: false });
    }
  }, 120_000);

  it('firstTouch: pins, inputs (with their ignores) and config files, first change said; pin-file changes that move no judged digest', () => {
    const a = { image: 'a', pins: [{ file: 'deploy/a.yaml', line: 1 }], inputs: { count: 1, patterns: [{ path: 'src/a/', why: 'x' }], ignore: ['src/a/docs/'], steps: [] } };
    const b = { image: 'b', pins: [], inputs: { count: 1, patterns: [{ path: 'go.mod', why: 'x' }], ignore: [], steps: [] } };
    const images = [a, b] as never;
    const commit = (paths: string[]) => ({ sha: 'f'.repeat(40), tree: 'e'.repeat(40), parentShas: [], date: '', commitTime: 0, subject: '', entries: paths.map((path) => ({ path, oldBlob: '0'.repeat(40), newBlob: '1'.repeat(40), status: 'M' })) });
    const table: [string[], RegExp | undefined][] = [
      [['README.md', 'docs/x.md'], undefined],
      [['src/a/docs/readme.md'], undefined],
      [['src/a/main.go'], /src\/a\/main\.go, an input of a/],
      [['deploy/a.yaml'], /deploy\/a\.yaml, a pin file of a/],
      [['go.mod'], /go\.mod, an input of b/],
      [['x/.pinwatch.yml'], /a pinwatch config file/],
      [['src/b/main.go', 'README.md'], undefined],
    ];
    for (const [paths, want] of table) {
      const said = firstTouch([commit(paths)], { images });
      if (want) expect(said, paths.join(' ')).toMatch(want);
      else expect(said, paths.join(' ')).toBeUndefined();
    }
    // with what the changes do to judged digests and tags: a pin file's change that moves no digest is no touch, unless it adds a tag of an image pinned there by tag
    const digestImages = [{ ...a, digest: `sha256:${'a'.repeat(64)}` }, { image: 't', pins: [{ file: 'deploy/t.yaml', line: 1 }], inputs: { count: 0, patterns: [], ignore: [], steps: [] } }, b] as never;
    // `tagged`: the files whose change adds a tag judged (absent: tag history's reader was not asked, every such change is said to)
    const edits = (moving: string[], tagged?: string[]) => ({ pinLike: (p: string) => p.startsWith('deploy/'), moves: (e: { path: string }) => moving.includes(e.path), ...(tagged ? { addsTag: (_sha: string, p: string) => tagged.includes(p) } : {}) });
    const withEdits: [string[], string[], RegExp | undefined, string[]?][] = [
      [['deploy/a.yaml'], [], undefined],
      [['deploy/a.yaml'], ['deploy/a.yaml'], /deploy\/a\.yaml, a pin file of a, adding or taking out a digest judged/],
      [['deploy/t.yaml'], [], /deploy\/t\.yaml, a pin file of t \(pinned there by tag, adding a tag judged/],
      [['deploy/t.yaml'], [], undefined, []],
      [['deploy/t.yaml'], [], /deploy\/t\.yaml, a pin file of t \(pinned there by tag, adding a tag judged/, ['deploy/t.yaml']],
      [['deploy/t.yaml'], ['deploy/t.yaml'], /deploy\/t\.yaml, a pin file of t, adding or taking out a digest judged/, []],
      [['deploy/notes.yaml'], [], undefined],
      [['deploy/notes.yaml'], ['deploy/notes.yaml'], /deploy\/notes\.yaml, a file read as a pin file, adding or taking out a digest judged/],
      [['docs/notes.yaml'], ['docs/notes.yaml'], undefined],
      [['deploy/a.yaml', 'src/a/main.go'], [], /src\/a\/main\.go, an input of a/],
    ];
    for (const [paths, moving, want, tagged] of withEdits) {
      const said = firstTouch([commit(paths)], { images: digestImages }, edits(moving, tagged));
      if (want) expect(said, `${paths.join(' ')} moving ${moving.join(' ')}`).toMatch(want);
      else expect(said, `${paths.join(' ')} moving ${moving.join(' ')}`).toBeUndefined();
    }
  });
});
