// The stale benchmark's synthetic history (also used by the answers test,
// test/stale/golden.test.ts): a deterministic git fast-import stream.
import { createHash } from 'node:crypto';
import { prng } from '../prng.mjs';

/** The digest release `r` of image `i` is stamped with (also what the running bench's pods run). */
export const digest = (i, r) => `sha256:${createHash('sha256').update(`img${i}-r${r}`).digest('hex')}`;
const values = (i, r) => `controller:\n  image: "ghcr.io/bench/img${i}:v0.${r}.0@${digest(i, r)}"\n`;

/**
 * The `git fast-import` stream of the synthetic monorepo: `images` images,
 * `commits` commits with a merged side branch every 20 and a release-prep
 * commit stamping about half the digests every `releaseEvery`. Fixed dates:
 * the same stream (and commit ids) every time. With `picks`, each release is
 * prepared on its own branch from before the latest fix, which it cherry-picks
 * (same subject, author date and patch; the fix adds a file), then merged.
 * With `releasesFrom` > 0, no release happens before commit `releasesFrom`:
 * the older commits only change sources, never a pin file, and the first
 * release from there on stamps every image, so every image is built from the
 * last `commits - releasesFrom` commits whatever the age of the history
 * (bench/limits.mjs: 80,000 commits, images built from the last 500). The
 * default (0) is the stream the answers test was recorded on, byte for byte.
 */
export function staleHistoryStream({ images: IMAGES = 300, commits: COMMITS = 20000, releaseEvery: RELEASE_EVERY = 2000, picks: PICKS = false, releasesFrom: RELEASES_FROM = 0 } = {}) {
  const rand = prng(42);
  const parts = [];
  const data = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  const file = (path, content) => `M 100644 inline ${path}\n${data(content)}`;
  let mark = 0;
  let t = Date.parse('2025-01-01T00:00:00Z') / 1000;
  const commit = (branch, msg, files, from, merge, authored) => {
    mark++;
    t += 600;
    parts.push(
      `commit refs/heads/${branch}\nmark :${mark}\nauthor Bench <bench@example.test> ${authored ?? t} +0000\ncommitter Bench <bench@example.test> ${t} +0000\n${data(msg)}` +
        (from ? `from :${from}\n` : '') +
        (merge ? `merge :${merge}\n` : '') +
        files.join(''),
    );
    return mark;
  };
  const config = ['firstParty: [ghcr.io/bench/]', 'include: ["charts/**/values.yaml"]', 'images:'];
  const init = [];
  for (let i = 0; i < IMAGES; i++) {
    config.push(`  img${i}:`, `    repository: ghcr.io/bench/img${i}`, `    context: src/img${i}`);
    init.push(file(`src/img${i}/Dockerfile`, 'FROM alpine\nCOPY . /app\n'), file(`src/img${i}/main.go`, `package main // ${i}\n`), file(`charts/img${i}/values.yaml`, values(i, 0)));
  }
  init.push(file('pinwatch.yaml', `${config.join('\n')}\n`));
  const rootCommit = commit('main', 'chore: start the monorepo', [file('README.md', 'bench\n')]);
  let main = commit('main', 'initial images', init, rootCommit);
  let release = 0;
  let made = 1;
  let lastFix;
  while (made < COMMITS) {
    if (made % RELEASE_EVERY === 0 && made >= RELEASES_FROM) {
      release++;
      const all = RELEASES_FROM > 0 && release === 1;
      const stamps = [];
      for (let i = 0; i < IMAGES; i++) if (rand() < 0.5 || all || (PICKS && lastFix?.k === i)) stamps.push(file(`charts/img${i}/values.yaml`, values(i, release)));
      if (PICKS && lastFix) {
        const branch = `release-${release}`;
        const pick = commit(branch, lastFix.msg, [lastFix.file], lastFix.before, undefined, lastFix.at);
        const prep = commit(branch, `Prepare release v0.${release}.0`, stamps, pick);
        main = commit('main', `Merge release v0.${release}.0`, [...stamps, lastFix.file], main, prep);
        lastFix = undefined;
        made += 3;
        continue;
      }
      main = commit('main', `Prepare release v0.${release}.0`, stamps, main);
      made++;
      continue;
    }
    const k = Math.floor(rand() * IMAGES);
    const type = rand() < 0.4 ? 'fix' : rand() < 0.5 ? 'feat' : 'chore';
    const change = [file(`src/img${k}/main.go`, `package main // ${k} change ${made}\n`)];
    if (made % 20 === 0) {
      const side = commit('side', `${type}(img${k}): change ${made}`, change, main);
      main = commit('main', `Merge pull request #${made} from bench/side`, [], main, side);
      made += 2;
    } else if (PICKS && type === 'fix') {
      const fix = { k, msg: `${type}(img${k}): change ${made} (#${made})`, file: file(`src/img${k}/fix${made}.go`, `package main // fix ${made}\n`), before: main, at: t + 600 };
      main = commit('main', fix.msg, [fix.file], main);
      lastFix = fix;
      made++;
    } else {
      main = commit('main', `${type}(img${k}): change ${made} (#${made})`, change, main);
      made++;
    }
  }
  return `${parts.join('')}done\n`;
}

